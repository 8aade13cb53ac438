# Sourced by run.sh (issue 14, the daemon's part): cgroup v1 follow only moves
# the cgroups that follow, the yield holds after a reload into dry run and
# across a crash, a failed reload says how many errors it left out, a stop
# asked for during startup writes nothing, a textfile that cannot be written
# does not hold up READY=1, and the metrics live in the runtime directory.
# Uses run.sh's helpers and fakes; leaves the knob at 60 and no daemon running.

cg_is() { [ "$(cat "$WORK/cg2/$1/memory.swappiness")" = "$2" ]; }

# --- cgroup v1 follow: the cgroups set on purpose keep their value ------------------
# follow and follow/child hold the global value (60), as cgroups created under
# it do; pinned0 and pinned1 were set on purpose (a container with
# memory-swappiness=0, a service pinned to 1); link is a symbolic link to a
# directory outside the hierarchy.
mkdir -p "$WORK/cg2/follow/child" "$WORK/cg2/pinned0" "$WORK/cg2/pinned1" "$WORK/outside"
for d in "$WORK/cg2" "$WORK/cg2/follow" "$WORK/cg2/follow/child" "$WORK/outside"; do echo 60 >"$d/memory.swappiness"; done
echo 0 >"$WORK/cg2/pinned0/memory.swappiness"
echo 1 >"$WORK/cg2/pinned1/memory.swappiness"
ln -s "$WORK/outside" "$WORK/cg2/link"
touch "$WORK/cg2/FAKE-HIERARCHY"
if [ ! -d /sys/fs/cgroup/memory ]; then
	mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup
	mkdir /sys/fs/cgroup/memory
fi
mount --bind "$WORK/cg2" /sys/fs/cgroup/memory
# Never let a daemon with cgroup_v1_follow near the machine's own hierarchy.
[ -e /sys/fs/cgroup/memory/FAKE-HIERARCHY ] || { echo "integration: FAIL: the fake cgroup hierarchy is not mounted"; exit 1; }

# step 5: the samples below move ck by 18 (23 -> 5), less than the shipped step.
printf '[policy]\nname = ck\n[limits]\nstep = 5\n[daemon]\ninterval_ms = 100\ncgroup_v1_follow = yes\n' >"$CONF/cgf.conf"
set_knob 60
fake_vmstat 0 0 0 0 0
fake_swaps /dev/vdb
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
start_daemon -c "$CONF/cgf.conf"
check "cgroup follow: the knob is written" wait_for 15 knob_is 23
# The walk's record comes after it has been through every cgroup.
check "the walk counts what it left alone" wait_for 15 log_has "memory.swappiness 60 -> 23 in 2 cgroups; 2 set otherwise, left alone"
check "a cgroup that follows the global value follows the write" cg_is follow 23
check "and its child too" cg_is follow/child 23
check "a cgroup pinned to 0 stays 0" cg_is pinned0 0
check "a cgroup pinned to 1 stays 1" cg_is pinned1 1
check "a linked directory is not followed" test "$(cat "$WORK/outside/memory.swappiness")" = 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 50000
check "the next write moves the followers again" wait_for 15 cg_is follow 5
check "the pinned ones stay through it" bash -c "[ \$(cat '$WORK/cg2/pinned0/memory.swappiness') = 0 ] && [ \$(cat '$WORK/cg2/pinned1/memory.swappiness') = 1 ]"
rc=0
stop_within 30 TERM || rc=$?
check "cgroup follow: the stop restores the knob (exit $rc)" knob_is 60
check "the restore takes the followers back to 60" bash -c "[ \$(cat '$WORK/cg2/follow/memory.swappiness') = 60 ] && [ \$(cat '$WORK/cg2/follow/child/memory.swappiness') = 60 ]"
check "and leaves the pinned ones at 0 and 1" bash -c "[ \$(cat '$WORK/cg2/pinned0/memory.swappiness') = 0 ] && [ \$(cat '$WORK/cg2/pinned1/memory.swappiness') = 1 ]"

