#!/bin/bash
# Workload 5: two phases that want opposite swappiness.
#  phase 1: PHASED_IDLE_MIB of idle anonymous memory, and the hot file set (BENCH_DATA/hot)
#           read PHASED_ROUNDS times: a high swappiness swaps the idle memory out and keeps
#           the files cached; a low one re-reads the files from disk every round.
#  phase 2: PHASED_ACTIVE_MIB of anonymous memory touched for PHASED_ACTIVE_S seconds while
#           the cold file (BENCH_DATA/cold) is streamed once (for at most 2 x PHASED_ACTIVE_S): a low swappiness keeps the
#           working set in and lets the stream go; a high one swaps the working set.
# RESULT: phase1_s (all rounds), phase1_round_median_s, phase2_anon_mbps, phase2_stream_s,
# phase2_stream_mbps. MARK lines give each phase's CLOCK_BOOTTIME window for the time series.
set -euo pipefail
now() { cut -d' ' -f1 /proc/uptime; }
cleanup() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT

coproc IDLE { exec "$BENCH_BIN/anon" "$PHASED_IDLE_MIB" idle; }
read -r line <&"${IDLE[0]}"
echo "$line"
p1=$(now)
rounds=""
for ((r = 1; r <= PHASED_ROUNDS; r++)); do
	s=$(now)
	cat "$BENCH_DATA"/hot/* >/dev/null
	e=$(now)
	rounds+=" $(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')"
	echo "round $r: ${rounds##* } s"
done
p1e=$(now)
kill -TERM "$IDLE_PID"
wait "$IDLE_PID" || true
echo "MARK phase1 $p1 $p1e"
median=$(tr ' ' '\n' <<<"$rounds" | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
awk -v s="$p1" -v e="$p1e" -v m="$median" 'BEGIN { printf "RESULT phase1_s=%.2f phase1_round_median_s=%s\n", e - s, m }'

p2=$(now)
# The stream starts once the working set is allocated and the anon program starts its clock.
coproc ACTIVE { exec "$BENCH_BIN/anon" "$PHASED_ACTIVE_MIB" active "$PHASED_ACTIVE_S"; }
anon=$ACTIVE_PID
exec {afd}<&"${ACTIVE[0]}"
read -r line <&"$afd"
echo "$line"
# At most twice the anon run: a thrashing machine would otherwise stream for minutes. dd
# reports the bytes it read when the time is up (SIGINT) as when it reaches the end.
s=$(now)
timeout -s INT $((2 * PHASED_ACTIVE_S)) dd if="$BENCH_DATA/cold" of=/dev/null bs=1M 2>/tmp/dd.err || true
e=$(now)
bytes=$(sed -n 's/^\([0-9]*\) bytes.*copied.*$/\1/p' /tmp/dd.err | tail -n 1)
cat <&"$afd" >/tmp/anon.out
wait "$anon" || true
p2e=$(now)
cat /tmp/anon.out
echo "MARK phase2 $p2 $p2e"
sed -n 's/^RESULT anon_mbps=\([0-9.]*\).*$/RESULT phase2_anon_mbps=\1/p; s/^RESULT anon_passes=[0-9]* anon_mbps=\([0-9.]*\).*$/RESULT phase2_anon_mbps=\1/p' /tmp/anon.out
awk -v s="$s" -v e="$e" -v b="${bytes:-0}" 'BEGIN { printf "RESULT phase2_stream_s=%.2f phase2_stream_mbps=%.2f\n", e - s, b / 1048576 / (e - s) }'
