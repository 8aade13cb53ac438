#!/usr/bin/env python3
"""Turn the raw results of bench/run.sh into bench/RESULTS.md, CSV tables and gnuplot PNGs.

    bench/report.py RESULTS_DIR BENCH_DIR

RESULTS_DIR (bench/results for a full run) holds runs.csv, metrics.csv, cost.csv, ts/, logs/,
configs/, host-info.txt and guest-info-*.txt as the guests and bench/run.sh wrote them.
Writes BENCH_DIR/RESULTS.md, BENCH_DIR/results/ (targets.csv, against60.csv, summary.csv,
default-policy.txt; the raw tables too when RESULTS_DIR is elsewhere), BENCH_DIR/plots/*.png,
and the block between the bench markers of README.md next to BENCH_DIR. Every number in them
comes from RESULTS_DIR. Standard library only, plus the gnuplot program. The parts live in
bench/benchreport/ (see its __init__.py).
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchreport import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main.main(sys.argv[1:]))
