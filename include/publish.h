/* Publishing: the state file that `autoswappiness status` reads and the
 * Prometheus textfile, each rewritten only when its text changes. */
#ifndef AUTOSWAPPINESS_PUBLISH_H
#define AUTOSWAPPINESS_PUBLISH_H

#include "status.h"

struct publisher {
	char state_buf[4096], state_last[4096];
	int state_len; /* of state_last; -1: nothing written yet */
	char metrics_buf[8192], metrics_last[8192];
	int metrics_len;
	int state_err, metrics_err; /* the last failure of each, logged once */
};

/* Starts with nothing written. */
void publish_init(struct publisher *p);

/* Writes state_dir/state and (when metrics_path is not empty) the metrics
 * textfile from st, each only when its text changed or the last write failed.
 * Failures are logged once until they change. */
void publish(struct publisher *p, const char *state_dir, const char *metrics_path, const struct status_snapshot *st);

/* The metrics textfile moves away from old_path (a reload): removes it, so
 * that the collector sees no stale file, and forgets what was written. */
void publish_metrics_moved(struct publisher *p, const char *old_path);

/* On a clean exit: no state for `status`, no stale metrics for the collector. */
void publish_remove(const char *state_dir, const char *metrics_path);

#endif
