"""How the shipped default does against issue 46's targets, in plain words for the README
headline: a bullet per LRU and swap mode, a clause per target, each met or missed with the figure
and its interval (choose.check_targets' details). The README keeps the internal names out, so
its words say goals, not issue 46's targets (1) to (4). Text only: every number comes from the
arguments."""
from . import model
from .text import and_list, fmt_ci, fmt_ratio


def _verdict(c, reach=None):
    """'met (detail)' or '**missed** (detail)'; a missed (1) with reach (the best fixed value of
    each workload against 60, oracle.oracle's geometric mean) gives that figure too."""
    detail = c.detail
    if not c.met and c.key == "1" and reach is not None:
        detail = "; ".join(x for x in (detail, f"the best fixed value for each workload: "
                                               f"{fmt_ci(reach.ratio, reach.low, reach.high)}") if x)
    return ("met" if c.met else "**missed**") + (f" ({detail})" if detail else "")


def _clauses(cs, reach=None):
    k60 = model.KERNEL_DEFAULT
    words = {
        "1": f"a clear win over {k60} on average",
        "2": f"a clear loss to {k60} on no workload",
        "3": (f"at most {fmt_ratio(model.TARGET_GEOMEAN_MAX)} times the best fixed value on average, and clearly above "
              f"{fmt_ratio(model.TARGET_WORKLOAD_LOW_ABOVE)} times it on no workload"),
        "4": f"at most {model.TARGET_WRITES_PER_MIN_MAX} writes of vm.swappiness a minute (each workload's median run)",
    }
    return "; ".join(f"{words[c.key]}: {_verdict(c, reach)}" for c in cs if c.key in words)


def lines(data, checks, reach=None):
    """The README's words on the shipped default's goals. checks: choose.check_targets' list for
    the shipped row (data.shipped); reach: {mode: Ratio}, the best fixed value the daemon may write for each
    workload against 60, as a geometric mean (oracle.oracle), said where (1) is missed. [] without
    checks."""
    if not checks:
        return []
    out = [f"The goals the default is held to, per {'LRU and ' if data.lru_named() else ''}swap mode (figures: its time over the other setting's, lower is "
           "better, with the 95% interval in brackets; a clear win or loss is one whose interval lies wholly on one "
           "side; [bench/RESULTS.md](bench/RESULTS.md) explains each miss):", ""]
    for swap in data.swaps:
        cs = [c for c in checks if c.swap == swap]
        if cs:
            out.append(f"- **{data.title(swap)}**: {_clauses(cs, (reach or {}).get(swap))}.")
    return out + [""]


def in_short(data, checks, reach=None):
    """One paragraph that answers 'is it worth running?' before any table: in how many LRU and swap
    modes the shipped default clearly beats 60 on average (target 1), on which workloads it clearly
    loses to 60 (target 2), and where it does not win, whether a fixed value chosen for each
    workload with hindsight (the oracle, reach) clearly beats 60 there: if not, what swappiness
    can buy on these workloads is inside the noise. [] without checks."""
    if not checks:
        return []
    k60, bound = model.KERNEL_DEFAULT, model.TARGET_WIN60_HIGH_BELOW
    modes = [m for m in data.swaps if any(c.swap == m for c in checks)]
    name = {m: data.title(m).replace(", ", " under the ") for m in modes}
    won = [m for m in modes if any(c.swap == m and c.key == "1" and c.met for c in checks)]
    lost = [(m, c) for m in modes for c in checks if c.swap == m and c.key == "2" and c.workloads]
    kind = "LRU and swap modes" if data.lru_named() else "swap modes"
    if len(won) == len(modes):
        what = f"in {'both' if len(modes) == 2 else f'all {len(modes)}'} {kind}" if len(modes) > 1 else f"in {name[modes[0]]}"
        s = f"the shipped default clearly beats the kernel's {k60} on average {what}"
    elif not won:
        s = (f"the shipped default clearly beats the kernel's {k60} on average in "
             + (f"neither {kind[:-1]}" if len(modes) == 2 else f"none of the {len(modes)} {kind}")
             if len(modes) > 1 else f"the shipped default does not clearly beat the kernel's {k60} on average in {name[modes[0]]}")
    else:
        s = (f"the shipped default clearly beats the kernel's {k60} on average in {and_list(name[m] for m in won)}, "
             f"not in {and_list(name[m] for m in modes if m not in won)}")
    if lost:
        s += ("; it clearly loses to it on " + and_list(
            f"{and_list(c.workloads)} in {name[m]}" for m, c in lost))
    else:
        s += f", and it clearly loses to {k60} on no workload"
    s += "."
    rest = [m for m in modes if m not in won and (reach or {}).get(m) is not None and reach[m].high is not None]
    clear = [m for m in rest if reach[m].high < bound]
    if rest:
        hind = "a fixed value chosen for each workload with hindsight"
        if clear:
            s += (f" Where it does not, {hind} clearly beats {k60} in " + and_list(
                f"{name[m]} ({fmt_ci(reach[m].ratio, reach[m].low, reach[m].high)})" for m in clear))
            s += (f", and in none of the others: on these workloads, what vm.swappiness can buy over {k60} there "
                  "stays inside the measurement's noise." if len(clear) < len(rest) else ".")
        else:
            s += (f" Nor does {hind} clearly beat {k60} there ("
                  + and_list(f"{fmt_ci(reach[m].ratio, reach[m].low, reach[m].high)} in {name[m]}" for m in rest)
                  + f"): on these workloads, what vm.swappiness can buy over {k60} stays inside the measurement's noise.")
    return [f"**In short**: {s}", ""]
