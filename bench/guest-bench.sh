#!/bin/bash
# Runs inside the benchmark VM as guest.sh (root, from vm-test.service); bench/run.sh prepares
# the share. Reads /mnt/share/bench.env, then either
#   LRU (classic or mglru; empty: the kernel's as it booted) is set through
#   /sys/kernel/mm/lru_gen/enabled first, before swap and any run, and read back; then
#   MODE=workload: runs wl-$WORKLOAD.sh under each setting of SETTINGS, REPS times, interleaved
#                  (each repetition runs each setting once, in an order that gives every setting
#                  every setting as its predecessor about equally often), after WARMUP
#                  discarded runs, with swap on SWAP (disk: /dev/vdb; zram: /dev/zram0 of
#                  ZRAM_MB); runs listed in /mnt/share/skip.txt (swap,workload,setting,rep, done
#                  in an earlier session) are left out; or
#   MODE=cost:     measures the daemon's own CPU per poll and RSS with COST_CROWDS processes.
# Between runs: daemon stopped, knob back to 60, swapoff, (zram: device reset), swapon, (WASHOUT=1:
# sync, drop caches, the dirtier over WASHOUT_MIB, one pass, swapoff, swapon again), sync, drop
# caches, 1 s pause.
# A name is a daemon configuration, started with systemctl from the installed unit with
# /etc/autoswappiness.conf a verbatim copy of /mnt/share/configs/NAME.conf (setting "default":
# configs/shipped.conf, the shipped file). A numeric setting is a static vm.swappiness, written
# here, with the daemon beside it as shipped but in a dry run (a drop-in sets dry_run = yes: it
# polls, decides and logs as the default does and never writes), started the same way at the
# same moment: a static run then differs from a daemon run by the daemon's writes only, not by
# its start just before the workload or its locked pages (bench/EXPERIMENTS.md,
# presence-2026-12-06: beside a daemon pinned at the same value, phased's phase 1 took 0.89
# times as long). A bare setting bareN is static N with no daemon at all: the daemon's presence
# is measured by it. A switch setting AtoB (phased only; left out of the other workloads) is
# static A, and B from phase 2 on, written by wl-phased.sh at the boundary (PHASED_SWITCH_TO),
# beside a dry-run daemon.
#
# Writes to /mnt/share/out: runs.csv (one row per run: wall time, counter deltas, PSI totals,
# OOM kills, the LRU), metrics.csv (the workload's RESULT figures), ts/MODE-*.csv (the
# sampler's time series), logs/MODE-*.log (the workload's output, journal of the daemon),
# cost.csv, guest-info-*.txt; MODE is SWAP under the classic LRU, mglru-SWAP under the
# multi-gen LRU (bench/benchreport/model.py, mode_key). A run in which the kernel's oom_kill
# count rose (vm-test.service has OOMPolicy=continue: the kill ends the workload, not this
# script) is noted oom-kill: a failed run.
set -uo pipefail

SHARE=/mnt/share
OUT=$SHARE/out
KNOB=/proc/sys/vm/swappiness
UNIT=autoswappiness
# shellcheck source=/dev/null
. "$SHARE/bench.env"

say() { echo "bench: $*"; }
now() { cut -d' ' -f1 /proc/uptime; }
die() { say "FATAL: $*"; exit 1; }

mkdir -p "$OUT/ts" "$OUT/logs" || die "cannot create $OUT"
is_static() { [[ $1 =~ ^[0-9]+$ ]]; }
# Static N with no daemon beside it. Sets bare_value.
is_bare() {
	[[ $1 =~ ^bare([0-9]+)$ ]] || return 1
	bare_value=${BASH_REMATCH[1]}
}
# A switch: static A, then B from phased's phase 2 on. Sets switch_from and switch_to.
is_switch() {
	[[ $1 =~ ^([0-9]+)to([0-9]+)$ ]] || return 1
	switch_from=${BASH_REMATCH[1]} switch_to=${BASH_REMATCH[2]}
}
# The configuration file of a daemon setting: "default" runs the shipped file.
conf_of() { if [[ $1 == default ]]; then echo shipped; else echo "$1"; fi; }
# The driver and the sampler must survive the OOM killer; each workload is an ordinary victim.
echo -1000 >/proc/self/oom_score_adj

