"""How the shipped default does against issue 13's targets (and issue 5's against static 60),
in plain words for the README headline: a bullet per swap mode, a line per target. From the
target checks (choose.check_targets), the rows of targets.csv and against60.csv, and the numbers
behind a miss that RESULTS.md's "Why the default misses" gives (why: worst, bands,
versus_statics, within_noise). The README keeps the internal names out, so its words say
goals, not issue 13's targets (a) to (d). Text only: every number comes from the arguments."""
import statistics

from . import model
from . import stats
from . import why
from .markdown import phase_floors, phase_name
from .targets import GEOMEAN
from .text import fmt, fmt_ratio, span

NOISE = "within noise"


def _and(items):
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _pct(x):
    return f"{abs(x) * 100:.0f}%"


def _row(rows, swap, wl, setting):
    return next((r for r in rows if r["swap"] == swap and r["workload"] == wl and r["setting"] == setting), None)


def _num(r, bound):
    """'1.12', or '1.05, within noise' when the row's interval includes the bound."""
    if r is None:
        return "not measured"
    return fmt_ratio(r["ratio"]) + (f", {NOISE}" if why.within_noise(r["low"], r["high"], bound) else "")


def _met(c, rows, bound):
    """'met on A, B and C, all within noise': the workloads a check holds on that it does not
    miss, each tagged when its interval includes the bound; '' for none."""
    met = [w for w in c.among if w not in c.workloads]
    noisy = [w for w in met if (r := rows.get(w)) and why.within_noise(r["low"], r["high"], bound)]
    if not met:
        return ""
    if len(noisy) == len(met) > 1:
        return f"met on {_and(met)}, all {NOISE}"
    return "met on " + _and(f"{w} ({NOISE})" if w in noisy else w for w in met)


def _figure(res, swap, wl, setting):
    """The comparison table whose figure sets the workload's ratio: on phased the worse phase
    (why.worst, as RESULTS.md's), elsewhere the headline metric; None if unknown."""
    tables = {t.metric.name: t for t in res.tables.get((swap, wl), [])}
    if wl != "phased":
        return tables.get(model.headline(wl).name)
    parts = {m: tables[m].vs_best.get(setting) for m in model.PHASES if m in tables}
    w = why.worst(parts) if len(parts) == len(model.PHASES) else None
    return tables[w] if w else None


def _reason(data, res, swap, wl, setting, caps):
    """Where the daemon held the knob while the missing figure was measured: when the best
    static value is above the daemon's top, that top and the share of the time at it and above it (caps:
    the tops already named in this swap mode's words, for 'the same cap'); else the knob's
    median. '' without a static best or a time series."""
    t = _figure(res, swap, wl, setting)
    if t is None or not model.is_static(t.best):
        return ""
    values, _ = data.knob_in_window(swap, wl, setting, model.MARKS.get(t.metric.name))
    if not values:
        return ""
    best, top = int(t.best), data.daemon_max(swap, setting)
    where = f"in {phase_name(t)}, " if wl == "phased" else ""
    if top is None or best <= top:
        return f": {where}where {best} is best, the knob's median is {fmt(statistics.median(values))}"
    at_top = next((b.share for b in why.bands(values, top, best) if b.low == b.high == top), 0.0)
    # Above the top: the daemon itself went there (tendency or workingset going above max = auto's top).
    above = sum(1 for v in values if v > top) / len(values)
    if top in caps:
        return (f": {where}the same cap, at {top} for {_pct(at_top)} of the time"
                + (f" and above it for {_pct(above)}" if above else "") + f", where {best} is best")
    caps.add(top)
    whose = (f"max = auto allows on {data.title(swap)}" if data.max_is_auto(setting)
             else f"max = {top} sets")
    cost = ""
    if wl == "phased":
        up, down, _ = data.phase_change_groups(swap, top)
        if up and down:
            cost = (f"; the runs above {top} when phase 2 began took {span([t for _, t in up])} s for it, "
                    f"against {span([t for _, t in down])} s at or below {top}")
    if above:
        return (f": {where}where {best} is best, the knob was above {top}, the top that {whose}, for {_pct(above)} "
                f"of the time and at it for {_pct(at_top)}{cost}")
    return (f": {where}where {best} is best, the knob cannot go above {top}, the top that {whose}, and is there "
            f"for {_pct(at_top)} of the time{cost}")


def _mean(c, r, n_wl):
    b = model.TARGET_GEOMEAN_MAX
    return (f"On average over the {n_wl} workloads (geometric mean), at most {fmt_ratio(b)} times the best fixed "
            f"value's time: {'met' if c.met else 'missed'} at {_num(r, b)}.")


def _every(c, data, res, swap, setting, rows):
    b = model.TARGET_RATIO_MAX
    caps = set()
    out = f"Within {_pct(b - 1)} of the best fixed value on every workload: "
    if c.workloads:
        out += "missed on " + _and(f"{w} ({_num(rows.get(w), b)}"
                                   + ("" if why.within_noise(rows[w]["low"], rows[w]["high"], b)
                                      else _reason(data, res, swap, w, setting, caps)) + ")"
                                   for w in c.workloads)
    met = _met(c, rows, b)
    return out + ("; " if c.workloads and met else "") + met + "."


