/*
 * Replay tests: the benchmark VM's recorded signals (tests/data/traces, recorded at static
 * swappiness values; see the README there) run through each policy as the daemon runs it (policy
 * -> regulator -> the value written, fed back), with seeded noise on the counters, and the value
 * each policy reaches in each phase is asserted. A policy change is tried here in a second
 * instead of in a two-hour `make bench`.
 *
 * Two ways to replay: open loop (replay_run: one trace, whatever the policy writes) and a rough
 * closed loop (replay_run_world: each row from the trace recorded nearest the value written, so
 * the policy's choices change what it sees and how long a phase lasts; replay.h says what it
 * cannot model).
 *
 * To add an assertion: one line in expects[], writes_bounds[] or world_bounds[] below. A new
 * policy joins every loop over POLICY_COUNT (test_all_within_auto_max and --show) by itself;
 * give it its own lines in the tables. To see what each policy does on each trace (per phase: polls, the value
 * entering and leaving it, its range, writes per minute, the values poll by poll):
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

#include "regulator.h"
#include "replay.h"

/* Noise: each counter's per-row delta times 1 +- up to 20%, the spread between repetitions of one
 * setting in the run of 2026-12-03 (bench/EXPERIMENTS.md, landed-2026-12-03: median coefficient of
 * variation of the counters 0.01-0.19, issue 12). */
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

static void
load(const char *name, struct trace *t)
{
	char path[512];
	unsigned line = 0;
	int r;

	snprintf(path, sizeof(path), "%s/%s", traces_dir(), name);
	r = trace_load(path, t, &line);
	if (r < 0)
		fail_msg("cannot load trace '%s': %s (line %u)", path, strerror(-r), line);
}

/* ---- the trace reader ---------------------------------------------------------------------- */

#define HEADER "t_ms,phase,memtotal_kb,memfree_kb,buffers_kb,cached_kb,shmem_kb,mapped_kb,swaptotal_kb,swapfree_kb"

static void
test_trace_parse_good(void **state)
{
	static const char text[] = "# a comment\n" HEADER ",pswpin,pgscan,pgsteal,pswpout,refault_anon,refault_file,"
				   "psi_some_us,psi_full_us,swap_devices,swap_zram,zswap,mglru,future_column\n"
				   "0,pre,1000,100,10,200,5,50,2000,1500,7,100,90,3,1,2,500,-1,1,0,0,0,x\n"
				   "\n"
				   "1000,phase1,1000,90,10,210,5,50,2000,1400,9,300,200,4,2,9,900,-1,1,1,1,1,y\r\n"
				   "2000,pre,1000,80,10,220,5,50,2000,1300,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,z";
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
	/* The LRU (ts2trace.py's mglru column): 1 the multi-gen LRU, 0 and -1 the classic one. */
	assert_true(t.rows[1].s.mglru);
	assert_false(t.rows[0].s.mglru);
	assert_false(t.rows[2].s.mglru);
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
	/* ck: app 70%, swap all free: 70, written on the first poll (60 -> 70; step 1, as the
	 * shipped step of 20 would leave 60). */
	replay_config_max200(&rc, POLICY_CK);
	rc.cfg.step = 1;
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

	/* adaptive, max200: it starts at N (100 on disk swap); file refaults at 1000/s
	 * without swap-ins are a vote for 200 each, and the second vote rises. */
	replay_config_max200(&rc, POLICY_ADAPTIVE);
	rc.cfg.step = 1;
	assert_int_equal(replay_run(&t, &rc, &r), 0);
	assert_int_equal(replay_phase_values(&r, 1, vals, 64), 8);
	{
		static const int want[] = {100, 100, 200, 200, 200, 200, 200, 200, 200};

		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
			assert_int_equal(vals[k], want[k]);
	}
	/* 1 write in the 8 s from the poll before the phase to its last: 7.5 a minute. */
	assert_true(replay_writes_per_min(&r, 1, 1) > 7.49 && replay_writes_per_min(&r, 1, 1) < 7.51);
	/* From its 3rd poll on: none. */
	assert_true(replay_writes_per_min(&r, 1, 3) == 0.0);
	/* A stretch shorter than a poll interval says nothing. */
	assert_true(replay_writes_per_min(&r, 1, 9) < 0);
	/* The reason of each poll is kept. */
	assert_string_equal(r.polls[r.n_polls - 1].reason, "hold 200: file refaults 0/s, swap-outs 0/s, swap-ins 0/s");
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

/* A workload recorded at value `setting`: phase x takes x_rows, then y 5 rows; each row of x
 * swaps in 100 pages at 0 and 1000 at 200 (so a row tells which trace it came from). */
static void
world_trace(struct trace *t, struct trace_row *rows, unsigned x_rows, int setting)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->phases[0], TRACE_PHASE_LEN, "x");
	snprintf(t->phases[1], TRACE_PHASE_LEN, "y");
	t->n_phases = 2;
	for (unsigned i = 0; i < x_rows + 5; i++) {
		struct sample *s = &rows[i].s;

		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].t_ms = i * 1000u;
		rows[i].phase = i < x_rows ? 0 : 1;
		s->time_us = rows[i].t_ms * 1000u;
		s->mem_total_kib = 1000000;
		s->mem_free_kib = 500000;
		s->swap_total_kib = s->swap_free_kib = 1000000;
		s->has_vmstat = true;
		s->pswpin_pages = (setting ? 1000u : 100u) * (i < x_rows ? i : x_rows);
	}
	t->rows = rows;
	t->n_rows = x_rows + 5;
}

static void
test_replay_world(void **state)
{
	static struct trace_row rows0[15], rows200[9];
	struct trace t0, t200, other;
	struct replay_world w;
	struct replay_config rc;
	struct replay r;

	(void)state;
	world_trace(&t0, rows0, 10, 0);
	world_trace(&t200, rows200, 4, 200);
	w = (struct replay_world){.traces = {&t0, &t200}, .settings = {0, 200}, .n = 2};

	/* Held at 200 (min = max = 200, starting there): phase x lasts its 4 rows at 200, and
	 * every row swaps in at 200's rate. */
	replay_config_max200(&rc, POLICY_CK);
	rc.cfg.min = 200;
	rc.start_value = 200;
	assert_int_equal(replay_run_world(&w, &rc, &r), 0);
	assert_int_equal(r.trace->n_rows, 9);
	assert_int_equal(replay_phase_ms(&r, 0), 3000); /* 4 rows: 3 s between the first and last */
	assert_int_equal(replay_phase_swapins(&r, 0), 3000);
	assert_int_equal(replay_phase_ms(&r, 1), 5000);
	replay_free(&r);

	/* Held at 0: 10 rows at 100 pages each. */
	rc.cfg.min = 0;
	rc.cfg.max = 0;
	rc.start_value = 0;
	assert_int_equal(replay_run_world(&w, &rc, &r), 0);
	assert_int_equal(r.trace->n_rows, 15);
	assert_int_equal(replay_phase_swapins(&r, 0), 900);
	replay_free(&r);

	/* At 100, halfway, the lower trace is the nearer: as at 0. */
	rc.cfg.min = rc.cfg.max = 100;
	rc.start_value = 100;
	assert_int_equal(replay_run_world(&w, &rc, &r), 0);
	assert_int_equal(r.trace->n_rows, 15);
	replay_free(&r);

	/* Starting at 0 and written 200 at the first poll: the first row comes from the trace at
	 * 0 (a tenth of x done), the rest of x from the one at 200 (3.6 of its 4 rows: 4 more). */
	rc.cfg.min = rc.cfg.max = 200;
	rc.start_value = 0;
	assert_int_equal(replay_run_world(&w, &rc, &r), 0);
	assert_int_equal(r.trace->rows[0].swappiness, 0);
	assert_int_equal(r.trace->rows[1].swappiness, 200);
	assert_int_equal(r.trace->n_rows, 1 + 4 + 5);
	replay_free(&r);

	/* A trace with one more phase (z after y) sets the phases; the one without z skips it. */
	world_trace(&other, rows200, 4, 200);
	snprintf(other.phases[2], TRACE_PHASE_LEN, "z");
	other.n_phases = 3;
	rows200[8].phase = 2;
	w.traces[1] = &other;
	rc.cfg.min = rc.cfg.max = rc.start_value = 0;
	assert_int_equal(replay_run_world(&w, &rc, &r), 0);
	assert_int_equal(r.trace->n_phases, 3);
	assert_int_equal(r.trace->n_rows, 15); /* all of the trace at 0, no z */
	replay_free(&r);

	/* Phases in another order cannot be walked in step. */
	snprintf(other.phases[0], TRACE_PHASE_LEN, "y");
	snprintf(other.phases[1], TRACE_PHASE_LEN, "x");
	assert_int_equal(replay_run_world(&w, &rc, &r), -EINVAL);
	w.n = 0;
	assert_int_equal(replay_run_world(&w, &rc, &r), -EINVAL);
}

/* ---- the recorded traces --------------------------------------------------------------------- */

/* Every trace file of the directory, in g (globfree it). */
static void
glob_traces(glob_t *g)
{
	char pattern[512];

	snprintf(pattern, sizeof(pattern), "%s/*.csv", traces_dir());
	assert_int_equal(glob(pattern, 0, NULL, g), 0);
}

