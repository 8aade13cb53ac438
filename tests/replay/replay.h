/* Replays a trace through the daemon's decision pipeline (policy -> regulator -> the value
 * written, fed back with policy_observe), at the daemon's polling pace, with seeded noise on
 * the counters. Test code: see tests/data/traces/README. */
#ifndef AUTOSWAPPINESS_REPLAY_H
#define AUTOSWAPPINESS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "policy.h"
#include "trace.h"

struct replay_config {
	struct config cfg;  /* policy, limits, intervals, PSI trigger: as the daemon reads them */
	int kernel_max;	    /* what the kernel accepts: 200 since Linux 5.8 */
	int start_value;    /* the knob when the daemon starts */
	unsigned noise_pct; /* each counter's delta between two rows times 1 +- up to this/100 */
	uint64_t seed;	    /* of the noise; the same seed gives the same replay */
};

struct replay_poll {
	size_t row;	/* the trace row this poll read */
	unsigned phase; /* that row's phase */
	uint64_t t_ms;
	int target; /* what the policy asked for */
	int value;  /* the knob after this poll */
	bool wrote;
	bool active;   /* the policy saw pressure: the next poll comes at the busy pace */
	bool psi_wake; /* the PSI trigger, not the timer, brought this poll forward */
	char reason[128]; /* the policy's */
};

struct replay {
	const struct trace *trace; /* the rows the policy read (noise included), and the phases */
	struct trace *own;	   /* the same, owned: freed by replay_free */
	int start_value;
	struct replay_poll *polls;
	size_t n_polls;
	unsigned writes;
};

/* One workload recorded at several static values: traces[k] at settings[k], their phases in
 * the same order (a trace may lack some, such as a "post" row). */
#define REPLAY_MAX_WORLD 8
struct replay_world {
	const struct trace *traces[REPLAY_MAX_WORLD];
	int settings[REPLAY_MAX_WORLD];
	unsigned n;
};

/*
 * Replays trace t under rc. The daemon polls at the first row, then at the first row at
 * least interval_ms (busy_interval_ms after a poll that saw pressure) after the last poll,
 * or earlier at a row where the PSI trigger would fire: psi_trigger_ms of "some" stall
 * within the 2 s before it (CONFIG_PSI_WINDOW_MS), at a row that crosses one of the
 * kernel's checks of the trigger (every 200 ms with the unit's CAP_SYS_RESOURCE). Rows are
 * about 1 s apart, so a 1000 ms interval polls every row.
 * Returns 0 and fills *ret (free with replay_free), -EINVAL when policy_evaluate or
 * regulator_next refuse (a bad config), -ENOMEM.
 */
int replay_run(const struct trace *t, const struct replay_config *rc, struct replay *ret);

/*
 * Replays a closed loop, roughly: each row comes from the trace recorded at the setting
 * nearest the knob's value now, at the same share of the phase done (a phase that took 75
 * rows at 0 and 15 at 200 is a fifth done after 15 rows at 0 or 3 at 200), its counters
 * moving by that trace's deltas and its gauges taken from it. So a policy's choices change
 * what it sees and how long each phase lasts. What it cannot know: the kernel's state
 * depends on the path (after 10 s at 200 the anon set is out, and at 100 it comes back in
 * with swap-ins that no trace at 100 shows). The phases are those of the trace that has the
 * most; a phase the chosen trace lacks is skipped. Returns as replay_run, and -EINVAL when
 * the traces' phases come in different orders, or w has no trace or more than
 * REPLAY_MAX_WORLD.
 */
int replay_run_world(const struct replay_world *w, const struct replay_config *rc, struct replay *ret);

void replay_free(struct replay *r);

/* The config that the daemon starts with (conf/autoswappiness.conf as shipped: config_defaults)
 * with the given policy, no noise, seed 0, knob at 60 (what guest-bench.sh leaves it at) and a
 * kernel that accepts 200. */
void replay_config_shipped(struct replay_config *ret, enum policy_kind policy);

/* The daemon as the benchmark ran it before issue 12 (bench/run.sh: [limits] max = 200,
 * [daemon] interval_ms = 1000), otherwise as replay_config_shipped. */
void replay_config_max200(struct replay_config *ret, enum policy_kind policy);

/*
 * The values through phase: vals[0] is the value entering the phase (after the last poll
 * before it, or the start value), vals[j] the value after its j-th poll. Returns the
 * number of polls in the phase (vals then holds one more), at most max - 1 are stored.
 */
size_t replay_phase_values(const struct replay *r, unsigned phase, int *vals, size_t max);

/* Polls into phase before the value first lies in [lo, hi] (0: it entered the phase
 * there). Returns that count, or -1 when it never does. */
int replay_reach(const struct replay *r, unsigned phase, int lo, int hi);

/* Polls into phase after which the value stays in [lo, hi] to the phase's end. Returns
 * that count, or -1 when the phase ends outside the band (or has no polls). */
int replay_settle(const struct replay *r, unsigned phase, int lo, int hi);

/* Polls into phase for which the value stays in [lo, hi] from entering it: 0 when it enters
 * outside, n (the phase's polls) + 1 when it never leaves. Returns that count. */
int replay_hold(const struct replay *r, unsigned phase, int lo, int hi);

/* Milliseconds the replayed rows spent in phase (in a closed loop, how long the workload took
 * there). Returns that. */
uint64_t replay_phase_ms(const struct replay *r, unsigned phase);

/* Pages swapped in during phase (the rows' pswpin). Returns that. */
uint64_t replay_phase_swapins(const struct replay *r, unsigned phase);

/* Writes per minute in phase, counting from its poll number from_poll (1-based: 1 is
 * the whole phase) to its last poll, over the time from the poll before from_poll to
 * the last one. Returns -1 when that stretch is shorter than one poll interval. */
double replay_writes_per_min(const struct replay *r, unsigned phase, int from_poll);

/* Writes per minute over the workload, as `make bench` counts them in a run (target (4) of
 * issue 46): the writes at polls in every phase but "pre" and "post", over the time from the
 * last poll before the workload to its last poll. Returns -1 when that is under one second. */
double replay_workload_writes_per_min(const struct replay *r);

#endif
