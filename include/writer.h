/* Writing vm.swappiness from the loop: after a failure, back off (doubling, up
 * to a cap) rather than fail and log at every poll; a kernel that refuses values
 * above 100 (before 5.8) lowers the limit instead. */
#ifndef AUTOSWAPPINESS_WRITER_H
#define AUTOSWAPPINESS_WRITER_H

#include "config.h"
#include "knob.h"

/* After a failed write, wait this many polls, doubling up to the cap, before
 * trying again: one failure is logged, not one per poll. */
#define WRITER_BACKOFF_MAX_POLLS 64

struct writer {
	unsigned backoff_polls, backoff_left;
	int err; /* the last failure, logged once */
};

enum {
	WRITER_WRITTEN = 0,
	WRITER_WAITING = 1, /* backing off: nothing written */
	WRITER_LIMITED = 2, /* the kernel refused a value above 100: *kernel_max is now 100 */
};

/* Warns when the configured limits are above what this kernel accepts. */
void writer_warn_limits(const struct config *cfg, int kernel_max);

/* Whether writer_write would try a write now: it is not backing off. */
bool writer_will_write(const struct writer *w);

/* Writes value to k unless backing off. Returns WRITER_* or, after a failure
 * (logged once until it changes), a negative errno. */
int writer_write(struct writer *w, struct knob *k, int value, int *kernel_max);

#endif
