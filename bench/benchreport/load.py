"""Reads the raw results of bench/run.sh: runs.csv, metrics.csv, cost.csv, host-info.txt,
guest-info-*.txt, configs/*.conf, ts/ and logs/. No statistics here."""
import csv
import os
import re
import statistics

from . import model
from . import text


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_kv(path):
    d = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    d[k] = v
    return d


def fnum(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def unmapped_under(cached, buffers, mapped, shmem, memtotal, pct):
    """Whether the page cache that no process maps (Cached + Buffers - Mapped - Shmem, the
    daemon's own measure) is under pct of MemTotal (kB each)."""
    return max(0.0, cached + buffers - mapped - shmem) * 100 < pct * memtotal


def _normalise(r):
    """Rows of older runs: disk swap, PSI in ms, no configuration column, no LRU (the classic
    one: Debian 12's kernel 6.1 boots with the multi-gen LRU off). The swap column becomes the
    run's mode (model.mode_key: the LRU with the swap mode); the device's name stays in
    swap_device."""
    r.setdefault("swap", "disk")
    r["lru"] = r.get("lru") or "classic"
    r["swap_device"] = r["swap"]
    r["swap"] = model.mode_key(r["lru"], r["swap"])
    r.setdefault("daemon_config", "")
    for k in ("some", "full"):
        if f"psi_{k}_us" not in r and fnum(r.get(f"psi_{k}_ms")) is not None:
            r[f"psi_{k}_us"] = str(float(r[f"psi_{k}_ms"]) * 1000)
    r["note"] = (r.get("note") or "").strip()
    return r


class Data:
    """One run's raw results. runs: measured runs (no warm-ups), one per key (swap, workload,
    setting, rep), the first recorded; metrics: key -> {metric: value}."""

    def __init__(self, rdir, shipped_conf=None):
        """shipped_conf: the text of the configuration that ships now (conf/autoswappiness.conf),
        or None: the row "default" is the shipped one."""
        self.rdir = rdir
        self._pace = {}  # (swap, workload) -> {setting: [(rep, pace)]}: pace()
        self.host = read_kv(os.path.join(rdir, "host-info.txt"))
        self.guest = {}  # swap -> guest-info of its boots
        self.configs = {}  # name -> text of configs/NAME.conf
        self._read_guest_and_configs()
        self.runs = []
        self.all_rows = [_normalise(r) for r in read_csv(os.path.join(rdir, "runs.csv"))]  # warm-ups too
        seen = set()
        for r in self.all_rows:
            key = (r["swap"], r["workload"], r["setting"], r["rep"])
            if r.get("warmup") == "0" and key not in seen:
                seen.add(key)
                self.runs.append(r)
        self.metrics = {}
        for m in read_csv(os.path.join(rdir, "metrics.csv")):
            m.setdefault("swap", "disk")
            m["swap"] = model.mode_key(m.get("lru") or "classic", m["swap"])
            key = (m["swap"], m["workload"], m["setting"], m["rep"])
            v = fnum(m.get("value"))
            # A workload may print a figure twice (its own line and a tool's): the first counts.
            if m.get("warmup") == "0" and v is not None:
                self.metrics.setdefault(key, {}).setdefault(m["metric"], v)
        self.cost = read_csv(os.path.join(rdir, "cost.csv"))
        self.settings = self.host.get("settings", "").split() or sorted({r["setting"] for r in self.runs})
        self.statics = [s for s in self.settings if model.is_static(s)]
        self.switches = [s for s in self.settings if model.is_switch(s)]
        self.bares = [s for s in self.settings if model.is_bare(s)]
        self.daemons = [s for s in self.settings if model.is_daemon(s)]
        # The cells that ran more repetitions than reps (host-info's more_reps, BENCH_MORE):
        # {(mode, workload): repetitions}.
        self.more_reps = {}
        for item in self.host.get("more_reps", "").split():
            cell, _, n = item.rpartition(":")
            mode, _, wl = cell.partition("/")
            lru, _, swap = mode.partition("-")
            if n.isdigit() and wl:
                self.more_reps[(model.mode_key(lru, swap), wl)] = int(n)
        self.shipped = self._shipped_row(shipped_conf)
        present = {(r["swap"], r["workload"]) for r in self.runs}
        # Each LRU's swap modes, in the order of the run's LRUs (host-info's lrus; none
        # recorded: the classic LRU only).
        order = [model.mode_key(lru, sw) for lru in self.host.get("lrus", "classic").split()
                 for sw in self.host.get("swap_modes", "disk zram").split()]
        self.swaps = [s for s in order if any(p[0] == s for p in present)]
        wls = self.host.get("workloads", "").split() or list(model.METRICS)
        self.workloads = [w for w in wls if any(p[1] == w for p in present)]
        self.run_timeout = fnum(self.host.get("run_timeout_s")) or 180.0

    def _read_guest_and_configs(self):
        if not os.path.isdir(self.rdir):
            return
        for f in sorted(os.listdir(self.rdir)):
            if f.startswith("guest-info-"):
                kv = read_kv(os.path.join(self.rdir, f))
                mode = model.mode_key(kv.get("guest_lru", "classic"), kv.get("guest_swap_mode", "disk"))
                self.guest.setdefault(mode, {}).update(kv)
        cdir = os.path.join(self.rdir, "configs")
        if os.path.isdir(cdir):
            for f in sorted(os.listdir(cdir)):
                if f.endswith(".conf"):
                    with open(os.path.join(cdir, f)) as fh:
                        self.configs[f[:-5]] = fh.read()

    def lru_named(self):
        """Whether the run recorded its LRU (host-info's lrus): its titles then name it."""
        return "lrus" in self.host

    def short(self, mode):
        """'disk', or in a run that recorded its LRU 'classic disk' (a table column's name)."""
        return model.mode_short(mode, self.lru_named())

    def title(self, mode):
        """'disk swap', or in a run that recorded its LRU 'disk swap, classic LRU'."""
        return model.mode_title(mode, self.lru_named())

    def lru_of(self, mode):
        """What the guest of a mode's boots said of its LRU and kernel: 'classic (lru_gen/enabled
        0x0000), kernel 6.12.57+deb13-amd64', or for raw results from before the guest recorded
        it 'classic: not recorded by the guest, kernel 6.1.0-50-amd64 (...)'."""
        g = self.guest.get(mode, {})
        lru, _ = model.split_mode(mode)
        kernel = g.get("guest_kernel", "?")
        if "guest_lru" not in g:
            why = " (Debian 12's kernel 6.1 boots with the multi-gen LRU off)" if kernel.startswith("6.1.") else ""
            return f"{lru}: not recorded by the guest, kernel {kernel}{why}"
        return f"{g['guest_lru']} (lru_gen/enabled {g.get('guest_lru_gen_enabled', '?')}), kernel {kernel}"

    def statics_beside(self):
        """Whether the static values ran beside a dry-run daemon (host-info's statics_beside,
        recorded since the run of 2026-12-06; before, they ran with no daemon)."""
        return self.host.get("statics_beside") == "dry-run"

    def settings_of(self, wl, swap=None):
        """The settings run on workload wl (a switch runs on phased only), in the run's order;
        with swap (a mode), only those the run planned there (host-info's mode_settings: each
        LRU and swap mode has its own statics; without it, every setting)."""
        planned = dict(x.split(":", 1) for x in self.host.get("mode_settings", "").split() if ":" in x)
        there = planned[swap].split(",") if swap in planned else self.settings
        return [s for s in self.settings if model.runs_on(s, wl) and s in there]

    def key(self, r):
        return (r["swap"], r["workload"], r["setting"], r["rep"])

    def runs_of(self, swap, wl, setting=None):
        return [r for r in self.runs if r["swap"] == swap and r["workload"] == wl
                and (setting is None or r["setting"] == setting)]

    def timed_out(self, r):
        """Killed at the time limit: noted so by the guest, or (runs before the guest noted it
        reliably) killed by a signal after the limit."""
        w = fnum(r.get("wall_s"))
        return w is not None and ("timeout" in r["note"] or (r["rc"] in ("137", "143") and w >= self.run_timeout))

    def ok(self, r):
        """Exited 0, and no OOM kill in it."""
        return r["rc"] == "0" and not self.oom_killed(r)

    def oom_killed(self, r):
        """Ended by the OOM killer (the guest noted a kill in the run: oom-kill): a failed run.
        It counts as a run killed at the time limit does, with the boot's limit as its time:
        the work did not finish, and a setting whose runs the OOM killer ends must not look
        better for it than one whose runs take the whole limit."""
        return "oom-kill" in r["note"].split()

    def limit_of(self, r):
        """The time limit per run of the boot a run was measured in (run_timeouts)."""
        return self.run_timeouts().get(f"{r['workload']}/{r['swap']}") or self.run_timeout

    def by_rep(self, swap, wl, setting, metric, censored=False):
        """{rep: value} of the metric in each run that exited 0; of a run killed at the time
        limit, its wall time with censored (a lower bound), or what it reported until then for
        the metrics of model.UNTIL_TIMEOUT."""
        out = {}
        for r in self.runs_of(swap, wl, setting):
            x = self.metrics.get(self.key(r), {}).get(metric)
            if self.oom_killed(r):
                if censored:  # the OOM killer ended it: at least the time limit (oom_killed)
                    out[r["rep"]] = max(fnum(r.get("wall_s")) or 0.0, self.limit_of(r))
            elif r["rc"] == "0" or (self.timed_out(r) and metric in model.UNTIL_TIMEOUT):
                if x is not None:
                    out[r["rep"]] = x
            elif censored and self.timed_out(r):
                out[r["rep"]] = float(r["wall_s"])
        return out

    def values(self, swap, wl, setting, metric, censored=False):
        return list(self.by_rep(swap, wl, setting, metric, censored).values())

    def counter_by_rep(self, swap, wl, setting, col):
        return {r["rep"]: float(r[col]) for r in self.runs_of(swap, wl, setting)
                if self.ok(r) and fnum(r.get(col)) is not None}

    def median_writes(self, setting):
        """{(mode, workload): the writes a minute of the setting's median run} where any run
        counted them (issue 46's target 4)."""
        return {(sw, wl): statistics.median(v) for sw in self.swaps for wl in self.workloads
                if (v := self.writes_per_min(sw, wl, setting))}

    def writes_per_min(self, swap, wl, setting):
        """The daemon's writes per minute of each run that exited 0 (none for a static value)."""
        return [rate for rate, _ in self._write_rates(swap, wl, setting)]

    def _write_rates(self, swap, wl, setting):
        """(writes a minute, run) of each run of the setting that exited 0 and counted them."""
        out = []
        for r in self.runs_of(swap, wl, setting):
            w, t = fnum(r.get("daemon_writes")), fnum(r.get("wall_s"))
            if self.ok(r) and w is not None and t:
                out.append((w * 60 / t, r))
        return out

    def median_writes_run(self, swap, wl, setting):
        """(run, writes a minute) of the setting's median run by writes a minute (the lower
        middle of an even count), among those writes_per_min counts; None without one."""
        rs = sorted(self._write_rates(swap, wl, setting), key=lambda x: x[0])
        if not rs:
            return None
        rate, r = rs[(len(rs) - 1) // 2]
        return r, rate

    def written_values(self, swap, tag):
        """The knob's values through a run's writes, from its journal (logs/SWAP-TAG.journal,
        the daemon's 'swappiness A -> B' records): [A, B, C...]; [] without the file or a
        write."""
        p = os.path.join(self.rdir, "logs", f"{swap}-{tag}.journal")
        out = []
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                for line in f:
                    m = re.match(r"swappiness (\d+) -> (\d+) ", line)
                    if m:
                        out += ([int(m.group(1))] if not out else []) + [int(m.group(2))]
        return out

    def reps_of(self, swap, wl, setting):
        return [r["rep"] for r in self.runs_of(swap, wl, setting)]

    def counter_values(self, swap, wl, setting, col):
        return [float(r[col]) for r in self.runs_of(swap, wl, setting)
                if self.ok(r) and fnum(r.get(col)) is not None]

    def n_timeouts(self, swap, wl, setting):
        return sum(1 for r in self.runs_of(swap, wl, setting) if self.timed_out(r) and not self.oom_killed(r))

    def n_oom(self, swap, wl, setting):
        return sum(1 for r in self.runs_of(swap, wl, setting) if self.oom_killed(r))

    def n_flagged(self, swap, wl, setting, flag):
        """Runs of a setting whose metric flag is 1."""
        return sum(1 for r in self.runs_of(swap, wl, setting) if self.metrics.get(self.key(r), {}).get(flag) == 1)

    def problems(self):
        return [r for r in self.runs if r["rc"] != "0" or r["note"]]

    def _shipped_row(self, shipped_conf):
        """The daemon setting whose configuration sets what ships now: "default" (shipped.conf, the
        file shipped when the run started) if it does, else the row that does (the default
        changed to a policy the run measured in a row of its own, by the run's choice), else
        "default" (the headline then measured an earlier configuration: tests/bench-report.sh
        makes the README say so)."""
        if shipped_conf is None:
            return "default"
        want = text.effective_settings(shipped_conf)
        for s in ["default"] + [d for d in self.daemons if d != "default"]:
            conf = self.configs.get(self.config_file(s))
            if conf is not None and text.effective_settings(conf) == want:
                return s
        return "default"

    def config_file(self, setting):
        """The configuration a daemon setting ran with: 'default' is shipped.conf."""
        return "shipped" if setting == "default" else setting

    def policy_of(self):
        """{'daemon NAME': policy} for the daemon settings that are a policy's configuration: the
        shipped file (its policy: shipped_policy) and those that differ from it in [policy] name
        only. Extra configurations (other keys changed) are no candidates for the default."""
        out = {}
        shipped = self.configs.get("shipped")
        for s in self.daemons:
            if s == "default":
                p = self.host.get("shipped_policy")
                if p:
                    out[model.label(s)] = p
            elif shipped is not None and self.configs.get(s) is not None:
                a, b = shipped.splitlines(), self.configs[s].splitlines()
                diff = [(x, y) for x, y in zip(a, b) if x != y]
                if len(a) == len(b) and len(diff) == 1 and diff[0][1].strip() == f"name = {s}":
                    out[model.label(s)] = s
        return out

    def log_path(self, swap, tag):
        """logs/SWAP-TAG.log, or logs/TAG.log of runs before the swap modes."""
        p = os.path.join(self.rdir, "logs", f"{swap}-{tag}.log")
        return p if os.path.exists(p) else os.path.join(self.rdir, "logs", f"{tag}.log")

    def ts_path(self, swap, tag):
        p = os.path.join(self.rdir, "ts", f"{swap}-{tag}.csv")
        return p if os.path.exists(p) else os.path.join(self.rdir, "ts", f"{tag}.csv")

    def marks(self, swap, tag):
        """[(name, t0, t1)] of the MARK lines of a run's log (the windows a workload measured,
        CLOCK_BOOTTIME seconds as ts/ and runs.csv); [] without a log or MARK lines."""
        out, log = [], self.log_path(swap, tag)
        if os.path.exists(log):
            with open(log) as f:
                for line in f:
                    m = re.match(r"MARK (\S+) ([0-9.]+) ([0-9.]+)", line)
                    if m:
                        out.append((m.group(1), float(m.group(2)), float(m.group(3))))
        return out

    def _series(self, swap, wl, setting):
        """(run, tag) of the setting's runs that count (exited 0 or killed at the time limit):
        tag names their logs/ and ts/ files."""
        for r in self.runs_of(swap, wl, setting):
            if self.ok(r) or (self.timed_out(r) and not self.oom_killed(r)):
                yield r, f"{wl}-{setting}-{r['rep']}"

    def windows(self, swap, r, tag, mark=None):
        """([(start, end)], estimated): the window a figure was measured in, in one run: the
        MARK lines named mark in its log, or, where the log has none and model.MARK_TAIL says
        how, the run's last seconds as many as its longest figure of those named there (then
        estimated is True); without a mark, the run from t0 to t1. ([], False) when none
        applies."""
        t0, t1 = fnum(r.get("t0")), fnum(r.get("t1"))
        if not mark:
            return ([(t0, t1)] if t0 is not None and t1 is not None else []), False
        win = [(a, b) for name, a, b in self.marks(swap, tag) if name == mark]
        if win or mark not in model.MARK_TAIL or r["rc"] != "0" or t0 is None or t1 is None:
            return win, False
        figures = self.metrics.get(self.key(r), {})
        spans = [figures[k] for k in model.MARK_TAIL[mark] if figures.get(k) is not None]
        if not spans:
            return [], False
        return [(max(t0, t1 - max(spans)), t1)], True

    def estimated_windows(self, swap, wl, setting, mark):
        """How many of the setting's counted runs have their figure's window estimated
        (windows)."""
        return sum(1 for r, tag in self._series(swap, wl, setting) if self.windows(swap, r, tag, mark)[1])

    def _window_rows(self, swap, wl, setting, mark=None):
        """(run, rows) for each of the setting's counted runs that has a window and a time series:
        its rows (ts/) inside the window a figure was measured in (windows)."""
        for r, tag in self._series(swap, wl, setting):
            win, _ = self.windows(swap, r, tag, mark)
            rows = read_csv(self.ts_path(swap, tag))
            if win and rows:
                yield r, [row for row in rows
                          if fnum(row.get("t")) is not None and any(a <= fnum(row["t"]) <= b for a, b in win)]

    def run_medians(self, swap, wl, setting, column, mark=None):
        """Each of the setting's counted runs' median of a time-series column (ts/) over the
        figure's window (knob_in_window); runs without the column are left out."""
        out = []
        for _, rows in self._window_rows(swap, wl, setting, mark):
            vals = [v for v in (fnum(row.get(column)) for row in rows) if v is not None]
            if vals:
                out.append(statistics.median(vals))
        return out

    def unmapped_cache_below(self, swap, wl, setting, pct, mark=None):
        """(seconds, of seconds, runs): how many of the time-series samples in the figure's
        window (knob_in_window) had the page cache that no process maps (Cached + Buffers -
        Mapped - Shmem, the daemon's own measure) under pct of MemTotal, pooled over the
        setting's counted runs; (0, 0, 0) without those columns."""
        below = total = runs = 0
        cols = ("cached_kb", "buffers_kb", "mapped_kb", "shmem_kb", "memtotal_kb")
        for _, rows in self._window_rows(swap, wl, setting, mark):
            vals = [[fnum(row.get(c)) for c in cols] for row in rows]
            vals = [v for v in vals if None not in v and v[4] > 0]
            if not vals:
                continue
            runs += 1
            total += len(vals)
            below += sum(1 for v in vals if unmapped_under(*v, pct))
        return below, total, runs

    def file_refaults_cache_below(self, swap, wl, setting, pct, min_pps, mark=None):
        """(seconds, of seconds, runs): of the seconds in the figure's window in which the
        kernel counted at least min_pps file pages a second coming back into the working set
        (activate_file, between two samples of the time series), how many had the page cache
        that no process maps under pct of MemTotal (as unmapped_cache_below), pooled over the
        setting's counted runs; (0, 0, 0) without those columns."""
        below = total = runs = 0
        cols = ("t", "activate_file", "cached_kb", "buffers_kb", "mapped_kb", "shmem_kb", "memtotal_kb")
        for _, rows in self._window_rows(swap, wl, setting, mark):
            vals = [[fnum(row.get(c)) for c in cols] for row in rows]
            vals = [v for v in vals if None not in v and v[6] > 0]
            if len(vals) < 2:
                continue
            runs += 1
            for (t0, a0, *_), (t1, a1, *cache) in zip(vals, vals[1:]):
                if t1 > t0 and (a1 - a0) >= min_pps * (t1 - t0):
                    total += 1
                    below += unmapped_under(*cache, pct)
        return below, total, runs

    def daemon_policy(self, swap, setting):
        """The policy a daemon setting ran on a swap mode, as the daemon read its file there
        (guest-info's config_SETTING); None if not recorded."""
        m = re.search(r"\bpolicy=(\w+)", self.guest.get(swap, {}).get(f"config_{setting}", ""))
        return m.group(1) if m else None

    def knob_in_window(self, swap, wl, setting, mark=None):
        """The values vm.swappiness held in the time series (ts/, one sample a second) while a
        workload was measured, pooled over the setting's runs that count (exited 0 or killed at
        the time limit): in the window of the MARK line named mark, or from the run's t0 to t1
        (runs.csv) without one. The number of runs behind them is the second value."""
        values, n = [], 0
        for _, rows in self._window_rows(swap, wl, setting, mark):
            n += 1
            values += [v for v in (fnum(row.get("swappiness")) for row in rows) if v is not None]
        return values, n

    def phase_start(self, swap, setting, mark="phase2", burst=model.SWAPIN_BURST):
        """What each counted run of phased did as the MARK window `mark` began, from its time
        series (ts/, cumulative counters a second apart): [(rep, knob, out_before)], the knob at
        the window's first sample and the swap-outs (pages) in the window's seconds before the
        first second with at least `burst` swap-ins (all of the window's without one). Runs
        without MARK lines or counters are left out."""
        out = []
        for r, tag in self._series(swap, "phased", setting):
            win = [(a, b) for name, a, b in self.marks(swap, tag) if name == mark]
            rows = [(fnum(x.get("t")), fnum(x.get("swappiness")), fnum(x.get("pswpin")), fnum(x.get("pswpout")))
                    for x in read_csv(self.ts_path(swap, tag))]
            rows = [x for x in rows if None not in x]
            if not win or len(rows) < 2:
                continue
            a, b = win[0]
            knob, before, seen = None, 0, False
            for (_, _, in0, out0), (t, v, in1, out1) in zip(rows, rows[1:]):
                if t <= a:
                    continue
                if t > b + 1:  # the sample after the window's end still counts its last second
                    break
                knob = v if knob is None else knob
                seen = seen or in1 - in0 >= burst
                if not seen:
                    before += out1 - out0
            if knob is not None:
                out.append((r["rep"], knob, before))
        return out

    def before_reclaim(self, swap, wl, setting, mark=None):
        """How each counted run's figure splits at the kernel's first reclaim, from its time
        series (ts/, cumulative pgscan a second apart): [(rep, before, after)], the seconds from
        the start of the figure's window (windows: the MARK line named mark; without a mark the
        run, t0 to t1) to the last sample before the first one with pages scanned, where no
        value of vm.swappiness acts yet, and the rest of the window. Runs without a window or
        counters, or that never reclaimed in the window, are left out."""
        out = []
        for r, tag in self._series(swap, wl, setting):
            win, _ = self.windows(swap, r, tag, mark)
            t0, t1 = win[0] if len(win) == 1 else (None, None)
            rows = [(fnum(x.get("t")), fnum(x.get("pgscan"))) for x in read_csv(self.ts_path(swap, tag))]
            rows = [x for x in rows if None not in x]
            if t0 is None or t1 is None or t1 < t0 or len(rows) < 2:
                continue
            # The sample after the window's end still counts its last second.
            first = next((a for (a, s0), (b, s1) in zip(rows, rows[1:]) if t0 < b <= t1 + 1 and s1 > s0), None)
            if first is not None:
                before = min(max(0.0, first - t0), t1 - t0)
                out.append((r["rep"], before, t1 - t0 - before))
        return out

    def pace(self, swap, wl, setting):
        """[(rep, pace)]: each counted run's mean of the sampler's pace_us (a fixed loop's CPU
        time in the guest) from t0 to t1, divided by the median of those of every setting's
        counted runs in the same boot (swap mode and workload): 1 is the boot's usual pace, 1.3 a
        guest that ran 1.3 times slower. The mean, not the median: a host that takes the
        emulator's cores does it a scheduler slice at a time (4 ms, where the loop takes 0.3 ms
        in a TCG guest), so it stretches a few of the loops by far, and the mean stretches as the
        guest's work does. Runs without the column (older samplers) are left out."""
        key = (swap, wl)
        if key not in self._pace:
            per = {}
            for s in self.settings:
                for r, rows in self._window_rows(swap, wl, s):
                    vs = [v for v in (fnum(x.get("pace_us")) for x in rows) if v is not None and v > 0]
                    if vs:
                        per.setdefault(s, []).append((r["rep"], statistics.mean(vs)))
            every = [m for runs in per.values() for _, m in runs]
            boot = statistics.median(every) if every else None
            self._pace[key] = {s: [(rep, m / boot) for rep, m in runs] for s, runs in per.items()}
        return self._pace[key].get(setting, [])

    def slowed_runs(self):
        """[(swap, workload, setting, rep, pace)] of the runs whose pace (pace()) is
        model.PACE_SLOW or more."""
        return [(swap, wl, s, rep, p) for swap in self.swaps for wl in self.workloads for s in self.settings
                for rep, p in self.pace(swap, wl, s) if p >= model.PACE_SLOW]

    def phase_change_groups(self, swap, top):
        """Phased's runs of every setting, split by where the knob was when phase 2 began:
        (above top, at or below it, {above: the settings' labels}); each group [(pages swapped
        out before the first burst of swap-ins, phase 2's time)]."""
        up, down, who = [], [], {True: set(), False: set()}
        for s in self.settings:
            p2t = self.by_rep(swap, "phased", s, "phase2_work_s")
            for rep, knob, before in self.phase_start(swap, s):
                if rep in p2t:
                    (up if knob > top else down).append((before, p2t[rep]))
                    who[knob > top].add(model.label(s))
        return up, down, who

    def first_run_uptimes(self):
        """{"workload/swap": [s, ...]}: the guest's uptime when each boot's first run (its
        warm-up) began, boot and setup included: on a slower host it is longer, so it tells
        boots of one run made on machines of different speeds apart."""
        out = {}
        for r in self.all_rows:
            t0 = fnum(r.get("t0"))
            if r.get("warmup") == "1" and t0 is not None:
                out.setdefault(f"{r['workload']}/{r['swap']}", []).append(t0)
        return out

    def run_timeouts(self):
        """{"workload/swap": seconds}: each boot's limit per run (run_timeouts of host-info; a
        boot it does not name, from before it was recorded per boot, had run_timeout_s)."""
        per = dict(x.rsplit(":", 1) for x in self.host.get("run_timeouts", "").split() if ":" in x)
        return {b: fnum(per.get(b, self.host.get("run_timeout_s"))) for b in self.host.get("boots_done", "").split()}

    def daemon_max(self, swap, setting):
        """The top a daemon setting ran with on a swap mode, as the daemon read its file there
        (guest-info's config_SETTING, "policy=tendency max=100"); None if not recorded."""
        m = re.search(r"\bmax=([0-9]+)", self.guest.get(swap, {}).get(f"config_{setting}", ""))
        return int(m.group(1)) if m else None

    def max_is_auto(self, setting):
        """Whether a daemon setting's file leaves [limits] max at auto (the top then depends on
        the swap mode: daemon_max)."""
        conf = text.ini_settings(self.configs.get(self.config_file(setting), ""))
        return conf.get(("limits", "max"), "auto") == "auto"
