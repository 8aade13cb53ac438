#!/usr/bin/env python3
"""Slow fills of the dirtier over every recorded run in the source tree (bench/results and
each bench/experiments/**/results): per swap mode and setting, how many of its counted
dirtier runs took 4 s or more from their start to the kernel's first reclaim (compare.py's
reading, Data.before_reclaim of bench/benchreport/load.py)."""
import collections
import glob
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the tree
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from compare import Data, slow_fills  # noqa: E402

bench = os.path.normpath(os.path.join(here, '..', '..'))
slow, runs = collections.Counter(), collections.Counter()
for f in sorted(glob.glob(os.path.join(bench, '**', 'results', 'runs.csv'), recursive=True)):
    d = Data(os.path.dirname(f))
    if 'dirtier' not in d.workloads:
        continue
    for swap in d.swaps:
        for s in d.settings_of('dirtier'):
            b, k = slow_fills(d, swap, s)
            runs[(swap, s)] += len(b)
            slow[(swap, s)] += k
print("slow fills by the run's own setting (swap, setting: slow/runs)")
for k in sorted(runs):
    print(f"  {k[0]} {k[1]}: {slow[k]}/{runs[k]}")
