/* The regulator: every value written passes through it. Pure. */
#ifndef AUTOSWAPPINESS_REGULATOR_H
#define AUTOSWAPPINESS_REGULATOR_H

#include <stdbool.h>

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

struct regulator {
	bool has_history;
	long smoothed_milli; /* smoothed target, in thousandths */
};

enum regulator_verdict {
	REGULATOR_WRITE,
	REGULATOR_UNCHANGED,  /* the knob already holds the value */
	REGULATOR_BELOW_STEP, /* the change is smaller than step */
};

struct regulator_decision {
	int value; /* within [min, min(max, kernel_max)] */
	enum regulator_verdict verdict;
	bool clamped; /* the target was outside the limits */
};

/* Forgets the smoothing history (after a reload or a yield). */
void regulator_reset(struct regulator *r);

/*
 * Decides the next value from the policy's target and the knob's current value.
 * A value at min or max is always reached, and a current value outside the
 * limits is always corrected, whatever the step. Returns 0 and fills *ret,
 * -EINVAL when the limits are inconsistent (min > max, step < 1, smoothing
 * outside 0..99, kernel_max < 1).
 */
int regulator_next(struct regulator *r, const struct regulator_limits *lim, int target, int current,
		   struct regulator_decision *ret);

/* The range values are kept in: hi is max, or kernel_max when that is lower; lo is
 * min, or hi when that is lower; under the multi-gen LRU both within
 * REGULATOR_MGLRU_MIN..REGULATOR_MGLRU_MAX. */
void regulator_range(const struct regulator_limits *lim, int *lo, int *hi);

/* Returns a short name for a verdict ("write", "unchanged", "below-step"). */
const char *regulator_verdict_name(enum regulator_verdict v);

#endif
