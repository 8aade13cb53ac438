# shellcheck shell=bash
# The order of a boot's measured runs (sourced by guest-bench.sh, and by tests/bench-report.sh).
# run_order REPS FIRST SETTING...: prints "SETTING REP" for each run. Each repetition runs every
# setting once; the next run is the one of those left that has followed the last run's setting
# least often so far (FIRST: the setting of the run before the first, the warm-up's), ties to
# the repetition's rotation, each repetition starting one setting further along. Every setting
# then follows every setting about equally often, so a state one run leaves to the next
# (bench/run.sh, BENCH_WASHOUT) weighs on each setting alike. The plain rotation gave each
# setting mostly one and the same predecessor.
run_order() {
	local reps=$1 prev=$2 r i best s
	shift 2
	local settings=("$@") left
	local -A follows=()
	for ((r = 1; r <= reps; r++)); do
		left=()
		for ((i = 0; i < ${#settings[@]}; i++)); do
			left+=("${settings[(i + r - 1) % ${#settings[@]}]}")
		done
		while ((${#left[@]})); do
			best=0
			for ((i = 1; i < ${#left[@]}; i++)); do
				((${follows[$prev/${left[i]}]:-0} < ${follows[$prev/${left[best]}]:-0})) && best=$i
			done
			s=${left[best]}
			echo "$s $r"
			follows[$prev/$s]=$((${follows[$prev/$s]:-0} + 1))
			prev=$s
			left=("${left[@]:0:best}" "${left[@]:best+1}")
		done
	done
}
