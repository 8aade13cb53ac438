/* Unit tests for the policies: hand-computed values, edge cases, 64-bit extremes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/*
 * tendency with a memory (as the daemon runs it, through decide): the formula while
 * the kernel reclaims or tasks stall, the value in effect otherwise (the knob found,
 * before the first decision), and a fall from the top held TENDENCY_TOP_HOLD_S. The
 * machine: ck 50, mapped 0, so the formula is 50 + distress; the range's top is 100.
 */
static void
test_tendency_memory(void **state)
{
	static const struct {
		uint64_t stall_us, scanned, stolen; /* in the second before the poll */
		bool no_vmstat;
		int want;
		const char *reason;
	} steps[] = {
		{ 0, 0, 0, false, 60, "stay at 60: no reclaim (formula 50)" }, /* the first poll: the knob found */
		{ 0, 0, 0, false, 60, "stay at 60: no reclaim (formula 50)" },
		{ 0, 1000, 500, false, 100, "mapped 0%/2 + distress 50 + ck 50" },
		{ 0, 1000, 800, false, 100, "hold top 100: formula 70, at the top 1000 ms ago" },
		{ 0, 1000, 800, false, 100, "hold top 100: formula 70, at the top 2000 ms ago" },
		{ 0, 1000, 800, false, 70, "mapped 0%/2 + distress 20 + ck 50" }, /* 3 s: the hold ends */
		{ 0, 1000, 900, false, 60, "mapped 0%/2 + distress 10 + ck 50" }, /* below the top: at once */
		{ 0, 1000, 1000, false, 50, "mapped 0%/2 + distress 0 + ck 50" }, /* easy reclaim is reclaim */
		{ 0, 31, 0, false, 50, "stay at 50: no reclaim (formula 50)" },	  /* below SWAP_CLUSTER_MAX */
		{ 200000, 0, 0, false, 70, "mapped 0%/2 + distress 20 + ck 50" }, /* a stall counts */
		{ 0, 0, 0, false, 70, "stay at 70: no reclaim (formula 50)" },
		{ 0, 0, 0, true, 50, "mapped 0%/2 + distress 0 + ck 50" }, /* no vmstat: the formula */
		{ 0, 0, 0, false, 50, "mapped 0%/2 + distress 0 + ck 50" }, /* none the poll before either */
		{ 0, 1000, 0, false, 150, "mapped 0%/2 + distress 100 + ck 50" }, /* kept at the top, 100 */
		{ 0, 0, 0, false, 100, "stay at 100: no reclaim (formula 50)" }, /* no reclaim beats the hold */
		{ 0, 1000, 1000, false, 100, "hold top 100: formula 50, at the top 2000 ms ago" },
		{ 0, 1000, 1000, false, 50, "mapped 0%/2 + distress 0 + ck 50" },
	};
	struct policy_state st = { 0 };
	struct sample prev, cur = mem(1000, 500, 0, 0, 0, 1000, 1000);
	struct policy_result r;
	int knob = 60;

	(void)state;
	cur.has_psi = cur.has_vmstat = true;
	cur.time_us = 1000000;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (i > 0) {
			prev = cur;
			cur.time_us += 1000000;
			cur.psi.some_total_us += steps[i].stall_us;
			cur.pgscan_pages += steps[i].scanned;
			cur.pgsteal_pages += steps[i].stolen;
		}
		cur.has_vmstat = !steps[i].no_vmstat;
		policy_begin(&st, knob);
		assert_int_equal(policy_evaluate(POLICY_TENDENCY, &st, i > 0 ? &prev : NULL, &cur, &r), 0);
		if (r.target != steps[i].want || strcmp(r.reason, steps[i].reason) != 0)
			fail_msg("step %zu: %d '%s', want %d '%s'", i, r.target, r.reason, steps[i].want,
				 steps[i].reason);
		/* kept names the rule that the reason gives (explain.c words it from kept). */
		if (strncmp(steps[i].reason, "stay at", 7) == 0)
			assert_int_equal(r.kept, POLICY_KEPT_NO_RECLAIM);
		else if (strncmp(steps[i].reason, "hold top", 8) == 0)
			assert_int_equal(r.kept, POLICY_KEPT_TOP);
		else
			assert_int_equal(r.kept, POLICY_KEPT_NONE);
		knob = r.target > 100 ? 100 : r.target; /* the regulator's clamp to the top */
		policy_observe(&st, knob, 100);
	}
	/* Without the top (no decision yet told it): no hold. */
	st = (struct policy_state){ .has_value = true, .value = 100 };
	prev = cur;
	cur.time_us += 1000000;
	cur.pgscan_pages += 1000;
	cur.pgsteal_pages += 1000;
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &st, &prev, &cur, &r), 0);
	assert_int_equal(r.target, 50);
}

/* The workingset policy poll by poll, on 1000 KiB of RAM, all swap free (ck 50): activations a
 * second (anonymous, file) in the second before each poll, reclaim or not, the page cache and
 * the mapped memory (the formula is mapped%/2 + 50), the target and the end of the reason. The
 * top is 200, as on zram. */
struct ws_step {
	uint64_t anon, file;
	bool reclaim;
	uint64_t cached, mapped;
	uint64_t dt_s; /* seconds since the poll before (0: 1) */
	int want;
	const char *reason;
	int strikes; /* the state's ws_strikes after the poll (-1: not checked) */
};

/* Runs the steps through the workingset policy from a knob at 60 (see test_workingset). */
static void
run_ws_steps(const struct ws_step *steps, size_t n)
{
	struct policy_state st = { 0 };
	struct sample prev, cur = mem(1000, 500, 0, 0, 0, 1000, 1000);
	struct policy_result r;
	int knob = 60;

	cur.has_vmstat = cur.has_refaults = cur.has_activations = cur.has_psi = true;
	cur.time_us = 1000000;
	for (size_t i = 0; i < n; i++) {
		uint64_t dt = steps[i].dt_s ? steps[i].dt_s : 1;
		size_t want_len = strlen(steps[i].reason), len;

		if (i > 0) {
			prev = cur;
			cur.time_us += dt * 1000000;
			cur.activate_anon_pages += steps[i].anon * dt;
			cur.activate_file_pages += steps[i].file * dt;
			cur.pgscan_pages += steps[i].reclaim ? 1000 : 0;
			cur.pgsteal_pages += steps[i].reclaim ? 1000 : 0;
		}
		cur.cached_kib = steps[i].cached;
		cur.mapped_kib = steps[i].mapped;
		cur.mem_free_kib = 500 - steps[i].cached;
		policy_begin(&st, knob);
		assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, i > 0 ? &prev : NULL, &cur, &r), 0);
		len = strlen(r.reason);
		if (r.target != steps[i].want || len < want_len ||
		    strcmp(r.reason + len - want_len, steps[i].reason) != 0 ||
		    (steps[i].reason[0] != ';' && strcmp(r.reason, steps[i].reason) != 0))
			fail_msg("step %zu: %d '%s', want %d '...%s'", i, r.target, r.reason, steps[i].want,
				 steps[i].reason);
		if (steps[i].strikes >= 0 && st.ws_strikes != (unsigned)steps[i].strikes)
			fail_msg("step %zu: %u strikes, want %d", i, st.ws_strikes, steps[i].strikes);
		knob = r.target;
		policy_observe(&st, knob, 200);
	}
}

