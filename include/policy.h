/* Policies: sample(s) + configuration -> target swappiness and its reasons. Pure. */
#ifndef AUTOSWAPPINESS_POLICY_H
#define AUTOSWAPPINESS_POLICY_H

#include "sample.h"

enum policy_kind {
	POLICY_CK,
	POLICY_TENDENCY,
	POLICY_ADAPTIVE,
	POLICY_WORKINGSET,
	POLICY_DEVICE,
	POLICY_COUNT,
};

/* The smallest scan that says anything about reclaim efficiency: SWAP_CLUSTER_MAX,
 * the batch the kernel's reclaim works in (include/linux/swap.h). */
#define POLICY_MIN_SCAN_PAGES 32

/*
 * The adaptive controller (autoswappiness(7), THE ADAPTIVE POLICY, says where each
 * number comes from; the traces named are tests/data/traces, recorded in the
 * 256 MB disk-swap guest of `make bench`). It tests its own effect: it raises the
 * value while swapping costs nothing, goes back to the neutral value N at the
 * first swap-ins, and keeps the higher value only when going back does not make
 * the swap-ins fall.
 *
 * A poll with all rates below ACTIVE_PPS pages per second is quiet: 64 pages
 * (256 KiB) a second is what an idle machine's page cache churn stays under. The
 * same floor makes a poll busy for the daemon's pace.
 */
#define POLICY_ADAPTIVE_ACTIVE_PPS 64
/* A poll shows swap-ins from this rate on (swap-ins or anonymous refaults, the
 * larger). phased phase 1, which wants 200, peaks at 50/s at static 200 (one row;
 * 16/s at 100), phase 2 at static 200 shows 516/s on its second row. */
#define POLICY_ADAPTIVE_SWAPIN_PPS 128
/* Swapping is cheap when the kernel throws away needed cache (file refaults from
 * FILE_PPS on) or writes anonymous pages out (swap-outs from SWAPOUT_PPS on) and
 * no swap-ins come back. phased phase 1 at 100: 613-10,221 file refaults/s on the
 * polls that count, and 3,712-4,088 swap-outs/s; phase 2 at 0-100, which wants no
 * rise, at most 57 (100) and 475 (0, one row) file refaults/s and 280 swap-outs/s.
 * dirtier pass 1 at 100 swaps out 828-5,317 pages/s with at most 32 swap-ins/s. */
#define POLICY_ADAPTIVE_FILE_PPS 256
#define POLICY_ADAPTIVE_SWAPOUT_PPS 512
/* A rise or a probe needs its evidence in VOTES of the last WINDOW polls, and
 * the tests compare totals over VOTES polls, so that one noisy poll moves
 * nothing; only the return to N acts on one poll. */
#define POLICY_ADAPTIVE_WINDOW 3
#define POLICY_ADAPTIVE_VOTES 2
/* A rise is a large step: 100 to 200 in two polls (phased phase 1 at 200 takes
 * 14.2 s, at 100 18.6 s: each poll at 100 costs). */
#define POLICY_ADAPTIVE_RAISE_STEP 100
/* After RELAX_S seconds without reclaim, refaults or swap-ins, each quiet poll
 * moves the value RELAX_STEP towards N. Under pressure the guest stalls with
 * every counter near zero for up to 10 s (phased-s0, responsiveness-s0), which
 * must not undo what the controller learned. */
#define POLICY_ADAPTIVE_RELAX_S 30
#define POLICY_ADAPTIVE_RELAX_STEP 25
/* Swap-ins are elastic when, back at N, they fall to 1/ELASTIC_DIV of the rate
 * that set off the test. A higher value is dropped when swap-ins grow
 * ELASTIC_DIV times and so does their share of the swap-outs: more swap-outs
 * that do not come back are cold pages, and rates rise with progress. phased
 * phase 2: 1,018 swap-ins/s at 200 (0.56 a swap-out), 2/s at 100 (0.05);
 * where the anonymous set exceeds RAM they change by less: responsiveness pass 1
 * 1,114/s (0.27) at 200 and 285/s (0.15) at 100, pass 2 2,853/s and 2,273/s
 * (1.0 both), dirtier pass 2 2,931/s and 2,901/s (1.0 both). */
#define POLICY_ADAPTIVE_ELASTIC_DIV 2
/* A test back at N ends after at most TEST_POLLS polls; undecided, N stays. While
 * the pages swapped out at the higher value come back in, swap-ins stay high at
 * N without swap-outs to match, which decides nothing. */
