#!/usr/bin/env python3
"""The figures of README.md, from the raw results of each run named on the command line
(default: every subdirectory with results/): per workload and setting the median and the
coefficient of variation of the headline time; their root mean square over the settings;
the spread of the guest's pace; and, per dirtier run, the seconds in which the dirtier filled
free memory before the kernel first reclaimed (1 s samples of ts/: free memory fell by more
than 1 MiB, no page scanned yet). A fill is quick (1-3 s); 4 s or more is a slow one."""
import csv
import glob
import math
import os
import statistics as st
import sys

HEAD = {'compile': 'build_s', 'dirtier': 'dirtier_total_s'}


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def filling_s(ts):
    """The seconds of ts (a run's 1 s samples) in which free memory fell by more than 1 MiB,
    before the first with pages scanned."""
    n = 0
    for a, b in zip(ts, ts[1:]):
        if int(b['pgscan']) > int(a['pgscan']):
            break
        if int(a['memfree_kb']) - int(b['memfree_kb']) > 1024:
            n += 1
    return n


def run(d):
    res = os.path.join(d, 'results')
    vals = {}
    for r in rows(os.path.join(res, 'metrics.csv')):
        if r['warmup'] == '0' and HEAD.get(r['workload']) == r['metric']:
            vals.setdefault((r['workload'], r['setting']), []).append(float(r['value']))
    print(f"## {os.path.basename(os.path.normpath(d))}")
    cvs = {}
    for (w, s), v in sorted(vals.items()):
        cv = st.stdev(v) / st.mean(v)
        cvs.setdefault(w, []).append(cv)
        print(f"  {w:8} {s:8} n={len(v)} median {st.median(v):6.2f} s  CV {cv:.3f}")
    for w, l in sorted(cvs.items()):
        print(f"  {w}: CV, root mean square over {len(l)} settings: {math.sqrt(sum(c * c for c in l) / len(l)):.3f}")
    pace = {}
    fills = []
    for r in rows(os.path.join(res, 'runs.csv')):
        if r['warmup'] != '0':
            continue
        ts = rows(os.path.join(res, 'ts', f"{r['swap']}-{r['workload']}-{r['setting']}-{r['rep']}.csv"))
        p = [float(x['pace_us']) for x in ts if x['pace_us']]
        pace.setdefault(r['workload'], []).append(st.mean(p))
        if r['workload'] == 'dirtier':
            fills.append((filling_s(ts), f"{r['setting']} rep {r['rep']}"))
    for w, p in sorted(pace.items()):
        med = st.median(p)
        rel = [x / med for x in p]
        print(f"  {w}: guest pace against its median, {len(p)} runs: {min(rel):.2f}-{max(rel):.2f}, SD {st.stdev(rel):.3f}")
    slow = [f"{name} ({n} s)" for n, name in fills if n >= 4]
    print(f"  dirtier: filling seconds {sorted(n for n, _ in fills)}; slow fills: {len(slow)} of {len(fills)}"
          + (": " + ", ".join(slow) if slow else ""))


if __name__ == '__main__':
    here = os.path.dirname(os.path.abspath(__file__))
    for d in sys.argv[1:] or sorted(os.path.dirname(p) for p in glob.glob(os.path.join(here, '*', 'results'))):
        run(d)
