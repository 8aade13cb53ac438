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

# --- setup: fake kernel files, helpers ----------------------------------------
# The fakes, the helpers every test uses (check, put, fake_meminfo...), a sanity check.

# The config files below must be writable by their owner only (the loader
# refuses others), whatever umask the caller has.
umask 022
WORK=$(mktemp -d /tmp/autoswappiness-it.XXXXXX)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	umount /proc/meminfo /proc/vmstat /proc/pressure/memory /proc/sys/vm/swappiness /proc/swaps \
		/sys/module/zswap/parameters/enabled /sys/fs/cgroup/memory /sys/kernel/mm /proc/sys/kernel/osrelease /run \
		2>/dev/null || true
	# coexist.sh's overlays, which a mapped file may keep busy.
	umount -l /proc/cmdline /usr/local/lib /usr/lib /etc 2>/dev/null || true
	# explain.sh's and lru.sh's public directories, when a check died before their own rm.
	rm -rf "$WORK" "${PUB:-}" "${LPUB:-}"
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
M=$WORK/meminfo V=$WORK/vmstat P=$WORK/psi K=$WORK/swappiness S=$WORK/swaps Z=$WORK/zswap

# put NEW FAKE: replaces FAKE's content in place (the bind mount points at its
# inode). When the length is the same, without truncating first, so that the
# daemon never reads a half-empty file (the fixtures keep their widths fixed).
put() {
	if [ -e "$2" ] && [ "$(stat -c %s "$1")" = "$(stat -c %s "$2")" ]; then
		dd if="$1" of="$2" conv=notrunc status=none
	else
		cat "$1" >"$2"
	fi
}

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
	put "$tmp" "$M"
}
# fake_vmstat FILE_REFAULTS ANON_REFAULTS PSWPIN PGSCAN PGSTEAL [PSWPOUT]:
# cumulative counters (pswpout as captured unless given).
fake_vmstat() {
	awk -v f="$1" -v a="$2" -v i="$3" -v sc="$4" -v st="$5" -v o="${6:-}" '
		/^workingset_refault_file / { printf "workingset_refault_file %012d\n", f; next }
		/^workingset_refault_anon / { printf "workingset_refault_anon %012d\n", a; next }
		/^pswpin / { printf "pswpin %012d\n", i; next }
		/^pswpout / && o != "" { printf "pswpout %012d\n", o; next }
		/^pgscan_kswapd / { printf "pgscan_kswapd %012d\n", sc; next }
		/^pgsteal_kswapd / { printf "pgsteal_kswapd %012d\n", st; next }
		{ print }' "$DATA/vmstat.host-idle" >"$WORK/vmstat.new"
	put "$WORK/vmstat.new" "$V"
}
fake_swaps() { # fake_swaps DEVICE...
	{
		printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n'
		for dev in "$@"; do printf '%s\tpartition\t1000000\t0\t-2\n' "$dev"; done
	} >"$WORK/swaps.new"
	put "$WORK/swaps.new" "$S"
}
# The daemon rewrites the fake knob with O_TRUNC then write: retry an empty read.
knob() {
	local v
	v=$(cat "$K")
	while [ -z "$v" ]; do v=$(cat "$K"); done
	echo "$v"
}
set_knob() { echo "$1" >"$K"; }

cp "$DATA/vmstat.host-idle" "$V"
cp "$DATA/pressure-memory.host-idle" "$P"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
echo 60 >"$K"
fake_swaps /dev/vdb
echo N >"$Z"
mount --bind "$M" /proc/meminfo
mount --bind "$S" /proc/swaps
mount --bind "$Z" /sys/module/zswap/parameters/enabled
mount --bind "$V" /proc/vmstat
mount --bind "$P" /proc/pressure/memory
mount --bind "$K" /proc/sys/vm/swappiness
mount -t tmpfs -o mode=0755 tmpfs /run
STATE=/run/autoswappiness
# The classic LRU whatever the host runs (no lru_gen/enabled: the daemon takes it as classic),
# so that the figures below do not depend on it: the multi-gen LRU keeps the values within
# 2..199 and name = auto picks another policy there. lru.sh mounts its own fakes over this.
mount -t tmpfs -o mode=0755 tmpfs /sys/kernel/mm

# Sanity: the fakes are what the process sees, not the machine's files.
check "fake meminfo is mounted" grep -q '^MemTotal: *1000000 kB' /proc/meminfo
check "fake knob is mounted" test "$(cat /proc/sys/vm/swappiness)" = 60
check "no lru_gen/enabled: the classic LRU, whatever the host's" test ! -e /sys/kernel/mm/lru_gen/enabled

CONF=$WORK/conf
mkdir -p "$CONF"
# Every config that the expected values below depend on names its policy: the
# shipped default is whichever the latest benchmark chose (tests/docs.sh), and
# these figures are ck's. It names its step too: the samples below move ck by 5
# to 15, less than the shipped step.
cat >"$CONF/fast.conf" <<CFG
[policy]
name = ck
[limits]
step = 5
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
# One sample, one decision, key=value output: the formulas on known inputs, max = auto,
# broken kernel files.
# app = 100 - 100*(300000+50000+250000)/1000000 = 40; swap = 23; ck = 23.
out=$("$BIN" --once -c "$CONF/fast.conf" 2>"$WORK/err")
check "--once prints the decision" test "$out" = "policy=ck swappiness=23 previous=60 app_centile=40 swap_centile=23 mapped_ratio=10 distress=0 swap_tendency=28 target=23 max=100 verdict=write dry_run=no written=yes"
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
# An idle machine: no reclaim, no stall, so tendency keeps the knob (its formula says 28).
check "--once tendency" grep -q '^policy=tendency swappiness=60 .*swap_tendency=28 target=60 ' <<<"$out"

# PSI avg10 counts as distress with a single sample.
printf 'some avg10=30.00 avg60=0.00 avg300=0.00 total=1000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' >"$P"
out=$("$BIN" --once --dry-run -c "$CONF/tendency.conf")
check "--once tendency with PSI distress" grep -q 'distress=30 swap_tendency=58 target=58' <<<"$out"
cp "$DATA/pressure-memory.host-idle" "$P"

# max = auto follows the swap devices: disk 100, zswap 133, all zram 200.
printf '[policy]\nname = tendency\n[limits]\nmin = 200\n' >"$CONF/min200.conf"
out=$("$BIN" --once --dry-run -c "$CONF/min200.conf")
check "max = auto on disk swap is 100" grep -q 'swappiness=100 .* max=100 ' <<<"$out"
echo Y >"$Z"
out=$("$BIN" --once --dry-run -c "$CONF/min200.conf")
check "max = auto with zswap is 133" grep -q 'swappiness=133 .* max=133 ' <<<"$out"
echo N >"$Z"
fake_swaps /dev/zram0 /dev/zram1
out=$("$BIN" --once --dry-run -c "$CONF/min200.conf")
check "max = auto with all swap on zram is 200" grep -q 'swappiness=200 .* max=200 ' <<<"$out"
printf '[policy]\nname = tendency\n[limits]\nmin = 150\nmax = 150\n' >"$CONF/pinned.conf"
out=$("$BIN" --once --dry-run -c "$CONF/pinned.conf")
check "a pinned max is kept on zram" grep -q 'swappiness=150 .* max=150 ' <<<"$out"
fake_swaps /dev/vdb
printf '[policy]\nname = adaptive\n' >"$CONF/adaptive-once.conf"
out=$("$BIN" --once --dry-run -c "$CONF/adaptive-once.conf")
# No history: N, 100 on disk swap, but 23% of swap free caps it at 4 x 23.
check "--once adaptive has no history: starts at N, capped by free swap" grep -q '^policy=adaptive swappiness=92 .*target=92 ' <<<"$out"

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
check "--once with broken PSI still decides" grep -q 'swappiness=60 .*swap_tendency=28 target=60 ' <<<"$out"
cp "$DATA/pressure-memory.host-idle" "$P"