# --- setup ---------------------------------------------------------------------------------
tar -C "$SHARE/destdir" -cf - . | tar -C / -xf - --keep-directory-symlink --no-same-owner ||
	die "cannot install the daemon from $SHARE/destdir"
systemctl daemon-reload
# Hundreds (cost test: thousands) of processes: systemd's default TasksMax for this unit is 15%
# of threads-max, about 240 in a 256 MB guest.
systemctl set-property --runtime vm-test.service TasksMax=infinity ||
	say "warning: cannot lift TasksMax of vm-test.service"
SWAP=${SWAP:-disk}
# The LRU, before anything fills memory: 0x1 of lru_gen/enabled is the multi-gen LRU itself
# (the other bits its parts). A kernel without the file has the classic LRU only.
LRU=${LRU:-}
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
lru_gen_enabled() { cat "$LRU_GEN" 2>/dev/null || echo none; }
lru_now() { local v; v=$(lru_gen_enabled); [[ $v != none ]] && (($v & 1)) && echo mglru || echo classic; }
case $LRU in
"") ;;
classic) [[ ! -e $LRU_GEN ]] || echo n >"$LRU_GEN" || die "cannot write n to $LRU_GEN" ;;
mglru) echo y >"$LRU_GEN" || die "cannot write y to $LRU_GEN (no multi-gen LRU in this kernel?)" ;;
*) die "LRU must be classic or mglru, got '$LRU'" ;;
esac
[[ -z $LRU || $(lru_now) == "$LRU" ]] || die "asked for the $LRU LRU, $LRU_GEN says $(lru_gen_enabled)"
LRU=$(lru_now)
# The prefix of this boot's files: the report's mode.
if [[ $LRU == classic ]]; then MK=$SWAP; else MK=$LRU-$SWAP; fi
say "LRU $LRU ($LRU_GEN: $(lru_gen_enabled)), kernel $(uname -r)"
# The swap device of this boot. zram: the same capacity as the disk swap (ZRAM_MB), the
# kernel's default compressor; reset and made again between runs, so that each run starts
# with an empty device.
swap_up() {
	if [[ $SWAP == zram ]]; then
		local i
		if [[ ! -e /sys/block/zram0 ]]; then
			modprobe zram num_devices=1 || die "modprobe zram failed (no zram in this kernel?)"
		fi
		# udev opens a new or rewritten block device to probe it, and zram refuses a reset
		# (EBUSY) while it is open: wait for udev, and try again.
		for ((i = 1; ; i++)); do
			udevadm settle --timeout=10 2>/dev/null
			echo 1 2>/dev/null >/sys/block/zram0/reset && break
			((i < 10)) || die "cannot reset /dev/zram0: busy after 10 tries"
			sleep 0.5
		done
		echo "${ZRAM_MB}M" >/sys/block/zram0/disksize || die "cannot size /dev/zram0 to ${ZRAM_MB} MiB"
		mkswap -f /dev/zram0 >/dev/null || die "mkswap /dev/zram0 failed"
		swapon -p 100 /dev/zram0 || die "swapon /dev/zram0 failed"
	else
		swapon /dev/vdb || die "swapon /dev/vdb failed"
	fi
}
case $SWAP in
disk) mkswap -f /dev/vdb >/dev/null || die "mkswap /dev/vdb failed" ;;
zram) ;;
*) die "SWAP must be disk or zram, got '$SWAP'" ;;
esac
swap_up
mkdir -p /mnt/data
mount -o ro /dev/vdc /mnt/data || die "cannot mount the data disk /dev/vdc"
export BENCH_BIN=$SHARE/bin BENCH_SRC=$SHARE/src BENCH_DATA=/mnt/data
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
mem_mib=$((mem_kib / 1024))
pct() { echo $((mem_mib * $1 / 100)); }
# Workload sizes: percentages of MemTotal, turned into MiB here where MemTotal is known.
export DIRTIER_MIB=$(pct "$DIRTIER_PCT") DIRTIER_PASSES
WASHOUT=${WASHOUT:-0} WASHOUT_MIB=$(pct 130) washout_s=0 washout_words=
export COMPILE_JOBS COMPILE_COPIES COMPILE_IDLE_MIB=$(pct "${COMPILE_IDLE_PCT:-0}")
export RESP_CROWD RESP_CROWD_KIB RESP_PROBE_KIB RESP_PROBE_MS RESP_DIRTIER_MIB=$(pct "$RESP_DIRTIER_PCT") RESP_WINDOW_S
export PHASED_IDLE_MIB=$(pct "$PHASED_IDLE_PCT") PHASED_ROUNDS PHASED_ACTIVE_MIB=$(pct "$PHASED_ACTIVE_PCT") PHASED_ACTIVE_S
export PHASED_P1_CAP_S
export BENCH_TREE_MB BENCH_COLD_MB

