#!/usr/bin/env bash
# Static checks of systemd/autoswappiness.service, on the host (no systemd as PID 1 needed):
#  1. `systemd-analyze security --offline=true` overall exposure must be <= MAX_EXPOSURE (0.6,
#     what the unit scores with CAP_SYS_RESOURCE alone and PrivateUsers=yes: 0.5 without any
#     capability, and 0.1 for CapabilityBoundingSet=~CAP_SYS_(NICE|RESOURCE), which the score
#     counts as if the capability held in the initial user namespace);
#  2. `systemd-analyze verify` must print nothing; ExecReload= runs `autoswappiness -n` before
#     the kill, and the unit is ordered after systemd-sysctl and tuned;
#  3. nothing is writable but the knob and the runtime directory: the only ReadWritePaths= is
#     /proc/sys/vm/swappiness (a writable directory that another user owns, such as
#     node_exporter's, would let that user redirect the daemon's writes with a link), and the
#     bounding set is CAP_SYS_RESOURCE alone (for the PSI trigger's pace; the unit says why).
#
#   tests/unit-security.sh [UNIT_FILE]
#
# verify checks that ExecStart= names an existing executable, and the daemon is usually not
# installed where tests run. So verify runs on a copy in a temporary directory where only the
# ExecStart= path, and ExecReload='s check, are swapped for /bin/true; every other line is the
# real one. --man=no: the
# Documentation= man pages need not be installed on the machine running the test.
# The real sandbox is exercised in a VM by tests/vm/smoke.sh.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
unit=${1:-$here/../systemd/autoswappiness.service}
max_exposure=${MAX_EXPOSURE:-0.6}

die() { echo "unit-security.sh: error: $*" >&2; exit 1; }

command -v systemd-analyze >/dev/null ||
	die "systemd-analyze not found in PATH (apt-get install systemd)"
[[ -f $unit ]] || die "unit file $unit does not exist"
[[ $(basename -- "$unit") == autoswappiness.service ]] ||
	die "$unit: the file must be named autoswappiness.service (systemd derives the unit name from it)"
grep -qx 'ExecStart=/usr/sbin/autoswappiness' "$unit" ||
	die "$unit: expected the line 'ExecStart=/usr/sbin/autoswappiness' (this test swaps it for verify)"

tmp=$(mktemp -d) || die "cannot create a temporary directory"
trap 'rm -rf -- "$tmp"' EXIT

passed=0
failed=0

# --- 1. exposure -------------------------------------------------------------------------------
if ! LC_ALL=C systemd-analyze security --offline=true --no-pager -- "$unit" >"$tmp/security.out" 2>&1; then
	cat "$tmp/security.out" >&2
	die "systemd-analyze security --offline=true $unit failed (output above)"
fi
exposure=$(sed -n 's/^.*Overall exposure level for [^:]*: \([0-9][0-9.]*\) .*$/\1/p' "$tmp/security.out")
[[ -n $exposure ]] || {
	cat "$tmp/security.out" >&2
	die "no 'Overall exposure level' line in the output of systemd-analyze security (above)"
}
if awk -v e="$exposure" -v m="$max_exposure" 'BEGIN { exit !(e <= m) }'; then
	echo "ok: security exposure of $unit is $exposure (limit $max_exposure)"
	passed=$((passed + 1))
else
	# In the C locale systemd marks exposed settings with '-' instead of '✗'.
	grep '^- ' "$tmp/security.out" >&2 || true
	echo "FAIL: security exposure of $unit is $exposure, above the limit $max_exposure; exposed settings above" >&2
	failed=$((failed + 1))
fi

# --- 2. verify -----------------------------------------------------------------------------------
sed -e 's|^ExecStart=/usr/sbin/autoswappiness$|ExecStart=/bin/true|' \
	-e 's|^ExecReload=/usr/sbin/autoswappiness -n$|ExecReload=/bin/true -n|' "$unit" >"$tmp/autoswappiness.service" ||
	die "cannot copy $unit to $tmp"
verify_rc=0
LC_ALL=C systemd-analyze verify --man=no -- "$tmp/autoswappiness.service" >"$tmp/verify.out" 2>&1 || verify_rc=$?
if [[ $verify_rc -eq 0 && ! -s $tmp/verify.out ]]; then
	echo "ok: systemd-analyze verify of $unit is clean"
	passed=$((passed + 1))
