#!/bin/bash
# Tests tests/replay/ts2trace.py on a made-up results directory: phases from MARK lines, from
# the dirtier's pass lines and from the run alone; counters passed through unchanged; a time
# series from an older sampler (without the policies' columns) refused with a message. Also
# that the synthetic traces in tests/data/traces are what their generator prints.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
CONV=$TOP/tests/replay/ts2trace.py
tmp=$(mktemp -d /tmp/ts2trace-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # NAME COMMAND...
	local name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok - $name"
	else
		fail=$((fail + 1))
		echo "not ok - $name"
	fi
}

r=$tmp/results
mkdir -p "$r/ts" "$r/logs"
cat >"$r/all-runs.csv" <<EOF
workload,setting,rep,seq,warmup,t0,t1,wall_s,rc
phased,0,1,1,0,102.00,110.00,8.00,0
dirtier,200,1,2,0,202.00,206.00,4.00,0
compile,100,1,3,0,302.00,304.00,2.00,0
EOF
cols="t,swappiness,memfree_kb,memavail_kb,cached_kb,anon_kb,swapfree_kb,swaptotal_kb,psi_some_us,psi_full_us,psi_some_avg10,pswpin,pswpout,refault_anon,refault_file,pgmajfault,memtotal_kb,buffers_kb,shmem_kb,mapped_kb,pgscan,pgsteal,swap_devices,swap_zram,zswap"
series() { # START ROWS SWAPPINESS: one sampler row a second
	echo "$cols"
	for ((i = 0; i < $2; i++)); do
		echo "$(($1 + i)).00,$3,$((50000 - i)),60000,$((90000 + i)),40000,$((900000 - i)),1048572,$((1000 * i)),$((500 * i)),1.25,$((3 * i)),$((4 * i)),$((2 * i)),$((7 * i)),$i,207000,1000,2000,30000,$((100 * i)),$((90 * i)),1,0,0"
	done
}
series 100 13 0 >"$r/ts/phased-0-1.csv"
printf 'idle: ...\nround 1: 1.0 s\nMARK phase1 102.50 105.20\nRESULT phase1_s=2.70\nMARK phase2 105.60 109.70\n' >"$r/logs/phased-0-1.log"
series 200 8 200 >"$r/ts/dirtier-200-1.csv"
printf 'pass 1: 2.500 s\npass 2: 1.200 s\ndirtier: 10 MiB, passes 2..2: median 1.200 s, min 1.200 s, max 1.200 s\n' >"$r/logs/dirtier-200-1.log"
series 300 6 100 >"$r/ts/compile-100-1.csv"
: >"$r/logs/compile-100-1.log"

phases() { grep -v '^#' "$1" | tail -n +2 | cut -d, -f2 | tr '\n' ' '; }

python3 "$CONV" "$r" phased 0 >"$tmp/p.csv" 2>"$tmp/err"
check "phased converts" test -s "$tmp/p.csv"
# Rows at 100..112: before t0 pre, 102 setup, 103..105 phase1, 106..109 phase2, 110 gap-free
# end of the run (after phase2, inside t1: post), after t1 post.
check "phased: phases from MARK lines" test "$(phases "$tmp/p.csv")" = \
	"pre pre setup phase1 phase1 phase1 phase2 phase2 phase2 phase2 post post post "
check "phased: header" test "$(grep -v '^#' "$tmp/p.csv" | head -n 1)" = \
	"t_ms,phase,swappiness,memtotal_kb,memfree_kb,buffers_kb,cached_kb,shmem_kb,mapped_kb,swaptotal_kb,swapfree_kb,pgscan,pgsteal,pswpin,pswpout,refault_anon,refault_file,psi_some_us,psi_full_us,psi_some_avg10_centipct,swap_devices,swap_zram,zswap,activate_anon,activate_file,mglru"
# A series from before the sampler recorded the activations: -1, not known; a run from before
# the LRU was recorded: the classic LRU (mglru 0).
check "phased: row 4 as recorded" test "$(grep -v '^#' "$tmp/p.csv" | sed -n 5p)" = \
	"3000,phase1,0,207000,49997,1000,90003,2000,30000,1048572,899997,300,270,9,12,6,21,3000,1500,125,1,0,0,-1,-1,0"
check "phased: provenance comment" grep -q '^# replay trace: phased at static vm.swappiness 0 (run phased-0-1)' "$tmp/p.csv"

