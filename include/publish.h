/* Publishing: the state file that `autoswappiness status` reads and the
 * Prometheus textfile: the state when its text changes, the textfile at every
 * poll (its last poll timestamp tells a live daemon from a killed one). Both
 * atomically: a temporary file in the same directory, renamed over it. */
#ifndef AUTOSWAPPINESS_PUBLISH_H
#define AUTOSWAPPINESS_PUBLISH_H

#include "status.h"

struct publisher {
	char state_buf[4096], state_last[4096];
	int state_len; /* of state_last; -1: nothing written yet */
	char metrics_buf[8192];
	int state_err, metrics_err; /* the last failure of each, logged once */
};

/* Starts with nothing written. */
void publish_init(struct publisher *p);

/* Writes "state" in the state directory (state_dir, open at state_fd) from st
 * when its text changed or the last write failed, and (when metrics_path is not empty) the metrics textfile every
 * time. Failures are logged once until they change. */
void publish(struct publisher *p, const char *state_dir, int state_fd, const char *metrics_path,
	     const struct status_snapshot *st);

/* The metrics textfile moves away from old_path (a reload): removes it, so
 * that the collector sees no stale file, and forgets its last failure. */
void publish_metrics_moved(struct publisher *p, const char *old_path);

/* On a clean exit: no state for `status`, no stale metrics for the collector. */
void publish_remove(const char *state_dir, int state_fd, const char *metrics_path);

#endif
