"""What the benchmark measures: the workloads and their metrics, the kernel counters, the
statistics' parameters and the targets: constants, and the small predicates that read
them (which settings are statics, switches or daemons)."""
import re
from collections import namedtuple

# name: the key of metrics.csv; lower: lower is better; censored: a run killed at the time
# limit counts its wall time here, as a lower bound (a stand-off shows as the worst value
# instead of vanishing).
Metric = namedtuple("Metric", "name label unit lower censored")

# workload -> its metrics; the first is its headline, except for phased, whose headline is
# the worse of its two PHASES.
METRICS = {
    "phased": [
        Metric("phase1_s", "phase 1: hot file rounds, time", "s", True, True),
        Metric("phase2_work_s", "phase 2: wall time of the active process's fixed work (its user CPU time)", "s",
               True, False),
        Metric("phase2_sys_s", "phase 2: the kernel's time for the active process (faults, reclaim)", "s", True, False),
        Metric("phase2_blocked_s", "phase 2: time the active process could not run (blocked)", "s", True, False),
        Metric("phase2_majflt", "phase 2: the active process's own major faults", "faults", True, False),
        Metric("phase2_stream_mbps", "phase 2: cold stream throughput", "MB/s", False, False),
    ],
    "responsiveness": [
        Metric("probe_p99_ms", "probe latency p99", "ms", True, False),
        Metric("probe_p50_ms", "probe latency p50", "ms", True, False),
        Metric("probe_max_ms", "probe latency max", "ms", True, False),
        Metric("dirtier_written_mib", "heavy dirtier: written in the window", "MiB", False, False),
    ],
    "compile": [Metric("build_s", "build wall time", "s", True, True)],
    "compile-stream": [
        Metric("build_s", "build wall time", "s", True, True),
        Metric("stream_mbps", "recursive read (cat) throughput", "MB/s", False, False),
    ],
    "dirtier": [
        Metric("dirtier_total_s", "whole run (every pass)", "s", True, True),
        Metric("dirtier_first_s", "pass 1", "s", True, False),
    ],
}
PHASES = ("phase1_s", "phase2_work_s")
# The window a figure was measured in: its MARK line in the run's log (bench/wl-phased.sh: each
# phase; bench/wl-compile.sh: make's). The other figures' window is the run, t0 to t1 of runs.csv,
# which holds the workload's setup too.
MARKS = {"phase1_s": "phase1", "phase2_work_s": "phase2", "build_s": "build"}
# Raw results from before a workload printed its MARK line: the window is taken as the run's last
# seconds, as many as the longest of these figures of that run (make and the stream start together,
# and the run ends once both have, after a cleanup of a second or so, which the window then holds
# in place of as much of its start). Only for runs that exited 0: a run killed at the time limit
# did not end with its figures.
MARK_TAIL = {"build": ("build_s", "stream_s")}
# A figure that holds a fixed amount of the work's own CPU time, which no vm.swappiness saves:
# phase 2's fixed work is PHASED_ACTIVE_S seconds of user time (bench/wl-phased.sh), and a setting
# can only take off what pressure adds on top (the kernel's time, waiting, being blocked).
FLOORS = {"phase2_work_s": "phase2_user_s"}

