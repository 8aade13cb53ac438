/* The vm.swappiness sysctl, and the record of its original value under /run. */
#ifndef AUTOSWAPPINESS_KNOB_H
#define AUTOSWAPPINESS_KNOB_H

struct knob {
	int fd; /* kept open for reading */
	const char *path;
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
 * Writes value with one write(2) at offset 0 and reads it back.
 * Returns 0, a negative errno from open/write, or -EIO when the kernel kept a
 * different value (*ret_readback then holds it, else -1).
 */
int knob_write(struct knob *k, int value, int *ret_readback);

/* Returns the largest value this kernel accepts (100 or 200), from uname(2). */
int knob_kernel_max(void);

/* The records kept in the state directory, so that a restart after a crash
 * (no clean exit) carries on where the crashed instance was. */
enum knob_record {
	KNOB_RECORD_ORIGINAL, /* "original": the value from before the first start, to restore */
	KNOB_RECORD_YIELDED,  /* "yielded": someone else set the knob; holds the value that
				 the memory cgroups following the daemon hold */
};

/* Returns the record's file name in the state directory. */
const char *knob_record_name(enum knob_record rec);

/*
 * knob_record_load returns 0 and sets *ret_value, -ENOENT when there is no
 * record, or another negative errno (-EINVAL when it is not a regular file
 * holding 0..200); knob_record_save writes it atomically and returns 0 or a
 * negative errno; knob_record_remove returns 0 or a negative errno.
 */
int knob_record_load(const char *dir, enum knob_record rec, int *ret_value);
int knob_record_save(const char *dir, enum knob_record rec, int value);
int knob_record_remove(const char *dir, enum knob_record rec);

/*
 * Takes dir/lock (flock, held until the process exits) and writes our pid in
 * it, so that a second instance cannot fight the first over the knob.
 * Returns the lock's fd; -EBUSY when another process holds it (*ret_holder
 * then holds its pid, or 0 if unknown); another negative errno on failure.
 */
int knob_lock(const char *dir, int *ret_holder);

#endif
