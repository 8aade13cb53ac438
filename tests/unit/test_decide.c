/* Unit tests for decide(): the step the loop's poll and --once share. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

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
	assert_int_equal(regulator_next(&reg2, &lim, pr.target, 60, &dec), 0);
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
	assert_int_equal(decide_limits(&c, 200, 100).kernel_max, 100);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_the_chain),
		cmocka_unit_test(test_min_gives_way_to_max),
		cmocka_unit_test(test_state_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
