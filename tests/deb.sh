#!/usr/bin/env bash
# Checks the Debian package (make check-deb): lintian reports no error; the
# package holds the daemon, the unit (ExecStart=/usr/sbin/autoswappiness), the
# configuration as a conffile, the three man pages, the journal catalog, the bash
# completion and the copyright; it depends on the shared libraries it links;
# its maintainer scripts enable and start the service on install, stop it on
# removal and forget it on purge (dh_installsystemd); and the build left the
# source tree clean (it happens in build/deb/src).
#
# DEB is the package to check (make check-deb passes the one `make deb` just
# built); without it, `make deb` builds one.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [[ -z ${DEB:-} ]]; then
	make -s deb >/dev/null || { echo "deb.sh: make deb failed (see build/deb/build.log)" >&2; exit 2; }
	DEB=$(ls -1 build/deb/autoswappiness_*.deb | tail -n 1)
fi
[[ -f $DEB ]] || { echo "deb.sh: '$DEB' does not exist" >&2; exit 2; }
for tool in lintian dpkg-deb; do
	command -v $tool >/dev/null || { echo "deb.sh: $tool is not installed (scripts/deps.sh test)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
n=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "FAIL $n - $1"; sed 's/^/    /' <<<"$2"; }

echo "# $DEB"
# lintian refuses nothing as root but says so; its tags are what counts.
lintian --tag-display-limit 0 "$DEB" >"$tmp/lintian" 2>&1 || true
grep -v 'running with root privileges is not recommended' "$tmp/lintian" | sed 's/^/# lintian: /' || true
if grep -q '^E: ' "$tmp/lintian"; then
	not_ok "lintian reports no error" "$(grep '^E: ' "$tmp/lintian")"
else
	ok "lintian reports no error ($(grep -c '^W: ' "$tmp/lintian" || true) warnings)"
fi

dpkg-deb -c "$DEB" | awk '{ print $1 " " $NF }' | sed 's| \./| /|' >"$tmp/contents"
missing=
for f in /usr/sbin/autoswappiness /lib/systemd/system/autoswappiness.service /etc/autoswappiness.conf \
	/usr/share/man/man8/autoswappiness.8.gz /usr/share/man/man5/autoswappiness.conf.5.gz \
	/usr/share/man/man7/autoswappiness.7.gz \
	/usr/lib/systemd/catalog/autoswappiness.catalog /usr/share/bash-completion/completions/autoswappiness \
	/usr/share/doc/autoswappiness/copyright; do
	grep -q " $f\$" "$tmp/contents" || missing+="$f"$'\n'
done
if [[ -z $missing ]]; then
	ok "dpkg-deb -c: the daemon, unit, config, the three man pages, catalog, completion and copyright"
else
	not_ok "dpkg-deb -c lacks files" "$missing"
fi
if grep -q '^-rwxr-xr-x /usr/sbin/autoswappiness$' "$tmp/contents"; then
	ok "the daemon is mode 0755"
else
	not_ok "the daemon is mode 0755" "$(grep autoswappiness "$tmp/contents")"
fi

dpkg-deb -x "$DEB" "$tmp/root"
exec_start=$(grep '^ExecStart=' "$tmp/root/lib/systemd/system/autoswappiness.service" || true)
if [[ $exec_start == ExecStart=/usr/sbin/autoswappiness ]]; then
	ok "the unit starts /usr/sbin/autoswappiness"
else
	not_ok "the unit starts /usr/sbin/autoswappiness" "got: $exec_start"
fi
if cmp -s "$tmp/root/usr/lib/systemd/catalog/autoswappiness.catalog" systemd/autoswappiness.catalog &&
	cmp -s "$tmp/root/etc/autoswappiness.conf" conf/autoswappiness.conf; then
	ok "the catalog and the config are the tree's"
else
	not_ok "the catalog and the config are the tree's" "one differs"
fi

dpkg-deb -e "$DEB" "$tmp/control"
conffiles=$(cat "$tmp/control/conffiles" 2>/dev/null || true)
if [[ $conffiles == /etc/autoswappiness.conf ]]; then
	ok "conffiles is /etc/autoswappiness.conf"
else
	not_ok "conffiles is /etc/autoswappiness.conf" "got: $conffiles"
fi
depends=$(dpkg-deb -f "$DEB" Depends)
for lib in libc6 libproc2-0 libinih1 libsystemd0; do
	if grep -qE "(^|, )$lib( |,|$)" <<<"$depends"; then
		ok "Depends names $lib"
	else
		not_ok "Depends names $lib" "Depends: $depends"
	fi
done
for want in "postinst:deb-systemd-helper unmask 'autoswappiness.service'" \
	"postinst:deb-systemd-helper enable 'autoswappiness.service'" \
	"postinst:deb-systemd-invoke \$_dh_action 'autoswappiness.service'" \
	"prerm:deb-systemd-invoke stop 'autoswappiness.service'" \
	"postrm:deb-systemd-helper purge 'autoswappiness.service'"; do
	script=${want%%:*} text=${want#*:}
	if grep -qF -- "$text" "$tmp/control/$script" 2>/dev/null; then
		ok "$script: $text"
	else
		not_ok "$script: $text" "$(cat "$tmp/control/$script" 2>&1)"
	fi
done
if grep -q '_dh_action=.*start' "$tmp/control/postinst"; then
	ok "postinst starts the service on a first install"
else
	not_ok "postinst starts the service on a first install" "$(grep _dh_action "$tmp/control/postinst")"
fi

# The build happens in build/deb/src: nothing of dh's in the tree's debian/.
left=$(cd debian && ls -d autoswappiness .debhelper files debhelper-build-stamp ./*.substvars ./*.debhelper.log \
	2>/dev/null || true)
if [[ -z $left ]]; then
	ok "the source tree's debian/ holds no build products"
else
	not_ok "the source tree's debian/ holds no build products" "$left"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
