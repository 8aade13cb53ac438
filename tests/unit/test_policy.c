/* Unit tests for the policies: hand-computed values, edge cases, 64-bit extremes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

		assert_int_equal(policy_evaluate(POLICY_CK, NULL, NULL, &s, &r), 0);
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
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, NULL, &s, &r), -EINVAL);
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, NULL, &s, &r), -EINVAL);
	assert_int_equal(r.target, 12345); /* untouched */
	s.mem_total_kib = 1000;
	assert_int_equal(policy_evaluate(POLICY_COUNT, NULL, NULL, &s, &r), -EINVAL);
}

static void
test_reason_text(void **state)
{
	struct sample s = mem(1000, 590, 0, 0, 0, 1000, 230);
	struct policy_result r;

	(void)state;
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, NULL, &s, &r), 0);
	assert_string_equal(r.reason, "min(app 41%, swap free 23%)");
	s.swap_total_kib = 0;
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, NULL, &s, &r), 0);
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
		assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &r), 0);
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
		assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, NULL, &s, &r), 0);
		assert_int_equal(r.psi_distress, cases[i].want);
		assert_int_equal(r.reclaim_distress, 0);
	}
	/* Without PSI at all: zero, not garbage. */
	s.has_psi = false;
	s.psi.some_avg10_centipct = 5000;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, NULL, &s, &r), 0);
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
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.psi_distress, 7);
	/* A previous sample without PSI: avg10 of the current one. */
	pair(&prev, &cur, 0, 900000, 0, 0, 0, 0);
	prev.has_psi = false;
	cur.psi.some_avg10_centipct = 300;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &r), 0);
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
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.mapped_ratio, 40);
	assert_int_equal(r.ck, 50);
	assert_int_equal(r.distress, 25);
	assert_int_equal(r.swap_tendency, 95);
	assert_int_equal(r.target, 95);
	assert_string_equal(r.reason, "mapped 40%/2 + distress 25 + ck 50");
	/* The ck policy reports the same intermediate values but targets ck. */
	assert_int_equal(policy_evaluate(POLICY_CK, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.swap_tendency, 95);
	assert_int_equal(r.target, 50);

	/* Odd mapped ratio: integer halving as in 2.6. */
	cur.mapped_kib = 333;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.swap_tendency, 33 / 2 + 25 + 50);

	/* Everything at its maximum: 50 + 100 + 100 = 250, above every limit; the
	 * regulator clamps (tested there). Mapped beyond total is capped. */
	pair(&prev, &cur, 0, 1000000, 0, 0, 0, 0);
	cur.mapped_kib = UINT64_MAX;
	cur.mem_free_kib = 0;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.mapped_ratio, 100);
	assert_int_equal(r.swap_tendency, 250);

	/* Idle machine without swap: everything 0 but mapped/2. */
	cur = mem(1000, 900, 0, 0, 0, 0, 0);
	cur.mapped_kib = 100;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, NULL, &cur, &r), 0);
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
	assert_string_equal(policy_name(POLICY_ADAPTIVE), "adaptive");
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

/* Two samples one second apart with these refault and swap-in rates. */
static void
rates_scan(struct sample *prev, struct sample *cur, uint64_t file_pps, uint64_t anon_pps, uint64_t swapin_pps,
	   uint64_t swap_free, uint64_t scan_pps)
{
	*prev = mem(1000, 500, 0, 0, 0, 1000, swap_free);
	prev->time_us = 10000000;
	prev->has_refaults = prev->has_vmstat = true;
	prev->refault_file_pages = 1000;
	prev->refault_anon_pages = 2000;
	prev->pswpin_pages = 3000;
	*cur = *prev;
	cur->time_us = prev->time_us + 1000000;
	cur->refault_file_pages += file_pps;
	cur->refault_anon_pages += anon_pps;
	cur->pswpin_pages += swapin_pps;
	cur->pgscan_pages += scan_pps;
	cur->pgsteal_pages += scan_pps; /* efficient reclaim: no reclaim distress */
}

