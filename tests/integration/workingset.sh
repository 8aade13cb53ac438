# Sourced by tests/integration/run.sh: the workingset policy in the real binary
# (autoswappiness(7), THE WORKINGSET POLICY): it reads workingset_activate_anon and
# _file from /proc/vmstat and steers the tendency policy's value by them.

# ws_vmstat ANON FILE SCANNED [NO_ACTIVATIONS]: cumulative activation counters and reclaim
# (all stolen); with a fourth argument the activate lines are left out, as on Linux 5.8.
ws_vmstat() {
	awk -v a="$1" -v f="$2" -v sc="$3" -v drop="${4:-}" '
		/^workingset_activate_anon / { if (drop == "") printf "workingset_activate_anon %012d\n", a; next }
		/^workingset_activate_file / { if (drop == "") printf "workingset_activate_file %012d\n", f; next }
		/^pgscan_kswapd / { printf "pgscan_kswapd %012d\n", sc; next }
		/^pgsteal_kswapd / { printf "pgsteal_kswapd %012d\n", sc; next }
		{ print }' "$DATA/vmstat.host-idle" >"$WORK/vmstat.new"
	put "$WORK/vmstat.new" "$V"
}
ws_a=0 ws_f=0 ws_sc=0
# ws_pump SECONDS ANON FILE COMMAND...: the activations grow by these for every 50 ms that
# passes (with reclaim; pump_steps in run.sh) until COMMAND succeeds; the daemon polls every
# 500 ms.
ws_pump() {
	local end=$((SECONDS + $1)) as=$2 fs=$3
	shift 3
	PUMP_LAST=0
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		pump_steps
		ws_a=$((ws_a + PUMP_STEPS * as)) ws_f=$((ws_f + PUMP_STEPS * fs)) ws_sc=$((ws_sc + PUMP_STEPS * 1000))
		ws_vmstat $ws_a $ws_f $ws_sc
		sleep 0.05
	done
}

printf '[policy]\nname = workingset\n[daemon]\ninterval_ms = 500\n' >"$CONF/workingset.conf"
fake_swaps /dev/vdb
# Disk swap, max = auto: 100, or 200 for a rise (as sparing the cache). 1% of RAM in page
# cache that no process maps (Cached + Buffers - Mapped - Shmem); the formula is mapped 4%/2 +
# ck 65 = 67.
fake_meminfo 1000000 300000 0 50000 0 40000 1000000 1000000
ws_vmstat 0 0 0

set_knob 40
start_daemon -c "$CONF/workingset.conf"
check "workingset: reclaim without activations: the tendency's formula, 67" ws_pump 15 0 0 knob_is 67
check "workingset: file working-set refaults steer it up, above auto's 100, to 200" ws_pump 15 0 100 knob_is 200
check "workingset: the rise says why" wait_for 15 log_has '; file +[0-9]* to 200: working set refaults anon 0/s, file [0-9]*/s'
# Above auto's top, the range's top of the poll before is 200: the value must not fall back
# to the configured 100 on the next poll (it did, every other poll, before decide passed
# the configured top).
knob_not() { [ "$(knob)" != "$1" ]; }
ws_never() { ! ws_pump "$@"; } # ws_never SECONDS ANON FILE COMMAND: COMMAND never succeeds
check "workingset: and stays at 200 for 3 s of polls" ws_never 3 0 100 knob_not 200
# Between bursts of reclaim the rise is kept above auto's top: clamped to 100 on a poll
# without reclaim, it went back to 200 at the next burst (a loaded machine's pump showed it).
ws_quiet=$(grep -c 'stay at 200: no reclaim' "$WORK/daemon.log" || true)
ws_quiet_more() { [ "$(grep -c 'stay at 200: no reclaim' "$WORK/daemon.log")" -ge $((ws_quiet + 2)) ]; }
check "workingset: polls without reclaim keep the rise" wait_for 15 ws_quiet_more
check "  at 200, not auto's 100" knob_is 200
# 20% unmapped: no rise; the formula (mapped 10%/2 + ck 40) again.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 1000000
check "workingset: a page cache of 20% drops the rise: the formula, 45" ws_pump 15 0 100 knob_is 45
fake_meminfo 1000000 300000 0 50000 0 40000 1000000 1000000
check "workingset: the cache gone, file ones raise it again" ws_pump 15 0 100 knob_is 200
check "workingset: anonymous ones take it to 60 at once" ws_pump 15 100 0 knob_is 60
check "workingset: the fall says why" wait_for 15 log_has '; anonymous -[0-9]* to 60: working set refaults anon [0-9]*/s, file [0-9]*/s'
# A snap starts the window (3 polls) afresh, but a fall on the window's means (a poll that a
# busy host's pump gave fewer than 512 a second) keeps the file polls from before it, and
# alike activations beside them rose again (seen, before the snap restarted the window). 3
# more polls of anonymous ones first leave a window without them either way.
ws_mark=$(grep -c 'POLICY=workingset' "$WORK/daemon.log" || true)
ws_polled() { [ "$(grep -c 'POLICY=workingset' "$WORK/daemon.log")" -ge $((ws_mark + $1)) ]; }
check "workingset: 3 more polls of anonymous ones" ws_pump 15 100 0 ws_polled 3
check "  keep it at 60" knob_is 60
ws_pump 3 100 100 false || true # 3 s of both kinds alike
check "workingset: both alike: the bias is kept, at 60" knob_is 60
check "workingset: and says so" wait_for 15 log_has '; bias -[0-9]* to 60: working set refaults anon [0-9]*/s, file [0-9]*/s'
stop_daemon TERM || true
check "workingset: restores the original" knob_is 40
set_knob 60

# --once has no history to steer by: the tendency policy's formula, whatever the activations.
printf '[policy]\nname = tendency\n' >"$CONF/ws-tendency.conf"
ws_vmstat 500 900 1000
out=$("$BIN" --once --dry-run -c "$CONF/workingset.conf")
want=$("$BIN" --once --dry-run -c "$CONF/ws-tendency.conf")
check "--once workingset: tendency's decision" test "${out#policy=workingset }" = "${want#policy=tendency }"
check "--explain says how it steers" bash -c '"$1" --explain -c "$2" | grep -q "steers that value by the refaults the kernel counts as its working set"' _ "$BIN" "$CONF/workingset.conf"
# A kernel without the activation counters (before 5.9): the tendency policy decides.
ws_vmstat 0 0 0 drop
out=$("$BIN" --once --dry-run -c "$CONF/workingset.conf")
want=$("$BIN" --once --dry-run -c "$CONF/ws-tendency.conf")
check "--once workingset without activation counters: tendency's decision" \
	test "${out#policy=workingset }" = "${want#policy=tendency }"
check "--explain says so" bash -c '"$1" --explain -c "$2" | grep -q "but this kernel does not show them (workingset_activate_anon and _file, Linux 5.9 and later), so it is the tendency policy alone"' _ "$BIN" "$CONF/workingset.conf"
fake_vmstat 0 0 0 0 0
