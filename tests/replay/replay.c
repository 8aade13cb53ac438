#include "replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "regulator.h"

/* splitmix64 (Steele, Lea, Flood 2014): a small generator whose sequence depends only on
 * the seed, so that a failing seed can be replayed. */
static uint64_t
next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* delta times a factor drawn uniformly from [1 - pct/100, 1 + pct/100], in 1/1000 steps. */
static uint64_t
noisy(uint64_t delta, unsigned pct, uint64_t *rng)
{
	int64_t per_mille = (int64_t)(next_random(rng) % (2u * pct * 10u + 1u)) - (int64_t)pct * 10;
	unsigned __int128 v = (unsigned __int128)delta * (uint64_t)(1000 + per_mille) + 500;

	return (uint64_t)(v / 1000);
}

/* The counters a policy takes rates of; noise multiplies their deltas. */
#define EACH_COUNTER(X)                                                                                                \
	X(pgscan_pages)                                                                                                \
	X(pgsteal_pages)                                                                                               \
	X(pswpin_pages)                                                                                                \
	X(pswpout_pages)                                                                                               \
	X(refault_anon_pages)                                                                                          \
	X(refault_file_pages)                                                                                          \
	X(psi.some_total_us)                                                                                           \
	X(psi.full_total_us)

/* Counters added later: their noise comes from a stream of its own (a copy of the row's
 * generator state, scrambled), so that the draws of the counters above, and with them every
 * bound that older traces were replayed against, stay as they were. */
#define EACH_LATER_COUNTER(X)                                                                                          \
	X(activate_anon_pages)                                                                                         \
	X(activate_file_pages)

/* Appends to out the sample that follows prev (NULL: the first) when the kernel went from
 * a to b: b's gauges, prev's counters moved by b - a times the noise, time by b - a. */
static void
step_sample(const struct sample *prev, const struct sample *a, const struct sample *b, unsigned pct, uint64_t *rng,
	    struct sample *out)
{
	*out = *b;
	if (!prev)
		return;
	if (!a)
		a = b; /* the trace's first row: nothing moved */
	out->time_us = prev->time_us + (b->time_us > a->time_us ? b->time_us - a->time_us : 0);
	uint64_t later = *rng ^ 0x9e3779b97f4a7c15u;

#define STEP(field) out->field = prev->field + noisy(b->field > a->field ? b->field - a->field : 0, pct, rng);
	EACH_COUNTER(STEP)
#undef STEP
#define STEP(field) out->field = prev->field + noisy(b->field > a->field ? b->field - a->field : 0, pct, &later);
	EACH_LATER_COUNTER(STEP)
#undef STEP
}

/* How often the kernel checks the unit's PSI trigger: with CAP_SYS_RESOURCE, every
 * tenth of the window (its psimon thread; without it, every 2 s). */
#define REPLAY_PSI_CHECK_MS (CONFIG_PSI_WINDOW_MS / 10)

/* Would the PSI trigger ("some" trigger_ms within CONFIG_PSI_WINDOW_MS) have fired by row i? */
static bool
psi_fires(const struct trace *t, size_t i, unsigned trigger_ms)
{
	const struct sample *si = &t->rows[i].s, *sj;
	size_t j = i;

	if (trigger_ms == 0 || !si->has_psi)
		return false;
	/* The kernel checks the trigger at its own ticks (REPLAY_PSI_CHECK_MS): it can fire
	 * only at a row that crosses one. The traces' rows are about 1 s apart, so with the
	 * unit's CAP_SYS_RESOURCE (200 ms) every row does; without it (2 s, PSI_FREQ in
	 * kernel/sched/psi.c) every other row. */
	if (i == 0 || t->rows[i].t_ms / REPLAY_PSI_CHECK_MS == t->rows[i - 1].t_ms / REPLAY_PSI_CHECK_MS)
		return false;
	while (j > 0 && t->rows[j - 1].t_ms + CONFIG_PSI_WINDOW_MS >= t->rows[i].t_ms)
		j--;
	sj = &t->rows[j].s;
	if (j == i || !sj->has_psi)
		return false;
	return si->psi.some_total_us >= sj->psi.some_total_us &&
	       si->psi.some_total_us - sj->psi.some_total_us >= (uint64_t)trigger_ms * 1000u;
}

void
replay_config_shipped(struct replay_config *ret, enum policy_kind policy)
{
	*ret = (struct replay_config){.kernel_max = CONFIG_SWAPPINESS_MAX, .start_value = 60};
	config_defaults(&ret->cfg);
	ret->cfg.policy = policy;
}

