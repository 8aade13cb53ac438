#!/bin/bash
# Integration tests: the real binary against fake kernel files bind-mounted over
# /proc/meminfo, /proc/vmstat, /proc/pressure/memory and /proc/sys/vm/swappiness
# in a private mount namespace (and a private tmpfs on /run), so that the
# machine's own knob and /run are never touched. Needs root (unshare -m).
set -euo pipefail

BIN=${BIN:-build/autoswappiness}
BIN=$(realpath "$BIN")
TOP=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${_AUTOSWAPPINESS_IN_NS:-}" != 1 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "integration: FAIL: needs root for unshare -m (private mount namespace)" >&2
		exit 1
	fi
	exec env _AUTOSWAPPINESS_IN_NS=1 BIN="$BIN" unshare --mount --propagation private "$0" "$@"
fi

WORK=$(mktemp -d /tmp/autoswappiness-it.XXXXXX)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	umount /proc/meminfo /proc/vmstat /proc/pressure/memory /proc/sys/vm/swappiness /run 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

DATA=$TOP/tests/data/proc
M=$WORK/meminfo V=$WORK/vmstat P=$WORK/psi K=$WORK/swappiness

# fake_meminfo TOTAL FREE BUFFERS CACHED SHMEM MAPPED SWAPTOTAL SWAPFREE (kB):
# a real capture with these eight lines replaced.
fake_meminfo() {
	local tmp=$WORK/meminfo.new
	awk -v t="$1" -v f="$2" -v b="$3" -v c="$4" -v s="$5" -v m="$6" -v st="$7" -v sf="$8" '
		function put(k, v) { printf "%-16s%8d kB\n", k ":", v }
		/^MemTotal:/ { put("MemTotal", t); next }
		/^MemFree:/ { put("MemFree", f); next }
		/^Buffers:/ { put("Buffers", b); next }
		/^Cached:/ { put("Cached", c); next }
		/^Shmem:/ { put("Shmem", s); next }
		/^Mapped:/ { put("Mapped", m); next }
		/^SwapTotal:/ { put("SwapTotal", st); next }
		/^SwapFree:/ { put("SwapFree", sf); next }
		{ print }' "$DATA/meminfo.host-idle" >"$tmp"
	# Same inode (the bind mount points at it), one write.
	cat "$tmp" >"$M"
}
knob() { cat "$K"; }
set_knob() { echo "$1" >"$K"; }

cp "$DATA/vmstat.host-idle" "$V"
cp "$DATA/pressure-memory.host-idle" "$P"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
echo 60 >"$K"
mount --bind "$M" /proc/meminfo
mount --bind "$V" /proc/vmstat
mount --bind "$P" /proc/pressure/memory
mount --bind "$K" /proc/sys/vm/swappiness
mount -t tmpfs -o mode=0755 tmpfs /run
STATE=/run/autoswappiness

# Sanity: the fakes are what the process sees, not the machine's files.
check "fake meminfo is mounted" grep -q '^MemTotal: *1000000 kB' /proc/meminfo
check "fake knob is mounted" test "$(cat /proc/sys/vm/swappiness)" = 60

CONF=$WORK/conf
mkdir -p "$CONF"
cat >"$CONF/fast.conf" <<CFG
[daemon]
interval_ms = 100
CFG
cat >"$CONF/bad.conf" <<CFG
[limits]
max = 300
min = 90
bogus = 1
CFG

# --- --once -----------------------------------------------------------------
# app = 100 - 100*(300000+50000+250000)/1000000 = 40; swap = 23; ck = 23.
out=$("$BIN" --once -c "$CONF/fast.conf" 2>"$WORK/err")
check "--once prints the decision" test "$out" = "policy=ck swappiness=23 previous=60 app_centile=40 swap_centile=23 mapped_ratio=10 distress=0 swap_tendency=28 target=23 verdict=write dry_run=no written=yes"
check "--once writes the knob" test "$(knob)" = 23

