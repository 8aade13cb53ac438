#!/bin/bash
# Runs the unit tests and the integration tests under valgrind (memcheck):
# any invalid access, use of uninitialised memory or definite/indirect leak
# fails the run. Usage: BIN=build/autoswappiness tests/valgrind.sh UNIT_TEST...
set -euo pipefail

BIN=$(realpath "${BIN:-build/autoswappiness}")
TOP=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v valgrind >/dev/null; then
	echo "valgrind: FAIL: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
fi
LOGS=$(mktemp -d /tmp/autoswappiness-vg.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
# The integration suite also runs the binary as uid 65534 (--explain): that user
# must reach the wrapper and write its own log, in a directory of its own.
chmod 0755 "$LOGS"
install -d -m 0700 "$LOGS/u0"
install -d -m 0700 -o 65534 -g 65534 "$LOGS/u65534"
# --vgdb=no: no gdbserver FIFOs and shared memory file in /tmp. A valgrind the suite SIGKILLs
# leaves them behind, named by pid (and "???" for a user name under coexist.sh's /etc), and
# when a later run as uid 65534 drew a pid of such a root file, valgrind could not start
# ("cannot create shared_mem file ... Permission denied": four --explain checks failed).
VG=(valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
	--show-leak-kinds=definite,indirect --track-fds=no)

pass=0
fail=0
for t in "$@"; do
	if "${VG[@]}" --log-file="$LOGS/unit.%p.log" "$t" >/dev/null 2>&1; then
		pass=$((pass + 1))
		echo "ok - valgrind $t"
	else
		fail=$((fail + 1))
		echo "not ok - valgrind $t"
	fi
done

# The integration suite, with the binary wrapped in valgrind.
cat >"$LOGS/autoswappiness" <<WRAP
#!/bin/sh
exec ${VG[*]} --log-file=$LOGS/u\$(id -u)/daemon.%p.log $BIN "\$@"
WRAP
chmod +x "$LOGS/autoswappiness"
if BIN="$LOGS/autoswappiness" WAIT_SCALE=${WAIT_SCALE:-4} "$TOP/tests/integration/run.sh" >"$LOGS/integration.out" 2>&1; then
	pass=$((pass + 1))
	echo "ok - integration suite under valgrind"
else
	fail=$((fail + 1))
	echo "not ok - integration suite under valgrind:"
	grep -v '^ok' "$LOGS/integration.out" || true
fi
# No allocation per poll: the heap allocations of a run of 20 polls and of one of
# 80 polls must be the same number (fake files in a private namespace). Counted in
# polls, not seconds: valgrind can take seconds to start on a busy machine.
allocs() { # allocs POLLS: total allocations of a daemon run until it has polled that often
	unshare --mount --propagation private bash -c '
		set -e
		W=$(mktemp -d)
		cp /proc/meminfo "$W/m"; echo 60 >"$W/k"
		mount --bind "$W/k" /proc/sys/vm/swappiness
		mount -t tmpfs tmpfs /run
		# With a textfile, so that both files a poll writes are counted.
		mkdir /run/prom
		printf "[daemon]\ninterval_ms = 100\n[metrics]\ntextfile = /run/prom/autoswappiness.prom\n" >"$W/c"
		# The log exists before the loop looks: the job opens it when it runs, and on a busy
		# host the first grep came first, found no file, and ended the loop at once.
		: >"$W/log"
		valgrind --vgdb=no --log-file="$W/vg" "$0" --foreground --dry-run -v -c "$W/c" 2>>"$W/log" &
		pid=$!
		# -v logs one record per poll, each naming the swappiness; 10 minutes at most.
		i=0
		while [ "$(grep -c swappiness "$W/log")" -lt "$1" ]; do
			kill -0 $pid
			i=$((i + 1)); [ $i -lt 6000 ]
			sleep 0.1
		done
		test -s /run/prom/autoswappiness.prom
		kill -TERM $pid; wait $pid || true
		sed -n "s/.*total heap usage: \([0-9,]*\) allocs.*/\1/p" "$W/vg" | tr -d ,
		umount /proc/sys/vm/swappiness /run; rm -rf "$W"' "$BIN" "$1"
}
short=$(allocs 20)
long=$(allocs 80)
if [ -n "$short" ] && [ "$short" = "$long" ]; then
	pass=$((pass + 1))
	echo "ok - no allocation per poll ($short allocations after 20 polls and after 80)"
else
	fail=$((fail + 1))
	echo "not ok - allocations grow with polls: '$short' after 20 polls, '$long' after 80"
fi

# 10,000 polls under valgrind on fake files, the values changing now and then:
# no error, no leak, and the same open file descriptors at the end as after start.
long_run() {
	unshare --mount --propagation private bash -c '
		set -e
		BIN=$1 LOGS=$2 TOP=$3
		W=$(mktemp -d)
		sed "s/^SwapTotal:.*/SwapTotal:       1000000 kB/; s/^SwapFree:.*/SwapFree:         230000 kB/" \
			"$TOP/tests/data/proc/meminfo.host-idle" >"$W/m1"
		sed "s/^SwapFree:.*/SwapFree:         500000 kB/" "$W/m1" >"$W/m2"
		cp "$W/m1" "$W/m"
		echo 60 >"$W/k"
		mount --bind "$W/m" /proc/meminfo
		mount --bind "$W/k" /proc/sys/vm/swappiness
		mount -t tmpfs tmpfs /run
		printf "[daemon]\ninterval_ms = 10\n[policy]\nname = adaptive\n" >"$W/c"
		: >"$W/log" # before the loops look (as in allocs)
		valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--log-file="$LOGS/longrun.vg.log" "$BIN" --foreground -v -c "$W/c" 2>>"$W/log" &
		pid=$!
		# The descriptors once it polls (a fixed sleep counted valgrind'"'"'s own on a busy
		# machine, where the daemon had not opened its files yet: 13 -> 25).
		i=0
		while [ "$(grep -c "swappiness" "$W/log")" -lt 2 ]; do
			i=$((i + 1)); [ $i -lt 6000 ]
			sleep 0.1
			kill -0 $pid
		done
		# The fewest of 20 looks 50 ms apart: at 10 ms a poll, one look may catch a file
		# the daemon has open only while it reads it (25 -> 27 once on a busy host); a
		# leak stays open.
		minfds() {
			local m=999 n j
			for j in $(seq 20); do
				n=$(ls /proc/$pid/fd | wc -l)
				[ "$n" -ge "$m" ] || m=$n
				sleep 0.05
			done
			echo "$m"
		}
		fds0=$(minfds)
		i=0
		while [ "$(grep -c "swappiness" "$W/log")" -lt 10000 ]; do
			i=$((i + 1))
			if [ $((i % 10)) = 0 ]; then
				dd if="$W/m$((i / 10 % 2 + 1))" of="$W/m" conv=notrunc status=none
			fi
			sleep 0.5
			kill -0 $pid
		done
		fds1=$(minfds)
		polls=$(grep -c "swappiness" "$W/log")
		writes=$(grep -c "notice: swappiness [0-9]* -> " "$W/log" || true)
		kill -TERM $pid
		rc=0
		wait $pid || rc=$?
		echo "$polls polls, $writes writes, fds $fds0 -> $fds1, exit $rc"
		umount /proc/meminfo /proc/sys/vm/swappiness /run
		rm -rf "$W"
		[ "$fds0" = "$fds1" ] && [ "$rc" = 0 ] && [ "$writes" -ge 2 ]' long_run "$BIN" "$LOGS" "$TOP"
}
if out=$(long_run 2>&1); then
	pass=$((pass + 1))
	echo "ok - 10,000 polls under valgrind: $out"
else
	fail=$((fail + 1))
	echo "not ok - 10,000 polls under valgrind: $out"
fi

# Errors in processes that were meant to fail or were killed show up only here.
for log in "$LOGS"/*.log "$LOGS"/u*/*.log; do
	[ -s "$log" ] || continue
	# A process killed with SIGKILL on purpose leaves no report; anything else is an error.
	fail=$((fail + 1))
	echo "not ok - valgrind report $(basename "$log"):"
	cat "$log"
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