void
replay_config_max200(struct replay_config *ret, enum policy_kind policy)
{
	replay_config_shipped(ret, policy);
	ret->cfg.max = 200;
	ret->cfg.interval_ms = 1000;
}

/* Rows come about every 1000 ms, a little late under load: a poll due at T is taken at the
 * first row from T minus this much (sd-event fires within a tenth of the interval). */
#define REPLAY_ROW_SLACK_MS 250

/* Where the rows come from: next() appends the row that follows, given the knob's value now
 * (a recorded trace ignores it). Returns 1, 0 at the end, or a negative errno. */
struct source {
	int (*next)(struct source *src, int knob, struct trace *out);
	const struct trace *t;	      /* open loop */
	const struct replay_world *w; /* closed loop */
	const struct trace *ref;      /* the trace whose phases the closed loop walks */
	unsigned pct;
	uint64_t rng;
	size_t row;	/* open loop: the next row */
	unsigned phase; /* closed loop: the phase (of ref) and the share of it done */
	double done;
};

/* Room for 64 rows, doubled each time a power of two from 64 on is reached: the capacity is
 * always the next power of two, so it needs no field of its own. */
static int
append_row(struct trace *out, const struct trace_row *row)
{
	if (out->n_rows >= 64 && (out->n_rows & (out->n_rows - 1)) == 0) {
		struct trace_row *n = realloc(out->rows, 2 * out->n_rows * sizeof(*n));

		if (!n)
			return -ENOMEM;
		out->rows = n;
	} else if (out->n_rows == 0) {
		out->rows = malloc(64 * sizeof(*out->rows));
		if (!out->rows)
			return -ENOMEM;
	}
	out->rows[out->n_rows++] = *row;
	return 0;
}

static int
next_recorded(struct source *src, int knob, struct trace *out)
{
	const struct trace *t = src->t;
	struct trace_row row;

	(void)knob;
	if (src->row == t->n_rows)
		return 0;
	row = t->rows[src->row];
	step_sample(out->n_rows ? &out->rows[out->n_rows - 1].s : NULL, src->row ? &t->rows[src->row - 1].s : NULL,
		    &t->rows[src->row].s, src->pct, &src->rng, &row.s);
	row.t_ms = row.s.time_us / 1000u;
	src->row++;
	return append_row(out, &row) < 0 ? -ENOMEM : 1;
}

/* The rows of trace k in phase p (by name): [*first, *first + count). */
static size_t
phase_rows(const struct trace *t, const char *name, size_t *first)
{
	int p = trace_phase(t, name);
	size_t n = 0;

	*first = 0;
	for (size_t i = 0; p >= 0 && i < t->n_rows; i++) {
		if (t->rows[i].phase != (unsigned)p)
			continue;
		if (n++ == 0)
			*first = i;
	}
	return n;
}

static int
next_mixed(struct source *src, int knob, struct trace *out)
{
	const struct replay_world *w = src->w;
	const struct trace *t;
	struct trace_row row;
	size_t first = 0, len = 0, i;
	unsigned k = 0;

	/* The trace recorded nearest the knob's value (the lower one on a tie). */
	for (unsigned j = 1; j < w->n; j++) {
		int dj = abs(w->settings[j] - knob), dk = abs(w->settings[k] - knob);

		if (dj < dk || (dj == dk && w->settings[j] < w->settings[k]))
			k = j;
	}
	t = w->traces[k];
	/* A phase the chosen trace lacks (no "post" row in that run) is skipped. */
	while (src->phase < src->ref->n_phases && (len = phase_rows(t, src->ref->phases[src->phase], &first)) == 0) {
		src->phase++;
		src->done = 0;
	}
	if (src->phase == src->ref->n_phases)
		return 0;
	i = first + (size_t)(src->done * (double)len);
	if (i >= first + len)
		i = first + len - 1;
	row = t->rows[i];
	row.phase = src->phase;
	row.swappiness = w->settings[k];
	step_sample(out->n_rows ? &out->rows[out->n_rows - 1].s : NULL, i ? &t->rows[i - 1].s : NULL, &t->rows[i].s,
		    src->pct, &src->rng, &row.s);
	row.t_ms = row.s.time_us / 1000u;
	/* One row of a phase that took len rows at this value: 1/len of it done. */
	src->done += 1.0 / (double)len;
	if (src->done > 1.0 - 1e-9) {
		src->phase++;
		src->done = 0;
	}
	return append_row(out, &row) < 0 ? -ENOMEM : 1;
}

