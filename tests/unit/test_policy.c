/* Unit tests for the policies: hand-computed values, edge cases, 64-bit extremes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"

#define GIB_KIB (1024u * 1024u)

static struct sample
mem(uint64_t total, uint64_t free, uint64_t buffers, uint64_t cached, uint64_t shmem, uint64_t swap_total,
    uint64_t swap_free)
{
	struct sample s = { 0 };

	s.mem_total_kib = total;
	s.mem_free_kib = free;
	s.buffers_kib = buffers;
	s.cached_kib = cached;
	s.shmem_kib = shmem;
	s.swap_total_kib = swap_total;
	s.swap_free_kib = swap_free;
	return s;
}

static void
test_ck_table(void **state)
{
	static const struct {
		const char *name;
		uint64_t total, free, buffers, cached, shmem, swap_total, swap_free;
		int app, swap, ck;
	} cases[] = {
		/* The seed's machine: 32 MB RAM, 70 MB swap, 35 MB of it used.
		 * free+buffers+cached = 6144 of 32768 = 18.75% -> app 82; swap 50%. */
		{ "seed 32MB", 32768, 1024, 1024, 4096, 0, 71680, 35840, 82, 50, 50 },
		/* Idle seed machine: 63% reclaimable -> app 37, swap untouched. */
		{ "seed idle", 32768, 8192, 2048, 10404, 0, 71680, 71680, 37, 100, 37 },
		{ "no swap", 1000, 100, 0, 100, 0, 0, 0, 80, 0, 0 },
		{ "full swap", 1000, 100, 0, 100, 0, 1000, 0, 80, 0, 0 },
		{ "swap 4x RAM", 1000, 500, 0, 0, 0, 4000, 3000, 50, 75, 50 },
		/* Shmem counts as application memory: 900 reclaimable - 400 shmem. */
		{ "shmem", 1000, 300, 100, 500, 400, 1000, 1000, 50, 100, 50 },
		/* Shmem larger than all of free+buffers+cached: nothing is reclaimable. */
		{ "shmem > cached", 1000, 100, 0, 500, 2000, 1000, 1000, 100, 100, 100 },
		{ "free > total", 1000, 5000, 0, 0, 0, 1000, 1000, 0, 100, 0 },
		{ "swap free > total", 1000, 0, 0, 0, 0, 1000, 5000, 100, 100, 100 },
		{ "empty RAM", 1000, 0, 0, 0, 0, 1000, 999, 100, 99, 99 },
		/* Integer floor: 1/3 reclaimable = 33.3% -> app 67. */
		{ "rounding", 3, 1, 0, 0, 0, 3, 2, 67, 66, 66 },
		{ "64-bit all max", UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, 0, UINT64_MAX, UINT64_MAX, 0, 100, 0 },
		{ "64-bit half", UINT64_MAX, UINT64_MAX / 2, 0, 0, 0, UINT64_MAX, UINT64_MAX / 4, 51, 24, 24 },
		{ "1 TiB", 1024ull * GIB_KIB, 256ull * GIB_KIB, 0, 256ull * GIB_KIB, 0, 64ull * GIB_KIB, 16ull * GIB_KIB, 50,
		  25, 25 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sample s = mem(cases[i].total, cases[i].free, cases[i].buffers, cases[i].cached, cases[i].shmem,
				      cases[i].swap_total, cases[i].swap_free);
		struct policy_result r;

		assert_int_equal(policy_evaluate(POLICY_CK, NULL, &s, &r), 0);
		if (r.app_centile != cases[i].app || r.swap_centile != cases[i].swap || r.ck != cases[i].ck ||
		    r.target != cases[i].ck)
			fail_msg("%s: app %d swap %d ck %d target %d, want %d %d %d", cases[i].name, r.app_centile,
				 r.swap_centile, r.ck, r.target, cases[i].app, cases[i].swap, cases[i].ck);
	}
}

static void
test_no_memtotal(void **state)
{
	struct sample s = mem(0, 100, 0, 0, 0, 100, 100);
	struct policy_result r;

	(void)state;
	r.target = 12345;
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, &s, &r), -EINVAL);
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &s, &r), -EINVAL);
	assert_int_equal(r.target, 12345); /* untouched */
	s.mem_total_kib = 1000;
	assert_int_equal(policy_evaluate(POLICY_COUNT, NULL, &s, &r), -EINVAL);
}

