# Sourced by tests/integration/run.sh (issue 45, item 4): the daemon knows which LRU the
# kernel reclaims with. A private tmpfs over /sys/kernel/mm holds a fake
# lru_gen/enabled (the host may have none), and a fake /proc/sys/kernel/osrelease
# names the release. The multi-gen LRU on (0x0007), off (0x0000), not built (no
# file), switched at run time, and files that are not the kernel's (garbage, a
# FIFO, a device, a huge file): the start record, the change record, status,
# status --json, the metrics and --explain. Leaves both fakes unmounted.

LG=/sys/kernel/mm/lru_gen/enabled
mount -t tmpfs -o mode=0755 tmpfs /sys/kernel/mm
mkdir /sys/kernel/mm/lru_gen
printf '0x0007\n' >"$LG"
echo 6.12.57+deb13-amd64 >"$WORK/osrelease"
mount --bind "$WORK/osrelease" /proc/sys/kernel/osrelease
check "lru: the fake release is what the process sees" test "$(cat /proc/sys/kernel/osrelease)" = 6.12.57+deb13-amd64

# put_lru VALUE: rewrites the fake in place, at the same length when it has it (run.sh's
# put), so that a poll never reads it half-written.
put_lru() {
	printf '%s\n' "$1" >"$WORK/lru.new"
	put "$WORK/lru.new" "$LG"
}
lru_status_is() { # lru_status_is LRU: `status` says that LRU (and the fake release)
	"$BIN" status 2>/dev/null | grep -qx "  lru:         $1 (Linux 6.12.57+deb13-amd64)"
}
LRU_PROM=$WORK/prom/lru.prom
lru_metric_is() { grep -qx "autoswappiness_lru_info{lru=\"$1\",kernel=\"6.12.57+deb13-amd64\"} 1" "$LRU_PROM"; }
lru_count() { grep -c "$1" "$WORK/daemon.log" || true; }
printf '[policy]\nname = ck\n[limits]\nstep = 5\n[daemon]\ninterval_ms = 100\n[metrics]\ntextfile = %s\n' \
	"$LRU_PROM" >"$CONF/lru.conf"
mkdir -p "$WORK/prom"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
fake_vmstat 0 0 0 0 0
set_knob 60

# The multi-gen LRU on at start, then switched off and on again by root at run time.
start_daemon -c "$CONF/lru.conf"
check "lru: the start record names the multi-gen LRU and the release" wait_for 15 log_has \
	"started: .*; mglru LRU, Linux 6.12.57+deb13-amd64 MESSAGE_ID=3b8e4e1c5f0a4d7f9a3a2d7c41e0b6a1 LRU=mglru KERNEL=6.12.57"
check "lru: status says mglru" wait_for 15 lru_status_is mglru
"$BIN" status --json >"$WORK/lru.json"
check "lru: status --json has lru and kernel" /usr/bin/python3 -c "
import json
d = json.load(open('$WORK/lru.json'))
assert d['lru'] == 'mglru' and d['kernel'] == '6.12.57+deb13-amd64', d
"
check "lru: the metrics name it" wait_for 15 lru_metric_is mglru
check "lru: the metrics follow the conventions" "$TOP/tests/prom_check.py" "$LRU_PROM" autoswappiness_lru_info=1
check "lru: promtool has nothing to say" promtool_clean "$LRU_PROM"
check "lru: the daemon decides as usual" wait_for 15 knob_is 23
put_lru 0x0000
check "lru: switched off at run time: status says classic" wait_for 15 lru_status_is classic
check "lru: the change is a record with its fields" log_has "the kernel's LRU changed from mglru to classic \
('$LG' is 0x0000) MESSAGE_ID=2cb1048d98c44aac910214e42809057a LRU=classic KERNEL=6.12.57+deb13-amd64"
check "lru: the metrics follow" wait_for 15 lru_metric_is classic
put_lru 0x0007
check "lru: and switched on again" wait_for 15 lru_status_is mglru
check "lru: the change back is a record" log_has "the kernel's LRU changed from classic to mglru ('$LG' is 0x0007)"
sleep 0.3
check "lru: one record a change, not one a poll" test "$(lru_count "the kernel's LRU changed")" = 2
# Garbage in the file at run time: taken as classic, said once, and its end said.
put_lru 'garbag'
check "lru: garbage is taken as classic" wait_for 15 lru_status_is classic
check "lru: and said, with what is done" log_has "cannot read '$LG': not a number; taking the LRU as classic"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 100000
check "lru: the daemon goes on deciding meanwhile" wait_for 15 knob_is 10
check "lru: garbage is said once" test "$(lru_count "cannot read '$LG'")" = 1
put_lru 0x0007
check "lru: its end is said" wait_for 15 log_has "'$LG' readable again"
check "lru: and the LRU is mglru again" wait_for 15 lru_status_is mglru
stop_daemon TERM || true
check "lru: the daemon restores the original" knob_is 60
rm -f "$LRU_PROM"