/* A trace file's name without its directory. */
static const char *
base_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static void
test_traces_load(void **state)
{
	glob_t g;

	(void)state;
	glob_traces(&g);
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

static const char *const setups[] = {"max200", "shipped", "shipped-max200"};

/* "max200": as bench/run.sh ran the daemon before issue 12 (max = 200, 1 s polls);
 * "shipped": conf/autoswappiness.conf as installed (max = auto: 100 on disk swap);
 * "shipped-max200": as shipped but [limits] max = 200, the question of issue 13 item 2. */
static void
config_of(const char *setup, enum policy_kind policy, struct replay_config *rc)
{
	if (strcmp(setup, "max200") == 0) {
		replay_config_max200(rc, policy);
	} else {
		replay_config_shipped(rc, policy);
		if (strcmp(setup, "shipped-max200") == 0)
			rc->cfg.max = 200;
	}
}

/*
 * What each policy does on the recorded traces. Each line: in trace's phase, with the daemon
 * configured as setup ("max200": [limits] max = 200 and 1 s polls, as bench/run.sh ran it; "shipped":
 * conf/autoswappiness.conf as installed: max = auto, which is 100 on the guest's disk swap, and
 * 5 s polls while calm; "shipped-max200": shipped with max = 200), the value
 *   REACH  lies in [lo, hi] after at most `within` polls of the phase (0: it enters there);
 *   SETTLE lies there from at most `within` polls on, to the phase's end;
 *   HOLD   stays there from entering the phase through at least its `within`-th poll.
 * Every seed must meet it. `why` says where the band and the count come from. These are open
 * loop: the trace shows what the kernel did at its static value, whatever the policy writes.
 */
enum expect_kind { REACH, SETTLE, HOLD };

struct expect {
	const char *trace, *setup;
	enum policy_kind policy;
	const char *phase;
	enum expect_kind kind;
	int lo, hi, within;
	const char *why;
};

/* Where the numbers in `why` come from: the runs these traces were recorded in (README):
 *   phased phase 1:            14.2 s at 200, 18.6 s at 100, 74.9 s at 0
 *   phased phase 2:            swap-ins 12,398 at 200, 148 at 100, 0 at 0 (whole run)
 *   responsiveness (wall):     30.6 s at 200, 40.4 s at 100, 123.4 s at 0
 *   dirtier pass 1:            7.0 s at 200, 22.1 s at 100, 122.5 s at 0
 * so 200 is the value to be at everywhere but phased's phase 2, where 0-100 are. */
#define P1_WANTS_200 "200 wins phased phase 1 (14.2 s, 18.6 s at 100, 74.9 s at 0)"
#define AUTO_100     "max = auto is 100 on disk swap (policy_device_max)"
/* Sparing the cache (include/policy.h): tendency (and workingset) on disk swap goes to 200 while the
 * page cache that no process maps is below 5% of RAM and anonymous pages go out without coming
 * back. */
#define SPARE "sparing the cache"
/* The adaptive controller (autoswappiness(7), THE ADAPTIVE POLICY): N = 100 on disk swap. Open
 * loop it sees what the kernel did at the trace's value whatever it writes, so its tests of its
 * own effect learn nothing true after it moves: these lines check what it does on the way to a
 * decision; world_bounds[] below judges the decisions. */
#define ADAPTIVE_N100 "adaptive at max = auto on disk swap: N = 100 is also the top, so it is static 100"

static const struct expect expects[] = {
	/* phased, adaptive */
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase1", HOLD, 100, 100, 4,
	 "adaptive starts at N = 100 and its first 4 polls of phase 1 show reclaim without refaults "
	 "(cold cache): no evidence, no move"},
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase1", REACH, 200, 200, 6,
	 P1_WANTS_200 ". From poll 5, up to 11,032 file refaults/s with at most 50 swap-ins/s: the "
		      "second vote (poll 6) raises it to 200 in one step"},
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase1", SETTLE, 200, 200, 6,
	 "and it stays: the 50 swap-ins/s of one poll are below SWAPIN_PPS (128)"},
	{"phased-s100.csv", "max200", POLICY_ADAPTIVE, "phase1", REACH, 200, 200, 10,
	 "at 100 the file refaults start on poll 9 (5,896/s): 200 on poll 10"},
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase2", HOLD, 200, 200, 1,
	 "the first poll of phase 2 swaps out 11,742 pages/s but swaps in 12/s: no cost seen yet "
	 "(dirtier pass 1, which wants 200, looks the same)"},
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase2", REACH, 100, 100, 2,
	 "issue 13 item 3: back at N on the first poll that shows swap-ins (the 2nd, 516/s), not "
	 "halfway as the old controller did (191 on that poll)"},
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase2", SETTLE, 100, 100, 2,
	 "and it stays at 100: in this trace the swap-ins go on as at 200, mostly without swap-outs to "
	 "match (pages coming home, not cycling), which decides nothing, so N stays (the safe side)"},
	{"phased-s200.csv", "shipped-max200", POLICY_ADAPTIVE, "phase2", REACH, 100, 100, 2,
	 "the same at the shipped pace: swap-outs and stalls make the first poll of phase 2 busy, "
	 "so the next comes after 1 s"},
	{"phased-s200.csv", "shipped", POLICY_ADAPTIVE, "phase1", SETTLE, 100, 100, 0, ADAPTIVE_N100},
	{"phased-s200.csv", "shipped", POLICY_ADAPTIVE, "phase2", SETTLE, 100, 100, 0, ADAPTIVE_N100},

	/* phased, tendency */
	{"phased-s200.csv", "max200", POLICY_TENDENCY, "phase1", REACH, 150, 200, 5,
	 P1_WANTS_200 ": mapped/2 + distress + ck rises with distress (PSI some up to 80%, steal/scan "
		      "down to 12%)"},
	{"phased-s200.csv", "max200", POLICY_TENDENCY, "phase1", REACH, 50, 90, 13,
	 "KNOWN BAD (issue 13: never oscillate): once reclaim is easy again distress falls and "
	 "tendency drops back toward ck, though phase 1 still wants 200"},
	{"phased-s200.csv", "max200", POLICY_TENDENCY, "phase2", REACH, 120, 200, 1,
	 "KNOWN BAD (issue 13): distress is high while the anon set is swapped back in, so "
	 "tendency goes up in phase 2, where 200 swapped in 80 times as much as 100"},
	{"phased-s200.csv", "shipped", POLICY_TENDENCY, "phase1", REACH, 100, 100, 2, AUTO_100},

	/* phased, ck: min(app centile, swap free), no rates: the idle anon set is 60% of RAM */
	{"phased-s200.csv", "max200", POLICY_CK, "phase1", SETTLE, 50, 90, 1,
	 "ck reads no rates: app centile 52-86 here, never above 100 though 200 wins phase 1"},
	{"phased-s200.csv", "max200", POLICY_CK, "phase2", SETTLE, 20, 70, 0,
	 "ck: app centile 58-64 while the active anon set is in, 24 once it exits"},

	/* responsiveness: the anon set exceeds RAM, swap-ins at every value (issue 13). 200 is best
	 * (30.6 s, 40.4 s at 100, 123.4 s at 0) */
	{"responsiveness-s200.csv", "max200", POLICY_ADAPTIVE, "pass1", REACH, 200, 200, 1,
	 "swap-ins at N with swap-outs to match as the crowd starts (2,482 in with 7,262 out a "
	 "second) and pass 1 begins (1,292 with 2,243): the anonymous set cycles through swap, so it "
	 "probes 200 on the first poll of pass 1"},
	{"responsiveness-s200.csv", "max200", POLICY_ADAPTIVE, "pass1", SETTLE, 200, 200, 1,
	 "and keeps it: on the two polls after the probe the swap-ins (2,405/s) are not twice those "
	 "before it (1,887/s)"},
	{"responsiveness-s200.csv", "max200", POLICY_ADAPTIVE, "pass2", SETTLE, 200, 200, 0,
	 "held through pass 2: its swap-ins (1,420-4,540/s) never average twice the 2,405/s it kept "
	 "200 with"},
	{"responsiveness-s100.csv", "max200", POLICY_ADAPTIVE, "pass1", REACH, 200, 200, 1,
	 "at 100 too: 513 pages in with 3,065 out in a second of setup, 1,105 with 1,406 in the 2.4 s "
	 "to the first poll of pass 1"},
	{"responsiveness-s200.csv", "shipped", POLICY_ADAPTIVE, "pass1", SETTLE, 100, 100, 0, ADAPTIVE_N100},
	{"responsiveness-s200.csv", "max200", POLICY_TENDENCY, "pass1", SETTLE, 140, 200, 0,
	 "tendency: distress high all along (PSI some above 50%), 150-194"},
	{"responsiveness-s200.csv", "shipped", POLICY_TENDENCY, "pass1", SETTLE, 100, 100, 0,
	 AUTO_100 ", where 200 is best here (30.6 s, 40.4 s at 100)"},
	{"responsiveness-s200.csv", "max200", POLICY_CK, "pass1", SETTLE, 70, 95, 0, "ck: app centile 83-93"},

	/* dirtier: 200 is fastest in pass 1 (7.0 s, 22.1 s at 100, 122.5 s at 0) */
	{"dirtier-s200.csv", "max200", POLICY_ADAPTIVE, "pass1", REACH, 200, 200, 4,
	 "from its 3rd poll pass 1 swaps out 683, then 8,668-11,098 pages/s with at most 48 "
	 "swap-ins/s: anon goes out and stays out, a vote for 200 each, 200 on the 2nd"},
	{"dirtier-s200.csv", "max200", POLICY_ADAPTIVE, "pass2", SETTLE, 200, 200, 3,
	 "the swap-ins that start at the end of pass 1 (502/s) take it back to N; there they do not "
	 "fall, and twice they come with as many swap-outs (1,797 in with 1,615 out a second, then "
	 "1,276 with 499, then 1,608 with 1,864): inelastic, 200 again on the 3rd poll"},
	{"dirtier-s100.csv", "max200", POLICY_ADAPTIVE, "pass2", SETTLE, 200, 200, 3, "as at 200"},
	{"dirtier-s200.csv", "max200", POLICY_TENDENCY, "pass1", REACH, 150, 200, 3,
	 "tendency: distress (PSI some up to 94%) drives it high within the first pass"},
	{"dirtier-s200.csv", "shipped", POLICY_TENDENCY, "pass2", SETTLE, 100, 100, 0,
	 SPARE " ends at the first swap-ins (502/s, the end of pass 1), and pass 2 swaps in 946-4,650 "
	       "pages/s: no rise for 30 s after each, so 100, " AUTO_100},
	{"dirtier-s200.csv", "shipped", POLICY_TENDENCY, "pass1", REACH, 100, 100, 2,
	 "the first poll of reclaim asks for the top (distress up to 94%), the second of pass 1; "
	 "before it 43 stays, from the first sample's PSI avg10"},
	{"dirtier-s200.csv", "shipped", POLICY_TENDENCY, "pass1", REACH, 200, 200, 3,
	 SPARE ": unmapped cache 1% of RAM, 8,668-11,098 swap-outs/s with at most 48 swap-ins/s, "
	       "200 on the second such poll (200 is best in pass 1: 7.0 s, 22.1 s at 100)"},
	{"dirtier-s100.csv", "shipped", POLICY_TENDENCY, "pass1", REACH, 200, 200, 4,
	 "at 100 too: unmapped cache 0%, 976-4,969 swap-outs/s with at most 30 swap-ins/s"},
	{"phased-s100.csv", "shipped", POLICY_TENDENCY, "phase1", SETTLE, 0, 100, 0,
	 "no " SPARE " in phase 1: the hot file set keeps 15-22% of RAM unmapped in the cache at 100 "
	 "(200 wins phase 1, but sparing the cache on its re-reads lost phase 2 in the benchmark: "
	 "autoswappiness(8), BUGS)"},
	{"phased-s100.csv", "shipped", POLICY_TENDENCY, "phase2", SETTLE, 0, 100, 0,
	 "none in phase 2, where 200 costs 80 times the swap-ins: the stream keeps 8-14% of RAM in "
	 "the cache at 100"},
	{"phased-s200.csv", "shipped", POLICY_TENDENCY, "phase2", SETTLE, 0, 100, 0, "and 26-35% at 200"},
	{"responsiveness-s100.csv", "shipped", POLICY_TENDENCY, "pass1", SETTLE, 100, 100, 0,
	 "no " SPARE " in responsiveness, where 200 costs the probe (p99 10.4-15.3 ms against "
	 "9.3-10.1 at 100 in the benchmark): the swap-ins of setup and the start of pass 1 "
	 "(451-601/s) hold it off for 30 s, and pass 2 swaps in at every value"},

	/* compile: with one vCPU this build hardly pressures memory (file refaults rarely 64/s) */
	{"compile-s200.csv", "max200", POLICY_ADAPTIVE, "run", HOLD, 100, 100, 45,
	 "adaptive: reclaim without refaults or swap-outs for its first 45 polls: no evidence, no move"},
	{"compile-s200.csv", "max200", POLICY_CK, "run", SETTLE, 20, 85, 0, "ck: app centile 25-79"},
	{"compile-s100.csv", "shipped", POLICY_TENDENCY, "run", REACH, 200, 200, 20,
	 SPARE ": the build keeps 1-4% of RAM unmapped in the cache and swaps out up to 2,496 "
	       "pages/s without swap-ins"},

	/* zram swap (the *-zram-s60/s200 traces, from the benchmark of 2026-12-01): max = auto and
	 * adaptive's N are 200 there. */
	{"phased-zram-s200.csv", "shipped", POLICY_ADAPTIVE, "phase2", SETTLE, 200, 200, 0,
	 "KNOWN BAD (issue 13): N is 200 on zram, also the top, so adaptive sits there through phase "
	 "2, whose swap-ins reach 2,000-5,600 pages/s at static 200 (the benchmark: 2.9 times static "
	 "60's time for the phase)"},
	{"phased-zram-s60.csv", "shipped", POLICY_ADAPTIVE, "phase1", SETTLE, 200, 200, 0, "at N = 200 from its start"},
	{"phased-zram-s60.csv", "shipped", POLICY_TENDENCY, "phase1", REACH, 150, 200, 4,
	 "tendency above 100 in phase 1: distress 20-50 and ck near 90; the trigger's first poll "
	 "comes with the first stall, before the distress builds (3 polls when the kernel checked "
	 "the trigger every 2 s)"},
	{"phased-zram-s60.csv", "shipped", POLICY_CK, "phase2", SETTLE, 60, 95, 3,
	 "ck: app centile 65-89; from 29, where the gap took it, the rise to 65 and 88 waits for a "
	 "change of 60 (a rise within REGULATOR_TURN_S of a write down: 3 times the step), 89"},
};

