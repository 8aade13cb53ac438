#!/usr/bin/env bash
# Smoke test of the VM infrastructure and of the unit's sandbox, end to end:
# builds (or reuses) the guest image in ${BUILD_DIR:-build}/vm/VM_SUITE (trixie unless
# VM_SUITE=bookworm), boots it with
# tests/vm/smoke-guest.sh as guest.sh and systemd/autoswappiness.service beside it, and passes
# when every check in the guest passes. Prints how long the image build and the boot took.
#
#   tests/vm/smoke.sh            (from anywhere; BUILD_DIR is relative to the repository root)
#
# The share directory ${BUILD_DIR:-build}/vm-smoke keeps guest.log and console.log afterwards.
# Environment: as for boot.sh (VM_MEM_MB, VM_TIMEOUT, VM_VERBOSE, ...).
set -euo pipefail

die() { echo "smoke.sh: error: $*" >&2; exit 1; }

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$here/../.." && pwd)
cd -- "$repo" || die "cannot cd to $repo"
build=${BUILD_DIR:-build}
suite=${VM_SUITE:-trixie}
imagedir=$build/vm/$suite
sharedir=$build/vm-smoke

for f in "$here/recipe.sh" "$here/boot.sh" "$here/smoke-guest.sh" "$repo/systemd/autoswappiness.service"; do
	[[ -f $f ]] || die "$f is missing"
done

t0=$SECONDS
"$here/recipe.sh" "$imagedir" "$suite" || die "building the guest image in $imagedir failed"
build_s=$((SECONDS - t0))

rm -rf -- "$sharedir"
mkdir -p -- "$sharedir" || die "cannot create $sharedir"
install -m 0755 "$here/smoke-guest.sh" "$sharedir/guest.sh" || die "cannot copy smoke-guest.sh to $sharedir"
install -m 0644 "$repo/systemd/autoswappiness.service" "$sharedir/" || die "cannot copy the unit to $sharedir"

t1=$SECONDS
rc=0
"$here/boot.sh" "$imagedir" "$sharedir" || rc=$?
boot_s=$((SECONDS - t1))

echo "--- guest.log ($sharedir/guest.log)"
cat -- "$sharedir/guest.log" 2>/dev/null || echo "(none)"
echo "---"
guest_start=$(sed -n 's/^.*vm-test: running .* at \([0-9.]*\) s.*$/\1/p; s/^info: guest.sh started at \([0-9.]*\) s of uptime.*$/\1/p' \
	"$sharedir/guest.log" 2>/dev/null | head -n 1)
echo "timing: image build ${build_s} s (0-1 s means the cached image was current)"
echo "timing: kernel start to guest.sh ${guest_start:-?} s of guest uptime; whole VM run ${boot_s} s (qemu start to power-off)"
if [[ $rc -ne 0 ]]; then
	echo "smoke.sh: FAILED: the guest exited $rc (see above and $sharedir/console.log)" >&2
	exit 1
fi
echo "smoke.sh: passed"
