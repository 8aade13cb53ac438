/*
 * Replay tests: the benchmark VM's recorded signals (tests/data/traces, recorded at static
 * swappiness values; see the README there) run through each policy as the daemon runs it (policy
 * -> regulator -> the value written, fed back), with seeded noise on the counters, and the value
 * each policy reaches in each phase is asserted. A policy change is tried here in a second
 * instead of in a two-hour `make bench`.
 *
 * A new policy joins every loop over POLICY_COUNT (--show) by itself. To see what each policy does on each trace (per
 * phase: polls, the value entering and leaving it, its range, writes per minute, the values poll by poll):
 *   build/tests/test_replay --show
 * The traces are read from tests/data/traces (make runs the tests from the top directory), or
 * from $REPLAY_TRACES.
 */
#include <errno.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay.h"

/* Noise: each counter's per-row delta times 1 +- up to 20%, the spread between repetitions of one
 * setting in bench/results (median coefficient of variation of the counters 0.01-0.19, issue 12). */
#define NOISE_PCT 20
/* Seeds 1..N with noise, and seed 0 without (the trace as recorded). */
#define N_SEEDS		8
#define MAX_PHASE_POLLS 4096

static const char *
traces_dir(void)
{
	const char *d = getenv("REPLAY_TRACES");

	return d && *d ? d : "tests/data/traces";
}

/* ---- the trace reader ---------------------------------------------------------------------- */

#define HEADER "t_ms,phase,memtotal_kb,memfree_kb,buffers_kb,cached_kb,shmem_kb,mapped_kb,swaptotal_kb,swapfree_kb"

static void
test_trace_parse_good(void **state)
{
	static const char text[] = "# a comment\n" HEADER ",pswpin,pgscan,pgsteal,pswpout,refault_anon,refault_file,"
				   "psi_some_us,psi_full_us,swap_devices,swap_zram,zswap,future_column\n"
				   "0,pre,1000,100,10,200,5,50,2000,1500,7,100,90,3,1,2,500,-1,1,0,0,x\n"
				   "\n"
				   "1000,phase1,1000,90,10,210,5,50,2000,1400,9,300,200,4,2,9,900,-1,1,1,1,y\r\n"
				   "2000,pre,1000,80,10,220,5,50,2000,1300,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,z";
	struct trace t;
	unsigned line = 0;

	(void)state;
	assert_int_equal(trace_parse(text, sizeof(text) - 1, &t, &line), 0);
	assert_int_equal(t.n_rows, 3);
	assert_int_equal(t.n_phases, 2);
	assert_string_equal(t.phases[0], "pre");
	assert_string_equal(t.phases[1], "phase1");
	assert_int_equal(trace_phase(&t, "phase1"), 1);
	assert_int_equal(trace_phase(&t, "phase2"), -1);
	assert_int_equal(t.rows[1].phase, 1);
	assert_int_equal(t.rows[2].phase, 0);
	assert_int_equal(t.rows[1].s.time_us, 1000000);
	assert_int_equal(t.rows[1].s.mem_free_kib, 90);
	assert_int_equal(t.rows[1].s.cached_kib, 210);
	assert_int_equal(t.rows[1].s.swap_free_kib, 1400);
	assert_true(t.rows[1].s.has_vmstat);
	assert_int_equal(t.rows[1].s.pswpin_pages, 9);
	assert_int_equal(t.rows[1].s.pgscan_pages, 300);
	assert_int_equal(t.rows[1].s.pgsteal_pages, 200);
	assert_true(t.rows[1].s.has_refaults);
	assert_int_equal(t.rows[1].s.refault_file_pages, 9);
	assert_true(t.rows[1].s.has_psi);
	assert_false(t.rows[1].s.psi.has_full); /* -1: not read */
	assert_int_equal(t.rows[1].s.psi.some_total_us, 900);
	assert_true(t.rows[1].s.has_swaps);
	assert_int_equal(t.rows[1].s.swaps.zram, 1);
	assert_true(t.rows[1].s.zswap_enabled);
	assert_false(t.rows[0].s.zswap_enabled);
	assert_int_equal(t.rows[0].swappiness, -1); /* no swappiness column */
	/* -1 everywhere: the sampler could read nothing but meminfo. */
	assert_false(t.rows[2].s.has_vmstat);
	assert_false(t.rows[2].s.has_refaults);
	assert_false(t.rows[2].s.has_psi);
	assert_false(t.rows[2].s.has_swaps);
	trace_free(&t);
	trace_free(&t); /* twice is fine */
}

