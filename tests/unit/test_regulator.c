/* Unit tests for the regulator: clamp, step, smoothing, no-op, kernel limit. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "regulator.h"

static const struct regulator_limits defaults = { .min = 0, .max = 100, .step = 5, .smoothing_pct = 0, .kernel_max = 200 };

static struct regulator_decision
next(struct regulator *r, const struct regulator_limits *lim, int target, int current)
{
	struct regulator_decision d;

	assert_int_equal(regulator_next(r, lim, target, current, 0, &d), 0);
	return d;
}

static void
test_table(void **state)
{
	static const struct {
		const char *name;
		int min, max, step, kernel_max;
		int target, current;
		int value;
		enum regulator_verdict verdict;
		bool clamped;
	} cases[] = {
		{ "plain write", 0, 100, 5, 200, 23, 60, 23, REGULATOR_WRITE, false },
		{ "unchanged", 0, 100, 5, 200, 60, 60, 60, REGULATOR_UNCHANGED, false },
		{ "below step", 0, 100, 5, 200, 57, 60, 57, REGULATOR_BELOW_STEP, false },
		{ "exactly step", 0, 100, 5, 200, 55, 60, 55, REGULATOR_WRITE, false },
		{ "clamp high", 10, 80, 5, 200, 250, 60, 80, REGULATOR_WRITE, true },
		{ "clamp low", 10, 80, 5, 200, -3, 60, 10, REGULATOR_WRITE, true },
		{ "min reachable within step", 10, 80, 20, 200, 0, 15, 10, REGULATOR_WRITE, true },
		{ "max reachable within step", 10, 80, 20, 200, 90, 75, 80, REGULATOR_WRITE, true },
		{ "current out of range", 10, 80, 50, 200, 79, 90, 79, REGULATOR_WRITE, false },
		{ "current below range", 10, 80, 50, 200, 11, 5, 11, REGULATOR_WRITE, false },
		{ "old kernel caps 200", 0, 200, 5, 100, 180, 60, 100, REGULATOR_WRITE, true },
		{ "new kernel 200", 0, 200, 5, 200, 200, 60, 200, REGULATOR_WRITE, false },
		{ "min above kernel max", 150, 200, 5, 100, 160, 60, 100, REGULATOR_WRITE, true },
		{ "zero everywhere", 0, 0, 1, 200, 50, 0, 0, REGULATOR_UNCHANGED, true },
		{ "step 1", 0, 100, 1, 200, 61, 60, 61, REGULATOR_WRITE, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct regulator_limits lim = { cases[i].min, cases[i].max, cases[i].step, 0, cases[i].kernel_max, false };
		struct regulator reg = { 0 };
		struct regulator_decision d = next(&reg, &lim, cases[i].target, cases[i].current);

		if (d.value != cases[i].value || d.verdict != cases[i].verdict || d.clamped != cases[i].clamped)
			fail_msg("%s: value %d verdict %s clamped %d", cases[i].name, d.value,
				 regulator_verdict_name(d.verdict), d.clamped);
	}
}

/* Every target, every current value, at the limits 0..100 and 0..200 and under
 * each kernel limit: the value always lies within the limits. */
static void
test_always_in_range(void **state)
{
	static const struct regulator_limits lims[] = {
		{ 0, 100, 5, 0, 200, false }, { 0, 200, 5, 50, 200, false }, { 0, 200, 1, 0, 100, false },
		{ 30, 30, 1, 0, 200, false }, { 0, 0, 7, 90, 200, false },   { 100, 200, 3, 10, 200, false },
	};

	(void)state;
	for (size_t l = 0; l < sizeof(lims) / sizeof(lims[0]); l++) {
		int hi = lims[l].max < lims[l].kernel_max ? lims[l].max : lims[l].kernel_max;
		int lo = lims[l].min < hi ? lims[l].min : hi;
		struct regulator reg = { 0 };

		for (int target = -50; target <= 300; target += 7) {
			for (int current = 0; current <= 200; current += 10) {
				struct regulator_decision d = next(&reg, &lims[l], target, current);

				assert_in_range(d.value, lo, hi);
				if (d.verdict == REGULATOR_UNCHANGED)
					assert_int_equal(d.value, current);
			}
		}
	}
}

