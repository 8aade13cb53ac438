# Files that others control (issue 14), sourced by run.sh: the metrics
# textfile in a directory another user owns, drop-ins that are not regular
# files or that others may change, and a /proc/swaps longer than a page.
# Uses run.sh's helpers (check, expect_rc, wait_for, start_daemon, ...).

is_regular() { [ -f "$1" ] && [ ! -L "$1" ]; }

# --- the metrics textfile in a directory someone else controls ----------------
# The secret stands for any root-only file: before the fix the daemon wrote its
# metrics through a symlink planted at '<textfile>.tmp' and made it 0644.
SECRET=$WORK/secret
secret_intact() { [ "$(cat "$SECRET")" = "root only" ] && [ "$(stat -c %a "$SECRET")" = 600 ]; }
EVIL=$WORK/prom-evil
evil_conf() { # evil_conf: a config that writes the textfile into $EVIL
	printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[metrics]\ntextfile = %s/autoswappiness.prom\n' \
		"$EVIL" >"$CONF/evil.conf"
}
evil_dir() { # a fresh directory owned by another user, as node_exporter's is, and a fresh secret
	printf 'root only\n' >"$SECRET"
	chmod 0600 "$SECRET"
	rm -rf "$EVIL"
	mkdir "$EVIL"
	chown nobody "$EVIL"
}
evil_conf
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
fake_vmstat 0 0 0 0 0
fake_swaps /dev/vdb

evil_dir
EP=$EVIL/autoswappiness.prom
ln -s "$SECRET" "$EP.tmp"
# Names a guesser might try for the random temporary name.
for s in 0000000000000000 ffffffffffffffff 0123456789abcdef; do ln -s "$SECRET" "$EVIL/.autoswappiness.prom.$s.tmp"; done
set_knob 60
start_daemon -c "$CONF/evil.conf"
check "symlinks at temporary names: the knob is written" wait_for 15 knob_is 23
check "symlinks at temporary names: the metrics are a file of their own" wait_for 15 is_regular "$EP"
check "symlinks at temporary names: the metrics hold the value" wait_for 15 grep -q '^autoswappiness_swappiness 23$' "$EP"
check "symlinks at temporary names: the root-only file is unchanged and still 0600" secret_intact
check "symlinks at temporary names: the planted links are not followed or moved" \
	bash -c "[ -L '$EP.tmp' ] && [ \$(find '$EVIL' -maxdepth 1 -type l | wc -l) = 4 ]"
stop_term_ok "symlinks at temporary names"
check "symlinks at temporary names: the knob is restored" knob_is 60
check "symlinks at temporary names: still unchanged after the exit" secret_intact

# A symlink at the textfile's own name is replaced, not followed.
evil_dir
ln -s "$SECRET" "$EP"
start_daemon -c "$CONF/evil.conf"
check "a symlink at the textfile: replaced by the metrics file" wait_for 15 is_regular "$EP"
check "a symlink at the textfile: the root-only file is unchanged and still 0600" secret_intact
stop_term_ok "a symlink at the textfile"
check "a symlink at the textfile: the knob is restored" knob_is 60

# A FIFO at the temporary name used to block the daemon in open(2) for good,
# before READY=1 and with SIGTERM never read; at the textfile's name it must
# not be opened either.
for at in "$EP.tmp" "$EP"; do
	what="a FIFO at ${at##*/}"
	evil_dir
	mkfifo "$at"
	set_knob 60
	start_daemon -c "$CONF/evil.conf"
	check "$what: the daemon polls and writes the knob" wait_for 15 knob_is 23
	check "$what: the metrics are written" wait_for 15 is_regular "$EP"
	stop_term_ok "$what"
	check "$what: the knob is restored" knob_is 60
done

# The textfile is removed the way it was written, on exit and on a reload
# that drops the key: through its directory opened without following a
# symlink. Before, unlinkat(AT_FDCWD, path) followed a directory swapped for
# a symlink (as whoever owns it or its parent may do; done as root here) and
# deleted another directory's file of the same name.
OTHER=$WORK/prom-other
other_dir() { # a directory elsewhere, holding a root file named as the textfile
	rm -rf "$OTHER"
	mkdir "$OTHER"
	printf 'root only\n' >"$OTHER/autoswappiness.prom"
}
other_intact() { [ "$(cat "$OTHER/autoswappiness.prom")" = "root only" ]; }
swap_for_link() { # the textfile directory, once the daemon wrote in it, becomes a link to $OTHER
	rm -rf "$EVIL.moved"
	mv "$EVIL" "$EVIL.moved"
	ln -s "$OTHER" "$EVIL"
}
for when in exit reload; do
	what="a textfile directory swapped for a symlink, at $when"
	evil_dir
	other_dir
	evil_conf
	set_knob 60
	start_daemon -c "$CONF/evil.conf"
	check "$what: the metrics are written" wait_for 15 is_regular "$EP"
	swap_for_link
	if [ "$when" = reload ]; then
		printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n' >"$CONF/evil.conf"
		kill -HUP "$DPID"
		check "$what: the reload is done" wait_for 15 log_has "reloaded '$CONF/evil.conf'"
	fi
	stop_term_ok "$what"
	check "$what: the other directory's file of that name is still there" other_intact
	check "$what: the log names the refusal" \
		log_has "failed to remove '$EP': its directory '$EVIL' is a symbolic link, not followed"
	check "$what: the file in the moved directory is left too" is_regular "$EVIL.moved/autoswappiness.prom"
	rm -f "$EVIL"