#define POLICY_ADAPTIVE_TEST_POLLS 5
/* A higher value that the swap-ins did not answer is held HOLD_S seconds before
 * the next poll with swap-ins tests it again, doubled for each such finding in a
 * row up to MAX_STRIKES doublings (1 .. 16 min): each test costs polls at N. */
#define POLICY_ADAPTIVE_HOLD_S 60
/* After a test finds that a higher value costs swap-ins, no rise or probe for
 * BACKOFF_S seconds, doubled for each such finding in a row up to MAX_STRIKES
 * doublings (30 s .. 8 min), so that a load that wants neither value does not
 * swing between them; a relax forgets it. */
#define POLICY_ADAPTIVE_BACKOFF_S 30
#define POLICY_ADAPTIVE_MAX_STRIKES 4
/* Free swap caps the target at SWAP_CAP_MUL times swap_centile: 200 while half
 * of the swap is free, 100 at a quarter, 0 with none. */
#define POLICY_ADAPTIVE_SWAP_CAP_MUL 4

/*
 * The tendency policy follows 2.6's formula only while the kernel reclaims: the
 * kernel read swap_tendency in reclaim and nowhere else, and a value computed on
 * an idle machine (ck alone, 26-29 on the benchmark's guests) is what the first
 * second of the next burst of pressure runs at (phased phase 1 and dirtier pass 1
 * at 29 for their first poll). A poll without reclaim (fewer than MIN_SCAN_PAGES
 * scanned) and without a memory stall keeps the value in effect; until the first
 * reclaim that is the value the daemon found.
 * At the top of its range it holds a fall for TENDENCY_TOP_HOLD_S seconds after
 * the formula last asked for the top: distress swings from poll to poll while
 * reclaim goes on (phased phase 1 on disk: 100 85 100 100 70 35 100), and each
 * dip below the top costs the work that wants it. Below the top it follows the
 * formula at once: a hold there raises the level, which zram's phase 2 pays for. (The
 * regulator holds back a rise soon after a write down instead, which keeps the lower
 * value: include/regulator.h, REGULATOR_TURN_S.)
 */
#define POLICY_TENDENCY_TOP_HOLD_S 3

/*
 * Sparing the cache (the tendency policy with max = auto on disk swap, where auto's top
 * is 100, on a kernel that takes 200; not with zswap's 133, which the benchmark has not
 * measured: decide_spare_top). Since Linux 5.8 the kernel weighs file pages
 * at 200 - swappiness, so only 200 keeps reclaim off them entirely. That wins where the
 * file side has nothing left to give but the running programs' text: the page cache
 * that no process maps (Cached + Buffers - Mapped - Shmem) is below SPARE_FLOOR_PCT of
 * MemTotal while anonymous pages go out to swap and do not come back. The benchmark's
 * disk guest (tests/data/traces): dirtier 0-1% at 100 and 200, compile 1-4%,
 * responsiveness 0-1%; there, at 100, Mapped falls from 9-10 MB to 5-6 MB and about
 * 1,100 file refaults follow, which 200 avoids (dirtier: 200 best by 1.17 against 100).
 * Where a file set is read (phased phase 1 at 100: 15-22%) or streamed (phase 2 at 100:
 * 8-14%), 200 would swap out the programs' working set for it, so the rule stays out.
 * The evidence is that of the adaptive policy's rise: swap-outs from
 * POLICY_ADAPTIVE_SWAPOUT_PPS on, swap-ins below POLICY_ADAPTIVE_SWAPIN_PPS, in
 * POLICY_ADAPTIVE_VOTES of the last POLICY_ADAPTIVE_WINDOW polls, or in one poll with
 * SPARE_SURGE_PPS swap-outs a second.
 * The value drops back to the top of auto's range at the first poll where the unmapped
 * cache reaches SPARE_CEIL_PCT (at 200 the kernel keeps what is read: compile at 200
 * holds 3-5%, and phase 2 at 200 35%, the stream), or where swap-ins reach
 * POLICY_ADAPTIVE_SWAPIN_PPS; then no rise for POLICY_ADAPTIVE_BACKOFF_S seconds
 * (dirtier pass 2 swaps in 1,000-5,000 pages/s at 100 and at 200 alike). After
 * SPARE_RELAX_S seconds without swap-outs it drops back too, so that the next burst of
 * pressure starts from the top of auto's range, not from 200; and while less than
 * SPARE_SWAP_FREE_PCT of the swap is free, as the adaptive policy's cap does (at 200
 * the kernel would keep pushing anonymous pages at a swap that fills).
 */
