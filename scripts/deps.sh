#!/bin/sh
# Installs, with apt, whatever the build and the tests need and the machine
# lacks. Quiet and quick when everything is there. Debian 12 / Ubuntu 24.04.
set -eu

# A debootstrap --variant=minbase system (what a fresh container or chroot of Debian 12 is)
# has only the packages of priority required. Beyond the build, the tests need: procps
# (/bin/kill: `systemd-analyze verify` checks the unit's ExecReload=/bin/kill; pkill in
# the benchmarks), strace (the integration test that counts the cgroup walk's stat calls),
# util-linux and mount (unshare, mount, flock, findmnt, setpriv), python3 (fake journald,
# notify socket, JSON and metrics checks), and for the VM image debootstrap with the
# archive keyring and gpgv, so that it checks what it downloads. The Debian package (make deb)
# needs debhelper, dpkg-dev, fakeroot and lintian, and git to export the tree. coreutils (timeout,
# mkfifo, stat...), mawk, sed, grep, diffutils and tar are in every Debian system.
PACKAGES="make gcc libc6-dev pkg-config libproc2-dev libinih-dev libsystemd-dev systemd procps strace
libcmocka-dev mandoc valgrind util-linux mount clang libclang-rt-dev python3 python3-prometheus-client
qemu-system-x86 qemu-utils debootstrap debian-archive-keyring gpgv e2fsprogs gnuplot-nox
debhelper dpkg-dev fakeroot lintian git"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing; run as root or: apt-get install$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