# After a yield the cgroups are not touched any more; the exit still takes the
# ones that followed back to the original (the knob stays at the other value).
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
start_daemon -c "$CONF/cgf.conf"
check "cgroup follow (yield): written" wait_for 15 cg_is follow 23
set_knob 42
check "cgroup follow: yields to 42" wait_for 15 log_has "changed from 23 to 42 by someone else"
# Evidence of later polls: with max = auto each poll reads the swap devices, and
# the new range is logged at the first poll that sees it.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 50000
fake_swaps /dev/zram0
check "polls go on after the yield" wait_for 15 log_has "max = auto: 200"
check "after a yield no cgroup is touched" bash -c "[ \$(cat '$WORK/cg2/follow/memory.swappiness') = 23 ] && [ \$(cat '$WORK/cg2/pinned0/memory.swappiness') = 0 ] && [ \$(cat '$K') = 42 ]"
rc=0
stop_within 30 TERM || rc=$?
fake_swaps /dev/vdb
check "exit after a yield leaves the knob at 42 (exit $rc)" knob_is 42
check "and takes the followers back to 60" bash -c "[ \$(cat '$WORK/cg2/follow/memory.swappiness') = 60 ] && [ \$(cat '$WORK/cg2/follow/child/memory.swappiness') = 60 ]"
check "and leaves the pinned one" cg_is pinned0 0
check "no yield record after a clean exit" test ! -e "$STATE/yielded"
set_knob 60

# A reload into dry run that ends the yield makes the other value the original:
# the followers go there at exit, and the knob is left alone.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
cp "$CONF/cgf.conf" "$CONF/cgf-live.conf"
start_daemon -c "$CONF/cgf-live.conf"
check "cgroup follow (yield, dry run): written" wait_for 15 cg_is follow 23
set_knob 42
check "yields to 42 (dry run)" wait_for 15 log_has "changed from 23 to 42 by someone else"
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ncgroup_v1_follow = yes\ndry_run = yes\n' >"$CONF/cgf-live.conf"
kill -HUP "$DPID"
check "reloaded into dry run" wait_for 15 log_has "reloaded '$CONF/cgf-live.conf'.*dry run"
rc=0
stop_within 30 TERM || rc=$?
check "the exit leaves the knob at 42 (exit $rc)" knob_is 42
check "and takes the followers to 42, the new original" cg_is follow 42
check "and leaves the pinned one" cg_is pinned0 0
for d in follow follow/child; do echo 60 >"$WORK/cg2/$d/memory.swappiness"; done
set_knob 60

# Hostile entries: a memory.swappiness that is a link out of the hierarchy, and
# one that is a FIFO. The first is not followed, the second does not stop the
# loop; both are failures, logged once with the first path.
mkdir -p "$WORK/cg2/evil" "$WORK/cg2/fifo"
echo 60 >"$WORK/victim"
ln -s "$WORK/victim" "$WORK/cg2/evil/memory.swappiness"
mkfifo "$WORK/cg2/fifo/memory.swappiness"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
start_daemon -c "$CONF/cgf.conf"
check "hostile cgroups: the knob is written" wait_for 15 knob_is 23
check "the followers follow all the same" wait_for 15 cg_is follow 23
check "a linked memory.swappiness is not written through" test "$(cat "$WORK/victim")" = 60
check "the failures are logged with a path and a cause" wait_for 15 log_has "failed to set memory.swappiness in 2 of the cgroups under '/sys/fs/cgroup/memory', first '/sys/fs/cgroup/memory/[a-z]*/memory.swappiness': "
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 50000
check "the loop goes on past a FIFO" wait_for 15 knob_is 5
n=$(grep -c "failed to set memory.swappiness" "$WORK/daemon.log" || true)
check "the same failure is logged once (got $n)" test "$n" = 1
rc=0
stop_within 30 TERM || rc=$?
check "hostile cgroups: SIGTERM still restores (exit $rc)" test "$rc" = 0
check "hostile cgroups: the knob is back to 60" knob_is 60
rm -rf "$WORK/cg2/evil" "$WORK/cg2/fifo"