/* Writes per minute in a steady stretch: from poll from_poll of the phase to its end, at least
 * min_per_min and at most max_per_min (issue 13 item 4: never oscillate; a known oscillation
 * is pinned from below, so that a fix must change its line). A NULL phase: the whole workload,
 * every phase but pre and post, as `make bench` counts a run's writes (issue 46 target (4)). */
struct writes_bound {
	const char *trace, *setup;
	enum policy_kind policy;
	const char *phase;
	int from_poll;
	double min_per_min, max_per_min;
	const char *why;
};

static const struct writes_bound writes_bounds[] = {
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase1", 7, 0, 0,
	 "at 200 from its 6th poll to the end of phase 1 (see expects[]): no write"},
	{"phased-s200.csv", "max200", POLICY_ADAPTIVE, "phase2", 3, 0, 0,
	 "back at 100 from its 2nd poll to the end of phase 2: no write"},
	{"responsiveness-s200.csv", "max200", POLICY_ADAPTIVE, "pass2", 1, 0, 0, "held at 200 all through pass 2"},
	{"dirtier-s200.csv", "max200", POLICY_ADAPTIVE, "pass2", 4, 0, 0,
	 "held at 200 after the 3rd poll of pass 2 (see expects[])"},
	{"compile-s200.csv", "max200", POLICY_ADAPTIVE, "run", 1, 0, 1.2,
	 "one rise in a 105 s build: 0.6-1.1 writes/min over the seeds"},
	{"compile-s100.csv", "shipped", POLICY_ADAPTIVE, "run", 1, 0, 0, ADAPTIVE_N100 ": no write"},
	{"responsiveness-s0.csv", "max200", POLICY_CK, "pass1", 1, 0, 3, "ck moves only with the memory gauges"},
	{"responsiveness-s200.csv", "shipped", POLICY_TENDENCY, "pass2", 1, 0, 0, "capped at 100: no writes"},
	{"phased-s200.csv", "max200", POLICY_TENDENCY, "phase1", 1, 20, 45,
	 "KNOWN BAD (issue 13 item 4, never oscillate): distress swings from poll to poll, and "
	 "tendency with it, 60 -> 171 -> 58; 20-28 writes/min over the seeds (24-40 before a rise "
	 "after a fall needed 3 times the step, 48-56 at step 5)"},
	{"dirtier-s200.csv", "max200", POLICY_TENDENCY, "pass2", 1, 4, 12,
	 "KNOWN BAD (issue 13 item 4), as in phased: 5.2-10.4 writes/min over the seeds (10.4-18.2 "
	 "before a rise after a fall needed 3 times the step, 23-52 at step 5)"},
	{"compile-s200.csv", "max200", POLICY_TENDENCY, "run", 1, 2, 6,
	 "KNOWN BAD (issue 13 item 4): below the top (max 200 here) it still swings 80 -> 180 -> 80 "
	 "with each burst of reclaim; 2.3-4.0 writes/min over the seeds (5.7-7.4 at step 5, "
	 "16.6-18.3 when it also followed ck between the bursts)"},
	{"compile-s200.csv", "shipped", POLICY_TENDENCY, "run", 1, 0, 2.5,
	 "as shipped: at 29 (ck, the first poll's stall) until the first reclaim, then 100, 200 "
	 "while " SPARE ", and 100 again 10 s after the last swap-outs: 4 writes, 1.7-2.3 "
	 "writes/min over the seeds (9.5 when it followed the formula without reclaim)"},
	{"compile-s100.csv", "shipped", POLICY_TENDENCY, "run", 1, 0, 4,
	 "the same at 100: 2.9 writes/min over the seeds (2.9-3.7 at step 5)"},
	{"phased-s100.csv", "shipped", POLICY_TENDENCY, "phase2", 1, 0, 0,
	 "at the top (100) all through phase 2: no write"},
	{"phased-s200.csv", "shipped", POLICY_TENDENCY, "phase1", 2, 0, 12,
	 "issue 13 item 4: falls from the top are held 3 s: 100 for 8 polls, then down with the "
	 "formula as reclaim gets easy at 200 (4.6-9.2 writes/min over the seeds, 18-25 in the last "
	 "4 polls at step 5; open loop, the trace at 200 swapped the idle set out)"},
	{"dirtier-s200.csv", "shipped", POLICY_TENDENCY, "pass2", 1, 0, 0,
	 "at the top (100) all through pass 2: no write"},
	{"phased-zram-s200.csv", "shipped", POLICY_TENDENCY, "phase2", 2, 3, 18,
	 "KNOWN BAD (issue 13 item 4) on zram, as shipped (max = auto is 200 there): the formula "
	 "wanders 105-156 from poll to poll; the step of 20 writes 4.6-7.7 times a minute over the "
	 "seeds (3.1-16.9 before a rise after a fall needed 3 times the step, 31-52 at step 5)"},
	/* workingset, on the traces with activations: its bias moves a step a poll and is kept
	 * otherwise, so a steady stretch writes little. */
	{"compile-act-s60.csv", "shipped", POLICY_WORKINGSET, "build", 1, 0, 7,
	 "100, then up in two steps to 200 on the build's file activations, held to the end: 5.7 "
	 "writes/min"},
	{"phased-act-s200.csv", "shipped", POLICY_WORKINGSET, "phase2", 1, 0, 8,
	 "100 -> 60 on the anonymous activations, a dip to 30 with the formula, back to 60: 5.5-7.3 "
	 "writes/min over the seeds"},
	{"responsiveness-act-s60.csv", "shipped", POLICY_WORKINGSET, "pass1", 1, 0, 0,
	 "at 60 all through pass 1 (the anonymous activations hold the bias down): no write"},
	{"dirtier-act-zram-s60.csv", "shipped", POLICY_WORKINGSET, "pass2", 1, 0, 0,
	 "at 200 all through pass 2 on zram: no write"},
	/* Issue 46 target (4): the median runs of the full bench's dirtier on zram that missed it
	 * (bench/RESULTS.md), replayed with the signals they recorded under the default. */
	{"dirtier-612-zram-default.csv", "shipped", POLICY_WORKINGSET, NULL, 0, 0, 20,
	 "at most 20 a minute, issue 46's target: 6.7-10.0 over the seeds; 13.3-33.3 when a rise "
	 "right after a fall needed only the step (the run itself wrote 28.3 a minute: 60 -> 176 -> "
	 "137 -> 169 -> 117 -> 148 -> 126 -> 149)"},
	{"dirtier-mglru-zram-default.csv", "shipped", POLICY_WORKINGSET, NULL, 0, 0, 20,
	 "at most 20 a minute, issue 46's target: 15.0-18.0 over the seeds; 21.0-33.0 when a rise "
	 "right after a fall needed only the step (the run itself wrote 22.8 a minute: 60 -> 103 -> "
	 "165 -> 140 -> 106 -> 133 -> 164 -> 199)"},
	{"dirtier-act-zram-s200.csv", "shipped", POLICY_WORKINGSET, "pass2", 1, 8, 18,
	 "KNOWN (issue 13 item 4) on zram: no activations steer it here, and tendency's formula "
	 "wanders 120-162 under the dirtier's second pass: 8.6-17.1 writes/min over the seeds "
	 "(8.6-25.7 before a rise after a fall needed 3 times the step)"},
};