static void
test_workingset(void **state)
{
	static const struct ws_step steps[] = {
		{ 0, 0, false, 0, 600, 0, 60, "stay at 60: no reclaim (formula 80)", -1 },
		/* The formula, mapped 60%/2 + ck 50, while nothing dominates. */
		{ 0, 0, true, 0, 600, 0, 80, "mapped 60%/2 + distress 0 + ck 50", -1 },
		/* File activations: no steer before the window is full (3 polls). */
		{ 0, 500, true, 0, 600, 0, 80, "mapped 60%/2 + distress 0 + ck 50", -1 },
		{ 0, 500, true, 0, 600, 0, 120, "; file +40 to 120: working set refaults anon 0/s, file 333/s", -1 },
		{ 0, 500, true, 0, 600, 0, 160, "; file +80 to 160: working set refaults anon 0/s, file 500/s", -1 },
		{ 0, 500, true, 0, 600, 0, 200, "; file +120 to 200: working set refaults anon 0/s, file 500/s", -1 },
		{ 0, 500, true, 0, 600, 0, 200, "; file +160 to 200: working set refaults anon 0/s, file 500/s", -1 },
		/* Anonymous ones under MIN_PPS (the dirtier at 200: 0-85/s) do not stop it. */
		{ 85, 0, true, 0, 600, 0, 200, "; file +200 to 200: working set refaults anon 28/s, file 333/s", -1 },
		/* One poll of 512/s, twice the file's: at once to 60. It comes a poll after a rise on
		 * 333 file activations a second, and 600 anonymous ones cost more: no rise for 30 s
		 * (test_workingset_backoff). */
		{ 600, 100, true, 0, 600, 0, 60,
		  "; anonymous -40 to 60: working set refaults anon 228/s, file 200/s; no rise for 30 s", -1 },
		/* The snap started the window afresh (test_workingset_snap_window): nothing steers by
		 * it until it is full again. Then anonymous ones dominate it: down by a step a poll,
		 * never below 60. */
		{ 300, 100, true, 0, 600, 0, 60, "; bias -40 to 60: working set refaults anon 450/s, file 100/s", -1 },
		{ 100, 100, true, 0, 600, 0, 60, "; anonymous -80 to 60: working set refaults anon 333/s, file 100/s", -1 },
		/* Neither dominates: the bias is kept. */
		{ 100, 100, true, 0, 600, 0, 60, "; bias -80 to 60: working set refaults anon 166/s, file 100/s", -1 },
		/* Quiet: the tendency policy keeps the value; after RELAX_S the bias is forgotten. */
		{ 0, 0, false, 0, 600, 29, 60, "stay at 60: no reclaim (formula 80)", -1 },
		{ 0, 0, false, 0, 600, 1, 60, "stay at 60: no reclaim (formula 80)", -1 },
		{ 0, 0, true, 0, 600, 0, 80, "mapped 60%/2 + distress 0 + ck 50", -1 },
		/* 20% of RAM in unmapped cache (cached 400, mapped 200: formula 60): a fresh window,
		 * and no rise however many file activations. */
		{ 0, 500, true, 400, 200, 0, 60, "mapped 20%/2 + distress 0 + ck 50", -1 },
		{ 0, 500, true, 400, 200, 0, 60, "mapped 20%/2 + distress 0 + ck 50", -1 },
		{ 0, 500, true, 400, 200, 0, 60, "mapped 20%/2 + distress 0 + ck 50", -1 },
		/* The cache gone (a phase's file set freed): the window starts again, without the
		 * activations counted while the cache was there. */
		{ 0, 500, true, 0, 600, 0, 80, "mapped 60%/2 + distress 0 + ck 50", -1 },
		{ 0, 500, true, 0, 600, 0, 80, "mapped 60%/2 + distress 0 + ck 50", -1 },
		{ 0, 500, true, 0, 600, 0, 120, "; file +40 to 120: working set refaults anon 0/s, file 500/s", -1 },
		/* The cache grows back to 20%: the rise is dropped at once. */
		{ 0, 500, true, 400, 200, 0, 60, "mapped 20%/2 + distress 0 + ck 50", -1 },
	};

	(void)state;
	run_ws_steps(steps, sizeof(steps) / sizeof(steps[0]));
}

#define WS_FORMULA "mapped 60%/2 + distress 0 + ck 50"
#define WS_REFAULTS(anon, file) ": working set refaults anon " #anon "/s, file " #file "/s"

/*
 * Issue 46 item 2, poll by poll (as test_workingset: formula 80, top 200): a rise followed
 * within POLICY_WS_JUDGE_POLLS polls by a fall on at least as many anonymous activations as the
 * file ones it rose on is a strike, and rises wait 30 s, then 60 s; file activations in the
 * meantime keep the value down ("file, held"). A rise that no fall follows takes a strike away;
 * a fall on fewer anonymous activations than the rise's file ones is no strike (the rise paid);
 * a calm stretch forgets the strikes.
 */
static void
test_workingset_backoff(void **state)
{
	static const struct ws_step steps[] = {
		{ 0, 0, false, 0, 600, 0, 60, "stay at 60: no reclaim (formula 80)", 0 },
		{ 0, 0, true, 0, 600, 0, 80, WS_FORMULA, 0 },
		{ 0, 500, true, 0, 600, 0, 80, WS_FORMULA, 0 },
		{ 0, 500, true, 0, 600, 0, 120, "; file +40 to 120" WS_REFAULTS(0, 333), 0 },
		/* The next poll: 1,000 anonymous activations a second, the rise's cost (333 file
		 * before it): at once to 60, and the first strike. */
		{ 1000, 0, true, 0, 600, 0, 60, "; anonymous -40 to 60" WS_REFAULTS(333, 333) "; no rise for 30 s", 1 },
		/* The window starts afresh from the snap's poll. */
		{ 0, 500, true, 0, 600, 0, 60, "; bias -40 to 60" WS_REFAULTS(500, 250), 1 },
		{ 0, 500, true, 0, 600, 0, 60, "; bias -40 to 60" WS_REFAULTS(333, 333), 1 },
		/* File activations dominate again: the current policy rose here (to 120), and
		 * again on every third poll. */
		{ 0, 500, true, 0, 600, 0, 60, "; file, held -40 to 60" WS_REFAULTS(0, 500), 1 },
		{ 0, 500, true, 0, 600, 26, 60, "; file, held -40 to 60" WS_REFAULTS(0, 500), 1 },
		/* 30 s after the fall: a probe. */
		{ 0, 500, true, 0, 600, 0, 120, "; file +40 to 120" WS_REFAULTS(0, 500), 1 },
		/* Anonymous activations just under SNAP_PPS: neither kind dominates the window, then
		 * the anonymous ones do, two polls after the rise; 510 a second, as many as the 500
		 * file ones it rose on: the second strike, 60 s. */
		{ 510, 0, true, 0, 600, 0, 120, "; bias +40 to 120" WS_REFAULTS(170, 333), 1 },
		{ 510, 0, true, 0, 600, 0, 60, "; anonymous -40 to 60" WS_REFAULTS(340, 166) "; no rise for 60 s", 2 },
		{ 0, 500, true, 0, 600, 0, 60, "; anonymous -80 to 60" WS_REFAULTS(340, 166), 2 },
		{ 0, 500, true, 0, 600, 0, 60, "; bias -80 to 60" WS_REFAULTS(170, 333), 2 },
		{ 0, 500, true, 0, 600, 56, 60, "; file, held -80 to 60" WS_REFAULTS(0, 500), 2 },
		{ 0, 500, true, 0, 600, 2, 120, "; file +40 to 120" WS_REFAULTS(0, 500), 2 },
		/* Then the file activations ebb (the window's still rise it twice) and nothing
		 * dominates: JUDGE_POLLS polls after the last rise without a fall, one strike less. */
		{ 100, 100, true, 0, 600, 0, 160, "; file +80 to 160" WS_REFAULTS(33, 366), 2 },
		{ 100, 100, true, 0, 600, 0, 200, "; file +120 to 200" WS_REFAULTS(66, 233), 2 },
		{ 100, 100, true, 0, 600, 0, 200, "; bias +120 to 200" WS_REFAULTS(100, 100), 2 },
		{ 100, 100, true, 0, 600, 0, 200, "; bias +120 to 200" WS_REFAULTS(100, 100), 2 },
		{ 100, 100, true, 0, 600, 0, 200, "; bias +120 to 200" WS_REFAULTS(100, 100), 2 },
		{ 100, 100, true, 0, 600, 0, 200, "; bias +120 to 200" WS_REFAULTS(100, 100), 2 },
		{ 100, 100, true, 0, 600, 0, 200, "; bias +120 to 200" WS_REFAULTS(100, 100), 1 },
		/* A rise whose fall comes with fewer anonymous activations (300 a second, against the
		 * 400 file ones it rose on): it paid, no strike. */
		{ 0, 400, true, 0, 600, 0, 200, "; file +160 to 200" WS_REFAULTS(66, 200), 1 },
		{ 0, 400, true, 0, 600, 0, 200, "; file +200 to 200" WS_REFAULTS(33, 300), 1 },
		{ 0, 400, true, 0, 600, 0, 200, "; file +200 to 200" WS_REFAULTS(0, 400), 1 },
		{ 300, 0, true, 0, 600, 0, 200, "; file +200 to 200" WS_REFAULTS(100, 266), 1 },
		{ 300, 0, true, 0, 600, 0, 200, "; bias +200 to 200" WS_REFAULTS(200, 133), 1 },
		{ 300, 0, true, 0, 600, 0, 60, "; anonymous -40 to 60" WS_REFAULTS(300, 0), 1 },
		/* A calm stretch of RELAX_S forgets the strikes with the bias. */
		{ 0, 0, false, 0, 600, 30, 60, "stay at 60: no reclaim (formula 80)", 0 },
	};

	(void)state;
	run_ws_steps(steps, sizeof(steps) / sizeof(steps[0]));
}

