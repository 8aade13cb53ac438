#!/bin/bash
# Workload 4, seed 001 (Fremlin): RESP_CROWD small processes holding RESP_CROWD_KIB each
# (touched about once a second), a heavy dirtier of RESP_DIRTIER_MIB for RESP_DIRTIER_PASSES
# passes, and the probe touching its RESP_PROBE_KIB every 100 ms while the dirtier runs.
# RESULT: probe_p50_ms, probe_p99_ms, probe_max_ms, probe_over100_ms, probe_n, and
# dirtier_median_s of the heavy dirtier.
set -euo pipefail
cleanup() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
coproc CROWD { exec "$BENCH_BIN/crowd" "$RESP_CROWD" "$RESP_CROWD_KIB" 1000; }
read -r line <&"${CROWD[0]}"
echo "$line"
"$BENCH_BIN/probe" 100000 "$RESP_PROBE_KIB" 100 >/tmp/probe.out &
probe=$!
"$BENCH_BIN/dirtier" "$RESP_DIRTIER_MIB" "$RESP_DIRTIER_PASSES" >/tmp/dirtier.out
kill -TERM "$probe"
wait "$probe" || true
cat /tmp/dirtier.out
grep '^RESULT ' /tmp/probe.out
sed -n 's/^dirtier: .* median \([0-9.]*\) s, .*$/RESULT dirtier_median_s=\1/p' /tmp/dirtier.out
