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
