#!/bin/bash
# Runs inside the benchmark VM as guest.sh (root, from vm-test.service); bench/run.sh prepares
# the share. Reads /mnt/share/bench.env, then either
#   MODE=workload: runs wl-$WORKLOAD.sh under each setting of SETTINGS, REPS times, interleaved
#                  (each repetition starts one setting further along the list), after WARMUP
#                  discarded runs; or
#   MODE=cost:     measures the daemon's own CPU per poll and RSS with COST_CROWDS processes.
# Between runs: daemon stopped, knob back to 60, swapoff/swapon, sync, drop caches, 1 s pause.
# A numeric setting is a static vm.swappiness; a name is a daemon policy, started with systemctl
# from the installed unit with /etc/autoswappiness.conf naming it.
#
# Writes to /mnt/share/out: runs.csv (one row per run: wall time, counter deltas, PSI totals),
# metrics.csv (the workload's RESULT figures), ts/*.csv (the sampler's time series),
# logs/*.log (the workload's output, journal of the daemon), cost.csv, guest-info.txt.
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
mkswap -f /dev/vdb >/dev/null || die "mkswap /dev/vdb failed"
swapon /dev/vdb || die "swapon /dev/vdb failed"
mkdir -p /mnt/data
mount -o ro /dev/vdc /mnt/data || die "cannot mount the data disk /dev/vdc"
export BENCH_BIN=$SHARE/bin BENCH_SRC=$SHARE/src BENCH_DATA=/mnt/data
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
mem_mib=$((mem_kib / 1024))
pct() { echo $((mem_mib * $1 / 100)); }
# Workload sizes: percentages of MemTotal, turned into MiB here where MemTotal is known.
export DIRTIER_MIB=$(pct "$DIRTIER_PCT") DIRTIER_PASSES
export COMPILE_JOBS COMPILE_COPIES COMPILE_IDLE_MIB=$(pct "${COMPILE_IDLE_PCT:-0}")
export RESP_CROWD RESP_CROWD_KIB RESP_PROBE_KIB RESP_DIRTIER_MIB=$(pct "$RESP_DIRTIER_PCT") RESP_DIRTIER_PASSES
export PHASED_IDLE_MIB=$(pct "$PHASED_IDLE_PCT") PHASED_ROUNDS PHASED_ACTIVE_MIB=$(pct "$PHASED_ACTIVE_PCT") PHASED_ACTIVE_S
export BENCH_TREE_MB BENCH_COLD_MB

{
	echo "guest_kernel=$(uname -r)"
	echo "guest_kernel_version=$(uname -v)"
	echo "guest_os=$(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "guest_cpus=$(nproc)"
	echo "guest_cpu_model=$(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
	echo "guest_memtotal_kib=$mem_kib"
	echo "guest_swap=$(awk 'NR > 1 { printf "%s %s KiB ", $1, $3 }' /proc/swaps)"
	echo "guest_gcc=$(gcc --version | sed -n 1p)"
	echo "guest_make=$(make --version | sed -n 1p)"
	echo "guest_daemon=$(/usr/local/sbin/autoswappiness --version 2>&1)"
	echo "guest_systemd=$(systemctl --version | sed -n 1p)"
	echo "guest_zswap=$(cat /sys/module/zswap/parameters/enabled 2>/dev/null || echo n/a)"
	echo "guest_thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo n/a)"
	echo "guest_sizes=DIRTIER_MIB=$DIRTIER_MIB COMPILE_IDLE_MIB=$COMPILE_IDLE_MIB RESP_DIRTIER_MIB=$RESP_DIRTIER_MIB PHASED_IDLE_MIB=$PHASED_IDLE_MIB PHASED_ACTIVE_MIB=$PHASED_ACTIVE_MIB"
} >"$OUT/guest-info-$MODE${WORKLOAD:+-$WORKLOAD}.txt"

is_static() { [[ $1 =~ ^[0-9]+$ ]]; }

stop_daemon() {
	if systemctl is-active -q "$UNIT" || systemctl is-failed -q "$UNIT"; then
		systemctl stop "$UNIT" 2>/dev/null
		systemctl reset-failed "$UNIT" 2>/dev/null
	fi
}

write_conf() { # POLICY INTERVAL_MS
	cat >/etc/autoswappiness.conf <<-EOF
		[policy]
		name = $1
		[limits]
		max = $DAEMON_MAX
		[daemon]
		interval_ms = $2
	EOF
}

reset_machine() {
	local t=$SECONDS steps=""
	stop_daemon
	echo 60 >"$KNOB"
	swapoff -a || say "warning: swapoff -a failed"
	steps+=" stop+swapoff $((SECONDS - t))"
	swapon /dev/vdb || die "swapon /dev/vdb failed"
	sync
	steps+=" sync $((SECONDS - t))"
	echo 3 >/proc/sys/vm/drop_caches
	steps+=" drop $((SECONDS - t))"
	sleep 1
	reset_s=$((SECONDS - t))
	((reset_s < 8)) || say "slow reset: cumulative seconds:$steps"
}

