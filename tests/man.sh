#!/usr/bin/env bash
# Checks the man pages against the code (make check-man):
#   - both pages lint clean with mandoc at warning level;
#   - the SYNOPSIS of autoswappiness(8) is --help's usage line, and its OPTIONS
#     list exactly the options --help lists;
#   - every key of the key table (src/config.c config_keys), of the shipped
#     conf/autoswappiness.conf and of autoswappiness.conf(5) is in the other two,
#     under the same section, with the same default in the file and the page;
#   - the shipped file passes -n as it is and with every key uncommented.
#
# Run from anywhere; paths are relative to the repository root. The binary is
# $BIN, else build/autoswappiness built with `make -s`. MAN8, MAN5, CONF,
# CONFIG_C and CONFIG_H name other files, to show that each check can fail.
#
# Conventions it relies on: in the conf file a key line is `#key = value` or
# `key = value` (no blank after '#'; explanations are `# text`); in
# autoswappiness.conf(5) a key is `.It Cm key` under `.Ss [section]`, with a
# line `Default: value.` in its entry; in autoswappiness(8) each option is an
# `.It Fl ...` line of the OPTIONS section.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
abs() { realpath -m -- "$1"; }
MAN8=$(abs "${MAN8:-$root/man/autoswappiness.8}")
MAN5=$(abs "${MAN5:-$root/man/autoswappiness.conf.5}")
CONF=$(abs "${CONF:-$root/conf/autoswappiness.conf}")
if [[ -n ${BIN:-} ]]; then
	BIN=$(abs "$BIN")
fi
CONFIG_C=$(abs "${CONFIG_C:-$root/src/config.c}")
CONFIG_H=$(abs "${CONFIG_H:-$root/include/config.h}")
cd "$root"

die() {
	echo "man.sh: $*" >&2
	exit 2
}

command -v mandoc >/dev/null || die "mandoc is not installed (apt-get install mandoc)"
for f in "$MAN8" "$MAN5" "$CONF" "$CONFIG_C" "$CONFIG_H"; do
	[[ -f $f ]] || die "'$f' does not exist"
done
if [[ -z ${BIN:-} ]]; then
	BIN=$root/build/autoswappiness
	make -s "build/autoswappiness" || die "make -s build/autoswappiness failed"
fi
[[ -x $BIN ]] || die "'$BIN' is not an executable"

tmp=$(mktemp -d)
trap '[[ -n ${KEEP_TMP:-} ]] || rm -rf "$tmp"' EXIT

