#!/bin/bash
# Runs inside the VM (as vm-test.service, root): drives autoswappiness the way
# the README tells a user to, under real systemd, journald, swap and pressure.
set -uo pipefail

SHARE=/mnt/share
KNOB=/proc/sys/vm/swappiness
CONF=/etc/autoswappiness.conf
UNIT=autoswappiness
# The shipped psi_trigger_ms (src/config.c, chosen from tests/vm/psi-reaction.sh's figures).
PSI_TRIGGER_MS=20
# Step 10's timer: both poll intervals of the daemon that meets the spike, so that a poll within
# that long of its start can only come from the trigger. Ten minutes: the stall began 26 s after
# the spike on a guest starved beside the bench, and a spike ends well before. How fast the
# trigger makes it is a figure for tests/vm/psi-reaction.sh (83-324 ms at 20 ms of stall on an
# idle host), not a check: a bound in the guest's time fails on a starved guest (2040 ms against
# 2000 once, 5335 against 5000 beside the bench), and one as long as the shipped calm poll (5 s)
# tells nothing, since the timer alone would meet it. The log line checked in steps 1 and 10 is
# what tells the kernel's two paces apart.
SPIKE_TIMER_MS=600000

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.5
	done
}
step() { echo "== $* (uptime $(cut -d' ' -f1 /proc/uptime) s)"; }
knob() { cat $KNOB; }
active() { [ "$(systemctl is-active $UNIT)" = active ]; }
journal_since() { journalctl -u $UNIT --no-pager --since "@$1" "${@:2}"; }
main_pid() { systemctl show -p MainPID --value $UNIT; }

# The guests of tests/vm/recipe.sh boot their kernel's LRU: trixie's 6.12 the multi-gen LRU
# (CONFIG_LRU_GEN_ENABLED=y), bookworm's 6.1 the classic one (built, off). Each run of this
# test covers the LRU it names, so a guest that boots the other one must fail it.
step "the guest's kernel and LRU"
CODENAME=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
lru_mode() {
	local v
	v=$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null) || { echo classic; return; }
	if (((v) & 1)); then echo mglru; else echo classic; fi
}
LRU=$(lru_mode)
case $CODENAME in trixie) WANT_LRU=mglru ;; bookworm) WANT_LRU=classic ;; *) WANT_LRU="a known suite" ;; esac
echo "guest: Debian $CODENAME, kernel $(uname -r), lru_gen/enabled $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo absent)"
check "the $CODENAME guest runs the $WANT_LRU LRU as its kernel boots it ($LRU)" test "$LRU" = "$WANT_LRU"
# The top the daemon writes: 200, but 199 under the multi-gen LRU, where 200 evicts anonymous
# pages first without feedback (regulator.h, REGULATOR_MGLRU_MAX).
TOP=200
[ "$LRU" = mglru ] && TOP=199

step "install the Debian package with apt (offline: its dependencies are in the image)"
mkswap /dev/vdb >/dev/null && swapon /dev/vdb
check "swap is on" grep -q '^/dev/vdb' /proc/swaps
ORIG=$(knob)
echo "original vm.swappiness: $ORIG"
T0=$(date +%s)
debs=("$SHARE"/autoswappiness_*.deb)
cp -- "${debs[0]}" /tmp/ || { echo "FATAL: no package in $SHARE"; exit 1; }
# The image drops apt's lists and cache (recipe.sh): give apt its directories back.
mkdir -p /var/cache/apt/archives/partial /var/lib/apt/lists/partial
# An absolute path: apt 2.6 with a relative one and --no-download fails ("Pathname to install
# is not absolute"); with no lists in the image apt has nothing to download anyway.
check "apt-get install /tmp/${debs[0]##*/}" bash -c "set -o pipefail; DEBIAN_FRONTEND=noninteractive \
	apt-get install -y /tmp/${debs[0]##*/} 2>&1 | tail -n 15"
check "the package is installed" bash -c "dpkg-query -W -f='\${Status}' autoswappiness | grep -qx 'install ok installed'"
check "the binary is installed" test -x /usr/sbin/autoswappiness
check "the config is installed, a conffile" bash -c "test -f $CONF && grep -qx $CONF /var/lib/dpkg/info/autoswappiness.conffiles"
check "the unit is installed" test -f /lib/systemd/system/$UNIT.service
check "the catalog and the completion are installed" test -f /usr/lib/systemd/catalog/$UNIT.catalog \
	-a -f /usr/share/bash-completion/completions/$UNIT
check "the package enabled the service" bash -c "[ \"\$(systemctl is-enabled $UNIT)\" = enabled ]"
check "and started it" wait_for 30 active
check "journalctl -x explains the start record (the catalog)" wait_for 10 bash -c \
	"journalctl -x -u $UNIT --no-pager | grep -q 'autoswappiness started regulating vm.swappiness'"