static void
test_reason_text(void **state)
{
	struct sample s = mem(1000, 590, 0, 0, 0, 1000, 230);
	struct policy_result r;

	(void)state;
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, &s, &r), 0);
	assert_string_equal(r.reason, "min(app 41%, swap free 23%)");
	s.swap_total_kib = 0;
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, &s, &r), 0);
	assert_string_equal(r.reason, "no swap");
}

/* Two samples one second apart with given PSI totals and scan/steal counters. */
static void
pair(struct sample *prev, struct sample *cur, uint64_t psi_prev_us, uint64_t psi_cur_us, uint64_t scan_prev,
     uint64_t steal_prev, uint64_t scan_cur, uint64_t steal_cur)
{
	*prev = mem(1000, 500, 0, 0, 0, 1000, 1000);
	*cur = *prev;
	prev->time_us = 5000000;
	cur->time_us = 6000000;
	prev->has_psi = cur->has_psi = true;
	prev->psi.some_total_us = psi_prev_us;
	cur->psi.some_total_us = psi_cur_us;
	prev->has_vmstat = cur->has_vmstat = true;
	prev->pgscan_pages = scan_prev;
	prev->pgsteal_pages = steal_prev;
	cur->pgscan_pages = scan_cur;
	cur->pgsteal_pages = steal_cur;
}

static void
test_distress_table(void **state)
{
	static const struct {
		const char *name;
		uint64_t psi_prev, psi_cur, scan_prev, steal_prev, scan_cur, steal_cur;
		int psi, reclaim, distress;
	} cases[] = {
		{ "idle", 100, 100, 1000, 1000, 1000, 1000, 0, 0, 0 },
		{ "psi 25%", 1000000, 1250000, 0, 0, 0, 0, 25, 0, 25 },
		{ "psi 100%", 0, 1000000, 0, 0, 0, 0, 100, 0, 100 },
		/* More stall than wall time (several CPUs): capped. */
		{ "psi over 100%", 0, 3000000, 0, 0, 0, 0, 100, 0, 100 },
		{ "psi counter reset", 5000000, 10, 0, 0, 0, 0, 0, 0, 0 },
		/* 1000 scanned, 350 stolen: 35% efficient -> 65. */
		{ "reclaim 35%", 0, 0, 1000, 900, 2000, 1250, 0, 65, 65 },
		{ "reclaim easy", 0, 0, 0, 0, 1000, 1000, 0, 0, 0 },
		{ "reclaim nothing stolen", 0, 0, 0, 0, 64, 0, 0, 100, 100 },
		{ "below SWAP_CLUSTER_MAX", 0, 0, 0, 0, 31, 0, 0, 0, 0 },
		{ "exactly SWAP_CLUSTER_MAX", 0, 0, 0, 0, 32, 16, 0, 50, 50 },
		{ "steal > scan", 0, 0, 0, 0, 100, 200, 0, 0, 0 },
		{ "scan counter reset", 0, 0, 5000, 0, 10, 0, 0, 0, 0 },
		{ "max of both", 0, 400000, 0, 0, 100, 70, 40, 30, 40 },
		{ "max of both, reclaim wins", 0, 100000, 0, 0, 100, 20, 10, 80, 80 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sample prev, cur;
		struct policy_result r;

		pair(&prev, &cur, cases[i].psi_prev, cases[i].psi_cur, cases[i].scan_prev, cases[i].steal_prev,
		     cases[i].scan_cur, cases[i].steal_cur);
		assert_int_equal(policy_evaluate(POLICY_TENDENCY, &prev, &cur, &r), 0);
		if (r.psi_distress != cases[i].psi || r.reclaim_distress != cases[i].reclaim ||
		    r.distress != cases[i].distress)
			fail_msg("%s: psi %d reclaim %d distress %d, want %d %d %d", cases[i].name, r.psi_distress,
				 r.reclaim_distress, r.distress, cases[i].psi, cases[i].reclaim, cases[i].distress);
	}
}

static void
test_distress_single_sample(void **state)
{
	static const struct {
		uint32_t avg10_centi;
		int want;
	} cases[] = { { 0, 0 }, { 49, 0 }, { 50, 1 }, { 1234, 12 }, { 9950, 100 }, { 10000, 100 } };
	struct sample s = mem(1000, 500, 0, 0, 0, 1000, 1000);
	struct policy_result r;

	(void)state;
	s.has_psi = true;
	s.has_vmstat = true;
	s.pgscan_pages = 100000; /* cumulative counters alone say nothing */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s.psi.some_avg10_centipct = cases[i].avg10_centi;
		assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &s, &r), 0);
		assert_int_equal(r.psi_distress, cases[i].want);
		assert_int_equal(r.reclaim_distress, 0);
	}
	/* Without PSI at all: zero, not garbage. */
	s.has_psi = false;
	s.psi.some_avg10_centipct = 5000;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &s, &r), 0);
	assert_int_equal(r.psi_distress, 0);
}

