#include "policy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const policy_names[POLICY_COUNT] = {
	[POLICY_CK] = "ck",
	[POLICY_TENDENCY] = "tendency",
	[POLICY_ADAPTIVE] = "adaptive",
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

static void
compute_rates(const struct sample *prev, const struct sample *cur, struct policy_result *r)
{
	uint64_t dt;

	if (!prev || cur->time_us <= prev->time_us)
		return;
	dt = cur->time_us - prev->time_us;
	if (prev->has_refaults && cur->has_refaults) {
		r->file_refault_pps = rate_pps(cur->refault_file_pages, prev->refault_file_pages, dt);
		r->anon_refault_pps = rate_pps(cur->refault_anon_pages, prev->refault_anon_pages, dt);
	}
	if (prev->has_vmstat && cur->has_vmstat) {
		r->swapin_pps = rate_pps(cur->pswpin_pages, prev->pswpin_pages, dt);
		r->scan_pps = rate_pps(cur->pgscan_pages, prev->pgscan_pages, dt);
	}
}

static int
clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * The adaptive controller: file refaults mean the kernel threw away cache that
 * was needed again (swap more: up); swap-ins and anon refaults mean it swapped
 * out memory that was needed again (swap less: down). While reclaim goes on
 * without either kind dominating it holds still; with nothing being reclaimed
 * it drifts back to ck. Free swap caps it at swap_centile while half the swap
 * or more is in use, and at swap_centile^2 / 50 (up to 200) beyond: no swap,
 * no swapping.
 */
/* Records a move in direction dir (+1 up, -1 down) and returns its size. */
static int
adaptive_step(struct policy_state *state, int dir, int base)
{
	int halvings = 0, step;

	if (state) {
		if (state->last_dir == -dir && state->halvings < POLICY_ADAPTIVE_MAX_HALVINGS)
			state->halvings++;
		else if (state->last_dir == dir)
			state->halvings = 0; /* a trend, not a swing: full steps again */
		state->last_dir = dir;
		halvings = state->halvings;
	}
	step = base >> halvings;
	return step < 1 ? 1 : step;
}

/* a > POLICY_ADAPTIVE_DOMINANCE * b, without the product wrapping around:
 * the rates are 64-bit and may be anything a broken counter gives. */
static bool
dominates(uint64_t a, uint64_t b)
{
	return (unsigned __int128)a > (unsigned __int128)POLICY_ADAPTIVE_DOMINANCE * b;
}

static void
adaptive(struct policy_state *state, struct policy_result *r)
{
	uint64_t file = r->file_refault_pps;
	uint64_t anon = r->anon_refault_pps > r->swapin_pps ? r->anon_refault_pps : r->swapin_pps;
	int from = state && state->has_value ? state->value : r->ck;
	/* max(sc, sc^2 / 50): ck's ceiling while swap is half used or more, opening
	 * up to 200 as swap empties. */
	int ceiling = r->swap_centile * r->swap_centile / 50 > r->swap_centile ? r->swap_centile * r->swap_centile / 50
									      : r->swap_centile;
	int base = POLICY_ADAPTIVE_STEP_BASE + r->distress / 4, step;
	int to;

	if (file >= POLICY_ADAPTIVE_ACTIVE_PPS && dominates(file, anon)) {
		step = adaptive_step(state, +1, base);
		to = from + step;
		snprintf(r->reason, sizeof(r->reason), "up %d: file refaults %llu/s, swap-ins %llu/s", step,
			 (unsigned long long)file, (unsigned long long)anon);
	} else if (anon >= POLICY_ADAPTIVE_ACTIVE_PPS && dominates(anon, file)) {
		bool falling = state && state->last_dir == -1;

		step = adaptive_step(state, -1, base);
		/* Down fast: a swap-in stalls the task that needs the page, a file
		 * refault is often read ahead. On the second fall in a row (a trend,
		 * not a swing) drop at least half the value: in the phased
		 * benchmark, falls of a quarter took 7 polls to come down from 181
		 * while the active anon set was being swapped back in. */
		if (falling && from / POLICY_ADAPTIVE_DECREASE_DIV > step)
			step = from / POLICY_ADAPTIVE_DECREASE_DIV;
		to = from - step;
		snprintf(r->reason, sizeof(r->reason), "down %d: swap-ins %llu/s, file refaults %llu/s", step,
			 (unsigned long long)anon, (unsigned long long)file);
	} else if (file < POLICY_ADAPTIVE_ACTIVE_PPS && anon < POLICY_ADAPTIVE_ACTIVE_PPS &&
		   r->scan_pps < POLICY_ADAPTIVE_ACTIVE_PPS) {
		/* Nothing is being reclaimed: no evidence either way, go home. */
		int gap = r->ck - from;

		to = from + clamp_int(gap, -POLICY_ADAPTIVE_DRIFT, POLICY_ADAPTIVE_DRIFT);
		snprintf(r->reason, sizeof(r->reason), "%s: no refaults, ck %d", gap == 0 ? "rest" : "drift to ck",
			 r->ck);
	} else {
		to = from;
		snprintf(r->reason, sizeof(r->reason), "hold: file refaults %llu/s, swap-ins %llu/s",
			 (unsigned long long)file, (unsigned long long)anon);
	}
	if (to > ceiling) {
		to = ceiling;
		if (strlen(r->reason) + 24 < sizeof(r->reason))
			snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
				 "; free swap caps at %d", ceiling);
	}
	r->target = clamp_int(to, 0, 200);
}

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
policy_observe(struct policy_state *state, int value)
{
	state->has_value = true;
	state->value = value;
}

int
policy_evaluate(enum policy_kind kind, struct policy_state *state, const struct sample *prev,
		const struct sample *cur, struct policy_result *ret)
{
	struct policy_result r = { 0 };
	uint64_t reclaimable, shmem;

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
	compute_rates(prev, cur, &r);
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
		r.target = r.swap_tendency;
		snprintf(r.reason, sizeof(r.reason), "mapped %d%%/2 + distress %d + ck %d", r.mapped_ratio,
			 r.distress, r.ck);
		break;
	case POLICY_ADAPTIVE:
		adaptive(state, &r);
		break;
	default:
		return -EINVAL;
	}
	*ret = r;
	return 0;
}
