/* The vm.swappiness sysctl, and the record of its original value under /run. */
#ifndef AUTOSWAPPINESS_KNOB_H
#define AUTOSWAPPINESS_KNOB_H

#include <stddef.h>

struct knob {
	int fd; /* kept open for reading */
	const char *path;
	int readback_err; /* the last failed readback after a write, logged once */
};

/* Opens the knob for reading, without blocking. Returns 0, -EBADFD when it
 * is not a regular file (a FIFO in its place), or a negative errno. */
int knob_open(struct knob *k, const char *path);

/* Closes the knob. */
void knob_close(struct knob *k);

/* Reads the current value. Returns 0 and sets *ret_value, or a negative errno
 * (-EINVAL when the file does not hold a number in 0..200). */
int knob_read(struct knob *k, int *ret_value);

/*
 * Writes value with one write(2) at offset 0 and reads it back into
 * *ret_readback (-1 when not read back; NULL: not wanted). Returns 0 once the
 * write went in, or a negative errno from open or write. A readback that fails
 * after that is logged (once until one works) and leaves *ret_readback at -1:
 * the write stands. A readback other than value means someone else wrote the
 * knob in between: the caller treats that as any change by someone else, not
 * as a failed write.
 */
int knob_write(struct knob *k, int value, int *ret_readback);

/* Logs that someone else wrote the knob right after our write of value, when
 * readback says so (a negative readback, not read back, says nothing); one
 * wording for every writer that reports it at once. */
void knob_log_readback(const struct knob *k, int value, int readback);

/* Returns the largest value this kernel accepts (100 or 200), from uname(2). */
int knob_kernel_max(void);

/* The records kept in the state directory, so that a restart after a crash
 * (no clean exit) carries on where the crashed instance was. */
enum knob_record {
	KNOB_RECORD_ORIGINAL, /* "original": the value from before the first start, to restore */
	KNOB_RECORD_YIELDED,  /* "yielded": someone else set the knob; holds the value that
				 the memory cgroups following the daemon hold */
	KNOB_RECORD_WRITTEN,  /* "written": what the knob holds as the daemon left it (its
				 last write), to tell it from a value set since */
	KNOB_RECORD_WRITING,  /* "writing": the value about to be written, recorded before
				 the write, so that a crash right after it is no value set since */
};

/* Returns the record's file name in the state directory. */
const char *knob_record_name(enum knob_record rec);

/*
 * Opens the state directory dir (creating it 0755 when absent) once, with
 * O_DIRECTORY and O_NOFOLLOW, for the functions below. Returns its fd; -EPERM
 * with the reason in why when it is a symlink, not a directory, not root's, or
 * writable by group or others; another negative errno on failure.
 */
int knob_state_dir_open(const char *dir, char *why, size_t why_len);

/*
 * The records in the state directory open at dfd. knob_record_load returns 0
 * and sets *ret_value, -ENOENT when there is no record, -EPERM (the reason in
 * why) when it is not a regular file of root's with one link that only root
 * may write, -EINVAL when it does not hold exactly what knob_record_save writes
 * ("N\n", N in 0..200), or another negative errno; it never blocks.
 * knob_record_save writes it atomically and returns 0 or a negative errno;
 * knob_record_remove returns 0 or a negative errno.
 */
int knob_record_load(int dfd, enum knob_record rec, int *ret_value, char *why, size_t why_len);
int knob_record_save(int dfd, enum knob_record rec, int value);
int knob_record_remove(int dfd, enum knob_record rec);

/*
 * Takes "lock" in the state directory open at dfd (flock, held until the
 * process exits) and writes our pid in it, so that a second instance cannot
 * fight the first over the knob. Returns the lock's fd; -EBUSY when another
 * process holds it (*ret_holder then holds its pid, or 0 if unknown); -EPERM
 * (the reason in why) when it is not a regular file of root's with one link
 * that only root may write; another negative errno on failure.
 */
int knob_lock(int dfd, int *ret_holder, char *why, size_t why_len);

#endif