/*
 * Closed loop (replay_run_world: each row from the trace recorded nearest the value written):
 * how long a phase lasts and how much it swaps in, when each policy picks the value. The
 * statics in the same world, for scale (seed 0, `build/tests/test_replay --show`):
 *   phased phase 1:        15.2 s at 200, 19.0 s at 100, 74.0 s at 0
 *   phased phase 2:        12,258 pages swapped in at 200, 31 at 100, 0 at 0 (12.0, 14.0, 11.0 s)
 *   responsiveness pass 1: 10.0 s at 200, 19.1 s at 100, 73.6 s at 0
 *   responsiveness pass 2: 14.0 s at 200, 17.0 s at 100, 41.0 s at 0
 *   dirtier pass 1:        7.0 s at 200, 22.0 s at 100; pass 2 23.0 s at both
 * The world has no memory of the path (see replay.h): it judges a policy's choices, not the
 * kernel's history. Bounds hold for every seed; ms_hi/in_hi of -1: not checked.
 */
struct world_bound {
	const char *workload, *setup;
	enum policy_kind policy;
	const char *phase;
	long ms_lo, ms_hi, in_lo, in_hi;
	const char *why;
};

static const struct world_bound world_bounds[] = {
	/* adaptive: near the best static of each phase, with max 200 (at max = auto it is static
	 * 100, the last lines) */
	{"phased", "max200", POLICY_ADAPTIVE, "phase1", 17500, 18500, 0, 100,
	 "18.0 s: static 100 until the file refaults start (9 polls), then 200 (static 200: 15.2 s, "
	 "100: 19.0 s). Nothing before them says that 200 will pay"},
	{"phased", "max200", POLICY_ADAPTIVE, "phase2", 13500, 14500, 0, 1000,
	 "13.9 s and 462-607 pages swapped in: the one poll at 200 that shows the first swap-ins "
	 "(static 200: 12,258; 100: 31). The world forgets the path: the pages swapped out in that "
	 "poll come back in the VM, not here"},
	{"phased", "shipped-max200", POLICY_ADAPTIVE, "phase2", 13500, 14500, 0, 1000,
	 "the same at the shipped pace with max = 200"},
	{"responsiveness", "max200", POLICY_ADAPTIVE, "pass1", 11500, 13000, 0, -1,
	 "12.4 s: 200 from the first poll of pass 1 (static 200: 10.0 s, 100: 19.1 s); the probe "
	 "starts on the second poll with swap-ins at 100"},
	{"responsiveness", "max200", POLICY_ADAPTIVE, "pass2", 14000, 15500, 0, -1,
	 "15.0 s (static 200: 14.0 s, 100: 17.0 s): the swap-ins of pass 2 are twice those held at, "
	 "and their share of the swap-outs four times, so it tests 100 again for 2 polls"},
	{"responsiveness", "shipped-max200", POLICY_ADAPTIVE, "pass1", 11300, 12300, 0, -1,
	 "11.8 s at the shipped pace with max = 200 (static 200: 10.0 s, 100: 19.1 s): the PSI "
	 "trigger, which the kernel checks every 200 ms with the unit's CAP_SYS_RESOURCE, brings the "
	 "polls forward from the first stall (19.0 s, static 100's, when it checked every 2 s)"},
	{"responsiveness", "shipped-max200", POLICY_ADAPTIVE, "pass2", 13500, 14500, 0, -1,
	 "14.0 s, static 200's (17.0 s, static 100's, when the kernel checked the trigger every 2 s)"},
	{"dirtier", "max200", POLICY_ADAPTIVE, "pass1", 8500, 9500, 0, 1000,
	 "9.0 s (static 200: 7.0 s, 100: 22.0 s): 200 from its 2nd poll"},
	{"dirtier", "max200", POLICY_ADAPTIVE, "pass2", 22500, 23500, 0, -1, "23.0 s, as both statics"},
	{"dirtier", "shipped-max200", POLICY_ADAPTIVE, "pass1", 9500, 10500, 0, 1000,
	 "10.1 s at the shipped pace with max = 200"},
	{"phased", "shipped", POLICY_ADAPTIVE, "phase1", 18500, 19500, 0, -1, ADAPTIVE_N100 ": 19.0 s"},
	{"responsiveness", "shipped", POLICY_ADAPTIVE, "pass1", 18500, 19500, 0, -1, ADAPTIVE_N100 ": 19.1 s"},
	{"dirtier", "shipped", POLICY_ADAPTIVE, "pass1", 21500, 22500, 0, -1, ADAPTIVE_N100 ": 22.0 s"},

	{"phased", "max200", POLICY_TENDENCY, "phase2", 0, -1, 1000, 6000,
	 "KNOWN BAD (issue 13): 1,078-4,278 pages swapped in, tendency rises with the distress of "
	 "phase 2 (3,456-4,410 before a rise after a fall needed 3 times the step)"},
	{"phased", "shipped", POLICY_TENDENCY, "phase1", 20000, 22000, 0, -1,
	 "tendency, the default before workingset: 21.0 s (22.0 s when the kernel checked the "
	 "trigger every 2 s), about static 100 (19.0 s) and 38% behind 200 (15.2 s); " AUTO_100},
	{"responsiveness", "max200", POLICY_TENDENCY, "pass1", 0, 10500, 0, -1,
	 "tendency sits at 150-190 here: within 5% of static 200's 10.0 s"},
	{"responsiveness", "shipped", POLICY_TENDENCY, "pass1", 18500, 19500, 0, -1,
	 "tendency, the default before workingset: 19.1 s, static 100's, twice static 200's "
	 "10.0 s: at 100 from the first reclaim of setup (21.1 s when it followed the formula down "
	 "between bursts); " AUTO_100},
	/* zram (max = auto and N are 200): static 60 takes 15.0 s for phased phase 2, 200 43.0 s
	 * and 92,454 swap-ins; dirtier pass 1 14.9 s at 60, 5.0 s at 200. */
	{"phased-zram", "shipped", POLICY_ADAPTIVE, "phase2", 42000, 44000, 90000, -1,
	 "KNOWN BAD (issue 13): 43.0 s, static 200's: N is 200 on zram, the top, and adaptive never "
	 "leaves it (the benchmark: 2.9 times static 60)"},
	{"phased-zram", "shipped", POLICY_TENDENCY, "phase2", 0, 23500, 0, -1,
	 "tendency at 105-156: 16.0-23.0 s over the seeds, between 60's 15.0 s and 200's 43.0 s (the "
	 "world takes 131 and above from the trace at 200; at step 5, 21 s at most; the benchmark, "
	 "step 5: 1.02 of static 60, interval 0.94-1.07)"},
	{"dirtier-zram", "shipped", POLICY_ADAPTIVE, "pass1", 0, 5500, 0, -1,
	 "adaptive at N = 200 from the start: static 200's 5.0 s (60: 14.9 s)"},
	{"dirtier", "shipped", POLICY_TENDENCY, "pass1", 0, 11000, 0, 1000,
	 "tendency, the default before workingset, " SPARE ": 10.1 s, 200 from its 3rd poll "
	 "(static 200: 7.0 s, 100: 22.0 s)"},
	{"phased", "shipped", POLICY_TENDENCY, "phase2", 0, -1, 0, 100,
	 "tendency never spares the cache in phase 2: static 100's 31 pages swapped in "
	 "(200: 12,258)"},
	{"responsiveness", "shipped", POLICY_TENDENCY, "pass1", 0, -1, 0, 4000,
	 "nor in responsiveness: about static 100's 2,784 pages swapped in over pass 1 (200: 10,544)"},
	{"dirtier", "max200", POLICY_TENDENCY, "pass1", 0, 17000, 0, -1,
	 "tendency: 15.6-16.4 s, high after 3 polls (200: 7.0 s, 100: 22.0 s)"},

	/* workingset, on the traces with activations (WORKLOAD-act-sN.csv, 2026-12-04), with the
	 * shipped file (max = auto): statics 60 and 200 only, so every value between is replayed
	 * from the nearer of them, and a bias that the nearer trace's activations do not show is
	 * not exercised here (test_policy.c's test_workingset is). What the worlds can check: no
	 * worse than tendency where the statics differ. */
	{"responsiveness-act", "shipped", POLICY_WORKINGSET, "pass1", 0, 8500, 0, 40000,
	 "60 on the first poll with 512 anonymous activations a second: static 60's 8.0 s and "
	 "37,585 pages swapped in (200: 11.0 s, 45,988)"},
	{"phased-act", "shipped", POLICY_WORKINGSET, "phase2", 0, 11500, 0, 100,
	 "static 60's 11.0 s and 16 pages swapped in (200: 33.0 s, 154,651): no rise with phase "
	 "1's file set in the cache, and none from its activations after the cache is freed"},
	{"phased-act", "shipped", POLICY_WORKINGSET, "phase1", 0, 12500, 0, -1,
	 "KNOWN (issue 13): 12 s, static 60's (200: 8.0 s): near 100 while the file set fills "
	 "the cache, the price of phase 2"},
	{"compile-act", "shipped", POLICY_WORKINGSET, "build", 0, 34000, 0, -1,
	 "tendency's 33 s (200: 26.0 s, 60: 42.0 s)"},
	{"dirtier-act-zram", "shipped", POLICY_WORKINGSET, "pass1", 0, 5500, 0, -1,
	 "5.0 s, tendency's (200: 4.0 s, 60: 7.0 s)"},
	{"compile-act-zram", "shipped", POLICY_WORKINGSET, "build", 0, 25000, 0, -1,
	 "KNOWN (issue 13): 24 s (200: 21.0 s, 60: 29.0 s, tendency 23.0 s): the build's burst of "
	 "anonymous activations at 200 takes it to 60, where file ones raise it again; in the "
	 "benchmark it held 60 for most of the build: 1.09 times static 200's time on zram in the "
	 "full run, 0.96 measured again the same afternoon (bench/EXPERIMENTS.md, rest-2026-12-05)"},
	{"phased-act-zram", "shipped", POLICY_WORKINGSET, "phase2", 0, 13000, 0, 20000,
	 "11 s and 44 pages swapped in, static 60's (200: 35.0 s and 262,946): at 91 all through "
	 "phase 2, where the world replays the trace at 60: the formula's 131 on its second poll "
	 "waits, as a rise within REGULATOR_TURN_S of the fall to 91 needs 3 times the step (when "
	 "131 was written, 12 s and 8,833 pages, and 60 from the third poll on the anonymous "
	 "activations): a change for zram's builds must keep the phase near 60's"},
	{"phased-act-zram", "shipped", POLICY_WORKINGSET, "phase1", 0, 10500, 0, -1,
	 "KNOWN (issue 13): 10 s, static 60's (200: 8.0 s): about 100 while the file set fills the "
	 "cache, as on disk"},
	{"dirtier-act-zram", "shipped", POLICY_WORKINGSET, "pass2", 0, 8000, 0, -1,
	 "tendency's 7.0-8.0 s over the seeds (8.0 where a poll at 125 replays the 60 trace)"},
	{"phased-zram", "shipped", POLICY_WORKINGSET, "phase2", 0, 23500, 0, -1,
	 "tendency's bound: this trace has no activations, so the policy is tendency"},
	{"alternating", "shipped", POLICY_WORKINGSET, "run", 0, 153500, 0, 30000,
	 "issue 46 item 2 (a synthetic world: tests/data/traces/README): 151.0 s and 25,505-26,826 "
	 "pages swapped in over the seeds, near static 60's 149.0 s and 22,200 (200: 240.0 s, "
	 "334,600), after three probes to 140 that cost a poll each; a policy that rose on every "
	 "fourth poll took 165.0 s and swapped in 71,729-78,092 (1.11 times static 60; the job it "
	 "models, 1.16)"},
	{"alternating", "shipped-max200", POLICY_WORKINGSET, "run", 0, 153500, 0, 30000, "the same with max = 200"},
	/* The multi-gen LRU (Debian 13's 6.12, the LRU bench of 2026-12-06, repetition 1): in this
	 * world the statics 60, 100 and 199 take 9-10 s for phase 1 and 11-12 s for phase 2 (the
	 * bench's medians over 5 runs: 9.3-9.6 s and 10.5-10.7 s, within each other's noise; only
	 * 200, anonymous pages first, is another: 7.2 s and 11.7 s, and the daemon keeps off it). */
	{"phased-mglru", "shipped", POLICY_WORKINGSET, "phase1", 0, 10500, 0, -1,
	 "10 s: 96-100 (max = auto on disk), among the statics 2..199 (9.0-10.0 s)"},
	{"phased-mglru", "shipped", POLICY_WORKINGSET, "phase2", 0, 12500, 0, 1000,
	 "12 s and 139 pages swapped in at 100, as static 100 (60: 11.0 s and 160; 199: 11.0 s, 129)"},
	/* name = auto: device here, static 100 from the first poll; the classic worlds below run
	 * it as workingset. */
	{"phased-mglru", "shipped", CONFIG_POLICY_AUTO, "phase1", 0, 10500, 0, -1, "static 100's (9.0-10.0 s)"},
	{"phased-mglru", "shipped", CONFIG_POLICY_AUTO, "phase2", 0, 12500, 0, 1000, "static 100's: 12 s and 139"},
	/* responsiveness under the multi-gen LRU, disk swap (statics 60 100 199 200): every
	 * static takes pass 1 in 6-7 s and pass 2 in 9-10 s with 51,954-56,281 pages swapped in.
	 * These hold the daemon among them (auto and workingset keep 2..199 here). */
	{"responsiveness-mglru", "shipped", POLICY_WORKINGSET, "pass2", 0, 10500, 0, 57000,
	 "60 from the second poll of setup: static 60's 9.0 s and 53,229 pages swapped in"},
	{"responsiveness-mglru", "shipped", CONFIG_POLICY_AUTO, "pass2", 0, 10500, 0, 57000,
	 "auto is device, static 100 from the first poll: 9.0 s and 51,954"},
	/* compile, the same: every static builds in 38-39 s, with 525-1,054 pages swapped in. */
	{"compile-mglru", "shipped", POLICY_WORKINGSET, "build", 0, 39500, 0, 1100,
	 "39.0 s and 532 pages swapped in: 100, then 199 for most of the build"},
	{"compile-mglru", "shipped", CONFIG_POLICY_AUTO, "build", 0, 39500, 0, 1100,
	 "static 100's: 38.0 s and 954"},
	/* On zram (statics 60 180 199 200): 7-8 s for phase 1, 11-13 s for phase 2 in this world
	 * (the bench's medians: 7.4-7.6 s and 10.3-10.5 s, every static value within the others'
	 * noise). */
	/* The classic LRU on 6.12, disk swap (disk/phased, statics 60 100 200, repetition 1): static
	 * 60 takes phase 1 in 12.0 s and phase 2 in 11.0 s with 17 pages swapped in, 100 12.0 s and
	 * 16.0 s with 4,355 (phase 2 at 100 is bimodal in the bench: 2 of 5 runs like this one, 3 at
	 * 10.1 s), 200 8.0 s and 32.0 s. */
	{"phased-612", "shipped", POLICY_WORKINGSET, "phase2", 0, 12500, 0, 2500,
	 "KNOWN (issue 46): 12.0 s and 1,672 pages swapped in: phase 1 ends at 96-100 (max = auto on "
	 "disk) and the first poll of phase 2 still is; the anonymous activations take it to 60 from "
	 "the second. The bench: 1.03 [1.02-1.47] of static 60 with no daemon beside it, 1,557-3,879 "
	 "swap-ins in every run (static 60: 15-19); 1.02 [0.99-1.09] of static 60 beside its dry run "
	 "(bench/results-next); a switch to 60 at the exact boundary, 1.01 [1.00-1.01]"},
	{"phased-612", "shipped", POLICY_WORKINGSET, "phase1", 0, 12500, 0, -1,
	 "12.0 s, statics 60's and 100's (200: 8.0 s)"},
	{"phased-612", "shipped", CONFIG_POLICY_AUTO, "phase2", 0, 12500, 0, 2500,
	 "KNOWN (issue 46): auto is workingset under the classic LRU, the same 12.0 s and 1,672"},
	/* The classic LRU on Debian 13's 6.12, zram (the LRU bench, statics 60 180 200): static 60
	 * takes phase 2 in 11.0 s with 34 pages swapped in, 180 17.0 s and 47,713, 200 32.0 s. */
	{"phased-612-zram", "shipped", POLICY_WORKINGSET, "phase2", 0, 17000, 0, 45000,
	 "KNOWN (issue 46): 13.0-16.0 s and 31,416-36,857 pages swapped in over the seeds, 88-167 "
	 "all through phase 2: it swaps in thousands of pages a second with a few anonymous "
	 "activations (8,911 swap-ins and 5 "
	 "activations in one second), so workingset rises on the file ones; the bench: 1.12 "
	 "[1.00-1.32] of static 60. Snapping down on swap-ins (branch swapin-snap) gives 12.0 s and "
	 "9,739, but costs dirtier-act-zram's pass 2 0.9 s, where swap-ins are the same at any value"},
	{"phased-mglru-zram", "shipped", POLICY_WORKINGSET, "phase1", 0, 8500, 0, -1,
	 "8 s, static 60's (180 and 199: 7.0 s): 52-115, never 200"},
	{"phased-mglru-zram", "shipped", POLICY_WORKINGSET, "phase2", 0, 13500, 0, 1000,
	 "13 s and 122 pages swapped in, static 60's (199: 11.0 s and 132): 91-155"},
	{"phased-mglru-zram", "shipped", CONFIG_POLICY_AUTO, "phase1", 0, 7500, 0, -1,
	 "auto is device: 199 from the first poll, static 199's 7.0 s"},
	{"phased-mglru-zram", "shipped", CONFIG_POLICY_AUTO, "phase2", 0, 11500, 0, 1000,
	 "static 199's: 11.0 s and 132 pages swapped in"},
};