set_knob 60
out=$("$BIN" --once --dry-run -c "$CONF/fast.conf")
check "--once --dry-run reports written=no" grep -q 'swappiness=23 previous=60 .* dry_run=yes written=no' <<<"$out"
check "--once --dry-run leaves the knob alone" test "$(knob)" = 60

set_knob 25
out=$("$BIN" --once -c "$CONF/fast.conf")
check "--once below step does not write" grep -q 'swappiness=23 previous=25 .*verdict=below-step.*written=no' <<<"$out"
check "--once below step leaves the knob" test "$(knob)" = 25

printf '[policy]\nname = tendency\n[limits]\nmax = 200\n' >"$CONF/tendency.conf"
set_knob 60
out=$("$BIN" --once -c "$CONF/tendency.conf")
# mapped 10% -> 5, distress 0 (idle PSI capture), ck 23 -> 28.
check "--once tendency" grep -q '^policy=tendency swappiness=28 .*swap_tendency=28 target=28 ' <<<"$out"

# PSI avg10 counts as distress with a single sample.
printf 'some avg10=30.00 avg60=0.00 avg300=0.00 total=1000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' >"$P"
out=$("$BIN" --once --dry-run -c "$CONF/tendency.conf")
check "--once tendency with PSI distress" grep -q 'distress=30 swap_tendency=58 target=58' <<<"$out"
cp "$DATA/pressure-memory.host-idle" "$P"

# No swap: ck is 0.
fake_meminfo 1000000 300000 50000 250000 0 100000 0 0
out=$("$BIN" --once --dry-run -c "$CONF/fast.conf")
check "--once without swap targets 0" grep -q '^policy=ck swappiness=0 .*swap_centile=0 ' <<<"$out"

# Broken kernel files.
set_knob 60
printf 'MemFree: 100 kB\nSwapTotal: 0 kB\n' >"$M"
set +e
"$BIN" --once -c "$CONF/fast.conf" >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
check "--once without MemTotal exits 1" test $rc = 1
check "--once without MemTotal names the file" grep -q "failed to read '/proc/meminfo': no MemTotal" "$WORK/err"
check "--once without MemTotal leaves the knob" test "$(knob)" = 60

printf 'garbage\x01\x02 no colon here\n\n::::\n' >"$M"
set +e
"$BIN" --once -c "$CONF/fast.conf" >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
check "--once on garbage meminfo exits 1 cleanly" test $rc = 1

printf 'not psi\n' >"$P"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
out=$("$BIN" --once --dry-run -c "$CONF/tendency.conf" 2>"$WORK/err")
check "--once with broken PSI still decides" grep -q 'swappiness=28' <<<"$out"
cp "$DATA/pressure-memory.host-idle" "$P"

# --- exit codes and usage -----------------------------------------------------
expect_rc() { # expect_rc WANT DESCRIPTION COMMAND...
	local want=$1 what=$2 rc
	shift 2
	set +e
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	set -e
	if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else not_ok "$what (exit $rc, want $want)"; cat "$WORK/err"; fi
}
expect_rc 0 "-n on a good config" "$BIN" -n -c "$CONF/fast.conf"
check "-n prints configuration OK" grep -qx 'configuration OK' "$WORK/out"
expect_rc 78 "-n on a bad config" "$BIN" -n -c "$CONF/bad.conf"
check "-n reports every error with path:line" bash -c "grep -q '^$CONF/bad.conf:2: key .max.: expected 0..200, got .300.' '$WORK/err' && grep -q '^$CONF/bad.conf:4: unknown key .bogus.' '$WORK/err'"
expect_rc 78 "--check-config on a missing -c file" "$BIN" --check-config -c "$CONF/missing.conf"
check "missing config names the file" grep -q "$CONF/missing.conf: No such file or directory" "$WORK/err"
expect_rc 78 "daemon refuses a bad config" "$BIN" --foreground -c "$CONF/bad.conf"
check "daemon start on bad config leaves the knob" test "$(knob)" = 60
check "daemon start on bad config says why" grep -q 'refusing to start' "$WORK/err"
expect_rc 64 "unknown option" "$BIN" --bogus
expect_rc 64 "stray argument" "$BIN" extra
expect_rc 64 "--once with -n" "$BIN" --once -n
expect_rc 0 "--version" "$BIN" --version
check "--version prints the version" grep -q '^autoswappiness [0-9]' "$WORK/out"
expect_rc 0 "--help" "$BIN" --help
check "--help shows the usage line" grep -q '^usage: autoswappiness \[-c FILE\] \[--once\] \[--dry-run\] \[-n|--check-config\] \[--foreground\] \[-v\] \[--version\] \[-h\]$' "$WORK/out"
check "the shipped config is valid" "$BIN" -n -c "$TOP/conf/autoswappiness.conf"

