#include "policy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const policy_names[POLICY_COUNT] = {
	[POLICY_CK] = "ck",
	[POLICY_TENDENCY] = "tendency",
	[POLICY_ADAPTIVE] = "adaptive",
	[POLICY_WORKINGSET] = "workingset",
	[POLICY_DEVICE] = "device",
};

const char *
policy_name(enum policy_kind kind)
{
	if ((unsigned)kind >= POLICY_COUNT)
		return NULL;
	return policy_names[kind];
}

int
policy_from_name(const char *name, enum policy_kind *ret_kind)
{
	for (unsigned i = 0; i < POLICY_COUNT; i++) {
		if (strcmp(name, policy_names[i]) == 0) {
			*ret_kind = (enum policy_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

int
policy_pct(uint64_t part, uint64_t whole)
{
	if (whole == 0)
		return 0;
	if (part >= whole)
		return 100;
	/* 128-bit product: kB counts near 2^64 must not overflow. */
	return (int)((unsigned __int128)part * 100 / whole);
}

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t
delta(uint64_t now, uint64_t before)
{
	/* Counters only grow; a smaller value means a reset, which says nothing. */
	return now > before ? now - before : 0;
}

static int
max_int(int a, int b)
{
	return a > b ? a : b;
}

static int
min_int(int a, int b)
{
	return a < b ? a : b;
}

/*
 * Share of the interval in which some task stalled on memory, from PSI's total
 * (microseconds) across two samples, or its avg10 with one sample.
 */
static int
psi_distress(const struct sample *prev, const struct sample *cur)
{
	if (!cur->has_psi)
		return 0;
	if (prev && prev->has_psi && cur->time_us > prev->time_us)
		return policy_pct(delta(cur->psi.some_total_us, prev->psi.some_total_us), cur->time_us - prev->time_us);
	/* avg10 is in hundredths of a percent; round to the nearest percent. */
	return min_int(100, (int)((cur->psi.some_avg10_centipct + 50) / 100));
}

/*
 * 100 minus reclaim efficiency (pages stolen per page scanned) over the interval.
 * 2.6's distress was 100 >> prev_priority: the deeper the kernel had to scan to
 * free pages, the higher. Inefficient reclaim is what drives the priority down,
 * so we read the same thing from the scan/steal counters.
 */
static int
reclaim_distress(const struct sample *prev, const struct sample *cur)
{
	uint64_t scanned, stolen;

	if (!prev || !prev->has_vmstat || !cur->has_vmstat)
		return 0;
	scanned = delta(cur->pgscan_pages, prev->pgscan_pages);
	stolen = delta(cur->pgsteal_pages, prev->pgsteal_pages);
	if (scanned < POLICY_MIN_SCAN_PAGES)
		return 0;
	return 100 - policy_pct(stolen, scanned);
}

/* Whether the kernel reclaimed between prev and cur: MIN_SCAN_PAGES scanned, or
 * no way to tell (no vmstat), which leaves the formula in charge. False for the
 * first sample. */
static bool
reclaimed(const struct sample *prev, const struct sample *cur)
{
	if (!prev)
		return false;
	if (!prev->has_vmstat || !cur->has_vmstat)
		return true;
	return delta(cur->pgscan_pages, prev->pgscan_pages) >= POLICY_MIN_SCAN_PAGES;
}

/* Pages per second from a counter's change over dt_us microseconds. */
static uint64_t
rate_pps(uint64_t now, uint64_t before, uint64_t dt_us)
{
	unsigned __int128 r;

	if (dt_us == 0)
		return 0;
	r = (unsigned __int128)delta(now, before) * 1000000u / dt_us;
	return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

/* Fills the rates over the interval from prev to cur. Returns whether there is one
 * (two samples, time moved on). */
static bool
compute_rates(const struct sample *prev, const struct sample *cur, struct policy_result *r)
{
	uint64_t dt;

	if (!prev || cur->time_us <= prev->time_us)
		return false;
	dt = cur->time_us - prev->time_us;
	if (prev->has_refaults && cur->has_refaults) {
		r->file_refault_pps = rate_pps(cur->refault_file_pages, prev->refault_file_pages, dt);
		r->anon_refault_pps = rate_pps(cur->refault_anon_pages, prev->refault_anon_pages, dt);
	}
	if (prev->has_activations && cur->has_activations) {
		r->activate_anon_pps = rate_pps(cur->activate_anon_pages, prev->activate_anon_pages, dt);
		r->activate_file_pps = rate_pps(cur->activate_file_pages, prev->activate_file_pages, dt);
	}
	if (prev->has_vmstat && cur->has_vmstat) {
		r->swapin_pps = rate_pps(cur->pswpin_pages, prev->pswpin_pages, dt);
		r->swapout_pps = rate_pps(cur->pswpout_pages, prev->pswpout_pages, dt);
		r->scan_pps = rate_pps(cur->pgscan_pages, prev->pgscan_pages, dt);
	}
	return true;
}

static int
clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Evidence flags of one poll. */
enum {
	EV_SWAPIN = 1 << 0, /* swap-ins at or above SWAPIN_PPS */
	EV_CHEAP = 1 << 1,  /* file refaults or swap-outs, and no swap-ins */
	EV_QUIET = 1 << 2,  /* nothing reclaimed, refaulted or swapped in */
	EV_CHURN = 1 << 3,  /* swap-ins, and swap-outs at least half as many */
};

/* Pages coming back from swap per second: swap-ins or anonymous refaults, the larger. */
static uint64_t
swapins(const struct policy_result *r)
{
	return r->anon_refault_pps > r->swapin_pps ? r->anon_refault_pps : r->swapin_pps;
}

static unsigned
votes(const struct policy_state *st, unsigned flag)
{
	unsigned n = 0;

	for (unsigned i = 0; i < st->n_polls && i < POLICY_ADAPTIVE_WINDOW; i++)
		n += st->flags[i] & flag ? 1 : 0;
	return n;
}

/* The mean of the last polls' rates in pps, newest first: of n_polls of them, at most
 * last (fewer when there are fewer). */
static uint64_t
recent_pps(const struct policy_state *st, const uint64_t *pps, unsigned last)
{
	unsigned __int128 sum = 0;
	unsigned n = st->n_polls < last ? st->n_polls : last;

	for (unsigned i = 0; i < n; i++)
		sum += pps[i];
	return n ? (uint64_t)(sum / n) : 0;
}

/* The mean of the last VOTES polls' rates: the totals that the tests compare, per second. */
static uint64_t
mean_pps(const struct policy_state *st, const uint64_t *pps)
{
	return recent_pps(st, pps, POLICY_ADAPTIVE_VOTES);
}

static uint64_t
seconds_us(unsigned s)
{
	return (uint64_t)s * 1000000u;
}

/* a * ka >= b * kb, without the products wrapping around: the rates are 64-bit and
 * may be anything a broken counter gives. */
static bool
scaled_ge(uint64_t a, unsigned ka, uint64_t b, unsigned kb)
{
	return (unsigned __int128)a * ka >= (unsigned __int128)b * kb;
}

/* Did the swap-ins grow ELASTIC_DIV times over the reference, and their share of the
 * swap-outs too (in / out >= ELASTIC_DIV * ref_in / ref_out, cross-multiplied)? */
static bool
swapins_grew(uint64_t in, uint64_t out, uint64_t ref_in, uint64_t ref_out)
{
	return in >= POLICY_ADAPTIVE_SWAPIN_PPS && scaled_ge(in, 1, ref_in, POLICY_ADAPTIVE_ELASTIC_DIV) &&
	       (unsigned __int128)in * ref_out >= (unsigned __int128)ref_in * out * POLICY_ADAPTIVE_ELASTIC_DIV;
}

/* Did the swap-ins fall to 1/ELASTIC_DIV of the reference, and their share of the
 * swap-outs too, or below SWAPIN_PPS? */
static bool
swapins_fell(uint64_t in, uint64_t out, uint64_t ref_in, uint64_t ref_out)
{
	return in < POLICY_ADAPTIVE_SWAPIN_PPS ||
	       (scaled_ge(ref_in, 1, in, POLICY_ADAPTIVE_ELASTIC_DIV) &&
		(unsigned __int128)ref_in * out >= (unsigned __int128)in * ref_out * POLICY_ADAPTIVE_ELASTIC_DIV);
}

/* Records one poll's evidence, newest first. */
static unsigned
remember(struct policy_state *st, uint64_t file, uint64_t in, uint64_t out, uint64_t scan)
{
	unsigned ev = 0;

	if (in >= POLICY_ADAPTIVE_SWAPIN_PPS) {
		ev |= EV_SWAPIN;
		if (scaled_ge(out, 2, in, 1))
			ev |= EV_CHURN;
	} else if (file >= POLICY_ADAPTIVE_FILE_PPS || out >= POLICY_ADAPTIVE_SWAPOUT_PPS) {
		ev |= EV_CHEAP;
	}
	if (file < POLICY_ADAPTIVE_ACTIVE_PPS && in < POLICY_ADAPTIVE_ACTIVE_PPS && scan < POLICY_ADAPTIVE_ACTIVE_PPS)
		ev |= EV_QUIET;
	for (unsigned i = POLICY_ADAPTIVE_WINDOW - 1; i > 0; i--) {
		st->flags[i] = st->flags[i - 1];
		st->in_pps[i] = st->in_pps[i - 1];
		st->out_pps[i] = st->out_pps[i - 1];
	}
	st->flags[0] = ev;
	st->in_pps[0] = in;
	st->out_pps[0] = out;
	if (st->n_polls < POLICY_ADAPTIVE_WINDOW)
		st->n_polls++;
	return ev;
}

/* A test found that the higher value costs swap-ins: no rise or probe for a while,
 * longer each time in a row. Returns the seconds. */
static unsigned
back_off(struct policy_state *st, uint64_t now)
{
	unsigned s = (unsigned)POLICY_ADAPTIVE_BACKOFF_S
		     << (st->strikes < POLICY_ADAPTIVE_MAX_STRIKES ? st->strikes : POLICY_ADAPTIVE_MAX_STRIKES);

	if (st->strikes < POLICY_ADAPTIVE_MAX_STRIKES)
		st->strikes++;
	st->holds = 0;
	st->backoff_until_us = sat_add(now, seconds_us(s));
	st->mode = POLICY_MODE_FREE;
	return s;
}

/* A test found the swap-ins unavoidable: hold the higher value, longer each time in
 * a row. Returns the seconds. */
static unsigned
start_hold(struct policy_state *st, uint64_t now)
{
	unsigned s = (unsigned)POLICY_ADAPTIVE_HOLD_S
		     << (st->holds < POLICY_ADAPTIVE_MAX_STRIKES ? st->holds : POLICY_ADAPTIVE_MAX_STRIKES);

	if (st->holds < POLICY_ADAPTIVE_MAX_STRIKES)
		st->holds++;
	st->strikes = 0;
	st->mode = POLICY_MODE_HOLD;
	st->ref_in_pps = mean_pps(st, st->in_pps);
	st->ref_out_pps = mean_pps(st, st->out_pps);
	st->hold_until_us = sat_add(now, seconds_us(s));
	return s;
}

static void
start_test(struct policy_state *st, enum policy_mode mode, int high, uint64_t ref_in, uint64_t ref_out)
{
	st->mode = mode;
	st->high = high;
	st->ref_in_pps = ref_in;
	st->ref_out_pps = ref_out;
	st->test_polls = 0;
	st->votes_low = 0;
	st->votes_high = 0;
}

#define REASON(...) snprintf(r->reason, sizeof(r->reason), __VA_ARGS__)

/* Back at N after swap-ins: a poll votes for N when its swap-ins fell to
 * 1/ELASTIC_DIV of the rate that set off the test, for the higher value when they
 * did not and come with swap-outs (the anonymous set cycles through swap at N
 * too). Returns the target. */
static int
test_down(struct policy_state *st, uint64_t now, int from, unsigned ev, struct policy_result *r)
{
	uint64_t in = st->in_pps[0];

	st->test_polls++;
	if (swapins_fell(in, st->out_pps[0], st->ref_in_pps, st->ref_out_pps))
		st->votes_low++;
	else if (ev & EV_CHURN)
		st->votes_high++;
	if (st->votes_low >= POLICY_ADAPTIVE_VOTES || st->test_polls >= POLICY_ADAPTIVE_TEST_POLLS) {
		bool fell = st->votes_low >= POLICY_ADAPTIVE_VOTES;
		unsigned s = back_off(st, now);

		REASON("%s: swap-ins %llu/s at %d, %llu/s at %d; no rise for %u s", fell ? "elastic" : "undecided",
		       (unsigned long long)in, from, (unsigned long long)st->ref_in_pps, st->high, s);
		return from;
	}
	if (st->votes_high >= POLICY_ADAPTIVE_VOTES) {
		uint64_t ref = st->ref_in_pps;
		unsigned s = start_hold(st, now);

		REASON("inelastic: swap-ins %llu/s at %d, %llu/s at %d; back for %u s", (unsigned long long)in, from,
		       (unsigned long long)ref, st->high, s);
		return st->high;
	}
	REASON("test at %d: swap-ins %llu/s, %llu/s at %d", from, (unsigned long long)in,
	       (unsigned long long)st->ref_in_pps, st->high);
	return from;
}

/* A probe above N: after VOTES polls there, keep it unless the swap-ins grew.
 * Returns the target. */
static int
test_up(struct policy_state *st, uint64_t now, int from, int n, struct policy_result *r)
{
	uint64_t in = mean_pps(st, st->in_pps), out = mean_pps(st, st->out_pps), ref = st->ref_in_pps;
	unsigned s;

	if (++st->test_polls < POLICY_ADAPTIVE_VOTES) {
		REASON("probe at %d: swap-ins %llu/s, %llu/s at %d", from, (unsigned long long)st->in_pps[0],
		       (unsigned long long)st->ref_in_pps, n);
		return from;
	}
	if (swapins_grew(in, out, ref, st->ref_out_pps)) {
		s = back_off(st, now);
		REASON("probe failed: swap-ins %llu/s at %d, %llu/s at %d; no rise for %u s", (unsigned long long)in,
		       from, (unsigned long long)ref, n, s);
		return n;
	}
	s = start_hold(st, now);
	REASON("probe kept: swap-ins %llu/s at %d, %llu/s at %d; hold %u s", (unsigned long long)in, from,
	       (unsigned long long)ref, n, s);
	return from;
}

/* No test and no hold running: the rules that start one, rise, relax or hold.
 * Returns the value to go to. */
static int
free_step(struct policy_state *st, uint64_t now, int from, int n, unsigned ev, uint64_t quiet_us,
	  struct policy_result *r)
{
	uint64_t file = r->file_refault_pps, out = r->swapout_pps;
	uint64_t in = swapins(r);
	int to = from;

	if (from > n && (ev & EV_SWAPIN)) {
		/* The first poll that shows swap-ins above N: back at once, then test. */
		start_test(st, POLICY_MODE_TEST_DOWN, from, in, out);
		to = n;
		REASON("back to %d: swap-ins %llu/s at %d", n, (unsigned long long)in, from);
	} else if (!(ev & (EV_SWAPIN | EV_QUIET)) && votes(st, EV_CHEAP) >= POLICY_ADAPTIVE_VOTES &&
		   now >= st->backoff_until_us && from < 200) {
		to = min_int(200, (from > n ? from : n) + POLICY_ADAPTIVE_RAISE_STEP);
		REASON("up %d: file refaults %llu/s, swap-outs %llu/s, swap-ins %llu/s", to - from,
		       (unsigned long long)file, (unsigned long long)out, (unsigned long long)in);
	} else if ((ev & EV_SWAPIN) && from <= n && n < 200 && votes(st, EV_SWAPIN) >= POLICY_ADAPTIVE_VOTES &&
		   votes(st, EV_CHURN) >= POLICY_ADAPTIVE_VOTES && now >= st->backoff_until_us) {
		/* Swap-ins at N that come with swap-outs: the anonymous set cycles through
		 * swap whatever the value. Try the top, which spares the file cache. */
		start_test(st, POLICY_MODE_TEST_UP, 200, mean_pps(st, st->in_pps), mean_pps(st, st->out_pps));
		to = 200;
		REASON("probe %d: swap-ins %llu/s at %d, swap-outs %llu/s", to, (unsigned long long)in, from,
		       (unsigned long long)out);
	} else if ((ev & EV_QUIET) && (from <= n || quiet_us >= seconds_us(POLICY_ADAPTIVE_RELAX_S))) {
		if (quiet_us >= seconds_us(POLICY_ADAPTIVE_RELAX_S)) {
			/* Nothing reclaimed for a while: a new situation when pressure returns. */
			st->strikes = 0;
			st->holds = 0;
			st->backoff_until_us = 0;
		}
		to = from > n + POLICY_ADAPTIVE_RELAX_STEP ? from - POLICY_ADAPTIVE_RELAX_STEP : n;
		REASON("%s %d: nothing reclaimed", to == from ? "rest at" : "relax to", to);
	} else if (from < n) {
		to = n;
		REASON("back to %d", n);
	} else {
		REASON("hold %d: file refaults %llu/s, swap-outs %llu/s, swap-ins %llu/s", from,
		       (unsigned long long)file, (unsigned long long)out, (unsigned long long)in);
	}

	return to;
}

/*
 * The adaptive controller; autoswappiness(7), THE ADAPTIVE POLICY, describes it and
 * include/policy.h says where each constant comes from. N is policy_device_max: the
 * value at which the kernel weighs anonymous and file pages by the cost of their IO.
 */
static void
adaptive(struct policy_state *st, const struct sample *cur, bool has_rates, struct policy_result *r)
{
	uint64_t file = r->file_refault_pps, out = r->swapout_pps, now = cur->time_us;
	uint64_t in = swapins(r);
	int n = policy_device_max(cur);
	int from = st->has_value ? st->value : n;
	int cap = cur->swap_total_kib == 0 ? 0 : min_int(200, POLICY_ADAPTIVE_SWAP_CAP_MUL * r->swap_centile);
	uint64_t quiet_us;
	unsigned ev;
	int to = from;

	if (!has_rates) {
		/* The first poll, or time stood still: nothing to learn from. */
		if (st->mode == POLICY_MODE_FREE && from < n)
			to = n;
		REASON("%s %d: no rates", st->has_value ? "stay at" : "start at", to);
		goto capped;
	}
	ev = remember(st, file, in, out, r->scan_pps);
	if (!(ev & EV_QUIET))
		st->busy_us = now;
	quiet_us = now > st->busy_us ? now - st->busy_us : 0;

	if (st->mode == POLICY_MODE_TEST_DOWN) {
		to = test_down(st, now, from, ev, r);
		goto capped;
	}
	if (st->mode == POLICY_MODE_TEST_UP) {
		to = test_up(st, now, from, n, r);
		goto capped;
	}
	if (st->mode == POLICY_MODE_HOLD) {
		uint64_t in2 = mean_pps(st, st->in_pps), out2 = mean_pps(st, st->out_pps);

		if (now >= st->hold_until_us || quiet_us >= seconds_us(POLICY_ADAPTIVE_RELAX_S) ||
		    ((ev & EV_SWAPIN) && swapins_grew(in2, out2, st->ref_in_pps, st->ref_out_pps))) {
			st->mode = POLICY_MODE_FREE; /* the rules below decide */
		} else {
			REASON("hold %d: swap-ins %llu/s, %llu/s when held", from, (unsigned long long)in,
			       (unsigned long long)st->ref_in_pps);
			goto capped;
		}
	}

	to = free_step(st, now, from, n, ev, quiet_us, r);

capped:
	r->active = r->active || st->mode == POLICY_MODE_TEST_DOWN || st->mode == POLICY_MODE_TEST_UP;
	if (to > cap) {
		to = cap;
		if (strlen(r->reason) + 24 < sizeof(r->reason))
			snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
				 "; free swap caps at %d", cap);
	}
	r->target = clamp_int(to, 0, 200);
}

/* The page cache that no process maps (Cached + Buffers - Mapped - Shmem), percent of
 * MemTotal: what reclaim can take from the file side before the running programs' text. */
static int
unmapped_cache_pct(const struct sample *s)
{
	uint64_t cache = sat_add(s->cached_kib, s->buffers_kib);
	uint64_t held = sat_add(s->mapped_kib, s->shmem_kib);

	return policy_pct(cache > held ? cache - held : 0, s->mem_total_kib);
}

/*
 * Sparing the cache (include/policy.h): raises the tendency's value to st->spare_top
 * while only the programs' text is left on the file side and swapping costs no
 * swap-ins, and drops it back at the first sign that it costs.
 */
static void
spare(struct policy_state *st, const struct sample *cur, bool has_rates, struct policy_result *r)
{
	uint64_t in = swapins(r);
	uint64_t now = cur->time_us;
	bool ev;

	if (st->spare_top <= 0) {
		st->spared = false;
		st->spare_votes = 0;
		return;
	}
	if (!has_rates)
		return;
	ev = r->unmapped_cache_pct < POLICY_SPARE_FLOOR_PCT && r->swapout_pps >= POLICY_ADAPTIVE_SWAPOUT_PPS &&
	     in < POLICY_ADAPTIVE_SWAPIN_PPS && r->swap_centile >= POLICY_SPARE_SWAP_FREE_PCT;
	st->spare_votes = ((st->spare_votes << 1) | ev) & ((1u << POLICY_ADAPTIVE_WINDOW) - 1);
	if (r->swapout_pps >= POLICY_ADAPTIVE_SWAPOUT_PPS)
		st->spare_busy_us = now;
	/* Swap-ins say that programs use what went out: 200 would send out more of it. */
	if (in >= POLICY_ADAPTIVE_SWAPIN_PPS)
		st->spare_backoff_us = sat_add(now, seconds_us(POLICY_ADAPTIVE_BACKOFF_S));
	if (st->spared) {
		const char *why = NULL;

		if (in >= POLICY_ADAPTIVE_SWAPIN_PPS) {
			why = "swap-ins";
		} else if (r->unmapped_cache_pct >= POLICY_SPARE_CEIL_PCT) {
			why = "the cache grew";
		} else if (r->swap_centile < POLICY_SPARE_SWAP_FREE_PCT) {
			why = "swap half used";
		} else if (now >= st->spare_busy_us && now - st->spare_busy_us >= seconds_us(POLICY_SPARE_RELAX_S)) {
			why = "no swap-outs";
		}
		if (why) {
			int top = policy_device_max(cur);

			st->spared = false;
			st->spare_votes = 0;
			/* The tendency's own value within auto's range; without reclaim it would keep
			 * the value in effect, the one being given up. */
			r->target = min_int(r->target, top);
			if (r->kept == POLICY_KEPT_NO_RECLAIM)
				REASON("back to %d: no reclaim (formula %d)", r->target, r->swap_tendency);
			snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
				 "; cache spared no more: %s", why);
			return;
		}
	} else if (((unsigned)__builtin_popcount(st->spare_votes) >= POLICY_ADAPTIVE_VOTES ||
		    (ev && r->swapout_pps >= POLICY_SPARE_SURGE_PPS)) &&
		   now >= st->spare_backoff_us) {
		st->spared = true;
	}
	if (!st->spared)
		return;
	r->target = st->spare_top;
	r->kept = POLICY_KEPT_SPARE;
	r->lift = true;
	REASON("spare the cache at %d: unmapped cache %d%%, swap-outs %llu/s, swap-ins %llu/s", st->spare_top,
	       r->unmapped_cache_pct, (unsigned long long)r->swapout_pps, (unsigned long long)in);
}

/*
 * 2.6's swap tendency, while the kernel reclaims (include/policy.h says why it
 * keeps the value otherwise, and holds the top). st is NULL for one decision
 * without history (--once): the formula alone.
 */
static void
tendency(struct policy_state *st, const struct sample *cur, bool reclaim, bool has_rates, struct policy_result *r)
{
	int f = r->swap_tendency;
	/* Clamped: the knob as read is the kernel's, and a state the tests make up may hold anything. */
	int now = !st ? 0 : clamp_int(st->has_value ? st->value : st->knob, 0, 200);

	r->target = f;
	if (!st) {
		REASON("mapped %d%%/2 + distress %d + ck %d", r->mapped_ratio, r->distress, r->ck);
		return;
	}
	if (st->top > 0 && f >= st->top)
		st->top_us = cur->time_us;
	if (!reclaim && r->distress == 0) {
		r->target = now;
		r->kept = POLICY_KEPT_NO_RECLAIM;
		REASON("stay at %d: no reclaim (formula %d)", now, f);
	} else if (!st->spared && st->top > 0 && now >= st->top && f < st->top && cur->time_us >= st->top_us &&
		   cur->time_us - st->top_us < seconds_us(POLICY_TENDENCY_TOP_HOLD_S)) {
		r->target = now;
		r->kept = POLICY_KEPT_TOP;
		REASON("hold top %d: formula %d, at the top %llu ms ago", now, f,
		       (unsigned long long)((cur->time_us - st->top_us) / 1000));
	} else {
		REASON("mapped %d%%/2 + distress %d + ck %d", r->mapped_ratio, r->distress, r->ck);
	}
	spare(st, cur, has_rates, r);
}

/* Whether activations a dominate b (POLICY_WS_MIN_PPS and POLICY_WS_RATIO times). */
static bool
dominates(uint64_t a, uint64_t b)
{
	return a >= POLICY_WS_MIN_PPS && scaled_ge(a, 1, b, POLICY_WS_RATIO);
}

/* Forgets what the workingset policy learned of its rises (a calm stretch, another phase). */
static void
ws_forget(struct policy_state *st)
{
	st->ws_since_rise = 0;
	st->ws_strikes = 0;
	st->ws_backoff_us = 0;
}

/*
 * Judges the last rise (include/policy.h, POLICY_WS_JUDGE_POLLS) on a fall of the bias on
 * anonymous activations: a strike when anon a second (this poll's or the window's, the larger)
 * is at least the file activations a second it rose on. Returns the seconds of the back-off it
 * starts, 0 for none.
 */
static unsigned
ws_judge_fall(struct policy_state *st, uint64_t now, uint64_t anon)
{
	unsigned s;

	if (st->ws_since_rise == 0)
		return 0;
	st->ws_since_rise = 0;
	if (anon < st->ws_rise_file_pps)
		return 0; /* the rise paid: fewer refaults after it than before */
	s = (unsigned)POLICY_ADAPTIVE_BACKOFF_S << st->ws_strikes;
	if (st->ws_strikes < POLICY_ADAPTIVE_MAX_STRIKES)
		st->ws_strikes++;
	st->ws_backoff_us = sat_add(now, seconds_us(s));
	return s;
}

/*
 * Starts the workingset policy's window again from the newest poll, at a snap: the polls before
 * it show the activations of the value it left (a rise's file ones), and kept, they would make
 * file dominate the window's means on the next poll of alike activations and raise the value
 * again at once (issue 46 item 2). Steering by the window waits until it is full again.
 */
static void
ws_restart(struct policy_state *st)
{
	for (unsigned i = 1; i < POLICY_ADAPTIVE_WINDOW; i++)
		st->act_anon_pps[i] = st->act_file_pps[i] = 0;
	st->n_polls = 1;
}

/*
 * The workingset policy's window and bias: this poll's activations a and f into the window
 * (started afresh when the unmapped cache crosses POLICY_SPARE_CEIL_PCT, so that it holds
 * only polls with little of it or only polls with much: a phase's file set freed; and from
 * this poll at a snap, ws_restart), the window's means into *wa and *wf, and the bias moved
 * by the kind that dominates; a rise only outside a back-off, and a fall soon after a rise
 * judges it (*backoff_s: the seconds of the back-off that starts, else 0). Returns that kind
 * ("anonymous", "file", "file, held" for a rise held back) or NULL.
 */
static const char *
ws_steer(struct policy_state *st, uint64_t now, uint64_t a, uint64_t f, bool low_cache, uint64_t *wa, uint64_t *wf,
	 unsigned *backoff_s)
{
	const char *why = NULL;
	bool fell = false;

	*backoff_s = 0;
	if (st->n_polls > 0 && st->ws_low_cache != low_cache) {
		st->n_polls = 0;
		ws_forget(st);
	}
	st->ws_low_cache = low_cache;
	memmove(st->act_anon_pps + 1, st->act_anon_pps, sizeof(st->act_anon_pps) - sizeof(st->act_anon_pps[0]));
	memmove(st->act_file_pps + 1, st->act_file_pps, sizeof(st->act_file_pps) - sizeof(st->act_file_pps[0]));
	st->act_anon_pps[0] = a;
	st->act_file_pps[0] = f;
	if (st->n_polls < POLICY_ADAPTIVE_WINDOW)
		st->n_polls++;
	*wa = recent_pps(st, st->act_anon_pps, POLICY_ADAPTIVE_WINDOW);
	*wf = recent_pps(st, st->act_file_pps, POLICY_ADAPTIVE_WINDOW);
	if (st->ws_since_rise > 0)
		st->ws_since_rise++;
	if (a >= POLICY_WS_SNAP_PPS && dominates(a, f)) {
		st->ws_bias = min_int(st->ws_bias, 0) - POLICY_WS_STEP;
		st->ws_snap = true;
		fell = true;
		ws_restart(st);
	} else if (st->n_polls >= POLICY_ADAPTIVE_WINDOW && dominates(*wa, *wf)) {
		/* A snap still in effect (the bias still below 0) keeps its cap: without it the
		 * value would be formula + bias, and a fall on anonymous activations could raise it. */
		st->ws_snap = st->ws_snap && st->ws_bias < 0;
		st->ws_bias = min_int(st->ws_bias, 0) - POLICY_WS_STEP;
		fell = true;
	} else if (st->n_polls >= POLICY_ADAPTIVE_WINDOW && low_cache && dominates(*wf, *wa)) {
		if (now < st->ws_backoff_us)
			return "file, held";
		st->ws_bias = max_int(st->ws_bias, 0) + POLICY_WS_STEP;
		st->ws_snap = false;
		/* A rise in steps answers the most file activations any of its steps saw. */
		if (st->ws_since_rise == 0 || *wf > st->ws_rise_file_pps)
			st->ws_rise_file_pps = *wf;
		st->ws_since_rise = 1;
		why = "file";
	} else if (!low_cache && st->ws_bias > 0) {
		st->ws_bias = 0;
	}
	if (fell) {
		why = "anonymous";
		*backoff_s = ws_judge_fall(st, now, a > *wa ? a : *wa);
	} else if (st->ws_since_rise > POLICY_WS_JUDGE_POLLS) {
		/* JUDGE_POLLS polls after the last rise and no fall: it stood, one strike less. */
		st->ws_since_rise = 0;
		st->ws_strikes -= st->ws_strikes > 0 ? 1 : 0;
	}
	st->ws_bias = clamp_int(st->ws_bias, -200, 200);
	return why;
}

/*
 * The workingset policy (include/policy.h says where its constants come from): the
 * tendency policy's value, steered by the kernel's activations. A bias, added to the
 * formula, grows by POLICY_WS_STEP a poll while file activations dominate (and little
 * unmapped cache is left) and shrinks by as much while anonymous ones do; it falls to at
 * most POLICY_WS_LOW at once on a poll of POLICY_WS_SNAP_PPS anonymous ones, and is
 * forgotten after POLICY_ADAPTIVE_RELAX_S without reclaim. Without the activation
 * counters (before Linux 5.9) it is tendency.
 */
static void
workingset(struct policy_state *st, const struct sample *prev, const struct sample *cur, bool reclaim,
	   bool has_rates, struct policy_result *r)
{
	uint64_t a = r->activate_anon_pps, f = r->activate_file_pps, wa, wf;
	int now, base, to, lo, hi, cap, top;
	unsigned backoff_s;
	bool low_cache = r->unmapped_cache_pct < POLICY_SPARE_CEIL_PCT;
	const char *why;

	tendency(st, cur, reclaim, has_rates, r);
	if (!cur->has_activations || (prev && !prev->has_activations) || !st || !has_rates)
		return;
	now = clamp_int(st->has_value ? st->value : st->knob, 0, 200);
	if (reclaim || r->distress > 0 || a > 0 || f > 0) {
		st->busy_us = cur->time_us;
	} else if (cur->time_us >= st->busy_us &&
		   cur->time_us - st->busy_us >= seconds_us(POLICY_ADAPTIVE_RELAX_S)) {
		st->ws_bias = 0;
		st->n_polls = 0;
		ws_forget(st);
	}
	why = ws_steer(st, cur->time_us, a, f, low_cache, &wa, &wf, &backoff_s);
	/* The configured top, not the last poll's: after a lift to 200 that is 200. */
	top = st->range_top > 0 ? st->range_top : st->top;
	if (st->ws_bias == 0 || r->kept == POLICY_KEPT_NO_RECLAIM ||
	    (st->ws_bias > 0 && r->kept != POLICY_KEPT_NONE)) {
		/* A rise above the top, kept between bursts of reclaim (or held at the top),
		 * stays there: clamped to the top, the next burst would raise it again. Only
		 * the daemon's own value: one someone else wrote is not a rise. */
		if (st->ws_bias > 0 && r->kept != POLICY_KEPT_NONE && st->has_value && top > 0 && now > top &&
		    st->spare_top > top)
			r->lift = true;
		/* A rise given up without reclaim goes back within the range, and says so
		 * (as tendency does when it spares the cache no more). */
		if (!r->lift && r->kept == POLICY_KEPT_NO_RECLAIM && top > 0 && r->target > top) {
			r->target = top;
			REASON("back to %d: no reclaim (formula %d)", top, r->swap_tendency);
		}
		return;
	}
	base = r->kept == POLICY_KEPT_NONE ? r->swap_tendency : now;
	if (r->kept == POLICY_KEPT_SPARE)
		base = r->target;
	else if (top > 0)
		base = min_int(base, top);
	to = base + st->ws_bias;
	if (st->ws_bias < 0) {
		lo = min_int(base, POLICY_WS_LOW);
		to = st->ws_snap ? min_int(to, lo) : to;
		to = max_int(to, lo);
	} else {
		hi = max_int(base, POLICY_WS_HIGH);
		to = min_int(to, hi);
	}
	cap = cur->swap_total_kib == 0 ? 0 : min_int(200, POLICY_ADAPTIVE_SWAP_CAP_MUL * r->swap_centile);
	if (st->ws_bias > 0)
		to = min_int(to, max_int(cap, base));
	r->target = clamp_int(to, 0, 200);
	r->kept = POLICY_KEPT_NONE;
	/* Above the configured top only where sparing the cache may go (max = auto on disk). */
	if (top > 0 && r->target > top) {
		if (st->spare_top > top) {
			r->kept = POLICY_KEPT_SPARE;
			r->lift = true;
		}
		r->target = min_int(r->target, max_int(st->spare_top, top));
	}
	snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
		 "; %s %+d to %d: working set refaults anon %llu/s, file %llu/s", why ? why : "bias", st->ws_bias,
		 r->target, (unsigned long long)wa, (unsigned long long)wf);
	if (backoff_s)
		snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason), "; no rise for %u s",
			 backoff_s);
}

