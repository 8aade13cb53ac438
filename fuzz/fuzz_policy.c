/* libFuzzer target: policy_evaluate (every kind, with and without the adaptive
 * state), policy_device_max and regulator_next on samples, state and limits
 * taken from the input. abort()s when a policy's percentages leave 0..100, when
 * a refused call changes anything, or when the regulator, given limits it
 * accepts, returns a value outside them. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "policy.h"
#include "regulator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct bytes {
	const uint8_t *p;
	size_t left;
};

/* Little-endian, n bytes; missing bytes read as zero. */
static uint64_t
take(struct bytes *b, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		if (b->left > 0) {
			v |= (uint64_t)*b->p << (8 * i);
			b->p++;
			b->left--;
		}
	}
	return v;
}

static int
take_int(struct bytes *b)
{
	return (int)(int32_t)(uint32_t)take(b, 4);
}

static void
take_sample(struct bytes *b, struct sample *s)
{
	unsigned flags;

	memset(s, 0, sizeof(*s));
	s->time_us = take(b, 8);
	s->mem_total_kib = take(b, 8);
	s->mem_free_kib = take(b, 8);
	s->buffers_kib = take(b, 8);
	s->cached_kib = take(b, 8);
	s->shmem_kib = take(b, 8);
	s->mapped_kib = take(b, 8);
	s->swap_total_kib = take(b, 8);
	s->swap_free_kib = take(b, 8);
	flags = (unsigned)take(b, 1);
	s->has_vmstat = flags & 1;
	s->has_refaults = flags & 2;
	s->has_psi = flags & 4;
	s->psi.has_full = flags & 8;
	s->has_swaps = flags & 16;
	s->zswap_enabled = flags & 32;
	s->mglru = flags & 64;
	s->pgscan_pages = take(b, 8);
	s->pgsteal_pages = take(b, 8);
	s->pswpin_pages = take(b, 8);
	s->pswpout_pages = take(b, 8);
	s->refault_anon_pages = take(b, 8);
	s->refault_file_pages = take(b, 8);
	/* Any u32, not only what parse_psi yields (0..10000): the policy must cope. */
	s->psi.some_avg10_centipct = (uint32_t)take(b, 4);
	s->psi.some_total_us = take(b, 8);
	s->psi.full_avg10_centipct = (uint32_t)take(b, 4);
	s->psi.full_total_us = take(b, 8);
	/* Few devices, so that "all of them zram" happens. */
	s->swaps.devices = (unsigned)take(b, 1);
	s->swaps.zram = (unsigned)take(b, 1);
}

/* A state as the daemon could hold it: a value the regulator settled on (0..200),
 * a mode, counts within their bounds; rates and times anything at all. */
static void
take_state(struct bytes *b, struct policy_state *st)
{
	unsigned v = (unsigned)take(b, 4);

	memset(st, 0, sizeof(*st));
	st->has_value = v & 1;
	st->value = (int)((v >> 1) % (CONFIG_SWAPPINESS_MAX + 1));
	st->mode = (enum policy_mode)((v >> 9) % 4);
	st->high = (int)((v >> 11) % (CONFIG_SWAPPINESS_MAX + 1));
	st->test_polls = (v >> 19) % POLICY_ADAPTIVE_TEST_POLLS;
	st->votes_low = (v >> 22) % POLICY_ADAPTIVE_VOTES;
	st->votes_high = (v >> 23) % POLICY_ADAPTIVE_VOTES;
	st->strikes = (v >> 24) % (POLICY_ADAPTIVE_MAX_STRIKES + 1);
	st->holds = (v >> 27) % (POLICY_ADAPTIVE_MAX_STRIKES + 1);
	st->n_polls = (v >> 30) % (POLICY_ADAPTIVE_WINDOW + 1);
	st->top = (int)take(b, 1) % 206 - 2;
	st->knob = take_int(b);
	st->top_us = take(b, 8);
	st->ref_in_pps = take(b, 8);
	st->ref_out_pps = take(b, 8);
	st->hold_until_us = take(b, 8);
	st->backoff_until_us = take(b, 8);
	st->busy_us = take(b, 8);
	for (unsigned i = 0; i < POLICY_ADAPTIVE_WINDOW; i++) {
		st->flags[i] = (unsigned)take(b, 1) & 15;
		st->in_pps[i] = take(b, 8);
		st->out_pps[i] = take(b, 8);
	}
}

