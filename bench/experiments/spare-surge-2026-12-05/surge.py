#!/usr/bin/env python3
"""When would the rule that spares the cache fire, on two polls of evidence (the rule until
8584a03) and on one heavy poll (the alternative weighed here, the rule since)? Replays the
rule's evidence over the benchmark's time series (one row a second, like the daemon's busy
polls) of the responsiveness and dirtier workloads on disk swap. See README.md."""

import csv
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(os.path.dirname(HERE))
# include/policy.h
SWAPOUT_PPS, SWAPIN_PPS, WINDOW, VOTES, BACKOFF_S = 512, 128, 3, 2, 30
FLOOR_PCT, SWAP_FREE_PCT = 5, 50
SURGE_PPS = 2048  # POLICY_SPARE_SURGE_PPS: one poll with this many swap-outs a second counts as both votes

# The full run of 2026-12-05 (bench/RESULTS.md when this was written): its disk-swap time series of
# the two workloads, copied here so that a later full run does not change what this prints.
SOURCES = [("full run", os.path.join(HERE, "full-run-ts"))] + [
    ("presence " + os.path.basename(os.path.dirname(os.path.dirname(d))), d)
    for d in sorted(glob.glob(os.path.join(BENCH, "experiments", "presence-2026-12-05", "boot*", "results", "ts")))
] + [("presence-lock", os.path.join(BENCH, "experiments", "presence-lock-2026-12-05", "results", "ts")),
     ("old daemon", os.path.join(HERE, "dirtier-old", "results", "ts"))]


def first_rises(path):
    """(seconds into the run of the first two-vote rise, of the first one-poll rise, None for none;
    the swap-outs and swap-ins a second of the poll that makes the one-poll rise)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    t0 = float(rows[0]["t"])
    votes, backoff_until, two, one, at = [], -1.0, None, None, None
    for prev, row in zip(rows, rows[1:]):
        t = float(row["t"])
        dt = t - float(prev["t"])
        if dt <= 0:
            continue

        def rate(k):
            return (int(row[k]) - int(prev[k])) / dt

        out = rate("pswpout")
        ins = max(rate("pswpin"), rate("refault_anon"))
        total = int(row["memtotal_kb"])
        unmapped = int(row["cached_kb"]) + int(row["buffers_kb"]) - int(row["mapped_kb"]) - int(row["shmem_kb"])
        swap_free = int(row["swapfree_kb"]) * 100 >= SWAP_FREE_PCT * int(row["swaptotal_kb"])
        vote = unmapped * 100 < FLOOR_PCT * total and out >= SWAPOUT_PPS and ins < SWAPIN_PPS and swap_free
        votes = (votes + [vote])[-WINDOW:]
        if ins >= SWAPIN_PPS:
            backoff_until = t + BACKOFF_S
        if t < backoff_until:
            continue
        if two is None and sum(votes) >= VOTES:
            two = t - t0
        if one is None and (sum(votes) >= VOTES or (vote and out >= SURGE_PPS)):
            one, at = t - t0, (out, ins)
    return two, one, at


def main():
    print("workload setting source run: first rise on two votes / on one poll of %d swap-outs/s (s into the run)"
          % SURGE_PPS)
    summary = {}
    for label, d in SOURCES:
        for path in sorted(glob.glob(os.path.join(d, "disk-*.csv"))):
            name = os.path.basename(path)[len("disk-"):-len(".csv")]
            workload = "responsiveness" if name.startswith("responsiveness-") else \
                "dirtier" if name.startswith("dirtier-") else None
            if workload is None or name.endswith("-w1"):
                continue
            setting, rep = name[len(workload) + 1:].rsplit("-", 1)
            two, one, at = first_rises(path)
            fmt = lambda v: "none" if v is None else "%.1f" % v
            earlier = one is not None and (two is None or one < two)
            print("%s %s %s %s: %s / %s%s" % (workload, setting, label, rep, fmt(two), fmt(one),
                                               "  <- one poll rises first, on %d swap-outs/s, %d swap-ins/s" % at
                                               if earlier else ""))
            s = summary.setdefault((workload, setting), [0, 0, [], [], 0])
            s[0] += 1
            s[1] += earlier
            s[4] += two is not None
            if earlier:
                s[2].append(two - one if two is not None else None)
                s[3].append(at)
    print()
    print("workload setting: runs; runs with a rise on two votes; runs where one poll rises first: how much"
          " earlier (s; none: two votes never came), on what swap-outs and swap-ins a second")
    for (workload, setting), (n, k, gains, ats, n_two) in sorted(summary.items()):
        line = "%s %s: %d runs; %d on two votes; %d first on one poll" % (workload, setting, n, n_two, k)
        if k:
            g = sorted(set("none" if v is None else "%.1f" % v for v in gains))
            line += " (earlier by %s; swap-outs %d-%d/s, swap-ins %d-%d/s)" % (
                ", ".join(g), min(a[0] for a in ats), max(a[0] for a in ats),
                min(a[1] for a in ats), max(a[1] for a in ats))
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
