#!/usr/bin/env bash
# Checks `make install` and `make uninstall` into a temporary DESTDIR (make
# check-install): the exact file list with modes, the unit's ExecStart pointing
# at the installed binary, an existing /etc/autoswappiness.conf kept, uninstall
# removing everything but the configuration and running no systemctl with a
# DESTDIR; for the default PREFIX=/usr/local and for PREFIX=/usr. Then without
# a DESTDIR, as on a machine whose PID 1 is systemd (a private mount namespace
# with /run/systemd/system, everything installed under a temporary PREFIX,
# systemctl and journalctl stand-ins): uninstall stops and disables the
# service while its unit is still there, then removes the files and reloads.
#
# BUILD is the make build directory (default build; the binary must build).
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BUILD=${BUILD:-build}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A systemctl or journalctl that make must not call with a DESTDIR: it leaves a trace.
mkdir "$tmp/bin"
for tool in systemctl journalctl; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/called"\n' "$tool" "$tmp" >"$tmp/bin/$tool"
	chmod +x "$tmp/bin/$tool"
done
export PATH="$tmp/bin:$PATH"

passed=0
failed=0
n=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "FAIL $n - $1"; sed 's/^/    /' <<<"$2"; }
check_eq() { # what want got
	if [[ $2 == "$3" ]]; then ok "$1"; else not_ok "$1" "$(diff <(echo "$2") <(echo "$3") || true)"; fi
}
# The installed tree as "MODE PATH" lines, files only.
listing() { (cd "$1" && find . -type f -printf '%m %P\n' | sort); }

# variant PREFIX SBINDIR UNITDIR CATALOGDIR BASHCOMPDIR MANDIR (the paths expected)
variant() {
	local prefix=$1 sbin=$2 unitdir=$3 catdir=$4 compdir=$5 mandir=$6
	local dest=$tmp/dest-${prefix//\//_} args=()
	[[ $prefix == default ]] || args=(PREFIX="$prefix")
	echo "# make install ${args[*]:-PREFIX=/usr/local} DESTDIR=..."
	if ! out=$(make -s install "${args[@]}" DESTDIR="$dest" BUILD="$BUILD" 2>&1); then
		not_ok "make install ${args[*]:-PREFIX=/usr/local} succeeds" "$out"
		return
	fi
	want=$(sort <<EOF2
755 ${sbin#/}/autoswappiness
644 ${mandir#/}/man8/autoswappiness.8
644 ${mandir#/}/man5/autoswappiness.conf.5
644 ${mandir#/}/man7/autoswappiness.7
644 ${unitdir#/}/autoswappiness.service
644 ${catdir#/}/autoswappiness.catalog
644 ${compdir#/}/autoswappiness
644 etc/autoswappiness.conf
EOF2
)
	check_eq "make install ${args[*]:-PREFIX=/usr/local}: the files and their modes" "$want" "$(listing "$dest")"
	check_eq "ExecStart is the installed binary $sbin/autoswappiness" "ExecStart=$sbin/autoswappiness" \
		"$(grep '^ExecStart=' "$dest$unitdir/autoswappiness.service" 2>&1)"
	check_eq "the installed unit differs from systemd/ only in that path" "" \
		"$(diff <(sed "s|$sbin/autoswappiness|/usr/sbin/autoswappiness|" "$dest$unitdir/autoswappiness.service") \
			systemd/autoswappiness.service 2>&1)"
	if cmp -s "$dest$catdir/autoswappiness.catalog" systemd/autoswappiness.catalog &&
		cmp -s "$dest$compdir/autoswappiness" completion/autoswappiness.bash &&
		cmp -s "$dest/etc/autoswappiness.conf" conf/autoswappiness.conf &&
		cmp -s "$dest$sbin/autoswappiness" "$BUILD/autoswappiness"; then
		ok "catalog, completion, config and binary are the tree's"
	else
		not_ok "catalog, completion, config and binary are the tree's" "one differs"
	fi

	echo "# an administrator's configuration survives a second install and the uninstall"
	echo "# edited by the admin" >>"$dest/etc/autoswappiness.conf"
	cp "$dest/etc/autoswappiness.conf" "$tmp/conf.edited"
	out=$(make -s install "${args[@]}" DESTDIR="$dest" BUILD="$BUILD" 2>&1) || not_ok "second make install" "$out"
	check_eq "a second install keeps the edited configuration" "" \
		"$(cmp "$tmp/conf.edited" "$dest/etc/autoswappiness.conf" 2>&1)"
	check_eq "and says so" "keeping existing $dest/etc/autoswappiness.conf" "$(grep keeping <<<"$out")"

	if ! out=$(make -s uninstall "${args[@]}" DESTDIR="$dest" BUILD="$BUILD" 2>&1); then
		not_ok "make uninstall ${args[*]:-PREFIX=/usr/local} succeeds" "$out"
		return
	fi
	check_eq "make uninstall ${args[*]:-PREFIX=/usr/local} leaves only the configuration" "644 etc/autoswappiness.conf" \
		"$(listing "$dest")"
	check_eq "the configuration is the edited one" "" "$(cmp "$tmp/conf.edited" "$dest/etc/autoswappiness.conf" 2>&1)"
	check_eq "with a DESTDIR, neither install nor uninstall ran systemctl or journalctl" "" \
		"$(cat "$tmp/called" 2>/dev/null)"
}

variant default /usr/local/sbin /usr/local/lib/systemd/system /usr/local/lib/systemd/catalog \
	/usr/local/share/bash-completion/completions /usr/local/share/man
variant /usr /usr/sbin /usr/lib/systemd/system /usr/lib/systemd/catalog \
	/usr/share/bash-completion/completions /usr/share/man

# Without a DESTDIR on a systemd machine. The stand-in systemctl notes, for each
# call, whether the unit file and the binary were still installed.
live() {
	unshare --mount --propagation private bash -c '
		set -eu
		tmp=$1 build=$2 live=$tmp/live
		mount -t tmpfs tmpfs /run
		mkdir -p /run/systemd/system
		{
			echo "#!/bin/sh"
			echo "state=absent"
			echo "[ -e $live/unit/autoswappiness.service ] && [ -e $live/sbin/autoswappiness ] && state=installed"
			echo "echo \"systemctl \$* (\$state)\" >>$tmp/live-called"
		} >"$tmp/bin/systemctl"
		printf "#!/bin/sh\necho \"journalctl \$*\" >>%s/live-called\n" "$tmp" >"$tmp/bin/journalctl"
		vars=(PREFIX="$live" SBINDIR="$live/sbin" UNITDIR="$live/unit" SYSCONFDIR="$live/etc" BUILD="$build")
		make -s install "${vars[@]}" >/dev/null
		echo "-- uninstall" >>"$tmp/live-called"
		make -s uninstall "${vars[@]}" >/dev/null
		cat "$tmp/live-called"
		find "$live" -type f -printf "%P\n" | sort' live "$tmp" "$BUILD"
}
echo "# make install / uninstall without a DESTDIR, systemd as PID 1 (stand-ins)"
want='journalctl --update-catalog
-- uninstall
systemctl disable --now autoswappiness (installed)
systemctl daemon-reload (absent)
journalctl --update-catalog
etc/autoswappiness.conf'
if out=$(live 2>&1); then
	check_eq "uninstall stops and disables the service while installed, then removes all but the configuration and reloads" \
		"$want" "$out"
else
	not_ok "make install / uninstall without a DESTDIR" "$out"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