/*
 * Issue 46 item 2, poll by poll (as test_workingset: formula 80, top 200): a snap restarts the
 * window. The polls before it are of the file activations that the rise answered; kept, they
 * make file dominate the window's means on the next poll of alike activations, and the value
 * rose again at once (an integration run on a busy host: 200 -> 60 on the snap, 60 -> 107 on
 * the next poll, anon 1,455/s and file about as many, the window's anon 913/s and file
 * 2,182/s). Here the rise answered 3,000 file activations a second and the snap came with
 * 1,000 anonymous ones: the rise paid, no strike, so only the window holds the value down.
 */
static void
test_workingset_snap_window(void **state)
{
	static const struct ws_step steps[] = {
		{ 0, 0, false, 0, 600, 0, 60, "stay at 60: no reclaim (formula 80)", 0 },
		{ 0, 0, true, 0, 600, 0, 80, WS_FORMULA, 0 },
		{ 0, 3000, true, 0, 600, 0, 80, WS_FORMULA, 0 },
		{ 0, 3000, true, 0, 600, 0, 120, "; file +40 to 120" WS_REFAULTS(0, 2000), 0 },
		{ 0, 3000, true, 0, 600, 0, 160, "; file +80 to 160" WS_REFAULTS(0, 3000), 0 },
		/* 1,000 anonymous activations a second: at once to 60; fewer than the 3,000 file
		 * ones the rise answered, so no strike. */
		{ 1000, 100, true, 0, 600, 0, 60, "; anonymous -40 to 60" WS_REFAULTS(333, 2033), 0 },
		/* Alike activations: the window holds the snap's poll and this one, and nothing
		 * steers it until it is full again (the window with the polls before the snap:
		 * anon 533/s, file 1,233/s, a rise to 120). */
		{ 600, 600, true, 0, 600, 0, 60, "; bias -40 to 60" WS_REFAULTS(800, 350), 0 },
		{ 600, 600, true, 0, 600, 0, 60, "; bias -40 to 60" WS_REFAULTS(733, 433), 0 },
		{ 600, 600, true, 0, 600, 0, 60, "; bias -40 to 60" WS_REFAULTS(600, 600), 0 },
		/* File activations that dominate after the snap still raise it. */
		{ 0, 3000, true, 0, 600, 0, 120, "; file +40 to 120" WS_REFAULTS(400, 1400), 0 },
	};

	(void)state;
	run_ws_steps(steps, sizeof(steps) / sizeof(steps[0]));
}

/* One poll of the workingset policy, dt_s after the last, as run_ws_steps does. Returns the
 * target, which becomes the knob. */
static int
ws_poll(struct policy_state *st, struct sample *prev, struct sample *cur, int *knob, uint64_t anon,
	uint64_t file, uint64_t dt_s, struct policy_result *r)
{
	*prev = *cur;
	cur->time_us += dt_s * 1000000;
	cur->activate_anon_pages += anon * dt_s;
	cur->activate_file_pages += file * dt_s;
	cur->pgscan_pages += 1000;
	cur->pgsteal_pages += 1000;
	policy_begin(st, *knob);
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, st, prev, cur, r), 0);
	*knob = r->target;
	policy_observe(st, *knob, 200);
	return r->target;
}

/*
 * A fall on anonymous activations never raises the value: after a snap to POLICY_WS_LOW, the
 * window's fall that follows keeps the snap's cap. Here the formula is 150 (mapped 100%/2 + ck
 * 100); the old code cleared the snap on that fall and went to formula + bias, 150 - 80 = 70,
 * above the 60 of the snap (a replay of responsiveness-act: 60 after a snap, then "anonymous
 * -80 to 107").
 */
static void
test_workingset_snap_fall(void **state)
{
	struct policy_state st = { 0 };
	struct sample prev, cur = mem(1000, 0, 0, 0, 0, 1000, 1000);
	struct policy_result r;
	int knob = 60;

	(void)state;
	cur.has_vmstat = cur.has_refaults = cur.has_activations = true;
	cur.mapped_kib = 1000;
	cur.time_us = 1000000;
	policy_begin(&st, knob);
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, NULL, &cur, &r), 0);
	policy_observe(&st, knob, 200);
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 0, 1, &r), 150);
	assert_string_equal(r.reason, "mapped 100%/2 + distress 0 + ck 100");
	/* The snap, then a poll that does not steer (the window restarted). */
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 1000, 0, 1, &r), 60);
	assert_non_null(strstr(r.reason, "; anonymous -40 to 60"));
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 300, 0, 1, &r), 60);
	assert_non_null(strstr(r.reason, "; bias -40 to 60"));
	/* The window's anonymous activations dominate (533/s), this poll's are no snap. */
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 300, 0, 1, &r), 60);
	assert_non_null(strstr(r.reason, "; anonymous -80 to 60" WS_REFAULTS(533, 0)));
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 300, 0, 1, &r), 60);
	assert_non_null(strstr(r.reason, "; anonymous -120 to 60"));
	/* Neither dominates: the bias is kept, and so is the cap (formula + bias would be 30). */
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 600, 1, &r), 60);
	assert_non_null(strstr(r.reason, "; bias -120 to 60" WS_REFAULTS(200, 200)));
	/* File activations that dominate still raise it, from the formula. */
	assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 1000, 1, &r), 190);
	assert_non_null(strstr(r.reason, "; file +40 to 190" WS_REFAULTS(100, 533)));
}

/* The back-off doubles with each strike in a row, 30 s up to 8 min (MAX_STRIKES doublings), and
 * a rise is held until the last second of it; the cache crossing POLICY_SPARE_CEIL_PCT (another
 * phase) forgets the strikes at once. */