static void
rates(struct sample *prev, struct sample *cur, uint64_t file_pps, uint64_t anon_pps, uint64_t swapin_pps,
      uint64_t swap_free)
{
	rates_scan(prev, cur, file_pps, anon_pps, swapin_pps, swap_free, 0);
}

static void
test_adaptive_table(void **state)
{
	static const struct {
		const char *name;
		bool has_state;
		int from;
		uint64_t file, anon, swapin, swap_free;
		int target;
		const char *reason;
	} cases[] = {
		/* ck here is min(app 50, swap free) = 50 with all swap free. */
		{ "fresh start rests at ck", false, 0, 0, 0, 0, 1000, 50, "rest: no refaults, ck 50" },
		{ "file refaults: up", true, 50, 1000, 0, 0, 1000, 60, "up 10: file refaults 1000/s, swap-ins 0/s" },
		{ "swap-ins: down", true, 50, 10, 0, 1000, 1000, 40, "down 10: swap-ins 1000/s, file refaults 10/s" },
		{ "anon refaults count as swap-ins", true, 50, 100, 500, 100, 1000, 40,
		  "down 10: swap-ins 500/s, file refaults 100/s" },
		{ "neither dominates: hold", true, 70, 100, 60, 0, 1000, 70, "hold: file refaults 100/s, swap-ins 60/s" },
		{ "balanced and busy: hold", true, 70, 5000, 4000, 4000, 1000, 70,
		  "hold: file refaults 5000/s, swap-ins 4000/s" },
		{ "reclaiming without refaults: hold", true, 80, 10, 10, 10, 1000, 80,
		  "hold: file refaults 10/s, swap-ins 10/s" },
		{ "quiet: drift down to ck", true, 80, 10, 10, 10, 1000, 78, "drift to ck: no refaults, ck 50" },
		{ "quiet: drift up to ck", true, 49, 0, 0, 0, 1000, 50, "drift to ck: no refaults, ck 50" },
		{ "just below the noise floor", true, 60, 63, 0, 0, 1000, 58, "drift to ck: no refaults, ck 50" },
		{ "at the noise floor", true, 60, 64, 0, 0, 1000, 70, "up 10: file refaults 64/s, swap-ins 0/s" },
		/* 30% swap free: ceiling swap_centile = 30 (ck is 30 too). */
		{ "free swap caps", true, 50, 1000, 0, 0, 300, 30,
		  "up 10: file refaults 1000/s, swap-ins 0/s; free swap caps at 30" },
		/* 70% free: ceiling 70*70/50 = 98. */
		{ "free swap opens the range", true, 95, 1000, 0, 0, 700, 98,
		  "up 10: file refaults 1000/s, swap-ins 0/s; free swap caps at 98" },
		{ "full range with empty swap", true, 195, 1000, 0, 0, 1000, 200,
		  "up 10: file refaults 1000/s, swap-ins 0/s; free swap caps at 200" },
		{ "floor at 0", true, 5, 0, 0, 1000, 1000, 0, "down 10: swap-ins 1000/s, file refaults 0/s" },
		{ "no free swap: 0", true, 100, 1000, 0, 0, 0, 0,
		  "up 10: file refaults 1000/s, swap-ins 0/s; free swap caps at 0" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy_state st = { .has_value = cases[i].has_state, .value = cases[i].from };
		struct sample prev, cur;
		struct policy_result r;

		/* The hold case scans; the others do not. */
		rates_scan(&prev, &cur, cases[i].file, cases[i].anon, cases[i].swapin, cases[i].swap_free,
			   strncmp(cases[i].name, "reclaiming", 10) == 0 ? 5000 : 0);
		assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &st, &prev, &cur, &r), 0);
		if (r.target != cases[i].target || strcmp(r.reason, cases[i].reason) != 0)
			fail_msg("%s: target %d '%s', want %d '%s'", cases[i].name, r.target, r.reason, cases[i].target,
				 cases[i].reason);
	}
}

