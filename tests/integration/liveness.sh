# shellcheck shell=bash
# Sourced by tests/integration/run.sh (its helpers and fakes): what must not stop the
# daemon or make it write over someone else's value at its exit: a change made just
# before a stop, a notify socket nobody reads, a stderr pipe whose reader left or stalls,
# and signals that come together or in a storm.

# all_stopped PID: every thread of the process is in the stopped state (T).
all_stopped() {
	local f st
	for f in /proc/"$1"/task/*/stat; do
		st=$(sed 's/.*) //' "$f" 2>/dev/null | cut -d' ' -f1) || return 1
		[ "$st" = T ] || return 1
	done
}
# in_epoll PID: it sits in epoll_wait, between two polls (x86-64: epoll_wait 232,
# epoll_pwait 281, epoll_pwait2 441; arm64: epoll_pwait 22, epoll_pwait2 441).
in_epoll() {
	local nr
	nr=$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null) || return 1
	case $(uname -m):$nr in
	x86_64:232 | x86_64:281 | x86_64:441 | aarch64:22 | aarch64:441) return 0 ;;
	*) return 1 ;;
	esac
}
# freeze PID: SIGSTOP, and waits until it took effect, between two polls. `kill` returns
# once the signal is sent, not once the process is stopped: on a busy machine the daemon,
# woken from epoll_wait by SIGSTOP, ran on after the shell had sent the next signal and saw
# it alone (a SIGHUP sent before a SIGTERM was then read first, under valgrind in CI). And
# stopped in the middle of a poll, it ends that poll first when it goes on (a write it has
# not read back yet, a poll due that is not the one the test made due): then it is let go
# and stopped again.
freeze() {
	local end=$((SECONDS + 30))
	while :; do
		kill -STOP "$1"
		wait_for 30 all_stopped "$1" || return 1
		in_epoll "$1" && return 0
		kill -CONT "$1"
		[ $SECONDS -lt $end ] || return 1
		sleep 0.01
	done
}

# --- an exit right after someone else's change -------------------------------------------
# `sysctl -w vm.swappiness=42` and a stop within one poll interval: the exit finds 42,
# which the daemon never wrote, and leaves it, under yield and under override alike. The
# next poll is a minute away (and no PSI trigger, which would make it the busy interval's),
# so that no poll sees the change before SIGTERM does: with 100 ms and the daemon frozen
# with SIGSTOP in between, a poll came first once under ASan beside a benchmark (the yield
# said so in other words, and the check of the exit's words failed).
for mode in yield override; do
	printf '[policy]\nname = ck\n[limits]\nstep = 5\n[daemon]\ninterval_ms = 60000\nbusy_interval_ms = 60000\npsi_trigger_ms = 0\non_external_change = %s\n' \
		"$mode" >"$CONF/exit-$mode.conf"
	set_knob 60
	fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
	start_daemon -c "$CONF/exit-$mode.conf"
	check "writes ($mode, change before the exit)" wait_for 15 decided 23
	set_knob 42
	kill -TERM "$DPID"
	rc=0
	wait "$DPID" || rc=$?
	check "an exit right after an external write exits 0 ($mode, exit $rc)" test "$rc" = 0
	check "and leaves the value someone else set ($mode)" knob_is 42
	check "and says so ($mode)" log_has "changed from 23 to 42 by someone else since the last poll; leaving it at 42"
	check "and removes its record ($mode)" test ! -e "$STATE/original"
done
set_knob 60

# --- a notify socket nobody reads --------------------------------------------------------
# A reader that never reads, its queue filled first (as fill_journal_queue does): sd_notify's
# blocking send would wait for it forever, SIGTERM unread.
/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
time.sleep(3600)
' "$WORK/stalled.sock" &
SPID=$!
PIDS+=("$SPID")
wait_for 15 test -S "$WORK/stalled.sock"
fill_notify_queue() {
	/usr/bin/python3 -c '
import socket, sys
for _ in range(10000):
    s, sent = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM), 0
    s.setblocking(False)
    try:
        while True:
            s.sendto(b"STATUS=filler", sys.argv[1])
            sent += 1
    except BlockingIOError:
        pass
    if sent == 0:
        sys.exit(0)
sys.exit("the queue never filled up")
' "$WORK/stalled.sock"
}
check "the stalled notify socket's queue is full" fill_notify_queue
: >"$WORK/daemon.log"
NOTIFY_SOCKET=$WORK/stalled.sock WATCHDOG_USEC=200000 "$BIN" --foreground -v -c "$CONF/fast.conf" \
	2>"$WORK/daemon.log" &
DPID=$!
PIDS+=("$DPID")
check "the loop runs although the notify socket takes nothing" wait_for 15 knob_is 23
check "the dropped notifications are logged once" bash -c \
	"grep -q \"cannot notify systemd through '$WORK/stalled.sock': Resource temporarily unavailable\" '$WORK/daemon.log' &&
	 [ \$(grep -c 'cannot notify systemd' '$WORK/daemon.log') = 1 ]"
stop_within 30 TERM || true
check "SIGTERM ends it promptly" test "$STOP_RC" != 124
check "with exit 0 ($STOP_RC)" test "$STOP_RC" = 0
check "and the original back (stalled notify socket)" knob_is 60
kill "$SPID"

# A reader that stalls through the start, then reads: systemd waits for READY=1 until its
# start (or reload) timeout, so the dropped one goes again once the socket takes messages.
rm -f "$WORK/stalled.sock"
/usr/bin/python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
with open(sys.argv[3], "a", buffering=1) as f:
    while True:
        f.write(s.recv(4096).decode(errors="replace").replace("\n", " ") + "\n")
' "$WORK/stalled.sock" "$WORK/drain" "$WORK/drained.log" &
SPID=$!
PIDS+=("$SPID")
wait_for 15 test -S "$WORK/stalled.sock"
check "a notify socket stalled through the start: its queue is full" fill_notify_queue
: >"$WORK/daemon.log"
NOTIFY_SOCKET=$WORK/stalled.sock "$BIN" --foreground -v -c "$CONF/fast.conf" 2>"$WORK/daemon.log" &
DPID=$!
PIDS+=("$DPID")
check "the loop runs with READY=1 dropped" wait_for 15 knob_is 23
check "which is logged" log_has "cannot notify systemd through '$WORK/stalled.sock'"
touch "$WORK/drain"
check "READY=1 goes again once the socket reads" wait_for 15 grep -q '^READY=1' "$WORK/drained.log"
stop_daemon TERM || true
check "and the original back (notify socket stalled through the start)" knob_is 60
kill "$SPID"

# A notify socket that reads: READY, the watchdog (our own timer, not sd-event's, whose
# sd_notify blocks) and STOPPING arrive.
/usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        f.write(s.recv(4096).decode(errors="replace").replace("\n", " ") + "\n")
' "$WORK/notify-wd.sock" "$WORK/notify-wd.log" &
NPID=$!
PIDS+=("$NPID")
wait_for 15 test -S "$WORK/notify-wd.sock"
: >"$WORK/daemon.log"
NOTIFY_SOCKET=$WORK/notify-wd.sock WATCHDOG_USEC=200000 "$BIN" --foreground -v -c "$CONF/fast.conf" \
	2>"$WORK/daemon.log" &
DPID=$!
PIDS+=("$DPID")
check "READY=1 reaches a reading notify socket" wait_for 15 grep -q '^READY=1' "$WORK/notify-wd.log"
check "WATCHDOG=1 comes again and again with WATCHDOG_USEC set" wait_for 15 \
	bash -c "[ \$(grep -c '^WATCHDOG=1' '$WORK/notify-wd.log') -ge 3 ]"
stop_daemon TERM || true
check "STOPPING=1 at the stop" wait_for 15 grep -q '^STOPPING=1' "$WORK/notify-wd.log"
check "no WATCHDOG=1 without WATCHDOG_USEC" bash -c "
	: >'$WORK/notify-wd.log'
	NOTIFY_SOCKET='$WORK/notify-wd.sock' '$BIN' --foreground -c '$CONF/fast.conf' 2>/dev/null & p=\$!
	for _ in \$(seq 300); do grep -q '^READY=1' '$WORK/notify-wd.log' && break; sleep 0.05; done
	sleep 0.5; kill -TERM \$p; wait \$p
	grep -q '^READY=1' '$WORK/notify-wd.log' && ! grep -q '^WATCHDOG=1' '$WORK/notify-wd.log'"
kill "$NPID"

# --- a stderr pipe whose reader left -----------------------------------------------------
# Outside systemd (runit, s6, `| tee`): the next log line must not kill it with SIGPIPE.
mkfifo "$WORK/errpipe"
exec 7<>"$WORK/errpipe" # the only reader, held here: the daemon must not inherit it
"$BIN" --foreground -v -c "$CONF/fast.conf" 2>"$WORK/errpipe" 7<&- &
DPID=$!
PIDS+=("$DPID")
check "writes with stderr on a pipe" wait_for 15 knob_is 23
exec 7<&-
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 500000
check "goes on deciding after the pipe's reader left" wait_for 15 knob_is 40
check "and is alive" kill -0 "$DPID"
stop_within 30 TERM || true
check "SIGTERM ends it (broken stderr pipe)" test "$STOP_RC" != 124
check "with exit 0, not death by SIGPIPE ($STOP_RC)" test "$STOP_RC" = 0
check "and the original back (broken stderr pipe)" knob_is 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000

# --- a stderr pipe whose reader stalls ---------------------------------------------------
# svlogd or s6-log on a full disk, a pipe nobody reads, a terminal after Ctrl-S: once the
# pipe is full, a blocking write would hold the daemon in the middle of a poll, SIGTERM
# unread and the original never restored. The reader (fd 7, held here) never reads; the
# pipe is shrunk to one page so that verbose polls every 10 ms fill it at once.
# pipe_shrink FIFO: F_SETPIPE_SZ (1031) to one page, through a description of its own.
pipe_shrink() {
	/usr/bin/python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_NONBLOCK)
fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
' "$1"
}
# status_dropped: the count of log records not taken that `status` shows (0 if none).
status_dropped() {
	"$BIN" status 2>/dev/null | sed -n 's/.*log records journald or stderr did not take \([0-9]*\).*/\1/p' |
		grep . || echo 0
}
dropped_above() { [ "$(status_dropped)" -gt "$1" ]; }
printf '[policy]\nname = ck\n[limits]\nstep = 1\n[daemon]\ninterval_ms = 10\n' >"$CONF/stall.conf"
set_knob 60
mkfifo "$WORK/stallpipe"
exec 7<>"$WORK/stallpipe"
pipe_shrink "$WORK/stallpipe"
"$BIN" --foreground -v -c "$CONF/stall.conf" 2>"$WORK/stallpipe" 7<&- &
DPID=$!
PIDS+=("$DPID")
check "a stalled stderr reader: the lines it does not take are counted" wait_for 15 dropped_above 0
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 500000
check "and the polls go on (23 -> 40)" wait_for 15 knob_is 40
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
check "and on (40 -> 23)" wait_for 15 knob_is 23
n0=$(status_dropped)
# The reader reads again. Each line that goes out after some were lost is preceded by a
# note of how many (a short line may find room in the full pipe, after a long one did
# not): once it reads, the notes account for every line lost, and lines follow, each whole.
# notes_cover N: the notes on stall.log add up to at least N lines, and to one at least.
notes_cover() {
	awk -v n="$1" '/^autoswappiness: warning: stderr did not keep up: [0-9]+ records dropped$/ { s += $(NF - 2) }
		END { exit !(s >= n && s > 0) }' "$WORK/stall.log"
}
: >"$WORK/stall.log"
cat "$WORK/stallpipe" >"$WORK/stall.log" &
CPID=$!
PIDS+=("$CPID")
check "when it reads again, the notes count the $n0 lines lost before" wait_for 15 notes_cover "$n0"
check "  and lines follow" wait_for 15 bash -c "sed '1,/did not keep up/d' '$WORK/stall.log' |
	grep -q '^autoswappiness: debug: swappiness stays'"
