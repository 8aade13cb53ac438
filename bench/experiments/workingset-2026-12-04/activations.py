#!/usr/bin/env python3
"""Per setting, the medians over the repetitions of each run's refaults and activations
(workingset_refault_* and workingset_activate_*, from the time series: the last sample
in the run's window less the first) and reclaim by kind (pgsteal_anon/_file).

    activations.py RESULTS_DIR [SWAP/WORKLOAD ...]"""
import csv
import os
import statistics
import sys

COLS = ("refault_anon", "activate_anon", "refault_file", "activate_file", "steal_anon", "steal_file")


def main(results, only):
    runs = {}
    with open(os.path.join(results, "runs.csv")) as f:
        for r in csv.DictReader(f):
            if r["warmup"] != "1" and r["rc"] == "0":
                runs[(r["swap"], r["workload"], r["setting"], r["rep"])] = (float(r["t0"]), float(r["t1"]))
    agg = {}
    for (swap, wl, s, rep), (t0, t1) in runs.items():
        if only and f"{swap}/{wl}" not in only:
            continue
        path = os.path.join(results, "ts", f"{swap}-{wl}-{s}-{rep}.csv")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            rows = [r for r in csv.DictReader(f) if t0 - 0.5 <= float(r["t"]) <= t1 + 1]
        if len(rows) < 2 or rows[0].get("activate_anon") in (None, "", "-1"):
            continue
        agg.setdefault((swap, wl, s), []).append({c: float(rows[-1][c]) - float(rows[0][c]) for c in COLS})
    print("| swap | workload | setting | runs | " + " | ".join(c.replace("_", " ") for c in COLS) + " |")
    print("| --- | --- | --- | --- |" + " --- |" * len(COLS))
    for (swap, wl, s), ds in sorted(agg.items()):
        med = [statistics.median(d[c] for d in ds) for c in COLS]
        print(f"| {swap} | {wl} | {s} | {len(ds)} | " + " | ".join(f"{m:,.0f}" for m in med) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
