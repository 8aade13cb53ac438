#!/usr/bin/python3
"""Figures from a tests/vm/psi-reaction.sh run: psi_reaction.py DIR (events.tsv, journal.json).

Per psi_trigger_ms: for each spike, the ms from the stall's onset (the first 10 ms of "some",
as guest-e2e.sh step 10 sees it) to the first trigger record and to the first poll (decision
record) after it by journald's clock, whether that poll was the trigger's, and to the daemon's
first wake-up by the guest script's clock (awake; runs before it have none): the reaction,
which journald's timestamps overstate under pressure. Per idle window, the trigger records and
polls per minute. Then the gaps between consecutive trigger records, which show the
kernel's checking period."""
import json
import statistics
import sys
from collections import defaultdict

MSGID_DECISION = "5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7"
TRIGGER_PREFIX = "PSI trigger: memory stall over"


def load(directory):
    polls, fires = [], []
    with open(f"{directory}/journal.json", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            ts_us = int(rec["__REALTIME_TIMESTAMP"])
            msg = rec.get("MESSAGE", "")
            if rec.get("MESSAGE_ID") == MSGID_DECISION:
                polls.append(ts_us)
            elif isinstance(msg, str) and msg.startswith(TRIGGER_PREFIX):
                fires.append(ts_us)
    events = []
    with open(f"{directory}/events.tsv", encoding="utf-8") as f:
        for line in f:
            events.append(line.rstrip("\n").split("\t"))
    return sorted(polls), sorted(fires), events


def us(field):
    """Microseconds since the epoch; runs before 571dfff wrote nanoseconds."""
    v = int(field)
    return v // 1000 if v > 10**17 else v


def first_at_or_after(times, t):
    return next((x for x in times if x >= t), None)


def main():
    directory = sys.argv[1]
    polls, fires, events = load(directory)
    reaction = defaultdict(list)
    idle = defaultdict(lambda: [0.0, 0, 0, 0])
    print("spikes (ms; onset = first 10 ms of 'some' stall, as step 10):")
    print("value round onset_into_spike trigger_after_onset poll_after_onset poll_by awake_after_onset")
    for ev in events:
        kind, value, rnd = ev[0], int(ev[1]), int(ev[2])
        if kind == "idle":
            i0, i1, w0, w1 = us(ev[3]), us(ev[4]), int(ev[5]), int(ev[6])
            acc = idle[value]
            acc[0] += (i1 - i0) / 60e6
            acc[1] += sum(1 for x in fires if i0 <= x < i1)
            acc[2] += sum(1 for x in polls if i0 <= x < i1)
            acc[3] += w1 - w0
            continue
        t0, stalled = us(ev[3]), us(ev[4])
        if stalled == 0:
            print(f"{value:5} {rnd:5} no stall")
            continue
        fire = first_at_or_after(fires, stalled)
        poll = first_at_or_after(polls, stalled)
        # The trigger's poll is logged right after its record (same loop iteration).
        by = "trigger" if fire is not None and poll is not None and 0 <= poll - fire < 100000 else "timer"
        f_ms = (fire - stalled) / 1000 if fire else float("nan")
        p_ms = (poll - stalled) / 1000 if poll else float("nan")
        woke = us(ev[6]) if len(ev) > 6 else 0
        a_ms = (woke - stalled) / 1000 if woke else float("nan")
        reaction[value].append(a_ms if woke else p_ms)
        print(f"{value:5} {rnd:5} {(stalled - t0) / 1000:16.0f} {f_ms:19.0f} {p_ms:16.0f} {by:7} {a_ms:17.0f}")
    print()
    print("per value: reaction (awake after onset, else poll after onset; ms), median, max,"
          " share <= 1000 ms; idle per minute")
    for value in sorted(set(reaction) | set(idle), reverse=True):
        r = sorted(reaction[value])
        acc = idle[value]
        mins = acc[0] or float("nan")
        line = f"psi_trigger_ms {value:4}: "
        if r:
            line += (f"reaction {', '.join(f'{x:.0f}' for x in r)}; median {statistics.median(r):.0f}, "
                     f"max {max(r):.0f}, {sum(1 for x in r if x <= 1000)}/{len(r)} within 1 s; ")
        line += (f"idle: {acc[1] / mins:.1f} trigger wake-ups/min, {acc[2] / mins:.1f} polls/min, "
                 f"{acc[3] / mins:.1f} voluntary switches/min over {mins:.1f} min")
        print(line)
    gaps = [round((b - a) / 1000) for a, b in zip(fires, fires[1:]) if b - a < 10_000_000]
    if gaps:
        print()
        print(f"gaps between consecutive trigger records under 10 s (ms), {len(gaps)}: "
              f"min {min(gaps)}, median {statistics.median(gaps):.0f}; "
              f"{sum(1 for g in gaps if g < 1900)} under 1900 ms")


if __name__ == "__main__":
    main()