# --- exit codes and usage -----------------------------------------------------
# -n, --help, --version, bad options and configs: the documented exit codes.
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
check "-n reports every error with path:line" bash -c "grep -q '^$CONF/bad.conf:2: key .max.: expected auto or 0..200, got .300.' '$WORK/err' && grep -q '^$CONF/bad.conf:4: unknown key .bogus.' '$WORK/err'"
# A file that is not configuration (a shadow-like line, a secret): its line numbers and the
# problems, none of its text beyond a short key (issue 48).
printf 'root:$y$j9T$c2VjcmV0LXRva2Vu$abcdefghijklmnopqrstuvwxyz0123456789:19000:0:99999:7:::\nPRIVATE secret-token-1234\n' \
	>"$CONF/shadow"
expect_rc 78 "-n on a file that is not configuration" "$BIN" -n -c "$CONF/shadow"
check "-n names its lines and their problems" bash -c "grep -qx '$CONF/shadow:1: key .root. outside any section' '$WORK/err' && grep -qx '$CONF/shadow:2: expected .key = value. or .\[section\].' '$WORK/err'"
check "-n repeats none of its text" bash -c "! grep -q 'secret-token\|j9T\|19000' '$WORK/err'"
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
check "--help shows the usage line" grep -q '^usage: autoswappiness \[-c FILE\] \[--once\] \[--explain\] \[--dry-run\] \[-n|--check-config\] \[--foreground\] \[-v\] \[--version\] \[-h\]$' "$WORK/out"
# A copy: the loader accepts only root's files, and the tree may be a user's.
install -m 0644 "$TOP/conf/autoswappiness.conf" "$CONF/shipped.conf"
check "the shipped config is valid" "$BIN" -n -c "$CONF/shipped.conf"
sed -n '/^    \[policy\]$/,/^    textfile =/p' "$TOP/README.md" | sed 's/^    //' >"$CONF/readme.conf"
check "the README's config example is valid and complete" bash -c "[ \$(grep -c = '$CONF/readme.conf') -ge 13 ] && '$BIN' -n -c '$CONF/readme.conf' >/dev/null"

# --- the daemon: first write, following the samples, reload -------------------
# Helpers for a running daemon (wait_for, start_daemon...), then its first write and
# record, following the samples, reloads with a new limit and with a broken edit.
# WAIT_SCALE (default 1) multiplies every deadline: tests/valgrind.sh runs the daemon 20-50
# times slower, and a starved host slower still (a valgrind run beside a benchmark's guest
# missed first writes at 15 s). A wait ends when its event comes, so a longer one costs only
# when something is broken.
wait_for() { # wait_for SECONDS COMMAND...: poll until COMMAND succeeds
	local deadline=$((SECONDS + $1 * ${WAIT_SCALE:-1}))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.05
	done
}
knob_is() { [ "$(knob)" = "$1" ]; }
# pump_steps: into PUMP_STEPS, the 50 ms steps that passed since the last call (at least 1;
# the first call of a pump sets PUMP_LAST itself). The pumps below grow fake counters by
# the clock, not by their loop: on a busy host one turn took a second, and a rate per turn
# fell under the policies' thresholds, or fell at one value and not at another.
PUMP_LAST=0
pump_steps() {
	local now=${EPOCHREALTIME/[.,]/}
	PUMP_STEPS=$(((now - PUMP_LAST) / 50000))
	((PUMP_STEPS >= 1 && PUMP_LAST > 0)) || PUMP_STEPS=1
	PUMP_LAST=$now
}
log_has() { grep -q -- "$1" "$WORK/daemon.log"; }
# decided V: the knob holds V and the daemon has logged writing it. It logs after it has
# read the value back, and a value set before that readback made the write count as
# failed: a test that sets the knob next must wait for this, not for the knob alone.
decided() { knob_is "$1" && log_has "swappiness [0-9]* -> $1 ("; }
# start_daemon DAEMON_ARGS...: the daemon in the background, its log in $WORK/daemon.log;
# under "${LAUNCH[@]}" when a caller sets it (psi-trigger.sh: setpriv).
LAUNCH=()
start_daemon() {
	: >"$WORK/daemon.log"
	"${LAUNCH[@]}" "$BIN" --foreground -v "$@" 2>"$WORK/daemon.log" &
	DPID=$!
	PIDS+=("$DPID")
}
stop_daemon() { # stop_daemon SIGNAL: returns the exit code
	local rc=0
	kill -"$1" "$DPID"
	wait "$DPID" || rc=$?
	return $rc
}
exited() { # exited PID: gone, or a zombie waiting for us
	! kill -0 "$1" 2>/dev/null || grep -q ') Z ' "/proc/$1/stat" 2>/dev/null
}
# stop_within SECONDS SIGNAL: stop_daemon, but a daemon that does not exit in time is
# killed (SIGKILL), so that a hang fails a check instead of the whole suite. Returns its
# exit code, 124 when it had to be killed, and leaves it in STOP_RC.
stop_within() {
	STOP_RC=0
	kill -"$2" "$DPID" 2>/dev/null || true
	if ! wait_for "$1" exited "$DPID"; then
		echo "# pid $DPID did not exit within $1 s of SIG$2: killing it"
		kill -9 "$DPID" 2>/dev/null || true
		wait "$DPID" 2>/dev/null || true
		STOP_RC=124
		return 124
	fi
	wait "$DPID" || STOP_RC=$?
	return "$STOP_RC"
}
# stop_term_ok WHAT: stop_within 15 TERM, and the check that the daemon exited 0 in time.
stop_term_ok() {
	local rc=0
	stop_within 15 TERM || rc=$?
	check "$1: SIGTERM ends it within 15 s, exit 0 (got $rc)" test "$rc" = 0
}

set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "daemon writes the ck value" wait_for 15 knob_is 23
check "daemon records the original under /run" test "$(cat $STATE/original)" = 60
check "daemon logs the decision with fields" wait_for 15 log_has 'swappiness 60 -> 23 (ck: min(app 40%, swap free 23%)) .*SWAPPINESS=23 PREVIOUS=60 POLICY=ck APP_CENTILE=40 SWAP_CENTILE=23 MAPPED_RATIO=10 DISTRESS=0 SWAP_TENDENCY=28 REFAULT_FILE_PPS=0 REFAULT_ANON_PPS=0 SWAPIN_PPS=0 SCAN_PPS=0 REASON=min'

