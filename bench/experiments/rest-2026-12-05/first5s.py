#!/usr/bin/env python3
"""File pages refaulted in the first 5 s of reclaim and after them, run by run, with the knob
in those 5 s: the second table of README.md. A run's reclaim starts at the first row of its
ts/ with 1,000 pages scanned or more; a build counts to the end of make (MARK build in
logs/), the dirtier to the end of its time series. Usage, from the source tree:

    python3 bench/experiments/rest-2026-12-05/first5s.py bench/results \\
        bench/experiments/rest-2026-12-05/{zram,disk}-{new,old}/results
"""

import csv
import glob
import os
import re
import sys

FIRST_S = 5
SCANNED = 1000


def build_window(log):
    """make's window (MARK build START END) from a run's log, or None."""
    with open(log) as f:
        for line in f:
            m = re.match(r"MARK build ([\d.]+) ([\d.]+)", line)
            if m:
                return float(m.group(1)), float(m.group(2))
    return None


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
        for swap in ("zram", "disk"):
            for wl in ("compile", "dirtier"):
                for setting in ("default", "200"):
                    for ts in sorted(glob.glob(os.path.join(d, "ts", f"{swap}-{wl}-{setting}-[0-9].csv"))):
                        window = None
                        if wl == "compile":
                            log = os.path.join(d, "logs", os.path.basename(ts)[:-4] + ".log")
                            window = build_window(log)
                        early, late, knob = split(ts, window)
                        print(f"  {os.path.basename(ts):28} first {FIRST_S} s: {early:5d} file refaults "
                              f"(knob {' '.join(knob)}); after: {late:5d}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["bench/results"])
