# The regulator's rise after a fall (include/regulator.h, REGULATOR_TURN_S and _MUL), through
# the real binary, sourced by run.sh: a rise within 10 s of a write down needs 3 times the
# step, the log and STATUS= say so, and the rise is written once the fall is 10 s old.
# Uses run.sh's helpers (check, wait_for, start_daemon, fake_meminfo, ...).

printf '[policy]\nname = ck\n[daemon]\ninterval_ms = 100\n' >"$CONF/turn.conf" # step 20, as shipped
# ck = min(app, swap free): 40% and 23% -> 23, a fall of 37 from 60, written.
fake_meminfo 1000000 300000 50000 250000 0 100000 1000000 230000
fake_vmstat 0 0 0 0 0
set_knob 60
start_daemon -c "$CONF/turn.conf"
check "turn: the fall is written at once" wait_for 15 decided 23
# app 45%, swap free 50% -> 45: a rise of 22, over the step (20), under three times it (60).
fake_meminfo 1000000 250000 50000 250000 0 100000 1000000 500000
held='swappiness stays 23 (ck: min(app 45%, swap free 50%); below-step 60: a rise within 10 s of a fall)'
check "turn: the rise right after it is held, and the log says why" wait_for 5 log_has "$held"
check "turn: the held rise leaves the knob at 23" knob_is 23
check "turn: the rise is written once the fall is 10 s old" wait_for 30 decided 45
check "turn: after the write no rise is held any more" \
	bash -c "! sed -n '/swappiness 23 -> 45 (/,\$p' '$WORK/daemon.log' | grep -q 'a rise within 10 s of a fall'"
stop_term_ok "turn"
check "turn: the knob is restored" knob_is 60
