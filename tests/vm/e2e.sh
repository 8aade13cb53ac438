#!/bin/bash
# End-to-end test: builds (or reuses) the guest image of VM_SUITE (trixie, the
# default: Debian 13, kernel 6.12, multi-gen LRU; or bookworm: Debian 12, kernel
# 6.1, classic LRU) in $BUILD_DIR/vm/VM_SUITE, hands the Debian package ($DEB,
# from `make deb`; make check-vm builds it) to the guest, boots it under qemu and
# runs tests/vm/guest-e2e.sh there, which installs the package with apt as a user
# would. Fails loudly without qemu.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=$(realpath -m "${BUILD_DIR:-$TOP/build}")
SUITE=${VM_SUITE:-trixie}
IMAGE=$BUILD_DIR/vm/$SUITE
cd "$TOP"

# A package is built for the release it is built on: one built on Debian 13 depends on trixie's
# library versions and cannot install on Debian 12. That pair is skipped, and says so.
host_ver=$(. /etc/os-release && [ "${ID:-}" = debian ] && echo "${VERSION_ID:-}" || true)
case $SUITE in bookworm) guest_ver=12 ;; trixie) guest_ver=13 ;; *) guest_ver= ;; esac
if [ -n "$host_ver" ] && [ -n "$guest_ver" ] && [ "$host_ver" -gt "$guest_ver" ]; then
	echo "e2e: SKIP: the $SUITE guest (Debian $guest_ver) cannot install a package built on this Debian $host_ver host"
	exit 0
fi
"$TOP/tests/vm/recipe.sh" "$IMAGE" "$SUITE"
echo "e2e: the $SUITE guest"
SHARE=$(mktemp -d /tmp/autoswappiness-e2e.XXXXXX)
trap 'rm -rf "$SHARE"' EXIT
if [[ -z ${DEB:-} ]]; then
	DEB=$(ls -1 build/deb/autoswappiness_*.deb 2>/dev/null | tail -n 1)
fi
[[ -n $DEB && -f $DEB ]] || { echo "e2e: FAIL: no package '${DEB:-build/deb/autoswappiness_*.deb}': run make deb"; exit 1; }
cp -- "$DEB" "$SHARE/"
cc -O2 -Wall -Wextra -o "$SHARE/dirtier" bench/dirtier.c
cp tests/vm/guest-e2e.sh "$SHARE/guest.sh"
chmod +x "$SHARE/guest.sh"
rc=0
t0=$SECONDS
VM_MEM_MB=${VM_MEM_MB:-512} VM_TIMEOUT=${VM_TIMEOUT:-1500} "$TOP/tests/vm/boot.sh" "$IMAGE" "$SHARE" || rc=$?
echo "e2e: the $SUITE guest's boot took $((SECONDS - t0)) s"
if [ -f "$SHARE/guest.log" ]; then
	cat "$SHARE/guest.log"
else
	echo "e2e: FAIL: no guest.log (see the console tail above)"
fi
if [ $rc != 0 ] && [ -f "$SHARE/console.log" ]; then
	echo "--- last 30 console lines"
	tail -n 30 "$SHARE/console.log"
fi
# The guest has no Prometheus parser: the textfile it wrote is checked here.
if [ $rc = 0 ]; then
	if [ -s "$SHARE/metrics.prom" ]; then
		/usr/bin/python3 "$TOP/tests/prom_check.py" "$SHARE/metrics.prom" || rc=1
		# Prometheus's own lint (promtool from scripts/deps.sh): it must say nothing.
		if ! out=$("$TOP/build/tools/promtool" check metrics <"$SHARE/metrics.prom" 2>&1) || [ -n "$out" ]; then
			echo "e2e: FAIL: promtool check metrics: ${out:-failed}"
			rc=1
		else
			echo "e2e: promtool check metrics: no complaints"
		fi
	else
		echo "e2e: FAIL: the guest left no metrics.prom to check"
		rc=1
	fi
fi
exit $rc