# Swap fills up: the knob follows within a few polls.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 50000
check "daemon follows the samples" wait_for 15 knob_is 5

# A source it cannot read: said once, with what the daemon does without it, and said again
# when it is back; the loop goes on meanwhile.
cp "$P" "$WORK/psi.good"
echo garbage >"$P"
check "an unreadable PSI file is a warning that says what is done without it" wait_for 15 \
	log_has "cannot read '/proc/pressure/memory': Invalid argument; distress uses reclaim efficiency only"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 100000
check "  and the daemon goes on deciding" wait_for 15 knob_is 10
cp "$WORK/psi.good" "$P"
check "  its return is said" wait_for 15 log_has "'/proc/pressure/memory' readable again"
check "  once each" test "$(grep -c "cannot read '/proc/pressure/memory'" "$WORK/daemon.log")/$(grep -c "'/proc/pressure/memory' readable again" "$WORK/daemon.log")" = 1/1
cp "$S" "$WORK/swaps.good"
echo garbage >"$S"
check "an unreadable /proc/swaps says that max = auto assumes disk swap" wait_for 15 \
	log_has "cannot read '/proc/swaps': Invalid argument; max = auto assumes disk swap"
cp "$WORK/swaps.good" "$S"
check "  and its return" wait_for 15 log_has "'/proc/swaps' readable again"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 50000
check "  the samples are followed again" wait_for 15 knob_is 5

# Reload with a new limit.
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[limits]\nmin = 12\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "reload applies the new min" wait_for 15 knob_is 12
check "reload is logged" wait_for 2 log_has "reloaded '$CONF/live.conf'"

# A broken edit and reload: old config keeps running, error names file:line.
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[limits]\nmin = 12\nmax = 5000\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "bad reload names file:line" wait_for 15 log_has "$CONF/live.conf:7: key 'max': expected auto or 0..200, got '5000'"
check "bad reload keeps the running config" wait_for 2 log_has "keeping the running configuration"
sleep 0.3
check "daemon still running after a bad reload" kill -0 "$DPID"
check "knob unchanged by a bad reload" knob_is 12

# --- knob ownership: restore, yield, override, crash, dry run -----------------
# What is restored on exit after SIGTERM, a yield, SIGKILL and reloads into and out of
# dry run; a second instance. The transitions themselves: tests/unit/test_owner.c.

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
check "daemon writes (yield test)" wait_for 15 decided 5
set_knob 42
check "external change is logged" wait_for 15 log_has "changed from 5 to 42 by someone else; leaving it alone"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
sleep 0.5
check "yielded daemon does not fight" knob_is 42
check "status while yielded does not claim to restore" bash -c \
	"'$BIN' status | grep -qx '  on exit:     leaves the value someone else set'"
stop_daemon INT || true
check "exit after a yield keeps the admin's value" knob_is 42
check "exit after a yield is logged" log_has "leaving swappiness at 42"

# override mode keeps regulating.
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\non_external_change = override\n' >"$CONF/override.conf"
set_knob 60
start_daemon -c "$CONF/override.conf"
check "daemon writes (override test)" wait_for 15 decided 23
set_knob 90
check "override mode rewrites the knob" wait_for 15 knob_is 23
check "override is logged" wait_for 15 log_has "overriding"
stop_daemon TERM || true
check "override mode restores the original" knob_is 60

# SIGKILL then restart: the original comes from the record, not the knob.
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "daemon writes (crash test)" wait_for 15 knob_is 23
stop_daemon KILL || true
check "after a crash the knob holds our value" knob_is 23
check "after a crash the record survives" test "$(cat $STATE/original)" = 60
start_daemon -c "$CONF/fast.conf"
check "restart finds the record" wait_for 15 log_has "found '$STATE/original' = 60"
stop_daemon TERM || true
check "restart after a crash restores the pre-crash original" knob_is 60

# SIGKILL and no restart (a stop in the restart wait, the start limit), then
# `sysctl -w vm.swappiness=30`, then a start: the knob no longer holds the crashed
# instance's last write ('written'), so 30 is the value to restore, not its 60.
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "daemon writes (crash, then sysctl)" wait_for 15 decided 23
stop_daemon KILL || true
check "  the crash leaves its last write recorded" test "$(cat $STATE/written)" = 23
set_knob 30
start_daemon -c "$CONF/fast.conf"
check "  a restart says the knob was set since" wait_for 15 log_has "found '$STATE/original' = 60 from an \
instance that did not exit cleanly, but /proc/sys/vm/swappiness holds 30, not its last write 23 \
('$STATE/written'): someone else set it since; recording 30 as the original"
check "  and regulates" wait_for 15 decided 23
check "  with 30 recorded as the original" test "$(cat $STATE/original)" = 30
stop_daemon TERM || true
check "  the stop restores the admin's 30, not 60" knob_is 30
check "  and removes the records" test ! -e $STATE/original -a ! -e $STATE/written
# Records an older version left (no 'written'): the original is trusted, as before.
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "daemon writes (an older version's records)" wait_for 15 decided 23
stop_daemon KILL || true
rm -f $STATE/written
start_daemon -c "$CONF/fast.conf"
check "  a restart trusts the original without 'written'" wait_for 15 \
	log_has "found '$STATE/original' = 60 .*will restore that"
check "  and records it from then on" wait_for 15 test -e $STATE/written
stop_daemon TERM || true
check "  the stop restores the pre-crash original" knob_is 60

# A second instance refuses to start and names the first; the first keeps going.
set_knob 60
start_daemon -c "$CONF/fast.conf"
FIRST=$DPID
check "first instance writes" wait_for 15 knob_is 23
expect_rc 1 "a second instance refuses to start" "$BIN" --foreground -c "$CONF/fast.conf"
check "the second instance names the holder's pid" grep -q "another instance (pid $FIRST) holds '$STATE/lock'" "$WORK/err"
check "the first instance keeps running" kill -0 "$FIRST"
check "the second instance did not touch the record" test "$(cat $STATE/original)" = 60
stop_daemon TERM || true
check "first instance restores after the second tried" knob_is 60

# Dry run: decisions logged, knob untouched, no record.
start_daemon --dry-run -c "$CONF/fast.conf"
check "dry run logs what it would do" wait_for 15 log_has "dry run: would set swappiness 60 -> 23"
stop_daemon TERM || true
check "dry run leaves the knob" knob_is 60
check "dry run leaves no record" test ! -e $STATE/original

# Reloading into dry run after a write: the exit still restores.
set_knob 60
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "writes before the dry-run reload" wait_for 15 knob_is 23
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ndry_run = yes\n[limits]\nmin = 40\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "reload into dry run is logged" wait_for 15 log_has "would set swappiness 23 -> 40"
check "dry run after reload does not write" knob_is 23
stop_daemon TERM || true
check "exit after a reload into dry run restores the original" knob_is 60
check "and removes the record" test ! -e $STATE/original

