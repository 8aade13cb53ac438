#!/usr/bin/env bash
# `make bench`: the benchmarks of issue 4. Boots the Debian 12 guest of tests/vm (one boot per
# workload, one for the daemon's own cost), runs each workload under every static
# vm.swappiness and under the daemon with every policy, interleaved and repeated, then writes
# bench/RESULTS.md, bench/results/*.csv and bench/plots/*.png with bench/report.py.
#
#   bench/run.sh                 (from anywhere; needs root, qemu, debootstrap, gnuplot, python3)
#
# Knobs (environment; `make bench BENCH_REPS=3` works too). Defaults give a full run of 156
# minutes on 2 host cores under TCG (measured);
# BENCH_QUICK=1 is a ~30 minute try-out (1 repetition, statics 0 60 200, no warm-up, short
# cost test).
#   BENCH_WORKLOADS   phased responsiveness compile compile-stream dirtier (in this order)
#   BENCH_STATICS     static values, default "0 10 60 100 200"
#   BENCH_POLICIES    daemon policies, default "ck tendency adaptive"; a policy that
#                     `autoswappiness -n` rejects (not implemented yet) is left out with a note
#   BENCH_REPS=5 BENCH_WARMUP=1       repetitions per setting (issue 4 asks for at least 5);
#                     discarded runs at the start of each boot. Every run costs about 40 s
#                     under TCG here (about 7 s of it the reset between runs): 8 settings x 5
#                     workloads x 5 repetitions took 156 minutes
#   BENCH_MEM_MB=256  guest RAM;  BENCH_SWAP_MB=1024 swap disk;  BENCH_CPUS=2
#   BENCH_DISK_MBPS=50  one throttle (MB/s, read+write) shared by the root, swap and data disks,
#                       like the single slow disk of a small machine
#   BENCH_DAEMON_MAX=200 BENCH_DAEMON_INTERVAL_MS=1000   the daemon's [limits] max, interval
#   BENCH_SAMPLE_MS=1000  time-series sampling
#   workload sizes (percent of the guest's MemTotal, or absolute):
#     DIRTIER_PCT=130 DIRTIER_PASSES=2 (the first pass apart, so one timed pass per run)
#     COMPILE_JOBS=16 COMPILE_COPIES=1 COMPILE_IDLE_PCT=25
#     RESP_CROWD=300 RESP_CROWD_KIB=256 RESP_PROBE_KIB=1024 RESP_DIRTIER_PCT=80 RESP_DIRTIER_PASSES=2
#     PHASED_IDLE_PCT=60 PHASED_ROUNDS=3 PHASED_ACTIVE_PCT=60 PHASED_ACTIVE_S=10
#     BENCH_TREE_MB (read tree, default 120% of BENCH_MEM_MB), BENCH_HOT_MB (45%), BENCH_COLD_MB (80%)
#   cost test: BENCH_COST_MEM_MB=1024 COST_CROWDS="100 2000" COST_SECONDS=15 COST_INTERVAL_MS=100
#              (COST_CROWDS= empty: no cost test)
#   BENCH_RUN_TIMEOUT=120  seconds before one run is killed: recorded as a timeout, and its wall
#                          time counts as a lower bound of the workload's time (at swappiness 0
#                          the compile can thrash on file pages without end: Vine's stand-off;
#                          it never finished in 180 s, and no other run took more than 87 s)
#   BENCH_OUT=build/bench  work directory (shares, data disk, raw results)
#   BENCH_REPORT_ONLY=1    only regenerate the report from BENCH_OUT's raw results
#   BENCH_REPORT_DIR=bench where RESULTS.md, results/ and plots/ go; the README headline is
#                          rewritten only with the default (a try-out: BENCH_REPORT_DIR=$BENCH_OUT/report)
#   BENCH_RESUME=1         go on with an interrupted run in BENCH_OUT (same settings): keeps its
#                          results; name the workloads still to do in BENCH_WORKLOADS
set -euo pipefail

die() { echo "bench: error: $*" >&2; exit 1; }
say() { echo "bench: $*"; }

top=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
cd -- "$top"
BIN=${BIN:-build/autoswappiness}
BUILD_DIR=${BUILD_DIR:-build}
out=${BENCH_OUT:-build/bench}
report_dir=${BENCH_REPORT_DIR:-bench}