# A workload whose headline is a whole made of a first part and the rest: workload -> (the
# first part's metric, the whole's, their names). The why section compares each part with the
# best static value for it, so that a miss is placed where it happens.
PARTS = {"dirtier": ("dirtier_first_s", "dirtier_total_s", "pass 1", "the passes after it")}
# Swap-ins in one second of the time series that mark a working set coming back (phased's
# change of phase: the seconds before the first such one are what a controller that reacts to
# swap-ins cannot have seen). In the run of 0b9e8f4 (2026-12-02), phase 2 shows
# at most 28 swap-ins in the seconds before a return on disk swap, 95 on zram; the first second
# of a return shows 104-5176.
SWAPIN_BURST = 100
# Metrics a run killed at the time limit still reports, over what it measured until then (the
# probe prints its percentiles on SIGTERM): left out, the worst runs of a setting would vanish.
UNTIL_TIMEOUT = {"probe_p99_ms", "probe_p50_ms", "probe_max_ms", "probe_n"}
# Metrics whose run may stop short (a flag metric of 1): then its value is a lower bound.
CAPPED = {m: "phase2_capped" for m in ("phase2_work_s", "phase2_sys_s", "phase2_blocked_s", "phase2_majflt")}
CAPPED["phase1_s"] = "phase1_capped"
TITLES = {
    "dirtier": "1. dirtier (seed 003, Arcangeli)",
    "compile": "2. compile under pressure (seeds 000, 004)",
    "compile-stream": "3. compile + streaming reads (seed 004, Morton)",
    "responsiveness": "4. responsiveness: hundreds of processes + heavy dirtier (seed 001, Fremlin)",
    "phased": "5. phased: idle anon + hot files, then active anon + cold stream",
}
SWAP_TITLES = {"disk": "disk swap", "zram": "zram swap"}
# The kernel's two page-reclaim LRUs (/sys/kernel/mm/lru_gen/enabled switches between them):
# the classic two-list LRU and the multi-gen LRU. A run is measured on one LRU and one swap
# mode; the report keys them as one "mode": the swap mode's name for the classic LRU (so the
# raw results from before the LRU was recorded, all classic, keep their names) and
# "mglru-SWAP" for the multi-gen LRU. Each mode has its own tables and its own best static.
LRUS = ("classic", "mglru")
LRU_TITLES = {"classic": "classic LRU", "mglru": "multi-gen LRU"}


def mode_key(lru, swap):
    """The report's key of a swap mode on an LRU: 'disk', 'mglru-disk'."""
    return swap if lru in ("", "classic") else f"{lru}-{swap}"


def split_mode(key):
    """(lru, swap) of a mode_key."""
    lru, _, swap = key.rpartition("-")
    return (lru or "classic"), swap


def mode_short(key, named):
    """A table column's name: 'disk', or with named (a run that recorded its LRU) 'multi-gen
    disk' or 'classic disk'."""
    lru, swap = split_mode(key)
    return f"{LRU_TITLES.get(lru, lru).replace(' LRU', '')} {swap}" if named else swap


def mode_title(key, named):
    """'disk swap', or with named (a run that recorded its LRU) 'disk swap, classic LRU'."""
    lru, swap = split_mode(key)
    t = SWAP_TITLES.get(swap, swap)
    return f"{t}, {LRU_TITLES.get(lru, lru)}" if named else t

# Kernel counters of each run (runs.csv): column, label, divisor to the shown unit, unit.
Counter = namedtuple("Counter", "name label div unit")
RUN_COUNTERS = [
    Counter("pswpin", "pswpin", 1, "pages"), Counter("pswpout", "pswpout", 1, "pages"),
    Counter("refault_anon", "refault anon", 1, "pages"), Counter("refault_file", "refault file", 1, "pages"),
    Counter("pgmajfault", "pgmajfault", 1, "faults"),
    Counter("psi_some_us", "PSI some", 1e6, "s"), Counter("psi_full_us", "PSI full", 1e6, "s"),
]
# Per-phase totals of phased (metrics.csv), the candidates for each phase's steadiest counter.
PHASE_COUNTERS = {
    "phase1_s": [Counter("phase1_refault_file", "phase 1 refault file", 1, "pages"),
                 Counter("phase1_pgmajfault", "phase 1 pgmajfault", 1, "faults"),
                 Counter("phase1_psi_full_us", "phase 1 PSI full", 1e6, "s")],
    "phase2_work_s": [Counter("phase2_pswpin", "phase 2 pswpin", 1, "pages"),
                      Counter("phase2_pgmajfault", "phase 2 pgmajfault", 1, "faults"),
                      Counter("phase2_psi_full_us", "phase 2 PSI full", 1e6, "s")],
}
# The phase-totals table of phased: metric, label, divisor, unit.
PHASE_TOTALS = [
    ("phase1_refault_file", "p1 refault file", 1), ("phase1_pswpin", "p1 pswpin", 1),
    ("phase1_pswpout", "p1 pswpout", 1), ("phase1_psi_full_us", "p1 PSI full s", 1e6),
    ("phase2_pswpin", "p2 pswpin", 1), ("phase2_pswpout", "p2 pswpout", 1),
    ("phase2_psi_full_us", "p2 PSI full s", 1e6), ("phase2_majflt", "p2 own majflt", 1),
    ("phase2_sys_s", "p2 own sys s", 1), ("phase2_blocked_s", "p2 own blocked s", 1),
]

