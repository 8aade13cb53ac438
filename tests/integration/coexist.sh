# Sourced by tests/integration/run.sh: others who set vm.swappiness (autoswappiness(8),
# LIVING WITH OTHER TOOLS). Overlays on /etc, /usr/lib (and so /lib) and /usr/local/lib
# put fake sysctl.d files and tuned profiles in the real paths, with every write landing
# in $WORK, never on the machine; a bind mount puts a fake /proc/cmdline in place. Checks
# the warnings at start (file, line, value, fields, systemd-sysctl's order and shadowing,
# masks, Debian's link to /etc/sysctl.conf, tuned's includes, the command line), that a
# reload warns again and polls do not, and that the yield record names the likely file.

# --- others who set vm.swappiness: sysctl.d, tuned, the kernel command line --
OV=$WORK/overlay
overlay() { # overlay DIR: DIR writable, its changes in $OV
	local tag=${1//\//_}
	mkdir -p "$OV/$tag/up" "$OV/$tag/wk"
	mount -t overlay overlay -o "lowerdir=$1,upperdir=$OV/$tag/up,workdir=$OV/$tag/wk" "$1"
}
overlay /etc
overlay /usr/lib
mkdir -p /usr/local/lib 2>/dev/null || true
overlay /usr/local/lib
# What the machine has there is not this test's: only ever under the overlays.
mountpoint -q /etc && mountpoint -q /usr/lib && mountpoint -q /usr/local/lib ||
	{ echo "coexist: the overlays are not mounted: refusing to clear /etc/sysctl.d" >&2; exit 1; }
rm -rf /etc/sysctl.d /usr/lib/sysctl.d /usr/local/lib/sysctl.d /etc/tuned /usr/lib/tuned /etc/sysctl.conf
mkdir -p /etc/sysctl.d /run/sysctl.d /usr/local/lib/sysctl.d /usr/lib/sysctl.d \
	/etc/tuned/my-guest /usr/lib/tuned/virtual-guest /usr/lib/tuned/throughput-performance
check "the overlays leave the machine's /etc alone" test -z "$(ls "$OV/_etc/up/tuned/my-guest" 2>&1 >/dev/null)"

printf '# ours\nvm.dirty_ratio = 5\nvm.swappiness = 10\n' >/etc/sysctl.d/99-swap.conf
# Shadowed by /etc's file of the same name.
printf 'vm.swappiness = 1\n' >/usr/lib/sysctl.d/99-swap.conf
printf '  -vm/swappiness=20\n' >/run/sysctl.d/50-run.conf
printf '; vm.swappiness = 3\n# vm.swappiness = 3\nvm.swappiness = 300\n' >/usr/local/lib/sysctl.d/40-local.conf
# Masked, as systemd does it.
printf 'vm.swappiness = 4\n' >/usr/lib/sysctl.d/98-masked.conf
ln -s /dev/null /etc/sysctl.d/98-masked.conf
# Debian's link: /etc/sysctl.conf is read once, under the link's name.
printf '# sysctl.conf\nvm.swappiness=25\n' >/etc/sysctl.conf
ln -s ../sysctl.conf /etc/sysctl.d/99-sysctl.conf
mkfifo /etc/sysctl.d/97-fifo.conf
printf 'vm.swappiness = 5\n' >/etc/sysctl.d/README
# tuned: my-guest includes virtual-guest, which includes throughput-performance
# and sets its own value over it.
printf 'my-guest\n' >/etc/tuned/active_profile
printf '[main]\ninclude=virtual-guest\n' >/etc/tuned/my-guest/tuned.conf
printf '[main]\ninclude=throughput-performance\n\n[sysctl]\nvm.swappiness = 30\n' \
	>/usr/lib/tuned/virtual-guest/tuned.conf
printf '[sysctl]\nvm.swappiness=10\n' >/usr/lib/tuned/throughput-performance/tuned.conf
printf 'BOOT_IMAGE=/vmlinuz root=/dev/vda sysctl.vm.swappiness=35 quiet -- sysctl.vm.swappiness=99\n' \
	>"$WORK/cmdline"
mount --bind "$WORK/cmdline" /proc/cmdline
check "the fake /proc/cmdline is mounted" grep -q 'sysctl.vm.swappiness=35' /proc/cmdline

other_count() { grep -c -- "$1" "$WORK/daemon.log" || true; }
set_knob 60
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
cp "$CONF/fast.conf" "$CONF/coexist.conf"
start_daemon -c "$CONF/coexist.conf"
check "coexist: the daemon writes" wait_for 15 knob_is 23
W_SWAP="/etc/sysctl.d/99-swap.conf:3 sets vm.swappiness = 10: with on_external_change = yield, a \`sysctl --system\` stops regulation; remove that line (see autoswappiness(8), LIVING WITH OTHER TOOLS)"
check "a sysctl.d line is named with file, line, value and what to do" log_has "warning: $W_SWAP"
check "with its fields" log_has "MESSAGE_ID=2b5b3f1464d4423fb1f7426b78fbfead OTHER_SOURCE=sysctl.d OTHER_FILE=/etc/sysctl.d/99-swap.conf OTHER_LINE=3 OTHER_VALUE=10"
check "the '-' and slash form in /run/sysctl.d" log_has "/run/sysctl.d/50-run.conf:1 sets vm.swappiness = 20: "
check "/etc/sysctl.conf through Debian's link, once" bash -c \
	"grep -q '/etc/sysctl.d/99-sysctl.conf:2 sets vm.swappiness = 25: ' '$WORK/daemon.log' && ! grep -q '/etc/sysctl.conf:' '$WORK/daemon.log'"
order=$(sed -n 's/.*OTHER_FILE=\([^ ]*\) .*/\1/p' "$WORK/daemon.log" | tr '\n' ' ')
check "in systemd-sysctl's order, then tuned, then the command line ($order)" test "$order" = \
	"/run/sysctl.d/50-run.conf /etc/sysctl.d/99-swap.conf /etc/sysctl.d/99-sysctl.conf /usr/lib/tuned/virtual-guest/tuned.conf /proc/cmdline "
check "a file shadowed by /etc's, a masked file, comments, refused values and other names are not findings" bash -c \
	"! grep -qE 'usr/lib/sysctl.d|98-masked|40-local|README|vm.swappiness = (1|3|4|5|300)[: ]' '$WORK/daemon.log'"
check "a FIFO is refused, not opened" log_has "cannot check '/etc/sysctl.d/97-fifo.conf' for vm.swappiness: not a regular file"
check "tuned: the active profile's value through two includes" log_has \
	"/usr/lib/tuned/virtual-guest/tuned.conf:5 sets vm.swappiness = 30 in the active tuned profile: with on_external_change = yield, applying the profile stops regulation; take vm.swappiness out of the profile"
check "tuned: with its fields" log_has "OTHER_SOURCE=tuned OTHER_FILE=/usr/lib/tuned/virtual-guest/tuned.conf OTHER_LINE=5 OTHER_VALUE=30"
check "tuned: the included profile's value, overridden, is not named" bash -c "! grep -q throughput-performance '$WORK/daemon.log'"
check "the kernel command line, not init's arguments" log_has \
	"/proc/cmdline: the kernel command line sets vm.swappiness = 35 at boot; remove sysctl.vm.swappiness= .*OTHER_SOURCE=cmdline OTHER_FILE=/proc/cmdline OTHER_LINE=1 OTHER_VALUE=35"
# Ten more polls (-v logs a record naming the swappiness at each), however slow the machine.
n_polls=$(grep -c swappiness "$WORK/daemon.log")
check "ten more polls" wait_for 30 bash -c "[ \$(grep -c swappiness '$WORK/daemon.log') -ge $((n_polls + 10)) ]"
check "one warning per start, not per poll" test "$(other_count '99-swap.conf:3 sets')" = 1

# Each reload warns again; a line taken out is no longer named.
n_reload=$(other_count "reloaded '$CONF/coexist.conf'")
kill -HUP "$DPID"
check "a reload warns again" wait_for 15 bash -c "[ \$(grep -c '99-swap.conf:3 sets' '$WORK/daemon.log') = 2 ]"
printf '# ours\nvm.dirty_ratio = 5\n' >/etc/sysctl.d/99-swap.conf
kill -HUP "$DPID"
check "the next reload warns about the rest" wait_for 15 bash -c "[ \$(grep -c '50-run.conf:1 sets' '$WORK/daemon.log') = 3 ]"
check "but not about the line taken out" test "$(other_count '99-swap.conf:3 sets')" = 2
check "and the reloads were reloads" test "$(other_count "reloaded '$CONF/coexist.conf'")" = $((n_reload + 2))

# A file dropped in after the reload and a `sysctl --system`: the yield names it.
printf 'vm.swappiness = 42\n' >/etc/sysctl.d/60-new.conf
set_knob 42
check "the yield names the file that probably did it" wait_for 15 log_has \
	"changed from 23 to 42 by someone else; leaving it alone until reload (probably /etc/sysctl.d/60-new.conf:1, which sets vm.swappiness = 42) .*OTHER_SOURCE=sysctl.d OTHER_FILE=/etc/sysctl.d/60-new.conf OTHER_LINE=1 OTHER_VALUE=42"
stop_daemon TERM || true
check "coexist: the yielded value stays" knob_is 42

# A value nobody's file sets: the yield record names none. Under override, the
# warning says what a `sysctl --system` does then.
rm /etc/sysctl.d/60-new.conf
set_knob 60
start_daemon -c "$CONF/coexist.conf"
check "coexist: writes again" wait_for 15 decided 23
set_knob 43
check "a yield to a value no file sets names none" wait_for 15 log_has "changed from 23 to 43 by someone else; leaving it alone until reload MESSAGE_ID="
stop_daemon TERM || true
printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\non_external_change = override\n' >"$CONF/coexist.conf"
set_knob 60
start_daemon -c "$CONF/coexist.conf"
check "override: a sysctl --system is undone" wait_for 15 log_has \
	"/run/sysctl.d/50-run.conf:1 sets vm.swappiness = 20: with on_external_change = override, a \`sysctl --system\` is undone at the next poll"
check "coexist: override writes" wait_for 15 decided 23
set_knob 20
check "override names the file too" wait_for 15 log_has \
	"changed from 23 to 20 by someone else; overriding (probably /run/sysctl.d/50-run.conf:1, which sets vm.swappiness = 20)"
stop_daemon TERM || true

# Nothing there: nothing said.
rm -rf /etc/sysctl.d/* /run/sysctl.d /usr/local/lib/sysctl.d/* /usr/lib/sysctl.d/* /etc/tuned/active_profile /etc/sysctl.conf
printf 'BOOT_IMAGE=/vmlinuz quiet\n' >"$WORK/cmdline"
set_knob 60
start_daemon -c "$CONF/fast.conf"
check "coexist: writes with no others" wait_for 15 knob_is 23
check "no other tool: no warning" bash -c "! grep -qE 'OTHER_|cannot check' '$WORK/daemon.log'"
stop_daemon TERM || true

# More sysctl.d files than the scan reads (512), and a path over 255 bytes: both said, with
# what was not read (issue 48: "Too many open files", and /usr/lib/sysctl.d skipped in silence).
long=$(printf 'x%.0s' $(seq 245)).conf
printf 'vm.swappiness = 8\n' >"/etc/sysctl.d/$long"
for i in $(seq 513); do : >"/usr/local/lib/sysctl.d/$i.conf"; done
printf 'vm.swappiness = 7\n' >/usr/lib/sysctl.d/99-lib.conf
start_daemon -c "$CONF/fast.conf"
check "coexist: writes past 513 sysctl.d files" wait_for 15 knob_is 23
check "the cap is named, with the directories not read" wait_for 15 log_has \
	"more than 512 sysctl.d files, the most the check for vm.swappiness reads: not checked: the rest of '/usr/local/lib/sysctl.d', '/usr/lib/sysctl.d', '/lib/sysctl.d'"
check "the long path is named" log_has "cannot check '/etc/sysctl.d/$long' for vm.swappiness: its path is longer than 255 bytes"
check "not as too many open files" bash -c "! grep -q 'Too many open files' '$WORK/daemon.log'"
stop_daemon TERM || true
rm -rf /etc/sysctl.d/* /usr/local/lib/sysctl.d/* /usr/lib/sysctl.d/*
# Lazily: the shell may have mapped a locale file from the overlay since.
umount -l /proc/cmdline /usr/local/lib /usr/lib /etc
check "the machine's files are back" test ! -e /etc/tuned/my-guest