journalctl -x -u $UNIT --no-pager | sed -n '1,12p'
# The shipped config's policy (the benchmark picks the default): the daemon's own dry run names it.
POLICY=$(/usr/sbin/autoswappiness --once --dry-run | sed -n 's/^policy=\([a-z]*\) .*/\1/p')
check "a dry run names the shipped policy ('$POLICY')" grep -qxE 'ck|tendency|adaptive|workingset' <<<"$POLICY"

step "1. systemctl enable --now (the package did it already)"
systemctl daemon-reload
check "enable --now succeeds" systemctl enable --now $UNIT
check "is-active says active" active
check "systemctl status shows the STATUS= line" wait_for 30 \
	bash -c "systemctl status $UNIT --no-pager | grep -q 'Status: \"swappiness [0-9]* ($POLICY: '"
systemctl status $UNIT --no-pager | sed -n '1,12p'
IDLE=$(knob)
echo "idle vm.swappiness chosen: $IDLE"
if [ "$POLICY" = tendency ] || [ "$POLICY" = workingset ]; then
	# tendency (and workingset, which steers it) follows its formula only while the kernel
	# reclaims: on an idle guest a poll keeps the value in effect, and says so.
	# (A decision that keeps the value updates STATUS= at most every 30 s: include/notify.h.)
	check "at idle the daemon decides to keep the value" wait_for 45 bash -c \
		"systemctl status $UNIT --no-pager | grep -q 'Status: \"swappiness [0-9]* ($POLICY: stay at [0-9]*: no reclaim (formula [0-9]*)'"
else
	check "the daemon wrote a value at idle" wait_for 10 bash -c "journalctl -u $UNIT --no-pager | grep -q 'swappiness $ORIG -> '"
fi
# The unit grants one capability, CAP_SYS_RESOURCE (bit 24), for the PSI trigger's pace alone:
# mlockall and the knob need none.
grep -E '^(CapEff|CapBnd|VmLck):' /proc/"$(main_pid)"/status
check "the daemon runs with CAP_SYS_RESOURCE alone" grep -qx $'CapEff:\t0000000001000000' /proc/"$(main_pid)"/status
check "  and its bounding set holds nothing else" grep -qx $'CapBnd:\t0000000001000000' /proc/"$(main_pid)"/status
check "its memory is locked all the same (LimitMEMLOCK=)" awk '/^VmLck:/ { exit !($2 > 0) }' /proc/"$(main_pid)"/status
check "the PSI trigger is armed, and the kernel checks it every 200 ms (CAP_SYS_RESOURCE in the user namespace)" bash -c \
	"journalctl -u $UNIT --no-pager | grep -q 'PSI trigger armed: some $PSI_TRIGGER_MS ms per 2000 ms, checked by the kernel every 200 ms (CAP_SYS_RESOURCE)'"

step "2. real memory pressure: dirty 1.3x RAM"
T1=$(date +%s)
mem_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
mib=$((mem_kib * 13 / 10 / 1024))
pswpout0=$(awk '/^pswpout / {print $2}' /proc/vmstat)
# What the kernel counted during the pressure, for the log: the LRUs count activations apart.
COUNTERS="pgscan_anon pgscan_file pgsteal_anon pgsteal_file workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file pswpin pswpout"
vmstat_of() { awk -v want=" $COUNTERS " 'index(want, " " $1 " ") { printf "%s=%s ", $1, $2 }' /proc/vmstat; }
vm0=$(vmstat_of)
$SHARE/dirtier "$mib" 2 >/tmp/dirtier.out 2>&1 &
dpid=$!
seen=" $IDLE "
while kill -0 $dpid 2>/dev/null; do
	v=$(knob)
	case "$seen" in *" $v "*) ;; *) seen="$seen$v " ;; esac
	sleep 0.5
done
wait $dpid
drc=$?
cat /tmp/dirtier.out
echo "values seen during pressure:$seen"
pswpout1=$(awk '/^pswpout / {print $2}' /proc/vmstat)
vm1=$(vmstat_of)
echo "counters during the pressure ($LRU LRU):$(for c in $COUNTERS; do
	a=$(tr ' ' '\n' <<<"$vm0" | sed -n "s/^$c=//p") b=$(tr ' ' '\n' <<<"$vm1" | sed -n "s/^$c=//p")
	printf ' %s +%s' "$c" "$((${b:-0} - ${a:-0}))"
done)"
check "the dirtier finished (exit $drc)" test $drc = 0
check "the pressure really swapped ($((pswpout1 - pswpout0)) pages out)" test $((pswpout1 - pswpout0)) -gt 1000
check "the knob changed under pressure" bash -c "echo '$seen' | grep -qv '^ $IDLE \$'"
journal_since "$T1" -o json >/tmp/j.json
n=$(grep -c '"MESSAGE_ID":"5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7"' /tmp/j.json)
check "decision records during pressure ($n)" test "$n" -ge 1
check "decision records carry every field" bash -c "grep '\"MESSAGE_ID\":\"5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7\"' /tmp/j.json |
	grep '\"SWAPPINESS\":' | grep '\"PREVIOUS\":' | grep '\"APP_CENTILE\":' | grep '\"SWAP_CENTILE\":' |
	grep '\"MAPPED_RATIO\":' | grep '\"DISTRESS\":' | grep '\"SWAP_TENDENCY\":' | grep '\"POLICY\":\"$POLICY\"' |
	grep -q '\"REASON\":'"