static void
test_adaptive_distress_speeds_up(void **state)
{
	struct policy_state st = { .has_value = true, .value = 100 };
	struct sample prev, cur;
	struct policy_result r;

	(void)state;
	rates(&prev, &cur, 0, 0, 2000, 1000);
	prev.has_psi = cur.has_psi = true;
	cur.psi.some_total_us = 400000; /* 40% of the second stalled: step 10 + 40/4 */
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &st, &prev, &cur, &r), 0);
	assert_int_equal(r.distress, 40);
	assert_int_equal(r.target, 80);
	assert_true(r.active);
	assert_int_equal(r.swapin_pps, 2000);
}

static void
test_adaptive_falls_fast(void **state)
{
	struct policy_state st = { .has_value = true, .value = 193 };
	struct sample prev, cur;
	struct policy_result r;
	static const int want[] = { 183, 92, 46, 23, 12, 2 };

	(void)state;
	/* Swap-ins dominate poll after poll: the first fall is a plain step,
	 * then half the value each time until the plain step is larger. */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		rates_scan(&prev, &cur, 0, 0, 5000, 1000, 4096);
		assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &st, &prev, &cur, &r), 0);
		if (r.target != want[i])
			fail_msg("fall %zu: %d, want %d (%s)", i, r.target, want[i], r.reason);
		policy_observe(&st, r.target);
	}
	/* Rising is never multiplicative. */
	st = (struct policy_state){ .has_value = true, .value = 40, .last_dir = 1 };
	rates_scan(&prev, &cur, 5000, 0, 0, 1000, 4096);
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &st, &prev, &cur, &r), 0);
	assert_int_equal(r.target, 50);
}

static void
test_adaptive_rates_without_history(void **state)
{
	struct sample prev, cur;
	struct policy_result r;

	(void)state;
	rates(&prev, &cur, 5000, 0, 0, 1000);
	/* One sample: no rates, so it rests at ck; --once uses this. */
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, NULL, NULL, &cur, &r), 0);
	assert_int_equal(r.file_refault_pps, 0);
	assert_int_equal(r.target, 50);
	assert_false(r.active);
	/* A kernel without refault counters: the file signal is absent, not garbage. */
	prev.has_refaults = false;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.file_refault_pps, 0);
	/* Half a second: rates are per second. */
	rates(&prev, &cur, 500, 0, 0, 1000);
	cur.time_us = prev.time_us + 500000;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, NULL, &prev, &cur, &r), 0);
	assert_int_equal(r.file_refault_pps, 1000);
}

/*
 * A closed loop against a model kernel in which raising swappiness trades file
 * refaults for swap-ins: the controller must settle instead of swinging, and
 * every write the regulator (step 5) lets through must be counted.
 */
static void
test_adaptive_settles(void **state)
{
	static const struct {
		int file_zero_at; /* swappiness at which file refaults stop */
		int anon_from;	  /* swappiness at which swap-ins start */
	} models[] = { { 100, 100 }, { 150, 80 }, { 60, 120 }, { 200, 0 }, { 30, 30 } };

	(void)state;
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		struct policy_state st = { 0 };
		int v = 50, writes = 0, reversals = 0, last_written = 50, last_dir = 0;

		for (int poll = 0; poll < 300; poll++) {
			struct sample prev, cur;
			struct policy_result r;
			int file = 30 * (models[m].file_zero_at - v), anon = 30 * (v - models[m].anon_from), dir;

			/* Under pressure the kernel scans all along. */
			rates_scan(&prev, &cur, (uint64_t)(file > 0 ? file : 0), 0, (uint64_t)(anon > 0 ? anon : 0), 1000,
				   4096);
			assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &st, &prev, &cur, &r), 0);
			assert_in_range(r.target, 0, 200);
			v = r.target;
			policy_observe(&st, v);
			if (abs(v - last_written) >= 5) {
				dir = v > last_written ? 1 : -1;
				if (last_dir && dir != last_dir)
					reversals++;
				last_dir = dir;
				last_written = v;
				writes++;
			}
		}
		/* Settled: no write in the last 200 polls' worth of swinging. */
		if (reversals > 4 || writes > 30)
			fail_msg("model %zu: %d writes, %d reversals, ended at %d", m, writes, reversals, v);
	}
}

