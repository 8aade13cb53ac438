#!/usr/bin/env bash
# Checks the docs against the code (make check-docs): the man pages, the shipped
# configuration and the README state what the binary and the sources do:
#   - the three pages lint clean with mandoc at warning level;
#   - the length limits hold: README.md at most 200 lines, autoswappiness(8) at most
#     500 lines and autoswappiness.conf(5) at most 300 lines rendered at 80 columns;
#   - the SYNOPSIS of autoswappiness(8) is --help's usage lines, and its OPTIONS
#     list exactly the options --help lists;
#   - every key of the key table (src/config.c config_keys), of the shipped
#     conf/autoswappiness.conf and of autoswappiness.conf(5) is in the other two,
#     under the same section, with the same default in the file and the page;
#   - the shipped file passes -n as it is and with every key uncommented;
#   - each Default: of autoswappiness.conf(5) is the code's default (a helper
#     built from src/config.c checks that config_set() with that value leaves
#     config_defaults() unchanged);
#   - each Range: of autoswappiness.conf(5) is what the binary accepts: its ends
#     and words pass -n, one past each end and a bogus word fail; the comment
#     above the key in the shipped file states the same range;
#   - every example configuration in the pages passes -n;
#   - autoswappiness(8) lists exactly the MESSAGE_IDs of include/journal.h and
#     names every journal field that src/journal.c sends (its "FIELD=" string
#     literals), and no other;
#   - the --once pairs in autoswappiness(8) (its example lines and the order of
#     the option's description) are those that src/once.c prints;
#   - THE ADAPTIVE POLICY of autoswappiness(7), the design page, gives every
#     POLICY_ADAPTIVE_ constant of include/policy.h with its value, and no other;
#     THE RULES every POLICY_SPARE_ constant (the tendency policy sparing the
#     cache), the same way;
#   - METRICS of autoswappiness(8) lists exactly the metrics (after the prefix autoswappiness_), with their types,
#     that src/status.c writes, and its alert rules (the `.Bd -literal` block
#     that starts with `groups:`) pass `promtool check rules` (promtool from
#     scripts/deps.sh in build/tools, else $PROMTOOL or PATH) and name only
#     those metrics;
#   - the default policy is the one the committed `make bench` run chose
#     (bench/results/default-policy.txt, written by bench/report.py);
#   - the README's --explain sample is what --explain prints, as uid 65534, for
#     the case its marker names (fake /proc files bind-mounted in a private
#     mount namespace; needs root, else only its first line's wording is
#     checked against src/explain.c);
#   - the journal catalog (systemd/autoswappiness.catalog) has one entry for
#     each MESSAGE_ID of include/journal.h and no other, in the strict form of
#     systemd's catalogs, and `journalctl --update-catalog` accepts it;
#   - every "see autoswappiness(8), SECTION" in a message of src/*.c names a
#     section of autoswappiness(8), and the README's section on other tools
#     points at the page's.
#
# Run from anywhere; paths are relative to the repository root. The binary is
# $BIN, else build/autoswappiness built with `make -s`; the defaults helper is
# built with $CC (cc). MAN8, MAN5, MAN7, CONF, CONFIG_C, CONFIG_H, JOURNAL_H,
# JOURNAL_C, DAEMON_C, POLICY_H, STATUS_C, BENCH_CHOICE, README and CATALOG name other files, to show that each
# check can fail.
#
# Conventions it relies on: in the conf file a key line is `#key = value` or
# `key = value` (no blank after '#'; explanations are `# text`), and the line
# just above it is that explanation; in autoswappiness.conf(5) a key is
# `.It Cm key` under `.Ss [section]`, with a line `Default: value.` (`Default:
# empty.` for the empty value) and a line `Range: R.` in its entry, R being
# `N to M`, `WORD or N to M`, `a boolean`, `WORD, WORD or WORD` or `empty or an
# absolute path of at most N characters ending in .EXT, without /../`, and
# optionally followed by a remark in parentheses (the file states these as
# `N..M`, `WORD or N..M`, `yes or no`, and the others word for word); in
# autoswappiness(8) the usage lines of --help are the SYNOPSIS, each option is
# an `.It Fl ...` line of the
# OPTIONS section, each MESSAGE_ID an `.It ID Ta ...` line of LOGGING, each
# journal field a `.Va FIELD` in LOGGING, each constant an
# `.It Dv NAME No = VALUE` line of THE ADAPTIVE POLICY of autoswappiness(7), each metric an
# `.It Va NAME Pq TYPE` line of METRICS, and the --once pairs are `.Cm` words of
# the `.It Fl \-once` entry; an example configuration is a `.Bd -literal`
# block whose first line is `[section]`.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
abs() { realpath -m -- "$1"; }
MAN8=$(abs "${MAN8:-$root/man/autoswappiness.8}")
MAN5=$(abs "${MAN5:-$root/man/autoswappiness.conf.5}")
MAN7=$(abs "${MAN7:-$root/man/autoswappiness.7}")
CONF=$(abs "${CONF:-$root/conf/autoswappiness.conf}")
if [[ -n ${BIN:-} ]]; then
	BIN=$(abs "$BIN")
