#!/usr/bin/env python3
"""Every figure of README.md from the raw traces: pass 1 of the dirtier by its own value and
the value of the run before it, the washouts by the run before them, and the runs whose fill
was slow (4 s or more before the first page scanned, as the benchmark's report counts one).
The boot's first run is left out of the comparisons: it touches the guest's memory first."""
import glob
import gzip
import itertools
import math
import os
import random
import re
import statistics as st

here = os.path.dirname(os.path.abspath(__file__))
TRACES = ['alternating', 'blocks', 'hostsample', 'washout']


def total(path):
    m = re.search(r'total ([0-9.]+) s', open(path).read())
    return float(m.group(1)) if m else None


def runs(d):
    """{run number: (value, pass-1 seconds, seconds to the first page scanned, pages a second
    taken from free memory until then, the share of that time the dirtier ran)}"""
    out = {}
    for f in glob.glob(os.path.join(here, d, 'dirtier-*.txt')):
        i, v = map(int, re.match(r'dirtier-(\d+)-(\d+)\.txt', os.path.basename(f)).groups())
        rows = []
        for line in open(f.replace('dirtier-', 'run-')):
            a, _, sched = line.split('|')[:3]
            a, sched = a.split(), sched.split()
            rows.append((float(a[0]), int(a[2]) + int(a[3]), int(a[1]), int(sched[0]) if sched and sched[0] != '-' else None))
        k = next((k for k in range(1, len(rows)) if rows[k][1] > rows[k - 1][1]), None)
        if k is None:
            out[i] = (v, total(f), None, None, None)
            continue
        dt = rows[k][0] - rows[0][0]
        ran = (rows[k][3] - rows[0][3]) / 1e9 / dt if None not in (rows[k][3], rows[0][3]) else None
        out[i] = (v, total(f), dt, (rows[0][2] - rows[k][2]) / dt, ran)
    return out


def start_snapshots(d, r):
    """Medians of /proc/meminfo fields at the start of each run, by the value of the run before."""
    g = {}
    for f in glob.glob(os.path.join(here, d, 'start-*.txt')):
        i = int(re.match(r'start-(\d+)-', os.path.basename(f)).group(1))
        m = {line.split(':')[0]: int(line.split()[1]) for line in open(f) if line.rstrip().endswith(' kB')}
        if i - 1 in r:
            g.setdefault(r[i - 1][0], []).append(m)
    for p, ms in sorted(g.items()):
        print(f'  at the start, after a run at {p:3} (MB, medians): ' + ', '.join(
            f'{k} {st.median(m[k] for m in ms) / 1024:.1f}' for k in ('Active(file)', 'Inactive(file)', 'Mapped')))


def rank_sum_p(a, b):
    """Two-sided permutation p of the Wilcoxon rank sum of a against b: exact over every split
    when there are at most 200,000, else 200,000 random ones (a fixed seed)."""
    pooled = sorted(a + b)
    rank = {x: st.mean(i + 1 for i, y in enumerate(pooled) if y == x) for x in pooled}
    ranks, n = [rank[x] for x in a + b], len(a)
    expect = n * (len(ranks) + 1) / 2
    obs = abs(sum(ranks[:n]) - expect)
    if math.comb(len(ranks), n) <= 200000:
        splits = itertools.combinations(range(len(ranks)), n)
    else:
        rnd = random.Random(1)
        splits = (rnd.sample(range(len(ranks)), n) for _ in range(200000))
    hits = count = 0
    for idx in splits:
        count += 1
        hits += abs(sum(ranks[i] for i in idx) - expect) >= obs - 1e-9
    return hits / count


def fmt(ts):
    return ' '.join(f'{t:.2f}' for t in ts)


pooled = {}
for d in TRACES:
    r = runs(d)
    print(f'## {d}: {len(r)} runs')
    groups = {}
    for i in sorted(r):
        if i - 1 in r:
            groups.setdefault((r[i][0], r[i - 1][0]), []).append(r[i][1])
    for (v, p), ts in sorted(groups.items()):
        print(f'  {v:3} after {p:3}: n={len(ts):2}, median {st.median(ts):.2f} s [{fmt(ts)}]')
        if d in ('blocks', 'hostsample'):
            pooled.setdefault((v, p), []).extend(ts)
    rates = [x[3] for x in r.values() if x[2] is not None and x[2] < 4]
    slow = [f'run {i} at {v} ({first:.2f} s, {rate:.0f} pages/s, running {ran:.0%} of it)'
            for i, (v, _, first, rate, ran) in sorted(r.items()) if first is not None and first >= 4 and i > 1]
    print(f'  fills before the first page scanned: median {st.median(rates):.0f} pages/s over the quick ones;',
          'slow (4 s or more):', ', '.join(slow) or 'none')
    start_snapshots(d, r)
    w = {}
    for f in glob.glob(os.path.join(here, d, 'washout-*.txt')):
        i = int(re.match(r'washout-(\d+)\.txt', os.path.basename(f)).group(1))
        if i - 1 in r:
            w.setdefault(r[i - 1][0], []).append(total(f))
    for p, ts in sorted(w.items()):
        print(f'  washout (at 60) after a run at {p:3}: n={len(ts):2}, median {st.median(ts):.2f} s [{fmt(ts)}]')
    if len(w) == 2:
        print(f'  washouts after 200 against after 60: permutation p = {rank_sum_p(w[200], w[60]):.4f}')
    if d == 'washout':
        for v, other in ((60, 200), (200, 60)):
            print(f'  {v} after {other} against {v} after {v}: permutation p = {rank_sum_p(groups[(v, other)], groups[(v, v)]):.4f}')

print('## blocks and hostsample pooled (each run against the runs at its own value; rank-sum permutation p)')
for v, other in ((60, 200), (200, 60)):
    same, changed = pooled[(v, v)], pooled[(v, other)]
    print(f'  {v} after {other}: median {st.median(changed):.2f} s against {st.median(same):.2f} s after {v} '
          f'({st.median(changed) / st.median(same):.2f} times; n={len(changed)} and {len(same)}; '
          f'permutation p = {rank_sum_p(changed, same):.4f})')

print('## hostsample: qemu on the host during each run (host-qemu.txt.gz, ends.txt: each dirtier file\'s mtime)')
host = []
with gzip.open(os.path.join(here, 'hostsample', 'host-qemu.txt.gz'), 'rt') as f:
    for line in f:
        a, c, th = line.split('|')
        thr = [list(map(int, x.split(':'))) for x in th.split()]
        host.append((float(a.split()[0]), int(c.split()[8]), sum(x[1] + x[2] for x in thr), sum(x[3] + x[4] for x in thr)))
for line in open(os.path.join(here, 'hostsample', 'ends.txt')):
    name, end = line.split()
    secs = total(os.path.join(here, 'hostsample', name))
    sel = [h for h in host if float(end) - secs <= h[0] <= float(end)]
    dt = sel[-1][0] - sel[0][0]
    print(f'  {name:18} {secs:5.2f} s: faults {(sel[-1][2] - sel[0][2]) / dt:5.1f}/s, '
          f'CPU {(sel[-1][3] - sel[0][3]) / dt:5.1f}% of a core, steal {(sel[-1][1] - sel[0][1]) / dt:.1f}%')
