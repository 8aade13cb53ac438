"""The default policy and the targets it is held to, decided from the rows of targets.csv
(and against60.csv) alone. Pure: no files, no printing."""
from collections import namedtuple

from . import model
from . import stats
from . import text
from .targets import GEOMEAN

DEFAULT = "daemon default"


def _per_setting(rows):
    per, need = {}, set()
    for r in rows:
        if r["workload"] == GEOMEAN or r["ratio"] is None:
            continue
        if r["setting"].startswith("static "):
            need.add((r["swap"], r["workload"]))
        per.setdefault(r["setting"], {})[(r["swap"], r["workload"])] = r["ratio"]
    return per, need


def choose_default(rows, policy_of, met=None, prefer=DEFAULT):
    """The policy to ship as the default, and {setting: geometric mean} of the candidates.

    rows: targets.csv rows (swap, workload, setting, ratio...). policy_of: {setting: policy}
    for the daemon settings that run a policy as shipped otherwise ("daemon default": the
    shipped policy; "daemon ck": ck...). met: {setting: how many of issue 46's targets it
    meets over every LRU and swap mode} (check_targets), or None. The winner is the candidate
    that meets the most targets, then the one with the lowest geometric mean of its ratios
    over every (swap mode, workload) that a static value was measured on: the targets are
    judged by intervals, and a geometric mean lower inside the noise is no reason to give up
    a target (a policy that writes less). A candidate missing a workload is out. A tie goes
    to prefer, the row of what ships (no change without a reason), then to the first name.
    (None, {}) without a candidate."""
    per, need = _per_setting(rows)
    geo = {}
    for s in policy_of:
        v = per.get(s, {})
        if need and need <= set(v):
            geo[s] = stats.geomean([v[k] for k in sorted(need)])
    if not geo:
        return None, geo
    met = met or {}
    best = min(geo, key=lambda s: (-met.get(s, 0), geo[s], s != prefer, s))
    return policy_of[best], geo


def targets_met(checks):
    """How many of the Checks (check_targets) are met."""
    return sum(1 for c in checks if c.met)


# key: the target's number in RESULTS.md (issue 46's targets, 1-4); detail: the figure and its
# interval (the geometric mean's), or the workloads that miss with theirs ("" when there is
# nothing to say); workloads: those that miss it clearly; among: those it holds on.
Check = namedtuple("Check", "swap target met detail key workloads among", defaults=("", (), ()))


def _ci(r):
    return text.fmt_ci(r["ratio"], r["low"], r["high"])


def _named(rows, ws):
    return ", ".join(f"{w} {_ci(rows[w])}" for w in ws)


def _unresolved(ws):
    return f"no interval on {', '.join(ws)}" if ws else ""


def check_targets(rows, rows60, setting, writes=None):
    """Issue 46's targets for one setting, in every LRU and swap mode (a mode of the rows): a
    list of Check, per mode (1) a clear win over static 60 on the geometric mean, (2) no clear
    loss to it on any workload, (3) the geometric mean at most TARGET_GEOMEAN_MAX of the best
    fixed value and no workload clearly above TARGET_WORKLOAD_LOW_ABOVE of it, and with writes
    ({(mode, workload): the median run's writes a minute}) (4) at most
    TARGET_WRITES_PER_MIN_MAX of them on every workload. A figure without an interval (too few
    runs) or not measured shows nothing: the target is missed, not met."""
    out = []
    for swap in dict.fromkeys(r["swap"] for r in rows):
        mine = {r["workload"]: r for r in rows if r["swap"] == swap and r["setting"] == setting}
        wls = [w for w in mine if w != GEOMEAN]
        if not wls:
            continue
        m60 = {r["workload"]: r for r in rows60 if r["swap"] == swap and r["setting"] == setting}
        out += [_win60(swap, m60), _loss60(swap, m60, wls), _best(swap, mine, wls)]
        if writes is not None:
            out.append(_writes(swap, wls, writes))
    return out


def _win60(swap, m60):
    b, g = model.TARGET_WIN60_HIGH_BELOW, m60.get(GEOMEAN)
    ok = g is not None and g["high"] is not None and g["high"] < b
    return Check(swap, f"against static 60, the geometric mean's interval below {b:.2f}", ok,
                 _ci(g) if g is not None else "not measured", "1")


def _loss60(swap, m60, wls):
    b = model.TARGET_LOSS60_LOW_ABOVE
    clear = [w for w in wls if w in m60 and m60[w]["low"] is not None and m60[w]["low"] > b]
    unknown = [w for w in wls if w not in m60 or m60[w]["low"] is None]
    detail = "; ".join(x for x in (_named(m60, clear), _unresolved(unknown)) if x)
    if not detail and wls:  # met: the workload that came closest
        top = max(wls, key=lambda w: m60[w]["ratio"])
        detail = f"highest {_named(m60, [top])}"
    return Check(swap, f"against static 60, no workload's interval above {b:.2f}", not clear and not unknown,
                 detail, "2", tuple(clear), tuple(wls))


def _best(swap, mine, wls):
    b, g = model.TARGET_WORKLOAD_LOW_ABOVE, mine.get(GEOMEAN)
    clear = [w for w in wls if mine[w]["low"] is not None and mine[w]["low"] > b]
    unknown = [w for w in wls if mine[w]["low"] is None]
    geo_ok = g is not None and g["ratio"] is not None and g["ratio"] <= model.TARGET_GEOMEAN_MAX
    detail = "; ".join(x for x in (
        f"geometric mean {_ci(g) if g is not None else 'not measured'}",
        f"above {b:.2f}: {_named(mine, clear)}" if clear else "", _unresolved(unknown)) if x)
    return Check(swap, f"against the best fixed value, the geometric mean at most {model.TARGET_GEOMEAN_MAX:.2f} and "
                 f"no workload's interval above {b:.2f}", geo_ok and not clear and not unknown, detail, "3",
                 tuple(clear), tuple(wls))


def _writes(swap, wls, writes):
    b = model.TARGET_WRITES_PER_MIN_MAX
    per = {w: writes[(swap, w)] for w in wls if (swap, w) in writes}
    over = [w for w in wls if w in per and per[w] > b]
    unknown = [w for w in wls if w not in per]
    if over:
        detail = ", ".join(f"{w} {per[w]:.1f}" for w in over)
    elif per:
        top = max(per, key=per.get)
        detail = f"at most {per[top]:.1f}, {top}"
    else:
        detail = ""
    detail = "; ".join(x for x in (detail, "not counted on " + ", ".join(unknown) if unknown else "") if x)
    return Check(swap, f"at most {b} writes a minute in the median run of every workload", not over and not unknown,
                 detail, "4", tuple(over), tuple(wls))