fi
CONFIG_C=$(abs "${CONFIG_C:-$root/src/config.c}")
CONFIG_H=$(abs "${CONFIG_H:-$root/include/config.h}")
JOURNAL_H=$(abs "${JOURNAL_H:-$root/include/journal.h}")
JOURNAL_C=$(abs "${JOURNAL_C:-$root/src/journal.c}")
DAEMON_C=$(abs "${DAEMON_C:-$root/src/once.c}")
POLICY_H=$(abs "${POLICY_H:-$root/include/policy.h}")
STATUS_C=$(abs "${STATUS_C:-$root/src/status.c}")
BENCH_CHOICE=$(abs "${BENCH_CHOICE:-$root/bench/results/default-policy.txt}")
README=$(abs "${README:-$root/README.md}")
CATALOG=$(abs "${CATALOG:-$root/systemd/autoswappiness.catalog}")
cd "$root"

die() {
	echo "docs.sh: $*" >&2
	exit 2
}

command -v mandoc >/dev/null || die "mandoc is not installed (apt-get install mandoc)"
for f in "$MAN8" "$MAN5" "$MAN7" "$CONF" "$CONFIG_C" "$CONFIG_H" "$JOURNAL_H" "$JOURNAL_C" "$DAEMON_C" "$POLICY_H" \
	"$STATUS_C" "$CATALOG"; do
	[[ -f $f ]] || die "'$f' does not exist"
done
if [[ -z ${BIN:-} ]]; then
	BIN=$root/build/autoswappiness
	make -s "build/autoswappiness" || die "make -s build/autoswappiness failed"
fi
[[ -x $BIN ]] || die "'$BIN' is not an executable"

# The config files written below must be writable by their owner only (the
# loader refuses others), whatever umask the caller has.
umask 022
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
for page in "$MAN8" "$MAN5" "$MAN7"; do
	out=$(mandoc -Tlint -W warning "$page" 2>&1 || true)
	if [[ -z $out ]]; then
		ok "mandoc -Tlint -W warning ${page#"$root"/}: no output"
	else
		not_ok "mandoc -Tlint -W warning ${page#"$root"/} printed:" "$out"
	fi
done

# (a2) the length limits (issue 47): a README and man pages a user reads in minutes. A page's
# length is its lines rendered at 80 columns by man(1) (man-db, as a user reads it), or by
# mandoc where man-db is not installed. README_MAX, MAN8_MAX and MAN5_MAX override the limits,
# to show that the check can fail.
rendered_lines() {
	if command -v man >/dev/null; then
		MANWIDTH=80 man -l "$1" 2>/dev/null | wc -l
	else
		mandoc -Tascii -O width=80 "$1" | wc -l
	fi
}
check_length() { # check_length FILE LINES MAX UNIT
	if [[ $2 -gt 0 && $2 -le $3 ]]; then
		ok "${1#"$root"/}: $2 $4, at most $3"
	else
		not_ok "${1#"$root"/} is too long" "$2 $4, more than $3 (or none read)"
	fi
}
check_length "$README" "$(wc -l <"$README")" "${README_MAX:-200}" lines
check_length "$MAN8" "$(rendered_lines "$MAN8")" "${MAN8_MAX:-500}" "lines at 80 columns"
check_length "$MAN5" "$(rendered_lines "$MAN5")" "${MAN5_MAX:-300}" "lines at 80 columns"

# (b) SYNOPSIS against the usage lines of --help: the first, `usage: ...`, and
# those after it that are indented forms of the command.
help=$("$BIN" --help) || die "'$BIN --help' failed"
usage=$(head -n1 <<<"$help")
if [[ $usage != "usage: autoswappiness "* ]]; then
	not_ok "--help's first line is a usage line" "got: $usage"
else
	want=$(awk 'NR == 1 { sub(/^usage: /, ""); print; next } /^[ \t]+autoswappiness / { print; next } { exit }' \
		<<<"$help" | squeeze)
	got=$(section_text "$MAN8" SYNOPSIS | squeeze)
	if [[ $got == "$want" ]]; then
		ok "SYNOPSIS of ${MAN8#"$root"/} is --help's usage lines: $got"
	else
		not_ok "SYNOPSIS of ${MAN8#"$root"/} differs from --help's usage lines" \
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
	/^Default: / && key != "" { def = $0; sub(/^Default: /, "", def); sub(/\.$/, "", def); if (def == "empty") def = "" }
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

# (d) the shipped file against the binary, from a copy this user owns: the
# tree may be another user's, whose files the loader refuses.
install -m 0644 "$CONF" "$tmp/shipped.conf"
rc=0
out=$("$BIN" -n -c "$tmp/shipped.conf" 2>&1) || rc=$?
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

