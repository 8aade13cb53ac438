#!/usr/bin/env bash
# `make bench`: the benchmarks of issues 4, 12 and 45. Boots the guest of tests/vm (BENCH_GUEST;
# one boot per workload, swap mode and LRU, one for the daemon's own cost), runs each workload
# under static vm.swappiness values and under the daemon with each configuration, interleaved
# and repeated, with swap on a disk and on zram, under the multi-gen LRU and the classic one,
# then writes bench/RESULTS.md, bench/results/ and bench/plots/ with bench/report.py.
#
#   bench/run.sh                 (from anywhere; needs root, qemu, debootstrap, gnuplot, python3)
#
# The daemon's configurations (bench/results/configs/NAME.conf, kept verbatim):
#   shipped.conf   conf/autoswappiness.conf byte for byte: the row "daemon default" (tests/bench-report.sh
#                  checks that the committed conf sets what one of the run's files set, each key
#                  set or commented out with its default, or that README.md says the headline
#                  measured an earlier one; the report's headline and targets are that row's, so
#                  a default changed after the run to a row of its own, name = auto, is reported
#                  as the row auto.conf ran)
#   POLICY.conf    the shipped file with only [policy] name set, for each of BENCH_POLICIES but
#                  the shipped default's policy (that one is "daemon default" already): the
#                  rows "daemon POLICY"
#   NAME.conf      each file of BENCH_EXTRA_CONFIGS, verbatim: the rows "daemon NAME"
#
# Knobs (environment; `make bench BENCH_REPS=3` works too). The defaults measure what ships
# (the shipped configuration against the statics users pick) at 5 repetitions, both swap modes,
# both LRUs: 114 runs a repetition, 50-60 s each with the washout and the boots on 2 host
# cores under TCG (the run of 2026-12-06: phased's boots of 31-36 runs took 28-36 minutes,
# zram's the longer), so about 9 hours; BENCH_QUICK=1 is a short try-out (1
# repetition, the shipped default only, no warm-up, short cost test).
#   BENCH_GUEST=trixie  the guest (tests/vm/recipe.sh): trixie (Debian 13, kernel 6.12, the
#                     multi-gen LRU on) or bookworm (Debian 12, kernel 6.1, the classic LRU).
#                     BENCH_RESUME=1 keeps the run's own (host-info's guest_suite; bookworm for
#                     a run recorded before this choice existed) and refuses another
#   BENCH_LRU="mglru classic"  the LRUs, each in boots of its own: the guest's
#                     /sys/kernel/mm/lru_gen/enabled is set (y, or n for classic) at the start
#                     of each boot, before swap is made and before any run, and read back (the
#                     boot fails if the kernel did not take it), so one kernel measures both.
#                     A boot per LRU and not a switch between runs: each LRU is compared with
#                     itself only (its own tables and best static), the settings of a boot still
#                     run interleaved, and a switch inside a boot would carry the pages on the
#                     first LRU's lists into the other's runs. The two LRUs of a workload and
#                     swap mode boot one after the other, so they see about the same host. The
#                     guest records its kernel and LRU (guest-info-*.txt: guest_kernel,
#                     guest_lru, guest_lru_gen_enabled), runs.csv and metrics.csv an lru column.
#                     BENCH_RESUME=1 keeps the run's own (host-info's lrus; classic for a run
#                     recorded before it) and refuses others
#   BENCH_WORKLOADS   phased responsiveness compile compile-stream dirtier (in this order)
#   BENCH_SWAP        "disk zram": the swap modes, each workload in each (disk: the virtio disk
#                     /dev/vdb; zram: /dev/zram0 of BENCH_ZRAM_MB, the kernel's compressor)
#   BENCH_STATICS     static values, default "60 200 zram:180 disk:100 mglru:199 200to60 bare60":
#                     each static value (and switch) runs beside the daemon as shipped in a dry
#                     run (it polls, decides and logs, never writes), started as a daemon row's
#                     is, so that a static row differs from a daemon row by the daemon's writes
#                     only (bench/EXPERIMENTS.md, presence-2026-12-06: beside a daemon pinned at
#                     its value, phased's phase 1 took 0.89 times as long as with none); bareN
#                     is static N with no daemon at all, which measures the daemon's presence. A
#                     value runs on every LRU and swap mode, WHERE:VALUE only where WHERE (an
#                     LRU, classic or mglru, a swap mode, disk or zram, or both, mglru-zram)
#                     names it. The baselines users pick (issue 45): 180 on zram (Pop!_OS, the
#                     Arch Wiki), 100 on disk swap (equal cost by the kernel's documentation),
#                     and under the multi-gen LRU 199 beside 200, which is another mechanism
#                     there (anonymous pages first, no feedback). 0 and 10 are left out (never
#                     the best in the run of 2026-11-30 but on phase 2, where 0-100 tie). The
#                     report's best fixed value of a workload is the best of the statics that
#                     ran on its LRU and swap mode. AtoB is a switch, run on phased only (so in
#                     the default only with phased): static A, and B from phase 2 on, written
#                     by the workload at the boundary (what a controller that knew the
#                     boundary could reach)
#   BENCH_POLICIES    daemon policies besides the shipped one (whose row is "daemon default"),
#                     default none: what ships is what is measured. The policies were
#                     compared in the run of 2026-12-03 (bench/EXPERIMENTS.md, landed-2026-12-03):
#                     BENCH_POLICIES=adaptive with BENCH_EXTRA_CONFIGS=
#                     bench/configs/adaptive-max200.conf does that again; a policy that
#                     `autoswappiness -n` rejects is left out with a note
#   BENCH_EXTRA_CONFIGS  paths of further configuration files, each a row "daemon NAME";
#                     default none (bench/configs/ holds the candidates measured so far)
#   BENCH_REPS=5 BENCH_WARMUP=1   repetitions per setting; discarded runs at the start of
#                     each boot. 4 are the fewest for a 95% interval (RESULTS.md,
#                     "Repetitions"); 5 tell a ratio of 1.07 from 1 on the dirtier, but the
#                     builds' noise needs more than fit. Each repetition of every setting
#                     costs about 14 minutes a swap mode with the washout (RESULTS.md, "Time")
#   BENCH_MEM_MB=256  guest RAM;  BENCH_SWAP_MB=1024 swap disk;  BENCH_ZRAM_MB (= swap disk);
#   BENCH_CPUS=2
#   BENCH_NICE=-10  the emulator's nice value, and that of the run's session (its autogroup,
#                   restored at the end): other work on the host takes its cores less (it runs
#                   slower meanwhile); the sampler's pace_us shows when the guest was slow
#   BENCH_DISK_MBPS=50  one throttle (MB/s, read+write) shared by the root, swap and data disks,
#                       like the single slow disk of a small machine
#   BENCH_DISKS=host  where the guest's disk images live: host (the root image in BUILD_DIR/vm,
#                     the data disk in BENCH_OUT, the swap disk and the root disk's overlay in
#                     /tmp) or ram (copies of all of them in a directory of /dev/shm, about
#                     1.5 GB plus the swap disk, removed at the end): the throttle is then the
#                     whole of the disk's speed, whatever the host's page cache holds
#   BENCH_KEEP_HOT=0  1: bench/keephot beside each guest reads every resident page of qemu's memory
#                     (the guest's RAM, its translated code) and of the disk images' cached
#                     pages every 30 s: the hypervisor under these hosts takes back memory left
#                     untouched for a minute or two, and a run that needs such a page waits
#                     for it (bench/keephot.c says how much)
#                     Neither made the runs steadier (bench/EXPERIMENTS.md, noise-2026-12-04), so both
#                     are off; they are there to try again on another machine.
#   BENCH_WASHOUT=1   before each run, after the knob is back at 60, swap made again and the cache
#                     dropped: the dirtier over 130% of MemTotal, one pass, at 60, then swap made
#                     again once more; 0: none. A run leaves the guest in a state that swapoff,
#                     sync and drop_caches do not undo: the dirtier's pass 1 at 60 took 1.45 times
#                     as long right after runs at 200 as after runs at 60, and at 200 0.89 times
#                     as long right after runs at 60. With the washout the first was gone and the
#                     second smaller and the other way round (bench/EXPERIMENTS.md, carryover-2026-12-04);
#                     bench/order.sh spreads what is left evenly over the settings.
#   BENCH_SAMPLE_MS=1000  time-series sampling
#   workload sizes (percent of the guest's MemTotal, or absolute):
#     DIRTIER_PCT=130 DIRTIER_PASSES=2
#     COMPILE_JOBS=16 COMPILE_COPIES=1 COMPILE_IDLE_PCT=25
#     RESP_CROWD=300 RESP_CROWD_KIB=256 RESP_PROBE_KIB=1024 RESP_PROBE_MS=5
#     RESP_DIRTIER_PCT=80 RESP_WINDOW_S=20 (the probe and the dirtier run for a fixed window)
#     PHASED_IDLE_PCT=60 PHASED_ROUNDS=3 PHASED_ACTIVE_PCT=60 PHASED_ACTIVE_S=10
#     PHASED_P1_CAP_S=40 (phase 1 stops there: a lower bound, and phase 2 is still measured)
#     BENCH_TREE_MB (read tree, default 120% of BENCH_MEM_MB), BENCH_HOT_MB (45%), BENCH_COLD_MB (80%)
#   cost test: BENCH_COST_MEM_MB=1024 COST_CROWDS="100 2000" COST_SECONDS=10 COST_INTERVAL_MS=100
#              (COST_CROWDS= empty: no cost test); disk swap only
#   BENCH_RUN_TIMEOUT=90   seconds before one run is killed: recorded as a timeout, and its wall
#                          time counts as a lower bound of the workload's time (no run of 60-200
#                          took over 87 s on the idle host of the first full run; on zram under
#                          TCG some thrash for minutes, and the limit bounds what they cost).
#                          Each boot has its own (host-info's run_timeouts): a session that
#                          resumes the run on a slower machine (the guest's uptime at its first
#                          run, in RESULTS.md, shows it) may give its boots a longer one; the
#                          settings of a boot run interleaved, so they share its host and limit
#                          A run the OOM killer ended (the guest's oom_kill count rose in it;
#                          vm-test.service has OOMPolicy=continue, so the boot goes on) is
#                          recorded as failed (note oom-kill) and counts the same way, with the
#                          boot's limit as its time: at least that long (RESULTS.md says so)
#   BENCH_OUT=build/bench  work directory (staged binaries, shares, data disk)
#   BENCH_REPORT_DIR=bench where RESULTS.md, results/ and plots/ go; the README headline is
#                          rewritten only by a full run into bench (BENCH_QUICK=1: the default
#                          is $BENCH_OUT/report, so a try-out leaves bench/ alone)
#   BENCH_RAW              the raw results (runs.csv, metrics.csv, ts/, logs/, configs/,
#                          host-info.txt): default $BENCH_REPORT_DIR/results, so that a full
#                          run's raw results are committed with its report (a few MB)
#   BENCH_REPORT_ONLY=1    only regenerate the report from BENCH_RAW
#   BENCH_RESUME=1         go on with a run whose raw results are in BENCH_RAW (committed, or
#                          left by an interrupted session): same settings, reps, swap modes and
#                          configurations (checked); runs already in BENCH_RAW/runs.csv are
#                          skipped, boots with nothing left to do are not made. Commit
#                          bench/results before a session ends to resume in the next one.
#   BENCH_MORE="LRU-SWAP/WORKLOAD:N ..."  these boots run N repetitions of each setting instead
#                          of BENCH_REPS (N: more than BENCH_REPS, at most 50), e.g.
#                          mglru-zram/responsiveness:10. With BENCH_RESUME=1 the repetitions
#                          recorded stay and only the new ones run, in the order bench/order.sh
#                          gives them. The report's "Repetitions" names the cells whose intervals
#                          need more, and the N that would tell their ratio from 1. A cell is
#                          extended once (host-info's more_reps; another N is refused): runs added
#                          until an interval leaves 1 would find differences that are not there.
#   BENCH_REDO="SWAP/WORKLOAD ..."  with BENCH_RESUME=1: drop these workloads' recorded runs
#                          (on every LRU of the run) and measure them again (after a change to their script or sizes);
#                          the rest of the run is kept if it was measured with the same guest,
#                          disk, limits and sizes (checked). The daemon, scripts and sources
#                          are staged afresh from the work tree (a plain resume reuses what the
#                          run staged). host-info.txt and RESULTS.md say what was redone, when,
#                          at which commit. A resumed run takes configuration files whose key
#                          lines are unchanged (prose comments corrected since) and keeps them.
set -euo pipefail
# The whole script is one { } block: bash reads it completely before running any of it, so
# editing this file during a run of hours (a checkout, a colleague) cannot derail the run.
{

die() { echo "bench: error: $*" >&2; exit 1; }
# The key lines of a configuration file, set or commented out (`#key = value`).
conf_settings() { grep -E '^[[:space:]]*#?[[:space:]]*[a-z_0-9]+[[:space:]]*=' "$1" || true; }
say() { echo "bench: $*"; }

top=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
cd -- "$top"
BIN=${BIN:-build/autoswappiness}
BUILD_DIR=${BUILD_DIR:-build}
out=${BENCH_OUT:-build/bench}
quick=${BENCH_QUICK:-0}
# A try-out never overwrites the committed results unless told to.
report_dir=${BENCH_REPORT_DIR:-$([[ $quick == 1 ]] && echo "$out/report" || echo bench)}
raw=${BENCH_RAW:-$report_dir/results}

resume=${BENCH_RESUME:-0}
redo=${BENCH_REDO:-} # below, where the recorded runs are dropped
guest=${BENCH_GUEST:-}
if [[ $resume == 1 && -f $raw/host-info.txt ]]; then
	recorded=$(sed -n 's/^guest_suite=//p' "$raw/host-info.txt")
	recorded=${recorded:-bookworm} # recorded before BENCH_GUEST existed: Debian 12 was the only guest
	[[ -z $guest || $guest == "$recorded" ]] ||
		die "BENCH_RESUME=1: $raw was measured on the $recorded guest, not BENCH_GUEST=$guest"
	guest=$recorded
fi
guest=${guest:-trixie}
[[ $guest == trixie || $guest == bookworm ]] || die "BENCH_GUEST must be trixie or bookworm, got '$guest'"
# The LRUs, like the guest: a resumed run keeps its own (classic for a run recorded before the
# LRU was: Debian 12 boots with the multi-gen LRU off) and refuses others.
lrus=${BENCH_LRU:-}
if [[ $resume == 1 && -f $raw/host-info.txt ]]; then
	recorded=$(sed -n 's/^lrus=//p' "$raw/host-info.txt")
	recorded=${recorded:-classic}
	[[ -z $lrus || $lrus == "$recorded" ]] ||
		die "BENCH_RESUME=1: $raw was measured with BENCH_LRU='$recorded', not '$lrus'"
	lrus=$recorded
fi
lrus=${lrus:-mglru classic}
for l in $lrus; do
	[[ $l == classic || $l == mglru ]] || die "BENCH_LRU: '$l' is neither classic nor mglru"
done
workloads=${BENCH_WORKLOADS:-phased responsiveness compile compile-stream dirtier}
swap_modes=${BENCH_SWAP:-disk zram}
# The baselines users pick (issue 45): 180 on zram, 100 on disk swap (equal cost by the kernel's
# documentation), and 199 under the multi-gen LRU, where 200 is another mechanism. The switch
# measures what a controller could reach on phased at best (RESULTS.md, target (c)).
statics=${BENCH_STATICS:-60 200 zram:180 disk:100 mglru:199$([[ " $workloads " != *" phased "* ]] || echo " 200to60") bare60}
policies=${BENCH_POLICIES-}
extra_configs=${BENCH_EXTRA_CONFIGS-}
reps=${BENCH_REPS:-$([[ $quick == 1 ]] && echo 1 || echo 5)}
warmup=${BENCH_WARMUP:-$([[ $quick == 1 ]] && echo 0 || echo 1)}
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "BENCH_REPS must be a positive number, not '$reps'"
# BENCH_MORE: cells (LRU-SWAP/WORKLOAD) that run more repetitions than $reps; see the top.
more=""
for item in ${BENCH_MORE:-}; do
	[[ $item =~ ^(classic|mglru)-(disk|zram)/([a-z-]+):([0-9]+)$ ]] ||
		die "BENCH_MORE: '$item' is not LRU-SWAP/WORKLOAD:N (e.g. mglru-zram/responsiveness:10)"
	[[ " $lrus " == *" ${BASH_REMATCH[1]} "* && " $swap_modes " == *" ${BASH_REMATCH[2]} "* ]] ||
		die "BENCH_MORE: '$item': the run has no ${BASH_REMATCH[1]}-${BASH_REMATCH[2]} (LRUs: $lrus; swap modes: $swap_modes)"
	[[ " $workloads " == *" ${BASH_REMATCH[3]} "* ]] ||
		die "BENCH_MORE: '$item': ${BASH_REMATCH[3]} is not among the workloads run ($workloads)"
	n=$((10#${BASH_REMATCH[4]}))
	((n > reps && n <= 50)) || die "BENCH_MORE: '$item': N must be more than BENCH_REPS ($reps) and at most 50"
	[[ " $more " != *" ${item%:*}:"* ]] || die "BENCH_MORE: '$item': ${item%:*} is named twice"
	more+=" ${item%:*}:$n"
done
# A cell is extended once (the N given first stays; another is refused), so that no cell gets
# runs until its interval happens to leave 1.
if [[ $resume == 1 && -f $raw/host-info.txt ]]; then
	for item in $(sed -n 's/^more_reps=//p' "$raw/host-info.txt"); do
		for m in $more; do
			[[ ${m%:*} != "${item%:*}" || $m == "$item" ]] ||
				die "BENCH_MORE: ${item%:*} was extended to ${item##*:} repetitions already, not ${m##*:}: a cell is extended once"
		done
		[[ " $more " == *" $item "* ]] || more+=" $item"
	done
fi
# The repetitions per setting of the boot of workload $1, LRU $2, swap mode $3.
cell_reps() {
	local item
	for item in $more; do
		[[ ${item%:*} != "$2-$3/$1" ]] || { echo "${item##*:}"; return; }
	done
	echo "$reps"
}
mem_mb=${BENCH_MEM_MB:-256}
swap_mb=${BENCH_SWAP_MB:-1024}
zram_mb=${BENCH_ZRAM_MB:-$swap_mb}
cpus=${BENCH_CPUS:-2}
bench_nice=${BENCH_NICE:--10}
[[ $bench_nice =~ ^-?[0-9]+$ ]] && ((bench_nice >= -20 && bench_nice <= 19)) ||
	die "BENCH_NICE must be a nice value, -20..19, not '$bench_nice'"
disk_mbps=${BENCH_DISK_MBPS:-50}
disks=${BENCH_DISKS:-host}
[[ $disks == host || $disks == ram ]] || die "BENCH_DISKS must be host or ram, not '$disks'"
keep_hot=${BENCH_KEEP_HOT:-0}
[[ $keep_hot == 0 || $keep_hot == 1 ]] || die "BENCH_KEEP_HOT must be 0 or 1, not '$keep_hot'"
washout=${BENCH_WASHOUT:-1}
[[ $washout == 0 || $washout == 1 ]] || die "BENCH_WASHOUT must be 0 or 1, not '$washout'"
sample_ms=${BENCH_SAMPLE_MS:-1000}
run_timeout=${BENCH_RUN_TIMEOUT:-90}
run_timeout0=$run_timeout # the limit the run started with (a resumed run: its first session's)
tree_mb=${BENCH_TREE_MB:-$((mem_mb * 120 / 100))}
hot_mb=${BENCH_HOT_MB:-$((mem_mb * 45 / 100))}
cold_mb=${BENCH_COLD_MB:-$((mem_mb * 80 / 100))}
cost_mem_mb=${BENCH_COST_MEM_MB:-1024}
cost_crowds=${COST_CROWDS-100 2000}
cost_seconds=${COST_SECONDS:-$([[ $quick == 1 ]] && echo 5 || echo 10)}
cost_interval=${COST_INTERVAL_MS:-100}
for m in $swap_modes; do
	[[ $m == disk || $m == zram ]] || die "BENCH_SWAP: '$m' is neither disk nor zram"
done
# A switch setting AtoB (guest-bench.sh): static A, then B from phased's phase 2 on.
is_switch() { [[ $1 =~ ^([0-9]{1,3})to([0-9]{1,3})$ ]]; }
# A bare setting bareN: static N with no daemon at all (the other statics run beside a dry-run one).
is_bare() { [[ $1 =~ ^bare([0-9]{1,3})$ ]]; }
for s in $statics; do
	if [[ $s == *:* ]]; then # WHERE:VALUE: on one LRU, swap mode or both (LRU-SWAP) only
		[[ ${s%%:*} =~ ^((classic|mglru)(-(disk|zram))?|disk|zram)$ ]] ||
			die "BENCH_STATICS: '$s': before the colon an LRU (classic, mglru), a swap mode (disk, zram) or LRU-SWAP"
		s=${s#*:}
	fi
	if is_switch "$s"; then
		((10#${BASH_REMATCH[1]} <= 200 && 10#${BASH_REMATCH[2]} <= 200)) ||
			die "BENCH_STATICS: '$s': a switch's values are 0..200"
		[[ " $workloads " == *" phased "* ]] ||
			die "BENCH_STATICS: '$s' switches at phased's phase boundary, and BENCH_WORKLOADS has no phased"
	elif is_bare "$s"; then
		[[ ${BASH_REMATCH[1]} == "$((10#${BASH_REMATCH[1]}))" ]] && ((10#${BASH_REMATCH[1]} <= 200)) ||
			die "BENCH_STATICS: '$s': a bare value is 0..200, written without leading zeros"
	else
		[[ $s =~ ^[0-9]{1,3}$ ]] && ((10#$s <= 200)) ||
			die "BENCH_STATICS: '$s' is neither a value 0..200, a switch AtoB nor a bare value bareN"
	fi
done
# The report's name of an LRU and swap mode (bench/benchreport/model.py, mode_key): the swap
# mode under the classic LRU, mglru-SWAP under the multi-gen one. It prefixes the boot's files.
mode_key() { if [[ $1 == classic ]]; then echo "$2"; else echo "$1-$2"; fi; }
# The static settings of one LRU and swap mode: BENCH_STATICS' plain values and those whose
# WHERE names the LRU, the swap mode or both; values in ascending order, then the switches,
# then the bare values.
statics_of() { # LRU SWAP
	local t w v=() sw=() b=()
	for t in $statics; do
		w=
		[[ $t != *:* ]] || { w=${t%%:*}; t=${t#*:}; }
		[[ -z $w || $w == "$1" || $w == "$2" || $w == "$1-$2" ]] || continue
		if is_switch "$t"; then sw+=("$t"); elif is_bare "$t"; then b+=("$t"); else v+=("$((10#$t))"); fi
	done
	{ printf '%s\n' "${v[@]}" | sort -n -u; printf '%s\n' "${sw[@]}" "${b[@]}" | awk '!seen[$0]++'; } | grep . |
		tr '\n' ' ' | sed 's/ $//' || true
}

report() {
	command -v gnuplot >/dev/null || die "gnuplot not found: apt-get install gnuplot-nox"
	mkdir -p "$report_dir" || die "cannot create $report_dir"
	python3 bench/report.py "$raw" "$report_dir"
}
say "statics per LRU and swap mode:$(for l in $lrus; do for sw in $swap_modes; do
	x=$(statics_of "$l" "$sw")
	printf ' %s:%s' "$(mode_key "$l" "$sw")" "${x// /,}"
done; done)"
if [[ ${BENCH_REPORT_ONLY:-0} == 1 ]]; then
	report
	exit 0
fi

# --- prerequisites ---------------------------------------------------------------------------
[[ $EUID -eq 0 ]] || die "must run as root (the guest image is built with debootstrap)"
# qemu, debootstrap, gnuplot, the compiler: scripts/deps.sh's bench group.
scripts/deps.sh bench || die "scripts/deps.sh could not install what the benchmark needs"
[[ -x $BIN ]] || die "$BIN not found: run make first"

mkdir -p "$out"
out=$(readlink -f -- "$out")
# One run per work directory: a second `make bench` would wipe this one's results and shares
# under its running guests. Use another BENCH_OUT to run two (on separate machines, ideally).
exec 8>"$out/.lock" || die "cannot open $out/.lock"
flock -n 8 || die "another bench run holds $out/.lock (pid $(cat "$out/.pid" 2>/dev/null || echo ?)); wait for it or set BENCH_OUT"
echo $$ >"$out/.pid"
started=$(date -u +%FT%TZ)
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
t_start=$SECONDS
# With the scheduler's autogroups (CONFIG_SCHED_AUTOGROUP, on in Debian's kernels) the CPU is
# shared between sessions first, and a process's nice value counts only among the tasks of its
# own session: one busy loop started from another shell took half of the emulator's cores at
# nice -10 (its threads' CPU ticks a second on 2 cores: 196 alone, 101 beside the loop). The
# session's autogroup nice gives the whole run that weight against other sessions (182 beside
# the loop); it is put back when the run ends, for the shell it may share the session with.
autogroup_nice=
if [[ -e /proc/self/autogroup ]]; then
	read -r _ _ autogroup_nice </proc/self/autogroup || die "cannot read /proc/self/autogroup"
	[[ $autogroup_nice =~ ^-?[0-9]+$ ]] || die "/proc/self/autogroup: unexpected contents"
	echo "$bench_nice" >/proc/self/autogroup || die "cannot set the nice value of this session's autogroup (/proc/self/autogroup)"
fi
progress=
merger=
ramdir=
stop_helpers() {
	[[ -z $ramdir ]] || rm -rf -- "$ramdir" || say "warning: cannot remove $ramdir"
	[[ -z $autogroup_nice ]] || echo "$autogroup_nice" >/proc/self/autogroup ||
		say "warning: cannot put back the nice value $autogroup_nice of this session's autogroup"
	if [[ -n $merger ]]; then
		pkill -P "$merger" 2>/dev/null || true
		kill "$merger" 2>/dev/null || true
	fi
	[[ -z $progress ]] || kill "$progress" 2>/dev/null || true
}
trap stop_helpers EXIT
# A fatal signal skips the EXIT trap unless it has a trap of its own: with BENCH_DISKS=ram that
# would leave gigabytes of images in /dev/shm.
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# --- the daemon's configurations -------------------------------------------------------------
# Everything the guests get is staged once, here, so that the whole run uses one daemon
# binary, one set of scripts, one source tree and one set of configurations even while the
# work tree changes.
staged=$out/staged
shipped=conf/autoswappiness.conf
# The shipped file lists every key with its default, commented out: its [policy] name line
# names the default policy (tests/man.sh checks that the file matches the code).
shipped_policy=$(awk '/^\[/ { sec = $0 } sec == "[policy]" && /^#?name *=/ { sub(/^#?name *= */, ""); print; exit }' "$shipped")
[[ -n $shipped_policy ]] || die "cannot find the [policy] name line of $shipped"
make_configs() { # DIR: shipped.conf, POLICY.conf, extra NAME.conf; sets daemon_settings
	local d=$1 p f n
	mkdir -p "$d"
	cp -- "$shipped" "$d/shipped.conf" || die "cannot copy $shipped"
	cmp -s -- "$shipped" "$d/shipped.conf" || die "$d/shipped.conf differs from $shipped"
	daemon_settings="default"
	skipped=""
	for p in $policies; do
		if [[ $p == "$shipped_policy" ]]; then
			say "policy $p is the shipped default: its row is 'daemon default'"
			continue
		fi
		sed "/^\[policy\]/,/^\[/ s/^#\{0,1\}name *=.*/name = $p/" "$shipped" >"$d/$p.conf"
		n=$(diff "$shipped" "$d/$p.conf" | grep -c '^>' || true)
		[[ $n == 1 ]] || die "$d/$p.conf should differ from $shipped in the [policy] name line only ($n lines)"
		if "$BIN" -n -c "$d/$p.conf" >/dev/null 2>&1; then
			daemon_settings+=" $p"
		else
			skipped+=" $p"
			say "policy '$p' left out: $BIN -n rejects it ($("$BIN" -n -c "$d/$p.conf" 2>&1 | head -n 1))"
			rm -f -- "$d/$p.conf"
		fi
	done
	for f in $extra_configs; do
		n=$(basename -- "$f" .conf)
		[[ $n =~ ^[a-z0-9][a-z0-9-]*$ && $n != shipped && $n != default && ! -e $d/$n.conf ]] ||
			die "BENCH_EXTRA_CONFIGS: '$f': the name '$n' is taken or not [a-z0-9-]"
		"$BIN" -n -c "$f" >/dev/null 2>&1 || die "BENCH_EXTRA_CONFIGS: $BIN -n rejects $f"
		cp -- "$f" "$d/$n.conf"
		daemon_settings+=" $n"
	done
}

# A resumed run goes on with the daemon it staged; a redo measures the work tree as it is now
# (host-info's redone names the commit), so it stages afresh.
if [[ $resume == 1 && -z $redo && -x $staged/guest.sh && -d $staged/configs ]]; then
	say "resuming: reusing the staged daemon, scripts, sources and configurations in $staged"
	daemon_settings=$(cat "$staged/daemon-settings")
	skipped=$(cat "$staged/skipped")
else
	rm -rf -- "$staged"
	mkdir -p "$staged/bin" "$staged/wl" "$staged/src"
	make -s install DESTDIR="$staged/destdir" BUILD="$(dirname "$BIN")" >/dev/null ||
		die "make install DESTDIR=$staged/destdir failed"
	for p in dirtier anon probe crowd sampler watchdog; do
		cc -O2 -Wall -Wextra -static -o "$staged/bin/$p" "bench/$p.c" || die "cannot build bench/$p.c"
	done
	cp bench/wl-*.sh "$staged/wl/"
	cp -r src include "$staged/src/"
	install -m 0755 bench/guest-bench.sh "$staged/guest.sh"
	cp bench/order.sh "$staged/order.sh"
	make_configs "$staged/configs"
	echo "$daemon_settings" >"$staged/daemon-settings"
	echo "$skipped" >"$staged/skipped"
fi
daemon_version=$("$staged/destdir/usr/local/sbin/autoswappiness" --version 2>&1 || true)
# Each LRU and swap mode runs its own statics (statics_of); settings is their union, in the
# order of statics_of, and mode_settings what each ran (host-info, for the report's tables).
settings_of_mode() { # LRU SWAP
	local x
	x="$(statics_of "$1" "$2") $daemon_settings"
	echo "${x# }"
}
all_statics=$(for l in $lrus; do for sw in $swap_modes; do statics_of "$l" "$sw"; echo; done; done |
	tr ' ' '\n' | grep . | awk '!seen[$0]++' || true)
# shellcheck disable=SC2046 # word splitting wanted: one line of words
settings=$(echo $(grep -v 'to\|bare' <<<"$all_statics" | sort -n -u) $(grep to <<<"$all_statics") \
	$(grep bare <<<"$all_statics") $daemon_settings)
mode_settings=$(for l in $lrus; do for sw in $swap_modes; do
	x=$(settings_of_mode "$l" "$sw")
	echo "$(mode_key "$l" "$sw"):${x// /,}"
done; done | tr '\n' ' ')
mode_settings=${mode_settings% }
# The settings run on workload $1: a switch (AtoB) acts at phased's phase boundary, so runs there only.
nset_of() { # WORKLOAD LRU SWAP
	local s n=0
	for s in $(settings_of_mode "$2" "$3"); do
		[[ $1 == phased ]] || ! is_switch "$s" && n=$((n + 1))
	done
	echo "$n"
}
# The policies of the configurations, for the cost test.
cost_policies=$(for c in $daemon_settings; do
	f=$staged/configs/$([[ $c == default ]] && echo shipped || echo "$c").conf
	awk '/^\[/ { sec = $0 } sec == "[policy]" && /^#?name *=/ { sub(/^#?name *= */, ""); print; exit }' "$f"
done | awk '!seen[$0]++' | tr '\n' ' ')
say "settings: $mode_settings; swap: $swap_modes; LRU: $lrus; repetitions $reps${more:+ (more:$more)}, warm-up $warmup; workloads: $workloads"

# --- image, data disk ------------------------------------------------------------------------
tests/vm/recipe.sh "$BUILD_DIR/vm/$guest" "$guest"
bench/mkdata.sh "$out/data.img" "$tree_mb" "$hot_mb" "$cold_mb"
imagedir=$BUILD_DIR/vm/$guest
data_img=$out/data.img
boot_tmp=${TMPDIR:-/tmp}
if [[ $disks == ram ]]; then
	# The root disk is not opened with cache=none: its reads come from the host's page cache
	# when it holds them and from the host's disk when not. In a tmpfs every image is in the
	# host's RAM (it has no swap to put them in), and the throttle alone sets the disks' speed.
	# What the copies take (root.img is sparse), the swap disk if the guest fills it, and the
	# root disk's overlay.
	need_mb=$((($(du -k -- "$imagedir/root.img" | cut -f1) + $(du -k -- "$data_img" | cut -f1)) / 1024 + swap_mb + 512))
	[[ $(stat -f -c %T /dev/shm 2>/dev/null) == tmpfs ]] ||
		die "BENCH_DISKS=ram: /dev/shm is not a tmpfs"
	avail_mb=$(($(df -k --output=avail /dev/shm | tail -n 1) / 1024))
	((avail_mb >= need_mb)) ||
		die "BENCH_DISKS=ram: /dev/shm has $avail_mb MB free, the images need about $need_mb MB"
	ramdir=$(mktemp -d /dev/shm/autoswappiness-bench.XXXXXX) || die "cannot create a directory in /dev/shm"
	mkdir "$ramdir/vm" "$ramdir/tmp" || die "cannot create directories in $ramdir"
	for f in root.img vmlinuz initrd.img stamp; do
		cp --sparse=always -- "$imagedir/$f" "$ramdir/vm/$f" || die "cannot copy $imagedir/$f to $ramdir/vm"
	done
	cp --sparse=always -- "$data_img" "$ramdir/data.img" || die "cannot copy $data_img to $ramdir"
	imagedir=$ramdir/vm data_img=$ramdir/data.img boot_tmp=$ramdir/tmp
	say "disks in RAM: $ramdir ($(du -sm -- "$ramdir" | cut -f1) MB, the swap disk to come)"
fi

stage() { # SHAREDIR: everything the guest needs but bench.env
	rm -rf -- "$1"
	mkdir -p "$1/out"
	cp -r "$staged/." "$1/"
}

# Copies what a guest recorded so far from SHAREDIR/out into $raw. Idempotent (rows already
# there are not added twice) and safe while the guest still writes: only complete lines.
merge_out() { # SHAREDIR
	local o=$1/out f n
	[[ -d $o ]] || return 0
	for f in runs metrics; do
		[[ -s $o/$f.csv ]] || continue
		n=$(wc -l <"$o/$f.csv")
		if [[ ! -s $raw/$f.csv ]]; then
			head -n 1 "$o/$f.csv" >"$raw/$f.csv"
		elif [[ $(head -n 1 "$o/$f.csv") != "$(head -n 1 "$raw/$f.csv")" ]]; then
			die "$o/$f.csv and $raw/$f.csv have different columns: not one run"
		fi
		head -n "$n" "$o/$f.csv" | tail -n +2 | grep -vxFf "$raw/$f.csv" >>"$raw/$f.csv" || true
	done
	for f in ts logs; do
		[[ ! -d $o/$f ]] || cp -r "$o/$f" "$raw/"
	done
	cp "$o"/guest-info-*.txt "$o"/cost.csv "$raw/" 2>/dev/null || true
}

keephot=$out/keephot
if [[ $keep_hot == 1 ]]; then
	cc -O2 -Wall -Wextra -o "$keephot" bench/keephot.c || die "cannot build bench/keephot.c"
fi
bps=$((disk_mbps * 1000 * 1000))
throttle="throttling.bps-total=$bps,throttling.group=benchdisk"
# Beside boot.sh: once its qemu runs, bench/keephot on it and on the images' files, until
# qemu exits. Its summary goes to SHAREDIR/keephot.log.
keeper() { # BOOTPID SHAREDIR
	local q="" i
	for ((i = 0; i < 120; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		q=$(pgrep -P "$1" -x qemu-system-x86 || true)
		[[ -z $q ]] || break
		sleep 0.5
	done
	[[ -n $q ]] || { say "warning: keephot: no qemu under boot.sh (pid $1)"; return 1; }
	# The images: the root disk's (its pages in the host's cache; all of it in a RAM disk), and
	# with BENCH_DISKS=ram the data disk and what boot.sh made in its temporary directory.
	local files=("$imagedir/root.img")
	[[ $disks == host ]] || files+=("$data_img" "$boot_tmp"/autoswappiness-vm.*/*)
	"$keephot" 30 "$q" "${files[@]}" >"$2/keephot.log" 2>&1
}
boot() { # SHAREDIR MEM_MB TIMEOUT
	local rc=0
	: >"$1/guest.log"
	tail -n 0 -F -- "$1/guest.log" 2>/dev/null | grep --line-buffered '^bench: ' &
	progress=$!
	# Into $raw once a minute: a session that ends in the middle of a boot loses at most a
	# minute of runs, if $raw is committed.
	(while sleep 60; do merge_out "$1"; done) &
	merger=$!
	TMPDIR=$boot_tmp VM_MEM_MB=$2 VM_CPUS=$cpus VM_SWAP_MB=$swap_mb VM_TIMEOUT=$3 \
		VM_SWAP_DRIVE_OPTS="cache=none,aio=threads,$throttle" VM_ROOT_DRIVE_OPTS="$throttle" \
		nice -n "$bench_nice" tests/vm/boot.sh "$imagedir" "$1" \
		-drive "file=$data_img,format=raw,if=virtio,readonly=on,cache=none,aio=threads,$throttle" &
	local bootpid=$! keeperpid=
	if [[ $keep_hot == 1 ]]; then
		keeper "$bootpid" "$1" &
		keeperpid=$!
	fi
	wait "$bootpid" || rc=$?
	[[ -z $keeperpid ]] || wait "$keeperpid" || say "warning: keephot failed (see $1/keephot.log)"
	pkill -P "$merger" 2>/dev/null || true
	kill "$merger" 2>/dev/null || true
	wait "$merger" 2>/dev/null || true
	merger=
	sleep 1
	kill "$progress" 2>/dev/null || true
	pkill -P "$progress" 2>/dev/null || true
	wait "$progress" 2>/dev/null || true
	progress=
	merge_out "$1"
	return "$rc"
}

env_common() { # [REPS]: the boot's repetitions per setting ($reps)
	cat <<-EOF
		SETTINGS="$settings"
		REPS=${1:-$reps}
		WARMUP=$warmup
		ZRAM_MB=$zram_mb
		SAMPLE_MS=$sample_ms
		WASHOUT=$washout
		RUN_TIMEOUT=$run_timeout
		DIRTIER_PCT=${DIRTIER_PCT:-130}
		DIRTIER_PASSES=${DIRTIER_PASSES:-2}
		COMPILE_JOBS=${COMPILE_JOBS:-16}
		COMPILE_COPIES=${COMPILE_COPIES:-1}
		COMPILE_IDLE_PCT=${COMPILE_IDLE_PCT:-25}
		RESP_CROWD=${RESP_CROWD:-300}
		RESP_CROWD_KIB=${RESP_CROWD_KIB:-256}
		RESP_PROBE_KIB=${RESP_PROBE_KIB:-1024}
		RESP_PROBE_MS=${RESP_PROBE_MS:-5}
		RESP_DIRTIER_PCT=${RESP_DIRTIER_PCT:-80}
		RESP_WINDOW_S=${RESP_WINDOW_S:-20}
		PHASED_IDLE_PCT=${PHASED_IDLE_PCT:-60}
		PHASED_ROUNDS=${PHASED_ROUNDS:-3}
		PHASED_ACTIVE_PCT=${PHASED_ACTIVE_PCT:-60}
		PHASED_ACTIVE_S=${PHASED_ACTIVE_S:-10}
		PHASED_P1_CAP_S=${PHASED_P1_CAP_S:-40}
		BENCH_TREE_MB=$tree_mb
		BENCH_COLD_MB=$cold_mb
		COST_CROWDS="$cost_crowds"
		COST_POLICIES="$cost_policies"
		COST_SECONDS=$cost_seconds
		COST_INTERVAL_MS=$cost_interval
	EOF
}

# What the measurements depend on besides the settings: sizes, guest, disk, limits, what runs
# between runs and their order (order=balanced: bench/order.sh; runs made before it, in a plain
# rotation, are not resumed with it). A resumed run must have the same, but for the limit per
# run: the one the run started with counts.
measure_fingerprint() {
	{ env_common | grep -Ev '^(COST_|WASHOUT=)' | sed "s/^RUN_TIMEOUT=.*/RUN_TIMEOUT=$run_timeout0/"
	  echo "$mem_mb $swap_mb $zram_mb $cpus $disk_mbps $sample_ms $run_timeout0 $tree_mb $hot_mb $cold_mb"
	  [[ $disks == host ]] || echo "disks=$disks"
	  [[ $guest == bookworm ]] || echo "guest=$guest" # runs recorded on bookworm keep their fingerprint
	  [[ $keep_hot == 0 ]] || echo "keep_hot=$keep_hot"
	  [[ $washout == 0 ]] || echo "washout=$washout"
	  echo "order=balanced"; } |
		sha256sum | cut -c1-16
}

host_info_lines() {
	{
		echo "started=$started"
		echo "measure_fingerprint=$(measure_fingerprint)"
		echo "finished=$(date -u +%FT%TZ)"
		echo "complete=$complete"
		echo "runtime_s=$((SECONDS - t_start))"
		echo "settings=$settings"
		echo "statics=$statics"
		# Static values and switches run beside the daemon in a dry run; bareN without it.
		echo "statics_beside=dry-run"
		echo "mode_settings=$mode_settings"
		echo "swap_modes=$swap_modes"
		echo "lrus=$lrus"
		echo "shipped_policy=$shipped_policy"
		echo "policies_skipped=${skipped# }"
		echo "workloads=$all_workloads"
		echo "boots_done=${boots_done# }"
		echo "reps=$reps"
		echo "more_reps=${more# }"
		echo "warmup=$warmup"
		echo "quick=$quick"
		echo "guest_suite=$guest"
		echo "vm_mem_mb=$mem_mb"
		echo "vm_swap_mb=$swap_mb"
		echo "zram_mb=$zram_mb"
		echo "vm_cpus=$cpus"
		echo "disk_mbps=$disk_mbps"
		echo "disks=$disks"
		echo "keep_hot=$keep_hot"
		echo "washout=$washout"
		echo "order=balanced"
		echo "sample_ms=$sample_ms"
		echo "run_timeout_s=$run_timeout0"
		read -ra boots_limits <<<"$run_timeouts" # one space between boots, none around
		echo "run_timeouts=${boots_limits[*]}"
		echo "data_tree_mb=$tree_mb"
		echo "data_hot_mb=$hot_mb"
		echo "data_cold_mb=$cold_mb"
		echo "cost_mem_mb=$cost_mem_mb"
		env_common | grep -E '^(DIRTIER|COMPILE|RESP|PHASED)_' | sed 's/^/size_/'
		echo "host_kernel=$(uname -r)"
		echo "host_cpu=$(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1) x $(nproc)"
		echo "host_os=$(. /etc/os-release && echo "$PRETTY_NAME")"
		echo "host_load=${host_load# }"
		echo "qemu=$(qemu-system-x86_64 --version | sed -n 1p)"
		echo "accel=${VM_ACCEL:-tcg}"
		echo "emulator_nice=$bench_nice"
		echo "emulator_autogroup_nice=$([[ -n $autogroup_nice ]] && echo "$bench_nice" || echo none)"
		echo "gnuplot=$(gnuplot --version)"
		echo "daemon=$daemon_version"
		echo "commit=$commit (at the start; the work tree may hold uncommitted changes)"
		echo "sessions=${sessions# }"
		echo "failed=${failed# }"
		echo "redone=${redone# }"
	}
}
write_host_info() { host_info_lines >"$raw/host-info.txt"; }

# The runs still to do in one boot: the schedule's runs minus those in $raw/runs.csv.
done_keys() { # SWAP WORKLOAD LRU: "swap,workload,setting,rep" of each run already recorded
	[[ -s $raw/runs.csv ]] || return 0
	awk -F, -v s="$1" -v w="$2" -v l="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["warmup"] == 0 && $c["swap"] == s && $c["workload"] == w && (("lru" in c) ? $c["lru"] : "classic") == l {
			print $c["swap"] "," $c["workload"] "," $c["setting"] "," $c["rep"] }' "$raw/runs.csv" | sort -u
}

# BENCH_REDO="SWAP/WORKLOAD ...": with BENCH_RESUME=1, measure these again from scratch (every
# setting, every repetition) and keep the rest of the run. For a workload whose script
# changed: its old rows go, so that no table mixes the two. Everything the other workloads
# depend on must be as before (checked below); the redone ones are named in host-info.txt.
[[ -z $redo || $resume == 1 ]] || die "BENCH_REDO needs BENCH_RESUME=1 (it redoes part of a recorded run)"
redo_drop() {
	local item sw wl k v p same=1
	for item in $redo; do
		sw=${item%%/*} wl=${item#*/}
		[[ $item == */* && " $swap_modes " == *" $sw "* && " $workloads " == *" $wl "* ]] ||
			die "BENCH_REDO: '$item' is not SWAP/WORKLOAD of this run (swap modes: $swap_modes; BENCH_WORKLOADS: $workloads)"
	done
	# What the other workloads were measured with: the guest, disk, limits, and their sizes.
	while IFS='=' read -r k v; do
		[[ $k =~ ^(vm_mem_mb|vm_swap_mb|zram_mb|vm_cpus|disk_mbps|sample_ms|run_timeout_s|data_(tree|hot|cold)_mb|size_.*)$ ]] ||
			continue
		! redone_size "$k" || continue
		p=$(prev "$k")
		[[ $p == "$v" ]] || { same=0; say "BENCH_REDO: $k was '$p' in the recorded run, now '$v'"; }
	done < <(host_info_lines)
	[[ $same == 1 ]] || die "BENCH_REDO: the rest of the run was measured with other sizes, guest, disk or limits"
	for item in $redo; do
		sw=${item%%/*} wl=${item#*/}
		for f in runs metrics; do
			[[ -s $raw/$f.csv ]] || continue
			awk -F, -v s="$sw" -v w="$wl" 'NR == 1 || !($1 == s && $2 == w)' "$raw/$f.csv" >"$raw/$f.csv.new" &&
				mv -- "$raw/$f.csv.new" "$raw/$f.csv" || die "cannot rewrite $raw/$f.csv"
		done
		for l in $lrus; do # every LRU of the run
			mk=$(mode_key "$l" "$sw")
			for k in $settings; do
				rm -f -- "$raw/ts/$mk-$wl-$k"-*.csv "$raw/logs/$mk-$wl-$k"-*.log "$raw/logs/$mk-$wl-$k"-*.journal
			done
			rm -f -- "$raw/guest-info-workload-$mk-$wl.txt"
			rm -rf -- "$out/share-$wl-$mk"
		done
		redone+=" $item@$(date -u +%FT%TZ):$commit"
		say "BENCH_REDO: $item: its recorded runs are dropped; measuring it again"
	done
}
# Whether host-info key $1 is a size of a workload being redone (it may have changed).
redone_size() {
	local item p
	for item in $redo; do
		case ${item#*/} in
		phased) p=PHASED ;; responsiveness) p=RESP ;; compile | compile-stream) p=COMPILE ;; dirtier) p=DIRTIER ;;
		*) p=NONE ;;
		esac
		[[ $1 != size_${p}_* ]] || return 0
	done
	return 1
}

failed=""
host_load=""
run_timeouts=""
boots_done=""
complete=no
redone=""
all_workloads=$workloads
sessions="$started:$commit"
if [[ $resume == 1 && -f $raw/host-info.txt ]]; then
	# Go on with a run: the same settings, sizes and configurations (checked), its results kept.
	prev() { sed -n "s/^$1=//p" "$raw/host-info.txt"; }
	# The limit per run is each boot's own (run_timeouts): a slower machine that resumes the run
	# may need a longer one. What the run started with stays its measure.
	run_timeout0=$(prev run_timeout_s)
	run_timeout0=${run_timeout0:-$run_timeout}
	[[ $(prev settings) == "$settings" && $(prev reps) == "$reps" && $(prev swap_modes) == "$swap_modes" ]] ||
		die "BENCH_RESUME=1: $raw holds a run with settings '$(prev settings)', reps $(prev reps), swap '$(prev swap_modes)'"
	# Each LRU and swap mode's own statics (recorded since BENCH_STATICS could name them).
	[[ -z $(prev mode_settings) || $(prev mode_settings) == "$mode_settings" ]] ||
		die "BENCH_RESUME=1: $raw ran these settings per LRU and swap mode: '$(prev mode_settings)', not '$mode_settings'"
	redone=" $(prev redone)"
	if [[ -n $redo ]]; then
		redo_drop
	else
		[[ -z $(prev measure_fingerprint) || $(prev measure_fingerprint) == "$(measure_fingerprint)" ]] ||
			die "BENCH_RESUME=1: $raw holds a run with other sizes, guest, disk or limits (see its host-info.txt)"
	fi
	# The same settings: the key lines, set or commented out with their defaults, as
	# tests/bench-report.sh compares them. Prose comments may have been corrected since; the
	# run then keeps the files as they are now, so that shipped.conf stays the shipped file.
	for f in "$staged"/configs/*.conf; do
		g=$raw/configs/$(basename -- "$f")
		cmp -s <(conf_settings "$f") <(conf_settings "$g") ||
			die "BENCH_RESUME=1: $f sets other things than the configuration the run started with ($g)"
		cmp -s -- "$f" "$g" || say "$(basename -- "$f"): only comments changed since the run started; keeping the new file"
	done
	started=$(prev started)
	sessions="$(prev sessions) $sessions"
	host_load=" $(prev host_load)"
	run_timeouts=" $(prev run_timeouts)"
	boots_done=" $(prev boots_done)"
	# The run's workloads are those it had and those added now, in the order of the first.
	all_workloads=$(prev workloads)
	for wl in $workloads; do
		[[ " $all_workloads " == *" $wl "* ]] || all_workloads+=" $wl"
	done
	t_start=$((SECONDS - $(prev runtime_s)))
	# What guests of an interrupted session left in their shares, if this is the same machine.
	for s in "$out"/share-*; do
		[[ ! -d $s/out ]] || merge_out "$s"
	done
	say "resuming the run started $started: $(($(wc -l <"$raw/runs.csv") - 1)) runs recorded"
else
	rm -rf -- "$raw" "$out"/share-*
fi
mkdir -p "$raw/ts" "$raw/logs" "$raw/configs"
cp -- "$staged"/configs/*.conf "$raw/configs/"
cmp -s -- "$shipped" "$raw/configs/shipped.conf" || die "$raw/configs/shipped.conf differs from $shipped"

# The daemon's own cost first: short, and then in every partial report.
if [[ -n $cost_policies && -n $cost_crowds && ! ( $resume == 1 && -s $raw/cost.csv ) ]]; then
	share=$out/share-cost
	stage "$share"
	# On the first LRU of the run (the kernel's own at boot, by default).
	{ env_common; echo "MODE=cost"; echo "SWAP=disk"; echo "LRU=${lrus%% *}"; } >"$share/bench.env"
	say "$(date -u +%T) daemon cost: ${cost_crowds// / and } processes, ${cost_mem_mb} MB guest"
	boot "$share" "$cost_mem_mb" 1800 || failed+=" cost"
	write_host_info
fi
# One boot per workload, swap mode and LRU, the LRU switched at its start before any run: the
# settings of a boot run interleaved, and each LRU is compared with itself only (its own best
# static), so the LRUs need not share a boot; switched inside one, the pages already on the
# lists of the first would carry over into the other's runs. The two LRUs of a workload and swap
# mode boot one after the other, so that they see about the same host.
for wl in $workloads; do
	[[ -f bench/wl-$wl.sh ]] || die "unknown workload '$wl' (no bench/wl-$wl.sh)"
	for swap in $swap_modes; do
		for lru in $lrus; do
			mk=$(mode_key "$lru" "$swap")
			what="workload $wl, swap $swap, LRU $lru"
			share=$out/share-$wl-$mk
			nset=$(nset_of "$wl" "$lru" "$swap")
			n=$(cell_reps "$wl" "$lru" "$swap")
			ndone=$(done_keys "$swap" "$wl" "$lru" | wc -l)
			todo=$((n * nset - ndone))
			if ((todo <= 0)); then
				say "$what: all $((n * nset)) runs recorded already"
				continue
			fi
			stage "$share"
			done_keys "$swap" "$wl" "$lru" >"$share/skip.txt"
			{ env_common "$n"; echo "SETTINGS=\"$(settings_of_mode "$lru" "$swap")\""
			  echo "MODE=workload"; echo "WORKLOAD=$wl"; echo "SWAP=$swap"; echo "LRU=$lru"; } >"$share/bench.env"
			runs=$((warmup + todo))
			say "$(date -u +%T) $what: $runs runs in one boot$( ((ndone == 0)) || echo " ($ndone recorded before)")$( ((n == reps)) || echo "; $n repetitions (BENCH_MORE)")"
			# Other work on the host shares its cores with the emulator: record how busy it was.
			host_load+=" $wl/$mk:$(cut -d' ' -f1 /proc/loadavg)"
			run_timeouts+=" $wl/$mk:$run_timeout"
			t=$SECONDS
			if ! boot "$share" "$mem_mb" $((runs * (run_timeout + 60) + 600)); then
				failed+=" $wl/$mk"
				say "$what FAILED (see $share/console.log); keeping what it recorded"
			fi
			say "$what took $((SECONDS - t)) s"
			host_load+="/$(cut -d' ' -f1 /proc/loadavg)"
			boots_done+=" $wl/$mk"
			# A report after every boot: an interrupted run still leaves what it measured.
			write_host_info
			report || say "report failed (continuing)"
		done
	done
done

missing=0
for wl in $workloads; do
	for swap in $swap_modes; do
		for lru in $lrus; do
			missing=$((missing + $(cell_reps "$wl" "$lru" "$swap") * $(nset_of "$wl" "$lru" "$swap") - $(done_keys "$swap" "$wl" "$lru" | wc -l)))
		done
	done
done
[[ $missing -gt 0 ]] || complete=yes
write_host_info
report
say "done in $((SECONDS - t_start)) s${failed:+; FAILED:$failed}$([[ $complete == yes ]] || echo "; $missing runs missing: BENCH_RESUME=1 goes on")"
[[ -z $failed ]]
exit
}