static void
test_smoothing(void **state)
{
	struct regulator_limits lim = defaults;
	struct regulator reg = { 0 };
	struct regulator_decision d;

	(void)state;
	lim.smoothing_pct = 50;
	lim.step = 1;
	/* No history: the first target is taken as it is. */
	d = next(&reg, &lim, 80, 60);
	assert_int_equal(d.value, 80);
	/* Then halfway each time: 80 -> 40 -> 20 -> 10. */
	d = next(&reg, &lim, 0, 80);
	assert_int_equal(d.value, 40);
	d = next(&reg, &lim, 0, 40);
	assert_int_equal(d.value, 20);
	d = next(&reg, &lim, 0, 20);
	assert_int_equal(d.value, 10);

	/* A heavy weight still converges (whole-unit rounding would stick at 20). */
	regulator_reset(&reg);
	lim.smoothing_pct = 90;
	d = next(&reg, &lim, 20, 60);
	assert_int_equal(d.value, 20);
	for (int i = 0; i < 100; i++)
		d = next(&reg, &lim, 22, d.value);
	assert_int_equal(d.value, 22);

	/* After a reset the history is gone. */
	regulator_reset(&reg);
	d = next(&reg, &lim, 70, 22);
	assert_int_equal(d.value, 70);
}

static void
test_no_oscillation_on_constant_target(void **state)
{
	struct regulator_limits lim = defaults;
	struct regulator reg = { 0 };
	int current = 60, writes = 0;

	(void)state;
	lim.smoothing_pct = 60;
	for (int i = 0; i < 200; i++) {
		struct regulator_decision d = next(&reg, &lim, 33, current);

		if (d.verdict == REGULATOR_WRITE) {
			writes++;
			current = d.value;
		}
	}
	/* 60 -> 33 in steps of at least 5, then quiet. */
	assert_in_range(current, 33 - 4, 33 + 4);
	assert_in_range(writes, 1, 6);
}

static void
test_range(void **state)
{
	static const struct {
		int min, max, kernel_max, lo, hi;
	} cases[] = {
		{ 0, 100, 200, 0, 100 }, { 0, 200, 100, 0, 100 }, { 150, 200, 100, 100, 100 },
		{ 10, 60, 200, 10, 60 }, { 150, 150, 200, 150, 150 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct regulator_limits lim = { .min = cases[i].min, .max = cases[i].max, .step = 1,
						.kernel_max = cases[i].kernel_max };
		int lo = -1, hi = -1;

		regulator_range(&lim, &lo, &hi);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
	}
}

/* Under the multi-gen LRU, 0, 1 and 200 are other mechanisms (regulator.h): the
 * range is kept within 2..199 whatever min and max say, every target and every
 * current value lands there, and a knob left at 0, 1 or 200 (the original, or a
 * value written under the classic LRU before root switched) is corrected at the
 * next decision, however small the change. */
static void
test_mglru_range(void **state)
{
	static const struct {
		int min, max, kernel_max, lo, hi;
	} cases[] = {
		{ 0, 200, 200, 2, 199 },   { 0, 100, 200, 2, 100 }, { 200, 200, 200, 199, 199 },
		{ 0, 0, 200, 2, 2 },	   { 1, 1, 200, 2, 2 },	    { 60, 150, 200, 60, 150 },
		{ 150, 200, 100, 100, 100 },
	};
	struct regulator_decision d;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct regulator_limits lim = { .min = cases[i].min, .max = cases[i].max, .step = 20,
						.kernel_max = cases[i].kernel_max, .mglru = true };
		int lo = -1, hi = -1;

		regulator_range(&lim, &lo, &hi);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
		for (int target = -5; target <= 205; target++) {
			for (int current = 0; current <= 200; current += 1) {
				struct regulator reg = { 0 };

				assert_int_equal(regulator_next(&reg, &lim, target, current, 0, &d), 0);
				assert_true(d.value >= lo && d.value <= hi);
				assert_true(d.value != 0 && d.value != 1 && d.value != 200);
				if (current < lo || current > hi)
					assert_int_equal(d.verdict, REGULATOR_WRITE);
			}
		}
	}
	/* The ends themselves: 200 becomes 199 and 0 becomes 2, written although the
	 * change is below the step; the classic LRU keeps them. */
	{
		struct regulator_limits lim = { .min = 0, .max = 200, .step = 20, .kernel_max = 200, .mglru = true };
		struct regulator reg = { 0 };

		assert_int_equal(regulator_next(&reg, &lim, 200, 200, 0, &d), 0);
		assert_int_equal(d.value, 199);
		assert_int_equal(d.verdict, REGULATOR_WRITE);
		assert_true(d.clamped);
		regulator_reset(&reg);
		assert_int_equal(regulator_next(&reg, &lim, 0, 1, 0, &d), 0);
		assert_int_equal(d.value, 2);
		assert_int_equal(d.verdict, REGULATOR_WRITE);
		lim.mglru = false;
		regulator_reset(&reg);
		assert_int_equal(regulator_next(&reg, &lim, 200, 199, 0, &d), 0);
		assert_int_equal(d.value, 200);
		regulator_reset(&reg);
		assert_int_equal(regulator_next(&reg, &lim, 0, 1, 0, &d), 0);
		assert_int_equal(d.value, 0);
	}
}