# (e) the documented defaults against the code: a key set to its default must
# leave config_defaults() as it is (memcmp of a copy, so padding compares equal).
cat >"$tmp/defaults.c" <<'C'
#include <stdio.h>
#include <string.h>

#include "config.h"

/* Reads "section key value" lines and prints each back as section.key=value
 * followed by "default", "not-default" or "error: MESSAGE". */
int
main(void)
{
	char line[1024];

	while (fgets(line, sizeof(line), stdin)) {
		struct config def, c;
		enum config_key key;
		char err[256] = "", *section = line, *name, *value;

		line[strcspn(line, "\n")] = '\0';
		if (!(name = strchr(section, ' ')))
			continue;
		*name++ = '\0';
		if ((value = strchr(name, ' ')))
			*value++ = '\0';
		else
			value = name + strlen(name);
		config_defaults(&def);
		memcpy(&c, &def, sizeof(c));
		if (config_set(&c, section, name, value, &key, err, sizeof(err)) < 0)
			printf("%s.%s=%s error: %s\n", section, name, value, err);
		else
			printf("%s.%s=%s %s\n", section, name, value,
			       memcmp(&c, &def, sizeof(c)) == 0 ? "default" : "not-default");
	}
	return 0;
}
C
if ! out=$("${CC:-cc}" -std=gnu11 -I"$(dirname "$CONFIG_H")" -I"$root/include" -o "$tmp/defaults" \
	"$tmp/defaults.c" "$CONFIG_C" "$root/src/policy.c" "$root/src/parse.c" 2>&1); then
	not_ok "build the defaults helper from ${CONFIG_C#"$root"/}" "$out"
elif [[ ! -s $tmp/page-kv ]]; then
	not_ok "Default: lines of ${MAN5#"$root"/} read" "found none"
else
	out=$(awk -F= '{ k = $1; v = substr($0, length(k) + 2); sub(/\./, " ", k); print k " " v }' "$tmp/page-kv" |
		"$tmp/defaults" | grep -v ' default$' || true)
	if [[ -z $out ]]; then
		ok "each Default: of ${MAN5#"$root"/} ($(wc -l <"$tmp/page-kv")) is config_defaults() of ${CONFIG_C#"$root"/}"
	else
		not_ok "Default: lines of ${MAN5#"$root"/} that are not the code's default" "$out"
	fi
fi

# (f) the documented ranges against the binary, and against the shipped file.
awk 'function flush() { if (key != "") print key "\t" rng; key = "" }
	/^\.Sh / { flush(); sec = "" }
	/^\.Ss / { flush(); sec = ""; if (match($0, /\[[a-z_]+\]/)) sec = substr($0, RSTART + 1, RLENGTH - 2) }
	/^\.It / { flush(); if ($2 == "Cm" && $3 ~ /^[a-z_]+$/ && sec != "") { key = sec "." $3; rng = "?" } }
	/^Range: / && key != "" { rng = $0; sub(/^Range: /, "", rng); sub(/\.$/, "", rng) }
	END { flush() }' "$MAN5" >"$tmp/page-range"