/*
 * The device policy (include/policy.h): the swap devices' cost value, policy_device_max,
 * while there is swap; without it the value in effect (st NULL: nothing to keep, the
 * cost value all the same).
 */
static void
device(const struct policy_state *st, const struct sample *cur, struct policy_result *r)
{
	int cost = policy_device_max(cur);
	const char *what;

	if (cur->swap_total_kib == 0 && st) {
		r->target = clamp_int(st->has_value ? st->value : st->knob, 0, 200);
		r->kept = POLICY_KEPT_NO_SWAP;
		REASON("no swap, stay at %d", r->target);
		return;
	}
	if (cur->swap_total_kib == 0)
		what = "no swap";
	else if (!cur->has_swaps)
		what = "swap devices unknown";
	else if (cost == 200)
		what = "all swap on zram";
	else if (cost == 133)
		what = "zswap in front of swap";
	else if (cur->swaps.zram > 0)
		what = "swap on disk and zram";
	else
		what = "swap on disk";
	r->target = cost;
	REASON("%s, cost value %d", what, cost);
}

#undef REASON

int
policy_device_max(const struct sample *s)
{
	if (s->has_swaps && s->swaps.devices > 0 && s->swaps.zram == s->swaps.devices)
		return 200;
	if (s->zswap_enabled)
		return 133;
	return 100;
}

