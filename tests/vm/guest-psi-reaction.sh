#!/bin/bash
# Runs inside the VM (tests/vm/psi-reaction.sh puts it there): measures, in one boot, how soon
# the daemon polls after tasks start to stall on memory, and how often its PSI trigger wakes it
# on an idle guest, for each psi_trigger_ms in $SHARE/values (one line, e.g. "200 100 50 20").
# The spike and the stall probe are those of guest-e2e.sh step 10. The values are rotated
# within each round, so a slow spell of the host spreads over all of them.
#
# Writes $SHARE/events.tsv (one line per idle window and per spike, wall clock in us) and
# $SHARE/journal.json (the unit's records); tests/vm/psi_reaction.py reads them.
set -uo pipefail

SHARE=/mnt/share
UNIT=autoswappiness
DROPIN=/etc/autoswappiness.conf.d/60-psi.conf
read -r -a VALUES <"$SHARE/values"
ROUNDS=$(cat "$SHARE/rounds")
IDLE_S=$(cat "$SHARE/idle_s")
EV=$SHARE/events.tsv

say() { echo "psi-reaction: $* (uptime $(cut -d' ' -f1 /proc/uptime) s)"; }
die() { say "FATAL: $*"; exit 1; }
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.5
	done
}
main_pid() { systemctl show -p MainPID --value $UNIT; }
psi_some() { awk '$1 == "some" { for (i = 2; i <= NF; i++) if ($i ~ /^total=/) print substr($i, 7) }' /proc/pressure/memory; }
ctxt() { awk '/^voluntary_ctxt_switches:/ {print $2}' /proc/"$(main_pid)"/status; }

{ mkswap /dev/vdb >/dev/null && swapon /dev/vdb; } || die "no swap on /dev/vdb"
debs=("$SHARE"/autoswappiness_*.deb)
cp -- "${debs[0]}" /tmp/ || die "no package in $SHARE"
mkdir -p /var/cache/apt/archives/partial /var/lib/apt/lists/partial
DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/${debs[0]##*/}" >/tmp/apt.log 2>&1 ||
	{ cat /tmp/apt.log; die "apt-get install failed"; }
systemctl stop $UNIT
# As in guest-e2e.sh steps 9 and 10: ck, and -v so that every poll is a journal record.
mkdir -p /etc/autoswappiness.conf.d /run/systemd/system/$UNIT.service.d
printf '[policy]\nname = ck\n' >/etc/autoswappiness.conf.d/50-ck.conf
printf '[Service]\nExecStart=\nExecStart=/usr/sbin/autoswappiness -v\n' >/run/systemd/system/$UNIT.service.d/50-verbose.conf
# interval_ms from $SHARE/interval_ms, if any: a long calm interval leaves the trigger alone to
# wake the daemon, which isolates it.
INTERVAL=$(cat "$SHARE/interval_ms" 2>/dev/null || true)
dropin() {
	printf '[daemon]\npsi_trigger_ms = %s\n' "$1"
	[ -z "$INTERVAL" ] || printf 'interval_ms = %s\n' "$INTERVAL"
}
dropin "${VALUES[0]}" >$DROPIN
systemctl daemon-reload
systemctl start $UNIT
wait_for 30 bash -c "systemctl is-active -q $UNIT" || die "the unit did not start"
T_START=$(date +%s)
mem_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
spike_mib=$((mem_kib * 13 / 10 / 1024))
say "values ${VALUES[*]}, interval_ms ${INTERVAL:-default}, $ROUNDS rounds, ${IDLE_S} s idle each, spikes of $spike_mib MiB"

# The probe below forks nothing: under this pressure a fork (date, awk, sleep, systemctl) takes
# a good part of a second, which would blur the figures. Microseconds since the epoch:
now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; }
# "some" total in microseconds, and the daemon's voluntary context switches, into REPLY.
psi_some_b() {
	local k rest
	while read -r k rest; do
		[ "$k" = some ] && { REPLY=${rest##*total=}; return; }
	done </proc/pressure/memory
}
ctxt_b() {
	local k v
	while read -r k v; do
		[ "$k" = voluntary_ctxt_switches: ] && { REPLY=$v; return; }
	done <"/proc/$1/status"
}
exec {nap_fd}<> <(:) # read -t on a pipe that never has data: a sleep without a fork

# One pass of 1.3x RAM, as step 10. Prints its start, the stall's onset (10 ms of "some" since
# the start, as step 10), its end, and when the daemon was first seen to have slept again
# after the onset (its voluntary context switches), all in microseconds of the guest's clock,
# not journald's: journald stamps a record when it gets to it, up to a second late here.
spike() {
	local s0 t0 now stalled="" woke="" c0="" dpid pid
	pid=$(main_pid)
	psi_some_b
	s0=$REPLY
	t0=$(now_us)
	$SHARE/dirtier "$spike_mib" 1 >/dev/null 2>&1 &
	dpid=$!
	# The probe stops reading the file once it has the onset: a read of /proc/pressure/memory
	# updates the averages, and an unprivileged trigger is checked only when the averaging
	# worker finds them due (every 2 s), so reads are kept out of the spike.
	while kill -0 $dpid 2>/dev/null && [ -z "$woke" ]; do
		now=${EPOCHREALTIME/./}
		if [ -z "$stalled" ]; then
			psi_some_b
			if [ $((REPLY - s0)) -ge 10000 ]; then
				stalled=$now
				ctxt_b "$pid"
				c0=$REPLY
			fi
		else
			ctxt_b "$pid"
			[ "$REPLY" = "$c0" ] || woke=$now
		fi
		read -rt 0.02 -u "$nap_fd"
	done
	wait $dpid
	echo "$t0 ${stalled:-0} $(now_us) ${woke:-0}"
}

say "warm-up spike (so that every idle window follows a thrash, as in the e2e)"
spike >/dev/null
sleep 10
prev=${VALUES[0]}
for round in $(seq "$ROUNDS"); do
	for ((k = 0; k < ${#VALUES[@]}; k++)); do
		v=${VALUES[$(((k + round - 1) % ${#VALUES[@]}))]}
		if [ "$v" != "$prev" ]; then
			T=$(date +%s)
			dropin "$v" >$DROPIN
			systemctl reload $UNIT || die "reload to $v failed"
			wait_for 20 bash -c "journalctl -u $UNIT --no-pager --since @$T | grep -q 'PSI trigger armed: some $v ms per 2000 ms'" ||
				die "the trigger was not re-armed with $v"
			prev=$v
		fi
		sleep 10 # calm down: the busy pace ends, the trigger's once-per-window passes
		w0=$(ctxt)
		i0=$(now_us)
		sleep "$IDLE_S"
		i1=$(now_us)
		w1=$(ctxt)
		printf 'idle\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$round" "$i0" "$i1" "$w0" "$w1" >>$EV
		read -r t0 stalled t1 woke < <(spike)
		printf 'spike\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$round" "$t0" "$stalled" "$t1" "$woke" >>$EV
		say "round $round, psi_trigger_ms $v: onset $(((stalled - t0) / 1000)) ms into the spike," \
			"daemon awake $(((woke - stalled) / 1000)) ms after it, spike $(((t1 - t0) / 1000)) ms"
	done
done
sleep 2 # the journal takes the last records
journalctl -u $UNIT --no-pager -o json --since "@$T_START" --output-fields=MESSAGE,MESSAGE_ID,PRIORITY >$SHARE/journal.json
say "done: $(wc -l <$EV) events, $(wc -l <$SHARE/journal.json) journal records"
systemctl stop $UNIT