static void
test_workingset_backoff_cap(void **state)
{
	static const unsigned want_s[] = { 30, 60, 120, 240, 480, 480 };
	struct policy_state st = { 0 };
	struct sample prev, cur = mem(1000, 500, 0, 0, 0, 1000, 1000);
	struct policy_result r;
	int knob = 60;
	char want[64];

	(void)state;
	cur.has_vmstat = cur.has_refaults = cur.has_activations = true;
	cur.mapped_kib = 600;
	cur.time_us = 1000000;
	policy_begin(&st, knob);
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, NULL, &cur, &r), 0);
	policy_observe(&st, knob, 200);
	for (int i = 0; i < POLICY_ADAPTIVE_WINDOW - 1; i++)
		assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 500, 1, &r), 80);
	for (size_t k = 0; k < sizeof(want_s) / sizeof(want_s[0]); k++) {
		assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 500, 1, &r), 120);
		assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 1000, 0, 1, &r), 60);
		snprintf(want, sizeof(want), "; no rise for %u s", want_s[k]);
		assert_non_null(strstr(r.reason, want));
		/* The file activations return at once; the rise waits out the back-off. */
		assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 500, 1, &r), 60);
		assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 500, 1, &r), 60);
		assert_int_equal(ws_poll(&st, &prev, &cur, &knob, 0, 500, want_s[k] - 3, &r), 60);
		assert_non_null(strstr(r.reason, "; file, held"));
		/* The next poll comes at the back-off's end: the first of the loop rises. */
	}
	assert_int_equal(st.ws_strikes, POLICY_ADAPTIVE_MAX_STRIKES);
	/* 20% of RAM in unmapped cache: another phase, a fresh window and no strikes. */
	cur.cached_kib = 200;
	cur.mapped_kib = 0;
	cur.mem_free_kib = 300;
	ws_poll(&st, &prev, &cur, &knob, 0, 0, 1, &r);
	assert_int_equal(st.ws_strikes, 0);
	assert_int_equal(st.ws_backoff_us, 0);
}

/* Runs the workingset policy from a start at 60 through WINDOW - 1 + rises polls of file
 * activations with reclaim, top as the regulator's, spare_top as decide sets it, and
 * swap_free of 1000 KiB; returns the last result. */
static struct policy_result
workingset_rise(int top, int spare_top, uint64_t swap_free, int rises)
{
	struct policy_state st = { 0 };
	struct sample prev, cur = mem(1000, 500, 0, 0, 0, 1000, swap_free);
	struct policy_result r = { 0 };
	int knob = 60;

	cur.has_vmstat = cur.has_refaults = cur.has_activations = true;
	cur.mapped_kib = 600;
	cur.time_us = 1000000;
	for (int i = 0; i < POLICY_ADAPTIVE_WINDOW + rises; i++) {
		if (i > 0) {
			prev = cur;
			cur.time_us += 1000000;
			cur.activate_file_pages += 1000;
			cur.pgscan_pages += 1000;
			cur.pgsteal_pages += 1000;
		}
		policy_begin(&st, knob);
		st.spare_top = spare_top;
		assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, i > 0 ? &prev : NULL, &cur, &r), 0);
		knob = r.target > top && !r.lift ? top : r.target;
		policy_observe(&st, knob, top);
	}
	return r;
}

/* The workingset policy's edges: above auto's top only where sparing the cache may go, the
 * free swap caps a rise, huge rates do not wrap, one look without history, and a kernel
 * without the activation counters gets tendency. */
static void
test_workingset_edges(void **state)
{
	struct policy_state st = { 0 }, t = { 0 };
	struct sample prev = mem(1000, 500, 0, 0, 0, 1000, 1000), cur;
	struct policy_result r, rt;

	(void)state;
	/* Disk swap with max = auto (top 100, decide_spare_top 200): the rise goes to 200, as
	 * sparing the cache does, and says so to decide (kept SPARE lifts the top). */
	r = workingset_rise(100, 200, 1000, 1);
	assert_int_equal(r.target, 120);
	assert_int_equal(r.kept, POLICY_KEPT_SPARE);
	r = workingset_rise(100, 200, 1000, 6);
	assert_int_equal(r.target, 200);
	assert_int_equal(r.kept, POLICY_KEPT_SPARE);
	/* A configured max of 100 (no spare_top): never above it. */
	r = workingset_rise(100, 0, 1000, 6);
	assert_int_equal(r.target, 100);
	assert_int_equal(r.kept, POLICY_KEPT_NONE);
	/* 30% of the swap free: a rise stops at 4 * 30; the formula itself (80) is not cut. */
	r = workingset_rise(200, 0, 300, 6);
	assert_int_equal(r.target, 120);
	r = workingset_rise(200, 0, 100, 6);
	assert_int_equal(r.target, r.swap_tendency);

	prev.has_vmstat = prev.has_refaults = prev.has_activations = true;
	prev.time_us = 1000000;
	/* Counters near 2^64 that jump: rates near UINT64_MAX, sums that would wrap in 64 bits. */
	policy_begin(&st, 200);
	prev.mapped_kib = 600;
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, NULL, &prev, &r), 0);
	policy_observe(&st, 200, 200);
	for (int i = 0; i < 3; i++) {
		cur = prev;
		cur.time_us += 1000000;
		cur.pgscan_pages += 1000;
		cur.pgsteal_pages += 1000;
		cur.activate_anon_pages = prev.activate_anon_pages + UINT64_MAX / 4;
		cur.activate_file_pages = prev.activate_file_pages + 1;
		assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, &prev, &cur, &r), 0);
		assert_int_equal(r.target, 60);
		policy_observe(&st, r.target, 200);
		prev = cur;
	}
	assert_true(r.activate_anon_pps == UINT64_MAX / 4);

	/* One look without history (--once): the tendency's formula. */
	cur = prev;
	cur.time_us += 1000000;
	cur.activate_file_pages += 300;
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, NULL, &prev, &cur, &r), 0);
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, NULL, &prev, &cur, &rt), 0);
	assert_int_equal(r.target, rt.target);
	assert_string_equal(r.reason, rt.reason);

	/* No activation counters (before Linux 5.9): the tendency policy, decision for decision. */
	cur.has_activations = false;
	cur.pgscan_pages += 1000;
	st = (struct policy_state){ 0 };
	policy_begin(&st, 60);
	policy_begin(&t, 60);
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, &prev, &cur, &r), 0);
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &t, &prev, &cur, &rt), 0);
	assert_int_equal(r.target, rt.target);
	assert_string_equal(r.reason, rt.reason);
	/* Nor in the sample before. */
	cur.has_activations = true;
	prev.has_activations = false;
	assert_int_equal(policy_evaluate(POLICY_WORKINGSET, &st, &prev, &cur, &r), 0);
	assert_int_equal(policy_evaluate(POLICY_TENDENCY, &t, &prev, &cur, &rt), 0);
	assert_int_equal(r.target, rt.target);
}