# The walk opens directories, not every file: with 100 cgroups of 20 control
# files each, stat calls stay far below one per file (nftw made 2,000 a walk).
mkdir -p "$WORK/cg2/many"
echo 60 >"$WORK/cg2/many/memory.swappiness"
for i in $(seq 100); do
	mkdir -p "$WORK/cg2/many/c$i"
	echo 60 >"$WORK/cg2/many/c$i/memory.swappiness"
	for f in $(seq 19); do : >"$WORK/cg2/many/c$i/memory.control$f"; done
done
: >"$WORK/daemon.log"
strace -f -qq -e trace=%%stat -o "$WORK/strace.out" "$BIN" --foreground -v -c "$CONF/cgf.conf" 2>"$WORK/daemon.log" &
DPID=$!
PIDS+=("$DPID")
check "under strace: every cgroup follows" wait_for 60 bash -c "[ \$(cat '$WORK/cg2/many/c100/memory.swappiness') = 5 ] && [ \$(cat '$WORK/cg2/many/c1/memory.swappiness') = 5 ]"
# strace is the parent: the daemon's pid is in its lock file.
kill -TERM "$(cat "$STATE/lock")"
wait "$DPID" || true
check "under strace: the restore takes them back" bash -c "[ \$(cat '$WORK/cg2/many/c50/memory.swappiness') = 60 ]"
n=$(wc -l <"$WORK/strace.out")
check "two walks of 2,100 files make fewer stat calls than one file each ($n)" test "$n" -lt 1000
rm -rf "$WORK/cg2/many"

# Deeper than the walk goes (65 levels below the root): the cap is named, not reported as
# "Too many levels of symbolic links" (issue 48).
deep=$WORK/cg2$(printf '/d%.0s' $(seq 65))
mkdir -p "$deep"
p=$deep
while [ "$p" != "$WORK/cg2" ]; do echo 60 >"$p/memory.swappiness"; p=${p%/*}; done
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
start_daemon -c "$CONF/cgf.conf"
check "too deep: the followers above the cap follow" wait_for 15 bash -c "[ \$(cat '$WORK/cg2/d/memory.swappiness') = 23 ]"
check "too deep: the cap is named" wait_for 15 log_has "failed to set memory.swappiness in 1 of the cgroups under '/sys/fs/cgroup/memory', first '/sys/fs/cgroup/memory\(/d\)\{64\}/.': more than 64 levels below '/sys/fs/cgroup/memory', the deepest the walk goes"
check "too deep: not as a symbolic link loop" bash -c "! grep -q 'symbolic links' '$WORK/daemon.log'"
stop_daemon TERM || true
rm -rf "$WORK/cg2/d"
umount /sys/fs/cgroup/memory
knob_is 60 || set_knob 60

# --- yields: after a reload into dry run, and across a crash ---------------------------
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
set_knob 60
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "writes (dry-run yield test)" wait_for 15 knob_is 23
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\ndry_run = yes\n' >"$CONF/live.conf"
kill -HUP "$DPID"
check "reloads into dry run" wait_for 15 log_has "reloaded '$CONF/live.conf'.*dry run"
set_knob 42
check "a dry run after a reload still sees the admin's sysctl" wait_for 15 log_has "changed from 23 to 42 by someone else; leaving it alone"
stop_daemon TERM || true
check "and the exit leaves the admin's 42" knob_is 42
check "and no record" bash -c "[ ! -e '$STATE/original' ] && [ ! -e '$STATE/yielded' ]"

set_knob 60
cp "$CONF/fast.conf" "$CONF/live.conf"
start_daemon -c "$CONF/live.conf"
check "writes (crash yield test)" wait_for 15 decided 23
set_knob 42
check "yields to 42 (crash yield test)" wait_for 15 log_has "changed from 23 to 42 by someone else; leaving it alone"
check "the yield is recorded" wait_for 15 test -e "$STATE/yielded"
stop_daemon KILL || true
start_daemon -c "$CONF/live.conf"
check "a restart after the crash finds the yield" wait_for 15 log_has "found '$STATE/yielded' from an instance that did not exit cleanly"
# Evidence of a complete poll: the first logs the range, a later one its change.
check "the restarted daemon's first poll" wait_for 15 log_has "max = auto: 100"
fake_swaps /dev/zram0
check "the restarted daemon polls" wait_for 15 log_has "max = auto: 200"
check "and does not write over the admin's 42" knob_is 42
check "status says it has yielded" bash -c "'$BIN' status | grep -q 'yielded: someone else set the value'"
kill -HUP "$DPID"
check "a reload resumes after the crash" wait_for 15 knob_is 23
check "and the yield record is gone" test ! -e "$STATE/yielded"
check "and the admin's value is the original now" test "$(cat "$STATE/original")" = 42
stop_daemon TERM || true
fake_swaps /dev/vdb
check "the exit restores the admin's 42" knob_is 42

# A clean stop while yielded ends the yield (as `systemctl restart` does): the
# next start regulates again, from the admin's value.
start_daemon -c "$CONF/live.conf"
check "writes (restart after a yield)" wait_for 15 decided 23
set_knob 50
check "yields to 50" wait_for 15 log_has "changed from 23 to 50 by someone else"
stop_daemon TERM || true
check "a clean stop removes the yield record" test ! -e "$STATE/yielded"
start_daemon -c "$CONF/live.conf"
check "the next start regulates again" wait_for 15 knob_is 23
stop_daemon TERM || true
check "and restores the admin's 50" knob_is 50
set_knob 60

# --- a failed reload says how many errors did not fit in its record --------------------
cp "$CONF/fast.conf" "$CONF/live.conf"
{
	echo "[limits]"
	for i in $(seq 150); do echo "unknown_key_number_$i = 1"; done
} >"$CONF/many-errors.conf"
# shown_plus_more LOG: the error lines shown plus "N more" add up to the count.
shown_plus_more() {
	local shown more total
	shown=$(grep -c "unknown key 'unknown_key_number_" "$1" || true)
	more=$(sed -n 's/^\.\.\. and \([0-9]*\) more errors not shown.*/\1/p' "$1")
	total=$(sed -n 's/.*(\([0-9]*\) errors):$/\1/p' "$1" | head -n1)
	[ -n "$more" ] && [ "$more" -gt 0 ] && [ "$((shown + more))" = "$total" ] && [ "$total" = 150 ]
}
expect_rc 78 "a start with 150 errors" "$BIN" --foreground -c "$CONF/many-errors.conf"
check "the start record says how many errors it left out" shown_plus_more "$WORK/err"
start_daemon -c "$CONF/live.conf"
check "daemon up (many errors test)" wait_for 15 knob_is 23
cp "$CONF/many-errors.conf" "$CONF/live.conf"
kill -HUP "$DPID"
check "the failed reload is logged" wait_for 15 log_has "keeping the running configuration (150 errors)"
check "the reload record says how many errors it left out" wait_for 15 shown_plus_more "$WORK/daemon.log"
stop_daemon TERM || true

