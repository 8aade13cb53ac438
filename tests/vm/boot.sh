#!/usr/bin/env bash
# shellcheck disable=SC2317 # trap handlers are reached only through trap
# Boot the guest built by recipe.sh, run SHAREDIR/guest.sh in it, and exit with its exit code.
#
#   tests/vm/boot.sh IMAGEDIR SHAREDIR [extra qemu args...]
#
# SHAREDIR is shared read-write with the guest over 9p (tag "share", mounted at /mnt/share) and
# must contain guest.sh. After the run it holds guest.log (the script's output), guest.rc (its
# exit code) and console.log (the serial console: kernel, systemd and the script's output).
#
# Environment:
#   VM_MEM_MB=512          guest RAM
#   VM_CPUS=2              guest CPUs
#   VM_SWAP_MB=1024        size of the blank second disk /dev/vdb (the guest may mkswap it)
#   VM_SWAP_DRIVE_OPTS=    extra -drive options for that disk, e.g.
#                          "cache=none,aio=threads,throttling.bps-total=10485760"
#   VM_ROOT_DRIVE_OPTS=    the same for the root disk /dev/vda (the benchmarks throttle it)
#   VM_APPEND=             extra kernel command line, e.g. "zswap.enabled=1"
#   VM_TIMEOUT=900         seconds before qemu is killed and the run fails
#   VM_VERBOSE=0           1: also copy the serial console to stdout as it comes
#   VM_ACCEL=tcg           see below
#
# Exit code: the guest script's. 1 when the guest never wrote guest.rc (crash, panic, hang,
# timeout) after printing the tail of console.log; 1 on a usage or setup error.
set -euo pipefail
# The whole script is one { } block: bash reads it completely before running any of it, so
# editing this file (a checkout, a colleague) cannot derail a run already in progress.
{

die() { echo "boot.sh: error: $*" >&2; exit 1; }
log() { echo "boot.sh: $*" >&2; }

[[ $# -ge 2 ]] || die "usage: $0 IMAGEDIR SHAREDIR [extra qemu args...]"
imagedir=$1
sharedir=$2
shift 2

mem_mb=${VM_MEM_MB:-512}
cpus=${VM_CPUS:-2}
swap_mb=${VM_SWAP_MB:-1024}
timeout_s=${VM_TIMEOUT:-900}
verbose=${VM_VERBOSE:-0}
# Always TCG by default: /dev/kvm on these machines (when it exists) is nested PVM, and a stock
# Debian kernel hangs there right after "Probing EDD"; a probe boot would cost as much as a
# TCG boot. VM_ACCEL=kvm is for machines where KVM is known to work.
accel=${VM_ACCEL:-tcg}
for v in mem_mb cpus swap_mb timeout_s; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, got '${!v}'"
done

command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 not found in PATH: apt-get install qemu-system-x86 (VM tests cannot run without it)"
command -v qemu-img >/dev/null || die "qemu-img not found in PATH: apt-get install qemu-utils"

for f in root.img vmlinuz initrd.img stamp; do
	[[ -s $imagedir/$f ]] || die "$imagedir/$f is missing or empty: build the image with tests/vm/recipe.sh $imagedir SUITE"
done
[[ -d $sharedir ]] || die "share directory $sharedir does not exist"
[[ -f $sharedir/guest.sh ]] || die "$sharedir/guest.sh does not exist: nothing for the guest to run"
imagedir=$(readlink -f -- "$imagedir")
sharedir=$(readlink -f -- "$sharedir")

rm -f -- "$sharedir/guest.rc" "$sharedir/guest.rc.tmp" "$sharedir/guest.log" "$sharedir/console.log" ||
	die "cannot remove the previous run's files from $sharedir"

tmp=$(mktemp -d -- "${TMPDIR:-/tmp}/autoswappiness-vm.XXXXXX") || die "cannot create a temporary directory"
qemu_pid=
tail_pid=
cleanup() {
	local rc=$?
	if [[ -n $qemu_pid ]] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill -TERM "$qemu_pid" 2>/dev/null || true
		for _ in 1 2 3 4 5; do kill -0 "$qemu_pid" 2>/dev/null || break; sleep 1; done
		kill -KILL "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [[ -n $tail_pid ]]; then
		kill "$tail_pid" 2>/dev/null || true
		wait "$tail_pid" 2>/dev/null || true
	fi
	rm -rf -- "$tmp"
	return "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

qemu-img create -q -f raw "$tmp/swap.img" "${swap_mb}M" || die "cannot create $tmp/swap.img (${swap_mb} MB)"

swap_drive="file=$tmp/swap.img,format=raw,if=virtio"
[[ -n ${VM_SWAP_DRIVE_OPTS:-} ]] && swap_drive+=",$VM_SWAP_DRIVE_OPTS"

# quiet: kernel warnings and systemd failures still reach the console; mitigations=off: they
# only slow the emulated CPU; panic=-1 with -no-reboot turns a panic into a qemu exit.
append="root=/dev/vda rootfstype=ext4 rw console=ttyS0 quiet panic=-1 noresume mitigations=off"
[[ -n ${VM_APPEND:-} ]] && append+=" $VM_APPEND"

qemu=(qemu-system-x86_64
	-accel "$accel" -cpu max -smp "$cpus" -m "$mem_mb"
	-nodefaults -no-user-config -display none -monitor none -no-reboot
	-serial "file:$sharedir/console.log"
	-kernel "$imagedir/vmlinuz" -initrd "$imagedir/initrd.img" -append "$append"
	# snapshot=on: writes go to a temporary overlay (in TMPDIR, our $tmp), root.img stays clean.
	-drive "file=$imagedir/root.img,format=raw,if=virtio,snapshot=on${VM_ROOT_DRIVE_OPTS:+,$VM_ROOT_DRIVE_OPTS}"
	-drive "$swap_drive"
	-fsdev "local,id=share,path=$sharedir,security_model=none"
	-device "virtio-9p-pci,fsdev=share,mount_tag=share"
	-nic none
	"$@")

suite=$(cat -- "$imagedir/suite" 2>/dev/null || echo unknown)
log "booting the $suite guest ($accel, ${cpus} CPUs, ${mem_mb} MB, swap disk ${swap_mb} MB, timeout ${timeout_s} s)"
start=$SECONDS
TMPDIR=$tmp "${qemu[@]}" </dev/null >"$tmp/qemu.out" 2>&1 &
qemu_pid=$!
if [[ $verbose == 1 ]]; then
	tail -n +1 -F -- "$sharedir/console.log" 2>/dev/null &
	tail_pid=$!
fi

timed_out=0
while kill -0 "$qemu_pid" 2>/dev/null; do
	if ((SECONDS - start >= timeout_s)); then
		timed_out=1
		log "TIMEOUT: the guest is still running after ${timeout_s} s (VM_TIMEOUT); killing qemu"
		kill -TERM "$qemu_pid" 2>/dev/null || true
		for _ in 1 2 3 4 5; do kill -0 "$qemu_pid" 2>/dev/null || break; sleep 1; done
		kill -KILL "$qemu_pid" 2>/dev/null || true
		break
	fi
	sleep 1
done
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
elapsed=$((SECONDS - start))
if [[ -n $tail_pid ]]; then
	sleep 1
	kill "$tail_pid" 2>/dev/null || true
	wait "$tail_pid" 2>/dev/null || true
	tail_pid=
fi
if [[ -s $tmp/qemu.out ]]; then
	# qemu's own warnings (e.g. about 9p) are worth seeing, but not as errors.
	sed 's/^/boot.sh: qemu: /' "$tmp/qemu.out" >&2
fi

fail() {
	log "FAILED: $*"
	if [[ -s $sharedir/console.log ]]; then
		log "last 40 lines of $sharedir/console.log:"
		tail -n 40 -- "$sharedir/console.log" | sed 's/^/  | /' >&2
	else
		log "$sharedir/console.log is empty: the kernel never printed anything"
	fi
	exit 1
}

((timed_out == 0)) || fail "timed out after ${timeout_s} s"
[[ $qemu_rc -eq 0 ]] || fail "qemu-system-x86_64 exited with $qemu_rc after ${elapsed} s"
[[ -f $sharedir/guest.rc ]] ||
	fail "the guest wrote no $sharedir/guest.rc (guest.sh never ran or never finished; crash, panic or 9p failure) after ${elapsed} s"
rc=$(<"$sharedir/guest.rc")
[[ $rc =~ ^[0-9]+$ ]] || fail "$sharedir/guest.rc does not hold an exit code: '$rc'"
log "guest.sh exited with $rc; the VM ran ${elapsed} s"
exit $((rc > 255 ? 255 : rc))
exit
}
