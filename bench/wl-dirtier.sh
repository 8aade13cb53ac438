#!/bin/bash
# Workload 1, seed 003 (Arcangeli): dirty DIRTIER_MIB in 1 MiB chunks, DIRTIER_PASSES passes.
# RESULT: dirtier_total_s (the whole run: every pass), dirtier_first_s (pass 1, which also
# faults the memory in), dirtier_rest_median_s (median of passes 2..N).
set -euo pipefail
"$BENCH_BIN/dirtier" "$DIRTIER_MIB" "$DIRTIER_PASSES" | tee /tmp/dirtier.out
sed -n 's/^dirtier: .* total \([0-9.]*\) s, first \([0-9.]*\) s, median of passes 2..N \([0-9.]*\) s$/RESULT dirtier_total_s=\1 dirtier_first_s=\2 dirtier_rest_median_s=\3/p' /tmp/dirtier.out
