#!/bin/bash
# Workload 5: two phases that want opposite swappiness.
#  phase 1: PHASED_IDLE_MIB of idle anonymous memory, and the hot file set (BENCH_DATA/hot)
#           read PHASED_ROUNDS times: a high swappiness swaps the idle memory out and keeps
#           the files cached; a low one re-reads the files from disk every round. The rounds
#           stop at PHASED_P1_CAP_S seconds (phase1_capped=1: phase1_s is then a lower bound),
#           so that phase 2 is measured whatever phase 1 does: on disk swap, static 60 once sat
#           in round 2 until the run's time limit and took its phase 2 with it.
#  phase 2: PHASED_ACTIVE_MIB of anonymous memory at work (anon ... work: it writes every
#           page, pass after pass, until it has spent PHASED_ACTIVE_S seconds of CPU time in
#           user mode: a fixed amount of work) while the cold file (BENCH_DATA/cold) is
#           streamed once (for at most 2 x PHASED_ACTIVE_S): a low swappiness keeps the
#           working set in and lets the stream go; a high one swaps the working set out, and
#           the work waits for it or reclaims for it.
# RESULT, per phase N, totals over the phase (not rates: a rate falls when progress slows):
#   phaseN_pswpin, _pswpout, _refault_anon, _refault_file, _pgmajfault (/proc/vmstat deltas),
#   phaseN_psi_some_us, _psi_full_us (/proc/pressure/memory total deltas, microseconds);
#   phase1_s (all rounds), phase1_round_median_s (of the rounds that finished),
#   phase1_capped (1: stopped at PHASED_P1_CAP_S, a lower bound), phase1_rounds (finished);
#   phase2_work_s (wall time of the fixed work), and what pressure cost it on top:
#   phase2_sys_s (the kernel's time for it), phase2_runq_s (waiting for a CPU),
#   phase2_blocked_s (could not run at all); phase2_user_s, phase2_majflt, phase2_minflt
#   (its own faults), phase2_passes, phase2_capped (1: gave up at 3 x PHASED_ACTIVE_S of
#   wall time, a lower bound), phase2_stream_s,
#   phase2_stream_mbps. Times in seconds with microseconds where the source has them.
# MARK lines give each phase's CLOCK_BOOTTIME window for the time series.
# PHASED_SWITCH_TO=N (a switch setting of the benchmark): vm.swappiness N from phase 2 on.
set -euo pipefail
now() { cut -d' ' -f1 /proc/uptime; }
# Its own scratch files, in TMPDIR (the guest's /tmp; a test's directory on the host).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wl-phased.XXXXXX")
cleanup() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
# "pswpin pswpout refault_anon refault_file pgmajfault psi_some_us psi_full_us"
counters() {
	awk '/^pswpin / { a = $2 } /^pswpout / { b = $2 } /^workingset_refault_anon / { c = $2 }
	     /^workingset_refault_file / { d = $2 } /^pgmajfault / { e = $2 }
	     END { printf "%s %s %s %s %s", a, b, c, d, e }' /proc/vmstat
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^total=/) v[$1] = substr($i, 7) }
	     END { printf " %s %s\n", v["some"], v["full"] }' /proc/pressure/memory
}
totals() { # PHASE "COUNTERS AT START" "COUNTERS AT END"
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		n = split("pswpin pswpout refault_anon refault_file pgmajfault psi_some_us psi_full_us", k, " ")
		printf "RESULT"
		for (i = 1; i <= n; i++) printf " %s_%s=%.0f", p, k[i], y[i] - x[i]
		printf "\n" }'
}