quick=${BENCH_QUICK:-0}
resume=${BENCH_RESUME:-0}
workloads=${BENCH_WORKLOADS:-phased responsiveness compile compile-stream dirtier}
statics=${BENCH_STATICS:-$([[ $quick == 1 ]] && echo "0 60 200" || echo "0 10 60 100 200")}
policies=${BENCH_POLICIES:-ck tendency adaptive}
reps=${BENCH_REPS:-$([[ $quick == 1 ]] && echo 1 || echo 5)}
warmup=${BENCH_WARMUP:-$([[ $quick == 1 ]] && echo 0 || echo 1)}
mem_mb=${BENCH_MEM_MB:-256}
swap_mb=${BENCH_SWAP_MB:-1024}
cpus=${BENCH_CPUS:-2}
disk_mbps=${BENCH_DISK_MBPS:-50}
daemon_max=${BENCH_DAEMON_MAX:-200}
daemon_interval=${BENCH_DAEMON_INTERVAL_MS:-1000}
sample_ms=${BENCH_SAMPLE_MS:-1000}
run_timeout=${BENCH_RUN_TIMEOUT:-120}
tree_mb=${BENCH_TREE_MB:-$((mem_mb * 120 / 100))}
hot_mb=${BENCH_HOT_MB:-$((mem_mb * 45 / 100))}
cold_mb=${BENCH_COLD_MB:-$((mem_mb * 80 / 100))}
cost_mem_mb=${BENCH_COST_MEM_MB:-1024}
cost_crowds=${COST_CROWDS-100 2000}
cost_seconds=${COST_SECONDS:-$([[ $quick == 1 ]] && echo 10 || echo 15)}
cost_interval=${COST_INTERVAL_MS:-100}

report() {
	command -v gnuplot >/dev/null || die "gnuplot not found: apt-get install gnuplot-nox"
	mkdir -p "$report_dir" || die "cannot create $report_dir"
	python3 bench/report.py "$out/results" "$report_dir"
}
if [[ ${BENCH_REPORT_ONLY:-0} == 1 ]]; then
	report
	exit 0
fi

# --- prerequisites ---------------------------------------------------------------------------
[[ $EUID -eq 0 ]] || die "must run as root (the guest image is built with debootstrap)"
# qemu, debootstrap, gnuplot, the compiler: the project's one list of packages.
scripts/deps.sh || die "scripts/deps.sh could not install what the benchmark needs"
[[ -x $BIN ]] || die "$BIN not found: run make first"

# Daemon policies: those that the binary accepts, so that a new one joins by its name alone.
daemon_settings=""
skipped=""
tmpconf=$(mktemp)
progress=
trap 'rm -f "$tmpconf"; [[ -z $progress ]] || kill "$progress" 2>/dev/null || true' EXIT
for p in $policies; do
	printf '[policy]\nname = %s\n[limits]\nmax = %s\n' "$p" "$daemon_max" >"$tmpconf"
	if "$BIN" -n -c "$tmpconf" >/dev/null 2>&1; then
		daemon_settings+=" $p"
	else
		skipped+=" $p"
		say "policy '$p' left out: $BIN -n rejects it ($("$BIN" -n -c "$tmpconf" 2>&1 | head -n 1))"
	fi
done
settings="$statics$daemon_settings"
say "settings: $settings; repetitions $reps, warm-up $warmup; workloads: $workloads"

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

# --- image, data disk, share ---------------------------------------------------------------
tests/vm/recipe.sh "$BUILD_DIR/vm"
bench/mkdata.sh "$out/data.img" "$tree_mb" "$hot_mb" "$cold_mb"

# Everything the guests get is staged once, here, so that the whole run uses one daemon
# binary, one set of scripts and one source tree even while the work tree changes.
staged=$out/staged
if [[ $resume == 1 && -x $staged/guest.sh ]]; then
	say "resuming: reusing the staged daemon, scripts and sources in $staged"
