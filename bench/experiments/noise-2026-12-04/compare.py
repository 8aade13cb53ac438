#!/usr/bin/env python3
"""The figures of README.md, from the raw results of each run named on the command line
(default: every subdirectory with results/), read as bench/report.py reads them
(bench/benchreport/load.py): per workload and setting the median and the coefficient of
variation of the headline time; their root mean square over the settings; the spread of the
guest's pace (Data.pace); and the dirtier runs with a slow fill: 4 s or more from the run's
start to the kernel's first reclaim (Data.before_reclaim; a quick fill takes 0-2.6 s)."""
import glob
import math
import os
import statistics as st
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from benchreport import model  # noqa: E402
from benchreport.load import Data  # noqa: E402

SLOW_FILL_S = 4


def slow_fills(d, swap, setting):
    """[(rep, seconds before the first reclaim)] of setting's dirtier runs, and how many of
    them were slow fills."""
    b = [(rep, before) for rep, before, _ in d.before_reclaim(swap, 'dirtier', setting)]
    return b, sum(before >= SLOW_FILL_S for _, before in b)


def run(path):
    d = Data(os.path.join(path, 'results'))
    print(f"## {os.path.basename(os.path.normpath(path))}")
    for swap in d.swaps:
        for wl in d.workloads:
            cvs = []
            for s in d.settings_of(wl):
                v = list(d.by_rep(swap, wl, s, model.headline(wl).name).values())
                cv = st.stdev(v) / st.mean(v)
                cvs.append(cv)
                print(f"  {wl:8} {s:8} n={len(v)} median {st.median(v):6.2f} s  CV {cv:.3f}")
            print(f"  {wl}: CV, root mean square over {len(cvs)} settings: {math.sqrt(sum(c * c for c in cvs) / len(cvs)):.3f}")
            pace = [p for s in d.settings_of(wl) for _, p in d.pace(swap, wl, s)]
            print(f"  {wl}: guest pace against its boot's median, {len(pace)} runs: "
                  f"{min(pace):.2f}-{max(pace):.2f}, SD {st.stdev(pace):.3f}")
        if 'dirtier' in d.workloads:
            slow, n = [], 0
            for s in d.settings_of('dirtier'):
                b, _ = slow_fills(d, swap, s)
                n += len(b)
                slow += [f"{s} rep {rep} ({before:.1f} s)" for rep, before in b if before >= SLOW_FILL_S]
            print(f"  dirtier: slow fills {len(slow)} of {n}" + (": " + ", ".join(slow) if slow else ""))


if __name__ == '__main__':
    here = os.path.dirname(os.path.abspath(__file__))
    for p in sys.argv[1:] or sorted(os.path.dirname(p) for p in glob.glob(os.path.join(here, '*', 'results'))):
        run(p)
