"""How the shipped default does against issue 46's targets, in plain words for the README
headline: a bullet per LRU and swap mode, a clause per target, each met or missed with the figure
and its interval (choose.check_targets' details). The README keeps the internal names out, so
its words say goals, not issue 46's targets (1) to (4). Text only: every number comes from the
arguments."""
from . import model
from .text import fmt_ci, fmt_ratio


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