# Off at start (built but off, as Debian 12 boots), and not built (no file).
put_lru 0x0000
start_daemon -c "$CONF/lru.conf"
check "lru: 0x0000 at start: the start record says classic" wait_for 15 \
	log_has "started: .*; classic LRU, Linux 6.12.57+deb13-amd64 .*LRU=classic KERNEL=6.12.57+deb13-amd64"
check "lru: 0x0000 at start: status says classic" wait_for 15 lru_status_is classic
check "lru: 0x0000 at start: the metrics too" wait_for 15 lru_metric_is classic
stop_daemon TERM || true
rm -f "$LG" "$LRU_PROM"
start_daemon -c "$CONF/lru.conf"
check "lru: no file at start: the start record says classic" wait_for 15 \
	log_has "started: .*; classic LRU, Linux 6.12.57+deb13-amd64 .*LRU=classic"
check "lru: no file at start: status says classic" wait_for 15 lru_status_is classic
check "lru: no file is not a fault" test "$(lru_count "$LG")" = 0
stop_daemon TERM || true

# A FIFO in its place: never opened for a read that blocks; classic, said once.
mkfifo "$LG"
start_daemon -c "$CONF/lru.conf"
check "lru: a FIFO does not block the start or the polls" wait_for 15 knob_is 10
check "lru: a FIFO is taken as classic" wait_for 15 lru_status_is classic
check "lru: and said once" test "$(lru_count "cannot read '$LG': not a regular file; taking the LRU as classic")" = 1
stop_daemon TERM || true
rm -f "$LG" "$LRU_PROM"

# --explain (as uid 65534): one sentence for the kernel and its LRU, and under the
# multi-gen LRU what the default policy's counters count on this release.
# Its counters' sentences are the workingset policy's: a file uid 65534 may read names it.
LPUB=$(mktemp -d /tmp/autoswappiness-lru.XXXXXX)
chmod 0755 "$LPUB"
printf '[policy]\nname = workingset\n' >"$LPUB/ws.conf"
lru_explain() { # lru_explain [CONFIG]: the built-in defaults without one
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --explain -c "${1:-/nonexistent/conf}" \
		>"$WORK/lru.explain" 2>&1
}
lru_explain_has() { grep -qxF -- "$1" "$WORK/lru.explain"; }
put_lru 0x0007
check "lru: --explain runs" lru_explain "$LPUB/ws.conf"
check "lru: --explain names the kernel and the multi-gen LRU" lru_explain_has \
	"Kernel: Linux 6.12.57+deb13-amd64, with the multi-gen LRU (mglru: $LG is 0x0007)."
