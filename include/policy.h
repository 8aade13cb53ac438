/* Policies: sample(s) + configuration -> target swappiness and its reasons. Pure. */
#ifndef AUTOSWAPPINESS_POLICY_H
#define AUTOSWAPPINESS_POLICY_H

#include "sample.h"

enum policy_kind {
	POLICY_CK,
	POLICY_TENDENCY,
	POLICY_COUNT,
};

/* The smallest scan that says anything about reclaim efficiency: SWAP_CLUSTER_MAX,
 * the batch the kernel's reclaim works in (include/linux/swap.h). */
#define POLICY_MIN_SCAN_PAGES 32

struct policy_result {
	int target; /* what the policy asks for, before the regulator's limits */
	int app_centile;
	int swap_centile;
	int ck;
	int mapped_ratio;
	int distress;
	int psi_distress;
	int reclaim_distress;
	int swap_tendency;
	char reason[128];
};

/* Returns the policy's name ("ck", "tendency"), or NULL for an invalid kind. */
const char *policy_name(enum policy_kind kind);

/* Returns 0 and sets *ret_kind for a known name, -EINVAL otherwise. */
int policy_from_name(const char *name, enum policy_kind *ret_kind);

/* Returns 100 * part / whole rounded down, capped at 100; 0 when whole is 0. */
int policy_pct(uint64_t part, uint64_t whole);

/*
 * Evaluates a policy on the current sample cur; prev is the previous sample or
 * NULL (then rates that need two samples count as zero and PSI falls back to its
 * avg10). Returns 0 and fills *ret, -EINVAL when cur has no MemTotal.
 */
int policy_evaluate(enum policy_kind kind, const struct sample *prev, const struct sample *cur,
		    struct policy_result *ret);

#endif