#define POLICY_SPARE_FLOOR_PCT 5
#define POLICY_SPARE_CEIL_PCT 10
#define POLICY_SPARE_RELAX_S 10
#define POLICY_SPARE_SWAP_FREE_PCT 50
/* One poll of the evidence with SURGE_PPS swap-outs a second or more counts as both votes
 * (bench/EXPERIMENTS.md, spare-surge-2026-12-05). The dirtier's first pass on disk swap, which
 * 200 finishes in 3.2-3.5 s, swaps out 3,412-8,249 pages/s at 100 in the first second that
 * could make the rise; on two votes 200 came a poll later in 5 of 10 runs. One poll took it
 * to 200 on the second busy poll in 5 of 5 runs: pass 1 1.21 times static 200's time
 * (0.93-1.38) against 1.30 (1.24-1.41) with two votes in the boot beside it. The
 * responsiveness workload, where 200 costs the probe, gives it little under the daemon,
 * which is at 100 by then and brings its swap-ins sooner: one poll would have risen first in
 * 1 of 19 recorded runs, and rose in none of 5; at a static or pinned 60 in 16 of 47. */
#define POLICY_SPARE_SURGE_PPS 2048

/*
 * The workingset policy (autoswappiness(7), THE WORKINGSET POLICY): the tendency policy's
 * value plus a bias steered by the kernel's activations. The kernel counts a refault as an
 * activation (workingset_activate_anon/_file) when the page's refault distance was within
 * the working set: had its kind had the room the other kind holds, it would have stayed.
 * Anonymous refaults of a set larger than RAM are not activations (the dirtier: 16-104 of
 * 66,000-68,000 at 60 and 200), so the count separates refaults that a change of
 * vm.swappiness can avoid from those it cannot; at the slower static value of each
 * workload measured, the kind with more activations pointed to the faster value
 * (bench/EXPERIMENTS.md, workingset-2026-12-04).
 * A kind dominates when its activations over the last POLICY_ADAPTIVE_WINDOW polls come to
 * WS_MIN_PPS a second or more and WS_RATIO times the other kind's: totals, since they come
 * in bursts (the dirtier on disk at 60: 514, 34, 0 file activations a second on three
 * polls). While file ones dominate the bias grows by WS_STEP a poll (up to WS_HIGH); while
 * anonymous ones do it shrinks by as much (down to WS_LOW, or the formula if lower), and a
 * poll with WS_SNAP_PPS anonymous ones a second takes the value to WS_LOW at once: at a high
 * value the kernel swaps a new working set out as it is allocated (phased phase 2), and
 * each second there costs. The window starts afresh from that poll: the polls before it show
 * the file activations of the value it left, and kept, they raised it again on the next poll
 * of alike activations (issue 46 item 2). The falls after a snap keep the value at WS_LOW or
 * below until a rise: formula + bias may be above it, and there a fall raised the value (the
 * replay of responsiveness-act, max 200: 60 after a snap, then "anonymous -80 to 100").
 * Otherwise the bias is kept; it is forgotten after POLICY_ADAPTIVE_RELAX_S without reclaim.
 * Steps, not jumps between two values: a policy that jumped between 60 and 200 lost to
 * tendency's in-between values on a build beside a stream (0.98 of static 60 against 0.85).
 * The bias rises only while the page cache that no process maps is under
 * POLICY_SPARE_CEIL_PCT of MemTotal, and is dropped when it grows to that: with phase 1's
 * file set in the cache (15-22%), a run at 200 swapped out 17,500 pages of phase 2's new
 * working set in its first second, before the first anonymous activation. The window
 * starts afresh when the cache crosses that line, so that a freed file set's activations
 * do not raise the value in the next phase.
 * Measured in the guest of `make bench`, per second: the dirtier at 200, 0-85 anonymous
 * activations; responsiveness at 60 and 200, 400-3,800 anonymous and under 250 file; the
 * dirtier on zram at 60, 100-1,250 file.
 * With max = auto on disk swap the bias may lift the value above auto's top to 200, as
 * sparing the cache does (decide_spare_top).
 */
