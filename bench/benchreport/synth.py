"""Synthetic raw results whose answers are known, for tests/bench-report.sh and the unit
tests: every setting's value is a base times 0.98, 1 and 1.02 in its three repetitions, so
that each bootstrap interval is exactly the base ratio times 0.98/1.02 .. 1.02/0.98.

    python3 -m benchreport.synth DIR WINNER QUICK     (from bench/)
    python3 -m benchreport.synth DIR lrus             (two LRUs, their own statics, an OOM kill)
    python3 -m benchreport.synth DIR lrus200          (the same, 200 the only clear win over 60 on
                                                       the multi-gen LRU's disk swap)

WINNER (ck or adaptive) gets the better p99 on responsiveness and so the lowest geometric
mean; the shipped default (tendency, "daemon default") stays in between."""
import os
import sys

from . import model

SETTINGS = ["0", "10", "60", "100", "200", "200to60", "default", "ck", "adaptive"]
SWAPS = ["disk", "zram"]
FACTORS = ((1, 0.98), (2, 1.0), (3, 1.02))
SHIPPED = "# shipped\n[policy]\n#name = tendency\n[limits]\n#max = auto\n"
RUNS_HEADER = ("swap,workload,setting,daemon_config,rep,seq,warmup,t0,t1,wall_s,rc,pswpin,pswpout,refault_anon,"
               "refault_file,pgmajfault,psi_some_us,psi_full_us,knob_end,daemon_writes,zram_peak_orig_kib,"
               "zram_peak_compr_kib,zram_mem_used_max_kib,note")


def base(winner):
    good, bad = (14, 30) if winner == "ck" else (30, 14)
    S = SETTINGS
    return {
        "phased": {"phase1_s": {"0": 80, "10": 14, "60": 12, "100": 10, "200": 9, "200to60": 9, "default": 9.8, "ck": 10,
                              "adaptive": 9.5},
                   "phase2_work_s": {"0": 10.0, "10": 10.1, "60": 10.2, "100": 10.5, "200": 30, "200to60": 10.5,
                                     "default": 10.4, "ck": 10.3, "adaptive": 10.1},
                   "phase2_blocked_s": {s: 0.001 if s != "200" else 20 for s in S},
                   "phase2_sys_s": {s: 0.2 if s != "200" else 5 for s in S},
                   "phase2_user_s": {s: 9.8 for s in S},
                   "phase2_capped": {s: 1 if s == "200" else 0 for s in S},
                   "phase1_capped": {s: 1 if s == "0" else 0 for s in S},
                   "phase2_majflt": {s: 2 if s != "200" else 9000 for s in S},
                   "phase2_stream_mbps": {s: 45 for s in S},
                   "phase1_refault_file": {s: 1000 for s in S}, "phase2_pswpin": {s: 10 if s != "200" else 9000 for s in S},
                   "phase2_psi_full_us": {s: 500000 for s in S}},
        "responsiveness": {"probe_p99_ms": {"0": 3000, "10": 400, "60": 300, "100": 15, "200": 40, "default": 20,
                                            "ck": good, "adaptive": bad},
                           "probe_p50_ms": {s: 1 for s in S}, "probe_max_ms": {s: 100 for s in S},
                           "dirtier_written_mib": {s: 400 for s in S}, "probe_n": {s: 2000 for s in S}},
        "compile-stream": {"build_s": {"0": None, "10": 90, "60": 80, "100": 70, "200": 75, "default": 74, "ck": 72,
                                       "adaptive": 71},
                           "stream_mbps": {"0": 20, "10": 25, "60": 30, "100": 35, "200": 40, "default": 38, "ck": 36,
                                           "adaptive": 37}},
        "dirtier": {"dirtier_total_s": {"0": 20, "10": 20, "60": 18, "100": 16, "200": 15, "default": 15.5, "ck": 17,
                                        "adaptive": 15.2},
                    "dirtier_first_s": {s: 5 for s in S}},
    }


