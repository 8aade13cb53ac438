#!/bin/bash
# Runs inside the VM as /mnt/share/guest.sh (copied there by smoke.sh), as root under systemd.
#  1. The VM is fit for the tests: systemd is PID 1, journald answers, the second disk becomes
#     swap, PSI exists, vm.swappiness takes 0..200, systemd-run works (dbus).
#  2. The sandbox of systemd/autoswappiness.service (copied to /mnt/share by smoke.sh) lets a
#     stand-in ExecStart write /proc/sys/vm/swappiness and nothing else of /proc/sys, read the
#     daemon's inputs and lock its memory; and shows what PrivateUsers= and a missing
#     ReadWritePaths= would do, and that RuntimeDirectoryPreserve= keeps the state record.
set -uo pipefail

share=/mnt/share
unit_src=$share/autoswappiness.service
passed=0
failed=0

pass() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
info() { echo "info: $*"; }
# check NAME COMMAND...: passes when COMMAND succeeds; its output is shown on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name: $out"; fi
}

info "guest.sh started at $(cut -d' ' -f1 /proc/uptime) s of uptime; kernel $(uname -r)"
info "$(grep MemTotal /proc/meminfo)"

# --- 1. the VM ---------------------------------------------------------------------------------
check "PID 1 is systemd" test "$(cat /proc/1/comm)" = systemd
check "journald is active" systemctl is-active --quiet systemd-journald.service
check "journalctl -n1 works" journalctl -n1 --no-pager -q
check "hostname is autoswappiness-vm" test "$(hostname)" = autoswappiness-vm
check "/dev/vdb exists" test -b /dev/vdb
check "mkswap /dev/vdb" mkswap /dev/vdb
check "swapon /dev/vdb" swapon /dev/vdb
check "/proc/swaps lists /dev/vdb" grep -q '^/dev/vdb ' /proc/swaps
info "$(grep SwapTotal /proc/meminfo)"
check "/proc/pressure/memory is readable" grep -q '^some avg10=' /proc/pressure/memory
check "/sys/module/zswap/parameters/enabled is readable" cat /sys/module/zswap/parameters/enabled
info "zswap enabled: $(cat /sys/module/zswap/parameters/enabled 2>&1)"

sw=/proc/sys/vm/swappiness
orig=$(cat $sw)
info "swappiness at boot: $orig"
check "write swappiness 200" sh -c "echo 200 > $sw"
check "read back 200" test "$(cat $sw)" = 200
check "write swappiness 0" sh -c "echo 0 > $sw"
check "read back 0" test "$(cat $sw)" = 0
if sh -c "echo 201 > $sw" 2>/dev/null; then fail "swappiness 201 was accepted"; else pass "swappiness 201 is refused"; fi
check "restore swappiness $orig" sh -c "echo $orig > $sw"
check "swappiness is $orig again" test "$(cat $sw)" = "$orig"
check "systemd-run works (dbus)" systemd-run --wait --quiet --collect /bin/true