# --- the daemon -----------------------------------------------------------------
wait_for() { # wait_for SECONDS COMMAND...: poll until COMMAND succeeds
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.05
	done
}
knob_is() { [ "$(knob)" = "$1" ]; }
log_has() { grep -q -- "$1" "$WORK/daemon.log"; }
start_daemon() {
	: >"$WORK/daemon.log"
	"$BIN" --foreground -v "$@" 2>"$WORK/daemon.log" &
	DPID=$!
	PIDS+=("$DPID")
}
stop_daemon() { # stop_daemon SIGNAL: returns the exit code
	local rc=0
	kill -"$1" "$DPID"
	wait "$DPID" || rc=$?
	return $rc
}

set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "daemon writes the ck value" wait_for 5 knob_is 23
check "daemon records the original under /run" test "$(cat $STATE/original)" = 60
check "daemon logs the decision with fields" wait_for 2 log_has 'swappiness 60 -> 23 (ck: min(app 40%, swap free 23%)) .*SWAPPINESS=23 PREVIOUS=60 POLICY=ck APP_CENTILE=40 SWAP_CENTILE=23 MAPPED_RATIO=10 DISTRESS=0 SWAP_TENDENCY=28 REASON=min'

# Swap fills up: the knob follows within a few polls.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 50000
check "daemon follows the samples" wait_for 5 knob_is 5

# Reload with a new limit.
printf '[daemon]\ninterval_ms = 100\n[limits]\nmin = 12\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "reload applies the new min" wait_for 5 knob_is 12
check "reload is logged" wait_for 2 log_has "reloaded '$CONF/live.conf'"

# A broken edit and reload: old config keeps running, error names file:line.
printf '[daemon]\ninterval_ms = 100\n[limits]\nmin = 12\nmax = 5000\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "bad reload names file:line" wait_for 5 log_has "$CONF/live.conf:5: key 'max': expected 0..200, got '5000'"
check "bad reload keeps the running config" wait_for 2 log_has "keeping the running configuration"
sleep 0.3
check "daemon still running after a bad reload" kill -0 "$DPID"
check "knob unchanged by a bad reload" knob_is 12

# SIGTERM restores the original and removes the record.
rc=0
stop_daemon TERM || rc=$?
check "SIGTERM exits 0" test $rc = 0
check "SIGTERM restores the original value" knob_is 60
check "SIGTERM removes the record" test ! -e $STATE/original
check "stop is logged with fields" log_has "restored swappiness 60 .*SWAPPINESS=60 PREVIOUS=12 POLICY=ck REASON=restore"

# Someone else sets the knob: the daemon yields and leaves it on exit.
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "daemon writes (yield test)" wait_for 5 knob_is 5
set_knob 42
check "external change is logged" wait_for 5 log_has "changed from 5 to 42 by someone else; leaving it alone"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
sleep 0.5
check "yielded daemon does not fight" knob_is 42
stop_daemon INT || true
check "exit after a yield keeps the admin's value" knob_is 42
check "exit after a yield is logged" log_has "leaving swappiness at 42"