# Reloading out of dry run: the original is recorded before the first write.
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ndry_run = yes\n' >"$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "dry run start logs" wait_for 15 log_has "would set swappiness 60 -> 23"
check "dry run start leaves no record" test ! -e $STATE/original
cp "$CONF/fast.conf" "$CONF/live.conf"
kill -HUP "$DPID"
check "reload out of dry run writes" wait_for 15 knob_is 23
check "reload out of dry run records the original" test "$(cat $STATE/original 2>/dev/null)" = 60
stop_daemon TERM || true
check "exit after leaving dry run restores" knob_is 60

# --- policies at run time: adaptive, swap devices -----------------------------
# The adaptive policy on moving refault counters; max = auto after swapon/swapoff.

# The adaptive policy starts at N (100 on disk swap), goes to 200 on the second
# poll of file refaults without swap-ins, and back to N on the first poll with
# swap-ins; swap-ins that come without swap-outs (pages coming home) never take
# it back up (tests/integration/adaptive.sh has the rest of the cycle).
# Polls 1 s apart, so that on a loaded machine the pumped counters grow
# between any two polls.
printf '[policy]\nname = adaptive\n[limits]\nmax = 200\n[daemon]\ninterval_ms = 1000\n' >"$CONF/adaptive.conf"
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 1000000
start_daemon -c "$CONF/adaptive.conf"
check "adaptive starts at N" wait_for 15 knob_is 100
f=0 a=0 i=0 sc=0
knob_above() { [ "$(knob)" -gt "$1" ]; }
knob_below() { [ "$(knob)" -lt "$1" ]; }
# pump_until SECONDS FILE_STEP SWAPIN_STEP COMMAND...: the counters grow by these for
# every 50 ms that passes (pump_steps) until COMMAND succeeds. A loaded machine runs the
# daemon's polls late, not differently, so the checks wait for the effect instead of a
# fixed time; the deadline is a backstop for a policy that does not move at all.
pump_until() {
	local end=$((SECONDS + $1)) fs=$2 is=$3
	shift 3
	PUMP_LAST=0
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		pump_steps
		f=$((f + PUMP_STEPS * fs)) i=$((i + PUMP_STEPS * is)) sc=$((sc + PUMP_STEPS * 5000))
		fake_vmstat $f $a $i $sc $sc
		sleep 0.05
	done
}
check "file refaults raise the value to 200" pump_until 30 2000 0 knob_is 200
check "the decision explains itself" wait_for 15 log_has "up 100: file refaults [0-9]*/s, swap-outs 0/s, swap-ins 0/s).*REFAULT_FILE_PPS=[1-9]"
check "swap-ins take it back to N" pump_until 30 0 2000 knob_is 100
check "the fall explains itself" wait_for 15 log_has 'back to 100: swap-ins [0-9]*/s at 200'
# Without swap-outs to match, swap-ins at N are pages coming home: the test
# ends with N kept (undecided, or elastic when a late pump makes a poll look
# like a fall), never back at 200.
check "swap-ins without swap-outs leave it at N" pump_until 30 0 2000 log_has '\(undecided\|elastic\): swap-ins [0-9]*/s at 100, [0-9]*/s at 200; no rise for 30 s'
check "still at N after the test" knob_is 100
stop_daemon TERM || true
check "adaptive restores the original" knob_is 60

# Swap devices change at run time: picked up at the next poll, no restart.
printf '[policy]\nname = tendency\n[limits]\nmin = 200\n[daemon]\ninterval_ms = 100\n' >"$CONF/auto.conf"
fake_vmstat 0 0 0 0 0
start_daemon -c "$CONF/auto.conf"
check "auto max on disk swap" wait_for 15 knob_is 100
fake_swaps /dev/zram0
check "swapping to zram at run time raises the range" wait_for 15 knob_is 200
check "the new range is logged" wait_for 15 log_has "max = auto: 200 (1 swap devices, 1 on zram, zswap off)"
fake_swaps /dev/vdb
check "and back" wait_for 15 knob_is 100
stop_daemon TERM || true
check "the PSI trigger refuses a stand-in file" log_has "no PSI trigger on '/proc/pressure/memory': not procfs"
check "and leaves its content alone" cmp -s "$P" "$DATA/pressure-memory.host-idle"

# The device policy: the swap devices' cost value (max = auto's), followed at run time; without
# swap the value in effect stays (autoswappiness(7), THE DEVICE POLICY).
printf '[policy]\nname = device\n[daemon]\ninterval_ms = 100\n' >"$CONF/device.conf"
out=$("$BIN" --once --dry-run -c "$CONF/device.conf")
check "--once device on disk swap: 100" grep -q '^policy=device swappiness=100 .*target=100 ' <<<"$out"
start_daemon -c "$CONF/device.conf"
check "device on disk swap: 100" wait_for 15 knob_is 100
check "  and says why" wait_for 15 log_has "device: swap on disk, cost value 100"
fake_swaps /dev/zram0
check "device follows zram added at run time: 200" wait_for 15 knob_is 200
fake_swaps /dev/vdb
echo Y >"$Z"
check "device follows zswap switched on: 133" wait_for 15 knob_is 133
# swapoff, and zswap off with it: auto's 100 now, but the 133 in effect stays.
fake_meminfo 1000000 300000 50000 250000 0 100000 0 0
echo N >"$Z"
check "device without swap keeps the value in effect" wait_for 15 log_has "device: no swap, stay at 133"
check "  at 133" knob_is 133
stop_daemon TERM || true
check "device restores the original" knob_is 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 1000000

# --- fleets: drop-ins, status, metrics ----------------------------------------
# Drop-ins, `autoswappiness status` (also stale after a crash), the Prometheus textfile.

# promtool_clean FILE: promtool (from scripts/deps.sh, in build/tools) finds
# nothing to say about the metrics: valid and no lint complaint.
PROMTOOL=$TOP/build/tools/promtool
[ -x "$PROMTOOL" ] || PROMTOOL=$(command -v promtool || echo "$TOP/build/tools/promtool")
promtool_clean() {
	local out
	if ! out=$("$PROMTOOL" check metrics <"$1" 2>&1) || [ -n "$out" ]; then
		echo "promtool check metrics ($PROMTOOL): ${out:-failed}" >&2
		return 1
	fi
}