static struct regulator_decision
next_at(struct regulator *r, const struct regulator_limits *lim, int target, int current, double at_s)
{
	struct regulator_decision d;

	assert_int_equal(regulator_next(r, lim, target, current, (uint64_t)(at_s * 1e6), &d), 0);
	return d;
}

/* A rise within REGULATOR_TURN_S of a write down needs REGULATOR_TURN_MUL times the step; falls,
 * rises after rises and every move later need the step alone; the ends are always reached. One
 * regulator through every row, in order: each row's decision at its time, with the limits it
 * names, must give the verdict and the step asked (0: not checked). */
static void
test_turn(void **state)
{
	enum { W = REGULATOR_WRITE, B = REGULATOR_BELOW_STEP, U = REGULATOR_UNCHANGED, RESET = -1 };
	static const struct {
		double at_s;
		int min, max, step, target, current;
		int verdict, asked;
		const char *why;
	} rows[] = {
		{ 100, 0, 200, 20, 176, 60, W, 20, "the dirtier on zram (bench/RESULTS.md): 60 -> 176" },
		{ 101, 0, 200, 20, 137, 176, W, 20, "then 137: a fall after a rise needs the step" },
		{ 102, 0, 200, 20, 169, 137, B, 60, "169, a rise 1 s after a write down: 3 times the step" },
		{ 110.999, 0, 200, 20, 196, 137, B, 60, "+59 just under 10 s after it" },
		{ 110.999, 0, 200, 20, 197, 137, W, 60, "+60" },
		{ 111, 0, 200, 20, 217, 197, W, 20, "a rise after a rise: the step" },
		{ 112, 0, 200, 20, 197, 217, W, 20, "a fall after a rise: the step" },
		{ 113, 0, 200, 20, 177, 197, W, 20, "a fall after a fall: the step" },
		{ 115, 0, 200, 20, 199, 177, B, 60, "a rise 2 s after it, +22" },
		{ 122.999, 0, 200, 20, 197, 177, B, 60,
		  "a held rise is no write: the 10 s run from the write down (113 s)" },
		{ 123, 0, 200, 20, 197, 177, W, 20, "10 s after it: the step" },
		{ 124, 0, 200, 20, 150, 197, W, 20, "a fall" },
		{ 125, 0, 200, 20, 250, 150, W, 60, "a rise 1 s after it to the top, 200: an end, reached anyway" },
		{ 126, 0, 180, 20, 140, 190, W, 20, "a knob above max is corrected: a write down" },
		{ 127, 50, 180, 20, 70, 20, W, 60, "a rise 1 s after it from a knob below min: corrected" },
		{ 128, 0, 200, 20, 70, 70, U, 20, "no change" },
		{ 129, 0, 200, 20, 60, 70, B, 20, "-10: below the step" },
		{ 129, 0, 200, 20, 40, 70, W, 20, "-30" },
		{ 0, 0, 0, 0, 0, 0, RESET, 0, "a reset (reload, yield) forgets the write down" },
		{ 130, 0, 200, 20, 60, 40, W, 20, "+20 a second after it" },
		{ 131, 0, 200, 20, 30, 60, W, 20, "a write down" },
		{ 50, 0, 200, 20, 50, 30, W, 20, "a clock before it (CLOCK_MONOTONIC never goes back): long after" },
		{ 60, 0, 200, INT_MAX, 0, 50, W, 0, "an end, a write down" },
		{ 61, 0, 200, INT_MAX, 100, 0, B, INT_MAX, "3 times a step near INT_MAX: INT_MAX, no overflow" },
		{ 62, 0, 200, 20, 20, 20, U, 20, "unchanged: the step asked is the configured one" },
	};
	struct regulator reg = { 0 };

	(void)state;
	assert_int_equal(REGULATOR_TURN_MUL, 3);
	assert_int_equal(REGULATOR_TURN_S, 10);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct regulator_limits lim = { .min = rows[i].min, .max = rows[i].max, .step = rows[i].step,
						.kernel_max = 200 };
		struct regulator_decision d;

		if (rows[i].verdict == RESET) {
			regulator_reset(&reg);
			continue;
		}
		d = next_at(&reg, &lim, rows[i].target, rows[i].current, rows[i].at_s);
		if ((int)d.verdict != rows[i].verdict || (rows[i].asked && d.step != rows[i].asked))
			fail_msg("row %zu (%s): %d -> %d at %.3f s: verdict %s, step asked %d", i, rows[i].why,
				 rows[i].current, rows[i].target, rows[i].at_s, regulator_verdict_name(d.verdict),
				 d.step);
	}
}

