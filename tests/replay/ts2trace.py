#!/usr/bin/env python3
"""Turns one benchmark run's time series into a replay trace (tests/data/traces/README).

    tests/replay/ts2trace.py RESULTS_DIR [[LRU-]SWAP/]WORKLOAD SETTING [REP] > TRACE.csv

RESULTS_DIR is a `make bench` results directory (bench/results, or BENCH_OUT/results): it
holds runs.csv (or all-runs.csv), ts/TAG.csv (bench/sampler.c's time series, with the
columns the policies read) and logs/TAG.log (the workload's output), where TAG is
SWAP-WORKLOAD-SETTING-REP for a run with swap modes (SWAP disk or zram: say which, as
zram/phased) and WORKLOAD-SETTING-REP for one before them. Under the multi-gen LRU (a run with
the LRU dimension, runs.csv's lru column mglru) SWAP is prefixed: mglru-disk/phased, files
mglru-disk-phased-SETTING-REP. REP defaults to 1. The trace's column mglru says which LRU the
guest ran (1 the multi-gen LRU, 0 the classic one; the replay sets the sample's flag from it).

Each sampler row becomes one trace row: t_ms from the first row, the phase it falls in, and
the kernel's values as bench/sampler.c read them (cumulative counters as the kernel shows
them). Phases, from the workload's own output:
  - MARK NAME START END lines (wl-phased.sh: CLOCK_BOOTTIME seconds, the sampler's clock);
  - else "pass N: S s" lines (the dirtier, in wl-dirtier.sh and wl-responsiveness.sh),
    placed back to back so that the last pass ends when the workload ended (t1 in runs.csv):
    the dirtier is the last thing each of those scripts runs, and only its durations are
    printed, so a boundary is good to about one row;
  - else the whole workload, t0..t1 of runs.csv, is one phase "run".
Rows before the workload started are "pre", after it ended "post"; rows inside it but before
its first phase "setup" (the crowd of wl-responsiveness.sh starting), between two phases
"gap".
"""
import csv
import os
import re
import sys

# Trace columns and where each comes from in the sampler's CSV (None: computed here).
COLUMNS = [
    ("t_ms", None), ("phase", None), ("swappiness", "swappiness"),
    ("memtotal_kb", "memtotal_kb"), ("memfree_kb", "memfree_kb"), ("buffers_kb", "buffers_kb"),
    ("cached_kb", "cached_kb"), ("shmem_kb", "shmem_kb"), ("mapped_kb", "mapped_kb"),
    ("swaptotal_kb", "swaptotal_kb"), ("swapfree_kb", "swapfree_kb"),
    ("pgscan", "pgscan"), ("pgsteal", "pgsteal"), ("pswpin", "pswpin"), ("pswpout", "pswpout"),
    ("refault_anon", "refault_anon"), ("refault_file", "refault_file"),
    ("psi_some_us", "psi_some_us"), ("psi_full_us", "psi_full_us"),
    ("psi_some_avg10_centipct", None),
    ("swap_devices", "swap_devices"), ("swap_zram", "swap_zram"), ("zswap", "zswap"),
    ("activate_anon", "activate_anon"), ("activate_file", "activate_file"),
    ("mglru", None),
]
# Columns the sampler gained later (64feda9): a series without them converts, with -1 (the
# trace's "not known", as for a counter the kernel lacks).
LATER = {"activate_anon", "activate_file"}


def die(msg):
    sys.stderr.write(f"ts2trace: {msg}\n")
    sys.exit(1)


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        die(f"cannot read '{path}': {e.strerror}")


def find_run(results, lru, swap, workload, setting, rep):
    # A run recorded before the LRU was (no lru column) ran the classic LRU (Debian 12's 6.1).
    for name in ("all-runs.csv", "runs.csv"):
        path = os.path.join(results, name)
        if os.path.exists(path):
            for r in read_csv(path):
                if (r["workload"] == workload and r["setting"] == setting and r["rep"] == rep
                        and r.get("swap", "") == swap and (r.get("lru") or "classic") == lru):
                    return float(r["t0"]), float(r["t1"])
    die(f"no run {lru + ',' if lru != 'classic' else ''}{swap + ',' if swap else ''}{workload},{setting},{rep}"
        f" in {results}/all-runs.csv or runs.csv")


def phases_from_log(lines, t1):
    """[(name, start, end)] from MARK lines, else from the dirtier's pass lines."""
    marks = []
    for line in lines:
        m = re.match(r"^MARK (\S+) ([0-9.]+) ([0-9.]+)$", line)
        if m:
            marks.append((m.group(1), float(m.group(2)), float(m.group(3))))
    if marks:
        return sorted(marks, key=lambda p: p[1])
    passes = []
    for line in lines:
        m = re.match(r"^pass ([0-9]+): ([0-9.]+) s$", line)
        if m:
            passes.append((int(m.group(1)), float(m.group(2))))
    out = []
    end = t1
    for n, secs in sorted(passes, reverse=True):
        out.append((f"pass{n}", end - secs, end))
        end -= secs
    return list(reversed(out))