# Fleets: drop-ins, the status command and the Prometheus textfile.
mkdir -p "$CONF/fleet.conf.d" "$WORK/prom"
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[limits]\nmax = 90\n' >"$CONF/fleet.conf"
printf '[limits]\nmax = 15\n[metrics]\ntextfile = %s/prom/autoswappiness.prom\n' "$WORK" >"$CONF/fleet.conf.d/50-ansible.conf"
expect_rc 0 "-n checks the merged drop-ins" "$BIN" -n -c "$CONF/fleet.conf"
set_knob 60
fake_vmstat 0 0 0 0 0
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
expect_rc 3 "status before the daemon runs says not running" "$BIN" status
check "status names what is missing" grep -q "autoswappiness is not running (no $STATE/state)" "$WORK/out"
start_daemon -c "$CONF/fleet.conf"
check "a drop-in overrides the main file (max 15)" wait_for 15 knob_is 15
# Earlier sections left the lock 0644 (as older versions made it): it is fixed too.
check "the lock file is 0600 whatever the umask" test "$(stat -c %a "$STATE/lock")" = 600
check "status works while it runs" wait_for 15 bash -c "'$BIN' status >'$WORK/status.out'"
check "status shows the policy and value" grep -q "^  swappiness:  15 (target 23, limits 0..15)$" "$WORK/status.out"
check "status shows what it will restore" grep -q "^  on exit:     restores 60$" "$WORK/status.out"
check "status shows the last decision and its reason" grep -q "s ago: 60 -> 15, min(app 40%, swap free 23%)" "$WORK/status.out"
"$BIN" status --json >"$WORK/status.json"
check "status --json is JSON with the fields" /usr/bin/python3 -c "
import json, sys
d = json.load(open('$WORK/status.json'))
assert d['running'] and d['swappiness'] == 15 and d['original'] == 60 and d['policy'] == 'ck', d
assert d['decisions'][-1]['to'] == 15 and d['writes'] == 1, d
"
PROM=$WORK/prom/autoswappiness.prom
check "the metrics textfile is written" wait_for 15 test -s "$PROM"
check "the metrics parse and follow the conventions" "$TOP/tests/prom_check.py" "$PROM" \
	autoswappiness_swappiness=15 autoswappiness_writes_total=1 autoswappiness_original_swappiness=60 \
	autoswappiness_app_memory_ratio=0.4 autoswappiness_swap_free_ratio=0.23
check "no temporary file is left next to it" test "$(ls -A "$WORK/prom")" = autoswappiness.prom
check "promtool check metrics: no lint complaints" promtool_clean "$PROM"
check "the liveness metrics: the last poll within a second, the interval in seconds" /usr/bin/python3 -c "
import re, time
t = open('$PROM').read()
poll = int(re.search(r'^autoswappiness_last_poll_timestamp_seconds (\\d+)$', t, re.M).group(1))
assert abs(time.time() - poll) < 5, poll
assert re.search(r'^autoswappiness_poll_interval_seconds 0\\.100$', t, re.M)
assert re.search(r'^autoswappiness_build_info\\{version=\"[0-9.]+\"\\} 1$', t, re.M)
assert 'per_second' not in t
"
check "the page counters start at 0" "$TOP/tests/prom_check.py" "$PROM" autoswappiness_refault_file_pages_total=0 \
	autoswappiness_refault_anon_pages_total=0 autoswappiness_swapin_pages_total=0 autoswappiness_scan_pages_total=0
fake_vmstat 100 5 12 300 0
check "and count the pages since the start" wait_for 15 "$TOP/tests/prom_check.py" "$PROM" \
	autoswappiness_refault_file_pages_total=100 autoswappiness_refault_anon_pages_total=5 \
	autoswappiness_swapin_pages_total=12 autoswappiness_scan_pages_total=300
m1=$(stat -c %i "$PROM")
check "the textfile is rewritten at every poll, unchanged values or not" wait_for 15 bash -c "[ \$(stat -c %i '$PROM') != $m1 ]"
printf '[limits]\nmax = 15\nmax = 16\n' >"$CONF/fleet.conf.d/60-broken.conf"
kill -HUP "$DPID"
check "a broken drop-in names its path and line" wait_for 15 log_has "$CONF/fleet.conf.d/60-broken.conf:3: key 'max' set again (first set at line 2)"
check "the failed reload is counted" wait_for 15 "$TOP/tests/prom_check.py" "$PROM" autoswappiness_reload_failures_total=1
rm "$CONF/fleet.conf.d/60-broken.conf"
printf '[limits]\nmax = 15\n' >"$CONF/fleet.conf.d/50-ansible.conf"
kill -HUP "$DPID"
check "dropping the textfile key removes the file" wait_for 15 test ! -e "$PROM"
check "status counts the reloads" wait_for 15 bash -c "'$BIN' status | grep -q 'reloads 1 (1 failed)'"
stop_daemon TERM || true
check "a clean stop removes the state" test ! -e "$STATE/state"
expect_rc 3 "status after stop says not running" "$BIN" status --json
check "status --json after stop" grep -qx '{"running":false}' "$WORK/out"
# After a crash the state is stale: status must not claim it runs.
start_daemon -c "$CONF/fleet.conf"
check "daemon up (stale state test)" wait_for 15 test -e "$STATE/state"
stop_daemon KILL || true
expect_rc 3 "status after a crash says not running" "$BIN" status
check "and names the dead pid" grep -q "is left from pid $DPID" "$WORK/out"
start_daemon -c "$CONF/fleet.conf"
check "restart after the stale-state crash" wait_for 15 log_has "found '$STATE/original' = 60"
stop_daemon TERM || true
check "restores after the stale-state crash" knob_is 60
# A dry run without swap: no free share of swap, nothing to restore.
printf '[limits]\nmax = 15\n[metrics]\ntextfile = %s/prom/autoswappiness.prom\n' "$WORK" >"$CONF/fleet.conf.d/50-ansible.conf"
fake_meminfo 1000000 300000 50000 250000 0 100000 0 0
start_daemon --dry-run -c "$CONF/fleet.conf"
check "dry run without swap decides" wait_for 15 log_has "dry run: would set swappiness"
check "dry run: the textfile is written" wait_for 15 "$TOP/tests/prom_check.py" "$PROM" autoswappiness_dry_run=1
check "without swap there is no swap_free_ratio" bash -c "! grep -q swap_free_ratio '$PROM'"
check "a dry run shows no original_swappiness" bash -c "! grep -q original_swappiness '$PROM'"
check "and still passes promtool" promtool_clean "$PROM"
"$BIN" status >"$WORK/status.out"
check "status in a dry run does not claim to restore" grep -q "^  on exit:     writes nothing (dry run)$" "$WORK/status.out"
check "status without swap says so" grep -q "^  inputs:      app [0-9]*%, no swap, " "$WORK/status.out"
stop_daemon KILL || true
# After a SIGKILL the textfile stays: only its last poll, which stops, tells.
last_poll() { sed -n 's/^autoswappiness_last_poll_timestamp_seconds //p' "$PROM"; }
check "after a SIGKILL the textfile stays" test -s "$PROM"
last=$(last_poll)
sleep 1.2
check "and its last poll stays behind the clock" test "$(last_poll)" = "$last" -a "$(date +%s)" -gt "$last"
# A clean start and stop leaves no state behind for the next sections (waiting
# for the start: a TERM before bash has exec'd the daemon is lost).
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
start_daemon -c "$CONF/fleet.conf"
check "a real start after the killed dry run" wait_for 15 log_has "started: "
stop_daemon TERM || true

# Started under umask 077 (`make run` from a strict shell): the state directory it makes is
# 0755 and the state and metrics files 0644 all the same, and `status` works for a user
# (issue 48: the directory was 0700).
rm -rf "$STATE"
umask 077
start_daemon -c "$CONF/fleet.conf"
umask 022
check "under umask 077: the daemon runs" wait_for 15 test -e "$STATE/state"
check "under umask 077: the state directory is 0755" test "$(stat -c %a "$STATE")" = 755
check "under umask 077: the state file is 0644" test "$(stat -c %a "$STATE/state")" = 644
check "under umask 077: the metrics textfile is 0644" wait_for 15 bash -c "test \$(stat -c %a '$PROM') = 644"
check "under umask 077: status works for uid 65534" setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" status
stop_daemon TERM || true

