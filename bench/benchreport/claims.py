"""Issue 4's shape from its first tries (256 MB guest, TCG, disk swap), checked against this
run's disk-swap results: a list of markdown lines. A verdict is "real" when the intervals say
so (the ratio's interval clear of 1), else it rests on the medians."""
from . import compare
from . import stats
from . import text


def _table(res, swap, wl, metric):
    return next((t for t in res.tables.get((swap, wl), []) if t.metric.name == metric), None)


def _verdict(ok, real):
    return ("**verified**" if ok else "**refuted**") + ("" if real else " (by medians; the intervals overlap 1)")


def _statics(res, t):
    return [s for s in res.data.statics if t.stats[s].n]


def _pair(res, swap, wl, t, a, b):
    """Setting a against setting b on table t's metric, with its interval."""
    d, m = res.data, t.metric
    return stats.ratio(d.by_rep(swap, wl, a, m.name, m.censored), d.by_rep(swap, wl, b, m.name, m.censored),
                       m.lower, compare.draws(res, swap, wl, a), compare.draws(res, swap, wl, b))


def p99_claims(res, swap):
    t = _table(res, swap, "responsiveness", "probe_p99_ms")
    if t is None:
        return []
    have = _statics(res, t)
    out = []
    if "0" in have and len(have) > 1:
        worst = max(have, key=lambda s: t.stats[s].med)
        real = all(stats.verdict(_pair(res, swap, "responsiveness", t, "0", s)) == "worse" for s in have if s != "0")
        out.append(f"- \"with anonymous memory larger than RAM plus a latency probe, swappiness 0 was clearly worst\": "
                   f"{_verdict(worst == '0', real)}: the worst p99 is static {worst} ({text.fmt(t.stats[worst].med)} ms).")
    else:
        out.append("- \"swappiness 0 was clearly worst\" on the p99: not checked (static 0 was not run).")
    best = t.best
    real = all(stats.verdict(t.vs_best[s]) == "worse" for s in have if s not in ("100", "200"))
    out.append(f"- \"100-200 had the lowest p99 latency\": {_verdict(best in ('100', '200'), real)}: the lowest is "
               f"static {best} ({text.fmt(t.stats[best].med)} ms); "
               + ", ".join(f"{s}: {text.fmt(t.stats[s].med)}" for s in have) + " ms.")
    return out


def stream_claims(res, swap):
    out = []
    for wl, metric, what in (("phased", "phase2_stream_mbps", "phased phase 2 (active anon + cold stream), stream throughput"),
                             ("phased", "phase2_work_s", "phased phase 2, the active process's time for its fixed work"),
                             ("compile-stream", "stream_mbps", "compile + streaming read, read throughput"),
                             ("compile-stream", "build_s", "compile + streaming read, build time")):
        t = _table(res, swap, wl, metric)
        if t is None or "200" not in _statics(res, t) or len(_statics(res, t)) < 2:
            continue
        if t.best == "200":
            real = all(stats.verdict(t.vs_best[s]) == "worse" for s in _statics(res, t) if s != "200")
        else:
            real = stats.verdict(t.vs_best["200"]) == "worse"
        out.append(f"- \"with anonymous memory plus a streaming read, 200 was fastest\", on {what}: "
                   f"{_verdict(t.best == '200', real)}: the best is static {t.best} ({text.fmt(t.stats[t.best].med)} "
                   f"{t.metric.unit})" + ("." if t.best == "200" else
                                         f", static 200 {text.fmt(t.stats['200'].med)} {t.metric.unit}, "
                                         f"{text.fmt_ci(t.vs_best['200'].ratio, t.vs_best['200'].low, t.vs_best['200'].high)} of it."))
    return out


def check(res):
    """The claims, on disk swap (where the first tries ran)."""
    if "disk" not in res.data.swaps:
        return []
    return p99_claims(res, "disk") + stream_claims(res, "disk")
