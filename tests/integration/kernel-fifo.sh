# Sourced by run.sh (issue 48, item 6): a FIFO bound over each kernel file the
# daemon and --explain read. Opened blocking, each held the start in open(2),
# SIGTERM unread, and --explain for good. Now each is opened with O_NONBLOCK
# and refused when fstat says it is not a regular file: the start and
# --explain end, or run on without that source, and name the path.
# Uses run.sh's helpers (check, wait_for, start_daemon, ...) and
# run.sh's stop_within; leaves the knob at 60 and no daemon running.

mkfifo "$WORK/kfifo"
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
fake_vmstat 0 0 0 0 0
fake_swaps /dev/vdb
cp "$DATA/pressure-memory.host-idle" "$P"
echo N >"$Z"
# Generous: a busy machine takes seconds; a hang takes forever. -k: a start
# that hangs has SIGTERM blocked (main blocks it until the loop reads it).
KFIFO_TIMEOUT=${KFIFO_TIMEOUT:-120}

# Without these the daemon cannot run: the start and --explain fail, naming the file.
for path in /proc/meminfo /proc/sys/vm/swappiness; do
	mount --bind "$WORK/kfifo" "$path"
	rc=0
	timeout -k 10 "$KFIFO_TIMEOUT" "$BIN" --explain -c "$CONF/fast.conf" >"$WORK/out" 2>"$WORK/err" || rc=$?
	check "a FIFO at $path: --explain ends, exit 1 (got $rc)" test "$rc" = 1
	check "a FIFO at $path: --explain names it" grep -qF "failed to read '$path': not a regular file" "$WORK/err"
	rc=0
	timeout -k 10 "$KFIFO_TIMEOUT" "$BIN" --foreground -c "$CONF/fast.conf" >"$WORK/out" 2>"$WORK/err" || rc=$?
	check "a FIFO at $path: the start ends, exit 1 (got $rc)" test "$rc" = 1
	check "a FIFO at $path: the start names it" grep -qF "failed to read '$path': not a regular file" "$WORK/err"
	umount "$path"
	check "a FIFO at $path: the knob is untouched" knob_is 60
done

# Optional sources: the daemon runs on without them, says which and what it does
# without it, and SIGTERM restores; --explain answers and says the same on stderr.
for spec in "/proc/vmstat:reclaim efficiency is not used" \
	"/proc/pressure/memory:distress uses reclaim efficiency only" \
	"/proc/swaps:max = auto assumes disk swap" \
	"/sys/module/zswap/parameters/enabled:zswap counts as off" \
	"/proc/cmdline:"; do
	path=${spec%%:*} without=${spec#*:}
	mount --bind "$WORK/kfifo" "$path"
	rc=0
	timeout -k 10 "$KFIFO_TIMEOUT" "$BIN" --explain -c "$CONF/fast.conf" >"$WORK/out" 2>"$WORK/err" || rc=$?
	check "a FIFO at $path: --explain ends, exit 0 (got $rc)" test "$rc" = 0
	check "a FIFO at $path: --explain still answers" grep -q "vm.swappiness" "$WORK/out"
	# --explain does not look for other tools, so not at /proc/cmdline.
	[ -z "$without" ] || check "a FIFO at $path: --explain names it on stderr" grep -qF "'$path'" "$WORK/err"
	set_knob 60
	start_daemon -c "$CONF/fast.conf"
	check "a FIFO at $path: the daemon writes the knob" wait_for "$KFIFO_TIMEOUT" knob_is 23
	check "a FIFO at $path: the daemon names it" wait_for "$KFIFO_TIMEOUT" log_has "'$path'.*not a regular file.*$without"
	rc=0
	stop_within "$KFIFO_TIMEOUT" TERM || rc=$?
	check "a FIFO at $path: SIGTERM ends it, exit 0 (got $rc)" test "$rc" = 0
	check "a FIFO at $path: the knob is restored" knob_is 60
	umount "$path"
done
rm -f "$WORK/kfifo"