static void
test_names(void **state)
{
	enum policy_kind k;

	(void)state;
	assert_string_equal(policy_name(POLICY_CK), "ck");
	assert_string_equal(policy_name(POLICY_TENDENCY), "tendency");
	assert_string_equal(policy_name(POLICY_ADAPTIVE), "adaptive");
	assert_string_equal(policy_name(POLICY_WORKINGSET), "workingset");
	assert_string_equal(policy_name(POLICY_DEVICE), "device");
	assert_int_equal(policy_from_name("device", &k), 0);
	assert_int_equal(k, POLICY_DEVICE);
	assert_int_equal(policy_from_name("workingset", &k), 0);
	assert_int_equal(k, POLICY_WORKINGSET);
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

/*
 * The adaptive controller, poll by poll. A model kernel moves the counters by the
 * rates of each poll (pages per second over dt_ms); the value the policy asks for
 * is fed back with policy_observe, as the regulator would settle on it with max =
 * 200 and step 1.
 */
struct apoll {
	uint64_t file, in, out, scan; /* rates, pages per second (in: swap-ins) */
	int want;		      /* the target */
	const char *reason;	      /* how the reason starts (NULL: not checked) */
	unsigned dt_ms;		      /* since the previous poll; 0 means 1000 */
};

#define MAX_APOLLS 24

struct kernel {
	struct sample s;
	struct policy_state st;
	bool started;
};

/* A machine with 1000 KiB of RAM, half of it free (ck 50), swap_free of 1000 KiB swap
 * free, one swap device (zram when zram), and no history. */
static void
kernel_init(struct kernel *k, uint64_t swap_free, bool zram)
{
	memset(k, 0, sizeof(*k));
	k->s = mem(1000, 500, 0, 0, 0, 1000, swap_free);
	k->s.time_us = 1000000;
	k->s.has_vmstat = k->s.has_refaults = k->s.has_swaps = true;
	k->s.swaps = (struct swaps){ .devices = 1, .zram = zram ? 1 : 0 };
}

/* One poll: the counters move by p's rates over its dt (the first poll of a kernel
 * has no previous sample). Returns the result. */
static struct policy_result
kernel_poll(struct kernel *k, const struct apoll *p)
{
	struct sample prev = k->s;
	struct policy_result r;
	uint64_t dt_ms = p->dt_ms ? p->dt_ms : 1000;

	k->s.time_us += dt_ms * 1000;
	k->s.refault_file_pages += p->file * dt_ms / 1000;
	k->s.pswpin_pages += p->in * dt_ms / 1000;
	k->s.refault_anon_pages += p->in * dt_ms / 1000;
	k->s.pswpout_pages += p->out * dt_ms / 1000;
	/* Reclaim scans what it takes: the swap-outs, the cache behind the file
	 * refaults, and p->scan of cold cache. */
	k->s.pgscan_pages += (p->scan + p->out + p->file) * dt_ms / 1000;
	k->s.pgsteal_pages += (p->scan + p->out + p->file) * dt_ms / 1000;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &k->st, k->started ? &prev : NULL, &k->s, &r), 0);
	k->started = true;
	policy_observe(&k->st, r.target, 200);
	return r;
}

/* Shorthands for polls: file refaults, swap-ins with swap-outs, cold reclaim, nothing. */
#define FILE(f, w, why)	    { .file = (f), .want = (w), .reason = (why) }
#define SWAP(i, o, w, why)  { .in = (i), .out = (o), .scan = 100, .want = (w), .reason = (why) }
#define OUT(o, w, why)	    { .out = (o), .want = (w), .reason = (why) }
#define COLD(w, why)	    { .scan = 5000, .want = (w), .reason = (why) }
#define QUIET(w, dt, why)   { .want = (w), .reason = (why), .dt_ms = (dt) }

