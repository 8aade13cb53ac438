#!/usr/bin/env python3
"""The figures of README.md, from the raw results of before/ and after/ (or the run
directories named on the command line): for each responsiveness run, the file refaults
over the run's window (runs.csv t0..t1, from the one-a-second samples of ts/), the mean of
Mapped over it, and the range of vm.swappiness the daemon held; then per setting the median
of the refaults."""
import csv
import os
import statistics as st
import sys

WORKLOAD = 'responsiveness'


def run(path):
    res = os.path.join(path, 'results')
    print(f"## {os.path.basename(os.path.normpath(path))}")
    with open(os.path.join(res, 'runs.csv'), newline='') as f:
        runs = [r for r in csv.DictReader(f) if r['workload'] == WORKLOAD and r['warmup'] != '1']
    by_setting = {}
    for r in runs:
        t0, t1 = float(r['t0']), float(r['t1'])
        ts = os.path.join(res, 'ts', f"{r['swap']}-{WORKLOAD}-{r['setting']}-{r['rep']}.csv")
        with open(ts, newline='') as f:
            rows = [x for x in csv.DictReader(f) if t0 <= float(x['t']) <= t1]
        refaults = int(rows[-1]['refault_file']) - int(rows[0]['refault_file'])
        mapped = st.mean(int(x['mapped_kb']) for x in rows) / 1024
        knob = [int(x['swappiness']) for x in rows]
        by_setting.setdefault(r['setting'], []).append(refaults)
        print(f"  {r['setting']:8} rep {r['rep']}: file refaults {refaults:6d}, Mapped {mapped:4.1f} MiB, "
              f"vm.swappiness {min(knob)}..{max(knob)} (median {st.median(knob):.0f})")
    for s, v in by_setting.items():
        print(f"  {s:8} median file refaults {st.median(v):.0f} ({len(v)} runs)")


here = os.path.dirname(os.path.abspath(__file__))
for p in sys.argv[1:] or [os.path.join(here, 'before'), os.path.join(here, 'after')]:
    run(p)
