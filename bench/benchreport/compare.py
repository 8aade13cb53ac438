"""Every comparison the report shows, from a run's Data: per swap mode, workload and metric,
each setting's median, noise and ratio (with its interval) to the best static value and to
static 60; each headline metric's steadiest counter; the headline figure of each workload
(phased: the worse of its two phases) and the geometric mean over the workloads."""
import statistics
from collections import namedtuple

from . import model
from . import stats

Table = namedtuple("Table", "metric best stats vs_best vs60 timeouts capped ooms")
Steady = namedtuple("Steady", "counter median_cv stats vs_best")


class Results:
    def __init__(self, data):
        self.data = data
        self.tables = {}    # (swap, wl) -> [Table] in model.METRICS order
        self.steady = {}    # (swap, wl, metric name) -> Steady: the counter shown beside it
        self.head = {}      # (swap, wl, setting) -> Ratio of the headline figure to the best static
        self.head60 = {}    # the same against static 60
        self.geo = {}       # (swap, setting) -> geometric mean over the workloads of head
        self.geo60 = {}
        self.counters = {}  # (swap, wl, setting, column) -> Stat of a runs.csv counter
        self._draws = {}


def draws(res, swap, wl, setting):
    """The bootstrap draws of one setting's repetitions (shared by all its metrics)."""
    k = (swap, wl, setting)
    if k not in res._draws:
        res._draws[k] = stats.resamples(res.data.reps_of(swap, wl, setting), "/".join(k))
    return res._draws[k]


def best_static(st, statics, lower):
    have = [s for s in statics if st[s].n]
    if not have:
        return None
    return (min if lower else max)(have, key=lambda s: st[s].med)


def compare_by(res, swap, wl, by_rep, lower, ref):
    """{setting: Ratio} of each setting's values (by_rep: setting -> {rep: value}) to ref's."""
    out = {}
    for s in res.data.settings:
        out[s] = stats.ratio(by_rep[s], by_rep.get(ref, {}), lower, draws(res, swap, wl, s),
                             draws(res, swap, wl, ref), same=(s == ref)) if ref else None
    return out


def metric_table(res, swap, wl, m):
    d = res.data
    by_rep = {s: d.by_rep(swap, wl, s, m.name, m.censored) for s in d.settings}
    st = {s: stats.Stat(list(by_rep[s].values())) for s in d.settings}
    best = best_static(st, d.statics, m.lower)
    if best is None:
        return None
    ref60 = model.KERNEL_DEFAULT if st.get(model.KERNEL_DEFAULT) and st[model.KERNEL_DEFAULT].n else None
    timeouts = {s: d.n_timeouts(swap, wl, s) if m.censored or m.name in model.UNTIL_TIMEOUT else 0
                for s in d.settings}
    flag = model.CAPPED.get(m.name)
    capped = {s: d.n_flagged(swap, wl, s, flag) if flag else 0 for s in d.settings}
    ooms = {s: d.n_oom(swap, wl, s) if m.censored else 0 for s in d.settings}
    return Table(m, best, st, compare_by(res, swap, wl, by_rep, m.lower, best),
                 compare_by(res, swap, wl, by_rep, m.lower, ref60), timeouts, capped, ooms)


def steadiest(res, swap, wl, table):
    """The counter with the lowest median CV over the settings (settings where it is always 0
    have no CV and do not count), with its ratios to the table's best static value."""
    d = res.data
    if wl == "phased":
        cands = [(c, lambda s, c=c: d.by_rep(swap, wl, s, c.name)) for c in model.PHASE_COUNTERS.get(table.metric.name, [])]
    else:
        cands = [(c, lambda s, c=c: d.counter_by_rep(swap, wl, s, c.name)) for c in model.RUN_COUNTERS]
    best = None
    for c, get in cands:
        by_rep = {s: get(s) for s in d.settings}
        cvs = [stats.cv(list(v.values())) for v in by_rep.values()]
        cvs = [x for x in cvs if x is not None]
        if not cvs:
            continue
        score = statistics.median(cvs)
        if best is None or score < best[1]:
            best = (c, score, by_rep)
    if best is None:
        return None
    c, score, by_rep = best
    st = {s: stats.Stat(list(by_rep[s].values())) for s in d.settings}
    return Steady(c, score, st, compare_by(res, swap, wl, by_rep, True, table.best))


def headline(res, swap, wl, tables):
    """Each setting's headline figure against the best static value and against static 60."""
    d = res.data
    by_name = {t.metric.name: t for t in tables}
    names = model.PHASES if wl == "phased" else (model.headline(wl).name,)
    if not all(n in by_name for n in names):
        return
    for s in d.settings:
        res.head[(swap, wl, s)] = stats.combine([by_name[n].vs_best[s] for n in names], max)
        res.head60[(swap, wl, s)] = stats.combine([by_name[n].vs60[s] for n in names], max)


def compute(data):
    res = Results(data)
    for swap in data.swaps:
        for wl in data.workloads:
            tables = [t for t in (metric_table(res, swap, wl, m) for m in model.METRICS.get(wl, [])) if t]
            res.tables[(swap, wl)] = tables
            for t in tables:
                if t.metric.name in (model.PHASES if wl == "phased" else (model.headline(wl).name,)):
                    res.steady[(swap, wl, t.metric.name)] = steadiest(res, swap, wl, t)
            headline(res, swap, wl, tables)
            for s in data.settings:
                for c in model.RUN_COUNTERS:
                    res.counters[(swap, wl, s, c.name)] = stats.Stat(data.counter_values(swap, wl, s, c.name))
        wls = [w for w in data.workloads if any((swap, w, s) in res.head for s in data.statics)]
        for s in data.settings:
            res.geo[(swap, s)] = stats.combine([res.head.get((swap, w, s)) for w in wls], stats.geomean) if wls else None
            res.geo60[(swap, s)] = stats.combine([res.head60.get((swap, w, s)) for w in wls], stats.geomean) if wls else None
    return res