# Why bench/run.sh runs only static 60 and 200 by default (BENCH_STATICS brings others back).
OTHER_STATICS_NOTE = (
    "Static 0, 10 and 100 were not run (bench/run.sh's default then). In the 5-repetition run of 2026-11-30 (disk swap) the best static "
    "value of every workload was 60 or 200, except phase 2 of phased where 0 to 100 tie (at most about 2 swap-ins a "
    "second at 60 or 100, against 0); wherever 100 came within 5% of the best (compile 1.01, dirtier 1.04), 60 or 200 "
    "did too; 10 was 1.02-19.9 times the best and 0 1.41-313 times (and took 2-4 times as long a run). Leaving "
    "them out pays for the zram mode and the repetitions.")
OTHER_STATICS = ("0", "10", "100")

# --- statistics ------------------------------------------------------------------------------
# Percentile bootstrap over the repetitions: each setting's runs and the reference's runs are
# resampled independently, the ratio of their medians taken, BOOTSTRAP_SAMPLES times. The seed
# of each resampling is this string plus the swap, workload, metric and setting, so that the
# report is the same on every machine and a new setting leaves the others' intervals alone.
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = "autoswappiness-bench"
CONFIDENCE = 0.95
# With few runs the percentile bootstrap of a median covers less than its nominal level.
# Simulated (600 pairs of settings drawn from one distribution, lognormal with CV 0.2 and a
# two-mode mixture like TCG's, 1000 resamples each), the share of pairs wrongly called
# different at a nominal 95%: 3 runs 8.5-10.7%, 4 runs 6.8-7.8%, 5 runs 4.8-5.3%, 6 runs
# 4.7-5.5%; at a nominal 97.5%, 4 runs 4.7-5.3%. So with 4 runs (the fewer of the two
# settings') the percentiles are those of 97.5%, which makes a 95% interval. At 3 runs no
# level helps (the interval cannot be wider than the ranges' ratio): about 90%.
BOOTSTRAP_LEVEL = {3: 0.975, 4: 0.975}  # runs -> nominal level; CONFIDENCE for more runs
SMALL_N_COVERAGE = {3: "about 90%"}     # what the interval covers with so few runs
# The values the daemon writes under the multi-gen LRU: include/regulator.h's
# REGULATOR_MGLRU_MIN..REGULATOR_MGLRU_MAX (0, 1 and 200 are other mechanisms there; test_report
# checks that they agree). Under the classic LRU it may write every value the run measured.
MGLRU_MIN, MGLRU_MAX = 2, 199
# Fewer runs than this per setting: no interval, no claim that a difference is real.
MIN_N = 3
# The kernel's default vm.swappiness.
KERNEL_DEFAULT = "60"
# A difference worth resolving when choosing the repetitions (RESULTS.md, "Repetitions").
RESOLVE_RATIO = 1.05
# The most repetitions per setting the report suggests for a cell (BENCH_MORE): about three
# boots' worth of runs for one cell under TCG; beyond that a ratio is recorded as no clear
# difference. A ratio within NEGLIGIBLE of 1 is not worth resolving at all.
MORE_MAX = 20
NEGLIGIBLE = 1.01