else
	rm -rf -- "$staged"
	mkdir -p "$staged/bin" "$staged/wl" "$staged/src"
	make -s install DESTDIR="$staged/destdir" BUILD="$(dirname "$BIN")" >/dev/null ||
		die "make install DESTDIR=$staged/destdir failed"
	for p in dirtier anon probe crowd sampler; do
		cc -O2 -Wall -Wextra -static -o "$staged/bin/$p" "bench/$p.c" || die "cannot build bench/$p.c"
	done
	cp bench/wl-*.sh "$staged/wl/"
	cp -r src include "$staged/src/"
	install -m 0755 bench/guest-bench.sh "$staged/guest.sh"
fi
daemon_version=$("$staged/destdir/usr/local/sbin/autoswappiness" --version 2>&1 || true)
stage() { # SHAREDIR: everything the guest needs but bench.env
	rm -rf -- "$1"
	mkdir -p "$1/out"
	cp -r "$staged/." "$1/"
}

bps=$((disk_mbps * 1000 * 1000))
throttle="throttling.bps-total=$bps,throttling.group=benchdisk"
boot() { # SHAREDIR MEM_MB TIMEOUT
	local rc=0
	: >"$1/guest.log"
	tail -n 0 -F -- "$1/guest.log" 2>/dev/null | grep --line-buffered '^bench: ' &
	progress=$!
	VM_MEM_MB=$2 VM_CPUS=$cpus VM_SWAP_MB=$swap_mb VM_TIMEOUT=$3 \
		VM_SWAP_DRIVE_OPTS="cache=none,aio=threads,$throttle" VM_ROOT_DRIVE_OPTS="$throttle" \
		tests/vm/boot.sh "$BUILD_DIR/vm" "$1" \
		-drive "file=$out/data.img,format=raw,if=virtio,readonly=on,cache=none,aio=threads,$throttle" || rc=$?
	sleep 1
	kill "$progress" 2>/dev/null || true
	pkill -P "$progress" 2>/dev/null || true
	wait "$progress" 2>/dev/null || true
	progress=
	return "$rc"
}

env_common() {
	cat <<-EOF
		SETTINGS="$settings"
		REPS=$reps
		WARMUP=$warmup
		DAEMON_MAX=$daemon_max
		DAEMON_INTERVAL_MS=$daemon_interval
		SAMPLE_MS=$sample_ms
		RUN_TIMEOUT=$run_timeout
		DIRTIER_PCT=${DIRTIER_PCT:-130}
		DIRTIER_PASSES=${DIRTIER_PASSES:-2}
		COMPILE_JOBS=${COMPILE_JOBS:-16}
		COMPILE_COPIES=${COMPILE_COPIES:-1}
		COMPILE_IDLE_PCT=${COMPILE_IDLE_PCT:-25}
		RESP_CROWD=${RESP_CROWD:-300}
		RESP_CROWD_KIB=${RESP_CROWD_KIB:-256}
		RESP_PROBE_KIB=${RESP_PROBE_KIB:-1024}
		RESP_DIRTIER_PCT=${RESP_DIRTIER_PCT:-80}
		RESP_DIRTIER_PASSES=${RESP_DIRTIER_PASSES:-2}
		PHASED_IDLE_PCT=${PHASED_IDLE_PCT:-60}
		PHASED_ROUNDS=${PHASED_ROUNDS:-3}
		PHASED_ACTIVE_PCT=${PHASED_ACTIVE_PCT:-60}
		PHASED_ACTIVE_S=${PHASED_ACTIVE_S:-10}
		BENCH_TREE_MB=$tree_mb
		BENCH_COLD_MB=$cold_mb
		COST_CROWDS="$cost_crowds"
		COST_POLICIES="${daemon_settings# }"
		COST_SECONDS=$cost_seconds
		COST_INTERVAL_MS=$cost_interval
	EOF
}

