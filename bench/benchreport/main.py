"""report.py's steps in order: load the raw results, compare the settings, write targets.csv
and read it back, choose the default policy and check the targets from it, check issue 4's
claims, draw the plots, write RESULTS.md and the README headline (with how the shipped default
does against its targets)."""
import csv
import os
import shutil
import sys
import tempfile

from . import choose
from . import claims
from . import compare
from . import goals
from . import load
from . import markdown
from . import model
from . import oracle
from . import plots
from . import readme
from . import targets
from .text import csv_num


def copy_raw(rdir, results):
    """Everything the report reads, next to it, when the raw results live elsewhere
    (BENCH_RAW): the tables, each boot's guest-info, configs/, ts/ and logs/, so that the
    report's results/ makes the same RESULTS.md again (tests/bench-report.sh)."""
    if os.path.realpath(rdir) == os.path.realpath(results):
        return
    for f in sorted(os.listdir(rdir)):
        if f in ("runs.csv", "metrics.csv", "cost.csv", "host-info.txt") or \
                (f.startswith("guest-info-") and f.endswith(".txt")):
            shutil.copy(os.path.join(rdir, f), os.path.join(results, f))
    for d in ("configs", "ts", "logs"):
        if os.path.isdir(os.path.join(rdir, d)):
            shutil.copytree(os.path.join(rdir, d), os.path.join(results, d), dirs_exist_ok=True)


def write_summary(res, path):
    """Every metric of every workload, swap mode and LRU: summary.csv (the LRU and the swap
    mode in columns of their own, as in targets.csv)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["lru", "swap", "workload", "metric", "setting", "n", "median", "cv", "min", "max", "best_static",
                    "ratio_to_best", "low", "high", "ratio_to_static60", "low60", "high60"])
        for (swap, wl), tables in res.tables.items():
            for t in tables:
                for s in res.data.settings:
                    x, rb, r60 = t.stats[s], t.vs_best[s], t.vs60[s]
                    if not x.n:
                        continue
                    w.writerow(list(model.split_mode(swap))
                               + [wl, t.metric.name, model.label(s), x.n, csv_num(x.med), csv_num(x.cv),
                                  csv_num(x.lo), csv_num(x.hi), model.label(t.best)]
                               + [csv_num(v) for v in (rb[:3] if rb else (None,) * 3)]
                               + [csv_num(v) for v in (r60[:3] if r60 else (None,) * 3)])


def draw(data, res, rows, bdir):
    pdir = os.path.join(bdir, "plots")
    os.makedirs(pdir, exist_ok=True)
    for f in os.listdir(pdir):
        if f.endswith(".png"):
            os.remove(os.path.join(pdir, f))
    out = {"bars": {}, "ts": []}
    with tempfile.TemporaryDirectory(prefix="bench-report.") as tmp:
        for (swap, wl), tables in res.tables.items():
            for t in tables:
                if t.metric.name in model.PHASES or t.metric == model.headline(wl):
                    out["bars"][(swap, wl, t.metric.name)] = plots.bar(data, swap, wl, t, pdir, tmp)
            for s in plots.ts_choice(data, wl):
                name = plots.ts(data, swap, wl, s, pdir, tmp)
                if name:
                    out["ts"].append((swap, wl, s, name))
        out["summary"] = plots.summary(data, rows, pdir, tmp)
    return out


# What ships: the configuration of this tree, whose row the headline and the targets describe.
SHIPPED_CONF = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                            "conf", "autoswappiness.conf")


def run(rdir, bdir, shipped_conf=SHIPPED_CONF):
    try:
        with open(shipped_conf) as f:
            shipped = f.read()
    except OSError as e:
        sys.exit(f"report.py: cannot read the shipped configuration {shipped_conf}: {e.strerror}")
    data = load.Data(rdir, shipped)
    if not data.runs:
        sys.exit(f"report.py: no runs in {rdir}/runs.csv")
    res = compare.compute(data)
    results = os.path.join(bdir, "results")
    os.makedirs(results, exist_ok=True)
    copy_raw(rdir, results)
    write_summary(res, os.path.join(results, "summary.csv"))
    targets.write(os.path.join(results, "targets.csv"), targets.rows(res))
    targets.write(os.path.join(results, "against60.csv"), targets.rows(res, against60=True))
    # The default and the headline are read from the files, as anyone else would read them.
    rows = targets.read(os.path.join(results, "targets.csv"))
    rows60 = targets.read(os.path.join(results, "against60.csv"))
    checks = {model.label(s): choose.check_targets(rows, rows60, model.label(s), data.median_writes(s))
              for s in data.daemons}
    choice, geo = choose.choose_default(rows, data.policy_of(), {s: choose.targets_met(c) for s, c in checks.items()},
                                        prefer=model.label(data.shipped))
    with open(os.path.join(results, "default-policy.txt"), "w") as f:
        f.write(f"{choice or ''}\n")
    pl = draw(data, res, rows, bdir)
    head = markdown.plain_headline(data, rows, rows60)
    with open(os.path.join(bdir, "RESULTS.md"), "w") as f:
        f.write(markdown.results_md(data, res, rows, rows60, choice, geo, checks, claims.check(res), pl))
    # A BENCH_QUICK=1 try-out never replaces the headline of a real run.
    bench_abs = os.path.abspath(bdir)
    top = os.path.dirname(bench_abs)
    if data.host.get("quick") != "1":
        rel = os.path.relpath(os.path.join(bench_abs, "plots"), top)
        reach = {m: o.geo for m in data.swaps for o in [oracle.oracle(res, m, True)] if o is not None and o.geo}
        mine = checks.get(model.label(data.shipped), [])
        readme.update(os.path.join(top, "README.md"), readme.block(data, head, pl.get("summary"), rel, goals.lines(
            data, mine, reach), goals.in_short(data, mine, reach)))
    print(f"report.py: wrote {os.path.join(bdir, 'RESULTS.md')}, {len(os.listdir(os.path.join(bdir, 'plots')))} plots, "
          f"default policy {choice or 'none'}")


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: report.py RESULTS_DIR BENCH_DIR [SHIPPED_CONF]")
    run(*argv)
    return 0
