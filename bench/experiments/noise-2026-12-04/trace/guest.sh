#!/bin/bash
# The dirtier's fill at static 60, 8 runs: guest clocks against the host's (a 9p file's mtime).
S=/mnt/share
mkdir -p $S/out
{ cat /sys/devices/system/clocksource/clocksource0/current_clocksource
  cat /sys/devices/system/clocksource/clocksource0/available_clocksource
  dmesg | grep -iE "clocksource|tsc|hpet" ; } >$S/out/clock.txt 2>&1
mkswap -f /dev/vdb >/dev/null && swapon /dev/vdb || exit 1
cp $S/dirtier /root/dirtier
for i in 1 2 3 4 5 6 7 8; do
	echo 60 >/proc/sys/vm/swappiness
	swapoff -a; swapon /dev/vdb; sync; echo 3 >/proc/sys/vm/drop_caches; sleep 2
	f=$S/out/run-$i.txt
	/root/dirtier 263 1 >$S/out/dirtier-$i.txt 2>&1 &
	pid=$!
	for k in $(seq 1 60); do
		[[ -e /proc/$pid ]] || break
		read -r up _ </proc/uptime
		rt=$(date +%s.%N)
		echo >>$S/clk; ht=$(stat -c %.9Y $S/clk)
		read -r rn wn _ </proc/$pid/schedstat 2>/dev/null
		mapfile -t V </proc/vmstat
		free=; scan=0
		for l in "${V[@]}"; do
			case $l in nr_free_pages\ *) free=${l#* };; pgscan_kswapd\ *|pgscan_direct\ *) scan=$((scan + ${l#* }));; esac
		done
		echo "$up $rt $ht $rn $wn $free $scan" >>$f
		sleep 0.25
	done
	wait $pid
	echo "run $i: $(tail -1 $S/out/dirtier-$i.txt)"
done
dmesg | tail -20 >$S/out/dmesg-end.txt
exit 0