static void
test_distress_time_not_advancing(void **state)
{
	struct sample prev, cur;
	struct policy_result r;

	(void)state;
	pair(&prev, &cur, 0, 900000, 0, 0, 0, 0);
	cur.time_us = prev.time_us; /* same instant: fall back to avg10, no division by zero */
	cur.psi.some_avg10_centipct = 700;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &prev, &cur, &r), 0);
	assert_int_equal(r.psi_distress, 7);
	/* A previous sample without PSI: avg10 of the current one. */
	pair(&prev, &cur, 0, 900000, 0, 0, 0, 0);
	prev.has_psi = false;
	cur.psi.some_avg10_centipct = 300;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &prev, &cur, &r), 0);
	assert_int_equal(r.psi_distress, 3);
}

static void
test_tendency(void **state)
{
	struct sample prev, cur;
	struct policy_result r;

	(void)state;
	/* mapped 40% -> 20, distress 25 (PSI), ck: app 50, swap 100 -> 50. */
	pair(&prev, &cur, 1000000, 1250000, 0, 0, 0, 0);
	cur.mapped_kib = 400;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &prev, &cur, &r), 0);
	assert_int_equal(r.mapped_ratio, 40);
	assert_int_equal(r.ck, 50);
	assert_int_equal(r.distress, 25);
	assert_int_equal(r.swap_tendency, 95);
	assert_int_equal(r.target, 95);
	assert_string_equal(r.reason, "mapped 40%/2 + distress 25 + ck 50");
	/* The ck policy reports the same intermediate values but targets ck. */
	assert_int_equal(policy_evaluate(POLICY_CK, &prev, &cur, &r), 0);
	assert_int_equal(r.swap_tendency, 95);
	assert_int_equal(r.target, 50);

	/* Odd mapped ratio: integer halving as in 2.6. */
	cur.mapped_kib = 333;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &prev, &cur, &r), 0);
	assert_int_equal(r.swap_tendency, 33 / 2 + 25 + 50);

	/* Everything at its maximum: 50 + 100 + 100 = 250, above every limit; the
	 * regulator clamps (tested there). Mapped beyond total is capped. */
	pair(&prev, &cur, 0, 1000000, 0, 0, 0, 0);
	cur.mapped_kib = UINT64_MAX;
	cur.mem_free_kib = 0;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &prev, &cur, &r), 0);
	assert_int_equal(r.mapped_ratio, 100);
	assert_int_equal(r.swap_tendency, 250);

	/* Idle machine without swap: everything 0 but mapped/2. */
	cur = mem(1000, 900, 0, 0, 0, 0, 0);
	cur.mapped_kib = 100;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &cur, &r), 0);
	assert_int_equal(r.swap_tendency, 5);
	assert_int_equal(r.distress, 0);
}

static void
test_names(void **state)
{
	enum policy_kind k;

	(void)state;
	assert_string_equal(policy_name(POLICY_CK), "ck");
	assert_string_equal(policy_name(POLICY_TENDENCY), "tendency");
	assert_null(policy_name(POLICY_COUNT));
	assert_int_equal(policy_from_name("tendency", &k), 0);
	assert_int_equal(k, POLICY_TENDENCY);
	assert_int_equal(policy_from_name("CK", &k), -EINVAL);
	assert_int_equal(policy_from_name("", &k), -EINVAL);
}

static void
test_pct(void **state)
{
	(void)state;
	assert_int_equal(policy_pct(0, 0), 0);
	assert_int_equal(policy_pct(5, 0), 0);
	assert_int_equal(policy_pct(1, 3), 33);
	assert_int_equal(policy_pct(2, 3), 66);
	assert_int_equal(policy_pct(UINT64_MAX - 1, UINT64_MAX), 99);
	assert_int_equal(policy_pct(UINT64_MAX, 1), 100);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ck_table),	    cmocka_unit_test(test_no_memtotal),
		cmocka_unit_test(test_reason_text),	    cmocka_unit_test(test_distress_table),
		cmocka_unit_test(test_distress_single_sample), cmocka_unit_test(test_distress_time_not_advancing),
		cmocka_unit_test(test_tendency),	    cmocka_unit_test(test_names),
		cmocka_unit_test(test_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