else
	sed "s|$tmp/autoswappiness.service|$unit|g" "$tmp/verify.out" >&2
	echo "FAIL: systemd-analyze verify of $unit exited $verify_rc and printed the lines above" >&2
	failed=$((failed + 1))
fi

# --- 2b. a reload that tells the truth, and the order at boot ----------------------------------
# The config is checked before the signal: a rejected one fails `systemctl reload`.
reload=$(sed -n 's/^ExecReload=//p' "$unit" | tr '\n' '|')
if [[ $reload == '/usr/sbin/autoswappiness -n|/bin/kill -HUP $MAINPID|' ]]; then
	echo "ok: ExecReload= of $unit checks the configuration (-n), then signals"
	passed=$((passed + 1))
else
	echo "FAIL: ExecReload= of $unit: '$reload', want '/usr/sbin/autoswappiness -n' then the kill" >&2
	failed=$((failed + 1))
fi
if grep -qx 'After=systemd-sysctl.service tuned.service' "$unit"; then
	echo "ok: $unit starts after systemd-sysctl and tuned"
	passed=$((passed + 1))
else
	echo "FAIL: $unit: want After=systemd-sysctl.service tuned.service" >&2
	failed=$((failed + 1))
fi

# --- 2c. no restart where a restart cannot help; every man page named -----------------------------
# The exit statuses whose entry in autoswappiness(8) EXIT STATUS says the unit does not restart
# after them (a configuration error, a state directory others control) are the unit's
# RestartPreventExitStatus=, no more and no fewer.
man8=$here/../man/autoswappiness.8
want=$(awk '/^\.Sh /{ sec = $0 } sec == ".Sh EXIT STATUS" && /^\.It [0-9]+$/ { code = $2 }
	sec == ".Sh EXIT STATUS" && code != "" && /does not restart after it/ { print code; code = "" }' "$man8" | sort -n | tr '\n' ' ')
have=$(sed -n 's/^RestartPreventExitStatus=//p' "$unit" | tr ' ' '\n' | sort -n | tr '\n' ' ')
if [[ -n $want && $have == "$want" ]]; then
	echo "ok: $unit does not restart after exit ${want% } (as autoswappiness(8) EXIT STATUS says)"
	passed=$((passed + 1))
else
	echo "FAIL: $unit: RestartPreventExitStatus= '${have% }', but autoswappiness(8) says the unit does not restart after '${want% }'" >&2
	failed=$((failed + 1))
fi
docs=$(sed -n 's/^Documentation=//p' "$unit" | tr ' ' '\n' | sort | tr '\n' ' ')
pages=$(for f in "$here"/../man/*.[1-9]; do b=${f##*/}; echo "man:${b%.*}(${b##*.})"; done | sort | tr '\n' ' ')
if [[ $docs == "$pages" ]]; then
	echo "ok: Documentation= of $unit names every man page the package installs"
	passed=$((passed + 1))
else
	echo "FAIL: Documentation= of $unit: '${docs% }', want '${pages% }'" >&2
	failed=$((failed + 1))
fi

# --- 3. write access and capabilities ------------------------------------------------------------
rw=$(sed -n 's/^ReadWritePaths=//p' "$unit" | tr '\n' ' ')
if [[ $rw == "/proc/sys/vm/swappiness " ]]; then
	echo "ok: the only ReadWritePaths= of $unit is the knob"
	passed=$((passed + 1))
else
	echo "FAIL: ReadWritePaths= of $unit: '$rw', want only /proc/sys/vm/swappiness" >&2
	failed=$((failed + 1))
fi
if grep -qx 'CapabilityBoundingSet=CAP_SYS_RESOURCE' "$unit" && [[ $(grep -c '^CapabilityBoundingSet=' "$unit") == 1 ]] &&
	grep -qx 'AmbientCapabilities=' "$unit" && grep -qx 'PrivateUsers=yes' "$unit"; then
	echo "ok: $unit grants CAP_SYS_RESOURCE alone, none ambient, and has PrivateUsers=yes"
	passed=$((passed + 1))
else
	echo "FAIL: $unit: want one CapabilityBoundingSet=CAP_SYS_RESOURCE, an empty AmbientCapabilities= and PrivateUsers=yes" >&2
	failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