def _run_row(swap, wl, s, r, f, seq, build_none):
    daemon = model.is_daemon(s)
    conf = "" if not daemon else ("shipped" if s == "default" else s)
    if build_none:
        # Killed at the time limit: no figure, its wall time is a lower bound. The third one as
        # the guest noted it before it flagged timeouts itself.
        note = "rc=143" if r == 3 else "timeout rc=143"
        return f"{swap},{wl},{s},{conf},{r},{seq},0,0,180,{180 + r},143,1,1,1,1,1,1000,500,{s},,,,,{note}"
    noisy = {1: 0.9, 2: 1.0, 3: 1.1}[r]
    # pswpin is the steadiest counter (CV 0.02), the others noisier (0.1).
    return (f"{swap},{wl},{s},{conf},{r},{seq},0,{seq * 40},{seq * 40 + 30},30,0,{100 * f:.0f},{200 * noisy:.0f},"
            f"{100 * noisy:.0f},{1000 * noisy:.0f},{50 * noisy:.0f},{1000000 * noisy:.0f},{500000 * noisy:.0f},60,"
            f"{r + 2 if daemon else ''},,,,")


def generate(d, winner, quick):
    os.makedirs(os.path.join(d, "configs"), exist_ok=True)
    runs, mets, seq = [RUNS_HEADER], ["swap,workload,setting,rep,warmup,metric,value"], 0
    for swap in SWAPS:
        for wl, ms in base(winner).items():
            seq = 0
            # A warm-up run with absurd figures: left out.
            runs.append(f"{swap},{wl},60,,w1,0,1,0,5,5,0,9,9,9,9,9,9,9,60,,,,,")
            mets.append(f"{swap},{wl},60,w1,1,{next(iter(ms))},99999")
            for r, f in FACTORS:
                for s in SETTINGS:
                    if s.endswith("to60") and wl != "phased":
                        continue  # a switch runs on phased only
                    seq += 1
                    none = ms.get("build_s", {}).get(s, 1) is None
                    runs.append(_run_row(swap, wl, s, r, f, seq, none))
                    if wl == "responsiveness" and s == "0" and r == 3:
                        # Killed at the time limit, the probe's figures until then count.
                        runs[-1] = runs[-1].replace(",30,0,", f",{180 + r},143,").replace(",,,,", ",,,,timeout rc=143")
                    if not none:
                        mets += [f"{swap},{wl},{s},{r},0,{m},{v[s] if m.endswith('_capped') else v[s] * f}"
                                 for m, v in ms.items()]
            # The same run recorded twice (an earlier session's leftover): the first counts.
            runs.append(f"{swap},{wl},60,,1,99,0,0,1,1,0,1,1,1,1,1,1,1,60,,,,,")
            mets.append(f"{swap},{wl},60,1,0,{next(iter(ms))},77777")
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write("\n".join(runs) + "\n")
    with open(os.path.join(d, "metrics.csv"), "w") as f:
        f.write("\n".join(mets) + "\n")
    with open(os.path.join(d, "configs", "shipped.conf"), "w") as f:
        f.write(SHIPPED)
    for p in ("ck", "adaptive"):
        with open(os.path.join(d, "configs", f"{p}.conf"), "w") as f:
            f.write(SHIPPED.replace("#name = tendency", f"name = {p}"))
    with open(os.path.join(d, "host-info.txt"), "w") as f:
        f.write(f"settings={' '.join(SETTINGS)}\nswap_modes={' '.join(SWAPS)}\nshipped_policy=tendency\n"
                "workloads=phased responsiveness compile-stream dirtier\nreps=3\n"
                f"quick={quick}\ncomplete=yes\nstarted=2026-11-30T00:00:00Z\nruntime_s=5400\nrun_timeout_s=180\n"
                "redone=disk/phased@2026-12-02T03:46:24Z:abc1234\n")


# --- two LRUs (issue 45): each LRU and swap mode with its own statics, as bench/run.sh's default
# BENCH_STATICS runs them, and a run the OOM killer ended. dirtier_total_s of each static: the
# classic LRU's best is 200 on both swap modes, the multi-gen LRU's 60 on disk and 199 on zram
# (where 180 and 100 do not run), so a best taken over statics that did not run, or over the
# other LRU's, shows.
LRU_STATICS = {("classic", "disk"): ["60", "100", "200"], ("classic", "zram"): ["60", "180", "200"],
               ("mglru", "disk"): ["60", "100", "199", "200"], ("mglru", "zram"): ["60", "180", "199", "200"]}