{
	echo "guest_kernel=$(uname -r)"
	echo "guest_kernel_version=$(uname -v)"
	echo "guest_os=$(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "guest_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-unknown}")"
	echo "guest_cpus=$(nproc)"
	echo "guest_cpu_model=$(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
	echo "guest_memtotal_kib=$mem_kib"
	echo "guest_swap=$(awk 'NR > 1 { printf "%s %s KiB ", $1, $3 }' /proc/swaps)"
	echo "guest_swap_mode=$SWAP"
	echo "guest_lru=$LRU"
	echo "guest_lru_gen_enabled=$(lru_gen_enabled)"
	[[ $SWAP != zram ]] || echo "guest_zram_algorithm=$(sed 's/.*\[\([^]]*\)\].*/\1/' /sys/block/zram0/comp_algorithm)"
	echo "guest_gcc=$(gcc --version | sed -n 1p)"
	echo "guest_make=$(make --version | sed -n 1p)"
	echo "guest_daemon=$(/usr/local/sbin/autoswappiness --version 2>&1)"
	echo "guest_systemd=$(systemctl --version | sed -n 1p)"
	echo "guest_zswap=$(cat /sys/module/zswap/parameters/enabled 2>/dev/null || echo n/a)"
	echo "guest_thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo n/a)"
	echo "guest_sizes=DIRTIER_MIB=$DIRTIER_MIB WASHOUT_MIB=$WASHOUT_MIB COMPILE_IDLE_MIB=$COMPILE_IDLE_MIB RESP_DIRTIER_MIB=$RESP_DIRTIER_MIB PHASED_IDLE_MIB=$PHASED_IDLE_MIB PHASED_ACTIVE_MIB=$PHASED_ACTIVE_MIB"
	# What each configuration resolves to on this machine (max = auto depends on the swap).
	for c in $SETTINGS; do
		is_static "$c" || is_switch "$c" || is_bare "$c" && continue
		f=$SHARE/configs/$(conf_of "$c").conf
		echo "config_$c=$(/usr/local/sbin/autoswappiness --once --dry-run -c "$f" 2>&1 |
			sed -n 's/^.*\(policy=[^ ]*\).* \(max=[0-9]*\) .*$/\1 \2/p' | head -n 1)"
	done
} >"$OUT/guest-info-$MODE-$MK${WORKLOAD:+-$WORKLOAD}.txt"

stop_daemon() {
	if systemctl is-active -q "$UNIT" || systemctl is-failed -q "$UNIT"; then
		systemctl stop "$UNIT" 2>/dev/null
		systemctl reset-failed "$UNIT" 2>/dev/null
	fi
}

DRY_RUN_DROPIN=/etc/autoswappiness.conf.d/bench-dry-run.conf
install_conf() { # SETTING: its configuration, verbatim, as /etc/autoswappiness.conf, and no drop-ins
	cp -- "$SHARE/configs/$(conf_of "$1").conf" /etc/autoswappiness.conf ||
		die "cannot install $SHARE/configs/$(conf_of "$1").conf"
	rm -f -- "$DRY_RUN_DROPIN" || die "cannot remove $DRY_RUN_DROPIN"
}
# The daemon beside a static value: the shipped file, and a drop-in that makes it a dry run.
install_dry_run() {
	install_conf default
	mkdir -p -- "${DRY_RUN_DROPIN%/*}" && printf '[daemon]\ndry_run = yes\n' >"$DRY_RUN_DROPIN" ||
		die "cannot write $DRY_RUN_DROPIN"
}

# The cost test: a named policy polling every INTERVAL_MS, other keys as shipped.
write_cost_conf() { # POLICY INTERVAL_MS
	sed -e "s/^#\{0,1\}name = .*/name = $1/" -e "s/^#\{0,1\}interval_ms = .*/interval_ms = $2/" \
		"$SHARE/configs/shipped.conf" >/etc/autoswappiness.conf
	rm -f -- "$DRY_RUN_DROPIN" || die "cannot remove $DRY_RUN_DROPIN"
}