python3 "$CONV" "$r" dirtier 200 1 >"$tmp/d.csv" 2>"$tmp/err"
# Passes end at t1 = 206: pass 2 204.8..206, pass 1 202.3..204.8.
check "dirtier: phases from pass lines, anchored at the end" test "$(phases "$tmp/d.csv")" = \
	"pre pre setup pass1 pass1 pass2 pass2 post "

python3 "$CONV" "$r" compile 100 >"$tmp/c.csv" 2>"$tmp/err"
check "compile: the run is one phase" test "$(phases "$tmp/c.csv")" = "pre pre run run run post "

if python3 "$CONV" "$r" compile 60 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "an unknown run is an error" test "$rc" = 1
check "  naming it" grep -q "no run compile,60,1" "$tmp/err"

# A run with swap modes: runs.csv has a swap column, files are SWAP-WORKLOAD-SETTING-REP.
z=$tmp/zresults
mkdir -p "$z/ts" "$z/logs"
cat >"$z/runs.csv" <<EOF
swap,workload,setting,daemon_config,rep,seq,warmup,t0,t1,wall_s,rc
disk,dirtier,200,,1,1,0,202.00,206.00,4.00,0
zram,dirtier,200,,1,1,0,302.00,306.00,4.00,0
EOF
series 300 8 200 >"$z/ts/zram-dirtier-200-1.csv"
printf 'pass 1: 2.500 s\npass 2: 1.200 s\n' >"$z/logs/zram-dirtier-200-1.log"
printf 'guest_swap=zram0 1024 MB\n' >"$z/guest-info-workload-zram-dirtier.txt"
python3 "$CONV" "$z" zram/dirtier 200 >"$tmp/z.csv" 2>"$tmp/err"
check "zram/dirtier: the zram run's series, phases from its own t1" test "$(phases "$tmp/z.csv")" = \
	"pre pre setup pass1 pass1 pass2 pass2 post "
check "  says the swap mode and its run" grep -q '^# replay trace: dirtier at static vm.swappiness 200 on zram swap (run zram-dirtier-200-1)' "$tmp/z.csv"
check "  with the zram run's guest info" grep -q '^# guest_swap=zram0 1024 MB' "$tmp/z.csv"
# A series with the activations (the sampler since 64feda9): carried over as recorded.
series 300 8 200 | awk -F, -v OFS=, 'NR == 1 { print $0, "activate_anon", "activate_file"; next }
	{ print $0, 5 * (NR - 2), 11 * (NR - 2) }' >"$z/ts/zram-dirtier-200-1.csv"
python3 "$CONV" "$z" zram/dirtier 200 >"$tmp/z.csv" 2>"$tmp/err"
check "  the activations, as recorded" test "$(grep -v '^#' "$tmp/z.csv" | sed -n 5p | cut -d, -f24-)" = "15,33,0"
if python3 "$CONV" "$z" disk/dirtier 200 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "a swap mode without its series is an error" test "$rc" = 1
if python3 "$CONV" "$z" swap/dirtier 200 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "an unknown swap mode is an error" bash -c "test $rc = 1 && grep -q \"'swap': the swap mode is disk or zram\" '$tmp/err'"

# A run with the LRU dimension (bench/run.sh since issue 45): runs.csv has an lru column, and
# the multi-gen LRU's files are mglru-SWAP-WORKLOAD-SETTING-REP, the classic LRU's as before.
m=$tmp/mresults
mkdir -p "$m/ts" "$m/logs"
cat >"$m/runs.csv" <<EOF
swap,workload,setting,daemon_config,rep,seq,warmup,t0,t1,wall_s,rc,lru
disk,dirtier,199,,1,1,0,402.00,406.00,4.00,0,mglru
disk,dirtier,200,,1,1,0,202.00,206.00,4.00,0,classic
EOF
series 400 8 199 >"$m/ts/mglru-disk-dirtier-199-1.csv"
printf 'pass 1: 2.500 s\npass 2: 1.200 s\n' >"$m/logs/mglru-disk-dirtier-199-1.log"
printf 'guest_kernel=6.12.117+deb13-amd64\nguest_lru=mglru\nguest_lru_gen_enabled=0x0007\n' \
	>"$m/guest-info-workload-mglru-disk-dirtier.txt"
series 200 8 200 >"$m/ts/disk-dirtier-200-1.csv"
printf 'pass 1: 2.500 s\npass 2: 1.200 s\n' >"$m/logs/disk-dirtier-200-1.log"
printf 'guest_lru=classic\n' >"$m/guest-info-workload-disk-dirtier.txt"
python3 "$CONV" "$m" mglru-disk/dirtier 199 >"$tmp/m.csv" 2>"$tmp/err"
check "mglru-disk/dirtier: the multi-gen LRU's run" test "$(phases "$tmp/m.csv")" = \
	"pre pre setup pass1 pass1 pass2 pass2 post "