passed=0
failed=0
n=0
ok() {
	n=$((n + 1))
	passed=$((passed + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "FAIL $n - $1"
	sed 's/^/    /' <<<"$2"
}

# Renders a page as plain text on one very wide line per paragraph.
render() {
	mandoc -Tascii -O width=1000 "$1" | sed -e 's/.\x08//g'
}

# Prints the body of section $2 of rendered page $1.
section_text() {
	render "$1" | awk -v s="$2" '$0 == s { on = 1; next } /^[A-Z]/ { on = 0 } on { print }'
}

squeeze() {
	tr -s ' \t\n' '   ' | sed -e 's/^ //' -e 's/ $//' -e 's/ *| */|/g' -e 's/\[ /[/g' -e 's/ \]/]/g'
}

# (a) lint
for page in "$MAN8" "$MAN5"; do
	out=$(mandoc -Tlint -W warning "$page" 2>&1 || true)
	if [[ -z $out ]]; then
		ok "mandoc -Tlint -W warning ${page#"$root"/}: no output"
	else
		not_ok "mandoc -Tlint -W warning ${page#"$root"/} printed:" "$out"
	fi
done

# (b) SYNOPSIS against the usage line of --help
help=$("$BIN" --help) || die "'$BIN --help' failed"
usage=$(head -n1 <<<"$help")
if [[ $usage != "usage: autoswappiness "* ]]; then
	not_ok "--help's first line is a usage line" "got: $usage"
else
	want=$(squeeze <<<"${usage#usage: }")
	got=$(section_text "$MAN8" SYNOPSIS | squeeze)
	if [[ $got == "$want" ]]; then
		ok "SYNOPSIS of ${MAN8#"$root"/} is --help's usage line: $got"
	else
		not_ok "SYNOPSIS of ${MAN8#"$root"/} differs from --help's usage line" \
			"page: $got
help: $want"
	fi
fi

# Every option in --help's list has an .It Fl entry in OPTIONS, and no other.
sed -n 's/^ \{2,\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\1\2/p' <<<"$help" |
	tr ',' '\n' | tr -d ' ' | sed '/^$/d' | sort -u >"$tmp/help-opts"
awk '/^\.Sh / { on = ($2 == "OPTIONS") } on && /^\.It / {
	for (i = 2; i < NF; i++) if ($i == "Fl") { w = $(i + 1); gsub(/\\/, "", w); print "-" w }
}' "$MAN8" | sort -u >"$tmp/page-opts"
if [[ ! -s $tmp/help-opts ]]; then
	not_ok "--help lists options" "found none in: $help"
elif diff=$(diff "$tmp/help-opts" "$tmp/page-opts"); then
	ok "OPTIONS of ${MAN8#"$root"/} has exactly --help's $(wc -l <"$tmp/help-opts") options"
else
	not_ok "OPTIONS of ${MAN8#"$root"/} differs from --help's options (< --help only, > page only)" \
		"$(grep '^[<>]' <<<"$diff")"
fi

# (c) keys: the key table, the shipped file and autoswappiness.conf(5)
awk '/config_keys\[CONFIG_KEY_COUNT\] = \{/ { on = 1; next } on && /^\};/ { exit }
	on && match($0, /\{ "[a-z_]+", "[a-z_]+", "[a-z_.]+" \}/) {
		s = substr($0, RSTART, RLENGTH); split(s, q, "\""); print q[6]
	}' "$CONFIG_C" | sort >"$tmp/table"
enum_count=$(awk '/^enum config_key \{/ { on = 1; next } on && /^\};/ { exit }
	on && /^[[:space:]]*CONFIG_KEY_[A-Z_]+,/ && !/CONFIG_KEY_COUNT/ { c++ } END { print c + 0 }' "$CONFIG_H")
# section.key=value for every key line of the conf file.
awk '/^\[[a-z_]+\][[:space:]]*$/ { sec = $0; gsub(/[][[:space:]]/, "", sec); next }
	match($0, /^[#;]?[a-z_]+[[:space:]]*=/) {
		line = $0; sub(/^[#;]/, "", line); key = line; sub(/[[:space:]]*=.*/, "", key)
		val = line; sub(/^[^=]*=[[:space:]]*/, "", val); sub(/[[:space:]]+$/, "", val)
		print (sec == "" ? "?" : sec) "." key "=" val
	}' "$CONF" | sort >"$tmp/conf-kv"
cut -d= -f1 "$tmp/conf-kv" >"$tmp/conf"
# section.key=default for every `.It Cm key` under `.Ss [section]` of the page.
awk 'function flush() { if (key != "") print key "=" def; key = "" }
	/^\.Sh / { flush(); sec = "" }
	/^\.Ss / { flush(); sec = ""; if (match($0, /\[[a-z_]+\]/)) sec = substr($0, RSTART + 1, RLENGTH - 2) }
	/^\.It / { flush(); if ($2 == "Cm" && $3 ~ /^[a-z_]+$/ && sec != "") { key = sec "." $3; def = "?" } }
	/^Default: / && key != "" { def = $0; sub(/^Default: /, "", def); sub(/\.$/, "", def) }
	END { flush() }' "$MAN5" | sort >"$tmp/page-kv"
cut -d= -f1 "$tmp/page-kv" >"$tmp/page"

table_count=$(wc -l <"$tmp/table")
if [[ $table_count -eq 0 || $table_count -ne $enum_count ]]; then
	not_ok "key table of ${CONFIG_C#"$root"/} read" "found $table_count keys, ${CONFIG_H#"$root"/}'s enum config_key has $enum_count"
else
	ok "key table of ${CONFIG_C#"$root"/}: $table_count keys, as many as ${CONFIG_H#"$root"/}'s enum config_key"
fi

# Prints the lines of $1 that are not in $2, or in $2 more than once.
missing_in() {
	comm -23 <(sort -u "$1") <(sort -u "$2")
	sort "$2" | uniq -d | sed 's/$/ (listed twice)/'
}

out=$(missing_in "$tmp/conf" "$tmp/page")
if [[ -s $tmp/conf && -z $out ]]; then
	ok "every key in ${CONF#"$root"/} ($(wc -l <"$tmp/conf")) is an .It Cm entry of ${MAN5#"$root"/}"
else
	not_ok "keys of ${CONF#"$root"/} not documented as .It Cm under .Ss [section] in ${MAN5#"$root"/}" \
		"${out:-no key lines found in ${CONF#"$root"/}}"
fi

out=$( (missing_in "$tmp/table" "$tmp/conf"; comm -13 "$tmp/table" <(sort -u "$tmp/conf") | sed 's/$/ (not in the key table)/'))
if [[ -z $out ]]; then
	ok "${CONF#"$root"/} lists exactly the keys of the key table"
else
	not_ok "${CONF#"$root"/} does not match the key table" "$out"
fi

out=$( (missing_in "$tmp/table" "$tmp/page"; comm -13 "$tmp/table" <(sort -u "$tmp/page") | sed 's/$/ (not in the key table)/'))
if [[ -z $out ]]; then
	ok "${MAN5#"$root"/} documents exactly the keys of the key table"
else
	not_ok "${MAN5#"$root"/} does not match the key table" "$out"
fi

out=$(join -t= -a1 -e MISSING -o 0,1.2,2.2 "$tmp/conf-kv" "$tmp/page-kv" | awk -F= '$2 != $3 {
	print $1 ": " $2 " in the conf file, " $3 " in the page" }')
if [[ -s $tmp/conf-kv && -z $out ]]; then
	ok "each default in ${CONF#"$root"/} is the Default: of ${MAN5#"$root"/}"
else
	not_ok "defaults differ between ${CONF#"$root"/} and ${MAN5#"$root"/}" "${out:-no keys}"
fi

# (d) the shipped file against the binary
rc=0
out=$("$BIN" -n -c "$CONF" 2>&1) || rc=$?
if [[ $rc -eq 0 && $out == "configuration OK" ]]; then
	ok "${BIN#"$root"/} -n -c ${CONF#"$root"/}: configuration OK"
else
	not_ok "${BIN#"$root"/} -n -c ${CONF#"$root"/}: exit $rc" "$out"
fi

sed -e 's/^[#;]\([a-z_][a-z_]*[[:space:]]*=\)/\1/' "$CONF" >"$tmp/uncommented.conf"
rc=0
out=$("$BIN" -n -c "$tmp/uncommented.conf" 2>&1) || rc=$?
if [[ $rc -eq 0 && $out == "configuration OK" ]]; then
	ok "${CONF#"$root"/} with every key uncommented: configuration OK"
else
	not_ok "${CONF#"$root"/} with every key uncommented: exit $rc" "$out"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]] || exit 1