# The washout (WASHOUT=1): with the cache dropped, the dirtier over WASHOUT_MIB, one pass, at 60,
# and swap made again, so that every run starts from the state that leaves and not from the one
# the run before it left (bench/run.sh, BENCH_WASHOUT, says what that was worth).
reset_machine() {
	local t=$SECONDS steps=""
	stop_daemon
	echo 60 >"$KNOB"
	swapoff -a || say "warning: swapoff -a failed"
	steps+=" stop+swapoff $((SECONDS - t))"
	swap_up
	if [[ $WASHOUT == 1 ]]; then
		local w0 w1 w2
		sync
		echo 3 >/proc/sys/vm/drop_caches
		w0=$(now)
		"$BENCH_BIN/dirtier" "$WASHOUT_MIB" 1 >/dev/null || say "warning: the washout's dirtier failed"
		w1=$(now)
		swapoff -a || say "warning: swapoff -a after the washout failed"
		swap_up
		w2=$(now)
		washout_s=$((SECONDS - t))
		steps+=" washout $washout_s"
		washout_words=$(awk -v a="$w0" -v b="$w1" -v c="$w2" 'BEGIN { printf "dirtier %.1f s, swapoff %.1f s", b - a, c - b }')
	fi
	sync
	steps+=" sync $((SECONDS - t))"
	echo 3 >/proc/sys/vm/drop_caches
	steps+=" drop $((SECONDS - t))"
	sleep 1
	reset_s=$((SECONDS - t))
	((reset_s - washout_s < 8)) || say "slow reset: cumulative seconds:$steps"
}

# The kernel's OOM kills since boot (/proc/vmstat, since 4.13).
oom_kills() { awk '/^oom_kill / { print $2 }' /proc/vmstat; }

# "pswpin pswpout refault_anon refault_file pgmajfault psi_some_us psi_full_us"
counters() {
	awk '/^pswpin / { a = $2 } /^pswpout / { b = $2 } /^workingset_refault_anon / { c = $2 }
	     /^workingset_refault_file / { d = $2 } /^pgmajfault / { e = $2 }
	     END { printf "%s %s %s %s %s", a, b, c, d, e }' /proc/vmstat
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^total=/) v[$1] = substr($i, 7) }
	     END { printf " %s %s\n", v["some"], v["full"] }' /proc/pressure/memory
}

RUNS_HEADER="swap,workload,setting,daemon_config,rep,seq,warmup,t0,t1,wall_s,rc,pswpin,pswpout,refault_anon,refault_file,pgmajfault,psi_some_us,psi_full_us,knob_end,daemon_writes,zram_peak_orig_kib,zram_peak_compr_kib,zram_mem_used_max_kib,note,oom_kills,lru"
[[ -f $OUT/runs.csv ]] || echo "$RUNS_HEADER" >"$OUT/runs.csv"
[[ -f $OUT/metrics.csv ]] || echo "swap,workload,setting,rep,warmup,metric,value,lru" >"$OUT/metrics.csv"

# zram: the device's peak of stored data (orig_data_size) and its compressed size at that
# moment, every second, into /run/zram-peak as "orig_bytes compr_bytes"; the run's row
# reads it. At the end of a run the workload's pages are already freed.
zram_watch() {
	local o c _ best=0 bc=0
	while :; do
		read -r o c _ </sys/block/zram0/mm_stat || break
		if ((o > best)); then
			best=$o bc=$c
			echo "$best $bc" >/run/zram-peak
		fi
		sleep 1
	done
}

