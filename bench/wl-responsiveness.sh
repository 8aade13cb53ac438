#!/bin/bash
# Workload 4, seed 001 (Fremlin): RESP_CROWD small processes holding RESP_CROWD_KIB each
# (touched about once a second), a heavy dirtier of RESP_DIRTIER_MIB for RESP_DIRTIER_PASSES
# passes, and the probe touching its RESP_PROBE_KIB every RESP_PROBE_MS while the dirtier runs
# (10 ms: about 2,000 samples in a 20 s run, so that p99 is a percentile, not the maximum).
# RESULT: probe_p50_ms, probe_p99_ms, probe_max_ms, probe_over100_ms, probe_n, and the heavy
# dirtier's dirtier_total_s and dirtier_first_s. Stopped at the time limit (SIGTERM), it
# still prints the probe's figures over the samples it took until then.
set -euo pipefail
probe=
finish() {
	local rc=$?
	if [[ -n $probe ]]; then
		kill -TERM "$probe" 2>/dev/null || true
		wait "$probe" 2>/dev/null || true
	fi
	kill $(jobs -p) 2>/dev/null || true
	wait 2>/dev/null || true
	grep '^RESULT ' /tmp/probe.out 2>/dev/null || true
	exit "$rc"
}
trap finish EXIT
trap 'exit 143' TERM
rm -f /tmp/probe.out /tmp/dirtier.out
coproc CROWD { exec "$BENCH_BIN/crowd" "$RESP_CROWD" "$RESP_CROWD_KIB" 1000; }
read -r line <&"${CROWD[0]}"
echo "$line"
# 3600 s: an upper bound only; the probe stops when the dirtier is done.
"$BENCH_BIN/probe" 3600 "$RESP_PROBE_KIB" "$RESP_PROBE_MS" >/tmp/probe.out &
probe=$!
"$BENCH_BIN/dirtier" "$RESP_DIRTIER_MIB" "$RESP_DIRTIER_PASSES" >/tmp/dirtier.out
cat /tmp/dirtier.out
sed -n 's/^dirtier: .* total \([0-9.]*\) s, first \([0-9.]*\) s, .*$/RESULT dirtier_total_s=\1 dirtier_first_s=\2/p' /tmp/dirtier.out
