#include "decide.h"

enum policy_kind
decide_policy(const struct config *cfg, bool mglru)
{
	if (cfg->policy != CONFIG_POLICY_AUTO)
		return cfg->policy;
	return mglru ? DECIDE_AUTO_MGLRU : DECIDE_AUTO_CLASSIC;
}

int
decide_max(const struct config *cfg, const struct sample *s)
{
	return cfg->max == CONFIG_MAX_AUTO ? policy_device_max(s) : cfg->max;
}

int
decide_spare_top(const struct config *cfg, enum policy_kind kind, int max, int kernel_max, bool mglru)
{
	if ((kind != POLICY_TENDENCY && kind != POLICY_WORKINGSET) || cfg->max != CONFIG_MAX_AUTO || max != 100 || kernel_max < 200)
		return 0;
	return mglru ? REGULATOR_MGLRU_MAX : 200;
}

struct regulator_limits
decide_limits(const struct config *cfg, int max, int kernel_max, bool mglru)
{
	return (struct regulator_limits){
		/* A min above what max = auto allows yields to the devices' range. */
		.min = cfg->min < max ? cfg->min : max,
		.max = max,
		.step = cfg->step,
		.smoothing_pct = cfg->smoothing_pct,
		.kernel_max = kernel_max,
		.mglru = mglru,
	};
}

int
decide(const struct config *cfg, int max, int kernel_max, struct policy_state *state, struct regulator *reg,
       const struct sample *prev, const struct sample *cur, int current, struct decision *ret)
{
	enum policy_kind kind = decide_policy(cfg, cur->mglru);
	int lo, hi, r;

	if (state) {
		struct regulator_limits base = decide_limits(cfg, max, kernel_max, cur->mglru);

		policy_begin(state, current);
		state->spare_top = decide_spare_top(cfg, kind, max, kernel_max, cur->mglru);
		regulator_range(&base, &lo, &hi);
		state->range_top = hi;
	}
	r = policy_evaluate(kind, state, prev, cur, &ret->pr);
	if (r < 0)
		return r;
	/* Sparing the cache, or workingset's rise (and either kept between bursts of
	 * reclaim), lifts auto's top for this decision (include/policy.h). */
	if (ret->pr.lift && state)
		max = state->spare_top;
	/* The device policy without swap keeps the value in effect: auto's top, the cost
	 * of devices that are not there, does not bring it down (a pinned max does). */
	if (ret->pr.kept == POLICY_KEPT_NO_SWAP && cfg->max == CONFIG_MAX_AUTO && ret->pr.target > max)
		max = ret->pr.target;
	ret->lim = decide_limits(cfg, max, kernel_max, cur->mglru);
	regulator_range(&ret->lim, &lo, &hi);
	r = regulator_next(reg, &ret->lim, ret->pr.target, current, cur->time_us, &ret->dec);
	if (r < 0)
		return r;
	/* The value in effect: below the step the knob keeps its value, and the policies that keep
	 * the value in effect between bursts of reclaim must keep that one, not ask again at a quiet
	 * poll for what the regulator held back. */
	if (state)
		policy_observe(state, ret->dec.verdict == REGULATOR_BELOW_STEP ? current : ret->dec.value, hi);
	return 0;
}