# --- 2. the unit's sandbox ------------------------------------------------------------------------
# The probe runs under a unit built from the real one: only ExecStart=, Type= and what a
# oneshot cannot have (ExecReload=, WatchdogSec=, Restart=) change; every sandbox line is kept.
cat >/run/asw-probe.sh <<'EOF'
#!/bin/sh
# Each line: NAME ok|fail[: error]
out=$RUNTIME_DIRECTORY/probe-$PROBE.txt
: >"$out"
r() {
	name=$1; shift
	if err=$("$@" 2>&1); then echo "$name ok" >>"$out"; else echo "$name fail: $err" >>"$out"; fi
}
sw=/proc/sys/vm/swappiness
orig=$(cat $sw)
r write_swappiness sh -c "echo 133 > $sw"
r readback_133 test "$(cat $sw)" = 133
r restore_swappiness sh -c "echo $orig > $sw"
r write_overcommit sh -c "echo $(cat /proc/sys/vm/overcommit_memory) > /proc/sys/vm/overcommit_memory"
r read_meminfo grep -q '^MemTotal:' /proc/meminfo
r read_vmstat grep -q '^pgscan_kswapd ' /proc/vmstat
r read_psi grep -q '^some ' /proc/pressure/memory
r read_swaps cat /proc/swaps
r read_sys_kernel_mm ls /sys/kernel/mm/transparent_hugepage
r read_zswap cat /sys/module/zswap/parameters/enabled
# PSI triggers through perl for the real errno (dash reports every write error as "I/O error").
r psi_trigger_1s perl -e 'open(my $f, ">", "/proc/pressure/memory") or die "open: $!\n"; defined(syswrite($f, "some 150000 1000000\n")) or die "write: $!\n"'
r psi_trigger_2s perl -e 'open(my $f, ">", "/proc/pressure/memory") or die "open: $!\n"; defined(syswrite($f, "some 150000 2000000\n")) or die "write: $!\n"'
# Raw x86_64 syscalls through perl-base: mlockall=151, setrlimit=160, prlimit64=302, socket=41.
r mlockall perl -e 'syscall(151, 3) == 0 or die "mlockall(MCL_CURRENT|MCL_FUTURE): $!\n"'
r mlockall_onfault perl -e 'syscall(151, 7) == 0 or die "mlockall(...|MCL_ONFAULT): $!\n"'
# 6 MB of heap (12 MB at the peak) and then mlockall: above a 4 MB RLIMIT_MEMLOCK only
# CAP_IPC_LOCK lets it through.
r mlockall_6m perl -e '$x = "a" x (6<<20); syscall(151, 3) == 0 or die "mlockall(MCL_CURRENT|MCL_FUTURE) with 6 MB heap: $!\n"'
r setrlimit_syscall perl -e '$b = pack("QQ", 32<<20, 32<<20); syscall(160, 8, $b) == 0 or die "setrlimit(RLIMIT_MEMLOCK): $!\n"'
r prlimit64_syscall perl -e '$b = pack("QQ", 32<<20, 32<<20); syscall(302, 0, 8, $b, 0) == 0 or die "prlimit64(RLIMIT_MEMLOCK): $!\n"'
r socket_inet perl -e 'syscall(41, 2, 1, 0) >= 0 or die "socket(AF_INET): $!\n"'
r socket_unix perl -e 'syscall(41, 1, 1, 0) >= 0 or die "socket(AF_UNIX): $!\n"'
r write_runtime_dir sh -c "echo x > $RUNTIME_DIRECTORY/scratch"
r write_etc sh -c 'echo x > /etc/asw-probe'
r write_tmp sh -c 'echo x > /tmp/asw-probe'
r uid_0 test "$(id -u)" = 0
echo "caps $(grep CapEff /proc/self/status)" >>"$out"
echo "limit_memlock $(grep 'Max locked memory' /proc/self/limits | tr -s ' ')" >>"$out"
echo "visible_pids $(ls -d /proc/[0-9]* | wc -l)" >>"$out"
EOF
chmod 0755 /run/asw-probe.sh

# make_unit NAME EXECSTART [EXTRA-SED...]: /run/systemd/system/NAME.service from the real unit.
make_unit() {
	local name=$1 exec=$2
	shift 2
	sed -e "s|^ExecStart=.*|ExecStart=$exec|" \
		-e 's|^Type=notify$|Type=oneshot|' \
		-e '/^ExecReload=/d' -e '/^WatchdogSec=/d' -e 's|^Restart=.*|Restart=no|' \
		-e "s|^Description=.*|Description=autoswappiness sandbox probe ($name)|" \
		"$@" "$unit_src" >"/run/systemd/system/$name.service"
}

if [[ ! -f $unit_src ]]; then
	fail "$unit_src missing: smoke.sh copies systemd/autoswappiness.service there"
