/* One decision: the policy's target, through the limits and the regulator, to
 * the value to write and why. Pure; the loop's poll and --once share it. */
#ifndef AUTOSWAPPINESS_DECIDE_H
#define AUTOSWAPPINESS_DECIDE_H

#include "config.h"
#include "policy.h"
#include "regulator.h"
#include "sample.h"

struct decision {
	struct policy_result pr;     /* the policy's inputs, target and reason */
	struct regulator_limits lim; /* the limits it went through */
	struct regulator_decision dec; /* the value, and whether to write it */
};

/*
 * name = auto: the policy for the kernel's LRU (mglru: the multi-gen LRU). Under the
 * multi-gen LRU the value only weighs the two types' refault rates when the kernel
 * picks the type to evict next, and the generations' ages make most of those picks
 * (autoswappiness(7), ONE POLICY PER LRU), so device states the devices' cost
 * and holds it; under the classic LRU workingset steers. Otherwise the configured
 * policy, whatever the LRU.
 */
#define DECIDE_AUTO_MGLRU POLICY_DEVICE
#define DECIDE_AUTO_CLASSIC POLICY_WORKINGSET
enum policy_kind decide_policy(const struct config *cfg, bool mglru);

/* The configured max, or with max = auto the top of the range that suits the
 * swap devices in s (policy_device_max). */
int decide_max(const struct config *cfg, const struct sample *s);

/* The value sparing the cache may raise the tendency and workingset policies (kind,
 * decide_policy's) to, and workingset's rise too (include/policy.h):
 * 200 with max = auto on disk swap (max resolved to 100) and a kernel that accepts
 * 200, else 0 (the rule is off). Under the multi-gen LRU (mglru) 199, the top of the
 * range the regulator keeps there, so that the reason names the value written. */
int decide_spare_top(const struct config *cfg, enum policy_kind kind, int max, int kernel_max, bool mglru);

/* The regulator's limits from the config, with max resolved (max = auto), the
 * kernel's own limit and its LRU (mglru: the multi-gen LRU, regulator.h). */
struct regulator_limits decide_limits(const struct config *cfg, int max, int kernel_max, bool mglru);

/*
 * Decides from the sample cur (prev: the one before it, or NULL) and the
 * value the knob holds now (current). state is the policy's history, or NULL
 * for a single decision without one (--once); with it, the value decided is
 * recorded as the one in effect. Returns 0 and fills *ret, or a negative errno
 * (-EINVAL: limits or policy inconsistent, which a validated config rules out).
 */
int decide(const struct config *cfg, int max, int kernel_max, struct policy_state *state, struct regulator *reg,
	   const struct sample *prev, const struct sample *cur, int current, struct decision *ret);

#endif