static void
test_adaptive_table(void **state)
{
	static const struct {
		const char *name;
		uint64_t swap_free;
		bool zram;
		struct apoll polls[MAX_APOLLS];
	} cases[] = {
		{ "fresh start at N, disk swap",
		  1000,
		  false,
		  { QUIET(100, 0, "start at 100: no rates"), QUIET(100, 0, "rest at 100: nothing reclaimed"),
		    COLD(100, "hold 100: file refaults 0/s, swap-outs 0/s, swap-ins 0/s") } },
		/* Two votes of three: the second poll of file refaults raises, to 200. */
		{ "file refaults, no swap-ins: up on the second vote",
		  1000,
		  false,
		  { QUIET(100, 0, "start"), FILE(1000, 100, "hold 100: file refaults 1000/s"),
		    FILE(1000, 200, "up 100: file refaults 1000/s, swap-outs 0/s, swap-ins 0/s"),
		    FILE(900, 200, "hold 200"), COLD(200, "hold 200") } },
		{ "swap-outs without swap-ins: up",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), OUT(600, 100, "hold 100"),
		    OUT(600, 200, "up 100: file refaults 0/s, swap-outs 600/s, swap-ins 0/s") } },
		/* Noise: a single poll of evidence between quiet ones moves nothing. */
		{ "one vote in three: no rise",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(1000, 100, "hold 100"), COLD(100, "hold 100"), COLD(100, "hold 100"),
		    FILE(1000, 100, "hold 100"), COLD(100, "hold 100") } },
		{ "two of three, not in a row: up",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(1000, 100, NULL), COLD(100, NULL), FILE(1000, 200, "up 100") } },
		/* Below the thresholds: 255 file refaults/s, 511 swap-outs/s. */
		{ "below the thresholds: no rise",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(255, 100, "hold 100"), FILE(255, 100, "hold 100"), OUT(511, 100, "hold 100"),
		    OUT(511, 100, "hold 100") } },
		/* File refaults with swap-ins: not cheap. */
		{ "file refaults with swap-ins: no rise",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), { .file = 2000, .in = 200, .want = 100 }, { .file = 2000, .in = 200, .want = 100 },
		    { .file = 2000, .in = 200, .want = 100, .reason = "hold 100" } } },
		/* At 200, the first poll with swap-ins goes back to N; they fall below
		 * SWAPIN_PPS twice: elastic, N stays and no rise for 30 s. */
		{ "swap-ins at 200: back at once, elastic",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(1000, 100, NULL), FILE(1000, 200, NULL), FILE(1000, 200, NULL),
		    SWAP(500, 7000, 100, "back to 100: swap-ins 500/s at 200"),
		    SWAP(300, 2000, 100, "test at 100: swap-ins 300/s, 500/s at 200"), SWAP(100, 0, 100, "test at 100"),
		    SWAP(10, 0, 100, "elastic: swap-ins 10/s at 100, 500/s at 200; no rise for 30 s"),
		    /* The evidence for a rise returns, but the back-off holds for 30 s. */
		    FILE(1000, 100, "hold 100"), FILE(1000, 100, "hold 100"),
		    { .file = 1000, .want = 100, .dt_ms = 27000, .reason = "hold 100" },
		    { .file = 1000, .want = 200, .reason = "up 100" } } },
		/* Halved, and their share of the swap-outs halved too (2 a swap-out, then
		 * 0.8): elastic though still above SWAPIN_PPS. */
		{ "swap-ins and their share halve: elastic",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), OUT(5000, 100, NULL), OUT(5000, 200, NULL), OUT(5000, 200, NULL),
		    SWAP(2000, 1000, 100, "back to 100"), SWAP(800, 1000, 100, "test at 100"),
		    SWAP(900, 1200, 100, "elastic: swap-ins 900/s at 100, 2000/s at 200") } },
		/* Halved with the swap-outs (one of each, as before): less work done, not
		 * less cost. They churn: inelastic. */
		{ "swap-ins halve with the swap-outs: inelastic",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), OUT(5000, 100, NULL), OUT(5000, 200, NULL), OUT(5000, 200, NULL),
		    SWAP(2000, 2000, 100, "back to 100"), SWAP(800, 800, 100, "test at 100"),
		    SWAP(900, 900, 200, "inelastic: swap-ins 900/s at 100, 2000/s at 200; back for 60 s") } },
		/* Back at N the swap-ins stay and come with swap-outs: inelastic, back
		 * to 200 and hold it while they stay about the same. */
		{ "swap-ins that do not fall: back up and hold",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), OUT(5000, 100, NULL), OUT(5000, 200, NULL), OUT(5000, 200, NULL),
		    SWAP(2000, 2000, 100, "back to 100: swap-ins 2000/s at 200"),
		    SWAP(2500, 2400, 100, "test at 100: swap-ins 2500/s, 2000/s at 200"),
		    SWAP(1900, 2000, 200, "inelastic: swap-ins 1900/s at 100, 2000/s at 200; back for 60 s"),
		    SWAP(3000, 3000, 200, "hold 200: swap-ins 3000/s, 2200/s when held"),
		    SWAP(2000, 2000, 200, "hold 200"), SWAP(2000, 2000, 200, "hold 200") } },
		/* Swap-ins that come back without swap-outs (the pages swapped out at
		 * 200 coming home) decide nothing; after 5 polls N stays. */
		{ "swap-ins without swap-outs at N: undecided, N stays",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(1000, 100, NULL), FILE(1000, 200, NULL), FILE(1000, 200, NULL),
		    SWAP(1000, 9000, 100, "back to 100"), SWAP(2800, 0, 100, "test at 100"), SWAP(2000, 0, 100, "test"),
		    SWAP(1500, 0, 100, "test"), SWAP(1200, 0, 100, "test"),
		    SWAP(900, 0, 100, "undecided: swap-ins 900/s at 100, 1000/s at 200; no rise for 30 s") } },
		/* Swap-ins at N with swap-outs to match (the anonymous set cycles through
		 * swap whatever the value): try 200; they grow by less than twice, keep. */
		{ "probe kept",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), SWAP(2000, 2000, 100, "hold 100"),
		    SWAP(2000, 2000, 200, "probe 200: swap-ins 2000/s at 100, swap-outs 2000/s"),
		    SWAP(2500, 2600, 200, "probe at 200: swap-ins 2500/s, 2000/s at 100"),
		    SWAP(3000, 3000, 200, "probe kept: swap-ins 2750/s at 200, 2000/s at 100; hold 60 s"),
		    SWAP(3000, 3000, 200, "hold 200") } },
		{ "probe failed: swap-ins grow, and their share of the swap-outs",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), SWAP(1000, 2000, 100, NULL), SWAP(1000, 2000, 200, "probe 200"),
		    SWAP(3000, 2000, 200, "probe at 200"),
		    SWAP(3000, 2000, 100, "probe failed: swap-ins 3000/s at 200, 1000/s at 100; no rise for 30 s"),
		    SWAP(1000, 2000, 100, "hold 100"), SWAP(1000, 2000, 100, "hold 100") } },
		/* Four times the swap-ins, but four times the swap-outs too: more work
		 * done, the same share comes back. */
		{ "probe kept: swap-ins grow with the swap-outs",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), SWAP(500, 1000, 100, NULL), SWAP(500, 1000, 200, "probe 200"),
		    SWAP(2000, 4000, 200, NULL), SWAP(2000, 4000, 200, "probe kept: swap-ins 2000/s at 200") } },
		/* Swap-ins at N without swap-outs (coming home, not cycling): no probe. */
		{ "swap-ins without swap-outs at N: no probe",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), SWAP(2000, 100, 100, NULL), SWAP(2000, 100, 100, "hold 100"),
		    SWAP(2000, 100, 100, "hold 100") } },
		/* Nothing reclaimed: stay for 30 s (stalls look like this), then 25 a poll. */
		{ "relax after 30 s quiet",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(1000, 100, NULL), FILE(1000, 200, NULL), FILE(1000, 200, NULL),
		    QUIET(200, 10000, "hold 200"), QUIET(200, 10000, "hold 200"), QUIET(200, 9000, "hold 200"),
		    QUIET(175, 1000, "relax to 175: nothing reclaimed"), QUIET(150, 5000, "relax to 150"),
		    QUIET(125, 5000, "relax to 125"), QUIET(100, 5000, "relax to 100"),
		    QUIET(100, 5000, "rest at 100: nothing reclaimed") } },
		/* A stall of 20 s with a busy poll in it starts the 30 s afresh. */
		{ "a busy poll restarts the 30 s",
		  1000,
		  false,
		  { QUIET(100, 0, NULL), FILE(1000, 100, NULL), FILE(1000, 200, NULL), FILE(1000, 200, NULL),
		    QUIET(200, 20000, NULL), COLD(200, NULL), QUIET(200, 20000, "hold 200"),
		    QUIET(175, 10000, "relax to 175") } },
		/* Free swap caps: 30% free -> 120, 10% -> 40 (below N too). */
		{ "free swap caps at 4 x swap_centile",
		  300,
		  false,
		  { QUIET(100, 0, "start at 100"), FILE(1000, 100, NULL), FILE(1000, 120, "up 100: file refaults 1000/s, swap-outs 0/s, swap-ins 0/s; free swap caps at 120"),
		    FILE(1000, 120, "up 80") } },
		{ "little free swap: below N", 100, false, { QUIET(40, 0, "start at 100: no rates; free swap caps at 40") } },
		{ "no free swap: 0", 0, false, { QUIET(0, 0, "start at 100: no rates; free swap caps at 0"), FILE(1000, 0, NULL) } },
		/* All swap on zram: N is 200, nothing to test. */
		{ "zram: N is 200",
		  1000,
		  true,
		  { QUIET(200, 0, "start at 200"), SWAP(3000, 100, 200, "hold 200"), SWAP(3000, 3000, 200, "hold 200"),
		    SWAP(3000, 3000, 200, "hold 200") } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kernel k;

		kernel_init(&k, cases[i].swap_free, cases[i].zram);
		for (size_t j = 0; j < MAX_APOLLS; j++) {
			const struct apoll *p = &cases[i].polls[j];
			struct policy_result r;

			if (j > 0 && p->want == 0 && !p->reason && !p->file && !p->in && !p->out && !p->scan && !p->dt_ms)
				break; /* the end of the list */
			r = kernel_poll(&k, p);
			if (r.target != p->want || (p->reason && strncmp(r.reason, p->reason, strlen(p->reason)) != 0))
				fail_msg("%s, poll %zu: target %d '%s', want %d '%s...'", cases[i].name, j, r.target,
					 r.reason, p->want, p->reason ? p->reason : "");
		}
	}
}

static void
test_adaptive_rates_without_history(void **state)
{
	struct kernel k;
	struct policy_result r;
	struct sample prev;

	(void)state;
	/* One sample: no rates, so it starts at N; --once uses this. */
	kernel_init(&k, 1000, false);
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, NULL, NULL, &k.s, &r), 0);
	assert_int_equal(r.file_refault_pps, 0);
	assert_int_equal(r.target, 100);
	assert_false(r.active);
	/* A kernel without refault counters: the file signal is absent, not garbage. */
	prev = k.s;
	k.s.time_us += 1000000;
	k.s.refault_file_pages += 5000;
	prev.has_refaults = false;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, NULL, &prev, &k.s, &r), 0);
	assert_int_equal(r.file_refault_pps, 0);
	/* Half a second: rates are per second. */
	prev = k.s;
	k.s.time_us += 500000;
	k.s.refault_file_pages += 500;
	k.s.pswpout_pages += 300;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, NULL, &prev, &k.s, &r), 0);
	assert_int_equal(r.file_refault_pps, 1000);
	assert_int_equal(r.swapout_pps, 600);
	/* Time that does not move on is no interval: nothing is learnt from it, and a
	 * test in progress stays where it is. */
	k.st = (struct policy_state){ .has_value = true, .value = 100, .mode = POLICY_MODE_TEST_DOWN, .high = 200 };
	prev = k.s;
	k.s.pswpin_pages += 100000;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &k.st, &prev, &k.s, &r), 0);
	assert_int_equal(r.target, 100);
	assert_int_equal(k.st.mode, POLICY_MODE_TEST_DOWN);
	assert_int_equal(k.st.n_polls, 0);
	/* A test keeps the daemon at its busy pace. */
	assert_true(r.active);
}

/* The back-off doubles with each finding in a row that the higher value costs
 * swap-ins, up to MAX_STRIKES doublings, and a relax forgets it. */