else
	mkdir -p /run/systemd/system
	make_unit asw-probe "/usr/bin/env PROBE=sandbox /bin/sh /run/asw-probe.sh"
	make_unit asw-probe-norwpaths "/usr/bin/env PROBE=norwpaths /bin/sh /run/asw-probe.sh" \
		-e '/^ReadWritePaths=/d'
	# Both with a 4 MB memlock limit, to show whether CAP_IPC_LOCK still counts.
	make_unit asw-probe-lowlimit "/usr/bin/env PROBE=lowlimit /bin/sh /run/asw-probe.sh" \
		-e 's|^LimitMEMLOCK=.*|LimitMEMLOCK=4M|'
	make_unit asw-probe-privusers "/usr/bin/env PROBE=privusers /bin/sh /run/asw-probe.sh" \
		-e 's|^LimitMEMLOCK=.*|LimitMEMLOCK=4M|' \
		-e 's|^NoNewPrivileges=yes$|NoNewPrivileges=yes\nPrivateUsers=yes|'
	check "PrivateUsers=yes added to the probe unit" grep -q '^PrivateUsers=yes' /run/systemd/system/asw-probe-privusers.service
	systemctl daemon-reload
	bad=$(journalctl -b -q --no-pager -o cat | grep -E 'asw-probe.*(Unknown|ignoring|Failed to parse)' || true)
	if [[ -z $bad ]]; then pass "systemd 252 accepts every line of the unit"; else fail "unit warnings: $bad"; fi

	for u in asw-probe asw-probe-norwpaths asw-probe-lowlimit asw-probe-privusers; do
		systemctl start "$u.service" || info "systemctl start $u failed: $(systemctl status --no-pager -n 20 "$u.service" 2>&1)"
	done
	# Control: the same probe as plain root, outside any sandbox.
	mkdir -p /run/asw-control
	RUNTIME_DIRECTORY=/run/asw-control PROBE=control /bin/sh /run/asw-probe.sh

	res() { grep -h "^$2 " "/run/$1.txt" 2>/dev/null | head -n 1; }
	expect() { # FILE PROBE ok|fail [ERROR-SUBSTRING]
		local line
		line=$(res "$1" "$2")
		if [[ $line == "$2 $3"* && ( -z ${4:-} || $line == *"$4"* ) ]]; then
			pass "$1: $2 $3${4:+ ($4)}"
		else
			fail "$1: expected '$2 $3${4:+ ... $4}', got '${line:-nothing}'"
		fi
	}
	s=autoswappiness/probe-sandbox
	expect $s write_swappiness ok
	expect $s readback_133 ok
	expect $s restore_swappiness ok
	expect $s write_overcommit fail "Read-only file system"
	for k in read_meminfo read_vmstat read_psi read_swaps read_sys_kernel_mm read_zswap \
		mlockall mlockall_onfault prlimit64_syscall socket_unix write_runtime_dir uid_0; do
		expect $s $k ok
	done
	expect $s setrlimit_syscall fail "Operation not permitted"
	expect $s socket_inet fail
	expect $s write_etc fail "Read-only file system"
	expect $s write_tmp ok # PrivateTmp=: its own /tmp
	expect autoswappiness/probe-norwpaths write_swappiness fail "Read-only file system"
	# Without CAP_SYS_RESOURCE the kernel (Debian 12's 6.1) takes only PSI trigger windows that
	# are multiples of 2 s; anything else is EINVAL.
	expect $s psi_trigger_1s fail "Invalid argument"
	expect $s psi_trigger_2s ok
	expect $s mlockall_6m ok
	expect autoswappiness/probe-lowlimit mlockall_6m ok # CAP_IPC_LOCK lifts the limit
	# PrivateUsers=yes maps root to root, so the sysctl write still works; but CAP_IPC_LOCK then
	# holds only inside the user namespace and mlockall is bound by RLIMIT_MEMLOCK.
	expect autoswappiness/probe-privusers write_swappiness ok
	expect autoswappiness/probe-privusers write_overcommit fail "Read-only file system"
	expect autoswappiness/probe-privusers mlockall_6m fail "Cannot allocate memory"
	expect asw-control/probe-control write_overcommit ok
	expect asw-control/probe-control psi_trigger_1s ok
	for f in autoswappiness/probe-sandbox autoswappiness/probe-norwpaths autoswappiness/probe-lowlimit \
		autoswappiness/probe-privusers asw-control/probe-control; do
		info "--- $f"
		sed 's/^/info:   /' "/run/$f.txt" 2>/dev/null || info "  (no results: /run/$f.txt missing)"
	done
	check "swappiness is $orig after the probes" test "$(cat $sw)" = "$orig"

	# --- the state record survives a crash and the automatic restart ---------------------------
	cat >/run/asw-crash.sh <<'EOF'
#!/bin/sh
# First run: record, then die like a crash. Second run (automatic restart): report the record.
f=$RUNTIME_DIRECTORY/original
if [ -e "$f" ]; then
	echo "survived $(cat "$f")" >"$RUNTIME_DIRECTORY/restart-result"
	sleep 2 # time for the test to read the result before Preserve=restart removes it
	exit 0
fi
echo 42 >"$f"
kill -KILL $$
EOF
	for mode in yes restart; do
		name=asw-crash-$mode
		make_unit $name "/bin/sh /run/asw-crash.sh" \
			-e 's|^Restart=no$|Restart=on-failure|' -e 's|^RestartSec=.*|RestartSec=1s|' \
			-e "s|^RuntimeDirectoryPreserve=.*|RuntimeDirectoryPreserve=$mode|" \
			-e "s|^RuntimeDirectory=.*|RuntimeDirectory=$name|"
		systemctl daemon-reload
		rm -rf "/run/$name"
		systemctl start $name.service 2>/dev/null || true # the first run "crashes"
		for _ in $(seq 30); do [[ -e /run/$name/restart-result ]] && break; sleep 0.5; done
		result=$(cat "/run/$name/restart-result" 2>&1)
		restarts=$(systemctl show -P NRestarts $name.service) # before the inactive unit is unloaded
		for _ in $(seq 20); do
			case $(systemctl show -P ActiveState $name.service) in inactive | failed) break ;; esac
			sleep 0.5
		done
		info "RuntimeDirectoryPreserve=$mode: restarts=$restarts result after restart: $result"
		check "Preserve=$mode: the record survives the crash and the automatic restart" test "$result" = "survived 42"
		if [[ $mode == yes ]]; then
			check "Preserve=yes: the record is still there after the unit stopped" test -e /run/$name/original
		else
			check "Preserve=restart: the directory is gone once the unit stopped" test ! -e /run/$name
		fi
	done
fi

info "guest.sh done at $(cut -d' ' -f1 /proc/uptime) s of uptime"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