# "pswpin pswpout refault_anon refault_file pgmajfault psi_some_us psi_full_us"
counters() {
	awk '/^pswpin / { a = $2 } /^pswpout / { b = $2 } /^workingset_refault_anon / { c = $2 }
	     /^workingset_refault_file / { d = $2 } /^pgmajfault / { e = $2 }
	     END { printf "%s %s %s %s %s", a, b, c, d, e }' /proc/vmstat
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^total=/) v[$1] = substr($i, 7) }
	     END { printf " %s %s\n", v["some"], v["full"] }' /proc/pressure/memory
}

[[ -f $OUT/runs.csv ]] || echo "workload,setting,rep,seq,warmup,t0,t1,wall_s,rc,pswpin,pswpout,refault_anon,refault_file,pgmajfault,psi_some_ms,psi_full_ms,knob_end,daemon_writes,note" >"$OUT/runs.csv"
[[ -f $OUT/metrics.csv ]] || echo "workload,setting,rep,warmup,metric,value" >"$OUT/metrics.csv"

seq_no=0
run_one() { # SETTING REP WARMUP
	local setting=$1 rep=$2 warm=$3 tag t0 t1 rc c0 c1 note="" sampler pid wd knob_end writes=""
	tag=$WORKLOAD-$setting-$rep
	seq_no=$((seq_no + 1))
	local u0
	u0=$(now)
	reset_machine
	"$BENCH_BIN/sampler" "$SAMPLE_MS" >"$OUT/ts/$tag.csv" &
	sampler=$!
	local jt
	jt=$(date +%s)
	if is_static "$setting"; then
		echo "$setting" >"$KNOB"
	else
		write_conf "$setting" "$DAEMON_INTERVAL_MS"
		systemctl start "$UNIT" || note="daemon-start-failed"
	fi
	sleep 1
	c0=$(counters)
	t0=$(now)
	setsid choom -n 0 -- bash "$SHARE/wl/wl-$WORKLOAD.sh" >"$OUT/logs/$tag.log" 2>&1 </dev/null &
	pid=$!
	# The watchdog leaves a flag before it kills: once it has sent SIGTERM it is still
	# alive (waiting to send SIGKILL), so being alive does not mean no timeout.
	rm -f /run/bench-timeout
	(sleep "$RUN_TIMEOUT" && : >/run/bench-timeout && kill -TERM -- "-$pid" && sleep 10 && kill -KILL -- "-$pid") 2>/dev/null &
	wd=$!
	wait "$pid"
	rc=$?
	t1=$(now)
	c1=$(counters)
	pkill -P "$wd" 2>/dev/null
	kill "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	[[ ! -e /run/bench-timeout ]] || note+=" timeout"
	kill -KILL -- "-$pid" 2>/dev/null
	knob_end=$(cat "$KNOB")
	if ! is_static "$setting"; then
		systemctl is-active -q "$UNIT" || note+=" daemon-not-active"
		journalctl -u "$UNIT" --no-pager --since "@$jt" -o cat >"$OUT/logs/$tag.journal" 2>/dev/null
		writes=$(grep -c 'swappiness [0-9]* -> ' "$OUT/logs/$tag.journal")
		grep -q 'by someone else' "$OUT/logs/$tag.journal" && note+=" daemon-yielded"
		stop_daemon
	elif [[ $knob_end != "$setting" ]]; then
		note+=" knob-changed"
	fi
	kill -TERM "$sampler" 2>/dev/null
	wait "$sampler" 2>/dev/null
	[[ $rc == 0 ]] || note+=" rc=$rc"
	read -r a0 b0 ra0 rf0 m0 s0 f0 <<<"$c0"
	read -r a1 b1 ra1 rf1 m1 s1 f1 <<<"$c1"
	echo "$WORKLOAD,$setting,$rep,$seq_no,$warm,$t0,$t1,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'),$rc,$((a1 - a0)),$((b1 - b0)),$((ra1 - ra0)),$((rf1 - rf0)),$((m1 - m0)),$(((s1 - s0) / 1000)),$(((f1 - f0) / 1000)),$knob_end,$writes,${note# }" >>"$OUT/runs.csv"
	grep '^RESULT ' "$OUT/logs/$tag.log" | sed 's/^RESULT //' | tr ' ' '\n' | grep '=' |
		awk -F= -v p="$WORKLOAD,$setting,$rep,$warm" '{ print p "," $1 "," $2 }' >>"$OUT/metrics.csv"
	say "$(date -u +%T) [$seq_no/$total] $WORKLOAD $setting rep $rep$([[ $warm == 1 ]] && echo ' (warm-up)'):" \
		"wall $(tail -n 1 "$OUT/runs.csv" | cut -d, -f8) s (reset ${reset_s} s, before $(awk -v a="$u0" -v b="$t0" 'BEGIN { printf "%.1f", b - a }') s, after $(awk -v a="$t1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s)," \
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
			write_conf "$policy" "$COST_INTERVAL_MS"
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
nset=${#settings[@]}
total=$((WARMUP + REPS * nset))
say "workload $WORKLOAD: settings ${settings[*]}, $REPS repetitions, $WARMUP warm-up; MemTotal $mem_mib MiB"
for ((w = 1; w <= WARMUP; w++)); do
	run_one 60 "w$w" 1
done
for ((r = 1; r <= REPS; r++)); do
	for ((i = 0; i < nset; i++)); do
		run_one "${settings[$(((i + r - 1) % nset))]}" "$r" 0
	done
done
stop_daemon
say "workload $WORKLOAD done"
exit 0