# --- journald -----------------------------------------------------------------
# Structured records over the native protocol; a journald that stops reading.

# journald: structured records over the native protocol, and a journald that
# stops reading must not stall the loop (records are dropped and counted).
mkdir -p /run/systemd/journal
J=$WORK/journal.jsonl
: >"$J"
/usr/bin/python3 "$TOP/tests/fake_journald.py" /run/systemd/journal/socket "$J" 6 &
JPID=$!
PIDS+=("$JPID")
wait_for 15 test -S /run/systemd/journal/socket
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 10\n[limits]\nstep = 1\n' >"$CONF/flip.conf"
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
: >"$WORK/daemon.err"
# stderr is a file whose device:inode JOURNAL_STREAM names, as systemd does for
# the journal stream: the daemon then sends structured records itself.
JOURNAL_STREAM=$(stat -c '%d:%i' "$WORK/daemon.err") "$BIN" -c "$CONF/flip.conf" 2>>"$WORK/daemon.err" &
DPID=$!
PIDS+=("$DPID")
check "records reach journald" wait_for 15 grep -q '"SWAPPINESS": "23"' "$J"
check "a decision record carries its fields" /usr/bin/python3 -c "
import json
recs = [json.loads(l) for l in open('$J')]
d = [r for r in recs if r.get('MESSAGE_ID') == '5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7'][0]
for k in ('SWAPPINESS', 'PREVIOUS', 'POLICY', 'APP_CENTILE', 'SWAP_CENTILE', 'MAPPED_RATIO', 'DISTRESS',
          'SWAP_TENDENCY', 'REASON', 'PRIORITY', 'SYSLOG_IDENTIFIER'):
    assert k in d, k
assert d['PRIORITY'] == '5' and d['SWAPPINESS'] == '23' and d['PREVIOUS'] == '60', d
"
# Now journald stalls (after 6 records). Fill what is left of its socket's
# queue from here, so that the daemon's next records find it full and are
# dropped however many of them the machine's speed lets the test bring about
# (a loaded machine made too few to fill it, and then nothing was dropped).
# First feed it until it has stalled (it reads what comes before that), then
# fill until a fresh socket's first datagram is refused: a socket's own send
# buffer can run out before the queue does.
fill_journal_queue() {
	/usr/bin/python3 -c '
import socket, sys, time
path, out, stall_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
def sock():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.connect(path)
    s.setblocking(False)
    return s
deadline = time.monotonic() + 60
feeder = sock()
while sum(1 for _ in open(out)) < stall_after:
    if time.monotonic() > deadline:
        sys.exit("the fake journald never read %d records" % stall_after)
    feeder.send(b"MESSAGE=filler\n")
    time.sleep(0.1)
for _ in range(10000):
    s, sent = sock(), 0
    try:
        while True:
            s.send(b"MESSAGE=filler\n")
            sent += 1
    except BlockingIOError:
        pass
    if sent == 0:
        sys.exit(0)
sys.exit("the queue never filled up")
' /run/systemd/journal/socket "$J" 6
}
check "journald's queue is full" fill_journal_queue
flips=0
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 500000
check "the loop keeps deciding while journald is stalled" wait_for 15 knob_is 40
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
check "and keeps writing" wait_for 15 knob_is 23
check "the daemon is alive" kill -0 "$DPID"
check "no record went to stderr instead" test ! -s "$WORK/daemon.err"
kill -USR1 "$JPID"
# The count goes out ahead of the next record that finds room in the socket. A
# loaded machine may take a while to drain the backlog, and a decision made
# before that is dropped too: keep making decisions until the note arrives
# (each one needs the backlog to shrink, so the deadline is only a backstop).
drop_reported() {
	flips=$((flips + 1))
	fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 $((flips % 2 ? 230000 : 500000))
	sleep 0.2
	grep -q 'journald did not keep up: [0-9]* records dropped' "$J"
}
check "after the stall, the drop is reported" wait_for 60 drop_reported
stop_daemon TERM || true

# journald goes away mid-run (killed, then its socket removed too): the records it does not
# take go to stderr instead, the restore at exit among them, and status and the metrics count
# them (issue 48: counted nowhere a user sees, and the restore record was lost).
kill "$JPID"
wait "$JPID" 2>/dev/null || true
# A journald of its own (its records in $JG), started afresh for the sections below.
journald_afresh() { # journald_afresh FILE: a fake journald writing FILE, its socket ready
	rm -f /run/systemd/journal/socket
	/usr/bin/python3 "$TOP/tests/fake_journald.py" /run/systemd/journal/socket "$1" &
	JPID=$!
	PIDS+=("$JPID")
	wait_for 15 test -S /run/systemd/journal/socket
}
JG=$WORK/journal-gone.jsonl
: >"$JG"
journald_afresh "$JG"
mkdir -p "$WORK/prom"
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[limits]\nstep = 1\n[metrics]\ntextfile = %s/prom/gone.prom\n' "$WORK" >"$CONF/gone.conf"
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
: >"$WORK/daemon.err"
JOURNAL_STREAM=$(stat -c '%d:%i' "$WORK/daemon.err") "$BIN" -c "$CONF/gone.conf" 2>>"$WORK/daemon.err" &
DPID=$!
PIDS+=("$DPID")
check "journald gone: the first write reaches journald" wait_for 15 grep -q '"SWAPPINESS": "23"' "$JG"
kill "$JPID"
wait "$JPID" 2>/dev/null || true
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 500000
check "journald gone (no reader): the decision goes to stderr" wait_for 15 grep -q '^autoswappiness: notice: swappiness 23 -> 40 ' "$WORK/daemon.err"
rm -f /run/systemd/journal/socket
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
check "journald gone (no socket): the next one too" wait_for 15 grep -q '^autoswappiness: notice: swappiness 40 -> 23 ' "$WORK/daemon.err"
check "status counts the records journald did not take" wait_for 15 bash -c "'$BIN' status | grep -q 'log records journald or stderr did not take [1-9]'"
check "and so do the metrics" wait_for 15 bash -c "grep -q '^autoswappiness_journal_dropped_total [1-9]' '$WORK/prom/gone.prom'"
stop_daemon TERM || true
check "journald gone: the restore record goes to stderr" grep -q '^autoswappiness: notice: restored swappiness 60' "$WORK/daemon.err"
check "journald gone: the knob is restored" knob_is 60
journald_afresh "$J"

# --- more reloads: every error, crash records, yields -------------------------
# A failed reload as one record; a crash record and a yield across dry-run reloads.