static int
run(struct source *src, const struct replay_config *rc, const struct trace *phases_of, struct replay *ret)
{
	struct replay r = {.start_value = rc->start_value};
	struct policy_state pstate = {0};
	struct regulator reg;
	struct trace *syn;
	size_t cap = 0;
	uint64_t due_ms = 0;
	int knob = rc->start_value, rv;

	regulator_reset(&reg);
	syn = calloc(1, sizeof(*syn));
	if (!syn)
		return -ENOMEM;
	memcpy(syn->phases, phases_of->phases, sizeof(syn->phases));
	syn->n_phases = phases_of->n_phases;
	r.own = syn;
	r.trace = syn;
	for (size_t i = 0; (rv = src->next(src, knob, syn)) > 0; i++) {
		const struct config *c = &rc->cfg;
		const struct sample *cur = &syn->rows[i].s;
		struct decision d;
		struct replay_poll *p;
		bool timer = r.n_polls == 0 || syn->rows[i].t_ms + REPLAY_ROW_SLACK_MS >= due_ms;
		bool wake = !timer && psi_fires(syn, i, c->psi_trigger_ms);

		if (!timer && !wake)
			continue;
		/* daemon.c poll_once: the same decision (decide.c), then the write. */
		rv = decide(c, decide_max(c, cur), rc->kernel_max, &pstate, &reg,
			    r.n_polls ? &syn->rows[r.polls[r.n_polls - 1].row].s : NULL, cur, knob, &d);
		if (rv < 0)
			break;
		if (r.n_polls == cap) {
			struct replay_poll *n = realloc(r.polls, (cap ? 2 * cap : 64) * sizeof(*n));

			if (!n) {
				rv = -ENOMEM;
				break;
			}
			r.polls = n;
			cap = cap ? 2 * cap : 64;
		}
		p = &r.polls[r.n_polls++];
		*p = (struct replay_poll){
			.row = i,
			.phase = syn->rows[i].phase,
			.t_ms = syn->rows[i].t_ms,
			.target = d.pr.target,
			.wrote = d.dec.verdict == REGULATOR_WRITE,
			.active = d.pr.active,
			.psi_wake = wake,
		};
		memcpy(p->reason, d.pr.reason, sizeof(p->reason));
		if (p->wrote) {
			knob = d.dec.value;
			r.writes++;
		}
		p->value = knob;
		/* next_interval_ms: the busy pace after a poll that saw pressure. */
		due_ms = syn->rows[i].t_ms +
			 (d.pr.active && c->busy_interval_ms < c->interval_ms ? c->busy_interval_ms : c->interval_ms);
	}
	if (rv < 0) {
		replay_free(&r);
		return rv;
	}
	*ret = r;
	return 0;
}

int
replay_run(const struct trace *t, const struct replay_config *rc, struct replay *ret)
{
	struct source src = {.next = next_recorded, .t = t, .pct = rc->noise_pct, .rng = rc->seed};

	return run(&src, rc, t, ret);
}

/* Whether sub's phases appear in ref in the same order (sub may lack some). */
static bool
phases_within(const struct trace *sub, const struct trace *ref)
{
	unsigned j = 0;

	for (unsigned p = 0; p < sub->n_phases; p++) {
		while (j < ref->n_phases && strcmp(ref->phases[j], sub->phases[p]) != 0)
			j++;
		if (j++ == ref->n_phases)
			return false;
	}
	return true;
}

int
replay_run_world(const struct replay_world *w, const struct replay_config *rc, struct replay *ret)
{
	struct source src = {.next = next_mixed, .w = w, .pct = rc->noise_pct, .rng = rc->seed};
	const struct trace *ref;

	if (w->n == 0 || w->n > REPLAY_MAX_WORLD)
		return -EINVAL;
	/* The phases are walked in the order of the trace that has the most (a run may lack a
	 * "post" row, say); every trace's phases must come in that order. */
	ref = w->traces[0];
	for (unsigned k = 1; k < w->n; k++)
		if (w->traces[k]->n_phases > ref->n_phases)
			ref = w->traces[k];
	for (unsigned k = 0; k < w->n; k++)
		if (!phases_within(w->traces[k], ref))
			return -EINVAL;
	src.ref = ref;
	return run(&src, rc, ref, ret);
}

void
replay_free(struct replay *r)
{
	free(r->polls);
	r->polls = NULL;
	r->n_polls = 0;
	if (r->own) {
		trace_free(r->own);
		free(r->own);
		r->own = NULL;
	}
	r->trace = NULL;
}

size_t
replay_phase_values(const struct replay *r, unsigned phase, int *vals, size_t max)
{
	size_t n = 0;
	int before = r->start_value;

	for (size_t i = 0; i < r->n_polls; i++) {
		if (r->polls[i].phase != phase) {
			/* The value entering the phase: the last one before its first poll. */
			if (n == 0)
				before = r->polls[i].value;
			continue;
		}
		if (n == 0 && max > 0)
			vals[0] = before;
		if (n + 1 < max)
			vals[n + 1] = r->polls[i].value;
		n++;
	}
	if (n == 0 && max > 0)
		vals[0] = before;
	return n;
}