static void
test_adaptive_backoff(void **state)
{
	static const struct apoll rise[] = { FILE(1000, 0, NULL), FILE(1000, 0, NULL), FILE(1000, 0, NULL) };
	static const struct apoll fall[] = { SWAP(1000, 9000, 100, "back to 100"), SWAP(10, 0, 100, "test at 100"),
					     SWAP(10, 0, 100, "elastic") };
	unsigned want_s[] = { 30, 60, 120, 240, 480, 480 };
	struct kernel k;
	char buf[64];

	(void)state;
	kernel_init(&k, 1000, false);
	kernel_poll(&k, &(struct apoll){ 0 });
	for (size_t round = 0; round < sizeof(want_s) / sizeof(want_s[0]); round++) {
		struct policy_result r;
		uint64_t t0;

		for (size_t j = 0; j < 3; j++)
			r = kernel_poll(&k, &rise[j]);
		if (r.target != 200)
			fail_msg("round %zu: rose to %d only (%s)", round, r.target, r.reason);
		for (size_t j = 0; j < 3; j++)
			r = kernel_poll(&k, &fall[j]);
		snprintf(buf, sizeof(buf), "no rise for %u s", want_s[round]);
		if (r.target != 100 || !strstr(r.reason, buf))
			fail_msg("round %zu: %d '%s', want 100 '...%s'", round, r.target, r.reason, buf);
		/* Evidence for a rise all through the back-off: none until it ends. */
		t0 = k.s.time_us;
		while (k.s.time_us - t0 + 1000000 < (uint64_t)want_s[round] * 1000000) {
			r = kernel_poll(&k, &rise[0]);
			if (r.target != 100)
				fail_msg("round %zu: rose to %d %llu s into a back-off of %u s", round, r.target,
					 (unsigned long long)(k.s.time_us - t0) / 1000000, want_s[round]);
		}
	}
	assert_int_equal(k.st.strikes, POLICY_ADAPTIVE_MAX_STRIKES);
	/* 30 quiet seconds forget the strikes. */
	kernel_poll(&k, &(struct apoll){ .dt_ms = 30000 });
	assert_int_equal(k.st.strikes, 0);
	assert_int_equal(k.st.backoff_until_us, 0);
}

/*
 * A closed loop against model kernels, with 20% noise on the rates: the controller
 * must end where the model says and must not swing. Each poll is a second; every
 * write the regulator (step 5) lets through is counted. A model gives, for the
 * value v: file refaults 40 * (file_zero_at - v) while positive; elastic swap-ins
 * 40 * (v - anon_from) while positive, with as many swap-outs (what comes in
 * pushes something out); and `thrash` swap-ins with as many swap-outs at every
 * value (an anonymous set larger than RAM).
 */
static void
test_adaptive_settles(void **state)
{
	static const struct {
		const char *name;
		int file_zero_at, anon_from;
		uint64_t thrash;
		int end_lo, end_hi;
		int max_writes; /* in 600 s */
	} models[] = {
		/* phased phase 1: the cache thrashes below 200, nothing swaps in. */
		{ "file refaults only", 300, 300, 0, 200, 200, 2 },
		/* phased phase 2: nothing at N, swap-ins above it. */
		{ "swap-ins above N only", 0, 100, 0, 100, 100, 0 },
		/* File refaults at N, swap-ins above it: each rise costs swap-ins. The
		 * back-off doubles (30, 60, ... 480 s): 4 tries of 2-3 writes in 600 s. */
		{ "balanced at 100", 150, 100, 0, 100, 100, 12 },
		{ "balanced at 120", 140, 120, 0, 100, 100, 12 },
		/* responsiveness and dirtier: swap-ins whatever the value. A probe, then
		 * re-tests (2 writes each) after holds of 60, 120 and 240 s. */
		{ "thrash", 120, 300, 2000, 200, 200, 7 },
		{ "thrash, no file refaults", 0, 300, 2000, 200, 200, 7 },
		/* Swap-ins at N that grow at 200 while the file refaults go: the kernel
		 * trades one for the other, the swap-outs grow as much (the same share
		 * comes back), so the probe keeps 200 and re-tests find the same. */
		{ "trade", 200, 80, 0, 100, 200, 7 },
		{ "nothing at all", 0, 300, 0, 100, 100, 0 },
	};
	uint64_t rng = 12345;

	(void)state;
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		struct kernel k;
		int v, written, writes = 0;

		kernel_init(&k, 1000, false);
		v = written = kernel_poll(&k, &(struct apoll){ 0 }).target;
		for (int poll = 0; poll < 600; poll++) {
			int file = 40 * (models[m].file_zero_at - v), anon = 40 * (v - models[m].anon_from);
			struct apoll p = { 0 };
			uint64_t noise;

			p.file = (uint64_t)(file > 0 ? file : 0);
			p.in = (uint64_t)(anon > 0 ? anon : 0) + models[m].thrash;
			p.out = p.in;
			p.scan = 4096;
			/* +-20% on each rate, as the replay tests add. */
			rng = rng * 6364136223846793005u + 1442695040888963407u;
			noise = 80 + (rng >> 33) % 41;
			p.file = p.file * noise / 100;
			p.in = p.in * noise / 100;
			p.out = p.out * (200 - noise) / 100;
			v = kernel_poll(&k, &p).target;
			assert_in_range(v, 0, 200);
			if (abs(v - written) >= 5 || (v != written && (v == 0 || v == 200))) {
				written = v;
				writes++;
			}
		}
		if (writes > models[m].max_writes || v < models[m].end_lo || v > models[m].end_hi)
			fail_msg("%s: %d writes in 600 s (at most %d), ended at %d (want %d..%d)", models[m].name, writes,
				 models[m].max_writes, v, models[m].end_lo, models[m].end_hi);
	}
}

/* Rates near 2^64 (a counter that jumped, or garbage from a broken kernel): the
 * comparisons must not wrap around. */
static void
test_adaptive_huge_rates(void **state)
{
	static const struct {
		const char *name;
		uint64_t in, out;
		int want;
		const char *reason;
	} after_snap[] = {
		/* The test at N compares ref (2^63) with 2 * swap-ins: 2 * 2^63 wraps to 0. */
		{ "swap-ins 2^63 do not look fallen", (UINT64_MAX >> 1) + 1, 0, 100, "test at 100" },
		/* 2 * swap-outs (2^63) wraps to 0: the churn must still be seen. */
		{ "swap-outs 2^63 churn", UINT64_MAX >> 1, (UINT64_MAX >> 1) + 1, 100, "test at 100" },
		{ "the second churn: inelastic", UINT64_MAX >> 1, (UINT64_MAX >> 1) + 1, 200, "inelastic" },
	};
	struct kernel k;
	struct policy_result r;
	struct sample prev;

	(void)state;
	kernel_init(&k, 1000, false);
	k.st = (struct policy_state){ .has_value = true, .value = 100, .mode = POLICY_MODE_TEST_DOWN, .high = 200,
				      .ref_in_pps = (UINT64_MAX >> 1) + 1, .ref_out_pps = UINT64_MAX };
	for (size_t i = 0; i < sizeof(after_snap) / sizeof(after_snap[0]); i++) {
		k.s.pswpin_pages = k.s.pswpout_pages = k.s.refault_anon_pages = 0;
		prev = k.s;
		k.s.time_us += 1000000;
		k.s.pswpin_pages = after_snap[i].in;
		k.s.pswpout_pages = after_snap[i].out;
		assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &k.st, &prev, &k.s, &r), 0);
		if (r.target != after_snap[i].want || strncmp(r.reason, after_snap[i].reason, strlen(after_snap[i].reason)))
			fail_msg("%s: %d '%s', want %d '%s...'", after_snap[i].name, r.target, r.reason,
				 after_snap[i].want, after_snap[i].reason);
		policy_observe(&k.st, r.target, 200);
	}
	/* Held at 200 against swap-ins near 2^64: the share test multiplies rates of
	 * 2^64 by each other. Swap-ins grew (2^64 - 1 against 2^62) but so did the
	 * swap-outs: no re-test. */
	k.s.pswpin_pages = k.s.pswpout_pages = 0;
	prev = k.s;
	k.s.time_us += 1000000;
	k.s.pswpin_pages = UINT64_MAX;
	k.s.pswpout_pages = UINT64_MAX;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &k.st, &prev, &k.s, &r), 0);
	assert_int_equal(r.target, 200);
	/* Counters that go back (a reset) count as no change: quiet. */
	prev = k.s;
	k.s.time_us += 1000000;
	k.s.pswpin_pages = 0;
	k.s.pswpout_pages = 0;
	assert_int_equal(policy_evaluate(POLICY_ADAPTIVE, &k.st, &prev, &k.s, &r), 0);
	assert_int_equal(r.swapin_pps, 0);
	/* Time near 2^64: the hold and back-off deadlines saturate instead of wrapping
	 * to the past. */
	kernel_init(&k, 1000, false);
	k.s.time_us = UINT64_MAX - 10000000;
	kernel_poll(&k, &(struct apoll){ 0 });
	kernel_poll(&k, &(struct apoll){ .file = 1000 });
	kernel_poll(&k, &(struct apoll){ .file = 1000 });
	r = kernel_poll(&k, &(struct apoll){ .in = 1000, .out = 9000 });
	assert_int_equal(r.target, 100);
	kernel_poll(&k, &(struct apoll){ .in = 1 });
	r = kernel_poll(&k, &(struct apoll){ .in = 1 });
	assert_true(strncmp(r.reason, "elastic", 7) == 0);
	assert_int_equal(k.st.backoff_until_us, UINT64_MAX);
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