ws_counters="workingset_activate_anon and _file, which the workingset policy steers by"
check "lru: --explain says what the workingset counters count on 6.12" lru_explain_has "Under the multi-gen LRU \
from about Linux 6.5 to 6.13, $ws_counters, count every recent refault, not only those within the working set."
echo 6.1.0-27-amd64 >"$WORK/osrelease"
lru_explain "$LPUB/ws.conf"
check "lru: --explain on 6.1: promotions, not refaults" lru_explain_has "Under the multi-gen LRU before about \
Linux 6.5, $ws_counters, count promotions of pages used through file descriptors, not refaults."
put_lru 0x0000
lru_explain
check "lru: --explain, built but off" lru_explain_has \
	"Kernel: Linux 6.1.0-27-amd64, with the classic LRU ($LG is 0x0000: the multi-gen LRU is built but off)."
check "lru: --explain under the classic LRU says nothing of the counters" \
	bash -c "! grep -q 'Under the multi-gen LRU' '$WORK/lru.explain'"
rm -f "$LG"
lru_explain
check "lru: --explain without the file" lru_explain_has \
	"Kernel: Linux 6.1.0-27-amd64, with the classic LRU (no $LG: it has no multi-gen LRU)."
mknod "$LG" c 1 5
rc=0
timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --explain -c /nonexistent/conf \
	>"$WORK/lru.explain" 2>&1 || rc=$?
check "lru: --explain with a device (/dev/zero's) in its place does not block (exit $rc)" test $rc = 0
check "lru: a device is taken as classic" lru_explain_has \
	"Kernel: Linux 6.1.0-27-amd64, its LRU taken as classic ($LG: not a regular file)."
rm -f "$LG"
head -c 1048576 /dev/zero | tr '\0' 1 >"$LG"
lru_explain
check "lru: a huge file is taken as classic" lru_explain_has \
	"Kernel: Linux 6.1.0-27-amd64, its LRU taken as classic ($LG: File too large)."
rm -f "$LG"

# Under the multi-gen LRU 0, 1 and 200 are other mechanisms (issue 46, item 3): a range
# pinned at 200 writes 199 there, 200 once root switches to the classic LRU, and 199 again
# when it switches back; --once and --explain go by the same rule; pinned at 0, 2.
printf '0x0007\n' >"$LG"
printf '[policy]\nname = ck\n[limits]\nmin = 200\nmax = 200\n[daemon]\ninterval_ms = 100\n' >"$CONF/lru200.conf"
printf '[policy]\nname = ck\n[limits]\nmin = 0\nmax = 0\n' >"$CONF/lru0.conf"
set_knob 60
start_daemon -c "$CONF/lru200.conf"
check "lru: pinned at 200, the multi-gen LRU gets 199" wait_for 15 knob_is 199
put_lru 0x0000
check "lru: switched to the classic LRU, 200" wait_for 15 knob_is 200
put_lru 0x0007
check "lru: and back under the multi-gen LRU, 199 (a change below the step)" wait_for 15 knob_is 199
stop_daemon TERM || true
check "lru: the original back (pinned at 200)" knob_is 60
check "lru: --once pinned at 200 under the multi-gen LRU writes 199" bash -c \
	"'$BIN' --once -c '$CONF/lru200.conf' | grep -q 'swappiness=199 ' && [ \$(cat /proc/sys/vm/swappiness) = 199 ]"
check "lru: --once pinned at 0 under the multi-gen LRU writes 2" bash -c \
	"'$BIN' --once -c '$CONF/lru0.conf' | grep -q 'swappiness=2 ' && [ \$(cat /proc/sys/vm/swappiness) = 2 ]"
put_lru 0x0000
check "lru: --once pinned at 0 under the classic LRU writes 0" bash -c \
	"'$BIN' --once -c '$CONF/lru0.conf' | grep -q 'swappiness=0 ' && [ \$(cat /proc/sys/vm/swappiness) = 0 ]"
put_lru 0x0007
"$BIN" --explain -c "$CONF/lru200.conf" >"$WORK/lru.explain" 2>&1 || true
check "lru: --explain says the range it keeps under the multi-gen LRU" grep -q \
	"^Limits: 200 to 200, kept within 2 to 199 under the multi-gen LRU" "$WORK/lru.explain"