#define REPLAY_MAX_PHASE_POLLS 4096

int
replay_reach(const struct replay *r, unsigned phase, int lo, int hi)
{
	int vals[REPLAY_MAX_PHASE_POLLS];
	size_t n = replay_phase_values(r, phase, vals, REPLAY_MAX_PHASE_POLLS);

	for (size_t k = 0; k <= n && k < REPLAY_MAX_PHASE_POLLS; k++)
		if (vals[k] >= lo && vals[k] <= hi)
			return (int)k;
	return -1;
}

int
replay_settle(const struct replay *r, unsigned phase, int lo, int hi)
{
	int vals[REPLAY_MAX_PHASE_POLLS];
	size_t n = replay_phase_values(r, phase, vals, REPLAY_MAX_PHASE_POLLS);
	size_t k;

	if (n == 0 || n >= REPLAY_MAX_PHASE_POLLS)
		return -1;
	for (k = n + 1; k > 0 && vals[k - 1] >= lo && vals[k - 1] <= hi; k--)
		;
	return k == n + 1 ? -1 : (int)k;
}

int
replay_hold(const struct replay *r, unsigned phase, int lo, int hi)
{
	int vals[REPLAY_MAX_PHASE_POLLS];
	size_t n = replay_phase_values(r, phase, vals, REPLAY_MAX_PHASE_POLLS);
	size_t k = 0;

	while (k <= n && k < REPLAY_MAX_PHASE_POLLS && vals[k] >= lo && vals[k] <= hi)
		k++;
	return (int)k;
}

uint64_t
replay_phase_ms(const struct replay *r, unsigned phase)
{
	const struct trace *t = r->trace;
	uint64_t ms = 0;

	for (size_t i = 1; i < t->n_rows; i++)
		if (t->rows[i].phase == phase)
			ms += t->rows[i].t_ms - t->rows[i - 1].t_ms;
	return ms;
}

uint64_t
replay_phase_swapins(const struct replay *r, unsigned phase)
{
	const struct trace *t = r->trace;
	uint64_t pages = 0;

	for (size_t i = 1; i < t->n_rows; i++)
		if (t->rows[i].phase == phase && t->rows[i].s.pswpin_pages > t->rows[i - 1].s.pswpin_pages)
			pages += t->rows[i].s.pswpin_pages - t->rows[i - 1].s.pswpin_pages;
	return pages;
}

/* Whether a poll in phase counts: the phase asked (arg), or any but "pre" and "post" (arg NULL). */
static bool
in_stretch(const struct replay *r, unsigned phase, const unsigned *only)
{
	const char *name = r->trace->phases[phase];

	if (only)
		return phase == *only;
	return strcmp(name, "pre") != 0 && strcmp(name, "post") != 0;
}

/* Writes per minute at the polls of the stretch (in_stretch), counted from its poll number
 * from_poll (1-based) to its last poll, over the time from the poll before from_poll (the
 * last one before the stretch for 1, or its first when there is none) to the last. Returns
 * -1 when the stretch has fewer polls or lasts under a second. */
static double
stretch_writes_per_min(const struct replay *r, const unsigned *only, int from_poll)
{
	uint64_t t0 = 0, t1 = 0;
	bool have_t0 = false;
	unsigned writes = 0;
	int j = 0;

	for (size_t i = 0; i < r->n_polls; i++) {
		const struct replay_poll *p = &r->polls[i];

		if (!in_stretch(r, p->phase, only)) {
			if (j == 0) {
				t0 = p->t_ms; /* the poll before the stretch */
				have_t0 = true;
			}
			continue;
		}
		j++;
		if (j == from_poll - 1 || (j == 1 && from_poll <= 1 && !have_t0)) {
			t0 = p->t_ms;
			have_t0 = true;
		}
		if (j >= from_poll && p->wrote)
			writes++;
		t1 = p->t_ms;
	}
	if (!have_t0 || j < from_poll || j == 0 || t1 < t0 + 1000)
		return -1;
	return (double)writes * 60000.0 / (double)(t1 - t0);
}

double
replay_workload_writes_per_min(const struct replay *r)
{
	return stretch_writes_per_min(r, NULL, 1);
}

double
replay_writes_per_min(const struct replay *r, unsigned phase, int from_poll)
{
	return stretch_writes_per_min(r, &phase, from_poll);
}
