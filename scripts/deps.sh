#!/bin/sh
# Installs, with apt, what one group of tasks needs and the machine lacks. Quiet
# and quick when everything is there. Tested on Debian 12 and 13.
#
#   scripts/deps.sh [build]        what `make` and `make run` need (the default)
#   scripts/deps.sh test           build + what `make check` needs
#   scripts/deps.sh bench          build + what `make bench` needs
#   scripts/deps.sh --list GROUP   print the group's packages, one a line, and exit
#   scripts/deps.sh --promtool-package   print the package promtool is taken from, and exit
set -eu

# One variable per group, one package list each; test and bench add to build.
# A debootstrap --variant=minbase system (what a fresh container or chroot of Debian 12
# is) has only the packages of priority required; coreutils (timeout, mkfifo, stat...),
# mawk, sed, grep, diffutils and tar are in every Debian system.
#
# build: the compiler and the three libraries the Makefile's PKGS names, through pkg-config.
BUILD_PACKAGES="make gcc libc6-dev pkg-config libproc2-dev libinih-dev libsystemd-dev"
# test: cmocka (unit tests), mandoc (docs), systemd (`systemd-analyze verify` and
# security), procps (/bin/kill: the unit's ExecReload), strace (the integration test
# that counts the cgroup walk's stat calls), util-linux and mount (unshare, mount,
# flock, findmnt, setpriv), python3 (fake journald, notify socket, JSON and metrics
# checks), valgrind, clang with its runtime (libFuzzer), gnuplot (the bench report
# on synthetic results), and for the VM test qemu and debootstrap with the archive
# keyring and gpgv, so that it checks what it downloads, and e2fsprogs (the image); the
# Debian package (make deb, which check-deb and the VM test install) needs debhelper,
# dpkg-dev, fakeroot and lintian, git to export the tree, and build-essential, which
# dpkg-buildpackage requires (dpkg-checkbuilddeps refuses to build without it).
TEST_PACKAGES="libcmocka-dev mandoc systemd procps strace util-linux mount python3 python3-prometheus-client
valgrind clang libclang-rt-dev gnuplot-nox qemu-system-x86 qemu-utils debootstrap debian-archive-keyring gpgv
e2fsprogs debhelper dpkg-dev fakeroot lintian git build-essential"
# bench: the guest (qemu, debootstrap, keyring, gpgv, e2fsprogs for its image and
# data disk), procps (pkill), util-linux (flock), python3 and gnuplot (bench/report.py).
BENCH_PACKAGES="procps util-linux mount python3 gnuplot-nox qemu-system-x86 qemu-utils debootstrap
debian-archive-keyring gpgv e2fsprogs"

usage() {
	echo "usage: scripts/deps.sh [build|test|bench] | --list build|test|bench | --promtool-package" >&2
	exit 64
}

# packages GROUP: the group's packages (with build's), or the usage message.
packages() {
	case $1 in
	build) echo $BUILD_PACKAGES ;;
	test) echo $BUILD_PACKAGES $TEST_PACKAGES ;;
	bench) echo $BUILD_PACKAGES $BENCH_PACKAGES ;;
	*)
		echo "deps: unknown group '$1'" >&2
		usage
		;;
	esac
}

# promtool_package: the package promtool is taken from (install_promtool, below):
# `promtool` where apt knows a package of that name (Debian 13), else `prometheus`.
promtool_package() {
	if [ -n "$(apt-cache policy promtool 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -vx '(none)')" ]; then
		echo promtool
	else
		echo prometheus
	fi
}

if [ "${1:-}" = --promtool-package ]; then
	[ $# -eq 1 ] || usage
	promtool_package
	exit 0
fi
if [ "${1:-}" = --list ]; then
	[ $# -eq 2 ] || usage
	list=$(packages "$2")
	printf '%s\n' $list
	exit 0
fi
[ $# -le 1 ] || usage
group=${1:-build}
list=$(packages "$group")

# promtool (`check metrics`, `check rules`) for the metrics tests. Debian 12 ships it only
# in the `prometheus` package, whose postinst enables and starts a Prometheus server on a
# systemd host: a test dependency must not leave a server listening on :9090. Debian 13
# has a `promtool` package of its own (and no promtool in `prometheus`). Either .deb is
# fetched with `apt-get download` (no maintainer scripts run) and only usr/bin/promtool
# is unpacked, into build/tools/ of this tree (make clean keeps it); tests find it there.
# Nothing else of the package lands on the machine. The test group only.
install_promtool() {
	tools=$(cd "$(dirname "$0")/.." && pwd)/build/tools
	if "$tools/promtool" --version >/dev/null 2>&1; then
		return 0
	fi
	pkg=$(promtool_package)
	tmp=$(mktemp -d)
	chown _apt "$tmp" 2>/dev/null || true # apt-get download writes as _apt
	(cd "$tmp" && apt-get download -qq "$pkg") || { rm -rf "$tmp"; return 1; }
	dpkg-deb --fsys-tarfile "$tmp/${pkg}"_*.deb | tar -x -C "$tmp" ./usr/bin/promtool ||
		{ echo "deps: no ./usr/bin/promtool in $pkg's package" >&2; rm -rf "$tmp"; return 1; }
	mkdir -p "$tools"
	install -m 0755 "$tmp/usr/bin/promtool" "$tools/promtool"
	rm -rf "$tmp"
	"$tools/promtool" --version >/dev/null
}

missing=""
for p in $list; do
	case " $missing " in *" $p "*) continue ;; esac
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && { [ "$group" != test ] || install_promtool; exit 0; }

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages for $group:$missing; run as root or: apt-get install$missing" >&2
	exit 1
fi
echo "deps: installing for $group:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
[ "$group" != test ] || install_promtool
