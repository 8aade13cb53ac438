"""Medians, noise (coefficient of variation) and bootstrap intervals of ratios between
settings. The helpers are pure functions of numbers; compute() applies them to a run's Data.

A ratio compares a setting's median with a reference's (the best static value, or static 60),
oriented so that lower is better: a time counts as it is, a throughput as its inverse. Its
interval comes from resampling each setting's repetitions with replacement (all metrics of
one setting from the same draws, so that phase 1 and phase 2 of a run stay together) and
taking the ratio of the medians each time (model.BOOTSTRAP_SAMPLES times, fixed seeds)."""
import math
import random
import statistics
from collections import namedtuple

from . import model

NAN = float("nan")
Z = statistics.NormalDist().inv_cdf(0.5 + model.CONFIDENCE / 2)


class Stat:
    """Median, range and coefficient of variation of one setting's values."""

    def __init__(self, values):
        v = sorted(values)
        self.values = v
        self.n = len(v)
        self.med = statistics.median(v) if v else None
        self.lo = v[0] if v else None
        self.hi = v[-1] if v else None
        self.cv = cv(v)


def cv(values):
    """Sample standard deviation over the mean; None with fewer than 2 values or a zero mean."""
    if len(values) < 2:
        return None
    m = statistics.fmean(values)
    return statistics.stdev(values) / m if m else None


def div(a, b):
    """a / b, where 0 / 0 is 1 (nothing against nothing: the same) and x / 0 is infinite."""
    if b == 0:
        return 1.0 if a == 0 else math.inf
    return a / b


def oriented(m, ref, lower):
    """m against ref so that lower is better: m / ref, or ref / m for a throughput."""
    return div(m, ref) if lower else div(ref, m)


def geomean(xs):
    if any(math.isinf(x) for x in xs):
        return math.inf
    if any(x <= 0 for x in xs):
        return 0.0
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def resamples(reps, key, samples=model.BOOTSTRAP_SAMPLES):
    """samples draws of len(reps) repetitions with replacement; the same draws for the same key."""
    rng = random.Random(f"{model.BOOTSTRAP_SEED}/{key}")
    reps = sorted(reps)
    return [rng.choices(reps, k=len(reps)) for _ in range(samples)] if reps else []


def resampled_medians(by_rep, draws):
    """For each draw, the median of by_rep over the drawn repetitions that have a value."""
    out = []
    for d in draws:
        v = [by_rep[r] for r in d if r in by_rep]
        out.append(statistics.median(v) if v else NAN)
    return out


def percentile(sorted_values, p):
    """Linear interpolation between the closest ranks; p in 0..1."""
    if not sorted_values:
        return None
    x = p * (len(sorted_values) - 1)
    i = int(math.floor(x))
    j = min(i + 1, len(sorted_values) - 1)
    a, b = sorted_values[i], sorted_values[j]
    if math.isinf(a) or math.isinf(b):
        return a if x - i < 0.5 else b
    return a + (b - a) * (x - i)


def level(n):
    """The nominal level of the percentiles that makes a model.CONFIDENCE interval with n runs
    (the fewer of the two settings')."""
    return model.BOOTSTRAP_LEVEL.get(n, model.CONFIDENCE)


def interval(replicates, n=None):
    """The central interval of bootstrap replicates (NaNs left out) at level(n)."""
    v = sorted(x for x in replicates if not math.isnan(x))
    if not v:
        return None, None
    a = (1 - (level(n) if n else model.CONFIDENCE)) / 2
    return percentile(v, a), percentile(v, 1 - a)


# n: the fewest runs behind the ratio (None: the reference itself, or no interval).
Ratio = namedtuple("Ratio", "ratio low high reps n", defaults=(None,))


def verdict(r):
    """'same' when the interval includes 1, 'worse' when it lies above, 'better' below; ''
    without an interval."""
    if r is None or r.low is None:
        return ""
    if r.low > 1:
        return "worse"
    if r.high < 1:
        return "better"
    return "same"


def ratio(s_by_rep, ref_by_rep, lower, s_draws, ref_draws, same=False):
    """The setting's median against the reference's (lower is better) with its interval from
    the draws of each one's repetitions; None without values. same: the setting is the
    reference, exactly 1. Fewer than model.MIN_N runs on either side: no interval."""
    if not s_by_rep or not ref_by_rep:
        return None
    if same:
        return Ratio(1.0, 1.0, 1.0, [1.0] * model.BOOTSTRAP_SAMPLES)
    point = oriented(statistics.median(s_by_rep.values()), statistics.median(ref_by_rep.values()), lower)
    if len(s_by_rep) < model.MIN_N or len(ref_by_rep) < model.MIN_N:
        return Ratio(point, None, None, None)
    n = min(len(s_by_rep), len(ref_by_rep))
    a = resampled_medians(s_by_rep, s_draws)
    b = resampled_medians(ref_by_rep, ref_draws)
    reps = [NAN if math.isnan(x) or math.isnan(y) else oriented(x, y, lower) for x, y in zip(a, b)]
    low, high = interval(reps, n)
    return Ratio(point, low, high, reps, n)


def combine(ratios, fn):
    """fn (max: the worse phase; geomean: over workloads) of several ratios, replicate by
    replicate for the interval; None if any is missing, no interval if any has none."""
    if not ratios or any(r is None for r in ratios):
        return None
    point = fn([r.ratio for r in ratios])
    if any(r.reps is None for r in ratios):
        return Ratio(point, None, None, None)
    reps = [NAN if any(math.isnan(x) for x in xs) else fn(list(xs)) for xs in zip(*(r.reps for r in ratios))]
    ns = [r.n for r in ratios if r.n]
    n = min(ns) if ns else None
    low, high = interval(reps, n)
    return Ratio(point, low, high, reps, n)


def reps_needed(c, target=model.RESOLVE_RATIO):
    """Repetitions per setting for the interval of a ratio between two settings with noise c to
    exclude 1 when the true ratio is target (normal approximation on the logarithms)."""
    return math.ceil(2 * (Z * c / math.log(target)) ** 2)


def runs_to_resolve(r):
    """The repetitions per setting at which r's interval would leave 1 if its ratio stayed where
    it is and its width shrank as 1/sqrt(n) (the side toward 1 counts); None when r has no
    interval or already leaves 1, and math.inf when the ratio is within model.NEGLIGIBLE of 1."""
    if r is None or r.low is None or r.n is None or not r.low <= 1 <= r.high:
        return None
    far = abs(math.log(r.ratio)) if r.ratio > 0 else 0.0
    if far < math.log(model.NEGLIGIBLE):
        return math.inf
    side = math.log(r.high / r.ratio) if r.ratio < 1 else math.log(r.ratio / r.low)
    return max(r.n + 1, math.ceil(r.n * (side / far) ** 2))


def resolvable(c, n):
    """The smallest ratio that n repetitions per setting tell from 1 at noise c (same approximation)."""
    return math.exp(Z * c * math.sqrt(2 / n))
