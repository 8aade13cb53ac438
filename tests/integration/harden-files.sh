# Files that others control or that grow (issue 14), sourced by run.sh: a
# /proc/swaps longer than a page.
# Uses run.sh's helpers (check, expect_rc, wait_for, start_daemon, ...).

# stop_within SECONDS SIGNAL: stop_daemon, but a daemon that does not exit in
# time is killed (SIGKILL) and 124 returned, so that a hang fails a check
# instead of the whole suite.
exited() { # exited PID: gone, or a zombie waiting for us
	! kill -0 "$1" 2>/dev/null || grep -q ') Z ' "/proc/$1/stat" 2>/dev/null
}
stop_within() {
	local rc=0
	kill -"$2" "$DPID"
	if ! wait_for "$1" exited "$DPID"; then
		kill -9 "$DPID" 2>/dev/null || true
		wait "$DPID" 2>/dev/null || true
		return 124
	fi
	wait "$DPID" || rc=$?
	return $rc
}

# --- /proc/swaps longer than a page --------------------------------------------
# 150 zram areas: about 5 KiB. Cut at 4 KiB, the last line was half a line, the
# file unparsable, and max = auto fell from 200 to 100.
fake_swaps $(seq -f '/dev/zram%g' 0 149)
check "the fake /proc/swaps is longer than 4 KiB" test "$(stat -c %s /proc/swaps)" -gt 4096
out=$("$BIN" --once --dry-run -c "$CONF/min200.conf")
check "max = auto counts every zram area past 4 KiB: 200" grep -q 'swappiness=200 .* max=200 ' <<<"$out"
set_knob 60
start_daemon -c "$CONF/auto.conf"
check "the daemon too: 200 on 150 zram areas" wait_for 15 knob_is 200
check "and logs all 150" wait_for 15 log_has "max = auto: 200 (150 swap devices, 150 on zram"
stop_within 15 TERM || true
check "restores after the long /proc/swaps" knob_is 60
fake_swaps /dev/vdb