check "the records belong to the unit" grep -q '"_SYSTEMD_UNIT":"autoswappiness.service"' /tmp/j.json
# Disk swap, max = auto (100 there): the shipped tendency goes to 200 while the dirtier's first
# pass sends its pages out and only program text is left in the page cache, and back at the
# swap-ins of the second pass (autoswappiness(7), THE RULES: sparing the cache).
journal_since "$T1" | grep -E 'spare the cache|spared no more' | sed 's/^/  /' || true
if [ "$POLICY" = tendency ]; then
	check "the shipped default spared the cache at $TOP on disk swap" \
		bash -c "journalctl -u $UNIT --no-pager --since @$T1 | grep -q 'swappiness [0-9]* -> $TOP (tendency: spare the cache at $TOP: unmapped cache [0-4]%'"
	check "  and went back below it when it no longer paid" wait_for 20 \
		bash -c "journalctl -u $UNIT --no-pager --since @$T1 | grep -q '$TOP -> [0-9]* (tendency: .*; cache spared no more: '"
elif [ "$POLICY" = workingset ]; then
	# workingset is tendency's value steered by the kernel's activations: 200 either as
	# tendency spares the cache or as its own rise on file activations (both only with
	# max = auto on disk swap), and back below when anonymous pages come back. A rise on
	# file activations (the dirtier's second pass may give one) is kept between bursts and
	# forgotten only after POLICY_ADAPTIVE_RELAX_S (30 s) without reclaim, then the next
	# calm poll (5 s) takes the value back: 20 s was too short for that (a run of
	# 2026-12-05 stayed at 200 through the second pass and past the wait).
	check "the shipped default went to $TOP on disk swap, above max = auto" \
		bash -c "journalctl -u $UNIT --no-pager --since @$T1 | grep -E -q 'swappiness [0-9]* -> $TOP \(workingset: (spare the cache at $TOP: unmapped cache [0-4]%|.*; file \+[0-9]+ to $TOP: )'"
	check "  and went back below it" wait_for 60 \
		bash -c "journalctl -u $UNIT --no-pager --since @$T1 | grep -q '$TOP -> [0-9]* (workingset: '"
fi
journal_since "$T1" -o cat | tail -n 5

step "3. edit the config and reload"
T2=$(date +%s)
sed -i 's/^#max = auto$/max = 30/' $CONF
check "the edit made a max line" grep -q '^max = 30$' $CONF
check "autoswappiness -n accepts it" /usr/sbin/autoswappiness -n
systemctl reload $UNIT
check "reload is journaled" wait_for 20 bash -c "journalctl -u $UNIT --no-pager --since @$T2 | grep -q \"reloaded '$CONF'\""
check "the new max holds" wait_for 20 bash -c "[ \$(cat $KNOB) -le 30 ]"
$SHARE/dirtier "$mib" 1 >/dev/null 2>&1 &
dpid=$!
max_seen=0
while kill -0 $dpid 2>/dev/null; do
	v=$(knob)
	[ "$v" -gt "$max_seen" ] && max_seen=$v
	sleep 0.5
done
wait $dpid
check "the new max holds under pressure (max seen $max_seen)" test "$max_seen" -le 30
T3=$(date +%s)
line=$(grep -n '^max = 30$' $CONF | cut -d: -f1)
sed -i 's/^max = 30$/max = 300/' $CONF
# ExecReload= runs `autoswappiness -n` first: a rejected file fails the reload itself, with the
# errors in the unit's journal, and the daemon never gets the signal.
rc=0
systemctl reload $UNIT 2>/tmp/reload.err || rc=$?
cat /tmp/reload.err
check "a broken reload fails: systemctl reload exits $rc" test $rc != 0
check "a broken reload names file:line in the unit's journal" wait_for 20 bash -c \
	"journalctl -u $UNIT --no-pager --since @$T3 | grep -q \"$CONF:$line: key 'max': expected auto or 0..200, got '300'\""
sleep 2
check "the daemon never loaded it" bash -c \
	"! journalctl -u $UNIT --no-pager --since @$T3 | grep -qE \"reloaded '$CONF'|reload of '$CONF' failed\""
check "the unit stays active after a broken reload" active
check "the old max still holds" bash -c "[ \$(cat $KNOB) -le 30 ]"
sed -i 's/^max = 300$/max = 30/' $CONF
check "the fixed file reloads" systemctl reload $UNIT

step "3a. a broken drop-in, as configuration management would write it"
T3A=$(date +%s)
mkdir -p /etc/autoswappiness.conf.d
printf '# managed by ansible\n[limits]\nbogus = 1\n' >/etc/autoswappiness.conf.d/90-broken.conf
rc=0
systemctl reload $UNIT 2>/tmp/reload.err || rc=$?
check "a broken drop-in fails the reload: systemctl reload exits $rc" test $rc != 0
check "its error is in the journal with path and line" wait_for 20 bash -c \
	"journalctl -u $UNIT --no-pager --since @$T3A | grep -q \"/etc/autoswappiness.conf.d/90-broken.conf:3: unknown key 'bogus'\""
