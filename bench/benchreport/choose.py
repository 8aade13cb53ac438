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


def choose_default(rows, policy_of):
    """The policy to ship as the default, and {setting: geometric mean} of the candidates.

    rows: targets.csv rows (swap, workload, setting, ratio...). policy_of: {setting: policy}
    for the daemon settings that run a policy as shipped otherwise ("daemon default": the
    shipped policy; "daemon ck": ck...). The winner is the candidate with the lowest geometric
    mean of its ratios over every (swap mode, workload) that a static value was measured on;
    a candidate missing one of them is out. A tie goes to "daemon default" (no change without
    a reason), then to the first name. (None, {}) without a candidate."""
    per, need = _per_setting(rows)
    geo = {}
    for s in policy_of:
        v = per.get(s, {})
        if need and need <= set(v):
            geo[s] = stats.geomean([v[k] for k in sorted(need)])
    if not geo:
        return None, geo
    best = min(geo, key=lambda s: (geo[s], s != DEFAULT, s))
    return policy_of[best], geo


# key: the target's letter in RESULTS.md (a-d); workloads: those that miss it; among: those it
# holds on (b, the geometric mean: none of its own).
Check = namedtuple("Check", "swap target met detail key workloads among", defaults=("", (), ()))


def _ci(r):
    return text.fmt_ci(r["ratio"], r["low"], r["high"])


def check_targets(rows, rows60, setting):
    """Issue 13's targets (and issue 5's against static 60) for one setting, per swap mode:
    a list of Check(swap, target, met, detail)."""
    out = []
    for swap in dict.fromkeys(r["swap"] for r in rows):
        mine = {r["workload"]: r for r in rows if r["swap"] == swap and r["setting"] == setting}
        wls = [w for w in mine if w != GEOMEAN]
        if not wls:
            continue
        over = [w for w in wls if mine[w]["ratio"] > model.TARGET_RATIO_MAX]
        out.append(Check(swap, f"ratio at most {model.TARGET_RATIO_MAX:.2f} on every workload", not over,
                         ", ".join(f"{w} {_ci(mine[w])}" for w in over) if over else "met", "a", tuple(over),
                         tuple(wls)))
        g = mine.get(GEOMEAN)
        if g is not None:
            ok = g["ratio"] <= model.TARGET_GEOMEAN_MAX
            out.append(Check(swap, f"geometric mean at most {model.TARGET_GEOMEAN_MAX:.2f}", ok,
                             _ci(g), "b"))
        p = mine.get("phased")
        if p is not None:
            ok = p["high"] is not None and p["high"] < model.TARGET_PHASED_HIGH_BELOW
            out.append(Check(swap, f"phased: interval below {model.TARGET_PHASED_HIGH_BELOW:.2f} (better than every "
                             "static value)", ok, _ci(p), "c", () if ok else ("phased",), ("phased",)))
        out.append(_check_vs60(rows, rows60, swap, setting, wls))
    return out


def _check_vs60(rows, rows60, swap, setting, wls):
    s60 = {r["workload"]: r for r in rows if r["swap"] == swap and r["setting"] == "static " + model.KERNEL_DEFAULT}
    m60 = {r["workload"]: r for r in rows60 if r["swap"] == swap and r["setting"] == setting}
    where = [w for w in wls if w in s60 and s60[w]["ratio"] > 1]
    miss = [w for w in where if w not in m60 or m60[w]["ratio"] > model.TARGET_VS_60_MAX]
    detail = ("met" if not miss else "; ".join(
        f"{w} (at {_ci(m60[w]) if w in m60 else 'n/a'} of static 60; the best static value is at "
        f"{text.fmt_ratio(1 / s60[w]['ratio']) if s60[w]['ratio'] else 'n/a'})" for w in miss))
    return Check(swap, f"at most {model.TARGET_VS_60_MAX:.2f} of static 60 where 60 is not the best static value "
                 f"({', '.join(where) or 'nowhere'})", not miss, detail, "d", tuple(miss), tuple(where))