/*
 * Closed loop: a workload where a rise pays at first sight and costs more than it saves (issue
 * 46 item 2: no limit cycles). From after_s seconds into the phase to its end, each seed writes
 * at most max_writes times, and at least min_low_pct percent of its polls leave the value at or
 * below hi.
 */
struct world_settle {
	const char *workload, *setup;
	enum policy_kind policy;
	const char *phase;
	unsigned after_s, max_writes;
	int hi;
	unsigned min_low_pct;
	const char *why;
};

static const struct world_settle world_settles[] = {
	{"alternating", "shipped", POLICY_WORKINGSET, "run", 60, 2, 100, 95,
	 "file activations at 60 (406/s, anonymous 80/s), anonymous ones above 130 (1,352/s, file 13/s): "
	 "each rise is followed by a fall on more anonymous activations than the file ones it rose on, "
	 "so rises wait 30 s, 60 s, 120 s: after the first minute one probe (a write up, one down), 7-8 "
	 "writes in the run. A policy that rose again on the next file activations wrote 82-84 "
	 "times in it, 30 a minute"},
	{"alternating", "shipped-max200", POLICY_WORKINGSET, "run", 60, 2, 100, 95, "the same with max = 200"},
};

/* Traces are loaded once and kept for the run (freed at exit). */
#define MAX_TRACES 64
static struct {
	char name[128];
	struct trace t;
} cache[MAX_TRACES];
static unsigned n_cached;