/* A target that swings 176 <-> 137 every second (the formula following distress) is written
 * twice every REGULATOR_TURN_S seconds or so, not every second: the fall, and the rise once
 * the fall is TURN_S old. */
static void
test_turn_swing(void **state)
{
	struct regulator_limits lim = { .min = 0, .max = 200, .step = 20, .kernel_max = 200 };
	struct regulator reg = { 0 }, plain = { 0 };
	int knob = 60, knob_plain = 60;
	unsigned writes = 0, writes_plain = 0;

	(void)state;
	for (int t = 0; t < 60; t++) {
		int target = t % 2 ? 137 : 176;
		struct regulator_decision d = next_at(&reg, &lim, target, knob, t);
		struct regulator_decision p;

		if (d.verdict == REGULATOR_WRITE) {
			knob = d.value;
			writes++;
		}
		/* The same targets, each poll more than TURN_S after the last: the step alone. */
		assert_int_equal(regulator_next(&plain, &lim, target, knob_plain,
						(uint64_t)t * (REGULATOR_TURN_S + 1) * 1000000, &p), 0);
		if (p.verdict == REGULATOR_WRITE) {
			knob_plain = p.value;
			writes_plain++;
		}
	}
	assert_int_equal(writes_plain, 60);
	assert_in_range(writes, 10, 12);
}

/* What the log and systemctl status say of a kept value: the step a held change had to
 * reach, and why when it is more than the configured one. */
static void
test_verdict_text(void **state)
{
	struct regulator_limits lim = { .min = 0, .max = 200, .step = 20, .kernel_max = 200 };
	struct regulator reg = { 0 };
	struct regulator_decision d;
	char buf[REGULATOR_VERDICT_TEXT_MAX];

	(void)state;
	d = next_at(&reg, &lim, 100, 60, 0); /* a rise, written */
	regulator_verdict_text(&d, &lim, buf, sizeof(buf));
	assert_string_equal(buf, "write");
	d = next_at(&reg, &lim, 100, 100, 1);
	regulator_verdict_text(&d, &lim, buf, sizeof(buf));
	assert_string_equal(buf, "unchanged");
	d = next_at(&reg, &lim, 110, 100, 2); /* not a turn: the step alone */
	regulator_verdict_text(&d, &lim, buf, sizeof(buf));
	assert_string_equal(buf, "below-step 20");
	d = next_at(&reg, &lim, 70, 100, 3); /* a fall, written */
	assert_int_equal(d.verdict, REGULATOR_WRITE);
	d = next_at(&reg, &lim, 110, 70, 4); /* a rise of 40 just after it: held */
	regulator_verdict_text(&d, &lim, buf, sizeof(buf));
	assert_string_equal(buf, "below-step 60: a rise within 10 s of a fall");
	regulator_verdict_text(&d, &lim, buf, 11); /* cut, never overrun */
	assert_string_equal(buf, "below-step");
}

static void
test_invalid_limits(void **state)
{
	static const struct regulator_limits bad[] = {
		{ 50, 40, 5, 0, 200, false }, { 0, 100, 0, 0, 200, false }, { 0, 100, 5, 100, 200, false },
		{ 0, 100, 5, -1, 200, false }, { -1, 100, 5, 0, 200, false }, { 0, 100, 5, 0, 0, false },
	};
	struct regulator reg = { 0 };
	struct regulator_decision d = { .value = 4242 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(regulator_next(&reg, &bad[i], 10, 10, 0, &d), -EINVAL);
	assert_int_equal(d.value, 4242);
	assert_string_equal(regulator_verdict_name(REGULATOR_BELOW_STEP), "below-step");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),	  cmocka_unit_test(test_always_in_range),
		cmocka_unit_test(test_smoothing), cmocka_unit_test(test_no_oscillation_on_constant_target),
		cmocka_unit_test(test_invalid_limits), cmocka_unit_test(test_range),
		cmocka_unit_test(test_mglru_range), cmocka_unit_test(test_turn),
		cmocka_unit_test(test_turn_swing),	  cmocka_unit_test(test_verdict_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
