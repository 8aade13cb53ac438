# Sourced by run.sh (issue 13, item 3): the PSI trigger on the machine's own
# /proc/pressure/memory (the fake is unmounted for this part), opened with and
# without CAP_SYS_RESOURCE. The kernel takes the opener's capability as the
# privilege to check the trigger often: with it, every tenth of the 2 s window
# (its psimon thread); without it, every 2 s with the averages (Linux 6.5 and
# Debian 12's 6.1). The unit grants that one capability; the log says which
# pace the kernel keeps. Dry run: the fake knob stays 60. Leaves the fake
# /proc/pressure/memory mounted again and no daemon running.

# start_as SETPRIV_ARGS... -- DAEMON_ARGS...: start_daemon, under setpriv(1).
start_as() {
	LAUNCH=(setpriv)
	while [ "$1" != -- ]; do
		LAUNCH+=("$1")
		shift
	done
	LAUNCH+=(--)
	shift
	start_daemon "$@"
	LAUNCH=()
}
no_log() { ! log_has "$1"; }
armed_every() { log_has "PSI trigger armed: some [0-9]* ms per 2000 ms, checked by the kernel every $1 ms ($2)"; }

# has_cap N [FIELD]: capability N is in this shell's FIELD set (CapBnd).
has_cap() {
	local k v
	while read -r k v; do [ "$k" = "${2:-CapBnd}:" ] && return $((!((0x$v >> $1) & 1))); done </proc/self/status
	return 1
}
# all_but N: setpriv's list that drops every capability but N from the bounding set, each by
# name, so that it does not rest on how setpriv combines "-all" with "+N" (untried here: this
# host's bounding set lacks CAP_SYS_RESOURCE, so "+sys_resource" could not be told apart).
all_but() {
	local i l=''
	for i in $(seq 0 "$(cat /proc/sys/kernel/cap_last_cap)"); do [ "$i" = "$1" ] || l+="-cap_$i,"; done
	echo "${l%,}"
}
CAP_SYS_RESOURCE=24

umount /proc/pressure/memory
if ! grep -qs '^some avg10=' /proc/pressure/memory; then
	# Not a skip that passes: the VM test (tests/vm) checks the same on its kernel.
	not_ok "the PSI trigger with and without CAP_SYS_RESOURCE: this kernel has no /proc/pressure/memory (CONFIG_PSI, psi=1)"
elif ! command -v setpriv >/dev/null; then
	not_ok "the PSI trigger with and without CAP_SYS_RESOURCE: setpriv(1) is missing (util-linux)"
else
	printf '[daemon]\ndry_run = yes\ninterval_ms = 100\n' >"$CONF/psi.conf"
	set_knob 60
	if has_cap $CAP_SYS_RESOURCE; then
		# As the unit runs it: root with no capability but CAP_SYS_RESOURCE.
		start_as --bounding-set "$(all_but $CAP_SYS_RESOURCE)" --inh-caps -all -- -c "$CONF/psi.conf"
		check "with CAP_SYS_RESOURCE alone the kernel checks the trigger every 200 ms" \
			wait_for 15 armed_every 200 CAP_SYS_RESOURCE
		check "  and the daemon's effective set holds that capability alone" \
			grep -qx $'CapEff:\t0000000001000000' "/proc/$DPID/status"
		stop_daemon TERM || true
	else
		# A container's bounding set may lack it (this one does); it cannot be granted from
		# inside. The VM test (tests/vm/guest-e2e.sh) checks the unit's case on a real kernel.
		echo "skip - with CAP_SYS_RESOURCE: this machine's bounding set lacks it ($(grep CapBnd /proc/self/status | tr -d '\t'))"
	fi
	# Root without any capability, as the unit was before.
	start_as --bounding-set -all --inh-caps -all -- -c "$CONF/psi.conf"
	check "without CAP_SYS_RESOURCE every 2000 ms" wait_for 15 armed_every 2000 "without CAP_SYS_RESOURCE"
	check "  and no warning: the 2 s window is one the kernel accepts without it" no_log 'no PSI trigger'
	stop_daemon TERM || true
	# Root with this shell's capabilities: the log follows the effective set, whatever it holds.
	start_daemon -c "$CONF/psi.conf"
	if has_cap $CAP_SYS_RESOURCE CapEff; then
		check "as this shell's root, with CAP_SYS_RESOURCE: every 200 ms" wait_for 15 armed_every 200 CAP_SYS_RESOURCE
	else
		check "as this shell's root, without CAP_SYS_RESOURCE: every 2000 ms" \
			wait_for 15 armed_every 2000 "without CAP_SYS_RESOURCE"
	fi
	stop_daemon TERM || true
	check "the dry run left the knob alone" knob_is 60
fi
mount --bind "$P" /proc/pressure/memory
check "the fake /proc/pressure/memory is back" cmp -s /proc/pressure/memory "$P"
