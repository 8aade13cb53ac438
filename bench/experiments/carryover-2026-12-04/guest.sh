#!/bin/bash
# The dirtier's pass 1 (263 MiB, one pass) at the values of $S/plan's first line, in that order,
# each after what the benchmark does between runs; with "washout" on its second line, a washout
# first (the dirtier at 60, swap made again). Every 0.25 s during each run: vmstat counters,
# the zones' free pages and watermarks, the dirtier's and kswapd0's run time and stacks.
# Bash builtins only in the sampling loop: a fork under memory pressure is slow.
S=/mnt/share
O=$S/out
{ read -r order; read -r washout; } <$S/plan
mkdir -p $O
mkswap -f /dev/vdb >/dev/null && swapon /dev/vdb || exit 1
cp $S/dirtier /root/dirtier
mkfifo /root/fifo; exec 9<>/root/fifo
kpid=$(pgrep -x kswapd0)
uname -r >$O/uname.txt; cat /proc/zoneinfo >$O/zoneinfo-start.txt
cat /sys/kernel/mm/lru_gen/enabled >$O/lru_gen.txt 2>&1
want="nr_free_pages pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct pswpout pswpin allocstall_dma32 allocstall_movable pgfault pgmajfault compact_stall pageoutrun nr_file_pages nr_anon_pages pgalloc_dma pgalloc_dma32 workingset_refault_file kswapd_low_wmark_hit_quickly kswapd_high_wmark_hit_quickly pgpromote_success nr_zspages"
sample() { # $1: pid
	local up l z=; read -r up _ </proc/uptime
	mapfile -t V </proc/vmstat
	declare -A H=()
	for l in "${V[@]}"; do H[${l%% *}]=${l#* }; done
	local out="$up"
	for k in $want; do out+=" ${H[$k]:--}"; done
	# zones: free, min, low, high of each populated zone
	mapfile -t Z </proc/zoneinfo
	local zone= n=0
	for l in "${Z[@]}"; do
		case $l in
		Node*zone*) zone=${l##* };;
		"  pages free"*) [[ $zone == DMA || $zone == DMA32 ]] && z+=" $zone:${l##* }";;
		"        min"*|"        low"*|"        high"*) [[ $zone == DMA32 ]] && z+=":${l##* }";;
		esac
	done
	local rn=- wn=- st=- ks=- kst=-
	read -r rn wn _ </proc/$1/schedstat 2>/dev/null
	read -r kr kw _ </proc/$kpid/schedstat
	mapfile -t T </proc/$1/stack 2>/dev/null; T=("${T[@]#\[<0>\] }")
	mapfile -t K </proc/$kpid/stack; K=("${K[@]#\[<0>\] }")
	local IFS='<'
	st="${T[*]%%+*}"; kst="${K[*]%%+*}"
	echo "$out |$z | $rn $wn | $kr $kw | $st | $kst"
}
echo "t $want | zones | run wait | kswapd run wait | dirtier stack | kswapd stack" >$O/header.txt
i=0
for v in $order; do
	i=$((i + 1))
	echo 60 >/proc/sys/vm/swappiness
	swapoff -a; swapon /dev/vdb; sync; echo 3 >/proc/sys/vm/drop_caches; read -t 1 -u 9
	if [[ $washout == washout ]]; then
		/root/dirtier 263 1 >$O/washout-$i.txt 2>&1
		swapoff -a; swapon /dev/vdb; sync; echo 3 >/proc/sys/vm/drop_caches; read -t 1 -u 9
	fi
	echo $v >/proc/sys/vm/swappiness; read -t 1 -u 9
	f=$O/run-$i-$v.txt; { cat /proc/buddyinfo; cat /proc/meminfo; } >$O/start-$i-$v.txt
	/root/dirtier 263 1 >$O/dirtier-$i-$v.txt 2>&1 &
	pid=$!
	for k in $(seq 1 400); do
		[[ -e /proc/$pid/stat ]] || break
		sample $pid >>$f
		read -t 0.25 -u 9
	done
	wait $pid
	echo "run $i at $v: $(tail -1 $O/dirtier-$i-$v.txt)"
done
cat /proc/zoneinfo >$O/zoneinfo-end.txt
exit 0
