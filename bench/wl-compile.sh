#!/bin/bash
# Workloads 2 and 3, seeds 000 and 004 (Vine, Morton): `make -j COMPILE_JOBS` of the
# project's own C sources (src/: the daemon, compiled at -O2 -g and linked), COMPILE_COPIES
# copies, in a fresh directory on the root disk, beside COMPILE_IDLE_MIB of idle anonymous
# memory (the rest of a small machine's load), so that the build's peak does not fit in RAM.
# With COMPILE_STREAM=1, a recursive read of the data disk's tree (larger than RAM, cold) runs
# beside it from the same moment (Morton's use-once test; cat rather than his grep -r, which
# under TCG would be bound by the emulated CPU rather than by the disk).
# RESULT: build_s; with the stream also stream_s and stream_mbps. MARK build: make's window.
set -euo pipefail
now() { cut -d' ' -f1 /proc/uptime; }
dir=/var/tmp/bench-build
rm -rf "$dir"
mkdir -p "$dir"
cp -r "$BENCH_SRC/src" "$BENCH_SRC/include" "$dir/"
cd "$dir"
{
	echo 'CFLAGS = -O2 -g -std=gnu11 -Wall -Iinclude'
	all=""
	for ((c = 1; c <= COMPILE_COPIES; c++)); do
		objs=""
		for f in src/*.c; do
			o=c$c/${f%.c}.o
			mkdir -p "$(dirname "$o")"
			printf '%s: %s\n\t$(CC) $(CFLAGS) -c -o $@ $<\n' "$o" "$f"
			objs+=" $o"
		done
		printf 'c%d/autoswappiness:%s\n\t$(CC) -o $@ $^ -lproc2 -linih -lsystemd\n' "$c" "$objs"
		all+=" c$c/autoswappiness"
	done
	echo "all:$all"
	echo '.DEFAULT_GOAL := all'
} >Makefile
# The rest of a small machine's load: idle applications holding COMPILE_IDLE_MIB.
if ((COMPILE_IDLE_MIB > 0)); then
	coproc IDLE { exec "$BENCH_BIN/anon" "$COMPILE_IDLE_MIB" idle; }
	read -r line <&"${IDLE[0]}"
	echo "$line"
fi
sync
stream_pid=
if [[ ${COMPILE_STREAM:-0} == 1 ]]; then
	tree_mb=$BENCH_TREE_MB
	(
		s=$(now)
		# cat, not grep: under TCG grep would be bound by the emulated CPU, not by the disk.
		find "$BENCH_DATA/tree" -type f -exec cat {} + >/dev/null
		e=$(now)
		awk -v s="$s" -v e="$e" -v mb="$tree_mb" 'BEGIN { printf "RESULT stream_s=%.2f stream_mbps=%.2f\n", e - s, mb / (e - s) }'
	) &
	stream_pid=$!
fi
s=$(now)
make -s -j "$COMPILE_JOBS" >/tmp/make.out 2>&1 || { cat /tmp/make.out; exit 1; }
e=$(now)
awk -v s="$s" -v e="$e" 'BEGIN { printf "RESULT build_s=%.2f\n", e - s }'
# make's window (CLOCK_BOOTTIME, as the sampler's): the report splits build_s at the first reclaim
# in it, and the setup before it (copy, the idle allocation, sync) is not in build_s.
echo "MARK build $s $e"
[[ -z $stream_pid ]] || wait "$stream_pid"
[[ -z ${IDLE_PID:-} ]] || { kill -TERM "$IDLE_PID"; wait "$IDLE_PID" || true; }
cd /
rm -rf "$dir"