set_knob 60

# name = auto: the device policy under the multi-gen LRU, workingset under the classic one,
# followed when root switches the LRU at run time (a record each time, the policy's
# history afresh); the start record, status, --once and --explain say which.
printf '[policy]\nname = auto\n[limits]\nstep = 5\n[daemon]\ninterval_ms = 100\n' >"$CONF/lru-auto.conf"
fake_swaps /dev/vdb
fake_vmstat 0 0 0 0 0
put_lru 0x0007
policy_is() { "$BIN" status 2>/dev/null | grep -qx "  policy:      $1"; }
auto_is() { policy_is "$1 (name = auto: the policy for this LRU)"; }
auto_count() { grep -c "policy auto: the" "$WORK/daemon.log" || true; }
start_daemon -c "$CONF/lru-auto.conf"
check "lru: auto under the multi-gen LRU on disk swap: device's 100" wait_for 15 knob_is 100
check "lru: the start record says auto and what it runs" wait_for 15 log_has \
	"started: policy auto, limits 0..auto, .*; mglru LRU, Linux [^ ]*; policy auto runs device MESSAGE_ID="
check "lru: status names the policy deciding, as auto's" wait_for 15 auto_is device
check "lru: status --json too" bash -c "'$BIN' status --json | grep -q '\"policy\":\"device\",\"policy_auto\":true,'"
check "lru: the decision's record names it too" log_has "swappiness 60 -> 100 (device: swap on disk, cost value 100)"
put_lru 0x0000
check "lru: switched to the classic LRU: workingset decides, and a record says so" wait_for 15 log_has \
	"policy auto: the workingset policy decides from now on, for the classic LRU MESSAGE_ID=2cb1048d98c44aac910214e42809057a LRU=classic"
check "lru: status follows" wait_for 15 auto_is workingset
put_lru 0x0007
check "lru: and back to device under the multi-gen LRU" wait_for 15 log_has \
	"policy auto: the device policy decides from now on, for the mglru LRU"
check "lru: status follows back" wait_for 15 auto_is device
sleep 0.3
check "lru: one record a switch, not one a poll" test "$(auto_count)" = 2
# Reloaded with the policy auto chose, named: the same policy, no longer auto's.
sed -i 's/^name = auto$/name = device/' "$CONF/lru-auto.conf"
kill -HUP "$DPID"
check "lru: reloaded with name = device: status no longer marks it auto's" wait_for 15 policy_is device
sed -i 's/^name = device$/name = auto/' "$CONF/lru-auto.conf"
stop_daemon TERM || true
check "lru: auto: the original back" knob_is 60
check "lru: --once with auto under the multi-gen LRU runs device" bash -c \
	"'$BIN' --once --dry-run -c '$CONF/lru-auto.conf' | grep -q '^policy=device swappiness=100 '"
put_lru 0x0000
check "lru: --once with auto under the classic LRU runs workingset" bash -c \
	"'$BIN' --once --dry-run -c '$CONF/lru-auto.conf' | grep -q '^policy=workingset '"
"$BIN" --explain -c "$CONF/lru-auto.conf" >"$WORK/lru.explain" 2>&1 || true
check "lru: --explain with auto under the classic LRU names workingset" grep -q \
	"^The configuration's policy is auto, and this kernel reclaims with the classic LRU: so the workingset policy" \
	"$WORK/lru.explain"
put_lru 0x0007
"$BIN" --explain -c "$CONF/lru-auto.conf" >"$WORK/lru.explain" 2>&1 || true
check "lru: --explain with auto under the multi-gen LRU names device" grep -q \
	"^The configuration's policy is auto, and this kernel reclaims with the multi-gen LRU, .*: so the device policy" \
	"$WORK/lru.explain"
set_knob 60
rm -f "$LG"
rm -rf "$LPUB"

umount /sys/kernel/mm /proc/sys/kernel/osrelease