def _phased(c, data, res, swap, setting, r):
    """Better than every static value on phased: against each one's figure as a whole
    (why.versus_statics, as RESULTS.md), and as the target is defined, against the best static
    value of each phase at once."""
    head = {s: res.head.get((swap, "phased", s)) for s in data.settings}
    vs = why.versus_statics(head, setting, data.statics)
    out = "On phased, better than every fixed value: "
    beaten = why.better_than_every(vs)
    if vs:
        order = sorted(vs, key=lambda s: head[s].ratio)
        if beaten:
            out += (f"met against each one's time as a whole ({fmt_ratio(vs[order[0]].ratio)} times that of static "
                    f"{order[0]}, the best of them), ")
        else:
            out += "missed against " + _and(
                f"static {s}{', the best of them as a whole' if s == order[0] else ''} ({fmt_ratio(vs[s].ratio)}"
                + (f", {NOISE}" if stats.verdict(vs[s]) == "same" else "") + ")"
                for s in order if stats.verdict(vs[s]) != "better") + ", "
    tables = {t.metric.name: t for t in res.tables.get((swap, "phased"), [])}
    each = ", ".join(f"{tables[m].best} in {phase_name(tables[m])}" for m in model.PHASES if m in tables)
    verdict = ("and even" if c.met else "but not" if beaten else "and") if vs else ("met" if c.met else "missed")
    floors = "" if c.met else "".join(
        f" In {phase_name(f.table)} the best fixed value takes {fmt_ratio(1 / f.ratio)} times the work's own CPU time, "
        "which no setting saves: " + (f"no setting can be more than {_pct(1 - f.ratio)} faster there."
                                      if _pct(1 - f.ratio) != "0%" else "no setting can be faster there.")
        for f in phase_floors(data, tables, swap))
    return (out + verdict + f" against the best fixed value of each phase at once ({each}: "
            f"{_num(r, model.TARGET_PHASED_HIGH_BELOW)})." + floors + _switches(data, setting, head))


def _switches(data, setting, head):
    """' A switch at the exact boundary, ...': what each switch setting of the run reached
    against the best fixed value of each phase, and the setting against it ('' without one)."""
    def noise(x):
        return f", {NOISE}" if stats.verdict(x) == "same" else ""

    out = ""
    for _, a, b, h, vs in why.switches(head, setting, data.switches):
        if vs is None:
            continue
        out += (f" A switch at the exact boundary, {a} in phase 1 and {b} from phase 2 on (written by the workload "
                f"itself: the most a controller could do), came to {fmt_ratio(h.ratio)} times the best fixed values "
                f"of the phases{noise(h)}, and the default to {fmt_ratio(vs.ratio)} times the switch's{noise(vs)}.")
    return out


def _vs60(c, swap, setting, rows, rows60):
    b, k = model.TARGET_VS_60_MAX, model.KERNEL_DEFAULT
    out = f"At least {_pct(1 - b)} better than the kernel's {k} (at most {fmt_ratio(b)} of its time) wherever {k} is not "
    if not c.among:
        return out + f"the best fixed value: {k} is the best fixed value on every workload."
    out += "the best fixed value: "
    missed = []
    for w in c.workloads:
        s60 = _row(rows, swap, w, "static " + k)
        best = 1 / s60["ratio"] if s60 and s60["ratio"] else None
        missed.append(f"{w} ({_num(rows60.get(w), b)}"
                      + (f"; even the best fixed value is at {fmt_ratio(best)}" if best and best > b else "") + ")")
    met = _met(c, rows60, b)
    return out + ("missed on " + _and(missed) if missed else "") + ("; " if missed and met else "") + met + "."


def _writes(data, swap, setting):
    """How often the setting wrote vm.swappiness, per workload (issue 13: never oscillate); None
    without a run that counted its writes."""
    per = [(w, statistics.median(v)) for w in data.workloads if (v := data.writes_per_min(swap, w, setting))]
    if not per:
        return None
    return ("How often it changed vm.swappiness, in writes a minute of the median run: "
            + ", ".join(f"{w} {x:.1f}" for w, x in per) + ".")


def lines(data, res, rows, rows60, checks, setting="default"):
    """The README's words on the shipped default's targets. checks: choose.check_targets' list
    for the setting. [] without checks."""
    lbl = model.label(setting)
    if not checks:
        return []
    out = [f"How the default does against the goals set for it, in the figures of the table (lower is better). "
           f"\"{NOISE.capitalize()}\": the figure's interval includes the goal's bound, so with "
           f"{data.host.get('reps', '?')} repetitions whether the goal is met is not distinguishable from noise. "
           "[bench/RESULTS.md](bench/RESULTS.md) has every interval and why each goal is missed.", ""]
    for swap in data.swaps:
        cs = {c.key: c for c in checks if c.swap == swap}
        if not cs:
            continue
        mine = {r["workload"]: r for r in rows if r["swap"] == swap and r["setting"] == lbl}
        mine60 = {r["workload"]: r for r in rows60 if r["swap"] == swap and r["setting"] == lbl}
        out.append(f"- **{data.title(swap)}**:")
        if "b" in cs:
            out.append("  - " + _mean(cs["b"], mine[GEOMEAN], len(data.workloads)))
        if "a" in cs:
            out.append("  - " + _every(cs["a"], data, res, swap, setting, mine))
        if "c" in cs:
            out.append("  - " + _phased(cs["c"], data, res, swap, setting, mine.get("phased")))
        if "d" in cs:
            out.append("  - " + _vs60(cs["d"], swap, setting, rows, mine60))
        wr = _writes(data, swap, setting)
        if wr:
            out.append("  - " + wr)
    return out + [""]
