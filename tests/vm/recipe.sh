#!/usr/bin/env bash
# shellcheck disable=SC2317 # trap handlers are reached only through trap
# Build the Debian guest that VM tests and benchmarks boot with boot.sh.
#
#   tests/vm/recipe.sh OUTDIR [SUITE]
#
# SUITE is trixie (Debian 13, kernel 6.12, the multi-gen LRU on at boot; the default) or
# bookworm (Debian 12, kernel 6.1, the classic LRU). Callers keep one OUTDIR per suite
# (build/vm/trixie, build/vm/bookworm), so both images coexist.
#
# Produces OUTDIR/root.img (raw ext4, sparse), OUTDIR/vmlinuz, OUTDIR/initrd.img and
# OUTDIR/stamp (the sha256 of this file and SUITE) and OUTDIR/suite. When OUTDIR/stamp already
# matches, it does nothing: everything the image contains is written by this file for SUITE,
# so their hash is the cache key.
# The build happens in OUTDIR/.build.XXXXXX and files are renamed into place with the stamp
# last, so an interrupted build never leaves an image that looks valid.
#
# Needs root (debootstrap, chroot), debootstrap, mke2fs >= 1.43 (for -d) and the network path
# to the Debian archive (DEBIAN_MIRROR, default http://deb.debian.org/debian).
#
# The guest:
#  - hostname autoswappiness-vm, / is /dev/vda (ext4), no network, no getty, root locked;
#  - a second virtio disk /dev/vdb is left alone: a test may mkswap + swapon it;
#  - vm-test.service mounts the 9p tag "share" at /mnt/share, runs /mnt/share/guest.sh with its
#    output in /mnt/share/guest.log and on the console, writes the exit code to
#    /mnt/share/guest.rc, syncs and powers off;
#  - timers that would fire during a benchmark are masked, the journal is volatile;
#  - gcc, make and the daemon's build dependencies are installed (the benchmarks' compile
#    workloads build the project's sources), without LTO and the sanitizer runtimes.
set -euo pipefail
# The whole script is one { } block: bash reads it completely before running any of it, so
# editing this file (a checkout, a colleague) cannot derail a build already in progress.
{

die() { echo "recipe.sh: error: $*" >&2; exit 1; }
log() { echo "recipe.sh: $*" >&2; }

[[ $# -eq 1 || $# -eq 2 ]] || die "usage: $0 OUTDIR [trixie|bookworm]"
outdir=$1
suite=${2:-trixie}
[[ $suite == trixie || $suite == bookworm ]] || die "unknown suite '$suite': trixie or bookworm"
self=$(readlink -f -- "${BASH_SOURCE[0]}") || die "cannot resolve path of $0"
stamp=$({ cat -- "$self" && echo "suite=$suite"; } | sha256sum | cut -d' ' -f1) || die "cannot hash $self"

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages=(
	systemd systemd-sysv udev dbus
	linux-image-amd64 initramfs-tools kmod
	procps libproc2-0 libinih1 libsystemd0
	util-linux e2fsprogs
	# The benchmarks' compile workloads build the project's own sources in the guest.
	gcc make libc6-dev libproc2-dev libinih-dev libsystemd-dev
)

is_current() {
	[[ -f $outdir/stamp && -s $outdir/root.img && -s $outdir/vmlinuz && -s $outdir/initrd.img ]] &&
		[[ $(<"$outdir/stamp") == "$stamp" ]]
}

mkdir -p -- "$outdir" || die "cannot create $outdir"
outdir=$(readlink -f -- "$outdir")
if is_current; then
	log "$outdir is up to date (stamp $stamp)"
	exit 0
fi

[[ $EUID -eq 0 ]] || die "must run as root (debootstrap and chroot need it)"
for tool in debootstrap mke2fs e2fsck chroot findmnt sha256sum flock; do
	command -v "$tool" >/dev/null || die "'$tool' not found in PATH (install it: apt-get install debootstrap e2fsprogs util-linux)"
done

# One build at a time per OUTDIR; a second caller waits and then finds the cache current.
exec 9>"$outdir/.lock" || die "cannot open lock file $outdir/.lock"
flock 9 || die "cannot lock $outdir/.lock"
if is_current; then
	log "$outdir was built by another process meanwhile"
	exit 0
fi

work=$(mktemp -d -- "$outdir/.build.XXXXXX") || die "cannot create a temporary directory in $outdir"
root=$work/root

unmount_all() {
	# Deepest mount points first; debootstrap may leave proc/sys mounted when it fails.
	local m
	findmnt -rno TARGET | { grep -F -- "$work/" || true; } | sort -r | while read -r m; do
		umount -l -- "$m" || echo "recipe.sh: warning: cannot unmount $m" >&2
	done
}
cleanup() {
	unmount_all
	if findmnt -rno TARGET | grep -qF -- "$work/"; then
		echo "recipe.sh: warning: something is still mounted under $work; leaving it for inspection" >&2
		return
	fi
	rm -rf --one-file-system -- "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C HOME=/root "$@"; }

t0=$SECONDS
log "debootstrap $suite (minbase) from $mirror into $root"
include=$(IFS=,; echo "${packages[*]}")
if ! debootstrap --variant=minbase --components=main --include="$include" \
	"$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
	tail -n 30 "$work/debootstrap.log" >&2
	[[ -f $root/debootstrap/debootstrap.log ]] && tail -n 30 "$root/debootstrap/debootstrap.log" >&2
	die "debootstrap of $suite from $mirror failed (log above)"
fi
log "debootstrap took $((SECONDS - t0)) s"

# --- basic identity -----------------------------------------------------------------------
echo autoswappiness-vm >"$root/etc/hostname"
cat >"$root/etc/hosts" <<'EOF'
127.0.0.1	localhost
127.0.1.1	autoswappiness-vm
::1		localhost ip6-localhost ip6-loopback
EOF
# No fsck (pass 0): the root is a throw-away snapshot (boot.sh uses snapshot=on).
cat >"$root/etc/fstab" <<'EOF'
/dev/vda	/	ext4	rw,errors=remount-ro	0	0
EOF
# A fixed machine-id: with an empty one every boot would be a "first boot" and systemd 252
# would run preset-all and systemd-firstboot on every start of the snapshot.
echo 6175746f73776170706965737300766d >"$root/etc/machine-id"
rm -f "$root/etc/resolv.conf"
# Root stays locked (debootstrap leaves '*' in /etc/shadow): nobody logs in.

# --- initramfs: only what booting from virtio needs ------------------------------------------
# MODULES=dep would inspect the build host, not the guest; MODULES=most works but makes a
# larger initrd that TCG decompresses slowly. A short list is enough; mkinitramfs adds the
# dependencies (jbd2, mbcache, crc16, crc32c). 9p is loadable from the root too (modprobe).
cat >"$root/etc/initramfs-tools/modules" <<'EOF'
virtio_pci
virtio_blk
ext4
9pnet_virtio
9p
EOF
sed -i -e 's/^MODULES=.*/MODULES=list/' "$root/etc/initramfs-tools/initramfs.conf"
grep -qx 'MODULES=list' "$root/etc/initramfs-tools/initramfs.conf" ||
	die "cannot set MODULES=list in $root/etc/initramfs-tools/initramfs.conf"
# The swap disk must never be taken for a hibernation image (and the initrd must not wait for it).
echo RESUME=none >"$root/etc/initramfs-tools/conf.d/resume"

# --- systemd: no getty, no timers, volatile journal --------------------------------------------
mask() { ln -sf /dev/null "$root/etc/systemd/system/$1"; }
mask getty.target
mask serial-getty@.service
mask getty@.service
# Timers enabled by package postinsts (apt-daily, fstrim, e2scrub, dpkg-db-backup, ...) would
# add I/O in the middle of a benchmark; none of them has a job in a throw-away VM.
if [[ -d $root/etc/systemd/system/timers.target.wants ]]; then
	for t in "$root"/etc/systemd/system/timers.target.wants/*.timer; do
		[[ -e $t || -L $t ]] || continue
		name=${t##*/}
		rm -f -- "$t"
		mask "$name"
	done
fi
mask systemd-tmpfiles-clean.timer
# systemd 256 and later (trixie) mount a tmpfs on /tmp, up to half of RAM: in a 256 MB guest
# what a test or a workload writes there would take RAM that the measurement is about. /tmp
# stays on the root disk, as in bookworm.
mask tmp.mount
mkdir -p "$root/etc/systemd/journald.conf.d"
cat >"$root/etc/systemd/journald.conf.d/vm.conf" <<'EOF'
# The root disk is a snapshot thrown away at power-off: keep the journal in RAM, small, so it
# neither writes to disk during benchmarks nor eats a 256 MB guest. Tests copy what they need
# to /mnt/share with journalctl.
[Journal]
Storage=volatile
RuntimeMaxUse=16M
EOF

# --- the test runner ----------------------------------------------------------------------------
mkdir -p "$root/mnt/share" "$root/usr/local/sbin"
cat >"$root/usr/local/sbin/vm-test-run" <<'EOF'
#!/bin/bash
# Started by vm-test.service: run the host's /mnt/share/guest.sh, record its exit code, power off.
# stdout goes to the journal and the console (see the unit), so the host's console.log has it.
set -u
share=/mnt/share
say() { echo "vm-test: $*"; }
off() {
	sync
	say "powering off"
	systemctl poweroff --force || poweroff -f
	sleep 30
	poweroff -f
}

say "guest up $(cut -d' ' -f1 /proc/uptime) s after kernel start"
modprobe 9pnet_virtio || say "modprobe 9pnet_virtio failed (maybe built in)"
modprobe 9p || say "modprobe 9p failed (maybe built in)"
# msize: the 6.1 default of 8 KiB makes 9p slow and qemu warns about it; 512000 is the virtio max.
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 share "$share"; then
	say "FATAL: cannot mount 9p tag 'share' at $share (was -virtfs ...,mount_tag=share given?)"
	off
fi
rm -f "$share/guest.rc"
if [[ ! -f $share/guest.sh ]]; then
	say "FATAL: $share/guest.sh does not exist"
	off
fi
cd "$share" || off
# This process runs with oom_score_adj -1000 (the unit) so that the harness survives OOM and
# can still write guest.rc; the test itself must be an ordinary OOM victim, hence choom -n 0.
if [[ -x $share/guest.sh ]]; then cmd=("$share/guest.sh"); else cmd=(/bin/bash "$share/guest.sh"); fi
say "running ${cmd[*]}"
start=$(cut -d' ' -f1 /proc/uptime)
choom -n 0 -- env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM=dumb VM_GUEST=1 "${cmd[@]}" </dev/null 2>&1 |
	tee "$share/guest.log"
rc=${PIPESTATUS[0]}
end=$(cut -d' ' -f1 /proc/uptime)
say "guest.sh exited with $rc after $start..$end s of uptime"
echo "$rc" >"$share/guest.rc.tmp" && mv "$share/guest.rc.tmp" "$share/guest.rc" ||
	say "FATAL: cannot write $share/guest.rc"
off
EOF
chmod 0755 "$root/usr/local/sbin/vm-test-run"

cat >"$root/etc/systemd/system/vm-test.service" <<'EOF'
[Unit]
Description=Run the host's test script from the 9p share and power off
# Only after basic.target and the journal: ordering it After=multi-user.target as well as
# WantedBy= it would work, but a oneshot start job holds multi-user.target back either way.
# Consequence for guest scripts: multi-user.target is not reached while guest.sh runs, so
# `systemctl is-system-running --wait` would hang; starting units works.
After=basic.target systemd-journald.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/vm-test-run
StandardOutput=journal+console
StandardError=journal+console
# boot.sh enforces the time limit from outside.
TimeoutStartSec=infinity
# The harness must survive the tests' OOM kills; vm-test-run resets its child to 0.
OOMScoreAdjust=-1000
# An OOM kill of a test's process ends that process, not the harness: systemd's default
# (OOMPolicy=stop) stops the whole unit at the first kill in it (bench/guest-bench.sh records
# such a run as failed and goes on with the next).
OOMPolicy=continue

[Install]
WantedBy=multi-user.target
EOF
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/vm-test.service "$root/etc/systemd/system/multi-user.target.wants/vm-test.service"

# --- kernel and initrd ----------------------------------------------------------------------------
mount -t proc proc "$root/proc" || die "cannot mount proc in $root/proc"
kver=$(in_root linux-version list | sort -V | tail -n 1)
[[ -n $kver ]] || die "no kernel installed in $root (linux-image-amd64 missing?)"
log "kernel $kver: rebuilding initramfs with MODULES=list"
in_root update-initramfs -u -k "$kver" >"$work/initramfs.log" 2>&1 || {
	cat "$work/initramfs.log" >&2
	die "update-initramfs -k $kver failed in $root"
}
# Modules are .ko in bookworm, .ko.xz in trixie, where virtio_pci is built in.
in_root lsinitramfs "/boot/initrd.img-$kver" >"$work/initrd.list" 2>"$work/lsinitramfs.log" || {
	cat "$work/lsinitramfs.log" >&2
	die "lsinitramfs /boot/initrd.img-$kver failed in $root"
}
umount "$root/proc" || die "cannot unmount $root/proc"
for m in virtio_blk virtio_pci ext4 9pnet_virtio; do
	grep -q "/$m\.ko" "$work/initrd.list" || grep -q "/$m\.ko\$" "$root/lib/modules/$kver/modules.builtin" ||
		die "initrd.img-$kver lacks $m.ko, and it is not built into the kernel"
done
cp -- "$root/boot/vmlinuz-$kver" "$work/vmlinuz" || die "cannot copy vmlinuz-$kver"
cp -- "$root/boot/initrd.img-$kver" "$work/initrd.img" || die "cannot copy initrd.img-$kver"

# --- trim ----------------------------------------------------------------------------------------
# The guest boots with -kernel/-initrd, so /boot is dead weight; so are docs, man pages,
# locales and apt's package lists (no network in the guest anyway).
rm -rf -- "$root"/boot/vmlinuz-* "$root"/boot/initrd.img-* "$root"/boot/System.map-* \
	"$root"/vmlinuz* "$root"/initrd.img* \
	"$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
	"$root"/usr/share/locale/* "$root"/usr/share/lintian/* "$root"/usr/share/bug/* \
	"$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
	"$root"/var/log/*.log "$root"/var/log/apt/* "$root"/debootstrap
# Kernel modules for hardware a qemu guest never has: about half of the modules' size.
moddir=$root/lib/modules/$kver/kernel
for d in drivers/gpu drivers/media drivers/net/wireless drivers/net/ethernet drivers/infiniband \
	drivers/staging drivers/bluetooth drivers/iio drivers/isdn drivers/scsi drivers/usb \
	drivers/input/touchscreen drivers/hwmon drivers/mtd drivers/nfc drivers/platform \
	drivers/thunderbolt drivers/net/can drivers/net/usb drivers/net/phy drivers/mmc \
	drivers/target drivers/md drivers/ata drivers/video drivers/leds drivers/hid \
	sound net/bluetooth net/wireless net/mac80211 net/netfilter net/ipv4/netfilter \
	net/ipv6/netfilter net/bridge net/sched net/sunrpc fs/nfs fs/nfsd fs/ocfs2 fs/btrfs \
	fs/xfs fs/ceph fs/smb fs/cifs fs/gfs2 fs/f2fs; do
	rm -rf -- "${moddir:?}/$d"
done
in_root depmod -a "$kver" || die "depmod -a $kver failed in $root"
# The compiler is there for the benchmarks' C builds only: no LTO, no sanitizer runtimes.
rm -f -- "$root"/usr/libexec/gcc/x86_64-linux-gnu/*/lto1 "$root"/usr/bin/*lto-dump* \
	"$root"/usr/lib/gcc/x86_64-linux-gnu/*/lib{asan,tsan,lsan,hwasan,ubsan}*.a
in_root sh -c 'echo "int main(void){return 0;}" | gcc -x c -o /dev/null -' ||
	die "gcc does not work in $root after trimming"
# ... and keep later package installs in the guest trimmed the same way.
cat >"$root/etc/dpkg/dpkg.cfg.d/01-autoswappiness-trim" <<'EOF'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
EOF

# --- the file system image ---------------------------------------------------------------------------
used_mb=$(du -sxm -- "$root" | cut -f1)
# Room for what tests install or write on the root (the overlay absorbs it; the file is sparse).
size_mb=$((used_mb + 1024))
log "root tree is $used_mb MB; making a $size_mb MB ext4 image"
mke2fs -q -t ext4 -L autoswappiness -E nodiscard,root_owner=0:0 -d "$root" \
	"$work/root.img" "${size_mb}M" >"$work/mke2fs.log" 2>&1 || {
	cat "$work/mke2fs.log" >&2
	die "mke2fs -d $root $work/root.img failed"
}
e2fsck -fn "$work/root.img" >"$work/e2fsck.log" 2>&1 || {
	cat "$work/e2fsck.log" >&2
	die "e2fsck of $work/root.img reports errors"
}

# --- move into place: stamp last ------------------------------------------------------------------
rm -f -- "$outdir/stamp"
for f in root.img vmlinuz initrd.img; do
	mv -f -- "$work/$f" "$outdir/$f" || die "cannot move $work/$f to $outdir/$f"
done
echo "$suite" >"$outdir/suite" || die "cannot write $outdir/suite"
echo "$stamp" >"$work/stamp"
mv -f -- "$work/stamp" "$outdir/stamp" || die "cannot write $outdir/stamp"
log "built $outdir in $((SECONDS - t0)) s: root.img $(du -m --apparent-size "$outdir/root.img" | cut -f1) MB" \
	"($(du -m "$outdir/root.img" | cut -f1) MB allocated), kernel $kver"
exit
}