kill "$CPID"
wait "$CPID" 2>/dev/null || true
check "no line is cut" bash -c "! grep -v '^autoswappiness: [a-z]*: ' '$WORK/stall.log'"
# Stalled again, SIGTERM must still end it and put the original back.
n1=$(status_dropped)
check "stalled again" wait_for 15 dropped_above "$n1"
stop_within 30 TERM || true
check "SIGTERM ends it (stalled stderr pipe)" test "$STOP_RC" != 124
check "with exit 0 ($STOP_RC)" test "$STOP_RC" = 0
check "and the original back (stalled stderr pipe)" knob_is 60
exec 7<&-
set_knob 60
# The same on a terminal: a pty whose master is held and never read, as after Ctrl-S.
/usr/bin/python3 -c '
import os, pty, sys, time
m, s = pty.openpty()
with open(sys.argv[1] + ".new", "w") as f:
    f.write(os.ttyname(s))
os.rename(sys.argv[1] + ".new", sys.argv[1])
os.close(s)
time.sleep(3600)
' "$WORK/ptyname" &
TPID=$!
PIDS+=("$TPID")
wait_for 15 test -s "$WORK/ptyname"
"$BIN" --foreground -v -c "$CONF/stall.conf" 2>"$(cat "$WORK/ptyname")" &
DPID=$!
PIDS+=("$DPID")
check "a stalled terminal: its lines are counted" wait_for 15 dropped_above 0
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 500000
check "and the polls go on (stalled terminal)" wait_for 15 knob_is 40
stop_within 30 TERM || true
check "SIGTERM ends it (stalled terminal, exit $STOP_RC)" test "$STOP_RC" = 0
check "and the original back (stalled terminal)" knob_is 60
kill "$TPID"
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000