void
policy_begin(struct policy_state *state, int knob)
{
	state->knob = knob;
}

void
policy_observe(struct policy_state *state, int value, int top)
{
	state->has_value = true;
	state->value = value;
	state->top = top;
}

int
policy_evaluate(enum policy_kind kind, struct policy_state *state, const struct sample *prev,
		const struct sample *cur, struct policy_result *ret)
{
	struct policy_result r = { 0 };
	struct policy_state scratch = { 0 };
	uint64_t reclaimable, shmem;
	bool has_rates;

	if (cur->mem_total_kib == 0 || (unsigned)kind >= POLICY_COUNT)
		return -EINVAL;

	/* Kolivas counted free RAM plus page cache as not held by applications.
	 * Shmem (tmpfs, shared anonymous memory) sits in Cached but is swap-backed,
	 * so it counts as application memory. */
	reclaimable = sat_add(sat_add(cur->mem_free_kib, cur->buffers_kib), cur->cached_kib);
	shmem = cur->shmem_kib < reclaimable ? cur->shmem_kib : reclaimable;
	r.app_centile = 100 - policy_pct(reclaimable - shmem, cur->mem_total_kib);
	r.swap_centile = policy_pct(cur->swap_free_kib, cur->swap_total_kib);
	r.ck = cur->swap_total_kib == 0 ? 0 : min_int(r.app_centile, r.swap_centile);
	r.mapped_ratio = policy_pct(cur->mapped_kib, cur->mem_total_kib);
	r.psi_distress = psi_distress(prev, cur);
	r.reclaim_distress = reclaim_distress(prev, cur);
	r.distress = r.psi_distress > r.reclaim_distress ? r.psi_distress : r.reclaim_distress;
	r.swap_tendency = r.mapped_ratio / 2 + r.distress + r.ck;
	r.unmapped_cache_pct = unmapped_cache_pct(cur);
	has_rates = compute_rates(prev, cur, &r);
	r.active = r.distress > 0 || r.file_refault_pps >= POLICY_ADAPTIVE_ACTIVE_PPS ||
		   r.anon_refault_pps >= POLICY_ADAPTIVE_ACTIVE_PPS || r.swapin_pps >= POLICY_ADAPTIVE_ACTIVE_PPS;

	switch (kind) {
	case POLICY_CK:
		r.target = r.ck;
		if (cur->swap_total_kib == 0)
			snprintf(r.reason, sizeof(r.reason), "no swap");
		else
			snprintf(r.reason, sizeof(r.reason), "min(app %d%%, swap free %d%%)", r.app_centile,
				 r.swap_centile);
		break;
	case POLICY_TENDENCY:
		tendency(state, cur, reclaimed(prev, cur), has_rates, &r);
		break;
	case POLICY_ADAPTIVE:
		adaptive(state ? state : &scratch, cur, has_rates, &r);
		break;
	case POLICY_WORKINGSET:
		workingset(state, prev, cur, reclaimed(prev, cur), has_rates, &r);
		break;
	case POLICY_DEVICE:
		device(state, cur, &r);
		break;
	default:
		return -EINVAL;
	}
	*ret = r;
	return 0;
}