# --- startup ------------------------------------------------------------------------------
# A SIGTERM that arrives during startup (blocked until the loop reads it) is
# handled before the first poll: nothing is written, the exit is clean.
set_knob 60
: >"$WORK/daemon.log"
/usr/bin/python3 -c '
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
os.kill(os.getpid(), signal.SIGTERM)
os.execv(sys.argv[1], sys.argv[1:])
' "$BIN" --foreground -v -c "$CONF/fast.conf" 2>"$WORK/daemon.log" &
DPID=$!
PIDS+=("$DPID")
rc=0
wait_for 30 exited "$DPID" || kill -9 "$DPID"
wait "$DPID" || rc=$?
check "a SIGTERM during startup stops the daemon cleanly (exit $rc)" test "$rc" = 0
check "it is handled by the loop" log_has "received Terminated, stopping"
check "before any write" bash -c "! grep -q 'swappiness 60 -> ' '$WORK/daemon.log'"
check "the knob is untouched" knob_is 60
check "no record is left" test ! -e "$STATE/original"

# A textfile that cannot be written holds up neither READY=1 nor the loop.
/usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        f.write(s.recv(4096).decode(errors="replace").replace("\n", " ") + "\n")
' "$WORK/notify.sock" "$WORK/notify.log" &
NPID=$!
PIDS+=("$NPID")
wait_for 15 test -S "$WORK/notify.sock"
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[metrics]\ntextfile = %s/no/such/dir/a.prom\n' "$WORK" >"$CONF/badprom.conf"
: >"$WORK/daemon.log"
NOTIFY_SOCKET=$WORK/notify.sock "$BIN" --foreground -v -c "$CONF/badprom.conf" 2>"$WORK/daemon.log" &
DPID=$!
PIDS+=("$DPID")
check "READY=1 although the textfile cannot be written" wait_for 15 grep -q '^READY=1' "$WORK/notify.log"
check "the failure is logged with the path" wait_for 15 log_has "failed to write '$WORK/no/such/dir/a.prom'"
check "and the loop runs" wait_for 15 knob_is 23
check "STATUS= gives the last decision's reason, also when it writes nothing" wait_for 15 \
	grep -q '^STATUS=swappiness 23 (ck: min(app [0-9]*%, swap free [0-9]*%); unchanged)' "$WORK/notify.log"