# --- signals that come together, and a storm of SIGHUP ------------------------------------
# The kernel hands out the lowest-numbered pending signal first: SIGHUP (1) before
# SIGTERM (15). Both made pending while the daemon is stopped: SIGTERM goes first.
start_daemon -c "$CONF/fast.conf"
check "writes (signals together)" wait_for 15 knob_is 23
check "stopped (signals together)" freeze "$DPID"
kill -HUP "$DPID"
kill -TERM "$DPID"
kill -CONT "$DPID"
rc=0
wait "$DPID" || rc=$?
check "SIGTERM with a SIGHUP pending exits 0 (exit $rc)" test "$rc" = 0
check "and goes before the reload" bash -c "grep -q 'received Terminated, stopping' '$WORK/daemon.log' &&
	! grep -q 'reloaded ' '$WORK/daemon.log'"
check "the original back (signals together)" knob_is 60

# A poll that is due goes before a pending reload (a reload never starves the polls).
start_daemon -c "$CONF/fast.conf"
check "writes (poll and reload together)" wait_for 15 knob_is 23
check "stopped (poll and reload together)" freeze "$DPID"
n0=$(wc -l <"$WORK/daemon.log")
kill -HUP "$DPID"
sleep 0.5 # past the 100 ms poll interval: the poll is due when the daemon goes on
kill -CONT "$DPID"
check "the reload happens" wait_for 15 log_has "reloaded '"
check "after the poll that was due" bash -c "tail -n +$((n0 + 1)) '$WORK/daemon.log' |
	grep -m1 -e 'swappiness stays' -e \"reloaded '\" | grep -q 'swappiness stays'"
stop_daemon TERM || true

# A storm: SIGHUP as fast as a shell sends it. The polls go on, and SIGTERM ends it.
start_daemon -c "$CONF/fast.conf"
check "writes (storm)" wait_for 15 knob_is 23
(while kill -HUP "$DPID" 2>/dev/null; do :; done) &
HPID=$!
PIDS+=("$HPID")
wait_for 15 log_has "reloaded '"
n0=$(grep -c 'swappiness stays' "$WORK/daemon.log")
check "polls go on through a storm of SIGHUP" wait_for 30 \
	bash -c "[ \$(grep -c 'swappiness stays' '$WORK/daemon.log') -ge $((n0 + 5)) ]"
stop_within 30 TERM || true
check "SIGTERM ends it during the storm" test "$STOP_RC" != 124
check "with exit 0 ($STOP_RC)" test "$STOP_RC" = 0
check "and the original back (storm)" knob_is 60
kill "$HPID" 2>/dev/null || true
wait "$HPID" 2>/dev/null || true