done
rm -rf "$OTHER" "$EVIL.moved"
# A directory above the textfile's, in the hands of the collector's user too
# (it owns $EVIL here), swapped for a symlink while the daemon runs: neither
# the writes of each poll nor the removal at the exit follow it (before, only
# the last directory was opened with O_NOFOLLOW, and the metrics replaced the
# other directory's file of that name every poll).
what="a directory above the textfile's swapped for a symlink"
evil_dir
mkdir -p "$EVIL/a/sub" "$OTHER/sub"
chown -R nobody "$EVIL/a"
printf 'root only\n' >"$OTHER/sub/autoswappiness.prom"
AP=$EVIL/a/sub/autoswappiness.prom
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n[metrics]\ntextfile = %s\n' "$AP" >"$CONF/above.conf"
set_knob 60
start_daemon -c "$CONF/above.conf"
check "$what: the metrics are written" wait_for 15 is_regular "$AP"
mv "$EVIL/a" "$EVIL/a.moved"
ln -s "$OTHER" "$EVIL/a"
check "$what: the failed write names the link" \
	wait_for 15 log_has "failed to write '$AP': '$EVIL/a', on its directory's path, is a symbolic link, not followed"
sleep 1 # ten polls more
check "$what: the other directory's file of that name is untouched by the polls" \
	test "$(cat "$OTHER/sub/autoswappiness.prom")" = "root only"
check "$what: the daemon still writes the knob" knob_is 23
stop_term_ok "$what"
check "$what: the knob is restored" knob_is 60
check "$what: the other directory's file is still there after the exit" \
	test "$(cat "$OTHER/sub/autoswappiness.prom")" = "root only"
check "$what: the removal names the link" \
	log_has "failed to remove '$AP': '$EVIL/a', on its directory's path, is a symbolic link, not followed"
rm -rf "$OTHER" "$EVIL"
# The normal case: the directory is still a directory, its owner another user.
for when in exit reload; do
	what="the textfile in another user's directory, at $when"
	evil_dir
	evil_conf
	set_knob 60
	start_daemon -c "$CONF/evil.conf"
	check "$what: the metrics are written" wait_for 15 is_regular "$EP"
	if [ "$when" = reload ]; then
		printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n' >"$CONF/evil.conf"
		kill -HUP "$DPID"
		check "$what: a reload without the key removes the file" wait_for 15 test ! -e "$EP"
	fi
	stop_term_ok "$what"
	check "$what: the file is gone, nothing left in its directory" test -z "$(ls -A "$EVIL")"
	check "$what: no failure to remove is logged" bash -c "! grep -q 'failed to remove' '$WORK/daemon.log'"
done
evil_conf
rm -rf "$EVIL"