check "the unit stays active with the old config" bash -c "systemctl is-active -q $UNIT && [ \$(cat $KNOB) -le 30 ]"
rm /etc/autoswappiness.conf.d/90-broken.conf
T3B=$(date +%s)
check "without it the reload succeeds" systemctl reload $UNIT
check "and the daemon reloaded" wait_for 20 bash -c \
	"journalctl -u $UNIT --no-pager --since @$T3B | grep -q \"reloaded '$CONF'\""

step "4. kill -9, restart, stop"
pid=$(main_pid)
# MainPID 0 (no daemon): kill -9 0 would kill this script and the harness with it.
[ "${pid:-0}" != 0 ] && kill -9 "$pid"
check "systemd restarts the daemon after kill -9" wait_for 60 bash -c \
	"[ \"\$(systemctl show -p MainPID --value $UNIT)\" != $pid ] && [ \"\$(systemctl show -p MainPID --value $UNIT)\" != 0 ] && systemctl is-active -q $UNIT"
check "the restarted daemon found the original" wait_for 20 bash -c \
	"journalctl -u $UNIT --no-pager | grep -q \"found '/run/autoswappiness/original' = $ORIG\""
systemctl stop $UNIT
check "systemctl stop restores the value from before the first start ($(knob) = $ORIG)" test "$(knob)" = "$ORIG"
check "no record left after stop" test ! -e /run/autoswappiness/original

step "4b. a yield survives a crash and systemd's restart; systemctl restart ends it"
systemctl start $UNIT
check "the unit is active again" wait_for 30 active
check "it writes a value" wait_for 30 bash -c "[ \$(cat $KNOB) != $ORIG ]"
echo 77 >$KNOB # an administrator's sysctl
check "the daemon yields to the admin's 77" wait_for 30 bash -c \
	"journalctl -u $UNIT --no-pager | grep -q 'changed from [0-9]* to 77 by someone else; leaving it alone'"
pid=$(main_pid)
# MainPID 0 (no daemon): kill -9 0 would kill this script and the harness with it.
[ "${pid:-0}" != 0 ] && kill -9 "$pid"
check "systemd restarts it" wait_for 60 bash -c \
	"[ \"\$(systemctl show -p MainPID --value $UNIT)\" != $pid ] && [ \"\$(systemctl show -p MainPID --value $UNIT)\" != 0 ] && systemctl is-active -q $UNIT"
check "the restarted daemon found the yield" wait_for 20 bash -c \
	"journalctl -u $UNIT --no-pager | grep -q \"found '/run/autoswappiness/yielded' from an instance that did not exit cleanly\""
check "systemctl status says it has yielded" bash -c "systemctl status $UNIT --no-pager | grep -q 'Status: \"yielded: swappiness 77'"
sleep 6 # longer than interval_ms: the restarted daemon has polled since
check "and the admin's 77 stays" test "$(knob)" = 77
systemctl restart $UNIT
check "systemctl restart ends the yield: the daemon writes again" wait_for 30 bash -c "[ \$(cat $KNOB) != 77 ]"
systemctl stop $UNIT
check "and restores the admin's 77, its new original" test "$(knob)" = 77
check "no yield record left after stop" test ! -e /run/autoswappiness/yielded
echo "$ORIG" >$KNOB

step "4c. someone else's vm.swappiness in sysctl.d"
# After 4b: the unit is stopped and the knob holds the original again. The reload that ends
# this yield makes 71 the value to restore, so the stop below is followed by the original.
systemctl start $UNIT
check "the unit is active (sysctl.d test)" wait_for 30 active
T4C=$(date +%s)
printf '# an old tuning\nvm.swappiness = 71\n' >/etc/sysctl.d/99-swap.conf
systemctl reload $UNIT
check "a reload warns about the sysctl.d line" wait_for 20 bash -c \
	"journalctl -u $UNIT --no-pager --since @$T4C | grep -q '/etc/sysctl.d/99-swap.conf:2 sets vm.swappiness = 71: with on_external_change = yield'"
check "the warning carries the OTHER_ fields" bash -c "journalctl -u $UNIT --no-pager --since @$T4C -o json |
	grep '\"MESSAGE_ID\":\"2b5b3f1464d4423fb1f7426b78fbfead\"' | grep '\"OTHER_SOURCE\":\"sysctl.d\"' |
	grep '\"OTHER_FILE\":\"/etc/sysctl.d/99-swap.conf\"' | grep '\"OTHER_LINE\":\"2\"' | grep -q '\"OTHER_VALUE\":\"71\"'"
