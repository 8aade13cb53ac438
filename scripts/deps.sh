#!/bin/sh
# Installs, with apt, whatever the build and the tests need and the machine
# lacks. Quiet and quick when everything is there. Debian 12 / Ubuntu 24.04.
set -eu

PACKAGES="make gcc libc6-dev pkg-config libproc2-dev libinih-dev libsystemd-dev systemd
libcmocka-dev mandoc valgrind util-linux mount clang libclang-rt-dev python3 python3-prometheus-client
qemu-system-x86 qemu-utils debootstrap e2fsprogs gnuplot-nox"

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