# --- drop-ins that are not regular files, or too large ------------------------
DROP=$CONF/drop.conf
cp "$CONF/fast.conf" "$DROP"
fresh_dropins() { rm -rf "$DROP.d" && mkdir "$DROP.d"; }
mkdir -p "$WORK/a-directory"
for kind in "zero:/dev/zero:not a regular file (a character device)" \
	"urandom:/dev/urandom:not a regular file (a character device)" \
	"fifo::not a regular file (a FIFO)" \
	"directory:$WORK/a-directory:Is a directory"; do
	name=${kind%%:*} rest=${kind#*:}
	target=${rest%%:*} want=${rest#*:}
	fresh_dropins
	if [ "$name" = fifo ]; then mkfifo "$DROP.d/50-bad.conf"; else ln -s "$target" "$DROP.d/50-bad.conf"; fi
	expect_rc 78 "-n refuses a drop-in that is $name, without hanging" timeout 30 "$BIN" -n -c "$DROP"
	check "-n names the $name drop-in: '$want'" grep -qF "$DROP.d/50-bad.conf: $want" "$WORK/err"
done
fresh_dropins
head -c 70000 /dev/zero | tr '\0' '#' | fold -w 99 >"$DROP.d/50-big.conf"
expect_rc 78 "-n refuses a drop-in over 64 KiB" timeout 30 "$BIN" -n -c "$DROP"
check "-n says the cap" grep -qF "$DROP.d/50-big.conf: larger than 65536 bytes (64 KiB)" "$WORK/err"

# A reload that meets such a drop-in is a failed reload: the running
# configuration stays, and SIGTERM still restores.
for name in zero fifo; do
	fresh_dropins
	set_knob 60
	start_daemon -c "$DROP"
	check "reload with a $name drop-in: daemon up" wait_for 15 knob_is 23
	if [ "$name" = fifo ]; then mkfifo "$DROP.d/50-bad.conf"; else ln -s /dev/zero "$DROP.d/50-bad.conf"; fi
	kill -HUP "$DPID"
	check "reload with a $name drop-in: refused, naming it" wait_for 15 log_has "$DROP.d/50-bad.conf: not a regular file"
	check "reload with a $name drop-in: the running configuration is kept" wait_for 15 log_has "keeping the running configuration"
	check "reload with a $name drop-in: the daemon still runs" kill -0 "$DPID"
	stop_term_ok "reload with a $name drop-in"
	check "reload with a $name drop-in: the knob is restored" knob_is 60
done

# --- who may change a config file: -n says what the unit will see --------------
# The unit has no CAP_DAC_OVERRIDE: a drop-in another user owns with mode 0600
# is one it cannot read, and one it must not trust anyway.
fresh_dropins
printf '[limits]\nmax = 10\n' >"$DROP.d/50-user.conf"
chmod 0600 "$DROP.d/50-user.conf"
chown nobody "$DROP.d/50-user.conf"
expect_rc 78 "-n refuses a drop-in owned by another user" "$BIN" -n -c "$DROP"
check "-n names the file, its owner and mode" \
	grep -qF "$DROP.d/50-user.conf: owned by uid $(id -u nobody) (mode 0600): a configuration file must belong to root" "$WORK/err"
expect_rc 78 "the daemon refuses it at start as -n does" timeout 30 "$BIN" --foreground -c "$DROP"
check "and leaves the knob" knob_is 60
chown root "$DROP.d/50-user.conf"
chmod 0664 "$DROP.d/50-user.conf"
expect_rc 78 "-n refuses a group-writable drop-in" "$BIN" -n -c "$DROP"
check "-n says who may write it" \
	grep -qF "$DROP.d/50-user.conf: mode 0664 (owner uid 0) lets group or others write it" "$WORK/err"
chmod 0644 "$DROP.d/50-user.conf"
expect_rc 0 "the same drop-in, root's and 0644, is fine" "$BIN" -n -c "$DROP"
chmod 0200 "$DROP.d/50-user.conf"
expect_rc 78 "-n refuses a drop-in its owner cannot read (root can, the unit cannot)" "$BIN" -n -c "$DROP"
check "-n says so" grep -qF "$DROP.d/50-user.conf: mode 0200 (owner uid 0): its owner may not read it" "$WORK/err"
fresh_dropins
chown nobody "$DROP.d"
expect_rc 78 "-n refuses a drop-in directory owned by another user" "$BIN" -n -c "$DROP"
check "-n names the directory" grep -qF "$DROP.d: owned by uid $(id -u nobody) (mode 0755): a drop-in directory must belong to root" "$WORK/err"
chown root "$DROP.d"
chmod 0640 "$DROP"
chown nobody "$DROP"
expect_rc 78 "-n refuses a main file owned by another user" "$BIN" -n -c "$DROP"
check "-n names the main file" grep -qF "$DROP: owned by uid $(id -u nobody) (mode 0640)" "$WORK/err"
rm -rf "$DROP" "$DROP.d"

# A UTF-8 byte order mark, as some editors write, is skipped.
printf '\xef\xbb\xbf[policy]\nname = ck\n[limits]\nmax = 300\n' >"$CONF/bom.conf"
expect_rc 78 "a file with a BOM is parsed: its errors are found" "$BIN" -n -c "$CONF/bom.conf"
check "at the right line, with no stray bytes" bash -c "[ \"\$(cat '$WORK/err')\" = \"$CONF/bom.conf:4: key 'max': expected auto or 0..200, got '300'
$CONF/bom.conf: configuration invalid\" ]"
printf '\xef\xbb\xbf[policy]\nname = ck\n' >"$CONF/bom.conf"
expect_rc 0 "a good file with a BOM is OK" "$BIN" -n -c "$CONF/bom.conf"

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