static void
test_trace_parse_bad(void **state)
{
	static const struct {
		const char *name, *text;
		unsigned line;
	} cases[] = {
		{"empty", "", 0},
		{"only comments", "# x\n# y\n", 2},
		{"header, no rows", HEADER "\n", 1},
		{"no phase column",
		 "t_ms,memtotal_kb,memfree_kb,buffers_kb,cached_kb,shmem_kb,mapped_kb,swaptotal_kb,"
		 "swapfree_kb\n0,1,1,1,1,1,1,1,1\n",
		 1},
		{"column twice", HEADER ",t_ms\n0,a,1,1,1,1,1,1,1,1,0\n", 1},
		{"too few fields", HEADER "\n0,a,1,1,1,1,1,1,1\n", 2},
		{"too many fields", HEADER "\n0,a,1,1,1,1,1,1,1,1,1\n", 2},
		{"garbage number", HEADER "\n0,a,1,1,1,1x,1,1,1,1\n", 2},
		{"empty number", HEADER "\n0,a,1,1,1,,1,1,1,1\n", 2},
		{"below -1", HEADER "\n0,a,1,1,-2,1,1,1,1,1\n", 2},
		{"overflow", HEADER "\n0,a,1,1,99999999999999999999,1,1,1,1,1\n", 2},
		{"no MemTotal", HEADER "\n0,a,0,1,1,1,1,1,1,1\n", 2},
		{"time unknown", HEADER "\n-1,a,1,1,1,1,1,1,1,1\n", 2},
		{"time goes back", HEADER "\n5,a,1,1,1,1,1,1,1,1\n4,a,1,1,1,1,1,1,1,1\n", 3},
		{"phase empty", HEADER "\n0,,1,1,1,1,1,1,1,1\n", 2},
		{"phase upper case", HEADER "\n0,Phase,1,1,1,1,1,1,1,1\n", 2},
		{"phase too long", HEADER "\n0,abcdefghijklmnop,1,1,1,1,1,1,1,1\n", 2},
		{"17 phases",
		 HEADER "\n0,a,1,1,1,1,1,1,1,1\n0,b,1,1,1,1,1,1,1,1\n0,c,1,1,1,1,1,1,1,1\n"
			"0,d,1,1,1,1,1,1,1,1\n0,e,1,1,1,1,1,1,1,1\n0,f,1,1,1,1,1,1,1,1\n"
			"0,g,1,1,1,1,1,1,1,1\n0,h,1,1,1,1,1,1,1,1\n0,i,1,1,1,1,1,1,1,1\n"
			"0,j,1,1,1,1,1,1,1,1\n0,k,1,1,1,1,1,1,1,1\n0,l,1,1,1,1,1,1,1,1\n"
			"0,m,1,1,1,1,1,1,1,1\n0,n,1,1,1,1,1,1,1,1\n0,o,1,1,1,1,1,1,1,1\n"
			"0,p,1,1,1,1,1,1,1,1\n0,q,1,1,1,1,1,1,1,1\n",
		 18},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trace t = {0};
		unsigned line = 99;
		int r = trace_parse(cases[i].text, strlen(cases[i].text), &t, &line);

		if (r != -EINVAL || line != cases[i].line)
			fail_msg("%s: got %d at line %u, want -EINVAL at line %u", cases[i].name, r, line,
				 cases[i].line);
	}
}

static void
test_trace_load_errors(void **state)
{
	struct trace t;
	unsigned line;

	(void)state;
	assert_int_equal(trace_load("tests/data/traces/no-such-trace.csv", &t, &line), -ENOENT);
	assert_int_equal(trace_load("tests/data/traces", &t, &line), -EFBIG); /* not a regular file */
}

/* ---- the replay loop, on a made-up trace ----------------------------------------------------- */