# A reason that changes while the value stays is sent at most every NOTIFY_REASON_MIN_S (30 s):
# each STATUS= wakes systemd, which under memory pressure faults its pages back in
# (include/notify.h). ck's app centile moves with MemFree; swap free (23%) stays the minimum.
kept_lines() { grep -c '^STATUS=swappiness 23 (ck: .*; unchanged)' "$WORK/notify.log" || true; }
n0=$(kept_lines)
t0=$SECONDS
for i in 1 2 3 4 5 6 7 8; do
	for free in 300000 320000 340000 360000; do
		fake_meminfo 1000000 $free 50000 250000 0 100000 1000000 230000
		sleep 0.2
	done
done
n=$(($(kept_lines) - n0))
reasons=$(grep -o 'swappiness stays 23 (ck: min(app [0-9]*%' "$WORK/daemon.log" | sort -u | wc -l)
check "the polls decided with 4 different reasons (got $reasons)" test "$reasons" -ge 4
check "and STATUS= took at most one of them per 30 s ($n in $((SECONDS - t0)) s)" \
	test "$n" -le $((1 + (SECONDS - t0) / 30))
fake_meminfo 1000000 380000 50000 250000 0 100000 1000000 230000
kill -HUP "$DPID"
check "after a reload the first decision's reason is sent at once" wait_for 10 \
	grep -q '^STATUS=swappiness 23 (ck: min(app 32%, swap free 23%); unchanged)' "$WORK/notify.log"
fake_meminfo 1000000 400000 50000 250000 0 100000 1000000 230000
check "and a later one within 30 s of it" wait_for 45 \
	grep -q '^STATUS=swappiness 23 (ck: min(app 30%, swap free 23%); unchanged)' "$WORK/notify.log"
stop_daemon TERM || true
kill "$NPID"
check "the knob is restored (textfile test)" knob_is 60

# --- metrics in the runtime directory, linked from node_exporter's -------------------------
# The layout the README gives: the daemon writes only in /run/autoswappiness
# (as the unit allows), node_exporter's textfile directory holds a link.
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[metrics]\ntextfile = %s/autoswappiness.prom\n' "$STATE" >"$CONF/runprom.conf"
mkdir -p "$WORK/node-exporter"
ln -s "$STATE/autoswappiness.prom" "$WORK/node-exporter/autoswappiness.prom"
umask 077 # the unit's UMask=
start_daemon -c "$CONF/runprom.conf"
umask 022
check "the textfile in the runtime directory is written" wait_for 15 test -s "$STATE/autoswappiness.prom"
check "it is read through the link as node_exporter does" wait_for 15 "$TOP/tests/prom_check.py" \
	"$WORK/node-exporter/autoswappiness.prom" autoswappiness_swappiness=23 autoswappiness_original_swappiness=60
check "the textfile is 0644 whatever the umask" test "$(stat -c %a "$STATE/autoswappiness.prom")" = 644
check "it is the only .prom file in the runtime directory" test "$(cd "$STATE" && ls -- *.prom)" = autoswappiness.prom
check "the state file is 0644 too (status for every user)" test "$(stat -c %a "$STATE/state")" = 644
stop_daemon TERM || true
check "a clean stop removes it" test ! -e "$STATE/autoswappiness.prom"
