# Sourced by tests/integration/run.sh: the adaptive policy testing its own effect
# in the real binary (autoswappiness(7), THE ADAPTIVE POLICY). It needs swap-outs,
# which run.sh's fake_vmstat takes as its optional sixth argument.

# adaptive_vmstat FILE_REFAULTS SWAPINS SWAPOUTS SCANNED: cumulative counters; the
# swap-ins go into pswpin and workingset_refault_anon alike, the scan is all stolen.
adaptive_vmstat() { fake_vmstat "$1" "$2" "$2" "$4" "$4" "$3"; }
av_f=0 av_i=0 av_o=0 av_sc=0
# adaptive_pump SECONDS FILE SWAPIN SWAPOUT COMMAND...: the counters grow by these for
# every 50 ms that passes (pump_steps in run.sh) until COMMAND succeeds (the daemon polls
# every 1000 ms here, so that each poll sees several steps: a shell that stalled longer
# than a poll interval on a busy machine left a poll with no new counters, a swap-in
# rate of 0, which the policy counts as swap-ins that fell).
adaptive_pump() {
	local end=$((SECONDS + $1)) fs=$2 is=$3 os=$4 n
	shift 4
	PUMP_LAST=0
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		pump_steps
		n=$PUMP_STEPS
		av_f=$((av_f + n * fs)) av_i=$((av_i + n * is)) av_o=$((av_o + n * os)) av_sc=$((av_sc + n * (fs + os + 1000)))
		adaptive_vmstat $av_f $av_i $av_o $av_sc
		sleep 0.05
	done
}

printf '[policy]\nname = adaptive\n[limits]\nmax = 200\n[daemon]\ninterval_ms = 1000\n' >"$CONF/adaptive-cycle.conf"
fake_swaps /dev/vdb
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 1000000
adaptive_vmstat 0 0 0 0

# Swap-outs that do not come back raise it; swap-ins take it back to N at once;
# there they go on as before, with as many swap-outs: unavoidable, so 200 again.
set_knob 60
start_daemon -c "$CONF/adaptive-cycle.conf"
check "adaptive cycle: starts at N (100 on disk swap)" wait_for 15 knob_is 100
check "adaptive cycle: swap-outs without swap-ins raise it to 200" adaptive_pump 15 0 0 2000 knob_is 200
check "adaptive cycle: the rise says why" wait_for 15 log_has 'up 100: file refaults 0/s, swap-outs [0-9]*/s, swap-ins 0/s'
check "adaptive cycle: the first swap-ins take it back to N" adaptive_pump 15 0 2000 2000 knob_is 100
check "adaptive cycle: swap-ins that do not fall at N: back to 200" adaptive_pump 15 0 2000 2000 knob_is 200
check "adaptive cycle: the return says why" wait_for 15 log_has 'inelastic: swap-ins [0-9]*/s at 100, [0-9]*/s at 200; back for 60 s'
check "adaptive cycle: then holds 200 through the same swap-ins" adaptive_pump 15 0 2000 2000 log_has 'hold 200: swap-ins'
check "adaptive cycle: still 200" knob_is 200
stop_daemon TERM || true
check "adaptive cycle: restores the original" knob_is 60

# Swap-ins at N with swap-outs to match: probe 200, keep it when they do not grow.
set_knob 60
start_daemon -c "$CONF/adaptive-cycle.conf"
check "adaptive probe: starts at N" wait_for 15 knob_is 100
check "adaptive probe: swap-ins cycling at N try 200" adaptive_pump 15 0 2000 2000 knob_is 200
check "adaptive probe: kept while the swap-ins stay as they were" adaptive_pump 15 0 2000 2000 log_has 'probe kept: swap-ins [0-9]*/s at 200, [0-9]*/s at 100; hold 60 s'
check "adaptive probe: still 200" knob_is 200
stop_daemon TERM || true

# All swap on zram: N is 200.
fake_swaps /dev/zram0
printf '[policy]\nname = adaptive\n' >"$CONF/adaptive-zram.conf"
out=$("$BIN" --once --dry-run -c "$CONF/adaptive-zram.conf")
check "--once adaptive on zram starts at N = 200" grep -q '^policy=adaptive swappiness=200 .*target=200 max=200 ' <<<"$out"
fake_swaps /dev/vdb
set_knob 60
