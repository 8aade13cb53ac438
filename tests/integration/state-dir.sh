# Sourced by run.sh (issue 48, item 5): the state directory made or changed by
# someone other than root. The daemon refuses a directory (or lock) that
# others control, with exit 73 and the path and why, before it writes
# anything; it never restores a forged "original" nor lets a forged "yielded"
# stop it or a forged "written" drop the original; `status` never prints a
# forged state file's control characters raw and `status --json` stays valid
# JSON in valid UTF-8; it removes the temporary files an instance killed
# mid-write left there, and nothing else.
# Uses run.sh's helpers (stop_within too); leaves the knob at
# 60, a clean state directory and no daemon running.

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# Generous: a busy machine takes seconds; a hang takes forever.
SD_TIMEOUT=${SD_TIMEOUT:-120}
sd_reset() { rm -rf "$STATE" && mkdir -m 0755 "$STATE"; }
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
fake_vmstat 0 0 0 0 0
fake_swaps /dev/vdb
cp "$DATA/pressure-memory.host-idle" "$P"

# refused WHAT WHY: the daemon refuses to start (exit 73), names the directory
# and why, and leaves the knob.
refused() {
	set_knob 60
	expect_rc 73 "$1: the daemon refuses to start" timeout -k 10 "$SD_TIMEOUT" "$BIN" --foreground -c "$CONF/fast.conf"
	check "$1: the error names '$STATE' and why" \
		grep -qF "refusing to start: the state directory '$STATE' is $2; it must be a directory of root's" "$WORK/err"
	check "$1: the knob is untouched" knob_is 60
}

# --- the directory itself -----------------------------------------------------
# A symlink: before, root truncated the lock there and unlinked its records.
rm -rf "$STATE" "$WORK/elsewhere"
mkdir "$WORK/elsewhere"
printf 'not a lock\n' >"$WORK/elsewhere/lock"
printf '7\n' >"$WORK/elsewhere/original"
printf 'theirs\n' >"$WORK/elsewhere/state"
ln -s "$WORK/elsewhere" "$STATE"
refused "a symlink as the state directory" "a symbolic link, not a directory"
check "a symlink as the state directory: the file at its 'lock' is not truncated" \
	test "$(cat "$WORK/elsewhere/lock")" = "not a lock"
check "a symlink as the state directory: nothing there is removed" \
	test -e "$WORK/elsewhere/original" -a -e "$WORK/elsewhere/state"
rm -f "$STATE"
rm -rf "$WORK/elsewhere"

printf 'x\n' >"$STATE"
refused "a regular file as the state directory" "a regular file, not a directory"
sd_reset
chown nobody "$STATE"
refused "a state directory owned by another user" "owned by uid $(id -u nobody), not by root"
sd_reset
chmod 0777 "$STATE"
refused "a state directory anyone may write" "mode 0777 lets group or others write it"
chmod 0775 "$STATE"
refused "a state directory its group may write" "mode 0775 lets group or others write it"

# --- the lock -----------------------------------------------------------------
# A hard link: the daemon used to truncate it, and so the file it is linked to.
sd_reset
printf 'do not truncate\n' >/run/victim
ln /run/victim "$STATE/lock"
set_knob 60
expect_rc 73 "a hard-linked lock: the daemon refuses to start" timeout -k 10 "$SD_TIMEOUT" "$BIN" --foreground -c "$CONF/fast.conf"
check "a hard-linked lock: the error names it and why" \
	grep -qF "refusing to start: '$STATE/lock' is 2 hard links to it" "$WORK/err"
check "a hard-linked lock: the linked file is not truncated" test "$(cat /run/victim)" = "do not truncate"
check "a hard-linked lock: the knob is untouched" knob_is 60
sd_reset
ln -s /run/victim "$STATE/lock"
expect_rc 73 "a symlink as the lock: the daemon refuses to start" timeout -k 10 "$SD_TIMEOUT" "$BIN" --foreground -c "$CONF/fast.conf"
check "a symlink as the lock: the error says so" \
	grep -qF "refusing to start: '$STATE/lock' is a symbolic link, not a regular file" "$WORK/err"