/* rows of 1 s: calm for 12 s, then 8 s of file refaults at 1000/s and PSI some 30%, then calm. */
static void
synthetic(struct trace *t, uint64_t psi_per_row_us)
{
	static struct trace_row rows[30];

	memset(t, 0, sizeof(*t));
	snprintf(t->phases[0], TRACE_PHASE_LEN, "calm");
	snprintf(t->phases[1], TRACE_PHASE_LEN, "busy");
	snprintf(t->phases[2], TRACE_PHASE_LEN, "after");
	t->n_phases = 3;
	for (unsigned i = 0; i < 30; i++) {
		struct sample *s = &rows[i].s;
		unsigned busy = i < 12 ? 0 : i < 20 ? i - 11 : 8;

		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].t_ms = i * 1000u;
		rows[i].phase = i < 12 ? 0 : i < 20 ? 1 : 2;
		s->time_us = rows[i].t_ms * 1000u;
		s->mem_total_kib = 1000000;
		s->mem_free_kib = 300000; /* app 70% */
		s->swap_total_kib = 1000000;
		s->swap_free_kib = 1000000;
		s->has_vmstat = s->has_refaults = s->has_psi = s->has_swaps = true;
		s->swaps.devices = 1;
		s->refault_file_pages = 1000u * busy;
		s->pgscan_pages = 2000u * busy;
		s->pgsteal_pages = 1000u * busy;
		s->psi.some_total_us = psi_per_row_us * busy;
	}
	t->rows = rows;
	t->n_rows = 30;
}

static void
test_replay_schedule(void **state)
{
	struct replay_config rc;
	struct trace t;
	struct replay r;
	unsigned psi_wakes = 0;

	(void)state;
	/* Shipped pace: every 5 s while calm; the PSI trigger (300 ms of stall a second,
	 * over 200 ms in 2 s) brings the poll forward to its first row, then every
	 * second while the policy sees pressure, then every 5 s again. */
	synthetic(&t, 300000);
	replay_config_shipped(&rc, POLICY_ADAPTIVE);
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	for (size_t i = 0; i < r.n_polls; i++)
		psi_wakes += r.polls[i].psi_wake;
	assert_int_equal(r.polls[0].row, 0);
	assert_int_equal(r.polls[1].row, 5);
	assert_int_equal(r.polls[2].row, 10);
	assert_int_equal(r.polls[3].row, 12); /* woken: 300 ms of stall in the 2 s up to row 12 */
	assert_true(r.polls[3].psi_wake);
	assert_int_equal(psi_wakes, 1);
	for (size_t k = 4; k <= 10; k++)
		assert_int_equal(r.polls[k].row, 9 + k); /* busy: every row up to 19 */
	assert_int_equal(r.polls[11].row, 20);		 /* sees the calm row: 5 s again */
	assert_int_equal(r.polls[12].row, 25);
	assert_int_equal(r.n_polls, 13);
	replay_free(&r);

	/* Without stalls nothing wakes it: the busy stretch is found by the 5 s timer. */
	synthetic(&t, 0);
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	assert_int_equal(r.polls[3].row, 15);
	assert_false(r.polls[3].psi_wake);
	replay_free(&r);

	/* max200 polls every second: every row. */
	replay_config_max200(&rc, POLICY_ADAPTIVE);
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	assert_int_equal(r.n_polls, 30);
	replay_free(&r);
}

