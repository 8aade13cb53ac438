#!/bin/bash
# Workload 4, seed 001 (Fremlin): RESP_CROWD small processes holding RESP_CROWD_KIB each
# (touched about once a second), a heavy dirtier of RESP_DIRTIER_MIB writing pass after pass,
# and the probe touching its RESP_PROBE_KIB every RESP_PROBE_MS, both for RESP_WINDOW_S
# seconds once the crowd is up. A fixed window, not a fixed number of passes: the probe's
# percentiles cover the same time under every setting (5 ms over 20 s: up to 4,000 samples,
# and 1,000-1,500 in the try-out's worst runs, where wake-ups came late, so that p99 is a
# percentile, not the maximum), and a run that thrashes (zram
# under TCG did, for minutes) costs no more than the others. Both programs stop themselves
# by their own clocks. RESULT: probe_p50_ms, probe_p99_ms, probe_max_ms, probe_over100_ms,
# probe_n, dirtier_written_mib (what the heavy dirtier wrote in the window) and, when it
# finished one, dirtier_first_s. Stopped early (SIGTERM at the time limit), it still prints
# the probe's figures over the samples it took.
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
"$BENCH_BIN/probe" "$RESP_WINDOW_S" "$RESP_PROBE_KIB" "$RESP_PROBE_MS" >/tmp/probe.out &
probe=$!
# 100000 passes: the window ends it.
"$BENCH_BIN/dirtier" "$RESP_DIRTIER_MIB" 100000 "$RESP_WINDOW_S" >/tmp/dirtier.out
cat /tmp/dirtier.out
sed -n 's/^dirtier: wrote \([0-9]*\) MiB in .*$/RESULT dirtier_written_mib=\1/p; s/^dirtier: .* passes: total [0-9.]* s, first \([0-9.]*\) s, .*$/RESULT dirtier_first_s=\1/p' /tmp/dirtier.out
wait "$probe" || true
probe=