/* What the adaptive policy promises about its state after any poll. */
static void
check_state(const struct policy_state *st)
{
	if ((unsigned)st->mode > POLICY_MODE_HOLD || st->high < 0 || st->high > CONFIG_SWAPPINESS_MAX ||
	    st->test_polls > POLICY_ADAPTIVE_TEST_POLLS || st->votes_low > POLICY_ADAPTIVE_TEST_POLLS ||
	    st->votes_high > POLICY_ADAPTIVE_TEST_POLLS || st->strikes > POLICY_ADAPTIVE_MAX_STRIKES ||
	    st->holds > POLICY_ADAPTIVE_MAX_STRIKES || st->n_polls > POLICY_ADAPTIVE_WINDOW)
		abort();
}

static bool
pct_ok(int v)
{
	return v >= 0 && v <= 100;
}

/* Runs one policy and checks what it returns. state may be NULL. Returns true
 * and sets *ret_target when the policy gave a target. */
static bool
check_policy(enum policy_kind kind, struct policy_state *state, const struct sample *prev, const struct sample *cur,
	     int *ret_target)
{
	struct policy_result res, res_before;
	struct policy_state before;
	int r;

	memset(&res, 0xa5, sizeof(res));
	res.active = false; /* a valid bool for UBSan */
	memcpy(&res_before, &res, sizeof(res));
	if (state)
		memcpy(&before, state, sizeof(before));
	r = policy_evaluate(kind, state, prev, cur, &res);
	if (cur->mem_total_kib == 0 || (unsigned)kind >= POLICY_COUNT) {
		/* "-EINVAL when cur has no MemTotal or kind is unknown (then nothing
		 * is changed)" */
		if (r != -EINVAL || memcmp(&res, &res_before, sizeof(res)) != 0 ||
		    (state && memcmp(state, &before, sizeof(before)) != 0))
			abort();
		return false;
	}
	if (r != 0)
		abort();
	if (!pct_ok(res.app_centile) || !pct_ok(res.swap_centile) || !pct_ok(res.mapped_ratio) ||
	    !pct_ok(res.distress) || !pct_ok(res.psi_distress) || !pct_ok(res.reclaim_distress) || !pct_ok(res.ck))
		abort();
	/* The largest rule is tendency: mapped/2 + distress + ck <= 50 + 100 + 100. */
	if (res.target < 0 || res.target > 250)
		abort();
	if (strnlen(res.reason, sizeof(res.reason)) >= sizeof(res.reason))
		abort();
	if (state) {
		/* "tendency records only when its formula reached the top; ck leaves it alone" */
		if (kind == POLICY_TENDENCY)
			before.top_us = state->top_us;
		if (kind != POLICY_ADAPTIVE && memcmp(state, &before, sizeof(before)) != 0)
			abort();
		check_state(state);
	}
	*ret_target = res.target;
	return true;
}

static void
take_limits(struct bytes *b, struct regulator_limits *lim)
{
	unsigned mode = (unsigned)take(b, 1);

	lim->mglru = mode & 8;
	if (mode & 1) {
		/* Anything at all: mostly rejected, which must be said, not crash. */
		lim->min = take_int(b);
		lim->max = take_int(b);
		lim->step = take_int(b);
		lim->smoothing_pct = take_int(b);
		lim->kernel_max = take_int(b);
	} else {
		/* Near the real ranges, a few steps past each edge. */
		lim->min = (int)take(b, 1) % 211 - 5;
		lim->max = (int)take(b, 1) % 211 - 5;
		lim->step = (int)take(b, 1) % 206 - 2;
		lim->smoothing_pct = (int)take(b, 1) % 104 - 2;
		lim->kernel_max = mode & 2 ? ((mode & 4) ? 200 : 100) : (int)take(b, 1) % 206 - 2;
	}
}

