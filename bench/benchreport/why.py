"""Why a daemon setting misses a target, in numbers the report already has: where the daemon
held vm.swappiness while a workload was measured, against the best static value there
(bands); which part of a figure sets it (worst); phased against each static value as a whole
(versus_statics); and the workloads each missed target names (misses). Pure: no files, no text."""
import statistics
from collections import namedtuple

from . import model
from . import stats

# vm.swappiness's range since Linux 5.8.
KNOB_MAX = 200

# Knob values low..high (inclusive) and the share of the samples in them.
Band = namedtuple("Band", "low high share")


def bands(values, top, best):
    """The shares of values (the knob, one sample a second) at the daemon's top, between the
    best static value and the top, and at or below the best static value; when the best static
    value is at the top or out of its reach, at the top and below it. Values above the top
    (before the daemon wrote, or its tendency or workingset policy going above max = auto on disk
    swap) get a band of their own; without a known top (None), above the
    best static value and at or below it. A band without a sample is left out unless it holds
    the best static value (or the top, with the best static value above it): that the daemon
    never got there is the point. [] without values."""
    if not values:
        return []
    if top is None:
        edges = [(best + 1, KNOB_MAX), (0, best)]
    else:
        edges = [(top, top), (best + 1, top - 1), (0, best)] if best < top else [(top, top), (0, top - 1)]
        if any(v > top for v in values):
            edges.insert(0, (top + 1, KNOB_MAX))
    goal = best if top is None else min(best, top)
    out = []
    for lo, hi in edges:
        share = sum(1 for v in values if lo <= v <= hi) / len(values)
        if lo <= hi and (share or lo <= goal <= hi):
            out.append(Band(lo, hi, share))
    return out


def worst(parts):
    """The name of the part with the highest ratio (phased: the phase that sets the headline,
    the worse of the two; the first on a tie); None if any part is missing."""
    if not parts or any(r is None for r in parts.values()):
        return None
    return max(parts, key=lambda k: parts[k].ratio)


def versus_statics(head, setting, statics):
    """{static: Ratio}: the setting's headline figure over each static value's own (head:
    setting -> Ratio of one swap mode and workload), replicate by replicate as the headline
    is: both figures hold the same references (phased: the best static value of each phase)
    resampled with the same draws. Static values without a figure are left out; {} without
    the setting's."""
    mine = head.get(setting)
    if mine is None:
        return {}
    return {s: stats.combine([mine, head[s]], lambda x: stats.div(x[0], x[1]))
            for s in statics if head.get(s) is not None}


Switch = namedtuple("Switch", "setting first then figure mine")


def switches(head, setting, names):
    """[Switch] of each switch setting in names that has a figure (head as versus_statics'):
    its two values, its figure against the best static value of each phase, and the setting's
    figure against the switch's (versus_statics; None without the setting's)."""
    out = []
    for sw in names:
        if head.get(sw) is not None:
            a, b = model.switch_values(sw)
            out.append(Switch(sw, a, b, head[sw], versus_statics(head, setting, [sw]).get(sw)))
    return out


def floor(work, own):
    """The lowest ratio any setting can reach against a figure (work: its values, one per run)
    that holds a fixed amount of the work's own CPU time (own: its values), which no setting
    saves: median(own) / median(work), at most 1. None without both or with no time."""
    if not work or not own:
        return None
    w = statistics.median(work)
    return min(1.0, statistics.median(own) / w) if w > 0 else None


Split = namedtuple("Split", "before after whole before_best after_best whole_best mostly_before")


def split_at_reclaim(mine, best):
    """The medians of [(before, after)] (load.Data.before_reclaim: a run's seconds before the
    kernel's first reclaim and after it) for a setting and for the best static value, and of
    their sums, the whole runs; mostly_before: the setting's runs took longer before the first
    reclaim, where vm.swappiness does not act yet, and by more than they did after it, so more
    of the difference comes from something no setting causes. Medians, not means: one odd run
    moves them less (so they need not add up). None without runs of both."""
    if not mine or not best:
        return None

    def med(xs, f):
        return statistics.median(f(x) for x in xs)

    b, a, w = med(mine, lambda x: x[0]), med(mine, lambda x: x[1]), med(mine, lambda x: x[0] + x[1])
    bb, ab, wb = med(best, lambda x: x[0]), med(best, lambda x: x[1]), med(best, lambda x: x[0] + x[1])
    return Split(b, a, w, bb, ab, wb, b - bb > 0 and b - bb >= a - ab)


def misses(checks, keys=model.TARGETS_EXPLAINED):
    """{workload: [keys of the targets it misses]} from choose.check_targets' list for one mode,
    in the order the checks name them, among the targets in keys (those RESULTS.md explains: a
    clear loss against 60 and clearly above the bound against the best fixed value)."""
    out = {}
    for c in checks:
        if not c.met and c.key in keys:
            for w in c.workloads:
                out.setdefault(w, []).append(c.key)
    return out