static void
test_replay_pipeline(void **state)
{
	struct replay_config rc;
	struct trace t;
	struct replay r;
	int vals[64];

	(void)state;
	synthetic(&t, 300000);
	/* ck: app 70%, swap all free: 70, written on the first poll (60 -> 70). */
	replay_config_max200(&rc, POLICY_CK);
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	assert_true(r.polls[0].wrote);
	assert_int_equal(r.polls[0].value, 70);
	assert_int_equal(r.writes, 1);
	assert_int_equal(replay_reach(&r, 0, 70, 70), 1);
	assert_int_equal(replay_settle(&r, 0, 70, 70), 1);
	assert_int_equal(replay_settle(&r, 1, 70, 70), 0); /* entered the phase there */
	assert_int_equal(replay_reach(&r, 0, 0, 10), -1);
	assert_int_equal(replay_hold(&r, 1, 70, 70), 9); /* entering and all 8 polls */
	assert_int_equal(replay_hold(&r, 0, 60, 60), 1); /* the start value, then 70 */
	assert_int_equal(replay_hold(&r, 0, 0, 10), 0);
	replay_free(&r);

	/* adaptive, max200: up 10 + distress/4 a poll while file refaults dominate.
	 * The first busy poll sees distress 50 (steal/scan 50%, PSI 30%): 70 -> 92. */
	replay_config_max200(&rc, POLICY_ADAPTIVE);
	rc.cfg.step = 1;
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	assert_int_equal(replay_phase_values(&r, 1, vals, 64), 8);
	{
		/* distress max(reclaim 50, PSI 30) = 50: steps of 10 + 50 / 4 = 22, capped at 200. */
		static const int want[] = {70, 92, 114, 136, 158, 180, 200, 200, 200};

		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
			assert_int_equal(vals[k], want[k]);
	}
	/* 6 writes (the last two polls find 200 already there) in the 8 s from the poll
	 * before the phase to its last: 45 a minute. */
	assert_true(replay_writes_per_min(&r, 1, 1) > 44.9 && replay_writes_per_min(&r, 1, 1) < 45.1);
	/* From its 7th poll on: none. */
	assert_true(replay_writes_per_min(&r, 1, 7) == 0.0);
	/* A stretch shorter than a poll interval says nothing. */
	assert_true(replay_writes_per_min(&r, 1, 9) < 0);
	replay_free(&r);

	/* max = auto on disk swap is 100 (policy_device_max). */
	replay_config_shipped(&rc, POLICY_ADAPTIVE);
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	assert_int_equal(r.polls[r.n_polls - 1].value <= 100, 1);
	replay_free(&r);
}

static void
test_replay_noise(void **state)
{
	struct replay_config rc;
	struct trace t;
	struct replay a, b, c;
	bool differ = false;

	(void)state;
	synthetic(&t, 300000);
	replay_config_max200(&rc, POLICY_TENDENCY);
	rc.cfg.step = 1;
	rc.noise_pct = NOISE_PCT;
	rc.seed = 7;
	assert_int_equal(replay_run(&t, &rc, &a), 0);
	assert_int_equal(replay_run(&t, &rc, &b), 0);
	rc.seed = 8;
	assert_int_equal(replay_run(&t, &rc, &c), 0);
	assert_int_equal(a.n_polls, b.n_polls);
	for (size_t i = 0; i < a.n_polls; i++) {
		assert_int_equal(a.polls[i].target, b.polls[i].target); /* same seed, same replay */
		differ |= a.polls[i].target != c.polls[i].target;
	}
	assert_true(differ); /* the noise reaches the policy */
	replay_free(&a);
	replay_free(&b);
	replay_free(&c);
}

/* ---- the recorded traces --------------------------------------------------------------------- */

static void
test_traces_load(void **state)
{
	char pattern[512];
	glob_t g;

	(void)state;
	snprintf(pattern, sizeof(pattern), "%s/*.csv", traces_dir());
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct trace t;
		unsigned line = 0;
		int r = trace_load(g.gl_pathv[i], &t, &line);

		if (r < 0)
			fail_msg("%s:%u: %s", g.gl_pathv[i], line, strerror(-r));
		/* Recorded by bench/sampler.c with every source readable. */
		for (size_t k = 0; k < t.n_rows; k++)
			if (!t.rows[k].s.has_vmstat || !t.rows[k].s.has_refaults || !t.rows[k].s.has_psi ||
			    !t.rows[k].s.has_swaps)
				fail_msg("%s: row %zu lacks a source", g.gl_pathv[i], k);
		trace_free(&t);
	}
	globfree(&g);
}

static const char *const setups[] = {"max200", "shipped"};

static void
config_of(const char *setup, enum policy_kind policy, struct replay_config *rc)
{
	if (strcmp(setup, "max200") == 0)
		replay_config_max200(rc, policy);
	else
		replay_config_shipped(rc, policy);
}

/* --show: what each policy does on each trace, per phase, over the seeds: the polls in the
 * phase, the value entering it, the range of values after its polls, the range of values it
 * ends at, the most writes per minute of any seed; and seed 0's values poll by poll. */
