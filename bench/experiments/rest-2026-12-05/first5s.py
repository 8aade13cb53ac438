#!/usr/bin/env python3
"""File pages refaulted in the first 5 s of reclaim and after them, run by run, with the knob
in those 5 s: the second table of README.md. A run's reclaim starts at the first row of its
ts/ with 1,000 pages scanned or more; a build counts to the end of make (MARK build in
logs/), the dirtier to the end of its time series. Usage, from the source tree:

    python3 bench/experiments/rest-2026-12-05/first5s.py bench/results \\
        bench/experiments/rest-2026-12-05/{zram,disk}-{new,old}/results
"""

import csv
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from benchreport import load  # noqa: E402

FIRST_S = 5
SCANNED = 1000


def split(ts, window):
    """(refaults in the first FIRST_S s of reclaim, after them, the knob in those seconds)."""
    with open(ts) as f:
        rows = list(csv.DictReader(f))
    start = None
    early = late = 0
    knob = []
    for prev, r in zip(rows, rows[1:]):
        t = float(r["t"])
        if window and not window[0] <= t <= window[1] + 1:
            continue
        if start is None and int(r["pgscan"]) - int(prev["pgscan"]) >= SCANNED:
            start = t
        if start is None:
            continue
        refaults = int(r["refault_file"]) - int(prev["refault_file"])
        if t - start < FIRST_S:
            early += refaults
            knob.append(prev["swappiness"])
        else:
            late += refaults
    return early, late, knob


def main(dirs):
    for d in dirs:
        print(d)
        data = load.Data(d)
        for swap in ("zram", "disk"):
            for wl in ("compile", "dirtier"):
                for setting in ("default", "200"):
                    for r in sorted(data.runs_of(swap, wl, setting), key=lambda r: int(r["rep"])):
                        tag = f"{wl}-{setting}-{r['rep']}"
                        ts = data.ts_path(swap, tag)
                        if not os.path.exists(ts):
                            continue
                        window = next(((a, b) for name, a, b in data.marks(swap, tag) if name == "build"), None)
                        early, late, knob = split(ts, window if wl == "compile" else None)
                        print(f"  {os.path.basename(ts):28} first {FIRST_S} s: {early:5d} file refaults "
                              f"(knob {' '.join(knob)}); after: {late:5d}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["bench/results"])
