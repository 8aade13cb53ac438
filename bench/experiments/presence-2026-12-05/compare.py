#!/usr/bin/env python3
"""The figures of README.md, from the raw results of boot1/ and boot2/ (or the run directories named on
the command line): for each responsiveness run on disk swap, the probe's p99 and the count of
its rounds (probe_n), what the heavy dirtier wrote, the file refaults over the run's window
(runs.csv t0..t1, from the one-a-second samples of ts/), the mean of Mapped over it, and the
range of vm.swappiness held; then per setting the medians."""
import csv
import os
import statistics as st
import sys

WORKLOAD = 'responsiveness'


def run(path):
    res = os.path.join(path, 'results')
    print(f"## {os.path.basename(os.path.normpath(path))}")
    with open(os.path.join(res, 'runs.csv'), newline='') as f:
        runs = [r for r in csv.DictReader(f)
                if r['workload'] == WORKLOAD and r['warmup'] != '1' and r['swap'] == 'disk']
    metrics = {}
    with open(os.path.join(res, 'metrics.csv'), newline='') as f:
        for m in csv.DictReader(f):
            if m['workload'] == WORKLOAD and m['warmup'] != '1' and m['swap'] == 'disk':
                metrics[(m['setting'], m['rep'], m['metric'])] = float(m['value'])
    by_setting = {}
    for r in runs:
        t0, t1 = float(r['t0']), float(r['t1'])
        ts = os.path.join(res, 'ts', f"{r['swap']}-{WORKLOAD}-{r['setting']}-{r['rep']}.csv")
        with open(ts, newline='') as f:
            rows = [x for x in csv.DictReader(f) if t0 <= float(x['t']) <= t1]
        refaults = int(rows[-1]['refault_file']) - int(rows[0]['refault_file'])
        mapped = st.mean(int(x['mapped_kb']) for x in rows) / 1024
        knob = [int(x['swappiness']) for x in rows]
        above = sum(1 for k in knob if k > 60)
        key = (r['setting'], r['rep'])
        p99 = metrics[key + ('probe_p99_ms',)]
        n = metrics[key + ('probe_n',)]
        wr = metrics[key + ('dirtier_written_mib',)]
        by_setting.setdefault(r['setting'], []).append((p99, n, wr, refaults, mapped))
        print(f"  {r['setting']:13} rep {r['rep']}: p99 {p99:6.2f} ms, rounds {n:5.0f}, written {wr:4.0f} MiB, "
              f"file refaults {refaults:5d}, Mapped {mapped:4.1f} MiB, vm.swappiness {min(knob)}..{max(knob)} "
              f"({above} s above 60)")
    for s, v in by_setting.items():
        med = [st.median(x[i] for x in v) for i in range(5)]
        print(f"  {s:13} medians over {len(v)} runs: p99 {med[0]:.2f} ms, rounds {med[1]:.0f}, written {med[2]:.0f} MiB, "
              f"file refaults {med[3]:.0f}, Mapped {med[4]:.1f} MiB")


here = os.path.dirname(os.path.abspath(__file__))
for p in sys.argv[1:] or [os.path.join(here, 'boot1'), os.path.join(here, 'boot2')]:
    run(p)
