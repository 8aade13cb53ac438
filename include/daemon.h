/* The daemon: --once (src/once.c), --explain (src/explain_run.c) and the
 * sd-event main loop (src/daemon.c). */
#ifndef AUTOSWAPPINESS_DAEMON_H
#define AUTOSWAPPINESS_DAEMON_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"

struct daemon_options {
	const char *config_path;
	bool config_optional;	 /* the default path: its absence means defaults */
	const char *state_dir;	 /* the records (original, yielded), the lock and the state file */
	bool dry_run;		 /* --dry-run: overrides the config */
	bool verbose;		 /* -v: debug records */
};

/*
 * Takes one sample, applies the policy and the limits (no smoothing: there is no
 * history), writes the knob unless dry-run, and prints one line of key=value
 * pairs to out. Returns 0 or a negative errno (after logging why).
 */
int daemon_once(const struct daemon_options *opt, const struct config *cfg, FILE *out);

/*
 * Loads the configuration (the built-in defaults when it is absent, unreadable
 * to this user or refused), takes two samples a second apart, decides as the
 * daemon would and prints explain.c's sentences to out. Writes nothing else:
 * not the knob, no state, no journal. Returns 0 or a negative errno (after
 * logging why).
 */
int daemon_explain(const struct daemon_options *opt, FILE *out);

/*
 * Runs until SIGTERM or SIGINT, then restores the original value.
 * Returns 0, -EPERM when the state directory or its lock is not one that only
 * root controls (a symlink, another user's, writable by others: nothing is
 * written then), or another negative errno (after logging why).
 */
int daemon_run(const struct daemon_options *opt, const struct config *cfg);

#endif
