/* Unit tests for decide(): the step the loop's poll and --once share. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "decide.h"

/* The integration tests' --once fixture: app 40, swap 23, mapped 0: ck 23. */
static struct sample
fixture(void)
{
	return (struct sample){
		.mem_total_kib = 1000000,
		.mem_free_kib = 300000,
		.buffers_kib = 50000,
		.cached_kib = 250000,
		.swap_total_kib = 1000000,
		.swap_free_kib = 770000,
	};
}

static struct config
ck(void)
{
	struct config c;

	config_defaults(&c);
	c.policy = POLICY_CK;
	return c;
}

/* The same as the three steps by hand, with the limits in between. */
static void
test_matches_the_chain(void **state)
{
	struct config c = ck();
	struct sample s = fixture();
	struct regulator reg = { 0 }, reg2 = { 0 };
	struct policy_result pr;
	struct regulator_decision dec;
	struct regulator_limits lim = { .min = 0, .max = 100, .step = c.step, .smoothing_pct = c.smoothing_pct,
					.kernel_max = 200 };
	struct decision dn;

	(void)state;
	assert_int_equal(decide(&c, 100, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(policy_evaluate(c.policy, NULL, NULL, &s, &pr), 0);
	assert_int_equal(regulator_next(&reg2, &lim, pr.target, 60, s.time_us, &dec), 0);
	assert_int_equal(dn.pr.target, pr.target);
	assert_int_equal(dn.dec.value, dec.value);
	assert_int_equal(dn.dec.verdict, dec.verdict);
	assert_int_equal(dn.lim.max, 100);
	assert_int_equal(dn.dec.verdict, REGULATOR_WRITE);
	assert_int_equal(decide(&c, 100, 200, NULL, &reg, NULL, &s, dn.dec.value, &dn), 0);
	assert_int_equal(dn.dec.verdict, REGULATOR_UNCHANGED);
}

/* A min above what max = auto resolved to gives way to max. */
static void
test_min_gives_way_to_max(void **state)
{
	struct config c = ck();
	struct sample s = fixture();
	struct regulator reg = { 0 };
	struct decision dn;

	(void)state;
	c.min = 150;
	assert_int_equal(decide(&c, 100, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.lim.min, 100);
	assert_int_equal(dn.dec.value, 100);
	assert_true(dn.dec.clamped);
	assert_int_equal(decide_limits(&c, 200, 100, false).kernel_max, 100);
}

/* Under the multi-gen LRU (the sample says so) a decision never lands on 0, 1 or
 * 200: a range pinned at 200 writes 199, one pinned at 0 writes 2, and what the
 * policy state records is that value; the same config under the classic LRU keeps
 * the ends. */
static void
test_mglru_ends(void **state)
{
	struct config c = ck();
	struct sample s = fixture();
	struct regulator reg = { 0 };
	struct policy_state ps = { 0 };
	struct decision dn;

	(void)state;
	s.mglru = true;
	c.min = 200;
	c.max = 200;
	assert_int_equal(decide(&c, 200, 200, &ps, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.dec.value, 199);
	assert_true(dn.lim.mglru);
	assert_int_equal(ps.value, 199);
	assert_int_equal(decide(&c, 200, 200, NULL, &reg, NULL, &s, 200, &dn), 0);
	assert_int_equal(dn.dec.value, 199);
	assert_int_equal(dn.dec.verdict, REGULATOR_WRITE);
	c.min = 0;
	c.max = 0;
	regulator_reset(&reg);
	assert_int_equal(decide(&c, 0, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.dec.value, 2);
	s.mglru = false;
	regulator_reset(&reg);
	assert_int_equal(decide(&c, 0, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.dec.value, 0);
	c.min = 200;
	c.max = 200;
	regulator_reset(&reg);
	assert_int_equal(decide(&c, 200, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.dec.value, 200);
	assert_false(dn.lim.mglru);
}

/* With a policy state, the value settled on is recorded in it; an
 * inconsistent config is an error and records nothing. */
static void
test_state_and_errors(void **state)
{
	struct config c = ck();
	struct sample s = fixture();
	struct regulator reg = { 0 };
	struct policy_state ps = { 0 };
	struct decision dn;

	(void)state;
	c.max = 10;
	assert_int_equal(decide(&c, 10, 200, &ps, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(ps.value, 10);
	c.step = 0;
	ps.value = 42;
	assert_int_equal(decide(&c, 10, 200, &ps, &reg, NULL, &s, 60, &dn), -EINVAL);
	assert_int_equal(ps.value, 42);
}

/* A change below the step leaves the knob as it is, and the state learns that value, not the
 * one the regulator would have written: the policies keep "the value in effect" between bursts
 * of reclaim, and a wished-for value written at the next quiet poll would be a write nothing
 * asked for then. */
static void
test_state_keeps_the_knob_below_step(void **state)
{
	struct config c = ck();
	struct sample s = fixture();
	struct regulator reg = { 0 };
	struct policy_state ps = { 0 };
	struct decision dn;
	int v;

	(void)state;
	assert_int_equal(decide(&c, 100, 200, &ps, &reg, NULL, &s, 100, &dn), 0);
	assert_int_equal(dn.dec.verdict, REGULATOR_WRITE);
	v = dn.dec.value;
	assert_int_equal(ps.value, v);
	memset(&ps, 0, sizeof(ps));
	regulator_reset(&reg);
	assert_int_equal(decide(&c, 100, 200, &ps, &reg, NULL, &s, v + c.step - 1, &dn), 0);
	assert_int_equal(dn.dec.verdict, REGULATOR_BELOW_STEP);
	assert_int_equal(dn.dec.value, v);
	assert_int_equal(ps.value, v + c.step - 1);
	assert_int_equal(decide(&c, 100, 200, &ps, &reg, NULL, &s, v, &dn), 0);
	assert_int_equal(dn.dec.verdict, REGULATOR_UNCHANGED);
	assert_int_equal(ps.value, v);
}

/* Which configurations may spare the cache: the tendency and workingset policies with max = auto on
 * disk swap (auto resolved to 100), on a kernel that accepts 200. */
static void
test_spare_top(void **state)
{
	struct config c;

	(void)state;
	config_defaults(&c);
	assert_int_equal(c.policy, POLICY_WORKINGSET);
	assert_int_equal(c.max, CONFIG_MAX_AUTO);
	assert_int_equal(decide_spare_top(&c, c.policy, 100, 200, false), 200); /* its rise lifts the range too */
	/* Under the multi-gen LRU the regulator keeps 2..199 (200 there is anonymous pages
	 * first, with no feedback): the rise names 199, what it writes. */
	assert_int_equal(decide_spare_top(&c, c.policy, 100, 200, true), REGULATOR_MGLRU_MAX);
	assert_int_equal(decide_spare_top(&c, c.policy, 200, 200, true), 0);
	assert_int_equal(decide_spare_top(&c, c.policy, 200, 200, false), 0); /* zram: 200 already */
	assert_int_equal(decide_spare_top(&c, c.policy, 133, 200, false), 0); /* zswap: not measured */
	assert_int_equal(decide_spare_top(&c, c.policy, 100, 100, false), 0); /* Linux before 5.8 */
	c.max = 100;
	assert_int_equal(decide_spare_top(&c, c.policy, 100, 200, false), 0); /* a max the user chose */
	c.max = CONFIG_MAX_AUTO;
	assert_int_equal(decide_spare_top(&c, POLICY_TENDENCY, 100, 200, false), 200);
	assert_int_equal(decide_spare_top(&c, POLICY_ADAPTIVE, 100, 200, false), 0);
	assert_int_equal(decide_spare_top(&c, POLICY_CK, 100, 200, false), 0);
	assert_int_equal(decide_spare_top(&c, POLICY_DEVICE, 100, 200, false), 0);
}

/* name = auto: device under the multi-gen LRU, workingset under the classic one; any other
 * name is that policy under both. */
static void
test_policy_per_lru(void **state)
{
	struct config c;

	(void)state;
	config_defaults(&c);
	for (int k = 0; k < POLICY_COUNT; k++) {
		c.policy = (enum policy_kind)k;
		assert_int_equal(decide_policy(&c, false), k);
		assert_int_equal(decide_policy(&c, true), k);
	}
	c.policy = CONFIG_POLICY_AUTO;
	assert_int_equal(decide_policy(&c, true), POLICY_DEVICE);
	assert_int_equal(decide_policy(&c, false), POLICY_WORKINGSET);
}

/* decide() runs auto's policy for the sample's LRU: on zram, device holds 199 under the
 * multi-gen LRU (200 kept off), where the workingset policy on the same calm sample keeps
 * the value it found; under the classic LRU auto decides exactly as workingset. */
static void
test_auto_decides_per_lru(void **state)
{
	struct config c, ws;
	struct sample s = fixture();
	struct regulator reg = { 0 }, reg2 = { 0 };
	struct decision dn, dn2;

	(void)state;
	config_defaults(&c);
	c.policy = CONFIG_POLICY_AUTO;
	ws = c;
	ws.policy = POLICY_WORKINGSET;
	s.has_swaps = true;
	s.swaps = (struct swaps){ .devices = 1, .zram = 1 };
	s.mglru = true;
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.pr.target, 200);
	assert_int_equal(dn.dec.value, 199);
	assert_int_equal(dn.dec.verdict, REGULATOR_WRITE);
	assert_int_equal(decide(&ws, decide_max(&ws, &s), 200, NULL, &reg2, NULL, &s, 60, &dn2), 0);
	assert_int_not_equal(dn2.dec.value, 199);
	s.mglru = false;
	reg = reg2 = (struct regulator){ 0 };
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(decide(&ws, decide_max(&ws, &s), 200, NULL, &reg2, NULL, &s, 60, &dn2), 0);
	assert_int_equal(dn.pr.target, dn2.pr.target);
	assert_int_equal(dn.dec.value, dn2.dec.value);
	assert_string_equal(dn.pr.reason, dn2.pr.reason);
}

/*
 * Sparing the cache through decide, as the daemon polls (include/policy.h): a machine
 * of 1,000,000 KiB, 50,000 of it mapped, swap 1,000,000 KiB, the kernel reclaiming
 * (the formula asks for 142, and max = auto on disk holds it at 100). Each step is
 * dt seconds after the last, with the swap-outs and swap-ins over it (pages/s) and
 * Cached and SwapFree at its end.
 */
static void
test_spare(void **state)
{
	static const struct {
		unsigned dt;
		uint64_t out, in, cached, swap_free;
		int want;
		const char *reason; /* its start */
	} steps[] = {
		{ 0, 0, 0, 70000, 900000, 60, "stay at 60" }, /* the first poll: no rates */
		/* One poll of 2,048 swap-outs/s or more is both votes; 2,047 one. */
		{ 1, 2047, 0, 70000, 900000, 100, "mapped" },
		{ 1, 100, 0, 70000, 900000, 100, "mapped" },
		{ 1, 100, 0, 70000, 900000, 100, "mapped" }, /* the vote leaves the window */
		{ 1, 2048, 127, 70000, 900000, 200, "spare the cache at 200: unmapped cache 2%, swap-outs 2048/s, swap-ins 127/s" },
		{ 1, 2048, 128, 70000, 900000, 100, "mapped 5%/2 + distress 50 + ck 90; cache spared no more: swap-ins" },
		{ 30, 2048, 0, 70000, 900000, 200, "spare the cache" }, /* 30 s after the swap-ins */
		{ 1, 0, 0, 70000, 900000, 200, "spare the cache" },
		{ 9, 0, 0, 70000, 900000, 100, "mapped 5%/2 + distress 50 + ck 90; cache spared no more: no swap-outs" },
		{ 1, 0, 0, 70000, 900000, 100, "mapped" },
		{ 1, 0, 0, 70000, 900000, 100, "mapped" }, /* no votes left */
		{ 1, 1000, 0, 70000, 900000, 100, "mapped" }, /* unmapped cache 2%: one vote */
		{ 1, 1000, 0, 70000, 900000, 200, "spare the cache at 200: unmapped cache 2%, swap-outs 1000/s, swap-ins 0/s" },
		{ 1, 0, 127, 70000, 900000, 200, "spare the cache" }, /* quiet, swap-ins below 128/s */
		{ 5, 0, 0, 70000, 900000, 200, "spare the cache" },
		{ 3, 0, 0, 70000, 900000, 200, "spare the cache" }, /* 9 s without swap-outs */
		{ 1, 0, 0, 70000, 900000, 100, "mapped 5%/2 + distress 50 + ck 90; cache spared no more: no swap-outs" },
		{ 1, 512, 0, 70000, 900000, 100, "mapped" }, /* votes start afresh */
		{ 1, 0, 0, 70000, 900000, 100, "mapped" },   /* 2 of the last 3 polls: */
		{ 1, 512, 0, 70000, 900000, 200, "spare the cache" },
		{ 1, 1000, 128, 70000, 900000, 100, "mapped 5%/2 + distress 50 + ck 90; cache spared no more: swap-ins" },
		{ 1, 1000, 0, 70000, 900000, 100, "mapped" }, /* 30 s without a rise after swap-ins */
		{ 28, 1000, 0, 70000, 900000, 100, "mapped" },
		{ 1, 1000, 0, 70000, 900000, 200, "spare the cache" },
		{ 1, 1000, 0, 149000, 900000, 200, "spare the cache at 200: unmapped cache 9%" },
		{ 1, 1000, 0, 150000, 900000, 100, "mapped 5%/2 + distress 50 + ck 84; cache spared no more: the cache grew" },
		{ 1, 1000, 0, 99000, 900000, 100, "mapped" }, /* 4%: rises again */
		{ 1, 1000, 0, 99000, 900000, 200, "spare the cache" },
		{ 1, 1000, 0, 99000, 499000, 100, "mapped 5%/2 + distress 50 + ck 49; cache spared no more: swap half used" },
		{ 1, 1000, 0, 70000, 500000, 100, "mapped" }, /* half free: one vote */
		{ 1, 1000, 0, 70000, 500000, 200, "spare the cache" },
		{ 1, 511, 0, 70000, 500000, 200, "spare the cache" }, /* swap-outs below 512/s: busy no more */
	};
	struct config c;
	struct policy_state ps = { 0 };
	struct regulator reg = { 0 };
	struct sample prev, cur = { .mem_total_kib = 1000000, .mem_free_kib = 10000, .mapped_kib = 50000,
				    .swap_total_kib = 1000000, .has_vmstat = true, .time_us = 1000000 };
	struct decision dn;
	int knob = 60;

	(void)state;
	config_defaults(&c);
	c.policy = POLICY_TENDENCY; /* the default, workingset, adds its bias to this */
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		prev = cur;
		cur.time_us += steps[i].dt * 1000000ull;
		cur.pswpout_pages += steps[i].out * steps[i].dt;
		cur.pswpin_pages += steps[i].in * steps[i].dt;
		cur.pgscan_pages += 1000 * steps[i].dt;
		cur.pgsteal_pages += 500 * steps[i].dt;
		cur.cached_kib = steps[i].cached;
		cur.swap_free_kib = steps[i].swap_free;
		assert_int_equal(decide(&c, 100, 200, &ps, &reg, i > 0 ? &prev : NULL, &cur, knob, &dn), 0);
		if (dn.dec.value != steps[i].want || strncmp(dn.pr.reason, steps[i].reason, strlen(steps[i].reason)) != 0)
			fail_msg("step %zu: %d '%s', want %d '%s...'", i, dn.dec.value, dn.pr.reason, steps[i].want,
				 steps[i].reason);
		/* The range follows: 200 only while the cache is spared. */
		assert_int_equal(dn.lim.max, dn.pr.lift ? 200 : 100);
		assert_int_equal(dn.dec.value == 200, dn.pr.kept == POLICY_KEPT_SPARE);
		assert_int_equal(dn.pr.lift, dn.pr.kept == POLICY_KEPT_SPARE);
		knob = dn.dec.value;
	}
}

/*
 * The workingset policy through decide, with max = auto on disk swap: a rise on file
 * activations lifts the range to 200 and keeps it there poll after poll (the range's top
 * of the poll before, 200 after a lift, is not the configured one), and the range follows
 * the lift. Then anonymous ones take it down, into auto's range again.
 */
static void
test_workingset_lift(void **state)
{
	struct config c;
	struct policy_state ps = { 0 };
	struct regulator reg = { 0 };
	struct sample prev, cur = { .mem_total_kib = 1000000, .mem_free_kib = 300000, .cached_kib = 50000,
				    .mapped_kib = 40000, .swap_total_kib = 1000000, .swap_free_kib = 1000000,
				    .has_vmstat = true, .has_refaults = true, .has_activations = true,
				    .time_us = 1000000 };
	struct decision dn;
	int knob = 60, at200 = 0;

	(void)state;
	config_defaults(&c);
	c.policy = POLICY_WORKINGSET;
	for (int i = 0; i < 12; i++) {
		prev = cur;
		cur.time_us += 1000000;
		cur.pgscan_pages += 1000;
		cur.pgsteal_pages += 1000;
		cur.activate_file_pages += 1000;
		assert_int_equal(decide(&c, 100, 200, &ps, &reg, i > 0 ? &prev : NULL, &cur, knob, &dn), 0);
		assert_int_equal(dn.lim.max, dn.pr.lift ? 200 : 100);
		if (at200)
			assert_int_equal(dn.dec.value, 200);
		at200 |= dn.dec.value == 200;
		knob = dn.dec.value;
	}
	assert_int_equal(knob, 200);
	/* Between bursts of reclaim the rise is kept, above auto's top: clamped to 100 there,
	 * the next burst raised it to 200 again (a write each way). */
	for (int i = 0; i < 3; i++) {
		prev = cur;
		cur.time_us += 1000000;
		assert_int_equal(decide(&c, 100, 200, &ps, &reg, &prev, &cur, knob, &dn), 0);
		assert_int_equal(dn.pr.kept, POLICY_KEPT_NO_RECLAIM);
		assert_true(dn.pr.lift);
		assert_int_equal(dn.lim.max, 200);
		assert_int_equal(dn.dec.value, 200);
		knob = dn.dec.value;
	}
	/* The cache grows to 20% of RAM, still without reclaim: the rise is dropped, and the
	 * value kept goes back within auto's range. */
	prev = cur;
	cur.time_us += 1000000;
	cur.cached_kib = 240000;
	assert_int_equal(decide(&c, 100, 200, &ps, &reg, &prev, &cur, knob, &dn), 0);
	assert_int_equal(dn.pr.kept, POLICY_KEPT_NO_RECLAIM);
	assert_false(dn.pr.lift);
	assert_int_equal(dn.dec.value, 100);
	/* Within the range, not clamped to it: the reason says where it goes. */
	assert_false(dn.dec.clamped);
	assert_non_null(strstr(dn.pr.reason, "back to 100: no reclaim"));
	knob = dn.dec.value;
	cur.cached_kib = 50000;
	for (int i = 0; i < 3; i++) {
		prev = cur;
		cur.time_us += 1000000;
		cur.pgscan_pages += 1000;
		cur.pgsteal_pages += 1000;
		cur.activate_anon_pages += 1000;
		assert_int_equal(decide(&c, 100, 200, &ps, &reg, &prev, &cur, knob, &dn), 0);
		knob = dn.dec.value;
	}
	assert_int_equal(knob, 60);
	assert_int_equal(dn.lim.max, 100);
}

/* The device policy after swapoff: the value in effect stays, above what max = auto makes of
 * no swap (100, or 133 with zswap); a pinned max still holds. */
static void
test_device_no_swap(void **state)
{
	struct config c = ck();
	struct sample s = fixture();
	struct policy_state st = { 0 };
	struct regulator reg = { 0 };
	struct decision dn;

	(void)state;
	c.policy = POLICY_DEVICE;
	s.has_swaps = true;
	s.swaps = (struct swaps){ .devices = 1, .zram = 1 };
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, &st, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(dn.dec.value, 200);
	s.swap_total_kib = s.swap_free_kib = 0;
	s.swaps = (struct swaps){ 0 };
	assert_int_equal(decide_max(&c, &s), 100);
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, &st, &reg, NULL, &s, 200, &dn), 0);
	assert_int_equal(dn.pr.kept, POLICY_KEPT_NO_SWAP);
	assert_int_equal(dn.dec.value, 200);
	assert_int_equal(dn.dec.verdict, REGULATOR_UNCHANGED);
	/* Under the multi-gen LRU the regulator's 2..199 still hold. */
	s.mglru = true;
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, &st, &reg, NULL, &s, 200, &dn), 0);
	assert_int_equal(dn.dec.value, 199);
	/* A pinned max is the user's limit, swap or none. */
	s.mglru = false;
	c.max = 150;
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, &st, &reg, NULL, &s, 200, &dn), 0);
	assert_int_equal(dn.dec.value, 150);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_the_chain),
		cmocka_unit_test(test_min_gives_way_to_max),
		cmocka_unit_test(test_state_and_errors),
		cmocka_unit_test(test_state_keeps_the_knob_below_step),
		cmocka_unit_test(test_mglru_ends),
		cmocka_unit_test(test_spare_top),
		cmocka_unit_test(test_spare),
		cmocka_unit_test(test_workingset_lift),
		cmocka_unit_test(test_device_no_swap),
		cmocka_unit_test(test_policy_per_lru),
		cmocka_unit_test(test_auto_decides_per_lru),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