# section.key<TAB>the line above the key line, for every key line of the conf file.
awk '/^\[[a-z_]+\][[:space:]]*$/ { sec = $0; gsub(/[][[:space:]]/, "", sec); prev = $0; next }
	match($0, /^[#;]?[a-z_]+[[:space:]]*=/) {
		key = $0; sub(/^[#;]/, "", key); sub(/[[:space:]]*=.*/, "", key)
		print (sec == "" ? "?" : sec) "." key "\t" prev
	}
	{ prev = $0 }' "$CONF" >"$tmp/conf-above"

# Returns 0 when the value is accepted: by -n on a file that sets the key, or
# with via=set by config_set() alone (through the defaults helper), for a path
# whose length limit is longer than a line may be.
check_value() { # check_value SECTION KEY VALUE
	if [[ $via == set ]]; then
		[[ $(printf '%s %s %s\n' "$1" "$2" "$3" | "$tmp/defaults" 2>&1) != *" error: "* ]]
		return
	fi
	printf '[%s]\n%s = %s\n' "$1" "$2" "$3" >"$tmp/value.conf"
	"$BIN" -n -c "$tmp/value.conf" >/dev/null 2>&1
}
range_bad=""
comment_bad=""
while IFS=$'\t' read -r key rng; do
	sec=${key%%.*} name=${key#*.} via=file
	rng=${rng%% (*}
	if [[ $rng == "a boolean" ]]; then
		accept=(yes no true false on off 1 0) reject=(bogus) form="yes or no"
	elif [[ $rng =~ ^(([a-z_]+)\ or\ )?(-?[0-9]+)\ to\ ([0-9]+)$ ]]; then
		word=${BASH_REMATCH[2]} lo=${BASH_REMATCH[3]} hi=${BASH_REMATCH[4]}
		accept=("$lo" "$hi" ${word:+"$word"}) reject=("$((lo - 1))" "$((hi + 1))" bogus)
		form="${word:+$word or }$lo..$hi"
	elif [[ $rng =~ ^empty\ or\ an\ absolute\ path\ of\ at\ most\ ([0-9]+)\ characters\ ending\ in\ (\.[a-z]+),\ without\ /\.\./$ ]]; then
		maxlen=${BASH_REMATCH[1]} ext=${BASH_REMATCH[2]}
		longest=/$(printf '%*s' $((maxlen - 1 - ${#ext})) '' | tr ' ' a)$ext
		accept=("" "$longest") reject=("/a${longest#/}" "relative$ext" /a.bogus "/a/../b$ext")
		form=$rng via=set
	elif [[ $rng =~ ^[a-z_]+((,\ [a-z_]+)*\ or\ [a-z_]+)?$ ]]; then
		accept=()
		for v in ${rng//[,]/}; do
			[[ $v == or ]] || accept+=("$v")
		done
		reject=(bogus) form=$rng
	else
		range_bad+="$key: Range: '$rng' is not one of the forms in the header of tests/docs.sh"$'\n'
		continue
	fi
	for v in "${accept[@]}"; do
		check_value "$sec" "$name" "$v" || range_bad+="$key = $v: in the documented range, refused ($via)"$'\n'
	done
	for v in "${reject[@]}"; do
		if check_value "$sec" "$name" "$v"; then
			range_bad+="$key = $v: outside the documented range, accepted ($via)"$'\n'
		fi
	done
	above=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$tmp/conf-above")
	if [[ $above != "# "* || $above != *"$form"* ]]; then
		comment_bad+="$key: the line above it is '$above', which does not say '$form'"$'\n'
	fi
done <"$tmp/page-range"
if [[ ! -s $tmp/page-range ]]; then
	not_ok "Range: lines of ${MAN5#"$root"/} read" "found no keys"
elif [[ -z $range_bad ]]; then
	ok "each Range: of ${MAN5#"$root"/} is what ${BIN#"$root"/} -n (a path: config_set()) accepts, ends included, one past refused"
else
	not_ok "Range: lines of ${MAN5#"$root"/} that the binary disagrees with" "${range_bad%$'\n'}"
fi
if [[ -s $tmp/page-range && -z $comment_bad ]]; then
	ok "the comment above each key of ${CONF#"$root"/} states its range as ${MAN5#"$root"/} does"
elif [[ -n $comment_bad ]]; then
	not_ok "comments of ${CONF#"$root"/} that do not state the key's range" "${comment_bad%$'\n'}"
fi

# (g) every example configuration in the pages: a .Bd -literal block whose
# first line is a section, with mdoc's escapes undone.
examples=0
example_bad=""
for page in "$MAN8" "$MAN5" "$MAN7"; do
	rm -f "$tmp"/example-*.conf
	awk -v out="$tmp/example-" '
		/^\.Bd -literal/ { inb = 1; first = 1; buf = ""; start = NR; next }
		inb && /^\.Ed/ { inb = 0; if (isconf) { f = out start ".conf"; printf "%s", buf >f; close(f) }; isconf = 0; next }
		inb { line = $0; gsub(/\\-/, "-", line); gsub(/\\&/, "", line); gsub(/\\e/, "\\", line)
			if (first) { isconf = line ~ /^\[[a-z_]+\][[:space:]]*$/; first = 0 }
			buf = buf line "\n" }' "$page"
	for f in "$tmp"/example-*.conf; do
		[[ -e $f ]] || continue
		examples=$((examples + 1))
		rc=0
		out=$("$BIN" -n -c "$f" 2>&1) || rc=$?
		if [[ $rc -ne 0 || $out != "configuration OK" ]]; then
			line=${f##*/example-}
			example_bad+="${page#"$root"/}:${line%.conf}: exit $rc: $out"$'\n'
		fi
	done
done
if [[ $examples -gt 0 && -z $example_bad ]]; then
	ok "the $examples example configurations of the pages pass ${BIN#"$root"/} -n"
else
	not_ok "example configurations of the pages" "$(printf "%s" "${example_bad:-found none}")"
fi

# same_lists CODE PAGE READ OK DIFFER: the sorted lists in files CODE (what the code has) and
# PAGE (what a page says) are the same. READ names where CODE came from (an empty CODE fails:
# the reader broke), OK is the passing line (%n stands for the count), DIFFER the failing one.
same_lists() {
	local diff
	if [[ ! -s $1 ]]; then
		not_ok "$3 read" "found none"
	elif diff=$(diff "$1" "$2"); then
		ok "${4//%n/$(wc -l <"$1")}"
	else
		not_ok "$5 (< code only, > page only)" "$(grep '^[<>]' <<<"$diff")"
	fi
}

# (h) journal: MESSAGE_IDs and fields of autoswappiness(8) against the code.
sed -nE 's/^#define MSGID_[A-Z_]+[[:space:]]+"([0-9a-f]+)".*/\1/p' "$JOURNAL_H" | sort >"$tmp/msgid-code"
awk '/^\.Sh / { on = ($2 == "LOGGING") } on && $1 == ".It" && $3 == "Ta" && $2 ~ /^[0-9a-f]+$/ && length($2) == 32 {
	print $2 }' "$MAN8" | sort >"$tmp/msgid-page"
same_lists "$tmp/msgid-code" "$tmp/msgid-page" "MESSAGE_IDs of ${JOURNAL_H#"$root"/}" \
	"LOGGING of ${MAN8#"$root"/} lists exactly the %n MESSAGE_IDs of ${JOURNAL_H#"$root"/}" \
	"MESSAGE_IDs of ${MAN8#"$root"/} differ from ${JOURNAL_H#"$root"/}"
# A field is a string literal "FIELD=..." on a line that is not a comment.
grep -vE '^[[:space:]]*(\*|/\*|//)' "$JOURNAL_C" | grep -oE '"[A-Z][A-Z_]*=' | sed -e 's/^"//' -e 's/=$//' |
	sort -u >"$tmp/fields-code"
awk '/^\.Sh / { on = ($2 == "LOGGING"); next } on {
	sub(/^\./, "", $1); for (i = 1; i < NF; i++) if ($i == "Va" && $(i + 1) ~ /^[A-Z][A-Z_]*$/) print $(i + 1)
}' "$MAN8" | sort -u >"$tmp/fields-page"
same_lists "$tmp/fields-code" "$tmp/fields-page" "journal fields of ${JOURNAL_C#"$root"/}" \
	"LOGGING of ${MAN8#"$root"/} names exactly the %n journal fields of ${JOURNAL_C#"$root"/}" \
	"journal fields of ${MAN8#"$root"/} differ from ${JOURNAL_C#"$root"/}"

# (i) the --once pairs: daemon_once's fprintf against the page.
once_code=$(awk '/^daemon_once\(/ { on = 1 } on && /fprintf\(out,/ { p = 1 } p { s = s $0 } p && /\);/ { exit }
	END { print s }' "$DAEMON_C" | grep -oE '"[^"]*"' | tr -d '"\n' | grep -oE '[a-z_]+=' | tr -d '=' | tr '\n' ' ' |
	sed 's/ $//')
once_bad=""
once_examples=0
while read -r example; do
	once_examples=$((once_examples + 1))
	got=$(grep -oE '(^| )[a-z_]+=' <<<"$example" | tr -d '= ' | tr '\n' ' ' | sed 's/ $//')
	[[ $got == "$once_code" ]] || once_bad+="example line: $got"$'\n'
done < <(sed -n 's/\\-/-/g; /^policy=/p' "$MAN8")
got=$(awk '/^\.It Fl \\-once/ { on = 1; next } on && /^\.It / { exit } on && $1 == ".Cm" { print $2 }' "$MAN8" |
	awk -v want="$once_code" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) field[w[i]] = 1 }
		($1 in field) && !($1 in seen) { seen[$1] = 1; printf "%s%s", sep, $1; sep = " " }')
[[ $got == "$once_code" ]] || once_bad+="--once entry of OPTIONS: $got"$'\n'
if [[ -z $once_code ]]; then
	not_ok "--once pairs of ${DAEMON_C#"$root"/} read" "found no fprintf(out, ...) in daemon_once"
elif [[ $once_examples -gt 0 && -z $once_bad ]]; then
	ok "--once pairs in ${MAN8#"$root"/} ($once_examples example, OPTIONS) are ${DAEMON_C#"$root"/}'s: $once_code"
else
	not_ok "--once pairs of ${MAN8#"$root"/} differ from ${DAEMON_C#"$root"/}'s: $once_code" \
		"${once_bad:-no example line starting with policy=}"
fi

# (j) the policies' constants, in the design page autoswappiness(7): the adaptive policy's
# in THE ADAPTIVE POLICY, sparing the cache's (the tendency policy) in THE RULES.
# check_constants PREFIX SECTION: every #define PREFIX* of include/policy.h appears in
# SECTION of autoswappiness(7) as `.It Dv NAME No = VALUE`, with its value, and no other.
check_constants() {
	local prefix=$1 section=$2
	sed -nE "s/^#define (${prefix}[A-Z_]+)[[:space:]]+([0-9]+).*/\\1=\\2/p" "$POLICY_H" | sort >"$tmp/const-code"
	awk -v sec=".Sh $section" -v pre="^$prefix" '/^\.Sh / { on = ($0 == sec) }
		on && $1 == ".It" && $2 == "Dv" && $3 ~ pre && $4 == "No" && $5 == "=" { print $3 "=" $6 }' \
		"$MAN7" | sort >"$tmp/const-page"
	same_lists "$tmp/const-code" "$tmp/const-page" "${prefix} constants of ${POLICY_H#"$root"/}" \
		"$section of ${MAN7#"$root"/} gives the %n ${prefix} constants of ${POLICY_H#"$root"/} with their values" \
		"${prefix} constants of ${MAN7#"$root"/} ($section) differ from ${POLICY_H#"$root"/}"
}
check_constants POLICY_ADAPTIVE_ "THE ADAPTIVE POLICY"
check_constants POLICY_SPARE_ "THE RULES"

# (k) the Prometheus metrics: every metric() call of status.c, with its type, and
# every gauge(), counter() and ratio() call (a ratio is a gauge).
{
	grep -oE 'metric\(&?o, "[a-z_]+", "[a-z]+"' "$STATUS_C" | sed -E 's/.*"([a-z_]+)", "([a-z]+)"/autoswappiness_\1 \2/'
	grep -oE '\<(gauge|counter|ratio)\(&?o, "[a-z_]+"' "$STATUS_C" |
		sed -E 's/^(gauge|counter|ratio)\(&?o, "([a-z_]+)"/autoswappiness_\2 \1/; s/ ratio$/ gauge/'
} | sort >"$tmp/metrics-code"
awk '/^\.Sh / { on = ($0 == ".Sh METRICS") }
	on && $1 == ".It" && $2 == "Va" && $3 ~ /^[a-z_]+$/ && $4 == "Pq" { print "autoswappiness_" $3 " " $5 }' "$MAN8" |
	sort >"$tmp/metrics-page"
same_lists "$tmp/metrics-code" "$tmp/metrics-page" "metrics of ${STATUS_C#"$root"/}" \
	"METRICS of ${MAN8#"$root"/} lists the %n metrics of ${STATUS_C#"$root"/} with their types" \
	"metrics of ${MAN8#"$root"/} differ from ${STATUS_C#"$root"/}"

# (l) the default policy is the one the committed benchmark chose (issue 5):
# bench/report.py writes its choice to bench/results/default-policy.txt, and
# the Default: of policy.name (checked against the code by (e)) must name it.
choice=$(cat "$BENCH_CHOICE" 2>/dev/null) || choice=""
page_policy=$(sed -n 's/^policy\.name=//p' "$tmp/page-kv")
if [[ -z $choice ]]; then
	not_ok "${BENCH_CHOICE#"$root"/} names the default policy" "empty or unreadable: run make bench, or restore it"
elif [[ $choice == "$page_policy" ]]; then
	ok "the default policy, $page_policy, is the one ${BENCH_CHOICE#"$root"/} chose"
else
	not_ok "the default policy of ${MAN5#"$root"/} is not the one the benchmark chose" \
		"page and code: '$page_policy'; ${BENCH_CHOICE#"$root"/}: '$choice' (see bench/RESULTS.md)"
fi

# (m) the README's --explain sample: the indented block between the explain:begin
# and explain:end markers is what --explain prints, as uid 65534, on a desktop
# with 16 GB of RAM and 4 GB of zram, calm, on Debian 13's kernel with the
# multi-gen LRU on (the fakes below), with no configuration file at the default
# path.
sample=$(sed -n '/^<!-- explain:begin/,/^<!-- explain:end/p' "$README" | sed -n 's/^    //p')
explain_sample() {
	local d=$tmp/explain-proc
	mkdir -p "$d"
	chmod 0755 "$tmp" "$d"
	awk '/^MemTotal:/ { $2 = 16000000 } /^MemFree:/ { $2 = 6000000 } /^Buffers:/ { $2 = 400000 }
		/^Cached:/ { $2 = 5000000 } /^Shmem:/ { $2 = 600000 } /^Mapped:/ { $2 = 1400000 }
		/^SwapTotal:/ { $2 = 4000000 } /^SwapFree:/ { $2 = 3600000 } { print }' \
		"$root/tests/data/proc/meminfo.host-idle" >"$d/meminfo"
	cp "$root/tests/data/proc/vmstat.host-idle" "$d/vmstat"
	cp "$root/tests/data/proc/pressure-memory.host-idle" "$d/psi"
	printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram0\tpartition\t4000000\t400000\t100\n' >"$d/swaps"
	echo N >"$d/zswap"
	echo 60 >"$d/swappiness"
	echo 6.12.57+deb13-amd64 >"$d/osrelease"
	unshare --mount --propagation private bash -c '
		set -e
		d=$1
		# Debian 13 boots with the multi-gen LRU on (the host may have no such file).
		mount -t tmpfs -o mode=0755 tmpfs /sys/kernel/mm
		mkdir /sys/kernel/mm/lru_gen
		echo 0x0007 >/sys/kernel/mm/lru_gen/enabled
		mount --bind "$d/osrelease" /proc/sys/kernel/osrelease
		mount --bind "$d/meminfo" /proc/meminfo
		mount --bind "$d/vmstat" /proc/vmstat
		mount --bind "$d/psi" /proc/pressure/memory
		mount --bind "$d/swaps" /proc/swaps
		mount --bind "$d/swappiness" /proc/sys/vm/swappiness
		if [[ -e /sys/module/zswap/parameters/enabled ]]; then
			mount --bind "$d/zswap" /sys/module/zswap/parameters/enabled
		fi
		exec setpriv --reuid=65534 --regid=65534 --clear-groups "$2" --explain' - "$d" "$BIN"
}
defaults=$(sed -n 's/^SYSCONFDIR *?= *//p' "$root/Makefile")/autoswappiness.conf
first=$(head -n1 <<<"$sample")
if [[ -z $sample ]]; then
	not_ok "${README#"$root"/} has an --explain sample between explain:begin and explain:end" "none found"
elif [[ $EUID -ne 0 || ! -e /proc/pressure/memory || -e $defaults ]]; then
	# Without root (or PSI, or with a configuration at the default path) the
	# sample cannot be reproduced here: at least its first line's wording.
	if grep -qF '"It would set vm.swappiness to %d (it is %d now): "' "$root/src/explain.c" &&
		grep -qF '"the %s policy asks for %d"' "$root/src/explain.c" &&
		[[ $first =~ ^It\ would\ set\ vm\.swappiness\ to\ [0-9]+\ \(it\ is\ [0-9]+\ now\):\ the\ [a-z]+\ policy\ asks\ for\ [0-9]+ ]]; then
		ok "the first line of ${README#"$root"/}'s --explain sample has src/explain.c's wording (not run: needs root, PSI and no $defaults)"
	else
		not_ok "the first line of ${README#"$root"/}'s --explain sample is not src/explain.c's wording" "$first"
	fi
elif out=$(explain_sample 2>&1) && [[ $out == "$sample" ]]; then
	ok "${README#"$root"/}'s --explain sample is what it prints for that case ($(wc -l <<<"$sample") lines)"
else
	not_ok "${README#"$root"/}'s --explain sample differs from what it prints (< README, > --explain)" \
		"$(diff <(echo "$sample") <(echo "$out") || true)"
fi

# (n) the alert rules in METRICS of autoswappiness(8) (the .Bd -literal block
# that starts with `groups:`) pass `promtool check rules` and name only metrics
# that status.c writes, so that the example an operator copies cannot drift.
awk '/^\.Sh / { on = ($0 == ".Sh METRICS") }
	on && /^\.Bd -literal/ { inb = 1; first = 1; next }
	inb && /^\.Ed/ { inb = 0; keep = 0; next }
	inb && first { first = 0; keep = ($0 == "groups:") }
	inb && keep { print }' "$MAN8" >"$tmp/rules.yml"
PROMTOOL=${PROMTOOL:-$root/build/tools/promtool}
[[ -x $PROMTOOL ]] || PROMTOOL=$(command -v promtool || echo "$PROMTOOL")
if [[ ! -s $tmp/rules.yml ]]; then
	not_ok "alert rules in METRICS of ${MAN8#"$root"/}" "no .Bd -literal block starting with 'groups:'"
elif [[ ! -x $PROMTOOL ]]; then
	not_ok "promtool checks the alert rules of ${MAN8#"$root"/}" "no promtool: run scripts/deps.sh test"
elif out=$("$PROMTOOL" check rules "$tmp/rules.yml" 2>&1); then
	ok "the alert rules of ${MAN8#"$root"/} pass promtool check rules ($(grep -c 'alert:' "$tmp/rules.yml") rules)"
else
	not_ok "the alert rules of ${MAN8#"$root"/} fail promtool check rules" "$out"
fi
unknown=$(grep -oE 'autoswappiness_[a-z_]+' "$tmp/rules.yml" | sort -u | while read -r m; do
	grep -q "^$m " "$tmp/metrics-code" || echo "$m"
done)
if [[ -s $tmp/rules.yml && -z $unknown ]]; then
	ok "the alert rules of ${MAN8#"$root"/} name only metrics of ${STATUS_C#"$root"/}"
else
	not_ok "the alert rules of ${MAN8#"$root"/} name metrics ${STATUS_C#"$root"/} does not write" "${unknown:-no rules}"
fi
live='expr: timestamp(autoswappiness_last_poll_timestamp_seconds) - autoswappiness_last_poll_timestamp_seconds > 3 * autoswappiness_poll_interval_seconds'
if grep -qF "$live" "$tmp/rules.yml" && grep -qF "${live#expr: }" "$README"; then
	ok "the liveness alert of ${MAN8#"$root"/} and ${README#"$root"/} compares the file's age at the scrape with 3 poll intervals"
else
	not_ok "the liveness alert of ${MAN8#"$root"/} (rules) or ${README#"$root"/}" "no '${live#expr: }'"
fi

# (o) the journal catalog: an entry for exactly the MESSAGE_IDs of journal.h,
# each strictly `-- ID`, the headers Subject, Defined-By, Documentation and
# Support (no other, each once, `Key: value`), a blank line and some text; and
# `journalctl --update-catalog` takes the file (in a temporary root) and then
# lists those IDs.
catalog_strict() {
	awk '
	function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; errors++ }
	function finish() {
		if (id == "") return
		for (k in need) if (!(k in seen)) bad("entry " id " has no " k ":")
		if (!text) bad("entry " id " has no text")
	}
	BEGIN { need["Subject"]; need["Defined-By"]; need["Documentation"]; need["Support"] }
	/^-- / {
		finish()
		id = substr($0, 4); state = "head"; text = 0; delete seen
		if (id !~ /^[0-9a-f]+$/ || length(id) != 32) bad("not a 32-digit lowercase hex MESSAGE_ID: " id)
		if (id in ids) bad("MESSAGE_ID " id " twice")
		ids[id]; print id > idfile
		next
	}
	id == "" { if ($0 != "" && $0 !~ /^#/) bad("text before the first entry"); next }
	state == "head" && $0 == "" { state = "body"; next }
	state == "head" {
		if (!match($0, /^[A-Z][A-Za-z-]*: [^ ]/)) { bad("not a header line (Key: value): " $0); next }
		k = substr($0, 1, index($0, ":") - 1)
		if (!(k in need)) bad("unknown header " k)
		if (k in seen) bad("header " k " twice")
		if (k == "Defined-By" && $0 != "Defined-By: autoswappiness") bad("Defined-By is not autoswappiness")
		if (k == "Documentation" && $0 !~ /^Documentation: man:autoswappiness(\.conf)?\([58]\)( man:autoswappiness(\.conf)?\([58]\))*$/)
			bad("Documentation is not man:autoswappiness pages")
		seen[k]; next
	}
	/[^ ]/ { text = 1 }
	/[ \t]$/ { bad("trailing blank") }
	END { finish(); exit errors > 0 }' idfile="$2" "$1"
}
if ! out=$(catalog_strict "$CATALOG" "$tmp/msgid-catalog" 2>&1); then
	not_ok "${CATALOG#"$root"/} is a strict catalog file" "$out"
else
	ok "${CATALOG#"$root"/} is a strict catalog file (-- ID, Subject, Defined-By, Documentation, Support, text)"
fi
if diff=$(diff "$tmp/msgid-code" <(sort "$tmp/msgid-catalog")); then
	ok "${CATALOG#"$root"/} has an entry for exactly the $(wc -l <"$tmp/msgid-code") MESSAGE_IDs of ${JOURNAL_H#"$root"/}"
else
	not_ok "MESSAGE_IDs of ${CATALOG#"$root"/} differ from ${JOURNAL_H#"$root"/} (< code only, > catalog only)" \
		"$(grep '^[<>]' <<<"$diff")"
fi
if command -v journalctl >/dev/null; then
	catroot=$tmp/catalog-root
	mkdir -p "$catroot/usr/lib/systemd/catalog"
	cp "$CATALOG" "$catroot/usr/lib/systemd/catalog/autoswappiness.catalog"
	if ! out=$(journalctl --root="$catroot" --update-catalog 2>&1); then
		not_ok "journalctl --update-catalog takes ${CATALOG#"$root"/}" "$out"
	elif diff=$(diff "$tmp/msgid-code" <(journalctl --root="$catroot" --list-catalog 2>&1 |
		awk '$2 == "autoswappiness:" { print $1 }' | sort)); then
		ok "journalctl --update-catalog takes ${CATALOG#"$root"/} and lists its $(wc -l <"$tmp/msgid-code") entries"
	else
		not_ok "journalctl --list-catalog after --update-catalog differs from ${JOURNAL_H#"$root"/}" "$diff"
	fi
else
	not_ok "journalctl --update-catalog takes ${CATALOG#"$root"/}" "journalctl is not installed (apt-get install systemd)"
fi

# (p) messages that send the reader to a section of autoswappiness(8): it exists.
SRC_DIR=$(abs "${SRC_DIR:-$root/src}")
grep -ohE 'see autoswappiness\(8\), [A-Z][A-Z ]*[A-Z]' "$SRC_DIR"/*.c | sed 's/^see autoswappiness(8), //' | sort -u \
	>"$tmp/sections-code"
sections_bad=""
while read -r sec; do
	grep -qx "\.Sh $sec" "$MAN8" || sections_bad+="'$sec' "
done <"$tmp/sections-code"
if [[ ! -s $tmp/sections-code ]]; then
	not_ok "messages of ${SRC_DIR#"$root"/} that name a section of autoswappiness(8) read" "found none"
elif [[ -z $sections_bad ]]; then
	ok "the $(wc -l <"$tmp/sections-code") sections of autoswappiness(8) that messages name exist"
else
	not_ok "messages name sections that ${MAN8#"$root"/} lacks" "$sections_bad"
fi
if grep -q 'LIVING WITH OTHER TOOLS' "$root/README.md"; then
	ok "README.md points at LIVING WITH OTHER TOOLS"
else
	not_ok "README.md points at LIVING WITH OTHER TOOLS" "no such reference"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]] || exit 1