static const struct trace *
trace_named(const char *name)
{
	for (unsigned i = 0; i < n_cached; i++)
		if (strcmp(cache[i].name, name) == 0)
			return &cache[i].t;
	assert_true(n_cached < MAX_TRACES);
	load(name, &cache[n_cached].t);
	snprintf(cache[n_cached].name, sizeof(cache[n_cached].name), "%s", name);
	return &cache[n_cached++].t;
}

static void
free_traces(void)
{
	for (unsigned i = 0; i < n_cached; i++)
		trace_free(&cache[i].t);
	n_cached = 0;
}

/* The traces of one workload (WORKLOAD-sN.csv for every N found) as a closed-loop world.
 * Returns the number of traces (0: none). */
static unsigned
world_of(const char *workload, struct replay_world *w)
{
	char pattern[512];
	glob_t g;

	memset(w, 0, sizeof(*w));
	snprintf(pattern, sizeof(pattern), "%s/%s-s*.csv", traces_dir(), workload);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc && w->n < REPLAY_MAX_WORLD; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/');
		const char *num;

		base = base ? base + 1 : g.gl_pathv[i];
		num = base + strlen(workload) + 2;
		w->settings[w->n] = atoi(num);
		w->traces[w->n++] = trace_named(base);
	}
	globfree(&g);
	return w->n;
}

/* "60 70 80 ..." : the values through a phase, for failure messages. */
static const char *
phase_text(const struct replay *r, unsigned phase)
{
	static char buf[2048];
	int vals[MAX_PHASE_POLLS];
	size_t n = replay_phase_values(r, phase, vals, MAX_PHASE_POLLS);

	snprintf(buf, sizeof(buf), "entering %d, then", vals[0]);
	for (size_t k = 1; k <= n && k < MAX_PHASE_POLLS && strlen(buf) < sizeof(buf) - 8; k++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %d", vals[k]);
	return buf;
}

/* Runs fn on every seed's replay of trace under setup and policy: seed 0 is the trace as
 * recorded, seeds 1..N_SEEDS add NOISE_PCT of noise. */
static void
each_seed(const char *trace, const char *setup, enum policy_kind policy,
	  void (*fn)(const struct replay *r, unsigned seed, const void *arg), const void *arg)
{
	const struct trace *t = trace_named(trace);

	for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
		struct replay_config rc;
		struct replay r;

		config_of(setup, policy, &rc);
		rc.noise_pct = seed ? NOISE_PCT : 0;
		rc.seed = seed;
		assert_int_equal(replay_run(t, &rc, &r), 0);
		fn(&r, seed, arg);
		replay_free(&r);
	}
}

static unsigned
phase_or_fail(const struct trace *t, const char *trace, const char *phase)
{
	int ph = trace_phase(t, phase);

	if (ph < 0)
		fail_msg("%s has no phase '%s'", trace, phase);
	return (unsigned)ph;
}

/* Every line's failing seeds are counted and the first one printed, so that one run shows
 * all that a policy change breaks. */
static unsigned failures, failing_seeds;

/* Counts a failing seed; returns true for the first of its line (the one to print). */
static bool
first_failure(void)
{
	return failing_seeds++ == 0;
}

/* After a line's seeds: counts the line if any seed failed. */
static void
end_line(void)
{
	if (failing_seeds)
		print_error("  (fails on %u of %u seeds)\n", failing_seeds, N_SEEDS + 1);
	failures += failing_seeds > 0;
	failing_seeds = 0;
}

static const char *const kind_names[] = {[REACH] = "reaches", [SETTLE] = "settles in", [HOLD] = "holds"};

static void
check_expect(const struct replay *r, unsigned seed, const void *arg)
{
	const struct expect *e = arg;
	unsigned ph = phase_or_fail(r->trace, e->trace, e->phase);
	bool ok;
	int k;

	switch (e->kind) {
	case REACH:
		k = replay_reach(r, ph, e->lo, e->hi);
		ok = k >= 0 && k <= e->within;
		break;
	case SETTLE:
		k = replay_settle(r, ph, e->lo, e->hi);
		ok = k >= 0 && k <= e->within;
		break;
	case HOLD:
	default:
		k = replay_hold(r, ph, e->lo, e->hi) - 1; /* the last poll still in the band */
		ok = k >= e->within;
		break;
	}
	if (!ok && first_failure())
		print_error("%s, %s config, %s, %s: %s %d..%d %s %d polls (want %d), seed %u: %s\n  why: %s\n",
			    e->trace, e->setup, policy_name(e->policy), e->phase, kind_names[e->kind], e->lo, e->hi,
			    e->kind == HOLD ? "for" : "after", k, e->within, seed, phase_text(r, ph), e->why);
}

static void
test_expects(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		each_seed(expects[i].trace, expects[i].setup, expects[i].policy, check_expect, &expects[i]);
		end_line();
	}
	if (failures)
		fail_msg("%u of %zu lines of expects[] fail", failures, sizeof(expects) / sizeof(expects[0]));
}