#define POLICY_WS_LOW 60
#define POLICY_WS_HIGH 200
#define POLICY_WS_MIN_PPS 128
#define POLICY_WS_RATIO 2
#define POLICY_WS_SNAP_PPS 512
#define POLICY_WS_STEP 40
/*
 * A rise is judged by what follows it (issue 46 item 2). A fall on anonymous activations
 * within WS_JUDGE_POLLS polls of the last rise, with at least as many of them a second as
 * there were file activations a second when it rose, says that the rise cost more than it
 * saved: the kernel swapped out the running program's pages to keep file pages, and they came
 * back. A third-party data job larger than RAM on disk swap swung between 60 and 200 every few
 * seconds that way ("file +120 to 200: working set refaults anon 80/s, file 406/s", then
 * "anonymous -40 to 60: anon 1,352/s, file 13/s"; 1.16 times static 60's time). Such a finding
 * is a strike: no rise for POLICY_ADAPTIVE_BACKOFF_S seconds, doubled for each strike in a row up
 * to POLICY_ADAPTIVE_MAX_STRIKES doublings (30 s .. 8 min, the adaptive policy's back-off): probe
 * slowly, back off fast, remember (the shape of Senpai in Meta's oomd). A rise that no such fall
 * follows takes one strike away; POLICY_ADAPTIVE_RELAX_S without reclaim, or the unmapped cache
 * crossing POLICY_SPARE_CEIL_PCT (another phase), forgets them all. Where the anonymous
 * activations after a rise are fewer than the file ones before it, the rise paid and is no
 * strike: a build on zram at 200 shows 100-410 anonymous a second, at 60 up to 1,215 file
 * (compile-act-zram), and static 200 is the faster there.
 * WS_JUDGE_POLLS: the pages a rise swaps out come back within 2 s (phased phase 2 at 200 on
 * disk: 893-1,162 anonymous activations a second two seconds after 17,500 pages went out), and a
 * fall on the window's means takes up to POLICY_ADAPTIVE_WINDOW polls of them to show.
 */
#define POLICY_WS_JUDGE_POLLS (POLICY_ADAPTIVE_WINDOW + 2)

/*
 * The device policy (autoswappiness(7), THE DEVICE POLICY): vm.swappiness is "the rough
 * relative IO cost of swapping and filesystem paging" (Documentation/admin-guide/sysctl/
 * vm.rst), so it sets that cost for the swap devices of each sample, policy_device_max,
 * and holds it; the kernel's own refault feedback (under the multi-gen LRU, the refault
 * rates weighed by swappiness and 200 - swappiness) adapts to the workload. Without swap
 * the value changes nothing, and the value in effect is kept.
 */

/* What the adaptive controller is doing. */
enum policy_mode {
	POLICY_MODE_FREE,      /* following the evidence: rise, hold, relax */
	POLICY_MODE_TEST_DOWN, /* back at N after swap-ins: do they fall? */
	POLICY_MODE_TEST_UP,   /* a probe above N while swap-ins persist at N: do they grow? */
	POLICY_MODE_HOLD,      /* a higher value that the swap-ins did not answer */
};

/* What the adaptive policy remembers between polls. Times are the samples' time_us. */
struct policy_state {
	bool has_value;
	int value; /* the value in effect after the regulator (policy_observe) */
	int top;   /* the top of the range it is kept in (policy_observe); 0: not known */
	/* The top of the configured range for this poll, before sparing the cache lifts it
	 * (decide sets it; 0: not known, then top). top is the last poll's, lifted or not. */
	int range_top;
	int knob;  /* the knob's value when this poll began (policy_begin; decide calls it) */
	uint64_t top_us; /* tendency: the last poll whose formula asked for the top */
	/* tendency and workingset, sparing the cache (and workingset's rise): the top it may
	 * raise the value to (decide sets it:
	 * 0, the rule is off), whether it has, the evidence of the last WINDOW polls (bit 0
	 * the newest), no rise before backoff_us, and the last poll with swap-outs. */
	int spare_top;
	bool spared;
	unsigned spare_votes;
	uint64_t spare_backoff_us;
	uint64_t spare_busy_us;
	enum policy_mode mode;
	int high;	     /* the value above N that is tested or held */
	unsigned test_polls; /* polls since the test began */
	unsigned votes_low;  /* in a test back at N: polls whose swap-ins fell */
	unsigned votes_high; /* in a test back at N: polls whose swap-ins came with swap-outs */
	uint64_t ref_in_pps; /* the swap-in and swap-out rates a test or hold compares with */
	uint64_t ref_out_pps;
	uint64_t hold_until_us;
	uint64_t backoff_until_us; /* no rise or probe before this */
	uint64_t busy_us;	   /* the last poll that was not quiet */
	unsigned strikes;	   /* findings in a row that a higher value costs swap-ins */
	unsigned holds;		   /* findings in a row that it does not */
	/* The last WINDOW polls with rates, newest first: evidence flags, swap-in and
	 * swap-out rates. n_polls counts them up to WINDOW. */
	unsigned n_polls;
	unsigned flags[POLICY_ADAPTIVE_WINDOW];
	uint64_t in_pps[POLICY_ADAPTIVE_WINDOW];
	uint64_t out_pps[POLICY_ADAPTIVE_WINDOW];
	/* workingset: the last WINDOW polls' activation rates, newest first (n_polls of them). */
	uint64_t act_anon_pps[POLICY_ADAPTIVE_WINDOW];
	uint64_t act_file_pps[POLICY_ADAPTIVE_WINDOW];
	int ws_bias;	   /* added to the tendency's formula */
	bool ws_snap;	   /* a snap, and only falls since: at most POLICY_WS_LOW */
	bool ws_low_cache; /* the window's polls had little unmapped cache */
	/* workingset's judgement of its rises (POLICY_WS_JUDGE_POLLS): 1 + the polls since the
	 * last rise while it is judged (0: none is); the most file activations a second the
	 * window showed at its steps; strikes in a row; no rise before ws_backoff_us. */
	unsigned ws_since_rise;
	uint64_t ws_rise_file_pps;
	unsigned ws_strikes;
	uint64_t ws_backoff_us;
};