LRU_BASE = {"classic": {"60": 18, "100": 16, "180": 17, "200": 15, "default": 15.5},
            "mglru": {"60": 15, "100": 16, "180": 14, "199": 12, "200": 30, "default": 15.5}}
# 199 is no better than 60 on disk swap; the default loses to 60 there clearly (issue 46's
# targets 1, 2 and 3 missed), and on zram it writes 13-15 times in a run of 30 s (target 4).
LRU_BASE_DISK = {("mglru", "199"): 17, ("mglru", "default"): 16.5}
LRU_WRITES = {("mglru", "zram"): 10}  # writes a run added to the default's 3, 4 and 5
# The oracle of target (1), the best static value of each workload against 60: on the classic
# LRU 200 (0.83 of 60) and under the multi-gen LRU 199 on zram (0.80), both clear wins; on the
# multi-gen LRU's disk swap 60 itself (1.00): no fixed value beats it. With only200 (lrus200),
# static 200 there takes 12 s, 0.80 of 60: the only clear win is a value the daemon keeps off.
ONLY200 = {("mglru", "200"): 12}


def generate_lrus(d, only200=False):
    os.makedirs(os.path.join(d, "configs"), exist_ok=True)
    runs = [RUNS_HEADER + ",lru"]
    mets = ["swap,workload,setting,rep,warmup,metric,value,lru"]
    for (lru, swap), statics in LRU_STATICS.items():
        seq = 0
        mode = swap if lru == "classic" else f"{lru}-{swap}"
        for r, f in FACTORS:
            for s in statics + ["default"]:
                seq += 1
                row = _run_row(swap, "dirtier", s, r, f, seq, False)
                disk = {**LRU_BASE_DISK, **(ONLY200 if only200 else {})}
                v = disk.get((lru, s), LRU_BASE[lru][s]) if swap == "disk" else LRU_BASE[lru][s]
                if (lru, swap, s, r) == ("mglru", "zram", "200", 3):
                    # Ended by the OOM killer after 20 s, having printed a figure: it counts as at
                    # least the time limit (180 s), not as its figure.
                    row = row.replace(",30,0,", ",20,137,").rsplit(",", 1)[0] + ",oom-kill rc=137"
                    v = 1 / f
                if s == "default" and (lru, swap) in LRU_WRITES:
                    row = row.replace(f",60,{r + 2},", f",60,{r + 2 + LRU_WRITES[(lru, swap)]},")
                runs.append(row + f",{lru}")
                mets.append(f"{swap},dirtier,{s},{r},0,dirtier_total_s,{v * f},{lru}")
                mets.append(f"{swap},dirtier,{s},{r},0,dirtier_first_s,{5 * f},{lru}")
        with open(os.path.join(d, f"guest-info-workload-{mode}-dirtier.txt"), "w") as fh:
            fh.write(f"guest_kernel=6.12.57+deb13-amd64\nguest_os=Debian GNU/Linux 13 (trixie)\nguest_swap_mode={swap}\n"
                     f"guest_lru={lru}\nguest_lru_gen_enabled={'0x0007' if lru == 'mglru' else '0x0000'}\n"
                     "config_default=policy=tendency max=100\n")
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write("\n".join(runs) + "\n")
    with open(os.path.join(d, "metrics.csv"), "w") as f:
        f.write("\n".join(mets) + "\n")
    with open(os.path.join(d, "configs", "shipped.conf"), "w") as f:
        f.write(SHIPPED)
    settings = "60 100 180 199 200 default"
    with open(os.path.join(d, "host-info.txt"), "w") as f:
        f.write(f"settings={settings}\nswap_modes=disk zram\nlrus=mglru classic\nshipped_policy=tendency\n"
                "workloads=dirtier\nreps=3\nquick=0\ncomplete=yes\nstarted=2026-12-06T00:00:00Z\nruntime_s=5400\n"
                "mode_settings=disk:60,100,200,default zram:60,180,200,default mglru-disk:60,100,199,200,default "
                "mglru-zram:60,180,199,200,default\n"
                "run_timeout_s=180\nboots_done=dirtier/mglru-disk dirtier/mglru-zram dirtier/disk dirtier/zram\n")


if __name__ == "__main__":
    if sys.argv[2] in ("lrus", "lrus200"):
        generate_lrus(sys.argv[1], only200=sys.argv[2] == "lrus200")
    else:
        generate(*sys.argv[1:4])
