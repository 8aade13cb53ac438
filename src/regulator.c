#include "regulator.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

void
regulator_reset(struct regulator *r)
{
	r->has_history = false;
	r->smoothed_milli = 0;
	r->last_dir = 0;
	r->last_us = 0;
}

static int
clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void
regulator_range(const struct regulator_limits *lim, int *lo, int *hi)
{
	*hi = lim->max < lim->kernel_max ? lim->max : lim->kernel_max;
	if (lim->mglru)
		*hi = clamp_int(*hi, REGULATOR_MGLRU_MIN, REGULATOR_MGLRU_MAX);
	*lo = lim->min < *hi ? lim->min : *hi;
	if (lim->mglru && *lo < REGULATOR_MGLRU_MIN)
		*lo = REGULATOR_MGLRU_MIN;
}

/* The change from current to value that is worth a write: the step, or REGULATOR_TURN_MUL
 * times it for a rise within REGULATOR_TURN_S of a write down (include/regulator.h). */
static int
step_for(const struct regulator *r, const struct regulator_limits *lim, int current, int value, uint64_t now_us)
{
	int dir = value > current ? 1 : -1;
	bool soon = now_us >= r->last_us && now_us - r->last_us < (uint64_t)REGULATOR_TURN_S * 1000000;

	if (r->last_dir < 0 && dir > 0 && soon)
		return lim->step > INT_MAX / REGULATOR_TURN_MUL ? INT_MAX : lim->step * REGULATOR_TURN_MUL;
	return lim->step;
}

int
regulator_next(struct regulator *r, const struct regulator_limits *lim, int target, int current,
	       uint64_t now_us, struct regulator_decision *ret)
{
	struct regulator_decision d = { 0 };
	int hi, lo, t;
	long value;

	if (lim->min < 0 || lim->min > lim->max || lim->step < 1 || lim->smoothing_pct < 0 ||
	    lim->smoothing_pct > 99 || lim->kernel_max < 1)
		return -EINVAL;
	regulator_range(lim, &lo, &hi);
	t = clamp_int(target, lo, hi);
	d.clamped = t != target;

	/* Exponential smoothing in thousandths, so that a heavy weight still moves
	 * (in whole units, 90% of 20 plus 10% of 22 rounds back to 20 forever). */
	if (!r->has_history) {
		r->smoothed_milli = (long)t * 1000;
		r->has_history = true;
	} else {
		r->smoothed_milli = (r->smoothed_milli * lim->smoothing_pct +
				     (long)t * 1000 * (100 - lim->smoothing_pct)) / 100;
	}
	value = (r->smoothed_milli + 500) / 1000;
	d.value = clamp_int((int)value, lo, hi);

	d.step = lim->step;
	if (current == d.value) {
		d.verdict = REGULATOR_UNCHANGED;
	} else {
		d.step = step_for(r, lim, current, d.value, now_us);
		if (current < lo || current > hi || d.value == lo || d.value == hi || abs(d.value - current) >= d.step)
			d.verdict = REGULATOR_WRITE;
		else
			d.verdict = REGULATOR_BELOW_STEP;
	}
	if (d.verdict == REGULATOR_WRITE) {
		r->last_dir = d.value > current ? 1 : -1;
		r->last_us = now_us;
	}
	*ret = d;
	return 0;
}

const char *
regulator_verdict_name(enum regulator_verdict v)
{
	switch (v) {
	case REGULATOR_WRITE:
		return "write";
	case REGULATOR_UNCHANGED:
		return "unchanged";
	case REGULATOR_BELOW_STEP:
		return "below-step";
	}
	return "?";
}

void
regulator_verdict_text(const struct regulator_decision *d, const struct regulator_limits *lim, char *buf, size_t len)
{
	if (d->verdict != REGULATOR_BELOW_STEP)
		snprintf(buf, len, "%s", regulator_verdict_name(d->verdict));
	else if (d->step > lim->step)
		snprintf(buf, len, "below-step %d: a rise within %d s of a fall", d->step, REGULATOR_TURN_S);
	else
		snprintf(buf, len, "below-step %d", d->step);
}