struct policy_result {
	int target; /* what the policy asks for, before the regulator's limits */
	int app_centile;
	int swap_centile;
	int ck;
	int mapped_ratio;
	int distress;
	int psi_distress;
	int reclaim_distress;
	int swap_tendency;
	/* Rates over the interval, pages per second (0 with one sample). */
	uint64_t file_refault_pps;
	uint64_t anon_refault_pps;
	uint64_t swapin_pps;
	uint64_t swapout_pps;
	uint64_t scan_pps;
	uint64_t activate_anon_pps; /* workingset_activate_anon/_file */
	uint64_t activate_file_pps;
	bool active; /* reclaim, refaults or stalls: poll again soon */
	/* tendency: why target is not the formula's swap_tendency (POLICY_KEPT_NONE: it is). */
	/* POLICY_KEPT_SPARE: sparing the cache, at state->spare_top, above the configured range. */
	/* POLICY_KEPT_NO_SWAP: device, without swap, keeps the value in effect. */
	enum policy_kept {
		POLICY_KEPT_NONE,
		POLICY_KEPT_NO_RECLAIM,
		POLICY_KEPT_TOP,
		POLICY_KEPT_SPARE,
		POLICY_KEPT_NO_SWAP,
	} kept;
	/* target may be above the configured range, up to state->spare_top (decide lifts the
	 * range for this decision): sparing the cache, workingset's rise, or the value either
	 * left in effect, kept between bursts of reclaim. */
	bool lift;
	int unmapped_cache_pct; /* page cache no process maps, % of MemTotal */
	char reason[128];
};

/* Returns the policy's name ("ck", "tendency", "adaptive", "workingset", "device"), or NULL
 * for an invalid kind. */
const char *policy_name(enum policy_kind kind);

/* Returns 0 and sets *ret_kind for a known name, -EINVAL otherwise. */
int policy_from_name(const char *name, enum policy_kind *ret_kind);

/* Returns 100 * part / whole rounded down, capped at 100; 0 when whole is 0. */
int policy_pct(uint64_t part, uint64_t whole);

/*
 * Evaluates a policy on the current sample cur; prev is the previous sample or
 * NULL (then rates that need two samples count as zero and PSI falls back to its
 * avg10). state is the policies' memory (NULL: start afresh, keep nothing):
 * the adaptive policy records in it what it saw and what it is testing,
 * tendency only when its formula last reached the top (top_us), and ck and
 * device leave it alone (device reads the value in effect from it). It reads
 * no clock: its times are the samples' time_us.
 * Returns 0 and fills *ret, -EINVAL when cur has no MemTotal or kind is unknown
 * (then nothing is changed).
 */
int policy_evaluate(enum policy_kind kind, struct policy_state *state, const struct sample *prev,
		    const struct sample *cur, struct policy_result *ret);

/*
 * The top of the useful range for the swap devices in s (Documentation/admin-
 * guide/sysctl/vm.rst: swappiness is the relative cost of anon vs file IO):
 * 200 when all swap is zram (no IO at all), 133 with zswap (swap IO about twice
 * as fast as the file system's), else 100 (equal cost). It is also the adaptive
 * policy's neutral value N, and the device policy's value.
 * Returns that value.
 */
int policy_device_max(const struct sample *s);

/* Tells the state what the knob holds as a poll begins: before the first
 * decision, the value in effect is the one the daemon found. */
void policy_begin(struct policy_state *state, int knob);

/* Tells the state which value is in effect after the regulator (clamped to the limits;
 * the knob's own value when the change was below the step), so that the adaptive
 * controller moves from there and cannot wind up beyond the limits, and the top of the
 * range that value is kept in (regulator_range). */
void policy_observe(struct policy_state *state, int value, int top);

#endif
