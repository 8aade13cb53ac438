#!/usr/bin/python3
"""Prints a synthetic replay trace of the "alternating" world (tests/data/traces/README) at
static vm.swappiness 60 or 200:

    tests/replay/synth-alternating.py 60 >tests/data/traces/alternating-s60.csv
    tests/replay/synth-alternating.py 200 >tests/data/traces/alternating-s200.csv

A data-processing job larger than RAM on disk swap (issue 46, item 2), as its journal under the
workingset policy described it: at a low value the kernel throws away file pages that the job
reads again ("file +120 to 200: working set refaults anon 80/s, file 406/s"), at a high value
it swaps out the job's own anonymous pages, which come straight back ("anonymous -40 to 60:
anon 1352/s, file 13/s"). The job took 149 s at static 60 and over 240 s at static 200. Rows
are 1 s apart with constant rates, in the bench guest's sizes (MemTotal 208,460 KiB, 1 GiB of
disk swap). Deterministic: the same setting prints the same bytes."""
import sys

MEMTOTAL = 208460
SWAPTOTAL = 1048572
COLS = ("t_ms,phase,swappiness,memtotal_kb,memfree_kb,buffers_kb,cached_kb,shmem_kb,mapped_kb,"
        "swaptotal_kb,swapfree_kb,pgscan,pgsteal,pswpin,pswpout,refault_anon,refault_file,"
        "psi_some_us,psi_full_us,psi_some_avg10_centipct,swap_devices,swap_zram,zswap,"
        "activate_anon,activate_file")
# Per second in the run: pgscan, pgsteal, pswpin, pswpout, refault_anon, refault_file,
# psi some us, psi full us, activate_anon, activate_file. The activations are the journal's;
# the refaults a little above them (not every refault activates); swap-ins as the anonymous
# refaults; PSI some 30% at 60 and 60% at 200.
RATES = {
    60: (12000, 9000, 150, 600, 150, 600, 300000, 100000, 80, 406),
    200: (15000, 9000, 1400, 1800, 1450, 30, 600000, 300000, 1352, 13),
}
# Rows of the run: 149 s at 60, 240 s at 200 (the job's times).
RUN_ROWS = {60: 149, 200: 240}
PRE_ROWS, POST_ROWS = 3, 2


def main():
    if len(sys.argv) != 2 or int(sys.argv[1]) not in RATES:
        sys.exit("usage: synth-alternating.py 60|200")
    setting = int(sys.argv[1])
    rates = RATES[setting]
    print(f"# replay trace: synthetic, the alternating world at static vm.swappiness {setting} on disk swap,")
    print("# printed by tests/replay/synth-alternating.py (issue 46 item 2: file refaults when the value")
    print("# is low, anonymous refaults when it is high)")
    print(COLS)
    # Counters start where a machine that has run a while might be; swap fills as the run goes.
    ctr = [300000, 90000, 3000, 80000, 3000, 11000, 10000000, 4000000, 60, 7000]
    swapfree = SWAPTOTAL * 70 // 100
    rows = [("pre", False)] * PRE_ROWS + [("run", True)] * RUN_ROWS[setting] + [("post", False)] * POST_ROWS
    for i, (phase, busy) in enumerate(rows):
        if busy and i > PRE_ROWS:
            ctr = [c + r for c, r in zip(ctr, rates)]
        avg10 = (rates[6] // 100) if busy else 0
        # 8% of RAM in page cache that no process maps (cached + buffers - mapped - shmem): under
        # the 10% above which workingset's bias does not rise, over the 5% under which sparing
        # the cache would.
        fields = [i * 1000, phase, setting, MEMTOTAL, 4000, 500, 25000, 2400, 6000, SWAPTOTAL, swapfree,
                  ctr[0], ctr[1], ctr[2], ctr[3], ctr[4], ctr[5], ctr[6], ctr[7], avg10, 1, 0, 0, ctr[8], ctr[9]]
        print(",".join(str(f) for f in fields))


main()