check "  says the LRU" grep -q '^# replay trace: dirtier at static vm.swappiness 199 on disk swap under the multi-gen LRU (run mglru-disk-dirtier-199-1)' "$tmp/m.csv"
check "  with the guest's LRU and kernel" bash -c 'grep -q "^# guest_lru=mglru" "$1" && grep -q "^# guest_kernel=6.12" "$1"' _ "$tmp/m.csv"
check "  and mglru 1 in every row" test "$(grep -v '^#' "$tmp/m.csv" | tail -n +2 | cut -d, -f26 | sort -u)" = 1
# A daemon setting (a name, not a number): its run, said as such, the values it wrote as recorded.
echo "disk,dirtier,default,,1,1,0,402.00,406.00,4.00,0,mglru" >>"$m/runs.csv"
series 400 8 150 >"$m/ts/mglru-disk-dirtier-default-1.csv"
printf 'pass 1: 2.500 s\npass 2: 1.200 s\n' >"$m/logs/mglru-disk-dirtier-default-1.log"
python3 "$CONV" "$m" mglru-disk/dirtier default >"$tmp/md.csv" 2>"$tmp/err"
check "mglru-disk/dirtier default: says the daemon's setting" \
	grep -q "^# replay trace: dirtier under the daemon's setting default on disk swap under the multi-gen LRU (run mglru-disk-dirtier-default-1)" "$tmp/md.csv"
check "  with the values written" test "$(grep -v '^#' "$tmp/md.csv" | tail -n +2 | cut -d, -f3 | sort -u)" = 150
python3 "$CONV" "$m" disk/dirtier 200 >"$tmp/mc.csv" 2>"$tmp/err"
check "disk/dirtier beside it: the classic LRU's run, mglru 0" \
	test "$(grep -v '^#' "$tmp/mc.csv" | tail -n +2 | cut -d, -f26 | sort -u)" = 0
if python3 "$CONV" "$m" mglru-disk/dirtier 200 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "a setting the LRU did not run is an error" bash -c "test $rc = 1 && grep -q 'no run mglru,disk,dirtier,200,1' '$tmp/err'"
if python3 "$CONV" "$m" lru2-disk/dirtier 199 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "an unknown LRU is an error" bash -c "test $rc = 1 && grep -q \"'lru2-disk': the mode is SWAP\" '$tmp/err'"
printf 'guest_lru=classic\n' >"$m/guest-info-workload-mglru-disk-dirtier.txt"
if python3 "$CONV" "$m" mglru-disk/dirtier 199 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "runs.csv and the guest's info disagreeing on the LRU is an error" test "$rc" = 1

cut -d, -f1-16 "$r/ts/compile-100-1.csv" >"$tmp/old.csv" && mv "$tmp/old.csv" "$r/ts/compile-100-1.csv"
if python3 "$CONV" "$r" compile 100 >/dev/null 2>"$tmp/err"; then rc=0; else rc=$?; fi
check "an old sampler's series is refused" test "$rc" = 1
check "  naming what it lacks" grep -q "lacks memtotal_kb, buffers_kb" "$tmp/err"

# The converted traces load in the C reader (make check-replay-convert builds it first).
reader=${TEST_REPLAY:-$TOP/build/tests/test_replay}
mkdir -p "$tmp/traces"
cp "$tmp/p.csv" "$tmp/d.csv" "$tmp/c.csv" "$tmp/m.csv" "$tmp/traces/"
check "the C reader ($reader) loads the converted traces" \
	env REPLAY_TRACES="$tmp/traces" "$reader" --load-only
echo "0,phase1,garbage" >>"$tmp/traces/c.csv"
check "  and refuses a broken one" \
	bash -c '! env REPLAY_TRACES="$1" "$2" --load-only >"$3" 2>&1 && grep -q "c.csv:.*Invalid argument" "$3"' \
	_ "$tmp/traces" "$reader" "$tmp/load.out"
# The synthetic traces of the alternating world are what their generator prints (README there).
for s in 60 200; do
	check "tests/data/traces/alternating-s$s.csv is what synth-alternating.py $s prints" \
		bash -c 'python3 "$1" "$2" | cmp -s - "$3"' _ "$TOP/tests/replay/synth-alternating.py" "$s" \
		"$TOP/tests/data/traces/alternating-s$s.csv"
done
echo "ts2trace: $pass passed, $fail failed"
[[ $fail == 0 ]]