static void
check_regulator(struct regulator *reg, const struct regulator_limits *lim, int target, int current,
		uint64_t now_us, struct policy_state *state, const struct sample *prev, const struct sample *cur)
{
	struct regulator_decision d;
	bool documented_invalid = lim->min > lim->max || lim->step < 1 || lim->smoothing_pct < 0 ||
				  lim->smoothing_pct > 99 || lim->kernel_max < 1;
	int hi, lo, r;

	r = regulator_next(reg, lim, target, current, now_us, &d);
	if (documented_invalid && r != -EINVAL)
		abort();
	if (r != 0) {
		if (r != -EINVAL)
			abort();
		return;
	}
	hi = lim->max < lim->kernel_max ? lim->max : lim->kernel_max;
	/* Under the multi-gen LRU within 2..199, whatever min and max say (regulator.h). */
	if (lim->mglru)
		hi = hi < REGULATOR_MGLRU_MIN ? REGULATOR_MGLRU_MIN : hi > REGULATOR_MGLRU_MAX ? REGULATOR_MGLRU_MAX : hi;
	/* With min above what the kernel accepts ([min, hi] is empty) the regulator
	 * stays at the kernel's limit: tests/unit/test_regulator.c "min above kernel
	 * max", and daemon.c warns about such limits. */
	lo = lim->min <= hi ? lim->min : hi;
	if (lim->mglru && lo < REGULATOR_MGLRU_MIN)
		lo = REGULATOR_MGLRU_MIN;
	if (lim->mglru && (d.value == 0 || d.value == 1 || d.value == 200))
		abort();
	if (d.value < lo || d.value > hi)
		abort();
	if (d.clamped != (target < lo || target > hi))
		abort();
	if (lim->smoothing_pct == 0 && d.value != (target < lo ? lo : target > hi ? hi : target))
		abort();
	if (d.verdict == REGULATOR_UNCHANGED && d.value != current)
		abort();
	/* "a current value outside the limits is always corrected" */
	if ((current < lo || current > hi) && d.verdict != REGULATOR_WRITE)
		abort();
	if (d.verdict != REGULATOR_WRITE && d.verdict != REGULATOR_UNCHANGED && d.verdict != REGULATOR_BELOW_STEP)
		abort();
	/* The step a change had to reach: the configured one, or REGULATOR_TURN_MUL times it for
	 * a rise soon after a write down; below it nothing is written, and a write below the
	 * configured step is an end of the range or a correction. */
	if (d.step != lim->step &&
	    (d.step != (lim->step > INT_MAX / REGULATOR_TURN_MUL ? INT_MAX : lim->step * REGULATOR_TURN_MUL) ||
	     d.value <= current))
		abort();
	if (d.verdict == REGULATOR_BELOW_STEP && abs(d.value - current) >= d.step)
		abort();
	if (d.verdict == REGULATOR_WRITE && current >= lo && current <= hi && d.value != lo && d.value != hi &&
	    abs(d.value - current) < lim->step)
		abort();
	if (state) {
		int t;

		/* As decide() does: below the step the knob's value stays in effect. */
		int in_effect = d.verdict == REGULATOR_BELOW_STEP ? current : d.value;

		policy_observe(state, in_effect, hi);
		if (!state->has_value || state->value != in_effect || state->top != hi)
			abort();
		check_policy(POLICY_ADAPTIVE, state, prev, cur, &t);
		check_policy(POLICY_TENDENCY, state, prev, cur, &t);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = {data, size};
	struct sample prev, cur;
	struct policy_state state;
	struct regulator_limits lim;
	struct regulator reg;
	int targets[2 * POLICY_COUNT + 1];
	size_t ntargets = 0;
	uint64_t now_us = 0;
	bool realistic;
	int t;

	take_sample(&b, &prev);
	take_sample(&b, &cur);
	take_state(&b, &state);
	take_limits(&b, &lim);

	for (const struct sample *s = &prev; s; s = s == &prev ? &cur : NULL) {
		int m = policy_device_max(s);

		if (m != 100 && m != 133 && m != 200)
			abort();
	}
	/* Every policy with one sample and no memory, then with two and the state
	 * (which only the adaptive policy may change). */
	for (unsigned k = 0; k <= POLICY_COUNT; k++) {
		if (check_policy((enum policy_kind)k, NULL, NULL, &cur, &t))
			targets[ntargets++] = t;
		if (check_policy((enum policy_kind)k, &state, &prev, &cur, &t))
			targets[ntargets++] = t;
	}

	/* The policies' targets, then whatever the input still holds, through one
	 * regulator (smoothing carries over), each with a current value. Where the
	 * limits are ones the daemon can have (max and kernel_max at most 200), the
	 * settled value goes back into the adaptive state, as daemon.c does, and the
	 * adaptive policy runs again from there. */
	realistic = lim.max <= CONFIG_SWAPPINESS_MAX && lim.kernel_max <= CONFIG_SWAPPINESS_MAX;
	regulator_reset(&reg);
	/* A monotonic clock, 0 to 25.5 s a decision, so that rises come within and after
	 * REGULATOR_TURN_S of a write down. */
	for (size_t i = 0; i < ntargets; i++) {
		now_us += take(&b, 1) * 100000;
		check_regulator(&reg, &lim, targets[i], take_int(&b), now_us, realistic ? &state : NULL, &prev, &cur);
	}
	while (b.left > 0) {
		int target = take_int(&b);

		now_us += take(&b, 1) * 100000;
		check_regulator(&reg, &lim, target, take_int(&b), now_us, realistic ? &state : NULL, &prev, &cur);
	}
	return 0;
}