static int
show(const char *name, const struct trace *t)
{
	for (unsigned s = 0; s < sizeof(setups) / sizeof(setups[0]); s++) {
		for (unsigned p = 0; p < POLICY_COUNT; p++) {
			printf("%s %s %s:\n", name, setups[s], policy_name((enum policy_kind)p));
			for (unsigned ph = 0; ph < t->n_phases; ph++) {
				int lo = 1000, hi = -1, end_lo = 1000, end_hi = -1, enter = -1;
				double wpm = -1, wpm_lo = 1e9;
				size_t polls = 0;
				int vals[MAX_PHASE_POLLS];
				char seq[1024] = "";

				for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
					struct replay_config rc;
					struct replay r;
					size_t n;
					double w;
					int rv;

					config_of(setups[s], (enum policy_kind)p, &rc);
					rc.noise_pct = seed ? NOISE_PCT : 0;
					rc.seed = seed;
					rv = replay_run(t, &rc, &r);
					if (rv < 0) {
						fprintf(stderr, "%s: replay failed: %s\n", name, strerror(-rv));
						return 1;
					}
					n = replay_phase_values(&r, ph, vals, MAX_PHASE_POLLS);
					if (seed == 0)
						enter = vals[0];
					for (size_t k = 1; k <= n && k < MAX_PHASE_POLLS; k++) {
						lo = vals[k] < lo ? vals[k] : lo;
						hi = vals[k] > hi ? vals[k] : hi;
						if (seed == 0 && strlen(seq) < sizeof(seq) - 8)
							snprintf(seq + strlen(seq), sizeof(seq) - strlen(seq), " %d",
								 vals[k]);
					}
					if (n) {
						end_lo = vals[n] < end_lo ? vals[n] : end_lo;
						end_hi = vals[n] > end_hi ? vals[n] : end_hi;
					}
					w = replay_writes_per_min(&r, ph, 1);
					wpm = w > wpm ? w : wpm;
					wpm_lo = w < wpm_lo ? w : wpm_lo;
					polls = n > polls ? n : polls;
					replay_free(&r);
				}
				if (polls == 0) {
					printf("  %-7s no polls\n", t->phases[ph]);
					continue;
				}
				printf("  %-7s %3zu polls, enters %3d, range %3d..%3d, ends %3d..%3d, writes/min "
				       "%.1f..%.1f;"
				       " seed 0:%s\n",
				       t->phases[ph], polls, enter, lo, hi, end_lo, end_hi, wpm_lo, wpm, seq);
			}
		}
	}
	return 0;
}

static int
show_all(void)
{
	char pattern[512];
	glob_t g;
	int rc = 0;

	snprintf(pattern, sizeof(pattern), "%s/*.csv", traces_dir());
	if (glob(pattern, 0, NULL, &g) != 0) {
		fprintf(stderr, "no traces match '%s'\n", pattern);
		return 1;
	}
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		struct trace t;
		unsigned line = 0;
		int r = trace_load(g.gl_pathv[i], &t, &line);
		const char *base = strrchr(g.gl_pathv[i], '/');

		if (r < 0) {
			fprintf(stderr, "%s:%u: %s\n", g.gl_pathv[i], line, strerror(-r));
			rc = 1;
			break;
		}
		rc = show(base ? base + 1 : g.gl_pathv[i], &t);
		trace_free(&t);
	}
	globfree(&g);
	return rc;
}

/*
 *   test_replay              the tests
 *   test_replay --show       what each policy does on each trace (see show())
 *   test_replay --load-only  only check that every trace loads (tests/replay/ts2trace-test.sh)
 */
int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_parse_good),  cmocka_unit_test(test_trace_parse_bad),
		cmocka_unit_test(test_trace_load_errors), cmocka_unit_test(test_replay_schedule),
		cmocka_unit_test(test_replay_pipeline),	  cmocka_unit_test(test_replay_noise),
		cmocka_unit_test(test_traces_load),

	};
	const struct CMUnitTest load_only[] = {cmocka_unit_test(test_traces_load)};
	int rc;

	if (argc == 2 && strcmp(argv[1], "--show") == 0)
		return show_all();
	if (argc == 2 && strcmp(argv[1], "--load-only") == 0)
		return cmocka_run_group_tests(load_only, NULL, NULL);
	if (argc != 1) {
		fprintf(stderr, "usage: test_replay [--show | --load-only]\n");
		return 2;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return rc;
}
