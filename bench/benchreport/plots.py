"""The PNGs of the report, drawn with gnuplot: a bar chart per headline metric, the summary
of every setting's ratio to the best static value, and time series of the daemon at work.
Data files go to a temporary directory, never next to the results."""
import os
import subprocess
import sys

from . import load
from . import model
from .targets import GEOMEAN

TERM = 'set terminal pngcairo size {w},{h} font "DejaVu Sans,10"'


def gnuplot(script):
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        sys.stderr.write("report.py: gnuplot failed:\n" + r.stderr + "\n--- script:\n" + script)
        return False
    return True


def bar(data, swap, wl, t, pdir, tmp):
    """Median with min-max whiskers per setting; statics (and switches), daemon settings and
    the shipped default in three colours. Returns the PNG's name."""
    name = f"bar-{swap}-{wl}-{t.metric.name}.png"
    dat = os.path.join(tmp, name + ".dat")
    with open(dat, "w") as f:
        for i, s in enumerate(data.settings_of(wl, swap)):
            x = t.stats[s]
            if x.n:
                colour = 1 if not model.is_daemon(s) else 3 if s == data.shipped else 2
                f.write(f"{i} \"{model.label(s)}\" {x.med} {x.lo} {x.hi} {colour}\n")
    meds = [t.stats[s].med for s in data.settings if t.stats[s].n and t.stats[s].med > 0]
    log = bool(meds) and max(meds) / min(meds) > 100
    unit, m = t.metric.unit, t.metric
    gnuplot(f"""{TERM.format(w=800, h=400)}
set output "{os.path.join(pdir, name)}"
set title "{wl}, {data.title(swap)}: {m.label} ({unit}, {'lower' if m.lower else 'higher'} is better{', log scale' if log else ''})\\nmedian of {max(t.stats[s].n for s in data.settings)} runs, whiskers min-max" noenhanced
set style fill solid 0.7 border -1
set boxwidth 0.6
{'set logscale y' if log else 'set yrange [0:*]'}
set grid ytics
set xtics rotate by -30 noenhanced
unset key
plot "{dat}" using 1:3:6:xtic(2) with boxes lc variable, "" using 1:3:4:5 with yerrorbars lc rgb "black" pt 0
""")
    return name


def summary(data, rows, pdir, tmp):
    """Every setting's headline figure against the best static value, per workload and swap
    mode, with its 95% interval; static 60 and the shipped default drawn large. One PNG with a
    panel per swap mode; None without rows."""
    swaps = [s for s in data.swaps if any(r["swap"] == s for r in rows)]
    if not swaps:
        return None
    wls = data.workloads + [GEOMEAN]
    sets = [model.label(s) for s in data.settings]
    width = 0.8 / max(1, len(sets))
    name = "summary-ratios.png"
    script = [TERM.format(w=1000, h=380 * len(swaps)), f'set output "{os.path.join(pdir, name)}"',
              f'set multiplot layout {len(swaps)},1', "set logscale y", "set grid ytics",
              "set key outside right top noenhanced", "set ylabel \"ratio to the best static value (log)\"",
              "set xtics (" + ", ".join(f'"{w}" {i}' for i, w in enumerate(wls)) + ") noenhanced",
              f"set xrange [-0.6:{len(wls) - 0.4}]"]
    for swap in swaps:
        plots = []
        for j, s in enumerate(sets):
            dat = os.path.join(tmp, f"summary-{swap}-{j}.dat")
            with open(dat, "w") as f:
                for i, w in enumerate(wls):
                    r = next((r for r in rows if r["swap"] == swap and r["workload"] == w and r["setting"] == s), None)
                    if r and r["ratio"] and r["ratio"] != float("inf"):
                        lo = r["low"] if r["low"] else r["ratio"]
                        hi = r["high"] if r["high"] and r["high"] != float("inf") else r["ratio"]
                        f.write(f"{i + (j - (len(sets) - 1) / 2) * width} {r['ratio']} {max(lo, 1e-3)} {hi}\n")
            ship = model.label(data.shipped)
            big = s in ("static " + model.KERNEL_DEFAULT, ship)
            style = (f"pt {7 if s == ship else 5} ps 1.6 lw 2" if big else "pt 6 ps 0.8 lw 1")
            shown = s + (" (shipped)" if s == ship else " (kernel default)" if big else "")
            plots.append(f'"{dat}" using 1:2:3:4 with yerrorbars {style} title "{shown}"')
        script.append(f'set title "{data.title(swap)}: each setting against the best static value '
                      f'of the workload (1 = as good; below 1 better), 95% intervals"')
        script.append("plot " + ", ".join(plots) + ', 1 with lines lc rgb "gray" dt 2 notitle')
    script.append("unset multiplot")
    return name if gnuplot("\n".join(script) + "\n") else None


def _ts_dat(rows, t0, path):
    prev = None
    with open(path, "w") as f:
        for row in rows:
            t = float(row["t"])
            some = full = 0.0
            if prev is not None and t > float(prev["t"]):
                dt = (t - float(prev["t"])) * 1e6
                some = 100.0 * (float(row["psi_some_us"]) - float(prev["psi_some_us"])) / dt
                full = 100.0 * (float(row["psi_full_us"]) - float(prev["psi_full_us"])) / dt
            f.write(f"{t - t0:.2f} {row['swappiness']} {int(row['memfree_kb']) / 1024:.1f} "
                    f"{int(row['swapfree_kb']) / 1024:.1f} {int(row['cached_kb']) / 1024:.1f} {some:.1f} {full:.1f}\n")
            prev = row


def ts(data, swap, wl, setting, pdir, tmp):
    """The value the knob held, with free memory, free swap, page cache and PSI, in the first
    repetition of a setting. Returns the PNG's name, or None."""
    runs = [r for r in data.runs_of(swap, wl, setting) if data.ok(r)]
    if not runs:
        return None
    run = min(runs, key=lambda r: int(r["rep"]) if r["rep"].isdigit() else 99)
    tag = f"{wl}-{setting}-{run['rep']}"
    rows = load.read_csv(data.ts_path(swap, tag))
    need = {"t", "swappiness", "memfree_kb", "swapfree_kb", "cached_kb", "psi_some_us", "psi_full_us"}
    if len(rows) < 3 or not need <= set(rows[0]):
        return None
    t0, t1 = float(run["t0"]), float(run["t1"])
    dat = os.path.join(tmp, f"ts-{swap}-{tag}.dat")
    _ts_dat(rows, t0, dat)
    marks = ""
    for mark, a, _ in data.marks(swap, tag):
        x = a - t0
        marks += (f'set arrow from {x:.1f}, graph 0 to {x:.1f}, graph 1 nohead dt 2 lc rgb "gray"\n'
                  f'set label "{mark}" at {x:.1f}, graph 0.95 offset 0.5,0 font ",8"\n')
    name = f"ts-{swap}-{tag}.png"
    ok = gnuplot(f"""{TERM.format(w=800, h=640)}
set output "{os.path.join(pdir, name)}"
set multiplot layout 3,1 title "{wl}, {data.title(swap)}, under {model.label(setting)} (repetition {run['rep']}): workload from 0 to {t1 - t0:.0f} s" noenhanced
set grid
{marks}set ylabel "vm.swappiness"
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
    return name if ok else None


def ts_choice(data, wl):
    """Whose time series to draw: on phased every daemon setting and static 60, elsewhere the
    shipped default."""
    if wl == "phased":
        return data.daemons + ([model.KERNEL_DEFAULT] if model.KERNEL_DEFAULT in data.statics else [])
    return [s for s in data.daemons if s == data.shipped]
