#include "replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* A copy of the samples whose counters move by noisy deltas: the rates a policy reads
 * vary by up to noise_pct around the recorded ones, the gauges (meminfo) stay. */
static void
add_noise(const struct trace *t, struct sample *out, unsigned pct, uint64_t seed)
{
	uint64_t rng = seed;

	for (size_t i = 0; i < t->n_rows; i++)
		out[i] = t->rows[i].s;
	if (pct == 0)
		return;
	for (size_t i = 1; i < t->n_rows; i++) {
		const struct sample *a = &t->rows[i - 1].s, *b = &t->rows[i].s;
		struct sample *p = &out[i - 1], *q = &out[i];
#define NOISE(field) q->field = p->field + noisy(b->field > a->field ? b->field - a->field : 0, pct, &rng)
		NOISE(pgscan_pages);
		NOISE(pgsteal_pages);
		NOISE(pswpin_pages);
		NOISE(pswpout_pages);
		NOISE(refault_anon_pages);
		NOISE(refault_file_pages);
		NOISE(psi.some_total_us);
		NOISE(psi.full_total_us);
#undef NOISE
	}
}

/* Would the PSI trigger ("some" trigger_ms within CONFIG_PSI_WINDOW_MS) have fired by row i? */
static bool
psi_fires(const struct trace *t, const struct sample *s, size_t i, unsigned trigger_ms)
{
	size_t j = i;

	if (trigger_ms == 0 || !s[i].has_psi)
		return false;
	while (j > 0 && t->rows[j - 1].t_ms + CONFIG_PSI_WINDOW_MS >= t->rows[i].t_ms)
		j--;
	if (j == i || !s[j].has_psi)
		return false;
	return s[i].psi.some_total_us >= s[j].psi.some_total_us &&
	       s[i].psi.some_total_us - s[j].psi.some_total_us >= (uint64_t)trigger_ms * 1000u;
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

int
replay_run(const struct trace *t, const struct replay_config *rc, struct replay *ret)
{
	struct replay r = {.trace = t, .start_value = rc->start_value};
	struct policy_state pstate = {0};
	struct regulator reg;
	struct sample *s;
	const struct sample *prev = NULL;
	uint64_t due_ms = 0;
	int knob = rc->start_value, rv = 0;

	regulator_reset(&reg);
	s = calloc(t->n_rows, sizeof(*s));
	r.polls = calloc(t->n_rows, sizeof(*r.polls));
	if (!s || !r.polls) {
		free(s);
		free(r.polls);
		return -ENOMEM;
	}
	add_noise(t, s, rc->noise_pct, rc->seed);
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct config *c = &rc->cfg;
		struct policy_result pr;
		struct regulator_decision dec;
		struct regulator_limits lim;
		struct replay_poll *p;
		bool timer = i == 0 || t->rows[i].t_ms + REPLAY_ROW_SLACK_MS >= due_ms;
		bool wake = !timer && psi_fires(t, s, i, c->psi_trigger_ms);
		int max;

		if (!timer && !wake)
			continue;
		/* daemon.c poll_once: resolve max, evaluate, regulate, observe, write. */
		max = c->max == CONFIG_MAX_AUTO ? policy_device_max(&s[i]) : c->max;
		lim = (struct regulator_limits){
			.min = c->min < max ? c->min : max,
			.max = max,
			.step = c->step,
			.smoothing_pct = c->smoothing_pct,
			.kernel_max = rc->kernel_max,
		};
		rv = policy_evaluate(c->policy, &pstate, prev, &s[i], &pr);
		if (rv >= 0)
			rv = regulator_next(&reg, &lim, pr.target, knob, &dec);
		if (rv < 0)
			goto fail;
		policy_observe(&pstate, dec.value);
		p = &r.polls[r.n_polls++];
		*p = (struct replay_poll){
			.row = i,
			.phase = t->rows[i].phase,
			.t_ms = t->rows[i].t_ms,
			.target = pr.target,
			.wrote = dec.verdict == REGULATOR_WRITE,
			.active = pr.active,
			.psi_wake = wake,
		};
		if (p->wrote) {
			knob = dec.value;
			r.writes++;
		}
		p->value = knob;
		/* next_interval_ms: the busy pace after a poll that saw pressure. */
		due_ms = t->rows[i].t_ms +
			 (pr.active && c->busy_interval_ms < c->interval_ms ? c->busy_interval_ms : c->interval_ms);
		prev = &s[i];
	}
	/* The rows are no longer needed: queries read the polls. */
	free(s);
	*ret = r;
	return 0;
fail:
	free(s);
	free(r.polls);
	return rv;
}

void
replay_free(struct replay *r)
{
	free(r->polls);
	r->polls = NULL;
	r->n_polls = 0;
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

double
replay_writes_per_min(const struct replay *r, unsigned phase, int from_poll)
{
	uint64_t t0 = 0, t1 = 0;
	bool have_t0 = false;
	unsigned writes = 0;
	int j = 0;

	for (size_t i = 0; i < r->n_polls; i++) {
		const struct replay_poll *p = &r->polls[i];

		if (p->phase != phase) {
			if (j == 0) {
				t0 = p->t_ms; /* the poll before the phase */
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
	if (!have_t0 || j < from_poll || t1 < t0 + 1000)
		return -1;
	return (double)writes * 60000.0 / (double)(t1 - t0);
}
