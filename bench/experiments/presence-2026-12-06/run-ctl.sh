#!/bin/bash
# Pause the LRU bench at its next boot boundary, run the presence control, resume the LRU bench.
set -u
log=/work/notes/bench-lru.log
start=$(wc -l <"$log")
echo "ctl: waiting for the boot to end ($(date -u +%T))"
until tail -n +"$start" "$log" | grep -q "took [0-9]* s"; do sleep 5; done
pid=$(pgrep -f "^make bench" | head -1)
pg=$(ps -o pgid= -p "$pid" | tr -d ' ')
echo "ctl: stopping the LRU bench (make pid $pid, pgid $pg) at $(date -u +%T)"
kill -TERM -- "-$pg"
while pgrep -f qemu-system >/dev/null || pgrep -f "bench/run.sh" >/dev/null; do sleep 2; done
echo "ctl: LRU bench stopped $(date -u +%T)"
cd /work/wt-bench || exit 1
export COST_CROWDS= BENCH_REPS=5 BENCH_SWAP=disk BENCH_OUT=build/bench-ctl
BENCH_RAW=/work/notes/ctl/raw-phased BENCH_REPORT_DIR=/work/notes/ctl/report-phased \
BENCH_STATICS="60 100" BENCH_EXTRA_CONFIGS="/work/notes/ctl/pinned-60.conf /work/notes/ctl/pinned-100.conf" \
BENCH_WORKLOADS=phased BENCH_LRU="classic mglru" make bench
echo "ctl: phased control done rc=$? $(date -u +%T)"
BENCH_RAW=/work/notes/ctl/raw-resp BENCH_REPORT_DIR=/work/notes/ctl/report-resp \
BENCH_STATICS="60" BENCH_EXTRA_CONFIGS="/work/notes/ctl/pinned-60.conf" \
BENCH_WORKLOADS=responsiveness BENCH_LRU="mglru" make bench
echo "ctl: responsiveness control done rc=$? $(date -u +%T)"
unset COST_CROWDS BENCH_REPS BENCH_SWAP BENCH_OUT
echo "ctl: resuming the LRU bench $(date -u +%T)"
BENCH_RESUME=1 BENCH_RAW=bench/results-lru BENCH_REPORT_DIR=build/bench-lru make bench >>"$log" 2>&1