static void
check_writes(const struct replay *r, unsigned seed, const void *arg)
{
	const struct writes_bound *b = arg;
	unsigned ph = 0;
	char where[96];
	double wpm;

	if (!b->phase) {
		wpm = replay_workload_writes_per_min(r);
		snprintf(where, sizeof(where), "the workload");
	} else {
		ph = phase_or_fail(r->trace, b->trace, b->phase);
		wpm = replay_writes_per_min(r, ph, b->from_poll);
		snprintf(where, sizeof(where), "%s from poll %d", b->phase, b->from_poll);
	}
	if (wpm < 0)
		fail_msg("%s, %s: %s is no stretch of a second or more", b->trace, policy_name(b->policy), where);
	if ((wpm >= b->min_per_min && wpm <= b->max_per_min) || !first_failure())
		return;
	print_error("%s, %s config, %s, %s: %.1f writes/min, want %.1f..%.1f, seed %u:", b->trace, b->setup,
		    policy_name(b->policy), where, wpm, b->min_per_min, b->max_per_min, seed);
	for (unsigned k = 0; k < r->trace->n_phases; k++)
		if (!b->phase || k == ph)
			print_error(" %s:%s", r->trace->phases[k], phase_text(r, k));
	print_error("\n  why: %s\n", b->why);
}

static void
test_steady_writes(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < sizeof(writes_bounds) / sizeof(writes_bounds[0]); i++) {
		each_seed(writes_bounds[i].trace, writes_bounds[i].setup, writes_bounds[i].policy, check_writes,
			  &writes_bounds[i]);
		end_line();
	}
	if (failures)
		fail_msg("%u of %zu lines of writes_bounds[] fail", failures,
			 sizeof(writes_bounds) / sizeof(writes_bounds[0]));
}

/* Every policy on every trace, shipped config: never above what max = auto allows for the
 * trace's swap devices (policy_device_max: 100 on the disk swap recorded so far), but for
 * the tendency policy sparing the cache on disk swap, which says so and writes 200 (199
 * under the multi-gen LRU, and its reason names the value written), and the
 * workingset policy, which does that too and also rises to 200 on file activations, and keeps
 * such a rise through a poll without reclaim or through a dip of the formula at the top ("stay
 * at", "hold top": the value of the poll before, which was checked). A new trace or policy is
 * covered without a line of its own. */
static void
test_all_within_auto_max(void **state)
{
	glob_t g;

	(void)state;
	glob_traces(&g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = base_of(g.gl_pathv[i]);
		const struct trace *t = trace_named(base);
		int cap = 0;
		/* Sparing the cache goes to 200, or 199 under the multi-gen LRU, and says so. */
		int spare = t->n_rows > 0 && t->rows[0].s.mglru ? REGULATOR_MGLRU_MAX : 200;
		char spare_at[32];

		snprintf(spare_at, sizeof(spare_at), "spare the cache at %d:", spare);
		for (size_t k = 0; k < t->n_rows; k++)
			if (policy_device_max(&t->rows[k].s) > cap)
				cap = policy_device_max(&t->rows[k].s);
		for (unsigned p = 0; p < POLICY_COUNT; p++) {
			for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
				struct replay_config rc;
				struct replay r;

				replay_config_shipped(&rc, (enum policy_kind)p);
				rc.noise_pct = seed ? NOISE_PCT : 0;
				rc.seed = seed;
				assert_int_equal(replay_run(t, &rc, &r), 0);
				for (size_t k = 0; k < r.n_polls; k++)
					if (r.polls[k].value > cap &&
					    !(p == POLICY_TENDENCY && cap == 100 && r.polls[k].value == spare &&
					      strncmp(r.polls[k].reason, spare_at, strlen(spare_at)) == 0) &&
					    !(p == POLICY_WORKINGSET && cap == 100 && r.polls[k].value <= spare &&
					      (strncmp(r.polls[k].reason, spare_at, strlen(spare_at)) == 0 ||
					       strstr(r.polls[k].reason, "; file +") != NULL ||
					       strstr(r.polls[k].reason, "; bias +") != NULL ||
					       (k > 0 && r.polls[k - 1].value == r.polls[k].value &&
						(strncmp(r.polls[k].reason, "stay at ", 8) == 0 ||
						 strncmp(r.polls[k].reason, "hold top ", 9) == 0)))))
						fail_msg("%s, shipped, %s, seed %u: %d at poll %zu, above max = auto "
							 "(%d)",
							 base, policy_name((enum policy_kind)p), seed, r.polls[k].value,
							 k, cap);
				/* Nor anywhere else: on zram (auto's top is 200) no policy spares
				 * the cache. */
				for (size_t k = 0; k < r.n_polls; k++)
					if (cap != 100 && strncmp(r.polls[k].reason, "spare the cache", 15) == 0)
						fail_msg("%s, shipped, %s, seed %u: spares the cache at poll %zu "
							 "with max = auto at %d",
							 base, policy_name((enum policy_kind)p), seed, k, cap);
				replay_free(&r);
			}
		}
	}
	globfree(&g);
}

/*
 * Issue 46 item 3 on the recorded traces: under the multi-gen LRU (the traces whose rows say
 * mglru) no policy, in no setup and no seed, leaves 2..199, where 0, 1 and 200 mean another
 * mechanism (include/regulator.h); the same traces replayed as the classic LRU do reach a
 * value outside it, so the limits are what holds them.
 */
static void
test_mglru_range(void **state)
{
	glob_t g;
	unsigned n_mglru = 0, outside_classic = 0;

	(void)state;
	glob_traces(&g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = base_of(g.gl_pathv[i]);
		const struct trace *t = trace_named(base);
		struct trace classic = *t;

		if (t->n_rows == 0 || !t->rows[0].s.mglru)
			continue;
		n_mglru++;
		classic.rows = calloc(t->n_rows, sizeof(*classic.rows));
		assert_non_null(classic.rows);
		memcpy(classic.rows, t->rows, t->n_rows * sizeof(*classic.rows));
		for (size_t k = 0; k < t->n_rows; k++)
			classic.rows[k].s.mglru = false;
		for (unsigned s = 0; s < sizeof(setups) / sizeof(setups[0]); s++) {
			for (unsigned p = 0; p < POLICY_COUNT; p++) {
				for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
					struct replay_config rc;
					struct replay r;

					config_of(setups[s], (enum policy_kind)p, &rc);
					rc.cfg.min = 0; /* the widest range a user can give */
					rc.noise_pct = seed ? NOISE_PCT : 0;
					rc.seed = seed;
					assert_int_equal(replay_run(t, &rc, &r), 0);
					for (size_t k = 0; k < r.n_polls; k++)
						if (r.polls[k].value < REGULATOR_MGLRU_MIN ||
						    r.polls[k].value > REGULATOR_MGLRU_MAX)
							fail_msg("%s (multi-gen LRU), %s, %s, seed %u: %d at poll %zu",
								 base, setups[s], policy_name((enum policy_kind)p),
								 seed, r.polls[k].value, k);
					replay_free(&r);
					assert_int_equal(replay_run(&classic, &rc, &r), 0);
					for (size_t k = 0; k < r.n_polls; k++)
						if (r.polls[k].value < REGULATOR_MGLRU_MIN ||
						    r.polls[k].value > REGULATOR_MGLRU_MAX) {
							outside_classic++;
							break;
						}
					replay_free(&r);
				}
			}
		}
		free(classic.rows);
	}
	globfree(&g);
	if (n_mglru == 0)
		fail_msg("no trace in %s says the multi-gen LRU (column mglru)", traces_dir());
	if (outside_classic == 0)
		fail_msg("replayed as the classic LRU, no policy left 2..199 on the multi-gen LRU's traces: "
			 "the test would not see the limits go");
}

/* "any" for a bound of -1, else v / div. */
static const char *
bound_text(long v, long div, char *buf)
{
	if (v < 0)
		return "any";
	if (div == 1)
		snprintf(buf, 32, "%ld", v);
	else
		snprintf(buf, 32, "%.1f", (double)v / (double)div);
	return buf;
}