coproc IDLE { exec "$BENCH_BIN/anon" "$PHASED_IDLE_MIB" idle; }
# Bash unsets IDLE_PID once it reaps the coprocess, and may do so when it reports another
# job's death (a capped round): keep the pid.
idle_pid=$IDLE_PID
read -r line <&"${IDLE[0]}"
echo "$line"
c1=$(counters)
p1=$(now)
rounds=""
capped=0
for ((r = 1; r <= PHASED_ROUNDS; r++)); do
	s=$(now)
	left=$(awk -v p="$p1" -v s="$s" -v c="$PHASED_P1_CAP_S" 'BEGIN { l = p + c - s; printf "%.2f", (l > 0.01 ? l : 0.01) }')
	rc=0
	timeout -s KILL "$left" cat "$BENCH_DATA"/hot/* >/dev/null || rc=$?
	e=$(now)
	if ((rc == 137)); then
		capped=1
		echo "round $r: stopped at the phase-1 cap of $PHASED_P1_CAP_S s"
		break
	fi
	((rc == 0)) || { echo "round $r: cat failed (exit $rc)" >&2; exit 1; }
	rounds+=" $(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')"
	echo "round $r: ${rounds##* } s"
done
p1e=$(now)
c1e=$(counters)
kill -TERM "$idle_pid" 2>/dev/null || true
wait "$idle_pid" 2>/dev/null || true
echo "MARK phase1 $p1 $p1e"
median=$(tr ' ' '\n' <<<"$rounds" | { grep . || true; } | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
# No median when no round finished: the figure is left out, not made up.
awk -v s="$p1" -v e="$p1e" -v m="$median" -v c="$capped" -v n="$(wc -w <<<"$rounds")" \
	'BEGIN { printf "RESULT phase1_s=%.2f%s phase1_capped=%d phase1_rounds=%d\n", e - s,
	         m == "" ? "" : " phase1_round_median_s=" m, c, n }'
totals phase1 "$c1" "$c1e"

# A switch setting (bench/guest-bench.sh): the value for phase 2, written at the boundary,
# after phase 1's idle memory is freed and before phase 2 allocates: what a controller that
# knew where the boundary is could do at best.
if [[ -n ${PHASED_SWITCH_TO:-} ]]; then
	echo "$PHASED_SWITCH_TO" >/proc/sys/vm/swappiness || { echo "cannot write vm.swappiness" >&2; exit 1; }
	echo "switched vm.swappiness to $PHASED_SWITCH_TO at $(now)"
fi
c2=$(counters)
p2=$(now)
# The stream starts once the working set is allocated and the anon program starts its work.
coproc ACTIVE { exec "$BENCH_BIN/anon" "$PHASED_ACTIVE_MIB" work "$PHASED_ACTIVE_S"; }
anon=$ACTIVE_PID
exec {afd}<&"${ACTIVE[0]}"
read -r line <&"$afd"
echo "$line"
# At most twice the work's runnable time: a thrashing machine would otherwise stream for
# minutes. dd reports the bytes it read when the time is up (SIGINT) as when it reaches the end.
s=$(now)
timeout -s INT $((2 * PHASED_ACTIVE_S)) dd if="$BENCH_DATA/cold" of=/dev/null bs=1M 2>"$tmp/dd.err" || true
e=$(now)
bytes=$(sed -n 's/^\([0-9]*\) bytes.*copied.*$/\1/p' "$tmp/dd.err" | tail -n 1)
cat <&"$afd" >"$tmp/anon.out"
wait "$anon" || true
p2e=$(now)
c2e=$(counters)
sed 's/^RESULT /anon: /' "$tmp/anon.out"
echo "MARK phase2 $p2 $p2e"
# anon's figures as phase 2's: anon_wall_s is the time the work took, phase2_work_s.
sed -n 's/^RESULT //p' "$tmp/anon.out" | tr ' ' '\n' | sed 's/^anon_wall_s=/phase2_work_s=/; s/^anon_/phase2_/' |
	tr '\n' ' ' | sed 's/^/RESULT /; s/ *$/\n/'

totals phase2 "$c2" "$c2e"
awk -v s="$s" -v e="$e" -v b="${bytes:-0}" 'BEGIN { printf "RESULT phase2_stream_s=%.2f phase2_stream_mbps=%.2f\n", e - s, b / 1048576 / (e - s) }'