sysctl --system >/dev/null 2>&1
check "sysctl --system set 71" test "$(knob)" = 71
check "the daemon yields and names the file" wait_for 30 bash -c \
	"journalctl -u $UNIT --no-pager --since @$T4C | grep -q 'changed from [0-9]* to 71 by someone else; leaving it alone until reload (probably /etc/sysctl.d/99-swap.conf:2, which sets vm.swappiness = 71)'"
rm /etc/sysctl.d/99-swap.conf
systemctl reload $UNIT
check "a reload ends the yield" wait_for 30 bash -c "[ \$(cat $KNOB) -le 30 ]"
systemctl stop $UNIT
check "and stop restores 71, which that reload made the original" test "$(knob)" = 71
echo "$ORIG" >$KNOB

step "5. the unit's sandbox: the knob writable, other sysctls not"
# The same [Service] sandbox with a probe as ExecStart.
{
	echo "[Service]"
	echo "Type=oneshot"
	sed -n '/^\[Service\]/,/^\[/p' /lib/systemd/system/$UNIT.service | grep -E '^[A-Z]' |
		grep -vE '^(Type|ExecStart|ExecReload|Restart|RestartPreventExitStatus|WatchdogSec|NotifyAccess)='
	echo "ExecStart=/bin/sh -c 'echo 37 >/proc/sys/vm/swappiness && echo KNOB-WRITABLE; echo 2 >/proc/sys/vm/overcommit_memory && echo OTHER-WRITABLE || echo OTHER-REFUSED'"
} >/run/systemd/system/sandbox-probe.service
systemctl daemon-reload
systemctl start sandbox-probe.service
out=$(journalctl -u sandbox-probe --no-pager -o cat)
echo "$out"
check "the knob is writable in the sandbox" grep -q KNOB-WRITABLE <<<"$out"
check "another sysctl is not" grep -q OTHER-REFUSED <<<"$out"
check "overcommit_memory unchanged" test "$(cat /proc/sys/vm/overcommit_memory)" = 0
echo "$ORIG" >$KNOB

step "6. systemd-analyze security, live vs offline"
systemctl start $UNIT
exposure() { grep -o 'Overall exposure level for [^:]*: [0-9.]*' | awk '{print $NF}'; }
live=$(systemd-analyze security $UNIT --no-pager | exposure)
offline=$(systemd-analyze security --offline=true /lib/systemd/system/$UNIT.service --no-pager | exposure)
echo "exposure: live $live, offline $offline"
check "live exposure equals the offline figure" test -n "$live" -a "$live" = "$offline"
check "exposure is 0.6 or less (0.5, and 0.1 for CAP_SYS_RESOURCE)" awk -v e="$live" 'BEGIN { exit !(e != "" && e <= 0.6) }'
systemctl stop $UNIT

# A start the daemon refuses, and systemd must not retry (RestartPreventExitStatus=): the unit
# failed with STATUS, no restart within RestartSec=, the journal has the fixed string WHY, the
# knob is as it was.
refused_start() { # STATUS WHY
	systemctl start $UNIT
	sleep 5
	check "the unit failed" test "$(systemctl is-active $UNIT)" = failed
	check "with exit status $1" test "$(systemctl show -p ExecMainStatus --value $UNIT)" = "$1"
	check "and was not restarted" test "$(systemctl show -p NRestarts --value $UNIT)" = 0
	check "the journal says: $2" bash -c 'journalctl -u "$1" --no-pager | grep -qF -- "$2"' _ "$UNIT" "$2"
	check "the knob is untouched by the refused start" test "$(knob)" = "$ORIG"
}

step "7. a config that does not parse at start: exit 78, no restart loop"
sed -i 's/^max = 30$/max = 300/' $CONF
refused_start 78 "$CONF:$line: key 'max'"

step "7b. a lock that is not root's (the state directory is not the daemon's alone): exit 73, no restart loop"
sed -i 's/^max = 300$/max = 30/' $CONF
systemctl reset-failed $UNIT
LOCK=/run/autoswappiness/lock
# RuntimeDirectoryPreserve=yes keeps the directory and its lock between runs; the lock given
# to another user is what a foreign process could have prepared.
touch $LOCK && chown 65534:65534 $LOCK
refused_start 73 "refusing to start: '$LOCK'"
rm -f $LOCK
systemctl reset-failed $UNIT

step "8. fleets: a config-management drop-in, status, and the Prometheus textfile"
# The README's layout: node_exporter's textfile directory belongs to its own user (as the
# Debian package makes it); the daemon writes in /run/autoswappiness, and a link there points
# at the file.
id prometheus >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin prometheus
NE=/var/lib/prometheus/node-exporter
mkdir -p /etc/autoswappiness.conf.d $NE
chown prometheus:prometheus $NE
chmod 0755 $NE
PROM=/run/autoswappiness/autoswappiness.prom
ln -sfn $PROM $NE/autoswappiness.prom
printf '# managed by ansible\n[limits]\nmax = 25\n[metrics]\ntextfile = %s\n' $PROM \
	>/etc/autoswappiness.conf.d/50-fleet.conf