/* Rates near 2^64 (a counter that jumped, or garbage from a broken kernel):
 * "one outnumbers the other twice" must not wrap around, which turned a
 * balanced pair into a move. */
static void
test_adaptive_huge_rates(void **state)
{
	static const struct {
		const char *name;
		uint64_t file, swapin;
		int target;
		const char *reason_start;
	} cases[] = {
		/* 2 * swap-ins wraps to 2: file refaults looked dominant. */
		{ "file near 2^64, swap-ins 2^63", UINT64_MAX - 1000, (UINT64_MAX >> 1) + 1, 70, "hold: " },
		/* 2 * file wraps to 0: swap-ins looked dominant. */
		{ "swap-ins near 2^64, file 2^63", (UINT64_MAX >> 1) + 1, UINT64_MAX - 3000, 70, "hold: " },
		/* Dominance that is real still counts at the top of the range. */
		{ "file near 2^64, swap-ins 2^62", UINT64_MAX - 1000, UINT64_MAX >> 2, 80, "up 10: " },
		{ "swap-ins near 2^64, file 2^62", UINT64_MAX >> 2, UINT64_MAX - 3000, 60, "down 10: " },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy_state st = { .has_value = true, .value = 70 };
		struct sample prev, cur;
		struct policy_result r;

		rates(&prev, &cur, cases[i].file, 0, cases[i].swapin, 1000);
		assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &st, &prev, &cur, &r), 0);
		if (r.target != cases[i].target ||
		    strncmp(r.reason, cases[i].reason_start, strlen(cases[i].reason_start)) != 0)
			fail_msg("%s: target %d '%s', want %d '%s...'", cases[i].name, r.target, r.reason,
				 cases[i].target, cases[i].reason_start);
	}
}

static void
test_device_max(void **state)
{
	struct sample s = mem(1000, 500, 0, 0, 0, 1000, 1000);

	(void)state;
	assert_int_equal(policy_device_max(&s), 100); /* /proc/swaps unreadable: assume disk */
	s.has_swaps = true;
	s.swaps = (struct swaps){ .devices = 1, .zram = 0 };
	assert_int_equal(policy_device_max(&s), 100);
	s.swaps = (struct swaps){ .devices = 2, .zram = 2 };
	assert_int_equal(policy_device_max(&s), 200);
	s.swaps = (struct swaps){ .devices = 2, .zram = 1 }; /* zram in front of a disk */
	assert_int_equal(policy_device_max(&s), 100);
	s.zswap_enabled = true;
	assert_int_equal(policy_device_max(&s), 133);
	s.swaps = (struct swaps){ .devices = 0, .zram = 0 };
	assert_int_equal(policy_device_max(&s), 133);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ck_table),	    cmocka_unit_test(test_no_memtotal),
		cmocka_unit_test(test_reason_text),	    cmocka_unit_test(test_distress_table),
		cmocka_unit_test(test_distress_single_sample), cmocka_unit_test(test_distress_time_not_advancing),
		cmocka_unit_test(test_tendency),	    cmocka_unit_test(test_names),
		cmocka_unit_test(test_pct),	    cmocka_unit_test(test_adaptive_table),
		cmocka_unit_test(test_adaptive_distress_speeds_up), cmocka_unit_test(test_adaptive_rates_without_history),
		cmocka_unit_test(test_adaptive_settles), cmocka_unit_test(test_device_max),
		cmocka_unit_test(test_adaptive_falls_fast), cmocka_unit_test(test_adaptive_huge_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