seq_no=0
run_one() { # SETTING REP WARMUP
	local setting=$1 rep=$2 warm=$3 tag t0 t1 rc c0 c1 note="" sampler pid wd knob_end writes="" conf="" zw=""
	local zo="" zc="" zm="" to="" fixed="" o0 o1
	if [[ $warm == 0 && -f $SHARE/skip.txt ]] && grep -qxF "$SWAP,$WORKLOAD,$setting,$rep" "$SHARE/skip.txt"; then
		say "[$((seq_no + 1))/$total] $WORKLOAD $setting rep $rep: done in an earlier session, skipped"
		seq_no=$((seq_no + 1))
		return 0
	fi
	tag=$MK-$WORKLOAD-$setting-$rep
	seq_no=$((seq_no + 1))
	local u0
	u0=$(now)
	reset_machine
	"$BENCH_BIN/sampler" "$SAMPLE_MS" >"$OUT/ts/$tag.csv" &
	sampler=$!
	local jt
	jt=$(date +%s)
	if [[ $SWAP == zram ]]; then
		rm -f /run/zram-peak
		zram_watch &
		zw=$!
	fi
	# fixed: the value a static or bare setting holds (the dry run beside a static one never writes).
	if is_bare "$setting"; then
		fixed=$bare_value
	elif is_static "$setting"; then
		fixed=$setting conf=dry-run
	elif is_switch "$setting"; then
		fixed=$switch_from to=$switch_to conf=dry-run
	else
		conf=$(conf_of "$setting")
	fi
	[[ -z $fixed ]] || echo "$fixed" >"$KNOB"
	if [[ $conf == dry-run ]]; then
		install_dry_run
	elif [[ -n $conf ]]; then
		install_conf "$setting"
	fi
	[[ -z $conf ]] || systemctl start "$UNIT" || note="daemon-start-failed"
	sleep 1
	c0=$(counters)
	o0=$(oom_kills)
	t0=$(now)
	PHASED_SWITCH_TO=$to setsid choom -n 0 -- bash "$SHARE/wl/wl-$WORKLOAD.sh" >"$OUT/logs/$tag.log" 2>&1 </dev/null &
	pid=$!
	# The watchdog (locked in memory: a shell's sleep was swapped out and fired minutes
	# late) leaves a flag before it kills: once it has sent SIGTERM it is still alive
	# (waiting to send SIGKILL), so being alive does not mean no timeout.
	rm -f /run/bench-timeout
	"$BENCH_BIN/watchdog" "$RUN_TIMEOUT" "$pid" /run/bench-timeout &
	wd=$!
	wait "$pid"
	rc=$?
	t1=$(now)
	c1=$(counters)
	o1=$(oom_kills)
	kill "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	[[ ! -e /run/bench-timeout ]] || note+=" timeout"
	kill -KILL -- "-$pid" 2>/dev/null
	knob_end=$(cat "$KNOB")
	if [[ -n $conf ]]; then
		systemctl is-active -q "$UNIT" || note+=" daemon-not-active"
		journalctl -u "$UNIT" --no-pager --since "@$jt" -o cat >"$OUT/logs/$tag.journal" 2>/dev/null
		grep -q 'by someone else' "$OUT/logs/$tag.journal" && note+=" daemon-yielded"
		stop_daemon
	fi
	if [[ -n $to ]]; then
		[[ $knob_end == "$to" ]] || note+=" knob-changed"
	elif [[ -n $fixed ]]; then
		[[ $knob_end == "$fixed" ]] || note+=" knob-changed"
	else
		writes=$(grep -c 'swappiness [0-9]* -> ' "$OUT/logs/$tag.journal")
	fi
	kill -TERM "$sampler" 2>/dev/null
	wait "$sampler" 2>/dev/null
	if [[ -n $zw ]]; then
		kill "$zw" 2>/dev/null
		wait "$zw" 2>/dev/null
		read -r zo zc </run/zram-peak 2>/dev/null || true
		zm=$(awk '{ print $5 }' /sys/block/zram0/mm_stat)
		zo=${zo:+$((zo / 1024))} zc=${zc:+$((zc / 1024))} zm=${zm:+$((zm / 1024))}
	fi
	[[ $rc == 0 ]] || note+=" rc=$rc"
	# The kernel killed a process for memory during the run: a failed run, whatever rc says.
	((o1 - o0 == 0)) || note+=" oom-kill"
	read -r a0 b0 ra0 rf0 m0 s0 f0 <<<"$c0"
	read -r a1 b1 ra1 rf1 m1 s1 f1 <<<"$c1"
	echo "$SWAP,$WORKLOAD,$setting,$conf,$rep,$seq_no,$warm,$t0,$t1,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'),$rc,$((a1 - a0)),$((b1 - b0)),$((ra1 - ra0)),$((rf1 - rf0)),$((m1 - m0)),$((s1 - s0)),$((f1 - f0)),$knob_end,$writes,$zo,$zc,$zm,${note# },$((o1 - o0)),$LRU" >>"$OUT/runs.csv"
	grep '^RESULT ' "$OUT/logs/$tag.log" | sed 's/^RESULT //' | tr ' ' '\n' | grep '=' |
		awk -F= -v p="$SWAP,$WORKLOAD,$setting,$rep,$warm" -v l="$LRU" '{ print p "," $1 "," $2 "," l }' >>"$OUT/metrics.csv"
	say "$(date -u +%T) [$seq_no/$total] $WORKLOAD $setting rep $rep$([[ $warm == 1 ]] && echo ' (warm-up)'):" \
		"wall $(tail -n 1 "$OUT/runs.csv" | cut -d, -f10) s (reset ${reset_s} s${washout_words:+ with a washout: $washout_words}, before $(awk -v a="$u0" -v b="$t0" 'BEGIN { printf "%.1f", b - a }') s, after $(awk -v a="$t1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s)," \
		"$(grep '^RESULT ' "$OUT/logs/$tag.log" | sed 's/^RESULT //' | tr '\n' ' ')${note:+ NOTE:$note}"
}