check "-n checks the merged result" /usr/sbin/autoswappiness -n
systemctl start $UNIT
check "the drop-in's max holds" wait_for 30 bash -c "[ \$(cat $KNOB) -le 25 ]"
check "status works (as root)" bash -c "/usr/sbin/autoswappiness status | tee /tmp/status.out | grep -q '^  policy:      $POLICY'"
cat /tmp/status.out
check "status works for an unprivileged user" setpriv --reuid=65534 --regid=65534 --clear-groups \
	/usr/sbin/autoswappiness status
check "status --json" bash -c "/usr/sbin/autoswappiness status --json | grep -q '\"running\":true'"
check "the unit writes the textfile in its runtime directory" wait_for 30 test -s $PROM
check "the textfile is world-readable (node_exporter is not root)" bash -c "[ \$(stat -c %a $PROM) = 644 ]"
check "node_exporter's user reads it through the link" bash -c \
	"setpriv --reuid=prometheus --regid=prometheus --clear-groups cat $NE/autoswappiness.prom | grep -q '^autoswappiness_swappiness [0-9]'"
check "no other .prom file in the runtime directory" bash -c "[ \"\$(cd /run/autoswappiness && ls -- *.prom)\" = autoswappiness.prom ]"
cp $PROM $SHARE/metrics.prom
# The layout the unit no longer allows: a textfile in the directory another user owns.
T8=$(date +%s)
sed -i "s|^textfile = .*|textfile = $NE/direct.prom|" /etc/autoswappiness.conf.d/50-fleet.conf
systemctl reload $UNIT
check "the unit may not write in node_exporter's directory" wait_for 30 bash -c \
	"journalctl -u $UNIT --no-pager --since @$T8 | grep -q \"failed to write '$NE/direct.prom': Read-only file system\""
check "and nothing lands there" test ! -e $NE/direct.prom
check "the unit stays active" active
sed -i "s|^textfile = .*|textfile = $PROM|" /etc/autoswappiness.conf.d/50-fleet.conf
systemctl reload $UNIT
check "back in the runtime directory" wait_for 30 test -s $PROM
systemctl stop $UNIT
check "stop removes the textfile" test ! -e $PROM

step "9. severe thrashing for 60 s with hundreds of processes"
rm -f /etc/autoswappiness.conf.d/50-fleet.conf
sed -i 's/^max = 30$/#max = auto/' $CONF
# Steps 9 and 10 test the loop (it keeps deciding, it reacts), not a policy, so they pin
# ck: its value falls as applications fill RAM, so every spike shows as new values.
# tendency may sit at max through a whole spike (distress added to it), with nothing to see.
printf '[policy]\nname = ck\n' >/etc/autoswappiness.conf.d/50-ck.conf
# With -v the daemon logs every poll, not only its writes: steps 9 and 10 count and time
# its polls from the journal (a thrash may leave the value alone for a minute).
mkdir -p /run/systemd/system/$UNIT.service.d
printf '[Service]\nExecStart=\nExecStart=/usr/sbin/autoswappiness -v\n' >/run/systemd/system/$UNIT.service.d/50-verbose.conf
systemctl daemon-reload
systemctl start $UNIT
wait_for 30 active
pid=$(main_pid)
restarts0=$(systemctl show -p NRestarts --value $UNIT)
for i in $(seq 300); do sleep 600 & done
T9=$(date +%s)
timeout 60 $SHARE/dirtier $((mem_kib * 15 / 10 / 1024)) 1000 >/dev/null 2>&1 &
dpid=$!
rss_max=0 swap_max=0
# What systemd shows, once a second: a decision that keeps the value changes it at most every
# 30 s (include/notify.h), though ck's reason moves with every poll while RAM fills.
: >/tmp/status-texts
while kill -0 $dpid 2>/dev/null; do
	rss=$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status)
	sw=$(awk '/^VmSwap:/ {print $2}' /proc/$pid/status)
	[ "${rss:-0}" -gt $rss_max ] && rss_max=$rss
	[ "${sw:-0}" -gt $swap_max ] && swap_max=$sw
	systemctl show -p StatusText --value $UNIT >>/tmp/status-texts 2>/dev/null || true
	sleep 1
