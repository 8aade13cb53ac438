#!/bin/bash
# Measures the PSI trigger in the VM (issue 13 item 3): for each psi_trigger_ms, the time from
# the first 10 ms of memory stall to the daemon's next poll, and its wake-ups on an idle guest.
# One boot for all values (tests/vm/guest-psi-reaction.sh); not part of `make check`.
#
#   tests/vm/psi-reaction.sh [OUTDIR]
#
# Environment: PSI_VALUES="200 100 50 20", PSI_ROUNDS=4 (spikes per value), PSI_IDLE_S=25
# (idle seconds counted per round and value), PSI_INTERVAL_MS (interval_ms in the guest; e.g.
# 60000 leaves the trigger alone to wake the daemon; default: the shipped one), DEB (default: the newest build/deb/*.deb),
# VM_TIMEOUT (default 3000), VM_SUITE (the guest: trixie, the default, or bookworm). OUTDIR (default build/psi-reaction) receives events.tsv,
# journal.json, guest.log and console.log; tests/vm/psi_reaction.py prints the figures.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=${VM_SUITE:-trixie}
IMAGE=$TOP/build/vm/$SUITE
OUT=$(realpath -m "${1:-$TOP/build/psi-reaction}")
cd "$TOP"

"$TOP/tests/vm/recipe.sh" "$IMAGE" "$SUITE"
SHARE=$(mktemp -d /tmp/autoswappiness-psi.XXXXXX)
trap 'rm -rf "$SHARE"' EXIT
if [[ -z ${DEB:-} ]]; then
	DEB=$(ls -1 build/deb/autoswappiness_*.deb 2>/dev/null | tail -n 1)
fi
[[ -n $DEB && -f $DEB ]] || { echo "psi-reaction: no package '${DEB:-build/deb/autoswappiness_*.deb}': run make deb"; exit 1; }
cp -- "$DEB" "$SHARE/"
cc -O2 -Wall -Wextra -o "$SHARE/dirtier" bench/dirtier.c
cp tests/vm/guest-psi-reaction.sh "$SHARE/guest.sh"
chmod +x "$SHARE/guest.sh"
echo "${PSI_VALUES:-200 100 50 20}" >"$SHARE/values"
echo "${PSI_ROUNDS:-4}" >"$SHARE/rounds"
echo "${PSI_IDLE_S:-25}" >"$SHARE/idle_s"
[[ -z ${PSI_INTERVAL_MS:-} ]] || echo "$PSI_INTERVAL_MS" >"$SHARE/interval_ms"
rc=0
VM_MEM_MB=512 VM_TIMEOUT=${VM_TIMEOUT:-3000} "$TOP/tests/vm/boot.sh" "$IMAGE" "$SHARE" || rc=$?
mkdir -p "$OUT"
for f in events.tsv journal.json guest.log console.log values interval_ms; do
	[[ -f $SHARE/$f ]] && cp -- "$SHARE/$f" "$OUT/"
done
[[ $rc == 0 ]] || { echo "psi-reaction: the guest failed ($rc); what it left is in $OUT"; exit "$rc"; }
/usr/bin/python3 "$TOP/tests/vm/psi_reaction.py" "$OUT"