static void
test_world_bounds(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < sizeof(world_bounds) / sizeof(world_bounds[0]); i++) {
		const struct world_bound *b = &world_bounds[i];
		struct replay_world w;
		long ms_min = -1, ms_max = -1, in_min = -1, in_max = -1;
		char hi_ms[32], hi_in[32];
		int ph;

		if (world_of(b->workload, &w) < 2)
			fail_msg("%s: fewer than two traces for a world", b->workload);
		ph = trace_phase(w.traces[0], b->phase);
		if (ph < 0)
			fail_msg("%s has no phase '%s'", b->workload, b->phase);
		for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
			struct replay_config rc;
			struct replay r;
			long ms, in;
			int rph;

			config_of(b->setup, b->policy, &rc);
			rc.noise_pct = seed ? NOISE_PCT : 0;
			rc.seed = seed;
			assert_int_equal(replay_run_world(&w, &rc, &r), 0);
			rph = trace_phase(r.trace, b->phase);
			ms = (long)replay_phase_ms(&r, (unsigned)rph);
			in = (long)replay_phase_swapins(&r, (unsigned)rph);
			ms_min = ms_min < 0 || ms < ms_min ? ms : ms_min;
			ms_max = ms > ms_max ? ms : ms_max;
			in_min = in_min < 0 || in < in_min ? in : in_min;
			in_max = in > in_max ? in : in_max;
			if ((ms < b->ms_lo || (b->ms_hi >= 0 && ms > b->ms_hi) || in < b->in_lo ||
			     (b->in_hi >= 0 && in > b->in_hi)) &&
			    first_failure())
				print_error("%s world, %s config, %s, %s: %.1f s and %ld pages swapped in, want "
					    "%.1f..%s s and %ld..%s pages, seed %u: %s\n  why: %s\n",
					    b->workload, b->setup, config_policy_name(b->policy), b->phase,
					    (double)ms / 1000.0, in, (double)b->ms_lo / 1000.0,
					    bound_text(b->ms_hi, 1000, hi_ms), b->in_lo, bound_text(b->in_hi, 1, hi_in),
					    seed, phase_text(&r, (unsigned)rph), b->why);
			replay_free(&r);
		}
		if (failing_seeds)
			print_error("  over the seeds: %.1f..%.1f s, %ld..%ld pages\n", (double)ms_min / 1000.0,
				    (double)ms_max / 1000.0, in_min, in_max);
		end_line();
	}
	if (failures)
		fail_msg("%u of %zu lines of world_bounds[] fail", failures,
			 sizeof(world_bounds) / sizeof(world_bounds[0]));
}

static void
test_world_settles(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < sizeof(world_settles) / sizeof(world_settles[0]); i++) {
		const struct world_settle *b = &world_settles[i];
		struct replay_world w;

		if (world_of(b->workload, &w) < 2)
			fail_msg("%s: fewer than two traces for a world", b->workload);
		for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
			struct replay_config rc;
			struct replay r;
			unsigned writes = 0, polls = 0, low = 0;
			uint64_t t0 = 0;
			bool in_phase = false;
			int ph;

			config_of(b->setup, b->policy, &rc);
			rc.noise_pct = seed ? NOISE_PCT : 0;
			rc.seed = seed;
			assert_int_equal(replay_run_world(&w, &rc, &r), 0);
			ph = (int)phase_or_fail(r.trace, b->workload, b->phase);
			for (size_t k = 0; k < r.n_polls; k++) {
				const struct replay_poll *p = &r.polls[k];

				if (p->phase != (unsigned)ph)
					continue;
				if (!in_phase) {
					t0 = p->t_ms;
					in_phase = true;
				}
				if (p->t_ms < t0 + (uint64_t)b->after_s * 1000u)
					continue;
				polls++;
				writes += p->wrote;
				low += p->value <= b->hi;
			}
			if ((polls == 0 || writes > b->max_writes || low * 100u < b->min_low_pct * polls) &&
			    first_failure())
				print_error("%s world, %s config, %s, %s after %u s: %u writes (want at most %u), "
					    "%u of %u polls at or below %d (want %u%%), seed %u: %s\n  why: %s\n",
					    b->workload, b->setup, policy_name(b->policy), b->phase, b->after_s, writes,
					    b->max_writes, low, polls, b->hi, b->min_low_pct, seed,
					    phase_text(&r, (unsigned)ph), b->why);
			replay_free(&r);
		}
		end_line();
	}
	if (failures)
		fail_msg("%u of %zu lines of world_settles[] fail", failures,
			 sizeof(world_settles) / sizeof(world_settles[0]));
}

/* --show: the writes per minute over the workload (replay_workload_writes_per_min), the
 * least and the most of any seed. Returns 0, or -1 when a replay fails. */
static int
show_workload_writes(const struct trace *t, const char *setup, enum policy_kind policy)
{
	double lo = 1e9, hi = -1;

	for (unsigned seed = 0; seed <= N_SEEDS; seed++) {
		struct replay_config rc;
		struct replay r;
		double w;

		config_of(setup, policy, &rc);
		rc.noise_pct = seed ? NOISE_PCT : 0;
		rc.seed = seed;
		if (replay_run(t, &rc, &r) < 0)
			return -1;
		w = replay_workload_writes_per_min(&r);
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
		replay_free(&r);
	}
	if (hi >= 0)
		printf("  workload writes/min %.1f..%.1f\n", lo, hi);
	return 0;
}

/* --show: what each policy does on each trace, per phase, over the seeds: the polls in the
 * phase, the value entering it, the range of values after its polls, the range of values it
 * ends at, the lowest and the most writes per minute of any seed; and seed 0's values poll
 * by poll. Then the writes per minute over the workload (show_workload_writes). */
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
			if (show_workload_writes(t, setups[s], (enum policy_kind)p) < 0) {
				fprintf(stderr, "%s: replay failed\n", name);
				return 1;
			}
		}
	}
	return 0;
}

/* --show, closed loop: per phase, how long it took and what it swapped in, for the statics
 * (held at each recorded value) and for each policy, seed 0 with the values poll by poll. */
static int
show_world(const char *workload)
{
	struct replay_world w;
	const struct trace *t;

	if (world_of(workload, &w) < 2)
		return 0;
	for (unsigned s = 0; s < sizeof(setups) / sizeof(setups[0]); s++) {
		for (int p = -(int)w.n; p < (int)POLICY_COUNT; p++) {
			struct replay_config rc;
			struct replay r;
			int vals[MAX_PHASE_POLLS];

			if (p < 0 && s > 0)
				continue; /* a static is the same under either setup */
			config_of(setups[s], p < 0 ? POLICY_CK : (enum policy_kind)p, &rc);
			if (p < 0) {
				rc.cfg.min = rc.cfg.max = rc.start_value = w.settings[w.n + (unsigned)p];
				printf("%s world, static %d:", workload, rc.cfg.min);
			} else {
				printf("%s world, %s %s:", workload, setups[s], policy_name((enum policy_kind)p));
			}
			if (replay_run_world(&w, &rc, &r) < 0) {
				fprintf(stderr, "%s: world replay failed\n", workload);
				return 1;
			}
			/* The replay's phases are those of the world's trace with the most of them
			 * (replay_run_world), not always the first trace's. */
			t = r.trace;
			for (unsigned ph = 0; ph < t->n_phases; ph++)
				printf(" %s %.1f s %llu in,", t->phases[ph], (double)replay_phase_ms(&r, ph) / 1000.0,
				       (unsigned long long)replay_phase_swapins(&r, ph));
			printf(" %u writes\n", r.writes);
			/* decide() keeps 2..199 under the multi-gen LRU, statics too: say so. */
			if (p < 0 && w.traces[0]->n_rows > 0 && w.traces[0]->rows[0].s.mglru &&
			    (rc.cfg.min < REGULATOR_MGLRU_MIN || rc.cfg.min > REGULATOR_MGLRU_MAX))
				printf("  (the multi-gen LRU: the daemon's limits keep %d..%d, so this replays %d)\n",
				       REGULATOR_MGLRU_MIN, REGULATOR_MGLRU_MAX,
				       rc.cfg.min < REGULATOR_MGLRU_MIN ? REGULATOR_MGLRU_MIN : REGULATOR_MGLRU_MAX);
			if (p >= 0) {
				for (unsigned ph = 0; ph < t->n_phases; ph++) {
					size_t n = replay_phase_values(&r, ph, vals, MAX_PHASE_POLLS);

					printf("  %-7s", t->phases[ph]);
					for (size_t k = 1; k <= n && k < MAX_PHASE_POLLS; k++)
						printf(" %d", vals[k]);
					printf("\n");
				}
			}
			replay_free(&r);
		}
	}
	return 0;
}

/* The workload of a trace's path: its file name before "-s" (phased-612-zram-s60.csv:
 * phased-612-zram). Returns 0, or -1 for a name without "-s" or too long for buf. */
static int
workload_of(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/'), *dash;

	base = base ? base + 1 : path;
	dash = strstr(base, "-s");
	if (!dash || (size_t)(dash - base) >= size)
		return -1;
	snprintf(buf, size, "%.*s", (int)(dash - base), base);
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
	/* The closed-loop worlds, one per workload (its name before "-s"), shown with the first
	 * of its traces: the names are sorted, so a workload's traces come together (phased-s0
	 * after phased-mglru-zram-s60, which is another workload). */
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		char workload[128], last[128] = "";

		if (workload_of(g.gl_pathv[i], workload, sizeof(workload)) < 0)
			continue;
		if (i > 0 && workload_of(g.gl_pathv[i - 1], last, sizeof(last)) == 0 && strcmp(last, workload) == 0)
			continue;
		rc = show_world(workload);
	}
	free_traces();
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
		cmocka_unit_test(test_trace_parse_good),
		cmocka_unit_test(test_trace_parse_bad),
		cmocka_unit_test(test_trace_load_errors),
		cmocka_unit_test(test_replay_schedule),
		cmocka_unit_test(test_replay_pipeline),
		cmocka_unit_test(test_replay_noise),
		cmocka_unit_test(test_replay_world),
		cmocka_unit_test(test_traces_load),
		cmocka_unit_test(test_expects),
		cmocka_unit_test(test_steady_writes),
		cmocka_unit_test(test_all_within_auto_max),
		cmocka_unit_test(test_mglru_range),
		cmocka_unit_test(test_world_bounds),
		cmocka_unit_test(test_world_settles),
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
	free_traces();
	return rc;
}
