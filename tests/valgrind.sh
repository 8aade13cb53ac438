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
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
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
exec ${VG[*]} --log-file=$LOGS/daemon.%p.log $BIN "\$@"
WRAP
chmod +x "$LOGS/autoswappiness"
if BIN="$LOGS/autoswappiness" "$TOP/tests/integration/run.sh" >"$LOGS/integration.out" 2>&1; then
	pass=$((pass + 1))
	echo "ok - integration suite under valgrind"
else
	fail=$((fail + 1))
	echo "not ok - integration suite under valgrind:"
	grep -v '^ok' "$LOGS/integration.out" || true
fi
# No allocation per poll: the heap allocations of a run of ~25 polls and of one
# of ~75 polls must be the same number (fake files in a private namespace).
allocs() { # allocs SECONDS: total allocations of a daemon run that long
	unshare --mount --propagation private bash -c '
		set -e
		W=$(mktemp -d)
		cp /proc/meminfo "$W/m"; echo 60 >"$W/k"
		mount --bind "$W/k" /proc/sys/vm/swappiness
		mount -t tmpfs tmpfs /run
		printf "[daemon]\ninterval_ms = 100\n" >"$W/c"
		valgrind --log-file="$W/vg" "$0" --foreground --dry-run -c "$W/c" 2>/dev/null &
		sleep "$1"; kill -TERM $!; wait $! || true
		sed -n "s/.*total heap usage: \([0-9,]*\) allocs.*/\1/p" "$W/vg" | tr -d ,
		umount /proc/sys/vm/swappiness /run; rm -rf "$W"' "$BIN" "$1"
}
short=$(allocs 3)
long=$(allocs 8)
if [ -n "$short" ] && [ "$short" = "$long" ]; then
	pass=$((pass + 1))
	echo "ok - no allocation per poll ($short allocations in 3 s and in 8 s of polling)"
else
	fail=$((fail + 1))
	echo "not ok - allocations grow with polls: '$short' in 3 s, '$long' in 8 s"
fi

# Errors in processes that were meant to fail or were killed show up only here.
for log in "$LOGS"/*.log; do
	[ -s "$log" ] || continue
	# A process killed with SIGKILL on purpose leaves no report; anything else is an error.
	fail=$((fail + 1))
	echo "not ok - valgrind report $(basename "$log"):"
	cat "$log"
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
