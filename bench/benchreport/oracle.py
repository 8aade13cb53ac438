"""Whether target (1), a clear win over static 60 on average, is within reach of any fixed
value: the oracle that knew each workload and set its best static value there. Per LRU and
swap mode, each workload's static value with the lowest headline figure against static 60
(against60.csv's rows; where one static value is the best of the figure, targets.csv's 1.00
row), and the geometric mean over the workloads of those figures, its interval from the same
replicates as every other geometric mean (stats.combine over the workloads' bootstrap
replicates, static 60's draws shared). Once over every static value that ran, once over those
the daemon may write there (model.MGLRU_MIN..MGLRU_MAX under the multi-gen LRU; under the
classic LRU every one). Pure: no files, no text."""
from collections import namedtuple

from . import model
from . import stats

# picks: {workload: (static value, Ratio against static 60)}; geo: the Ratio of their geometric
# mean (None where a workload has no static value with a figure).
Oracle = namedtuple("Oracle", "picks geo")


def may_write(mode, static):
    """Whether the daemon may write the static value under the mode's LRU."""
    lru, _ = model.split_mode(mode)
    return lru != "mglru" or model.MGLRU_MIN <= int(static) <= model.MGLRU_MAX


def best(head60, statics):
    """(static, Ratio): the static value with the lowest figure against static 60 among statics
    (head60: static -> Ratio or None); on a tie static 60 itself, then the lowest value. None
    without a figure."""
    have = [s for s in statics if head60.get(s) is not None and head60[s].ratio is not None]
    if not have:
        return None
    s = min(have, key=lambda s: (head60[s].ratio, s != model.KERNEL_DEFAULT, int(s)))
    return s, head60[s]


def oracle(res, mode, allowed_only):
    """The Oracle of one mode (compare.Results res), over every static value that ran or
    (allowed_only) over those the daemon may write there; None without a workload."""
    d = res.data
    wls = [w for w in d.workloads if any((mode, w, s) in res.head for s in d.statics)]
    if not wls:
        return None
    statics = [s for s in d.statics if not allowed_only or may_write(mode, s)]
    picks = {}
    for w in wls:
        b = best({s: res.head60.get((mode, w, s)) for s in statics}, statics)
        if b is not None:
            picks[w] = b
    geo = stats.combine([picks[w][1] for w in wls], stats.geomean) if len(picks) == len(wls) else None
    return Oracle(picks, geo)


def kept_off(res, mode):
    """The static values that ran in the mode but the daemon may not write there, in order."""
    return [s for s in res.data.statics if not may_write(mode, s)
            and any(res.head60.get((mode, w, s)) is not None for w in res.data.workloads)]


def against(res, mode, setting, orc):
    """The setting's geometric mean against static 60 over the oracle's, replicate by replicate
    (both hold static 60's same draws); None without either."""
    mine = res.geo60.get((mode, setting))
    if mine is None or orc is None or orc.geo is None:
        return None
    return stats.combine([mine, orc.geo], lambda x: stats.div(x[0], x[1]))