check "a symlink as the lock: its target is not truncated" test "$(cat /run/victim)" = "do not truncate"
rm -f /run/victim
sd_reset
# Another user's lock, as the unit's sandbox meets it: under PrivateUsers= root has no
# CAP_DAC_OVERRIDE over a uid outside its user namespace, so the open itself fails (EACCES).
# Refused as not root's (exit 73, no restart), not a failure systemd restarts (the VM e2e's
# step 7b found it); root without that capability here is the same.
touch "$STATE/lock"
chown nobody "$STATE/lock"
chmod 0600 "$STATE/lock"
set_knob 60
expect_rc 73 "another user's lock that root may not open: the daemon refuses to start" \
	timeout -k 10 "$SD_TIMEOUT" setpriv --bounding-set=-dac_override,-dac_read_search \
	"$BIN" --foreground -c "$CONF/fast.conf"
check "another user's lock that root may not open: the error names it and why" \
	grep -qF "refusing to start: '$STATE/lock' is owned by uid $(id -u nobody), not by root" "$WORK/err"
check "another user's lock that root may not open: the knob is untouched" knob_is 60
sd_reset

# --- forged records -------------------------------------------------------------
# forged_original WHAT WHY: the daemon ignores the record, says why, regulates,
# and restores the value the knob held at start (60), not the forged one (7).
forged_original() {
	set_knob 60
	start_daemon -c "$CONF/fast.conf"
	check "$1: the daemon regulates" wait_for "$SD_TIMEOUT" knob_is 23
	check "$1: it says it ignores the record and why" \
		wait_for 15 log_has "ignoring '$STATE/original': $2; recording 60 as the original"
	rc=0
	stop_within "$SD_TIMEOUT" TERM || rc=$?
	check "$1: SIGTERM exits 0 (got $rc)" test "$rc" = 0
	check "$1: the exit restores 60, not the forged value" knob_is 60
	check "$1: no record is left" test ! -e "$STATE/original"
}
for v in ' 7 ' '7 ' '+7' '07' '7x' '-7' '201' ''; do
	sd_reset
	printf '%s\n' "$v" >"$STATE/original"
	forged_original "an 'original' of '$v'" "does not hold a value 0..200 as the daemon writes it"
done
sd_reset
printf '7\n' >"$STATE/original"
chown nobody "$STATE/original"
forged_original "an 'original' another user owns" "owned by uid $(id -u nobody), not by root"
sd_reset
printf '7\n' >"$STATE/original"
chmod 0666 "$STATE/original"
forged_original "an 'original' anyone may write" "mode 0666 lets group or others write it"
sd_reset
mkfifo "$STATE/original"
forged_original "a FIFO as 'original'" "a FIFO, not a regular file"

# forged_yielded WHAT WHY: a "yielded" that root did not make does not stop
# regulation; it is said, and removed.
forged_yielded() {
	set_knob 60
	start_daemon -c "$CONF/fast.conf"
	check "$1: the daemon regulates all the same" wait_for "$SD_TIMEOUT" knob_is 23
	check "$1: it says it ignores the record and why" \
		wait_for 15 log_has "ignoring '$STATE/yielded': $2; regulating, and removing it"
	check "$1: and removes it" test ! -e "$STATE/yielded"
	rc=0
	stop_within "$SD_TIMEOUT" TERM || rc=$?
	check "$1: SIGTERM exits 0 (got $rc)" test "$rc" = 0
	check "$1: the exit restores 60" knob_is 60
}
sd_reset
mkfifo "$STATE/yielded"
forged_yielded "a FIFO as 'yielded'" "a FIFO, not a regular file"
sd_reset
printf '60\n' >"$STATE/yielded"
chown nobody "$STATE/yielded"
forged_yielded "a 'yielded' another user owns" "owned by uid $(id -u nobody), not by root"
sd_reset
ln -s /proc/self/status "$STATE/yielded"
forged_yielded "a symlink as 'yielded'" "a symbolic link, not a regular file"
sd_reset
# A "written" that root did not make says nothing about the knob: the original
# (root's 60) is trusted as without one, not dropped for the knob's 23.
printf '60\n' >"$STATE/original"
printf '99\n' >"$STATE/written"
chown nobody "$STATE/written"
set_knob 23
start_daemon -c "$CONF/fast.conf"
check "a 'written' another user owns: it says it ignores it and why" wait_for "$SD_TIMEOUT" log_has \
	"ignoring '$STATE/written': owned by uid $(id -u nobody), not by root; trusting '$STATE/original'"