cost() {
	local n policy pid crowd line
	echo "policy,processes,interval_ms,seconds,polls,cpu_ns,cpu_us_per_poll,rss_kib,hwm_kib,locked_kib" >"$OUT/cost.csv"
	for n in $COST_CROWDS; do
		coproc CROWD { exec choom -n 0 -- "$BENCH_BIN/crowd" "$n" 0 1000; }
		read -r line <&"${CROWD[0]}"
		say "$line; $(ls -d /proc/[0-9]* | wc -l) processes alive"
		for policy in $COST_POLICIES; do
			stop_daemon
			echo 60 >"$KNOB"
			write_cost_conf "$policy" "$COST_INTERVAL_MS"
			systemctl start "$UNIT" || { say "cannot start the daemon with $policy"; continue; }
			sleep 3
			pid=$(systemctl show -p MainPID --value "$UNIT")
			read -r ns0 _ </proc/"$pid"/schedstat
			t0=$(now)
			sleep "$COST_SECONDS"
			read -r ns1 _ </proc/"$pid"/schedstat
			t1=$(now)
			rss=$(awk '/^VmRSS:/ { print $2 }' /proc/"$pid"/status)
			hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/"$pid"/status)
			lck=$(awk '/^VmLck:/ { print $2 }' /proc/"$pid"/status)
			awk -v p="$policy" -v n="$(ls -d /proc/[0-9]* | wc -l)" -v i="$COST_INTERVAL_MS" -v t0="$t0" -v t1="$t1" \
				-v c="$((ns1 - ns0))" -v r="$rss" -v h="$hwm" -v l="$lck" 'BEGIN {
				polls = (t1 - t0) * 1000 / i
				printf "%s,%d,%d,%.2f,%.0f,%d,%.1f,%d,%d,%d\n", p, n, i, t1 - t0, polls, c, c / polls / 1000, r, h, l }' |
				tee -a "$OUT/cost.csv"
			stop_daemon
		done
		kill -TERM "$CROWD_PID"
		wait "$CROWD_PID" 2>/dev/null
	done
}

if [[ $MODE == cost ]]; then
	cost
	say "cost done"
	exit 0
fi

read -r -a settings <<<"$SETTINGS"
if [[ $WORKLOAD != phased ]]; then
	# A switch acts at phased's phase boundary; other workloads have none.
	for i in "${!settings[@]}"; do
		is_switch "${settings[$i]}" && unset "settings[$i]"
	done
	settings=("${settings[@]}")
fi
nset=${#settings[@]}
total=$((WARMUP + REPS * nset))
say "workload $WORKLOAD, swap $SWAP: settings ${settings[*]}, $REPS repetitions, $WARMUP warm-up; MemTotal $mem_mib MiB"
for ((w = 1; w <= WARMUP; w++)); do
	run_one 60 "w$w" 1
done
# shellcheck source-path=SCRIPTDIR source=order.sh
. "$SHARE/order.sh"
mapfile -t order < <(run_order "$REPS" 60 "${settings[@]}") # 60: the warm-up's, or the boot's knob
for o in "${order[@]}"; do
	run_one "${o% *}" "${o#* }" 0
done
stop_daemon
say "workload $WORKLOAD done"
exit 0
