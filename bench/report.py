#!/usr/bin/env python3
"""Turn the raw results of bench/run.sh into bench/RESULTS.md, CSV tables and gnuplot PNGs.

    bench/report.py RESULTS_DIR BENCH_DIR

RESULTS_DIR (build/bench/results) holds all-runs.csv, all-metrics.csv, cost.csv, ts/, logs/,
host-info.txt and guest-info-*.txt as the guests and bench/run.sh wrote them. Writes
BENCH_DIR/RESULTS.md, BENCH_DIR/results/*.csv and BENCH_DIR/plots/*.png, and the block between
the bench markers of README.md next to BENCH_DIR. Every number in them comes from RESULTS_DIR.
Standard library only, plus the gnuplot program.
"""
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys

# workload -> [(metric, label, unit, lower_is_better)], the first one is the headline metric.
METRICS = {
    "dirtier": [("dirtier_median_s", "seconds per pass (median of passes 2..N)", "s", True)],
    "compile": [("build_s", "build wall time", "s", True)],
    "compile-stream": [("build_s", "build wall time", "s", True),
                       ("stream_mbps", "recursive read (cat) throughput", "MB/s", False)],
    "responsiveness": [("probe_p99_ms", "probe latency p99", "ms", True),
                       ("probe_p50_ms", "probe latency p50", "ms", True),
                       ("probe_max_ms", "probe latency max", "ms", True),
                       ("dirtier_median_s", "heavy dirtier, seconds per pass", "s", True)],
    "phased": [("phase1_s", "phase 1: hot file rounds, total", "s", True),
               ("phase2_anon_mbps", "phase 2: active anon, working set touched per second", "MB/s", False),
               ("phase2_stream_mbps", "phase 2: cold stream throughput", "MB/s", False)],
}
TITLES = {
    "dirtier": "1. dirtier (seed 003, Arcangeli)",
    "compile": "2. compile under pressure (seeds 000, 004)",
    "compile-stream": "3. compile + streaming reads (seed 004, Morton)",
    "responsiveness": "4. responsiveness: hundreds of processes + heavy dirtier (seed 001, Fremlin)",
    "phased": "5. phased: idle anon + hot files, then active anon + cold stream",
}
RUN_COLS = [("psi_some_ms", "PSI some s", 1000.0), ("psi_full_ms", "PSI full s", 1000.0),
            ("pswpin", "pswpin", 1), ("pswpout", "pswpout", 1),
            ("refault_anon", "refault anon", 1), ("refault_file", "refault file", 1), ("wall_s", "wall s", 1)]


# Time metrics for which a run killed at BENCH_RUN_TIMEOUT counts with its wall time (a lower
# bound), so that a stand-off shows as the worst value instead of vanishing.
CENSORED = {"build_s", "phase1_s", "dirtier_median_s"}

# Fewer runs than this per setting: no claim that a difference is real.
MIN_N = 3


def is_static(s):
    return s.isdigit()