/*
 * The device policy: the swap devices' cost value, whatever the memory and the
 * pressure (distress 100 here, which would move every other policy), held from
 * poll to poll; without swap the value in effect.
 */
static void
test_device(void **state)
{
	static const struct {
		const char *name;
		bool has_swaps;
		unsigned devices, zram;
		bool zswap;
		uint64_t swap_total;
		int target;
		const char *reason;
	} cases[] = {
		{ "disk", true, 1, 0, false, 1000, 100, "swap on disk, cost value 100" },
		{ "zram", true, 2, 2, false, 1000, 200, "all swap on zram, cost value 200" },
		/* zram's 200 holds with zswap on: zswap does not stand in front of zram's IO. */
		{ "zram, zswap on", true, 1, 1, true, 1000, 200, "all swap on zram, cost value 200" },
		{ "zswap", true, 1, 0, true, 1000, 133, "zswap in front of swap, cost value 133" },
		{ "disk and zram", true, 2, 1, false, 1000, 100, "swap on disk and zram, cost value 100" },
		{ "no /proc/swaps", false, 0, 0, false, 1000, 100, "swap devices unknown, cost value 100" },
		/* No swap: the value in effect (policy_observe's 37) stays. */
		{ "no swap", true, 0, 0, false, 0, 37, "no swap, stay at 37" },
		{ "no swap, zswap on", true, 0, 0, true, 0, 37, "no swap, stay at 37" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy_state st = { 0 };
		struct sample prev, cur;
		struct policy_result r;

		pair(&prev, &cur, 0, 1000000, 0, 0, 1000, 0); /* distress 100 */
		cur.swap_total_kib = cur.swap_free_kib = cases[i].swap_total;
		cur.has_swaps = cases[i].has_swaps;
		cur.swaps = (struct swaps){ .devices = cases[i].devices, .zram = cases[i].zram };
		cur.zswap_enabled = cases[i].zswap;
		policy_begin(&st, 60);
		policy_observe(&st, 37, 100);
		assert_int_equal(policy_evaluate(POLICY_DEVICE, &st, &prev, &cur, &r), 0);
		if (r.target != cases[i].target || strcmp(r.reason, cases[i].reason) != 0)
			fail_msg("%s: target %d (%s), want %d (%s)", cases[i].name, r.target, r.reason,
				 cases[i].target, cases[i].reason);
		assert_int_equal(r.kept, cases[i].swap_total ? POLICY_KEPT_NONE : POLICY_KEPT_NO_SWAP);
		assert_int_equal(r.distress, 100);
	}
}

/* The device changes between polls (zram set up at boot, zswap switched on, swapoff): the
 * target follows it at the next poll; before the first decision, no swap keeps the knob. */
static void
test_device_follows(void **state)
{
	static const struct {
		unsigned devices, zram;
		bool zswap;
		int target;
	} polls[] = {
		{ 0, 0, false, 60 },  /* no swap yet: the knob the daemon found */
		{ 1, 1, false, 200 }, /* zram added */
		{ 1, 1, false, 200 }, /* held */
		{ 2, 1, false, 100 }, /* a disk beside it */
		{ 2, 1, true, 133 },  /* zswap switched on */
		{ 1, 0, false, 100 }, /* zram gone, zswap off */
		{ 0, 0, false, 100 }, /* swapoff: the value in effect stays */
	};
	struct policy_state st = { 0 };
	struct sample prev = mem(1000, 500, 0, 0, 0, 0, 0), cur;

	(void)state;
	policy_begin(&st, 60);
	for (size_t i = 0; i < sizeof(polls) / sizeof(polls[0]); i++) {
		struct policy_result r;

		cur = prev;
		cur.time_us = prev.time_us + 1000000;
		cur.has_swaps = true;
		cur.swaps = (struct swaps){ .devices = polls[i].devices, .zram = polls[i].zram };
		cur.zswap_enabled = polls[i].zswap;
		cur.swap_total_kib = cur.swap_free_kib = polls[i].devices ? 1000 : 0;
		assert_int_equal(policy_evaluate(POLICY_DEVICE, &st, i ? &prev : NULL, &cur, &r), 0);
		if (r.target != polls[i].target)
			fail_msg("poll %zu: target %d (%s), want %d", i, r.target, r.reason, polls[i].target);
		/* What the regulator would settle on, with auto's top. */
		policy_observe(&st, r.target, policy_device_max(&cur));
		prev = cur;
	}
	/* Without history (st NULL) there is nothing to keep: the cost value all the same. */
	{
		struct policy_result r;

		assert_int_equal(policy_evaluate(POLICY_DEVICE, NULL, NULL, &cur, &r), 0);
		assert_int_equal(r.target, 100);
		assert_string_equal(r.reason, "no swap, cost value 100");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ck_table),	    cmocka_unit_test(test_no_memtotal),
		cmocka_unit_test(test_reason_text),	    cmocka_unit_test(test_distress_table),
		cmocka_unit_test(test_distress_single_sample), cmocka_unit_test(test_distress_time_not_advancing),
		cmocka_unit_test(test_tendency),	    cmocka_unit_test(test_tendency_memory),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_pct),	    cmocka_unit_test(test_adaptive_table),
		cmocka_unit_test(test_adaptive_rates_without_history), cmocka_unit_test(test_adaptive_backoff),
		cmocka_unit_test(test_adaptive_settles), cmocka_unit_test(test_device_max),
		cmocka_unit_test(test_adaptive_huge_rates),
		cmocka_unit_test(test_workingset),	    cmocka_unit_test(test_workingset_backoff),
		cmocka_unit_test(test_workingset_snap_window),
		cmocka_unit_test(test_workingset_snap_fall),
		cmocka_unit_test(test_workingset_backoff_cap), cmocka_unit_test(test_workingset_edges),
		cmocka_unit_test(test_device),		    cmocka_unit_test(test_device_follows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