# override mode keeps regulating.
printf '[daemon]\ninterval_ms = 100\non_external_change = override\n' >"$CONF/override.conf"
set_knob 60
start_daemon -c "$CONF/override.conf"
check "daemon writes (override test)" wait_for 5 knob_is 23
set_knob 90
check "override mode rewrites the knob" wait_for 5 knob_is 23
check "override is logged" log_has "overriding"
stop_daemon TERM || true
check "override mode restores the original" knob_is 60

# SIGKILL then restart: the original comes from the record, not the knob.
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "daemon writes (crash test)" wait_for 5 knob_is 23
stop_daemon KILL || true
check "after a crash the knob holds our value" knob_is 23
check "after a crash the record survives" test "$(cat $STATE/original)" = 60
start_daemon -c "$CONF/fast.conf"
check "restart finds the record" wait_for 5 log_has "found '$STATE/original' = 60"
stop_daemon TERM || true
check "restart after a crash restores the pre-crash original" knob_is 60

# A second instance refuses to start and names the first; the first keeps going.
set_knob 60
start_daemon -c "$CONF/fast.conf"
FIRST=$DPID
check "first instance writes" wait_for 5 knob_is 23
expect_rc 1 "a second instance refuses to start" "$BIN" --foreground -c "$CONF/fast.conf"
check "the second instance names the holder's pid" grep -q "another instance (pid $FIRST) holds '$STATE/lock'" "$WORK/err"
check "the first instance keeps running" kill -0 "$FIRST"
check "the second instance did not touch the record" test "$(cat $STATE/original)" = 60
stop_daemon TERM || true
check "first instance restores after the second tried" knob_is 60

# Dry run: decisions logged, knob untouched, no record.
start_daemon --dry-run -c "$CONF/fast.conf"
check "dry run logs what it would do" wait_for 5 log_has "dry run: would set swappiness 60 -> 23"
stop_daemon TERM || true
check "dry run leaves the knob" knob_is 60
check "dry run leaves no record" test ! -e $STATE/original

# Reloading into dry run after a write: the exit still restores.
set_knob 60
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "writes before the dry-run reload" wait_for 5 knob_is 23
printf '[daemon]\ninterval_ms = 100\ndry_run = yes\n[limits]\nmin = 40\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "reload into dry run is logged" wait_for 5 log_has "would set swappiness 23 -> 40"
check "dry run after reload does not write" knob_is 23
stop_daemon TERM || true
check "exit after a reload into dry run restores the original" knob_is 60
check "and removes the record" test ! -e $STATE/original

# Reloading out of dry run: the original is recorded before the first write.
printf '[daemon]\ninterval_ms = 100\ndry_run = yes\n' >"$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "dry run start logs" wait_for 5 log_has "would set swappiness 60 -> 23"
check "dry run start leaves no record" test ! -e $STATE/original
cp "$CONF/fast.conf" "$CONF/live.conf"
kill -HUP "$DPID"
check "reload out of dry run writes" wait_for 5 knob_is 23
check "reload out of dry run records the original" test "$(cat $STATE/original 2>/dev/null)" = 60
stop_daemon TERM || true
check "exit after leaving dry run restores" knob_is 60

# A read-only knob: one error, not one per poll; the daemon keeps running.
# (mount -o remount,bind,ro makes writes fail with EROFS.)
mount -o remount,bind,ro /proc/sys/vm/swappiness
start_daemon -c "$CONF/fast.conf"
check "EROFS is reported with path and cause" wait_for 5 log_has "failed to write '/proc/sys/vm/swappiness': Read-only file system"
sleep 1
n=$(grep -c "failed to write" "$WORK/daemon.log" || true)
check "EROFS is logged once, not per poll (got $n)" test "$n" = 1
check "daemon survives EROFS" kill -0 "$DPID"
stop_daemon TERM || true
mount -o remount,bind,rw /proc/sys/vm/swappiness
check "knob untouched under EROFS" knob_is 60

echo "integration: $pass passed, $fail failed"
[ "$fail" = 0 ]