def fnum(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def fmt(v, unit=""):
    if v is None:
        return "n/a"
    a = abs(v)
    if v == int(v) and a >= 1 or v == 0:
        return f"{v:.0f}"
    s = f"{v:.0f}" if a >= 100 else f"{v:.1f}" if a >= 10 else f"{v:.2f}" if a >= 0.1 else f"{v:.3f}"
    return s


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_kv(path):
    d = {}
    if os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                d[k] = v
    return d


class Stat:
    def __init__(self, values):
        self.values = sorted(values)
        self.n = len(values)
        self.med = statistics.median(values) if values else None
        self.lo = self.values[0] if values else None
        self.hi = self.values[-1] if values else None


def better(a, b, lower):
    """True when median a is better than median b."""
    return a < b if lower else a > b


def real_diff(a, b, lower):
    """'better', 'worse' or '' (ranges overlap) for Stat a against Stat b."""
    if a.n < MIN_N or b.n < MIN_N:
        return "few"
    if a.hi < b.lo:
        return "better" if lower else "worse"
    if a.lo > b.hi:
        return "worse" if lower else "better"
    return ""


def gnuplot(script):
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        sys.stderr.write("report.py: gnuplot failed:\n" + r.stderr + "\n--- script:\n" + script)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py RESULTS_DIR BENCH_DIR")
    rdir, bdir = sys.argv[1], sys.argv[2]
    host = read_kv(os.path.join(rdir, "host-info.txt"))
    guest = {}
    for f in sorted(os.listdir(rdir)) if os.path.isdir(rdir) else []:
        if f.startswith("guest-info-"):
            guest.update(read_kv(os.path.join(rdir, f)))
    runs = [r for r in read_csv(os.path.join(rdir, "all-runs.csv")) if r.get("warmup") == "0"]
    metrics = []
    seen = set()
    for m in read_csv(os.path.join(rdir, "all-metrics.csv")):
        key = (m.get("workload"), m.get("setting"), m.get("rep"), m.get("metric"))
        # A workload may print a figure twice (its own line and a tool's): the first one counts.
        if m.get("warmup") == "0" and key not in seen:
            seen.add(key)
            metrics.append(m)
    cost = read_csv(os.path.join(rdir, "cost.csv"))
    if not runs:
        sys.exit(f"report.py: no runs in {rdir}/all-runs.csv")
    settings = host.get("settings", "").split() or sorted({r["setting"] for r in runs})
    statics = [s for s in settings if is_static(s)]
    policies = [s for s in settings if not is_static(s)]
    workloads = [w for w in host.get("workloads", "").split() if any(r["workload"] == w for r in runs)]

    # Runs that failed (non-zero exit, timeout) give no figures; they are listed.
    bad = [r for r in runs if r["rc"] != "0" or r["note"].strip()]
    ok_runs = {(r["workload"], r["setting"], r["rep"]) for r in runs if r["rc"] == "0"}

    # Killed at the time limit: noted so by the guest, or (runs before the guest noted it
    # reliably) killed by a signal after the limit.
    run_timeout = fnum(host.get("run_timeout_s")) or 180.0
    timed_out = {(r["workload"], r["setting"], r["rep"]): float(r["wall_s"]) for r in runs
                 if fnum(r["wall_s"]) is not None
                 and ("timeout" in r["note"] or (r["rc"] in ("137", "143") and float(r["wall_s"]) >= run_timeout))}

    def values(wl, setting, metric):
        v = [float(m["value"]) for m in metrics
             if m["workload"] == wl and m["setting"] == setting and m["metric"] == metric
             and (wl, setting, m["rep"]) in ok_runs and fnum(m["value"]) is not None]
        # A run killed at the time limit: its wall time is a lower bound of a time metric.
        if metric in CENSORED:
            v += [t for (w, s, _), t in timed_out.items() if w == wl and s == setting]
        return v

    def n_timeouts(wl, setting):
        return sum(1 for (w, s, _) in timed_out if w == wl and s == setting)

    def run_values(wl, setting, col):
        return [float(r[col]) for r in runs if r["workload"] == wl and r["setting"] == setting
                and r["rc"] == "0" and fnum(r[col]) is not None]

    label = {s: (f"static {s}" if is_static(s) else f"daemon {s}") for s in settings}

    os.makedirs(os.path.join(bdir, "plots"), exist_ok=True)
    os.makedirs(os.path.join(bdir, "results"), exist_ok=True)
    for f in os.listdir(os.path.join(bdir, "plots")):
        if f.endswith(".png"):
            os.remove(os.path.join(bdir, "plots", f))
    for src, dst in (("all-runs.csv", "runs.csv"), ("all-metrics.csv", "metrics.csv"), ("cost.csv", "cost.csv")):
        if os.path.exists(os.path.join(rdir, src)):
            shutil.copy(os.path.join(rdir, src), os.path.join(bdir, "results", dst))

    md = []
    head = {}  # workload -> (stats per setting, best static, lower_is_better) of its headline metric
    phased_worse = {}  # setting -> worse-phase slowdown on the phased workload
    summary_rows = []
    headline = []
    losses = []
    wins = []
    for wl in workloads:
        md.append(f"### {TITLES.get(wl, wl)}\n")
        for mi, (metric, mlabel, unit, lower) in enumerate(METRICS.get(wl, [])):
            st = {s: Stat(values(wl, s, metric)) for s in settings}
            have = [s for s in statics if st[s].n]
            if not have:
                continue
            best = min(have, key=lambda s: st[s].med) if lower else max(have, key=lambda s: st[s].med)
            ref = st.get("60") if "60" in have else None
            if mi == 0:
                head[wl] = (st, best, lower)
            md.append(f"**{mlabel}** ({unit}, {'lower' if lower else 'higher'} is better; best static: {best})\n")
            md.append("| setting | n | median | min-max | / static 60 | / best static | vs best static |")
            md.append("| --- | --- | --- | --- | --- | --- | --- |")
            for s in settings:
                x = st[s]
                if x.n == 0:
                    md.append(f"| {label[s]} | 0 | n/a | | | | |")
                    continue
                r60 = fmt(x.med / ref.med) if ref and ref.med else "n/a"
                rb = fmt(x.med / st[best].med) if st[best].med else "n/a"
                d = "best" if s == best else real_diff(x, st[best], lower)
                d = {"better": "**better** (ranges apart)", "worse": "**worse** (ranges apart)",
                     "": "same (ranges overlap)", "few": f"(fewer than {MIN_N} runs)"}.get(d, d)
                to = n_timeouts(wl, s) if metric in CENSORED else 0
                tos = f" ({to} timed out: at least)" if to else ""
                md.append(f"| {label[s]} | {x.n}{tos} | {fmt(x.med)} | {fmt(x.lo)}-{fmt(x.hi)} | {r60} | {rb} | {d} |")
                summary_rows.append([wl, metric, s, x.n, x.med, x.lo, x.hi,
                                     x.med / ref.med if ref and ref.med else "",
                                     x.med / st[best].med if st[best].med else "", best,
                                     real_diff(x, st[best], lower) if s != best else "best"])
                if not is_static(s):
                    rd = real_diff(x, st[best], lower)
                    ratio = x.med / st[best].med if st[best].med else float("nan")
                    if rd == "worse":
                        losses.append(f"{wl} / {mlabel}: daemon {s} median {fmt(x.med)} {unit} vs "
                                      f"static {best} {fmt(st[best].med)} {unit} (x{fmt(ratio)}, ranges apart)")
                    elif better(st[best].med, x.med, lower):
                        why = "too few runs to tell" if rd == "few" else "ranges overlap: not a real loss"
                        losses.append(f"{wl} / {mlabel}: daemon {s} median {fmt(x.med)} {unit} vs "
                                      f"static {best} {fmt(st[best].med)} {unit} (x{fmt(ratio)}, {why})")
                    if rd == "better":
                        wins.append(f"{wl} / {mlabel}: daemon {s} {fmt(x.med)} {unit} beats every run of the best "
                                    f"static ({best}, {fmt(st[best].med)} {unit})")
            md.append("")
            if mi == 0 or wl == "phased":
                ranked = sorted(have, key=lambda s: st[s].med, reverse=not lower)
                pol = ", ".join(f"{p} {fmt(st[p].med)}" for p in policies if st[p].n)
                headline.append(f"| {wl} | {mlabel} ({unit}) | {best} ({fmt(st[best].med)}) | "
                                f"{' < '.join(ranked) if lower else ' > '.join(ranked)} | {pol} |")
            # Bar chart: median with min-max whiskers, statics blue, daemon policies orange.
            dat = os.path.join(rdir, f"bar-{wl}-{metric}.dat")
            with open(dat, "w") as f:
                for i, s in enumerate(settings):
                    x = st[s]
                    if x.n:
                        f.write(f"{i} \"{label[s]}\" {x.med} {x.lo} {x.hi} {1 if is_static(s) else 2}\n")
            png = os.path.join(bdir, "plots", f"bar-{wl}-{metric}.png")
            meds = [st[s].med for s in settings if st[s].n and st[s].med > 0]
            # Medians over more than two decades: a log axis, or the small bars vanish.
            yaxis = ("set logscale y\nset yrange [*:*]\nset boxwidth 0.6\n"
                     if meds and max(meds) / min(meds) > 100 else "set yrange [0:*]\n")
            gnuplot(f"""
set terminal pngcairo size 800,420 font "DejaVu Sans,10"
set output "{png}"
set title "{wl}: {mlabel} ({unit}, {'lower' if lower else 'higher'} is better{', log scale' if 'logscale' in yaxis else ''})\\nmedian of {max(st[s].n for s in have)} runs, whiskers min-max"
set style fill solid 0.7 border -1
set boxwidth 0.6
{yaxis}set grid ytics
set xtics rotate by -30 noenhanced
unset key
plot "{dat}" using 1:3:6:xtic(2) with boxes lc variable, "" using 1:3:4:5 with yerrorbars lc rgb "black" pt 0
""")
            md.append(f"![{wl} {metric}](plots/bar-{wl}-{metric}.png)\n")
        # Kernel counters and PSI per run (medians).
        md.append("Per run, medians over the repetitions: PSI memory stall totals (seconds), swap-ins and "
                  "swap-outs (pages), workingset refaults (pages), wall time of the whole run.\n")
        md.append("| setting | " + " | ".join(c[1] for c in RUN_COLS) + " |")
        md.append("| --- |" + " --- |" * len(RUN_COLS))
        for s in settings:
            cells = []
            for col, _, div in RUN_COLS:
                v = run_values(wl, s, col)
                cells.append(fmt(statistics.median(v) / div) if v else "n/a")
            md.append(f"| {label[s]} | " + " | ".join(cells) + " |")
        md.append("")

    # Phased: how far each setting is from the best static value in each phase, and in its worse
    # phase. A setting good at both phases has a worst-phase factor near 1.
    both_md = []
    if "phased" in workloads:
        p1 = {s: Stat(values("phased", s, "phase1_s")) for s in settings}
        p2 = {s: Stat(values("phased", s, "phase2_anon_mbps")) for s in settings}
        h1 = [s for s in statics if p1[s].n]
        h2 = [s for s in statics if p2[s].n]
        if h1 and h2:
            b1 = min(h1, key=lambda s: p1[s].med)
            b2 = max(h2, key=lambda s: p2[s].med)
            both_md.append(f"Slowdown against the best static value of each phase (phase 1: static {b1}, "
                           f"{fmt(p1[b1].med)} s; phase 2: static {b2}, {fmt(p2[b2].med)} MB/s), from the medians; "
                           "the last column is the worse of the two.\n")
            both_md.append("| setting | phase 1 time / best | phase 2 best / anon throughput | worse phase |")
            both_md.append("| --- | --- | --- | --- |")
            rows_b = []
            for s in settings:
                if not (p1[s].n and p2[s].n) or not p1[b1].med or not p2[s].med:
                    continue
                f1 = p1[s].med / p1[b1].med
                f2 = p2[b2].med / p2[s].med
                rows_b.append((max(f1, f2), s, f1, f2))
                phased_worse[s] = max(f1, f2)
            for worst, s, f1, f2 in sorted(rows_b):
                both_md.append(f"| {label[s]} | {fmt(f1)} | {fmt(f2)} | {fmt(worst)} |")
            both_md.append("")
            st_rows = sorted(r for r in rows_b if is_static(r[1]))
            if st_rows:
                headline.append(f"| phased | worse phase, slowdown against each phase's best static | "
                                f"{st_rows[0][1]} ({fmt(st_rows[0][0])}) | "
                                + " < ".join(r[1] for r in st_rows) + " | "
                                + ", ".join(f"{r[1]} {fmt(r[0])}" for r in sorted(rows_b) if not is_static(r[1]))
                                + " |")
            if rows_b:
                md.append("### 5b. phased: both phases at once\n")
                md.extend(both_md)

    # Issue 5's targets for the default policy, and the choice of the default: every setting's
    # slowdown against the best static value of each workload (headline metric; phased: the
    # worse phase), from the medians. A throughput counts as its inverse, so > 1 is worse.
    slow = {}
    for wl, (st, best, lower) in head.items():
        if wl == "phased":
            continue
        for s in settings:
            if st[s].n and st[best].med and st[s].med:
                slow[(s, wl)] = st[s].med / st[best].med if lower else st[best].med / st[s].med
    ph_statics = [v for s, v in phased_worse.items() if is_static(s)]
    if ph_statics:
        for s, v in phased_worse.items():
            slow[(s, "phased")] = v / min(ph_statics)
    t_wls = [wl for wl in workloads if any((s, wl) in slow for s in settings)]
    geo = {}
    for s in settings:
        v = [slow[(s, wl)] for wl in t_wls if (s, wl) in slow]
        if len(v) == len(t_wls) and v:
            geo[s] = statistics.geometric_mean(v)
    targets_md = []
    default_choice = min((p for p in policies if p in geo), key=lambda p: geo[p], default=None)
    default_line = []
    if t_wls and geo:
        targets_md.append("Each setting's median against the best static value of the same workload and run "
                          "(headline metric; phased: the worse phase of 5b; a throughput counts as its inverse), "
                          "so 1 is the best static value and 1.10 is 10% worse. The default policy is the daemon "
                          "policy with the lowest geometric mean over the workloads.\n")
        targets_md.append("| setting | " + " | ".join(t_wls) + " | geometric mean | worst |")
        targets_md.append("| --- |" + " --- |" * (len(t_wls) + 2))
        for s in sorted(geo, key=lambda s: geo[s]):
            targets_md.append(f"| {label[s]}{' (default)' if s == default_choice else ''} | "
                              + " | ".join(fmt(slow[(s, wl)]) for wl in t_wls)
                              + f" | {fmt(geo[s])} | {fmt(max(slow[(s, wl)] for wl in t_wls))} |")
        targets_md.append("")
        def apart(p, wl):
            # Whether a miss is real: the ranges of the headline metric do not overlap
            # (phased compares medians of two phases, which have no one range).
            if wl not in head or wl == "phased":
                return ""
            st, best, lower = head[wl]
            return " (ranges apart)" if real_diff(st[p], st[best], lower) == "worse" else " (ranges overlap)"

        for p in policies:
            if p not in geo:
                continue
            miss3 = [f"{wl} {fmt(slow[(p, wl)])}{apart(p, wl)}" for wl in t_wls if slow[(p, wl)] > 1.03]
            not60 = [wl for wl in t_wls if ("60", wl) in slow and slow[("60", wl)] > 1.0]
            miss20 = [f"{wl} (at {fmt(slow[(p, wl)] / slow[('60', wl)])} of static 60; the best static value "
                      f"is at {fmt(1 / slow[('60', wl)])})"
                      for wl in not60 if slow[(p, wl)] > 0.8 * slow[("60", wl)]]
            ph = ""
            if "phased" in t_wls:
                beaten = [s for s in statics if (s, "phased") in slow and slow[(s, "phased")] <= slow[(p, "phased")]]
                ph = ("better than every static value" if not beaten else
                      f"missed: not better than static {', '.join(beaten)} "
                      f"({fmt(slow[(p, 'phased')])} against {fmt(min(slow[(s, 'phased')] for s in beaten))})")
            line = (f"- daemon {p}{' (the default)' if p == default_choice else ''}: within 3% of the best "
                              f"static value everywhere: {'met' if not miss3 else 'missed on ' + ', '.join(miss3)}; "
                              f"at least 20% better than static 60 where 60 is not the best ({', '.join(not60) or 'nowhere'}): "
                              f"{'met' if not miss20 else 'missed on ' + '; '.join(miss20)}"
                              + (f"; phased: {ph}" if ph else "") + ".")
            targets_md.append(line)
            if p == default_choice:
                best_static = min((s for s in statics if s in geo), key=lambda s: geo[s], default=None)
                default_line = [f"Default policy chosen by this run: **{p}**, {fmt(geo[p])} times the best static value "
                                f"of each workload (geometric mean; the best single static value overall, "
                                f"{best_static}, is at {fmt(geo[best_static]) if best_static else 'n/a'}). Issue 5's targets:",
                                "", line]
        targets_md.append("")
    # The shape issue 4 reported from its first tries, checked against this run.
    claims_md = []

    def st_of(wl, metric):
        return {s: Stat(values(wl, s, metric)) for s in statics}

    def verdict(ok, real):
        return ("**verified**" if ok else "**refuted**") + ("" if real else " (by medians; ranges overlap)")

    if "responsiveness" in workloads:
        st = st_of("responsiveness", "probe_p99_ms")
        have = [s for s in statics if st[s].n]
        if "0" in have and len(have) > 1:
            others = [s for s in have if s != "0"]
            worst = max(have, key=lambda s: st[s].med)
            real = all(real_diff(st["0"], st[s], True) == "worse" for s in others)
            claims_md.append(f"- \"with anonymous memory larger than RAM plus a latency probe, swappiness 0 was clearly "
                             f"worst\": {verdict(worst == '0', real if worst == '0' else real_diff(st[worst], st['0'], True) == 'worse')}: "
                             f"the worst p99 is static {worst} ({fmt(st[worst].med)} ms)"
                             + ("." if worst == "0" else f"; static 0 {fmt(st['0'].med)} ms."))
            best = min(have, key=lambda s: st[s].med)
            real = all(real_diff(st[best], st[s], True) == "better" for s in have if s not in ("100", "200"))
            claims_md.append(f"- \"100-200 had the lowest p99 latency\": {verdict(best in ('100', '200'), real)}: the "
                             f"lowest is static {best} ({fmt(st[best].med)} ms); "
                             + ", ".join(f"{s}: {fmt(st[s].med)}" for s in have) + " ms.")
    for wl, metric, what in (("phased", "phase2_stream_mbps", "phased phase 2 (active anon + cold stream), stream throughput"),
                             ("phased", "phase2_anon_mbps", "phased phase 2, anon throughput"),
                             ("compile-stream", "stream_mbps", "compile + streaming read, read throughput"),
                             ("compile-stream", "build_s", "compile + streaming read, build time")):
        if wl not in workloads:
            continue
        lower = next(m[3] for m in METRICS[wl] if m[0] == metric)
        st = st_of(wl, metric)
        have = [s for s in statics if st[s].n]
        if "200" not in have or len(have) < 2:
            continue
        best = (min if lower else max)(have, key=lambda s: st[s].med)
        if best == "200":
            real = all(real_diff(st["200"], st[s], lower) == "better" for s in have if s != "200")
        else:
            real = real_diff(st[best], st["200"], lower) == "better"
        claims_md.append(f"- \"with anonymous memory plus a streaming read, 200 was fastest\", on {what}: "
                         f"{verdict(best == '200', real)}: the best is static {best} ({fmt(st[best].med)})"
                         + ("." if best == "200" else f", static 200 {fmt(st['200'].med)}."))

    with open(os.path.join(bdir, "results", "default-policy.txt"), "w") as f:
        f.write(f"{default_choice or ''}\n")

    # Time series: the daemon's chosen value with free memory, free swap and PSI, first repetition.
    ts_md = []
    runs_by_tag = {(r["workload"], r["setting"], r["rep"]): r for r in runs}
    for wl in workloads:
        for s in policies + (["60"] if wl == "phased" and "60" in statics else []):
            rep = min((r["rep"] for r in runs if r["workload"] == wl and r["setting"] == s and r["rc"] == "0"),
                      default=None, key=lambda x: int(x) if x.isdigit() else 99)
            if rep is None:
                continue
            tag = f"{wl}-{s}-{rep}"
            tsf = os.path.join(rdir, "ts", f"{tag}.csv")
            rows = read_csv(tsf)
            if len(rows) < 3:
                continue
            t0 = float(runs_by_tag[(wl, s, rep)]["t0"])
            t1 = float(runs_by_tag[(wl, s, rep)]["t1"])
            dat = os.path.join(rdir, f"ts-{tag}.dat")
            with open(dat, "w") as f:
                prev = None
                for row in rows:
                    t = float(row["t"])
                    some = full = 0.0
                    if prev is not None and t > float(prev["t"]):
                        dt = (t - float(prev["t"])) * 1e6
                        some = 100.0 * (float(row["psi_some_us"]) - float(prev["psi_some_us"])) / dt
                        full = 100.0 * (float(row["psi_full_us"]) - float(prev["psi_full_us"])) / dt
                    f.write(f"{t - t0:.2f} {row['swappiness']} {int(row['memfree_kb']) / 1024:.1f} "
                            f"{int(row['swapfree_kb']) / 1024:.1f} {int(row['cached_kb']) / 1024:.1f} "
                            f"{some:.1f} {full:.1f}\n")
                    prev = row
            marks = ""
            log = os.path.join(rdir, "logs", f"{tag}.log")
            if os.path.exists(log):
                for line in open(log):
                    mm = re.match(r"MARK (\S+) ([0-9.]+) ([0-9.]+)", line)
                    if mm:
                        marks += (f'set arrow from {float(mm.group(2)) - t0:.1f}, graph 0 to {float(mm.group(2)) - t0:.1f}, graph 1 nohead dt 2 lc rgb "gray"\n'
                                  f'set label "{mm.group(1)}" at {float(mm.group(2)) - t0:.1f}, graph 0.95 offset 0.5,0 font ",8"\n')
            png = os.path.join(bdir, "plots", f"ts-{tag}.png")
            gnuplot(f"""
set terminal pngcairo size 900,720 font "DejaVu Sans,10"
set output "{png}"
set multiplot layout 3,1 title "{wl} under {label[s]} (repetition {rep}): workload from 0 to {t1 - t0:.0f} s"
set grid
set xrange [*:*]
{marks}
set ylabel "vm.swappiness"
set yrange [0:210]
plot "{dat}" using 1:2 with steps lw 2 title "vm.swappiness"
set ylabel "MB"
set yrange [0:*]
set y2label "SwapFree MB"
set y2tics
set ytics nomirror
set y2range [0:*]
plot "{dat}" using 1:3 with lines lw 2 title "MemFree", "" using 1:5 with lines lw 1 title "Cached", "" using 1:4 axes x1y2 with lines lw 2 title "SwapFree (right axis)"
unset y2tics
unset y2label
set ytics mirror
set ylabel "% of interval"
set xlabel "seconds since the workload started"
set yrange [0:105]
plot "{dat}" using 1:6 with lines lw 2 title "PSI memory some", "" using 1:7 with lines lw 2 title "PSI memory full"
unset multiplot
""")
            ts_md.append((wl, s, f"plots/ts-{tag}.png"))

    # Signals per phase of the phased workload: the inputs an adaptive policy can use.
    sig_cols = [("refault_file", "refault file/s"), ("refault_anon", "refault anon/s"), ("pswpin", "pswpin/s"),
                ("pswpout", "pswpout/s"), ("pgmajfault", "majfault/s"), ("psi_some", "PSI some %"),
                ("psi_full", "PSI full %")]
    phase_rows = []
    for r in runs:
        if r["workload"] != "phased" or r["rc"] != "0":
            continue
        tag = f"phased-{r['setting']}-{r['rep']}"
        rows = read_csv(os.path.join(rdir, "ts", f"{tag}.csv"))
        log = os.path.join(rdir, "logs", f"{tag}.log")
        if not rows or not os.path.exists(log):
            continue
        for line in open(log):
            mm = re.match(r"MARK (\S+) ([0-9.]+) ([0-9.]+)", line)
            if not mm:
                continue
            a, b = float(mm.group(2)), float(mm.group(3))
            inside = [x for x in rows if a <= float(x["t"]) <= b]
            if len(inside) < 2:
                continue
            x0, x1 = inside[0], inside[-1]
            dt = float(x1["t"]) - float(x0["t"])
            rates = {}
            for col in ("refault_file", "refault_anon", "pswpin", "pswpout", "pgmajfault"):
                rates[col] = (float(x1[col]) - float(x0[col])) / dt
            rates["psi_some"] = 100.0 * (float(x1["psi_some_us"]) - float(x0["psi_some_us"])) / (dt * 1e6)
            rates["psi_full"] = 100.0 * (float(x1["psi_full_us"]) - float(x0["psi_full_us"])) / (dt * 1e6)
            phase_rows.append((mm.group(1), r["setting"], r["rep"], rates))
    with open(os.path.join(bdir, "results", "phase-signals.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["phase", "setting", "rep"] + [c for c, _ in sig_cols])
        for ph, s, rep, rates in phase_rows:
            w.writerow([ph, s, rep] + [f"{rates[c]:.2f}" for c, _ in sig_cols])
    sig_md = []
    for ph in sorted({p[0] for p in phase_rows}):
        sig_md.append(f"**{ph}** (per second over the phase, median of the repetitions)\n")
        sig_md.append("| setting | " + " | ".join(l for _, l in sig_cols) + " |")
        sig_md.append("| --- |" + " --- |" * len(sig_cols))
        for s in settings:
            rr = [p[3] for p in phase_rows if p[0] == ph and p[1] == s]
            if rr:
                sig_md.append(f"| {label[s]} | " + " | ".join(fmt(statistics.median([x[c] for x in rr]))
                                                             for c, _ in sig_cols) + " |")
        sig_md.append("")
    # The same rates over whole runs of every workload, from the per-run counter deltas.
    wl_sig = ["| workload | setting | refault file/s | refault anon/s | pswpin/s | pswpout/s | PSI some % | PSI full % |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for wl in workloads:
        for s in settings:
            rr = [r for r in runs if r["workload"] == wl and r["setting"] == s and r["rc"] == "0"
                  and fnum(r["wall_s"])]
            if not rr:
                continue
            def med(col, scale=1.0):
                return fmt(statistics.median([float(r[col]) * scale / float(r["wall_s"]) for r in rr]))
            wl_sig.append(f"| {wl} | {label[s]} | {med('refault_file')} | {med('refault_anon')} | {med('pswpin')} | "
                          f"{med('pswpout')} | {med('psi_some_ms', 0.1)} | {med('psi_full_ms', 0.1)} |")

    with open(os.path.join(bdir, "results", "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "metric", "setting", "n", "median", "min", "max", "ratio_to_static60",
                    "ratio_to_best_static", "best_static", "vs_best_static"])
        w.writerows(summary_rows)

    # --- RESULTS.md ---------------------------------------------------------------------------
    g = guest
    out = []
    out.append("# Benchmark results\n")
    out.append("Generated by `make bench` (bench/run.sh, then bench/report.py): every figure below comes from "
               "that run's raw results; do not edit by hand. Raw tables: [results/](results/); "
               "plots: [plots/](plots/).\n")
    if host.get("quick") == "1":
        out.append("**This is a BENCH_QUICK=1 try-out run (1 repetition, fewer settings): not a result.**\n")
    if host.get("complete") == "no":
        out.append(f"**This run is not complete yet (or was interrupted): it holds the workloads "
                   f"{host.get('workloads', '')} of {host.get('workloads_planned', '')}.**\n")
    if host.get("failed"):
        out.append(f"**Boots that failed: {host['failed']}** (their runs so far are included).\n")
    try:
        import datetime
        span = (datetime.datetime.fromisoformat(host["finished"].replace("Z", "+00:00")) -
                datetime.datetime.fromisoformat(host["started"].replace("Z", "+00:00"))).total_seconds()
        if span - float(host.get("runtime_s", span)) > 120:
            out.append(f"The run was interrupted and resumed (BENCH_RESUME=1): {int(span // 60)} min from start to "
                       f"finish, of which {int(float(host['runtime_s']) // 60)} min running.\n")
    except (KeyError, ValueError):
        pass
    out.append("## What ran\n")
    out.append("| | |\n| --- | --- |")
    rows = [
        ("run", f"{host.get('started', '?')} to {host.get('finished', '?')}, {int(host.get('runtime_s', '0')) // 60} min, commit {host.get('commit', '?')}"),
        ("host", f"{host.get('host_os', '?')}, kernel {host.get('host_kernel', '?')}, {host.get('host_cpu', '?')}"),
        ("emulator", f"{host.get('qemu', '?')}, accel {host.get('accel', '?')} (-cpu max), {host.get('vm_cpus', '?')} vCPUs; one guest at a time"),
        ("host load", f"1-min load average at the start/end of each workload's boot: {host.get('host_load', '?')} (other work on the host shares its cores with the emulator)"),
        ("guest", f"{g.get('guest_os', '?')}, kernel {g.get('guest_kernel', '?')}, {host.get('vm_mem_mb', '?')} MB RAM (MemTotal {int(g.get('guest_memtotal_kib', '0')) // 1024} MiB), zswap {g.get('guest_zswap', '?')}, THP {g.get('guest_thp', '?')}"),
        ("swap", f"{g.get('guest_swap', '?').strip()} on a virtio disk"),
        ("disks", f"root, swap and data disk share one qemu throttle group of {host.get('disk_mbps', '?')} MB/s (read+write): one slow disk"),
        ("data disk", f"tree read recursively {host.get('data_tree_mb', '?')} MB, hot set {host.get('data_hot_mb', '?')} MB, cold file {host.get('data_cold_mb', '?')} MB (ext4, read-only)"),
        ("settings", f"static {' '.join(statics)}; daemon policies {' '.join(policies) or 'none'}"
                     + (f"; left out (rejected by `autoswappiness -n`): {host['policies_skipped']}" if host.get("policies_skipped") else "")),
        ("daemon", f"{host.get('daemon', '?')} via its systemd unit, `[limits] max = {host.get('daemon_max', '?')}`, interval {host.get('daemon_interval_ms', '?')} ms, other keys default"),
        ("repetitions", f"{host.get('reps', '?')} per setting, interleaved (each repetition starts one setting further along), after {host.get('warmup', '?')} discarded warm-up run(s) per boot"),
        ("between runs", "daemon stopped (knob back to 60), swapoff -a + swapon, sync, drop_caches=3, 1 s pause; then the setting, 1 s, the workload"),
        ("sizes", " ".join(f"{k[5:]}={v}" for k, v in host.items() if k.startswith("size_")) + f"; in MiB: {g.get('guest_sizes', '?')}"),
        ("compiler", f"{g.get('guest_gcc', '?')}, {g.get('guest_make', '?')}; the tree built is the work tree's src/ (the daemon) at the start of the run"),
        ("plots", host.get("gnuplot", "?")),
    ]
    for k, v in rows:
        out.append(f"| {k} | {v} |")
    out.append("")
    out.append("A difference counts as real only when the min-max ranges of the two settings do not overlap; "
               "otherwise the table says \"same\". Timings are under TCG emulation: compare settings with each "
               "other, not with native machines.\n")
    if bad:
        out.append("Runs with a problem (a run that exited non-zero gives no figures, but one killed at the time limit counts its wall time as a lower bound):\n")
        for r in bad:
            killed = (r["workload"], r["setting"], r["rep"]) in timed_out
            out.append(f"- {r['workload']} {label.get(r['setting'], r['setting'])} rep {r['rep']}: rc {r['rc']}"
                       f"{', ' + r['note'] if r['note'].strip() else ''}"
                       + (f"; killed at the time limit after {fmt(float(r['wall_s']))} s: its wall time counts as a "
                          "lower bound of the time metrics" if killed else ""))
        out.append("")
    out.append("## Headline\n")
    out.append("| workload | metric | best static | statics, best first (medians) | daemon policies (medians) |")
    out.append("| --- | --- | --- | --- | --- |")
    out.extend(headline)
    out.append("")
    out.append("Where a daemon policy is better than the best static value with non-overlapping ranges:\n")
    out.extend([f"- {x}" for x in wins] or ["- nowhere."])
    out.append("")
    out.append("Where a daemon policy loses to the best static value (median worse):\n")
    out.extend([f"- {x}" for x in losses] or ["- nowhere."])
    out.append("")
    out.append("## The first tries' shape, checked\n")
    out.append("Issue 4 reported a shape from first tries (256 MB guest, TCG); this run's medians against it "
               "(\"ranges overlap\" means the verdict rests on medians alone):\n")
    out.extend(claims_md or ["- (the workloads that test it were not run)"])
    out.append("")
    out.append("## Targets for the default policy (issue 5)\n")
    out.extend(targets_md or ["(not enough workloads measured to choose)\n"])
    out.append("## Results per workload\n")
    out.extend(md)
    out.append("## Signals per phase (phased workload)\n")
    out.append("What the kernel reported in each phase, per setting: the counters an adaptive policy can "
               "read (/proc/vmstat workingset_refault_file and _anon, pswpin/pswpout, pgmajfault; PSI memory "
               "some/full as a share of the time). From the sampler's time series, between the workload's "
               "phase marks.\n")
    out.extend(sig_md or ["(no phased runs)\n"])
    out.append("The same rates over whole runs of each workload (counter deltas / wall time, medians):\n")
    out.extend(wl_sig)
    out.append("")
    out.append("## The daemon over time\n")
    out.append("The value the daemon chose, with free memory, free swap, page cache and PSI, in the first "
               "repetition of each workload (phase marks dashed). Static 60 on the phased workload for contrast.\n")
    for wl, s, p in ts_md:
        if wl == "phased":
            out.append(f"![phased under {label[s]}]({p})\n")
    others = [f"[{wl} / {s}]({p})" for wl, s, p in ts_md if wl != "phased"]
    if others:
        out.append("Other workloads: " + ", ".join(others) + "\n")
    out.append("## The daemon's own cost\n")
    if cost:
        out.append(f"Measured in a separate {host.get('cost_mem_mb', '?')} MB guest (TCG, so CPU times are "
                   "emulated and far above native): the daemon polling every "
                   f"{cost[0]['interval_ms']} ms for {fmt(float(cost[0]['seconds']))} s, CPU time from "
                   "/proc/PID/schedstat, memory from /proc/PID/status, with a crowd of sleeping processes "
                   "alive (the count includes kernel threads).\n")
        out.append("| policy | processes alive | polls | CPU us per poll | VmRSS KiB | VmHWM KiB | VmLck KiB |")
        out.append("| --- | --- | --- | --- | --- | --- | --- |")
        for c in cost:
            out.append(f"| {c['policy']} | {c['processes']} | {c['polls']} | {c['cpu_us_per_poll']} | "
                       f"{c['rss_kib']} | {c['hwm_kib']} | {c['locked_kib']} |")
        by = {}
        for c in cost:
            by.setdefault(c["policy"], []).append((int(c["processes"]), float(c["cpu_us_per_poll"])))
        out.append("")
        for p, v in by.items():
            v.sort()
            if len(v) >= 2 and v[0][1] > 0:
                out.append(f"- {p}: {fmt(v[-1][1] / v[0][1])}x the CPU per poll with {v[-1][0]} processes "
                           f"as with {v[0][0]}.")
        out.append("")
    else:
        out.append("(not measured in this run)\n")
    with open(os.path.join(bdir, "RESULTS.md"), "w") as f:
        f.write("\n".join(out) + "\n")

    # README: the headline between the markers, when the README has them.
    readme = os.path.join(os.path.dirname(os.path.abspath(bdir)), "README.md")
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    # A BENCH_QUICK=1 try-out never replaces the headline of a real run.
    if os.path.exists(readme) and host.get("quick") != "1":
        text = open(readme).read()
        if begin in text and end in text:
            block = [begin,
                     f"Generated by `make bench` ({host.get('started', '?')[:10]}, {host.get('reps', '?')} repetitions, "
                     f"{host.get('vm_mem_mb', '?')} MB TCG guest, {host.get('disk_mbps', '?')} MB/s disk); "
                     "medians, see [bench/RESULTS.md](bench/RESULTS.md) for ranges and which differences are real.",
                     "",
                     "| workload | metric | best static | statics, best first | daemon policies |",
                     "| --- | --- | --- | --- | --- |"] + headline + ([""] + default_line if default_line else []) + [end]
            text = text[:text.index(begin)] + "\n".join(block) + text[text.index(end) + len(end):]
            open(readme, "w").write(text)
    print(f"report.py: wrote {os.path.join(bdir, 'RESULTS.md')}, {len(os.listdir(os.path.join(bdir, 'plots')))} plots")


if __name__ == "__main__":
    main()
