#include "policy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const policy_names[POLICY_COUNT] = {
	[POLICY_CK] = "ck",
	[POLICY_TENDENCY] = "tendency",
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

int
policy_evaluate(enum policy_kind kind, const struct sample *prev, const struct sample *cur,
		struct policy_result *ret)
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
	default:
		return -EINVAL;
	}
	*ret = r;
	return 0;
}