def phase_of(t, t0, t1, phases):
    for name, a, b in phases:
        if a <= t <= b:
            return name
    if t < t0:
        return "pre"
    if t > t1:
        return "post"
    if not phases or t < phases[0][1]:
        return "setup"
    if t > phases[-1][2]:
        return "post"
    return "gap"


def main():
    if len(sys.argv) not in (4, 5):
        die("usage: ts2trace.py RESULTS_DIR [[LRU-]SWAP/]WORKLOAD SETTING [REP]")
    results, workload, setting = sys.argv[1:4]
    mode, _, workload = workload.rpartition("/")
    lru, _, swap = mode.rpartition("-")
    lru = lru or "classic"
    if swap not in ("", "disk", "zram"):
        die(f"'{swap}': the swap mode is disk or zram")
    if lru not in ("classic", "mglru") or (lru == "mglru" and not swap):
        die(f"'{mode}': the mode is SWAP (disk or zram) or mglru-SWAP")
    rep = sys.argv[4] if len(sys.argv) == 5 else "1"
    pre = f"{mode}-" if mode else ""  # the mode's prefix of file names
    tag = f"{pre}{workload}-{setting}-{rep}"
    t0, t1 = find_run(results, lru, swap, workload, setting, rep)
    rows = read_csv(os.path.join(results, "ts", f"{tag}.csv"))
    if not rows:
        die(f"'{results}/ts/{tag}.csv' has no rows")
    missing = [src for _, src in COLUMNS if src and src not in LATER and src not in rows[0]]
    if missing:
        die(f"'{results}/ts/{tag}.csv' lacks {', '.join(missing)}: recorded by an older bench/sampler.c")
    log = os.path.join(results, "logs", f"{tag}.log")
    try:
        with open(log) as f:
            lines = [x.rstrip("\n") for x in f]
    except OSError as e:
        die(f"cannot read '{log}': {e.strerror}")
    phases = phases_from_log(lines, t1)
    info = {}
    for name in (f"guest-info-workload-{pre}{workload}.txt",):
        path = os.path.join(results, name)
        if os.path.exists(path):
            for line in open(path):
                k, _, v = line.rstrip("\n").partition("=")
                info[k] = v

    out = sys.stdout
    if info.get("guest_lru", lru) != lru:
        die(f"runs.csv says the {lru} LRU, the guest's info {info['guest_lru']}")
    # A static value is a number; a daemon setting (default, auto, ...) a name, and the trace's
    # swappiness column follows what the daemon wrote.
    at = f"at static vm.swappiness {setting}" if setting.isdigit() else f"under the daemon's setting {setting}"
    out.write(f"# replay trace: {workload} {at}{' on ' + swap + ' swap' if swap else ''}"
              f"{' under the multi-gen LRU' if lru == 'mglru' else ''} (run {tag}), "
              "converted by tests/replay/ts2trace.py\n")
    out.write(f"# workload t0..t1 (CLOCK_BOOTTIME s): {t0:.2f}..{t1:.2f}; phases: "
              + (", ".join(f"{n} {a:.2f}..{b:.2f}" for n, a, b in phases) or "run") + "\n")
    for k in ("guest_kernel", "guest_cpus", "guest_memtotal_kib", "guest_swap", "guest_zswap", "guest_sizes",
              "guest_lru", "guest_lru_gen_enabled"):
        if k in info:
            out.write(f"# {k}={info[k]}\n")
    w = csv.writer(out, lineterminator="\n")
    w.writerow([c for c, _ in COLUMNS])
    start = float(rows[0]["t"])
    run_phases = phases or [("run", t0, t1)]
    for r in rows:
        t = float(r["t"])
        avg10 = float(r["psi_some_avg10"])
        vals = []
        for col, src in COLUMNS:
            if col == "t_ms":
                vals.append(round((t - start) * 1000))
            elif col == "phase":
                vals.append(phase_of(t, t0, t1, run_phases))
            elif col == "mglru":
                vals.append(1 if lru == "mglru" else 0)
            elif col == "psi_some_avg10_centipct":
                vals.append(-1 if avg10 < 0 else round(avg10 * 100))
            else:  # columns newer than the series: -1, as the sampler writes what it cannot read
                vals.append(int(r[src]) if r.get(src) not in (None, "") else -1)
        w.writerow(vals)


if __name__ == "__main__":
    main()