# --- targets ---------------------------------------------------------------------------------
# Issue 46, for the default as shipped (the report's data.shipped), in every LRU and swap mode (they replace issue 13's
# and issue 5's). Against static 60 (against60.csv):
TARGET_WIN60_HIGH_BELOW = 1.00   # (1) a clear win: the geometric mean's interval below this (high <)
TARGET_LOSS60_LOW_ABOVE = 1.00   # (2) no clear loss: no workload's interval above this (low >)
# Against the best fixed value of each workload (targets.csv):
TARGET_GEOMEAN_MAX = 1.05        # (3) the geometric mean (its point figure) at most this,
TARGET_WORKLOAD_LOW_ABOVE = 1.10  # and no workload's interval above this (low >)
# (4) the daemon's writes of vm.swappiness a minute, in the median run of every workload.
TARGET_WRITES_PER_MIN_MAX = 20
# The targets a workload's miss is explained for in RESULTS.md ("Why the default misses"): a
# clear loss against 60 (2), or clearly above TARGET_WORKLOAD_LOW_ABOVE of its best fixed value (3).
TARGETS_EXPLAINED = ("2", "3")


def is_static(setting):
    return setting.isdigit()


def switch_values(setting):
    """(A, B) of a switch setting AtoB (static A, then B from phased's phase 2 on, written by
    the workload at the boundary: bench/guest-bench.sh), else None."""
    m = re.fullmatch(r"(\d+)to(\d+)", setting)
    return (m.group(1), m.group(2)) if m else None


def is_switch(setting):
    return switch_values(setting) is not None


def bare_value(setting):
    """N of a bare setting bareN (static N with no daemon beside it; the statics run beside a
    dry-run daemon since the run of 2026-12-06: bench/guest-bench.sh), else None."""
    m = re.fullmatch(r"bare(\d+)", setting)
    return m.group(1) if m else None


def is_bare(setting):
    return bare_value(setting) is not None


def is_daemon(setting):
    return not is_static(setting) and not is_switch(setting) and not is_bare(setting)


def label(setting):
    """'static 60', 'switch 200 then 60', 'bare 60 (no daemon)' or 'daemon NAME': the names of
    targets.csv."""
    if is_static(setting):
        return f"static {setting}"
    if is_bare(setting):
        return f"bare {bare_value(setting)} (no daemon)"
    sw = switch_values(setting)
    return f"switch {sw[0]} then {sw[1]}" if sw else f"daemon {setting}"


def runs_on(setting, wl):
    """Whether the benchmark runs setting on workload wl: a switch acts at phased's phase
    boundary and runs there only."""
    return not is_switch(setting) or wl == "phased"


def headline(workload):
    """The headline metric of a workload (phased: its first phase; its figure is the worse phase)."""
    return METRICS[workload][0]

# A run's guest pace (the sampler's pace_us, its mean over the run) this many times its boot's
# median or more: the guest was slow in that run (other work on the emulator's cores, or
# interrupts in the guest; with nothing else on the host the runs of one boot spread 0.7-1.4).
PACE_SLOW = 1.25

# The tendency policy goes above max = auto's 100 on disk swap (sparing the cache) only while
# the page cache that no process maps is under this percent of MemTotal: include/policy.h's
# POLICY_SPARE_FLOOR_PCT (test_report checks that they agree).
SPARE_FLOOR_PCT = 5

# The workingset policy rises above max = auto's 100 on disk swap (its bias, while file
# refaults dominate) only while that cache is under this percent of MemTotal, and drops a rise
# when it grows to it: include/policy.h's POLICY_SPARE_CEIL_PCT (test_report checks it too).
SPARE_CEIL_PCT = 10

# The file (or anonymous) activations a second below which the workingset policy does not
# steer: include/policy.h's POLICY_WS_MIN_PPS (test_report checks it).
WS_MIN_PPS = 128

# What takes each policy above its top, in the words of the why section.
ABOVE_TOP = {
    "tendency": "the daemon's tendency policy sparing the cache",
    "workingset": "the daemon's workingset policy rising on file refaults, or sparing the cache",
}
