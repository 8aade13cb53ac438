# Sourced by run.sh (issue 14, the daemon's part). Uses run.sh's helpers and
# fakes; leaves the knob at 60 and no daemon running.

# --- a failed reload says how many errors did not fit in its record --------------------
cp "$CONF/fast.conf" "$CONF/live.conf"
{
	echo "[limits]"
	for i in $(seq 150); do echo "an_unknown_key_with_a_long_name_$i = 1"; done
} >"$CONF/many-errors.conf"
# shown_plus_more LOG: the error lines shown plus "N more" add up to the count.
shown_plus_more() {
	local shown more total
	shown=$(grep -c "unknown key 'an_unknown_key_with_a_long_name_" "$1" || true)
	more=$(sed -n 's/^\.\.\. and \([0-9]*\) more errors not shown.*/\1/p' "$1")
	total=$(sed -n 's/.*(\([0-9]*\) errors):$/\1/p' "$1" | head -n1)
	[ -n "$more" ] && [ "$more" -gt 0 ] && [ "$((shown + more))" = "$total" ] && [ "$total" = 150 ]
}
expect_rc 78 "a start with 150 errors" "$BIN" --foreground -c "$CONF/many-errors.conf"
check "the start record says how many errors it left out" shown_plus_more "$WORK/err"
start_daemon -c "$CONF/live.conf"
check "daemon up (many errors test)" wait_for 15 knob_is 23
cp "$CONF/many-errors.conf" "$CONF/live.conf"
kill -HUP "$DPID"
check "the failed reload is logged" wait_for 15 log_has "keeping the running configuration (150 errors)"
check "the reload record says how many errors it left out" wait_for 15 shown_plus_more "$WORK/daemon.log"
stop_daemon TERM || true
