#!/usr/bin/env bash
# Checks scripts/deps.sh's groups against what the Makefile's targets use (make
# check-deps):
#   - test and bench each hold every package of build;
#   - build holds what `make run` needs: make, gcc, pkg-config, and the package
#     that ships the .pc file of each library in the Makefile's PKGS (dpkg -S);
#   - `make -n run` installs the build group only, `make -n check` the test
#     group, `make -n bench` the bench group;
#   - an unknown group, or --list without one, fails with the usage message;
#   - promtool comes from the `promtool` package where apt has one (Debian 13), from
#     `prometheus` where not (Debian 12: a fake apt-cache answers for each);
#   - the README's two commands are `./scripts/deps.sh && make run` and
#     `./scripts/deps.sh test && make check`, and .ci/run runs exactly the second.
# DEPS, MAKEFILE, README and CI_RUN name other files, to show that each check can fail.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
DEPS=$(realpath -m -- "${DEPS:-$root/scripts/deps.sh}")
MAKEFILE=$(realpath -m -- "${MAKEFILE:-$root/Makefile}")
README=$(realpath -m -- "${README:-$root/README.md}")
CI_RUN=$(realpath -m -- "${CI_RUN:-$root/.ci/run}")
cd "$root"

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() {
	failed=$((failed + 1))
	echo "FAIL - $1"
	[[ -z ${2:-} ]] || sed 's/^/    /' <<<"$2"
}

list() { "$DEPS" --list "$1"; }
build=$(list build | sort -u)
for g in test bench; do
	extra=$(comm -23 <(echo "$build") <(list "$g" | sort -u))
	if [[ -z $extra ]]; then
		ok "the $g group holds the build group"
	else
		not_ok "the $g group lacks build packages" "$extra"
	fi
done

# What `make run` runs: the compiler, make, pkg-config and the libraries' .pc files.
want="make gcc pkg-config"
pkgs=$(sed -n 's/^PKGS *:= *//p' "$MAKEFILE")
[[ -n $pkgs ]] || not_ok "the Makefile names its libraries in PKGS" "no 'PKGS :=' line in $MAKEFILE"
for pc in $pkgs; do
	dir=$(pkg-config --variable=pcfiledir "$pc" 2>/dev/null) || {
		not_ok "pkg-config knows $pc (is the test group installed?)"
		continue
	}
	pkg=$(dpkg -S "$dir/$pc.pc" 2>/dev/null | sed -n '1s/:.*//p')
	if [[ -z $pkg ]]; then
		not_ok "a package ships $dir/$pc.pc"
	else
		want="$want $pkg"
	fi
done
for p in $want; do
	if grep -qx -- "$p" <<<"$build"; then
		ok "the build group has $p"
	else
		not_ok "the build group lacks $p, which make run needs"
	fi
done

# make_deps TARGET: the scripts/deps.sh lines `make -n TARGET` would run.
make_deps() { make -n -f "$MAKEFILE" "$1" 2>/dev/null | grep -o 'scripts/deps\.sh.*' | sort -u; }
for pair in run:build check:test bench:bench; do
	target=${pair%%:*} group=${pair#*:}
	got=$(make_deps "$target")
	if [[ $got == "scripts/deps.sh $group" ]]; then
		ok "make $target installs the $group group only"
	else
		not_ok "make $target should run 'scripts/deps.sh $group' alone" "got: $got"
	fi
done

for args in "bogus" "--list" "--list bogus" "build test" "--promtool-package test"; do
	rc=0
	# shellcheck disable=SC2086
	err=$("$DEPS" $args 2>&1 >/dev/null) || rc=$?
	if [[ $rc -ne 0 && $err == *"usage: scripts/deps.sh"* ]]; then
		ok "scripts/deps.sh $args fails with the usage message (exit $rc)"
	else
		not_ok "scripts/deps.sh $args: want a failure and the usage message" "exit $rc: $err"
	fi
done

# promtool's package, by what `apt-cache policy promtool` says (nothing: apt has no such name).
fakebin=$(mktemp -d)
trap 'rm -rf -- "$fakebin"' EXIT
for pair in "promtool:promtool:|  Installed: (none)|  Candidate: 2.53.3+ds1-2" \
	"prometheus:" "prometheus:promtool:|  Installed: (none)|  Candidate: (none)"; do
	want=${pair%%:*} policy=${pair#*:}
	printf '#!/bin/sh\nprintf "%%s\\n" "%s" | tr "|" "\\n"\n' "$policy" >"$fakebin/apt-cache"
	chmod +x "$fakebin/apt-cache"
	got=$(PATH=$fakebin:$PATH "$DEPS" --promtool-package 2>&1) || got="exit $?: $got"
	if [[ $got == "$want" ]]; then
		ok "promtool comes from '$want' when apt-cache policy says '${policy//|/ }'"
	else
		not_ok "promtool's package when apt-cache policy says '${policy//|/ }'" "want $want, got $got"
	fi
done

# The README's two commands, and .ci/run's copy of the test command.
run_cmd=$(sed -n 's/^    \(\.\/scripts\/deps\.sh[^#]*&& make run\) *#.*/\1/p' "$README" | sed 's/ *$//')
check_cmd=$(sed -n 's/^    \(\.\/scripts\/deps\.sh[^#]*&& make check\) *#.*/\1/p' "$README" | sed 's/ *$//')
if [[ $run_cmd == "./scripts/deps.sh && make run" && $check_cmd == "./scripts/deps.sh test && make check" ]]; then
	ok "the README's commands install the build group for run, the test group for check"
else
	not_ok "the README's commands" "run: '$run_cmd'; check: '$check_cmd'"
fi
ci_cmd=$(grep -v '^#\|^set \|^cd \|^$' "$CI_RUN")
if [[ -n $check_cmd && $ci_cmd == "$check_cmd" ]]; then
	ok ".ci/run runs exactly the README's test command"
else
	not_ok ".ci/run differs from the README's test command" "ci: '$ci_cmd'; README: '$check_cmd'"
fi

echo "deps: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
