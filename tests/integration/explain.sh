# Sourced by tests/integration/run.sh: --explain as an unprivileged user (uid
# 65534, as `setpriv` runs it) against the fake kernel files: the first line for
# no swap, disk swap and zram, where the configuration came from, and that it
# writes nothing (not the knob, nothing under /run), even as root.

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
first_line() { head -n1 "$WORK/explain.out"; }
explain_as_nobody() { as_nobody "$BIN" --explain "$@" >"$WORK/explain.out" 2>"$WORK/explain.err"; }

# $WORK is root's alone (0700): a directory uid 65534 can read, for configs it may use.
PUB=$(mktemp -d /tmp/autoswappiness-explain.XXXXXX)
chmod 0755 "$PUB"
printf '[policy]\nname = ck\n' >"$PUB/ck.conf"
printf '[policy]\nname = tendency\n' >"$CONF/private.conf"
printf '[policy]\nname = ck\n' >"$PUB/theirs.conf"
chown 1000:1000 "$PUB/theirs.conf"

fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
cp "$DATA/vmstat.host-idle" "$V"
cp "$DATA/pressure-memory.host-idle" "$P"
echo N >"$Z"
set_knob 60

# No swap: the answer first, and what the daemon would do anyway.
fake_meminfo 1000000 300000 50000 250000 0 100000 0 0
fake_swaps
check "--explain runs as uid 65534 without swap" explain_as_nobody -c "$PUB/ck.conf"
check "--explain without swap: the first line says there is nothing to do" \
	test "$(first_line)" = "No swap: swappiness has no effect here; nothing to do."
check "--explain without swap says what the daemon would do" \
	grep -q "^The daemon has no special case for this: it would keep polling and write 0 now, as the ck policy asks (no swap)" "$WORK/explain.out"
check "--explain with a readable config names it" grep -qx "Configuration: $PUB/ck.conf (policy ck, .*)\." "$WORK/explain.out"

# Disk swap: the default policy, workingset: tendency's 28 (mapped 10%/2 + ck 23), kept.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
fake_swaps /dev/vdb
check "--explain on disk swap, missing config" explain_as_nobody -c "$PUB/missing.conf"
check "--explain on disk swap: the first line is the answer" \
	test "$(first_line)" = "It would leave vm.swappiness at 60, which is what it should be: the workingset policy asks for 60 (stay at 60: no reclaim (formula 28))."
check "--explain says why the default keeps the value" grep -qx "It follows that formula only while the kernel reclaims or tasks stall on memory (2.6 computed it in reclaim and nowhere else); between the two looks neither happened, so it keeps the value in effect, 60." "$WORK/explain.out"
check "--explain on disk swap: max = auto is 100" grep -q "^max = auto makes the upper limit 100: on disk" "$WORK/explain.out"
check "--explain without the config file says so" \
	grep -q "^Configuration: the built-in defaults, as $PUB/missing.conf does not exist (policy workingset," "$WORK/explain.out"

# zram: the same target, the range up to 200; a config uid 65534 cannot read (it names
# tendency: the built-in default, workingset, decides).
fake_swaps /dev/zram0 /dev/zram1
check "--explain on zram with an unreadable config" explain_as_nobody -c "$CONF/private.conf"
check "--explain on zram: the first line is the answer" \
	test "$(first_line)" = "It would leave vm.swappiness at 60, which is what it should be: the workingset policy asks for 60 (stay at 60: no reclaim (formula 28))."
check "--explain on zram: max = auto is 200" grep -q "Swap: 2 devices, all on zram .*max = auto makes the upper limit 200" <(tr '\n' ' ' <"$WORK/explain.out")
check "--explain says this user may not read the config" \
	grep -q "^Configuration: the built-in defaults, as this user may not read $CONF/private.conf; the daemon, as root, would use it" "$WORK/explain.out"

# A config another user owns is refused: the defaults, and why.
check "--explain with a refused config still answers" explain_as_nobody -c "$PUB/theirs.conf"
check "--explain says the daemon would refuse that config" \
	grep -q "^Configuration: the built-in defaults, as $PUB/theirs.conf is refused (.*): the daemon would not start with it" "$WORK/explain.out"
check "--explain shows the loader's error on stderr" grep -q "$PUB/theirs.conf: owned by uid 1000" "$WORK/explain.err"

# A drop-in uid 65534 may not read, beside a main file it may: the drop-in is named, not the
# main file (issue 48).
mkdir -m 0755 "$PUB/split.conf.d"
printf '[policy]\nname = ck\n' >"$PUB/split.conf"
printf '[limits]\nmax = 30\n' >"$PUB/split.conf.d/10-secret.conf"
chmod 0600 "$PUB/split.conf.d/10-secret.conf"
check "--explain with an unreadable drop-in still answers" explain_as_nobody -c "$PUB/split.conf"
check "--explain names the drop-in this user may not read" \
	grep -q "^Configuration: the built-in defaults, as this user may not read $PUB/split.conf.d/10-secret.conf; the daemon, as root, would use it" "$WORK/explain.out"

# Drop-ins without a main file: the main file is not named as if it were read.
mkdir -m 0755 "$PUB/only.conf.d"
printf '[policy]\nname = ck\n' >"$PUB/only.conf.d/50-fleet.conf"
check "--explain with drop-ins only" explain_as_nobody -c "$PUB/only.conf"
check "--explain says the drop-ins are used, and the main file does not exist" \
	grep -q "^Configuration: the drop-ins in $PUB/only.conf.d, on the built-in defaults, as $PUB/only.conf does not exist (policy ck," "$WORK/explain.out"

# A -c path of nearly PATH_MAX bytes (4,000; directories that do not exist): it still answers.
long=$PUB$(printf '/%0200d' $(seq 1 19))/x.conf
check "--explain with a -c path of ${#long} bytes" explain_as_nobody -c "$long"
check "--explain names that path" grep -q "^Configuration: the built-in defaults, as $long does not exist" "$WORK/explain.out"

# A file that is not configuration: --explain reports its lines, not their text (issue 48).
printf 'PRIVATE secret-token-1234\n[policy]\nname = secret-token-that-is-longer-than-32-bytes\n' >"$PUB/notconf"
check "--explain on a file that is not configuration" explain_as_nobody -c "$PUB/notconf"
check "--explain names its lines" bash -c "grep -q '^$PUB/notconf:1: ' '$WORK/explain.err' && grep -q '^$PUB/notconf:3: ' '$WORK/explain.err'"
check "--explain repeats none of its text" bash -c "! grep -q secret-token '$WORK/explain.err' '$WORK/explain.out'"

# Writes nothing: the knob keeps its value and its inode's mtime, /run gets nothing,
# even as root, who could write both.
check "--explain as uid 65534 left the knob" test "$(knob)" = 60
touch -d '2000-01-01' "$K"
stamp=$(stat -c %Y "$K")
: >"$WORK/explain.marker"
check "--explain as root" bash -c "'$BIN' --explain -c '$PUB/ck.conf' >'$WORK/explain.out' 2>'$WORK/explain.err'"
check "--explain as root writes not the knob" test "$(knob)" = 60 -a "$(stat -c %Y "$K")" = "$stamp"
check "--explain as root creates nothing under /run" test -z "$(find /run -newer "$WORK/explain.marker" -print -quit)"
check "--explain as root logs nothing on stderr" test ! -s "$WORK/explain.err"

expect_rc 64 "--explain with --once" "$BIN" --explain --once
expect_rc 64 "--explain with -n" "$BIN" --explain -n
rm -rf "$PUB"
fake_swaps /dev/vdb
