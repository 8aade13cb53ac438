/* Replay traces (tests/data/traces/README): one benchmark run's per-poll signals, read back
 * into the struct sample that the daemon's sampler would have filled. Test code. */
#ifndef AUTOSWAPPINESS_TRACE_H
#define AUTOSWAPPINESS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

#define TRACE_MAX_PHASES 16
#define TRACE_PHASE_LEN	 16

struct trace_row {
	uint64_t t_ms;
	unsigned phase;	 /* index into trace.phases */
	int swappiness;	 /* what the knob held when the row was recorded; -1 unknown */
	struct sample s; /* time_us = t_ms * 1000 */
};

struct trace {
	struct trace_row *rows;
	size_t n_rows;
	char phases[TRACE_MAX_PHASES][TRACE_PHASE_LEN]; /* in order of first appearance */
	unsigned n_phases;
};

/*
 * Parses a trace held in buf[0..len): lines starting with '#' are comments, the first
 * other line names the columns, every further line is one row. Columns are found by
 * name (unknown ones are ignored); t_ms, phase and the meminfo columns are required.
 * A value of -1 marks a source the sampler could not read: the sample's has_ flag for
 * that source is then false. On failure, errline (if not NULL) gets the 1-based line.
 * Returns 0 and fills *ret (free it with trace_free), -EINVAL on a malformed trace
 * (missing column, wrong field count, garbage number, time going back, too many
 * phases), -ENOMEM.
 */
int trace_parse(const char *buf, size_t len, struct trace *ret, unsigned *errline);

/* Reads and parses the file at path. Returns 0, a negative errno from open/read, or
 * one from trace_parse. */
int trace_load(const char *path, struct trace *ret, unsigned *errline);

/* Frees the rows; the trace may be freed again. */
void trace_free(struct trace *t);

/* Returns the index of the phase called name, or -1. */
int trace_phase(const struct trace *t, const char *name);

#endif
