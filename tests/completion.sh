#!/usr/bin/env bash
# Checks completion/autoswappiness.bash (make check-completion): sources it in a
# fresh bash without bash-completion, sets COMP_WORDS/COMP_CWORD as readline
# would, calls the function and compares COMPREPLY; and every long option of
# `autoswappiness --help` is offered in some context (--json after status).
#
# BIN is the binary (default build/autoswappiness, built with make -s);
# COMPLETION names another completion file, to show that the checks can fail.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
COMPLETION=$(realpath -m -- "${COMPLETION:-$root/completion/autoswappiness.bash}")
cd "$root"
if [[ -z ${BIN:-} ]]; then
	BIN=build/autoswappiness
	make -s "$BIN" || { echo "completion.sh: make -s $BIN failed" >&2; exit 2; }
fi
[[ -f $COMPLETION ]] || { echo "completion.sh: '$COMPLETION' does not exist" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/conf.d"
touch "$tmp/conf.d/one.conf" "$tmp/conf.d/two.conf"

passed=0
failed=0
n=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "FAIL $n - $1"; sed 's/^/    /' <<<"$2"; }

# Prints the sorted COMPREPLY for the command line WORD... with the cursor in
# the last word, in a fresh bash (no bash-completion: the fallback paths).
complete_words() {
	bash --norc --noprofile -c '
		set -u
		source "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_autoswappiness autoswappiness "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		complete -p autoswappiness >/dev/null || { echo "not registered for autoswappiness"; exit 1; }
		printf "%s\n" "${COMPREPLY[@]}" | sort' bash "$COMPLETION" "$@" 2>&1
}

# expect "WANTED REPLY (space-separated)" WORD...
expect() {
	local want=$1 got
	shift
	want=$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort)
	got=$(complete_words "$@") || true
	if [[ $got == "$want" ]]; then
		ok "'$*' completes to: $(echo $want)"
	else
		not_ok "'$*' completes to: $(echo $want)" "got: $(echo $got)"
	fi
}

expect "status" autoswappiness ""
expect "status" autoswappiness st
expect "--check-config --config" autoswappiness --c
expect "--dry-run" autoswappiness --once --d
expect "-c -h -n -v --check-config --config --dry-run --explain --foreground --help --once --status --verbose --version" \
	autoswappiness -
expect "" autoswappiness --once ""
expect "--json" autoswappiness status ""
expect "--json" autoswappiness status --
expect "--json" autoswappiness --status -
expect "" autoswappiness status --json ""
expect "$tmp/conf.d/one.conf $tmp/conf.d/two.conf" autoswappiness -c "$tmp/conf.d/"
expect "$tmp/conf.d/one.conf" autoswappiness --config "$tmp/conf.d/o"
expect "$tmp/conf.d/two.conf" autoswappiness --config = "$tmp/conf.d/t"
expect "--config=$tmp/conf.d/two.conf" autoswappiness "--config=$tmp/conf.d/t"

# Every long option of --help is offered: at the top level, or after status.
help=$("$BIN" --help)
grep -oE -- '(^|[ [(])--[a-z][a-z-]*' <<<"$help" | sed 's/^[ [(]//' | sort -u >"$tmp/help"
{ complete_words autoswappiness --; complete_words autoswappiness status --; } | sort -u >"$tmp/offered"
if [[ ! -s $tmp/help ]]; then
	not_ok "long options of --help read" "found none in: $help"
elif missing=$(comm -23 "$tmp/help" "$tmp/offered") && [[ -z $missing ]]; then
	ok "all $(wc -l <"$tmp/help") long options of --help are offered"
else
	not_ok "long options of --help the completion does not offer" "$missing"
fi
if extra=$(comm -13 "$tmp/help" "$tmp/offered") && [[ -z $extra ]]; then
	ok "the completion offers no long option that --help lacks"
else
	not_ok "long options offered that --help does not list" "$extra"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
