/* The regulator: every value written passes through it. Pure. */
#ifndef AUTOSWAPPINESS_REGULATOR_H
#define AUTOSWAPPINESS_REGULATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct regulator_limits {
	int min;
	int max;
	int step;	    /* smallest change worth a write */
	int smoothing_pct;  /* weight of the previous smoothed value, 0..99 */
	int kernel_max;	    /* what the running kernel accepts: 100 or 200 */
	bool mglru;	    /* the kernel reclaims with the multi-gen LRU: keep within
			     * REGULATOR_MGLRU_MIN..REGULATOR_MGLRU_MAX */
};

/* Under the multi-gen LRU the ends of the range are other mechanisms, not gentler
 * values (mm/vmscan.c, get_swappiness, isolate_folios, get_type_to_scan; DESIGN.md):
 * 0 never scans anonymous pages, even near OOM; 1 evicts file pages first and 200
 * anonymous ones first, without the refault feedback that 2..199 weight. So the
 * regulator keeps within 2..199 there, whatever min and max say. */
#define REGULATOR_MGLRU_MIN 2
#define REGULATOR_MGLRU_MAX 199

/* A rise within TURN_S seconds of a write down needs TURN_MUL times the step. Distress swings
 * from poll to poll while reclaim goes on, and the formulas with it: in the full bench of
 * 2026-12-07 the dirtier on zram wrote 60 -> 176 -> 137 -> 169 -> 117 -> 148 -> 126 -> 149 in
 * 17 s at the step of 20 (28.3 writes a minute; 22.8 under the multi-gen LRU; issue 46's target
 * is 20), each rise undoing the fall before it, one to three seconds apart. Replayed with the
 * signals of those runs (tests/data/traces/dirtier-612-zram-default.csv and
 * dirtier-mglru-zram-default.csv), it writes 6.7-10.0 and 15.0-18.0 times a minute over the
 * seeds, 13.3-33.3 and 21.0-33.0 without this rule. Twice the step for a turn either way wrote
 * about as little on the ten dirtier runs on zram, but it also held falls, and phased's phase 2
 * on zram stayed high for longer in the closed-loop world (up to 26 s, against at most 23.5 s).
 * Falls are written at the step: a fall that waits keeps the kernel swapping out a working set
 * (phased's phase 2); backing off fast and rising slowly is the shape of Senpai's guard (oomd).
 * The ends of the range are reached at once all the same (sparing the cache's 200). */
#define REGULATOR_TURN_S 10
#define REGULATOR_TURN_MUL 3

struct regulator {
	bool has_history;
	long smoothed_milli; /* smoothed target, in thousandths */
	int last_dir;	     /* the last write's direction: 1 up, -1 down, 0 none yet */
	uint64_t last_us;    /* its time */
};

enum regulator_verdict {
	REGULATOR_WRITE,
	REGULATOR_UNCHANGED,  /* the knob already holds the value */
	REGULATOR_BELOW_STEP, /* the change is smaller than step (for a rise soon after a write
			       * down, REGULATOR_TURN_MUL times step) */
};

struct regulator_decision {
	int value; /* within [min, min(max, kernel_max)] */
	enum regulator_verdict verdict;
	bool clamped; /* the target was outside the limits */
	int step;     /* the change this one had to reach: step, or more for a rise soon
		       * after a write down */
};

/* Forgets the smoothing history and the last write (after a reload or a yield). */
void regulator_reset(struct regulator *r);

/*
 * Decides the next value from the policy's target and the knob's current value.
 * A value at min or max is always reached, and a current value outside the
 * limits is always corrected, whatever the step; a rise within REGULATOR_TURN_S of
 * the last write verdict, when that was down (now_us: the caller's monotonic clock),
 * needs REGULATOR_TURN_MUL times the step. A write verdict is remembered as written:
 * a caller that does not write (a dry run) leaves the knob where it was, and the
 * changes after it are measured from there. Returns 0 and fills *ret,
 * -EINVAL when the limits are inconsistent (min > max, step < 1, smoothing
 * outside 0..99, kernel_max < 1).
 */
int regulator_next(struct regulator *r, const struct regulator_limits *lim, int target, int current,
		   uint64_t now_us, struct regulator_decision *ret);

/* The range values are kept in: hi is max, or kernel_max when that is lower; lo is
 * min, or hi when that is lower; under the multi-gen LRU both within
 * REGULATOR_MGLRU_MIN..REGULATOR_MGLRU_MAX. */
void regulator_range(const struct regulator_limits *lim, int *lo, int *hi);

/* Returns a short name for a verdict ("write", "unchanged", "below-step"). */
const char *regulator_verdict_name(enum regulator_verdict v);

/* The verdict as the log and systemctl status say it: its name, and for
 * below-step the step the change had to reach, and why when that is more than
 * lim's step ("below-step 60: a rise within 10 s of a fall"). len bytes at
 * most; REGULATOR_VERDICT_TEXT_MAX hold any. */
#define REGULATOR_VERDICT_TEXT_MAX 64
void regulator_verdict_text(const struct regulator_decision *d, const struct regulator_limits *lim, char *buf,
			    size_t len);

#endif