check "a 'written' another user owns: it is replaced by root's" wait_for 15 \
	bash -c "[ \"\$(stat -c %u '$STATE/written')\" = 0 ]"
rc=0
stop_within "$SD_TIMEOUT" TERM || rc=$?
check "a 'written' another user owns: the exit restores 60 (exit $rc)" test "$rc/$(knob)" = 0/60
sd_reset

# --- temporary files an instance killed mid-write left --------------------------
# Each write of a record makes a temporary file and renames it: a SIGKILL in between left
# it for good (RuntimeDirectoryPreserve=yes keeps the directory across restarts).
printf 'half a st' >"$STATE/.state.0123456789abcdef.tmp"
printf '6' >"$STATE/.original.00000000000000aa.tmp"
printf 'theirs\n' >"$STATE/keep.tmp"
ln -s "$STATE/keep.tmp" "$STATE/.lock.00000000000000bb.tmp"
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "left temporary files: the daemon says it removed them" wait_for "$SD_TIMEOUT" log_has \
	"removed 2 temporary files left in '$STATE' by an instance killed mid-write"
check "left temporary files: they are gone" \
	test ! -e "$STATE/.state.0123456789abcdef.tmp" -a ! -e "$STATE/.original.00000000000000aa.tmp"
check "left temporary files: another file, and a link of such a name, are kept" \
	bash -c "[ \"\$(cat '$STATE/keep.tmp')\" = theirs ] && [ -L '$STATE/.lock.00000000000000bb.tmp' ]"
rc=0
stop_within "$SD_TIMEOUT" TERM || rc=$?
check "left temporary files: the exit restores 60 (exit $rc)" test "$rc/$(knob)" = 0/60
sd_reset

# --- status on a forged state file ---------------------------------------------
# Escape sequences (a title change, a screen clear, CSI as one C1 byte and as
# UTF-8), invalid UTF-8 and a direction override, for any user to read.
{
	printf 'version=1\npid=%d\nswappiness=23\n' "$$"
	printf 'policy=ck\033]0;pwn\a\n'
	printf 'decision=1700000000 60 23 \033[2J\033[31mred\x9b\xff\xc3\x28 \xc2\x9b \xe2\x80\xae end\n'
} >"$STATE/state"
chmod 0644 "$STATE/state"
as_nobody "$BIN" status >"$WORK/status.out" 2>"$WORK/err" || true
check "status on a forged state file prints it" grep -q "decisions (newest last)" "$WORK/status.out"
check "status prints no control character but newlines" \
	test "$(LC_ALL=C tr -d '\n\040-\176' <"$WORK/status.out" | wc -c)" = 0
check "status shows them escaped" grep -qF 'ck\u001b]0;pwn\u0007' "$WORK/status.out"
check "status shows bytes that are not UTF-8 as \\xNN" grep -qF 'red\x9b\xff\xc3(' "$WORK/status.out"
check "status escapes C1 controls and direction overrides in UTF-8" grep -qF '\u009b \u202e end' "$WORK/status.out"
as_nobody "$BIN" status --json >"$WORK/status.json" 2>"$WORK/err" || true
check "status --json on a forged state file is valid JSON in valid UTF-8" python3 -c '
import json, sys
s = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", errors="strict"))
assert s["policy"] == "ck\x1b]0;pwn\x07", s["policy"]
r = s["decisions"][0]["reason"]
assert r == "\x1b[2J\x1b[31mred\ufffd\ufffd\ufffd( \x9b \u202e end", ascii(r)
' "$WORK/status.json"
check "status --json escapes every control character" \
	test "$(LC_ALL=C tr -d '\n\040-\176' <"$WORK/status.json" | wc -c)" = 0
rm -f "$STATE/state"
