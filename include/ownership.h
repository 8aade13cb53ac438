/* Carrying out owner.c's transitions: the records under the state directory,
 * the restore on exit and the log records that say what was found. */
#ifndef AUTOSWAPPINESS_OWNERSHIP_H
#define AUTOSWAPPINESS_OWNERSHIP_H

#include <stdbool.h>

#include "knob.h"
#include "owner.h"

struct ownership_io {
	const char *state_dir; /* where the records are, for messages */
	int state_fd;	       /* state_dir, open (knob_state_dir_open) */
	struct knob *knob;
	const char *policy; /* named in the restore's record */
	/* Makes the memory cgroups that follow the knob go to value. */
	void (*follow)(void *userdata, int value);
	void *userdata;
	int written_err; /* the last failure to record "written" at a write, logged once */
	int writing_err; /* likewise "writing" */
};

/* Each reads the records it needs, runs the transition of the same name in
 * owner.h on o and does what it asks; failures are logged. */
void ownership_start(const struct ownership_io *io, struct owner *o, int knob_value, bool dry_run);
void ownership_reload(const struct ownership_io *io, struct owner *o, bool dry_run, int knob_value);
void ownership_yield(const struct ownership_io *io, struct owner *o, int knob_value);
void ownership_claim(const struct ownership_io *io, struct owner *o, int knob_value);

/* owner_will_write: the daemon is about to write value to the knob; records
 * it as "writing" while the knob is ours. */
void ownership_will_write(struct ownership_io *io, struct owner *o, int value);

/* owner_expect: the knob should hold value (the daemon wrote it, or takes it
 * over in override mode); records it as "written" while the knob is ours, then
 * removes "writing". */
void ownership_expect(struct ownership_io *io, struct owner *o, int value);

/* Reads the knob and restores the original if it is ours (the records then go;
 * if the write fails they stay for the next start). Returns false when the
 * restore failed: the exit then says so with its status. */
bool ownership_exit(const struct ownership_io *io, const struct owner *o);

#endif