# A failed reload is one record holding every error (multi-line MESSAGE).
printf '[limits]\nmax = 500\nbogus = 1\n' >"$CONF/twoerr.conf"
cp "$CONF/fast.conf" "$CONF/live.conf"
n0=$(grep -c '"MESSAGE": "started' "$J" || true)
JOURNAL_STREAM=$(stat -c '%d:%i' "$WORK/daemon.err") "$BIN" -c "$CONF/live.conf" 2>>"$WORK/daemon.err" &
DPID=$!
PIDS+=("$DPID")
started_above() { [ "$(grep -c '"MESSAGE": "started' "$J")" -gt "$1" ]; }
check "daemon up (reload record test)" wait_for 15 started_above "$n0"
cp "$CONF/twoerr.conf" "$CONF/live.conf"
kill -HUP "$DPID"
check "a failed reload is one record with every error" wait_for 15 /usr/bin/python3 -c "
import json
recs = [json.loads(l) for l in open('$J')]
r = [r for r in recs if r.get('MESSAGE_ID') == 'e9b3d1f7a2c84e5d9b6a0c4f3e2d1b8a']
assert len(r) == 1, r
m = r[0]['MESSAGE']
assert \"$CONF/live.conf:2: key 'max'\" in m and \"$CONF/live.conf:3: unknown key 'bogus'\" in m and '(2 errors)' in m, m
"
stop_daemon TERM || true
kill "$JPID"
rm -f /run/systemd/journal/socket

# A dry run leaves a crashed instance's record alone, and a reload out of dry
# run takes that record (not the knob's current value) as the original.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "writes (dry-run record test)" wait_for 15 knob_is 23
stop_daemon KILL || true
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ndry_run = yes\n' >"$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "a dry run notes the record" wait_for 15 log_has "a dry run leaves it for the next real start"
check "and leaves it" test "$(cat $STATE/original)" = 60
cp "$CONF/fast.conf" "$CONF/live.conf"
kill -HUP "$DPID"
check "leaving dry run claims the record" wait_for 15 log_has "found '$STATE/original' = 60 .*will restore that"
check "the record still says 60" test "$(cat $STATE/original)" = 60
stop_daemon TERM || true
check "exit restores the value from before the crash" knob_is 60

# After a yield, a reload (even into dry run) makes the admin's value the
# original: exit must not put the old one back.
set_knob 60
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "writes (yield + dry-run test)" wait_for 15 decided 23
set_knob 42
check "yields to 42" wait_for 15 log_has "leaving it alone until reload"
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ndry_run = yes\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "reload into dry run after a yield" wait_for 15 log_has "reloaded '$CONF/live.conf'"
sleep 0.3
stop_daemon TERM || true
check "the admin's 42 survives the exit" knob_is 42
check "no record is left" test ! -e $STATE/original

# --- write failures and cgroup v1 ---------------------------------------------
# Injected write errors, a kernel before 5.8, cgroup v1 follow, a read-only knob.

# Write failures injected with an LD_PRELOAD shim (tests/fault/fault.c):
# EACCES and EPERM are one record each and the daemon keeps going; EINVAL for a
# value above 100 (a kernel before 5.8) makes it re-detect the range.
cc -shared -fPIC -O2 -o "$WORK/fault.so" "$TOP/tests/fault/fault.c" -ldl
# ASan wants to be first in the library list; the shim needs no checking.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
start_faulty() { # start_faulty FAULT_VAR=VALUE CONF: the daemon, with the shim on the knob
	: >"$WORK/daemon.log"
	env LD_PRELOAD="$WORK/fault.so" FAULT_PATH=/proc/sys/vm/swappiness "$1" \
		"$BIN" --foreground -v -c "$2" 2>"$WORK/daemon.log" &
	DPID=$!
	PIDS+=("$DPID")
}
for e in EACCES:"Permission denied" EPERM:"Operation not permitted"; do
	set_knob 60
	start_faulty FAULT_OPEN_ERRNO=${e%%:*} "$CONF/fast.conf"
	check "${e%%:*} is reported with path and cause" wait_for 15 log_has "failed to write '/proc/sys/vm/swappiness': ${e#*:}"
	sleep 1
	n=$(grep -c "failed to write" "$WORK/daemon.log" || true)
	check "${e%%:*} is logged once, not per poll (got $n)" test "$n" = 1
	check "the daemon survives ${e%%:*}" kill -0 "$DPID"
	stop_daemon TERM || true
	check "${e%%:*} leaves the knob alone" knob_is 60
done
set_knob 60
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[limits]\nmin = 150\nmax = 200\n' >"$CONF/high.conf"
start_faulty FAULT_EINVAL_ABOVE=100 "$CONF/high.conf"
check "EINVAL above 100 re-detects the kernel's range" wait_for 15 log_has "refused 150: this kernel accepts 0..100, limiting to that"
check "and writes within it" wait_for 15 knob_is 100
stop_daemon TERM || true
check "EINVAL: the original is restored" knob_is 60

# Someone else writes 42 between the daemon's write of 23 and its readback: a write
# that went in, then a change by someone else (yield, and the exit leaves their 42),
# not a failed write that backs off and blames the kernel.
set_knob 60
start_faulty FAULT_HOLDS=42 "$CONF/fast.conf"
check "a write overwritten at once is a write" wait_for 15 log_has "swappiness 60 -> 23 ("
check "and the next poll yields to their 42" wait_for 15 log_has "changed from 23 to 42 by someone else; leaving it alone until reload"
check "and it is no error" bash -c "! grep -q 'failed to write\|but it holds' '$WORK/daemon.log'"
stop_daemon TERM || true
check "the exit leaves their 42" knob_is 42
check "and no record" test ! -e $STATE/original
set_knob 60
start_faulty FAULT_HOLDS=60:42 "$CONF/fast.conf"
check "a restore overwritten at once: first the daemon's 23" wait_for 15 decided 23
stop_daemon TERM && rc=0 || rc=$?
check "the restore went in, their 42 stands (exit $rc)" test "$rc/$(knob)" = 0/42
check "and says so" log_has "wrote 60 to '/proc/sys/vm/swappiness'; someone else wrote 42 right after"
check "and leaves no record for the next start" test ! -e $STATE/original
set_knob 60
out=$(LD_PRELOAD="$WORK/fault.so" FAULT_PATH=/proc/sys/vm/swappiness FAULT_HOLDS=42 \
	"$BIN" --once -c "$CONF/fast.conf" 2>"$WORK/err") || true
check "--once: a write overwritten at once is written" test "${out##* }" = written=yes
check "--once: and says by whom" grep -q "wrote 23 to '/proc/sys/vm/swappiness'; someone else wrote 42 right after" "$WORK/err"

# The readback after a write fails (EIO): the write went in all the same, so it is the
# daemon's own value (no yield to itself at the next poll), a restore that removes the
# records, and written=yes for --once; the failed readback is a warning.
set_knob 60
start_faulty FAULT_READBACK_ERRNO=EIO "$CONF/fast.conf"
check "a write whose readback fails is a write" wait_for 15 decided 23
check "  a warning says so with path and cause" \
	log_has "wrote 23 to '/proc/sys/vm/swappiness' but cannot read it back: Input/output error"
sleep 0.5
check "  and the next polls take 23 as the daemon's own" bash -c "! grep -q 'by someone else\|failed to write' '$WORK/daemon.log'"
stop_daemon TERM && rc=0 || rc=$?
check "  the exit restores (exit $rc)" test "$rc/$(knob)" = 0/60
check "  and removes the record" test ! -e $STATE/original
set_knob 60
start_faulty FAULT_READBACK_ERRNO=60:EIO "$CONF/fast.conf"
check "a restore whose readback fails: first the daemon's 23" wait_for 15 decided 23
stop_daemon TERM && rc=0 || rc=$?
check "  the restore went in (exit $rc)" test "$rc/$(knob)" = 0/60
check "  is logged as done, and warned about" bash -c "grep -q 'restored swappiness 60' '$WORK/daemon.log' &&
	grep -q \"wrote 60 to '/proc/sys/vm/swappiness' but cannot read it back: Input/output error\" '$WORK/daemon.log'"
check "  and leaves no record for the next start" test ! -e $STATE/original
set_knob 60
out=$(LD_PRELOAD="$WORK/fault.so" FAULT_PATH=/proc/sys/vm/swappiness FAULT_READBACK_ERRNO=EIO \
	"$BIN" --once -c "$CONF/fast.conf" 2>"$WORK/err") || true
check "--once: a write whose readback fails is written" test "${out##* }" = written=yes
check "--once: and warns" grep -q "wrote 23 to '/proc/sys/vm/swappiness' but cannot read it back" "$WORK/err"

# SIGKILL right after a write of the knob, before 'written' follows (systemd
# restarts the daemon): the knob holds the daemon's own 23, recorded as 'writing'
# beforehand, so the restart restores 60, not 23 taken for someone else's value.
set_knob 60
start_faulty FAULT_KILL_AFTER_WRITE=1 "$CONF/fast.conf"
check "SIGKILL right after a write" wait_for 15 exited "$DPID"
wait "$DPID" || true
check "  leaves the knob at 23, 'written' at 60, 'writing' at 23" \
	test "$(knob)/$(cat $STATE/written)/$(cat $STATE/writing)" = 23/60/23
start_daemon -c "$CONF/fast.conf"
check "  the restart trusts the original" wait_for 15 log_has "found '$STATE/original' = 60 .*will restore that"
check "  and removes 'writing'" wait_for 15 test ! -e $STATE/writing
stop_daemon TERM || true
check "  the stop restores the true original 60" knob_is 60
check "  and removes the records" test ! -e $STATE/original -a ! -e $STATE/written -a ! -e $STATE/writing

# cgroup v1: existing memory cgroups keep their own swappiness; with
# cgroup_v1_follow they follow each write and the restore, otherwise a warning.
mkdir -p "$WORK/cg/a/b" "$WORK/cg/c"
for d in "$WORK/cg" "$WORK/cg/a" "$WORK/cg/a/b" "$WORK/cg/c"; do echo 60 >"$d/memory.swappiness"; done
if [ ! -d /sys/fs/cgroup/memory ]; then
	# A cgroup2-only host: a mkdir there would create a real cgroup, so put a
	# private tmpfs in this namespace first.
	mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup
	mkdir /sys/fs/cgroup/memory
fi
mount --bind "$WORK/cg" /sys/fs/cgroup/memory
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
start_daemon -c "$CONF/fast.conf"
check "cgroup v1 without follow: one warning" wait_for 15 log_has "cgroup v1 memory controller: each memory cgroup keeps"
check "and the cgroups are left alone" wait_for 15 bash -c "[ \$(cat '$K') = 23 ] && [ \$(cat '$WORK/cg/a/b/memory.swappiness') = 60 ]"
stop_daemon TERM || true
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ncgroup_v1_follow = yes\n' >"$CONF/cg.conf"
# A cgroup removed while the daemon walks the tree leaves a directory without its
# files for a moment (ENOENT): nothing to follow, not a failure.
mkdir "$WORK/cg/gone"
start_daemon -c "$CONF/cg.conf"
cg_all() { for f in "$WORK/cg/a" "$WORK/cg/a/b" "$WORK/cg/c"; do [ "$(cat "$f/memory.swappiness")" = "$1" ] || return 1; done; }
check "cgroup_v1_follow: every cgroup follows the write" wait_for 15 cg_all 23
check "the root cgroup's file is vm.swappiness's own, not written" test "$(cat "$WORK/cg/memory.swappiness")" = 60
check "a cgroup gone during the walk is no failure" bash -c "! grep -q 'failed to set memory.swappiness' '$WORK/daemon.log'"
stop_daemon TERM || true
check "and follows the restore" cg_all 60
umount /sys/fs/cgroup/memory

# A read-only knob: one error, not one per poll; the daemon keeps running.
# (mount -o remount,bind,ro makes writes fail with EROFS.)
set_knob 60
mount -o remount,bind,ro /proc/sys/vm/swappiness
start_daemon -c "$CONF/fast.conf"
check "EROFS is reported with path and cause" wait_for 15 log_has "failed to write '/proc/sys/vm/swappiness': Read-only file system"
sleep 1
n=$(grep -c "failed to write" "$WORK/daemon.log" || true)
check "EROFS is logged once, not per poll (got $n)" test "$n" = 1
check "daemon survives EROFS" kill -0 "$DPID"
stop_daemon TERM || true
mount -o remount,bind,rw /proc/sys/vm/swappiness
check "knob untouched under EROFS" knob_is 60

# A restore that fails at the stop is a failed stop (systemctl shows it), and the record
# stays, so that the next start restores the original.
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "a restore that will fail: first the daemon's 23" wait_for 15 knob_is 23
mount -o remount,bind,ro /proc/sys/vm/swappiness
stop_daemon TERM && rc=0 || rc=$?
mount -o remount,bind,rw /proc/sys/vm/swappiness
check "  the stop exits 1 (got $rc)" test "$rc" = 1
check "  says why" log_has "failed to restore '/proc/sys/vm/swappiness' to 60: Read-only file system"
check "  and keeps the record" test "$(cat $STATE/original 2>/dev/null)" = 60
start_daemon -c "$CONF/fast.conf"
check "  the next start takes it" wait_for 15 log_has "found '$STATE/original' = 60 .*will restore that"
stop_daemon TERM || true
check "  and its stop restores 60" knob_is 60

# --- files others control, the daemon's hardening -----------------------------
# In their own files: tests/integration/harden-files.sh, daemon-hardening.sh;
# the adaptive cycle in tests/integration/adaptive.sh; --explain in explain.sh;
# others who set vm.swappiness (sysctl.d, tuned, the kernel command line) in
# coexist.sh; the kernel's LRU (lru_gen/enabled) in lru.sh; the regulator's rise after a
# fall in turn.sh.
source "$TOP/tests/integration/harden-files.sh"
source "$TOP/tests/integration/daemon-hardening.sh"
source "$TOP/tests/integration/adaptive.sh"
source "$TOP/tests/integration/workingset.sh"
source "$TOP/tests/integration/explain.sh"
source "$TOP/tests/integration/coexist.sh"
source "$TOP/tests/integration/lru.sh"
source "$TOP/tests/integration/psi-trigger.sh"
source "$TOP/tests/integration/liveness.sh"
source "$TOP/tests/integration/state-dir.sh"
source "$TOP/tests/integration/kernel-fifo.sh"
source "$TOP/tests/integration/turn.sh"
echo "integration: $pass passed, $fail failed"
[ "$fail" = 0 ]
