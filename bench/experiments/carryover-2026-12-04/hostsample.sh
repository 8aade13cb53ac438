#!/bin/bash
# Every 0.1 s: host time, /proc/stat cpu line, and each qemu thread's utime stime minflt majflt.
# (A thread is named by the digits of its stat path: the pid followed by the tid.)
out=$1
while ! pid=$(pgrep -f qemu-system-x86 | head -1); do sleep 0.2; done
[[ -p /tmp/hs.fifo ]] || mkfifo /tmp/hs.fifo; exec 9<>/tmp/hs.fifo # read -t on it: a 0.1 s sleep without a fork
while [[ -e /proc/$pid ]]; do
	read -r t _ </proc/uptime
	read -r c </proc/stat
	line="$(date +%s.%N) $t | $c |"
	for s in /proc/$pid/task/*/stat; do
		read -r st <$s 2>/dev/null || continue
		st=${st#*) }; set -- $st
		# after comm: state=1 ... minflt=8 majflt=10 utime=12 stime=13
		line+=" ${s//[^0-9]/}:${8}:${10}:${12}:${13}"
	done
	echo "$line" >>$out
	read -t 0.1 -u 9
done
