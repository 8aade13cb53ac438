/* Policies: sample(s) + configuration -> target swappiness and its reasons. Pure. */
#ifndef AUTOSWAPPINESS_POLICY_H
#define AUTOSWAPPINESS_POLICY_H

#include "sample.h"

enum policy_kind {
	POLICY_CK,
	POLICY_TENDENCY,
	POLICY_ADAPTIVE,
	POLICY_COUNT,
};

/* The smallest scan that says anything about reclaim efficiency: SWAP_CLUSTER_MAX,
 * the batch the kernel's reclaim works in (include/linux/swap.h). */
#define POLICY_MIN_SCAN_PAGES 32

/*
 * The adaptive controller's constants (see autoswappiness(8), THE ADAPTIVE POLICY).
 * A refault or swap-in rate below ACTIVE_PPS pages per second is noise: 64 pages
 * (256 KiB) a second is what an idle machine's page cache churn stays under.
 * One kind of fault must outnumber the other DOMINANCE times before the value
 * moves, so that a balanced load holds still (no oscillation). Each move is
 * STEP_BASE plus a quarter of the distress (faster when tasks stall), at most
 * 35; with no reclaim activity the value drifts DRIFT per poll back to ck.
 */
#define POLICY_ADAPTIVE_ACTIVE_PPS 64
#define POLICY_ADAPTIVE_DOMINANCE 2
#define POLICY_ADAPTIVE_STEP_BASE 10
#define POLICY_ADAPTIVE_DRIFT 2
/* A trend of swap-ins (two falls in a row) takes at least value / 2 off at each
 * step: multiplicative decrease. In the phased benchmark's 10 s low phase, falls
 * of a quarter took 7 polls from 181 to 27 (additive ones 9 from 193 to 93).
 * Rises stay additive: a rise boosted the same way overshoots and swings
 * (test_adaptive_settles). */
#define POLICY_ADAPTIVE_DECREASE_DIV 2

/* A reversal of direction halves the step, at most this many times (10 -> 1):
 * the controller closes in on the balance point instead of swinging around it. */
#define POLICY_ADAPTIVE_MAX_HALVINGS 3

/* What the adaptive policy remembers between polls. */
struct policy_state {
	bool has_value;
	int value;     /* the value in effect after the regulator (policy_observe) */
	int last_dir;  /* -1, 0, +1: the last move */
	int halvings;  /* how many reversals in a row have halved the step */
};

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
	/* Rates over the interval, pages per second (0 with one sample). */
	uint64_t file_refault_pps;
	uint64_t anon_refault_pps;
	uint64_t swapin_pps;
	uint64_t scan_pps;
	bool active; /* reclaim, refaults or stalls: poll again soon */
	char reason[128];
};

/* Returns the policy's name ("ck", "tendency", "adaptive"), or NULL for an invalid kind. */
const char *policy_name(enum policy_kind kind);

/* Returns 0 and sets *ret_kind for a known name, -EINVAL otherwise. */
int policy_from_name(const char *name, enum policy_kind *ret_kind);

/* Returns 100 * part / whole rounded down, capped at 100; 0 when whole is 0. */
int policy_pct(uint64_t part, uint64_t whole);

/*
 * Evaluates a policy on the current sample cur; prev is the previous sample or
 * NULL (then rates that need two samples count as zero and PSI falls back to its
 * avg10). state is the adaptive policy's memory (NULL: start afresh; the other
 * policies leave it alone); the adaptive policy records its move in it.
 * Returns 0 and fills *ret, -EINVAL when cur has no MemTotal or kind is unknown
 * (then nothing is changed).
 */
int policy_evaluate(enum policy_kind kind, struct policy_state *state, const struct sample *prev,
		    const struct sample *cur, struct policy_result *ret);

/*
 * The top of the useful range for the swap devices in s (Documentation/admin-
 * guide/sysctl/vm.rst: swappiness is the relative cost of anon vs file IO):
 * 200 when all swap is zram (no IO at all), 133 with zswap (swap IO about twice
 * as fast as the file system's), else 100 (equal cost).
 * Returns that value.
 */
int policy_device_max(const struct sample *s);

/* Tells the state which value the regulator settled on (clamped to the limits),
 * so that the adaptive controller moves from there and cannot wind up beyond
 * the limits. */
void policy_observe(struct policy_state *state, int value);

#endif