done
wait $dpid
pkill -x sleep
decisions=$(journal_since "$T9" -o json | grep -c '"MESSAGE_ID":"5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7"')
echo "thrash: rss max ${rss_max} kB, swap max ${swap_max} kB, decisions $decisions"
check "the watchdog never fired" bash -c "! journalctl -u $UNIT --no-pager --since @$T9 | grep -qi watchdog"
check "no restart during the thrash" test "$(systemctl show -p NRestarts --value $UNIT)" = "$restarts0"
check "same daemon all along" test "$(main_pid)" = "$pid"
check "VmSwap of the daemon stayed 0" test "$swap_max" = 0
check "RSS stayed under 4 MiB ($rss_max kB)" test "$rss_max" -lt 4096
check "decisions kept coming: $decisions polls in the 60 s (at least 5)" test "$decisions" -ge 5
# Consecutive samples that both show a kept value (`; unchanged)`, `; below-step 20)`), the same
# value, and another reason: each is a STATUS= that woke PID 1 for a reason alone.
kept_changes=$(awk '{ kept = match($0, /^swappiness [0-9]+ .*; (unchanged|below-step[^)]*)\)$/); v = $2 }
	kept && pkept && v == pv && $0 != prev { n++ } { prev = $0; pkept = kept; pv = v } END { print n + 0 }' /tmp/status-texts)
reasons=$(journal_since "$T9" -o json | grep '"MESSAGE_ID":"5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7"' |
	grep -o '"REASON":"[^"]*"' | sort -u | wc -l)
echo "thrash: $(wc -l </tmp/status-texts) status samples, $kept_changes changes of a kept value's reason; $reasons reasons decided"
check "systemctl status changed a kept value's reason at most once per 30 s ($kept_changes in the 60 s)" \
	test "$kept_changes" -le 3

step "10. reaction to a pressure spike, and idle wake-ups"
sleep 10 # let it calm down
v0=$(knob)
w0=$(awk '/^voluntary_ctxt_switches:/ {print $2}' /proc/$pid/status)
sleep 30
w1=$(awk '/^voluntary_ctxt_switches:/ {print $2}' /proc/$pid/status)
echo "idle wake-ups: $(((w1 - w0) * 2)) per minute"
check "idle wake-ups stay below the busy pace ($(((w1 - w0) * 2))/min)" test $(((w1 - w0) * 2)) -le 120
# Issue 13 item 3: react within 1 s of the start of a stall. The daemon of step 9 runs with
# the shipped psi_trigger_ms; with the unit's CAP_SYS_RESOURCE the kernel checks its trigger
# every 200 ms (without it, every 2 s, which made the reaction up to about 2 s);
# tests/vm/psi-reaction.sh measures it, and autoswappiness(7), HOW SOON PRESSURE IS SEEN, quotes the figures.
check "the trigger is armed with the shipped $PSI_TRIGGER_MS ms per 2000 ms, checked every 200 ms" bash -c \
	"journalctl -u $UNIT _PID=$pid --no-pager | grep -q 'PSI trigger armed: some $PSI_TRIGGER_MS ms per 2000 ms, checked by the kernel every 200 ms'"
# Two clocks: from the start of the spike (the allocation itself takes part of it), and from
# the moment tasks first stall on memory (10 ms of PSI "some" since the spike started), which
# is when pressure really begins. The probe forks nothing (a fork takes a good part of a
# second in this thrash) and stops reading /proc/pressure/memory at the onset: a read that
# updates the averages just before the kernel's worker does makes a trigger without CAP_SYS_RESOURCE wait 2 s more.
# The figures are printed; what is asserted is an order, not a time: the trigger's poll comes
# before the daemon's timer could poll, however slow a busy host makes the guest. Timings under
# TCG are for tests/vm/psi-reaction.sh to judge.
psi_some_b() {
	local k rest
	while read -r k rest; do
		[ "$k" = some ] && { REPLY=${rest##*total=}; return; }
	done </proc/pressure/memory
}
# A poll writes the state file when what it shows changes, as the rates do in a thrash: a new
# content is a poll, where a context switch could be the watchdog's ping.
STATE=/run/autoswappiness/state
state_b() { IFS= read -r -d '' REPLY <$STATE; }
exec {nap_fd}<> <(:) # read -t on a pipe that never has data: a sleep without a fork
# The daemon that meets the spike polls on its timer every ten minutes, busy or calm: only the
# trigger makes it poll sooner (wakeup.c's on_psi).
printf '[daemon]\ninterval_ms = %d\nbusy_interval_ms = %d\n' $SPIKE_TIMER_MS $SPIKE_TIMER_MS \
	>/etc/autoswappiness.conf.d/50-timer.conf
t_start=${EPOCHREALTIME/./}
systemctl restart $UNIT
wait_for 30 active
pid=$(main_pid)
# Its first poll, then the spike: its next poll on the timer is due ten minutes after t_start.
check "the daemon with a $SPIKE_TIMER_MS ms timer has polled once" wait_for 30 grep -qx "pid=$pid" $STATE
v0=$(knob)
T10=$(date +%s)
psi_some_b
s0=$REPLY
t0=${EPOCHREALTIME/./}
$SHARE/dirtier $((mem_kib * 13 / 10 / 1024)) 1 >/dev/null 2>&1 &
dpid=$!
reacted='' stalled='' woke='' c0=''
while kill -0 $dpid 2>/dev/null && { [ -z "$reacted" ] || [ -z "$woke" ]; }; do
	now=${EPOCHREALTIME/./}
	if [ -z "$stalled" ]; then
		psi_some_b
		if [ $((REPLY - s0)) -ge 10000 ]; then
			stalled=$now
			state_b
			c0=$REPLY
		fi
	elif [ -z "$woke" ]; then
		# The daemon has written its state since the onset: it polled.
		state_b
		[ "$REPLY" = "$c0" ] || woke=$now
	fi
	if [ -z "$reacted" ]; then
		read -r v <$KNOB
		[ "$v" = "$v0" ] || reacted=$now
	fi
	read -rt 0.02 -u $nap_fd
done
wait $dpid
sleep 1 # the journal takes the last records
# By journald's clock, which stamps a record when journald gets to it (up to a second late in
# this thrash): the first poll (decision record) and the first trigger record after the onset.
first_after() {
	journal_since "$T10" -o json | grep "$1" | grep -o '"__REALTIME_TIMESTAMP":"[0-9]*"' | tr -dc '0-9\n' |
		awk -v s="$stalled" '$1 >= s { print $1; exit }'
}
polled='' fired=''
if [ -n "$stalled" ]; then
	polled=$(first_after '"MESSAGE_ID":"5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7"')
	fired=$(first_after '"MESSAGE":"PSI trigger: memory stall over ')
fi
msg="reaction:"
if [ -n "$reacted" ]; then
	msg+=" $(((reacted - t0) / 1000)) ms from the start of the spike to a new value"
	if [ -z "$stalled" ]; then msg+=" (no memory stall)"
	elif [ "$reacted" -lt "$stalled" ]; then msg+=" (before any memory stall)"
	else msg+=" ($(((reacted - stalled) / 1000)) ms after the first 10 ms of memory stall)"
	fi
else
	msg+=" no new value"
fi
[ -z "$woke" ] || msg+="; the daemon polled $(((woke - stalled) / 1000)) ms after the first 10 ms of memory stall ($(((woke - t_start) / 1000)) ms after its start)"
[ -z "$polled" ] || msg+="; by journald's clock its first poll came $(((polled - stalled) / 1000)) ms"
[ -z "$fired" ] || msg+=" and the trigger's first record $(((fired - stalled) / 1000)) ms after it"
echo "$msg"
check "the value changed during the spike" test -n "$reacted"
check "tasks stalled on memory during the spike" test -n "$stalled"
check "the daemon polled after the stall began" test -n "$polled"
check "the trigger fired during the spike, at $PSI_TRIGGER_MS ms of stall" bash -c \
	"journalctl -u $UNIT _PID=$pid --no-pager --since @$T10 | grep -q 'PSI trigger: memory stall over $PSI_TRIGGER_MS ms in 2000 ms'"
check "the daemon polled after the stall before its timer could have ($SPIKE_TIMER_MS ms after its start)" \
	bash -c "[ -n '$woke' ] && [ $(((${woke:-0} - t_start) / 1000)) -lt $SPIKE_TIMER_MS ]"
rm -f /run/systemd/system/$UNIT.service.d/50-verbose.conf /etc/autoswappiness.conf.d/50-timer.conf
systemctl daemon-reload
systemctl stop $UNIT

step "11. apt-get remove stops the daemon and restores the knob; purge removes the config"
# A value other than the original, whatever the guest does after the spike: the shipped
# policy keeps 60 while nothing reclaims, and a guest calm by now gave it no reason to
# write; 60 above the limit is written down at the first decision. Down to the limit or
# below it: a guest still reclaiming after the spike may make the policy go lower (the
# Debian 13 guest wrote 19), so the check is the limit, not one value.
rm -f /etc/autoswappiness.conf.d/50-ck.conf
printf '[limits]\nmax = 30\n' >/etc/autoswappiness.conf.d/50-max.conf
systemctl start $UNIT
check "the unit is active before the removal" wait_for 30 active
check "it writes at most the drop-in's max, 30, not the original $ORIG" wait_for 60 bash -c \
	"v=\$(cat $KNOB); [ \$v -le 30 ] && [ \$v != $ORIG ]"
rm /etc/autoswappiness.conf.d/50-max.conf # the running daemon keeps what it loaded
echo "vm.swappiness before the removal: $(knob)"
check "apt-get remove -y autoswappiness" bash -c \
	"set -o pipefail; DEBIAN_FRONTEND=noninteractive apt-get remove -y autoswappiness 2>&1 | tail -n 5"
check "the unit is no longer active" bash -c "! systemctl is-active -q $UNIT"
check "vm.swappiness is back to the value found at start ($(knob) = $ORIG)" test "$(knob)" = "$ORIG"
check "the binary is gone" test ! -e /usr/sbin/autoswappiness
check "remove keeps the configuration" test -f $CONF
check "apt-get purge -y autoswappiness" bash -c \
	"set -o pipefail; DEBIAN_FRONTEND=noninteractive apt-get purge -y autoswappiness 2>&1 | tail -n 5"
check "purge removes $CONF" test ! -e $CONF
check "and the enable link" bash -c "! ls /etc/systemd/system/*/autoswappiness.service 2>/dev/null"
check "dpkg forgets the package" bash -c "! dpkg-query -W -f='\${Status}' autoswappiness 2>/dev/null | grep -qE ' (installed|config-files)\$'"

echo "e2e: $pass passed, $fail failed"
[ "$fail" = 0 ]
