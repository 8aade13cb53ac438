#!/bin/bash
# Workload 1, seed 003 (Arcangeli): dirty DIRTIER_MIB in 1 MiB chunks, DIRTIER_PASSES passes.
# RESULT: dirtier_median_s (passes 2..N), dirtier_min_s, dirtier_max_s, dirtier_first_s.
set -euo pipefail
"$BENCH_BIN/dirtier" "$DIRTIER_MIB" "$DIRTIER_PASSES" | tee /tmp/dirtier.out
first=$(sed -n 's/^pass 1: \([0-9.]*\) s$/\1/p' /tmp/dirtier.out)
sed -n "s/^dirtier: .* median \([0-9.]*\) s, min \([0-9.]*\) s, max \([0-9.]*\) s$/RESULT dirtier_median_s=\1 dirtier_min_s=\2 dirtier_max_s=\3 dirtier_first_s=$first/p" /tmp/dirtier.out
