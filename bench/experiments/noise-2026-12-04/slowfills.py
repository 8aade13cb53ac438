#!/usr/bin/env python3
"""Slow fills of the dirtier over every recorded run in the source tree (bench/results and
each bench/experiments/**/results): per swap mode and setting, how many of its dirtier runs
(warm-ups left out) spent 4 s or more filling free memory before the kernel first reclaimed
(compare.py says how that is read from ts/), and the same by the setting of the run before in
the same boot. Settings other than 60, 200 and default are pooled as "other"."""
import collections
import csv
import glob
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in the tree
sys.path.insert(0, here)
from compare import filling_s  # noqa: E402  (the same reading of ts/ as compare.py)

bench = os.path.normpath(os.path.join(here, '..', '..'))


def slow_fill(path):
    with open(path, newline='') as f:
        return filling_s(list(csv.DictReader(f))) >= 4


def name(s):
    return s if s in ('60', '200', 'default') else 'other'


own, own_n = collections.Counter(), collections.Counter()
after, after_n = collections.Counter(), collections.Counter()
for runs in sorted(glob.glob(os.path.join(bench, '**', 'results', 'runs.csv'), recursive=True)):
    res = os.path.dirname(runs)
    with open(runs, newline='') as f:
        rows = [r for r in csv.DictReader(f) if r['workload'] == 'dirtier']
    for swap in ('disk', 'zram'):
        seq = sorted((r for r in rows if r['swap'] == swap), key=lambda r: int(r['seq']))
        for i, r in enumerate(seq):
            if r['warmup'] != '0':
                continue
            ts = os.path.join(res, 'ts', f"{swap}-dirtier-{r['setting']}-{r['rep']}.csv")
            if not os.path.exists(ts):
                continue
            slow = slow_fill(ts)
            k = (swap, r['setting'])
            own_n[k] += 1
            own[k] += slow
            if i > 0:
                k2 = (name(seq[i - 1]['setting']), name(r['setting']))
                after_n[k2] += 1
                after[k2] += slow
print("slow fills by the run's own setting (swap, setting: slow/runs)")
for k in sorted(own_n):
    print(f"  {k[0]} {k[1]}: {own[k]}/{own_n[k]}")
print("slow fills by the setting of the run before it in the boot (before -> this: slow/runs)")
for k in sorted(after_n):
    print(f"  {k[0]} -> {k[1]}: {after[k]}/{after_n[k]}")