write_host_info() {
	{
		echo "started=$started"
		echo "finished=$(date -u +%FT%TZ)"
		echo "complete=$complete"
		echo "runtime_s=$((SECONDS - t_start))"
		echo "settings=$settings"
		echo "policies_skipped=${skipped# }"
		echo "workloads=${done_workloads# }"
		echo "workloads_planned=$planned"
		echo "reps=$reps"
		echo "warmup=$warmup"
		echo "quick=$quick"
		echo "vm_mem_mb=$mem_mb"
		echo "vm_swap_mb=$swap_mb"
		echo "vm_cpus=$cpus"
		echo "disk_mbps=$disk_mbps"
		echo "daemon_max=$daemon_max"
		echo "daemon_interval_ms=$daemon_interval"
		echo "sample_ms=$sample_ms"
		echo "run_timeout_s=$run_timeout"
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
		echo "gnuplot=$(gnuplot --version)"
		echo "daemon=$daemon_version"
		echo "commit=$commit (at the start; the work tree may hold uncommitted changes)"
		echo "failed=${failed# }"
} >"$results/host-info.txt"
}

results=$out/results
nset=$(wc -w <<<"$settings")
failed=""
host_load=""
done_workloads=""
complete=no
planned=$workloads
if [[ $resume == 1 && -f $results/host-info.txt ]]; then
	# Go on with an interrupted run: same settings and sizes (checked), its results kept.
	prev() { sed -n "s/^$1=//p" "$results/host-info.txt"; }
	[[ $(prev settings) == "$settings" && $(prev reps) == "$reps" ]] ||
		die "BENCH_RESUME=1: $results holds a run with settings '$(prev settings)', reps $(prev reps)"
	started=$(prev started)
	commit=$(prev commit | sed 's/ (at the start.*$//')
	done_workloads=" $(prev workloads)"
	host_load=" $(prev host_load)"
	t_start=$((SECONDS - $(prev runtime_s)))
	planned=$(prev workloads_planned)
	say "resuming the run started $started: done so far:$done_workloads"
else
	rm -rf -- "$results"
fi
mkdir -p "$results/ts" "$results/logs"
# The daemon's own cost first: short, and then in every partial report.
if [[ -n ${daemon_settings# } && -n $cost_crowds && ! ( $resume == 1 && -s $results/cost.csv ) ]]; then
	share=$out/share-cost
	stage "$share"
	{ env_common; echo "MODE=cost"; } >"$share/bench.env"
	say "$(date -u +%T) daemon cost: ${cost_crowds// / and } processes, ${cost_mem_mb} MB guest"
	boot "$share" "$cost_mem_mb" 1800 || failed+=" cost"
	cp -r "$share/out/." "$results/" 2>/dev/null || true
	write_host_info
	[[ ! -s $results/all-runs.csv ]] || report || say "report failed (continuing)"
fi
for wl in $workloads; do
	[[ -f bench/wl-$wl.sh ]] || die "unknown workload '$wl' (no bench/wl-$wl.sh)"
	share=$out/share-$wl
	stage "$share"
	{ env_common; echo "MODE=workload"; echo "WORKLOAD=$wl"; } >"$share/bench.env"
	runs=$((warmup + reps * nset))
	say "$(date -u +%T) workload $wl: $runs runs in one boot"
	# Other work on the host shares its cores with the emulator: record how busy it was.
	host_load+=" $wl:$(cut -d' ' -f1 /proc/loadavg)"
	t=$SECONDS
	if ! boot "$share" "$mem_mb" $((runs * (run_timeout + 60) + 600)); then
		failed+=" $wl"
		say "workload $wl FAILED (see $share/console.log); keeping what it recorded"
	fi
	say "workload $wl took $((SECONDS - t)) s"
	host_load+="/$(cut -d' ' -f1 /proc/loadavg)"
	cp -r "$share/out/." "$results/" 2>/dev/null || true
	for f in runs metrics; do
		[[ -f $share/out/$f.csv ]] || continue
		if [[ -f $results/all-$f.csv ]]; then tail -n +2 "$share/out/$f.csv" >>"$results/all-$f.csv"
		else cp "$share/out/$f.csv" "$results/all-$f.csv"; fi
	done
	rm -f "$results/runs.csv" "$results/metrics.csv"
	done_workloads+=" $wl"
	# A report after every boot: an interrupted run still leaves what it measured.
	write_host_info
	report || say "report failed (continuing)"
done
rm -f "$results/runs.csv" "$results/metrics.csv"


complete=yes
write_host_info
report
say "done in $((SECONDS - t_start)) s${failed:+; FAILED:$failed}"
[[ -z $failed ]]
