#include "knob.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "fileio.h"
#include "journal.h"
#include "parse.h"

int
knob_open(struct knob *k, const char *path)
{
	k->path = path;
	k->readback_err = 0;
	/* Non-blocking and a regular file only: a FIFO bound over the knob
	 * would otherwise hold the start in open(2), deaf to SIGTERM. */
	k->fd = fileio_open_kernel(path, O_RDONLY);
	return k->fd < 0 ? k->fd : 0;
}

void
knob_close(struct knob *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

static int
read_int_fd(int fd, long min, long max, long *ret)
{
	char buf[32];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return parse_long(buf, min, max, ret) < 0 ? -EINVAL : 0;
}

int
knob_read(struct knob *k, int *ret_value)
{
	long v;
	int r;

	r = read_int_fd(k->fd, 0, CONFIG_SWAPPINESS_MAX, &v);
	if (r < 0)
		return r;
	*ret_value = (int)v;
	return 0;
}

int
knob_write(struct knob *k, int value, int *ret_readback)
{
	char buf[16];
	int fd, len, r, back;
	ssize_t n;

	if (ret_readback)
		*ret_readback = -1;
	len = snprintf(buf, sizeof(buf), "%d\n", value);
	/* O_TRUNC matters only for the regular files tests stand in its place. */
	fd = fileio_open_kernel(k->path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	n = write(fd, buf, (size_t)len);
	r = n < 0 ? -errno : n != len ? -EIO : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		return r;
	/* The write went in whatever the readback says: a caller that took a
	 * failed readback for a failed write would see its own value as someone
	 * else's at the next poll, or keep the records of a restore that happened. */
	r = knob_read(k, &back);
	if (r < 0) {
		journal_log_once(&k->readback_err, r, LOG_WARNING, MSGID_ERROR,
				 "wrote %d to '%s' but cannot read it back: %s", value, k->path, fileio_strerror(r));
		return 0;
	}
	k->readback_err = 0;
	if (ret_readback)
		*ret_readback = back;
	return 0;
}

void
knob_log_readback(const struct knob *k, int value, int readback)
{
	if (readback >= 0 && readback != value)
		journal_log(LOG_NOTICE, MSGID_EXTERNAL, "wrote %d to '%s'; someone else wrote %d right after", value,
			    k->path, readback);
}

int
knob_kernel_max(void)
{
	struct utsname u;
	unsigned major, minor;

	/* If we cannot tell, assume the old limit: a smaller range is always safe. */
	if (uname(&u) < 0 || parse_kernel_release(u.release, &major, &minor) < 0)
		return 100;
	return parse_swappiness_limit(major, minor);
}

const char *
knob_record_name(enum knob_record rec)
{
	switch (rec) {
	case KNOB_RECORD_YIELDED:
		return "yielded";
	case KNOB_RECORD_WRITTEN:
		return "written";
	case KNOB_RECORD_WRITING:
		return "writing";
	case KNOB_RECORD_ORIGINAL:
	default:
		return "original";
	}
}

int
knob_state_dir_open(const char *dir, char *why, size_t why_len)
{
	struct stat st;
	bool created = true;
	int fd, r;

	why[0] = '\0';
	if (mkdir(dir, 0755) < 0) {
		if (errno != EEXIST)
			return -errno;
		created = false;
	}
	/* Once, without following a link: from here on every record is reached
	 * through this descriptor, whatever happens to the path. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		/* What is there, for the message (a link, a file...). */
		if ((r == -ELOOP || r == -ENOTDIR) && lstat(dir, &st) == 0 &&
		    fileio_check_private(&st, true, why, why_len) < 0)
			return -EPERM;
		return r;
	}
	/* 0755 whatever the umask when we made it: users run `status`, which
	 * reads the state file there, and under a umask of 077 (`make run` from
	 * a strict shell) mkdir alone made it 0700. One that exists is left as
	 * it is, and checked. */
	if (created && fchmod(fd, 0755) < 0)
		r = -errno;
	else if (fstat(fd, &st) < 0)
		r = -errno;
	else
		r = fileio_check_private(&st, true, why, why_len);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* Opens name in the state directory with flags (O_NOFOLLOW, O_NONBLOCK: a
 * link or FIFO is never followed or waited on) and checks that only root
 * controls it. A file the open refuses is looked at too: a symlink (ELOOP),
 * and one of another user's that root may not open (EACCES: under the unit's
 * PrivateUsers=, root has no CAP_DAC_OVERRIDE over a uid outside its user
 * namespace), so that both are refused as not root's, not failed on. Returns
 * the fd, -EPERM with the reason in why, or a negative errno. */
static int
open_record(int dfd, const char *name, int flags, char *why, size_t why_len)
{
	struct stat st;
	int fd, r;

	why[0] = '\0';
	fd = openat(dfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = -errno;
		if ((r == -ELOOP || r == -EACCES || r == -EPERM) && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    fileio_check_private(&st, false, why, why_len) < 0)
			return -EPERM;
		return r;
	}
	if (fstat(fd, &st) < 0)
		r = -errno;
	else
		r = fileio_check_private(&st, false, why, why_len);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int
knob_record_load(int dfd, enum knob_record rec, int *ret_value, char *why, size_t why_len)
{
	char buf[32];
	ssize_t n;
	int fd, v;

	fd = open_record(dfd, knob_record_name(rec), O_RDONLY, why, why_len);
	if (fd < 0)
		return fd;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	/* Only what knob_record_save writes: "N\n", N in 0..200 without a sign,
	 * blank or leading zero. */
	if (parse_record_value(buf, CONFIG_SWAPPINESS_MAX, &v) < 0)
		return -EINVAL;
	*ret_value = v;
	return 0;
}

int
knob_record_save(int dfd, enum knob_record rec, int value)
{
	char buf[16];
	int len;

	len = snprintf(buf, sizeof(buf), "%d\n", value);
	return fileio_write_atomic_at(dfd, knob_record_name(rec), buf, (size_t)len, 0600);
}

int
knob_record_remove(int dfd, enum knob_record rec)
{
	if (unlinkat(dfd, knob_record_name(rec), 0) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int
knob_lock(int dfd, int *ret_holder, char *why, size_t why_len)
{
	char buf[24];
	long pid;
	int fd, len, r;

	*ret_holder = 0;
	fd = open_record(dfd, "lock", O_RDWR | O_CREAT, why, why_len);
	if (fd < 0)
		return fd;
	/* 0600 also for a file an older version left 0644: anyone who can open
	 * it can flock() it and keep the daemon from starting. */
	if (fchmod(fd, 0600) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		r = -errno;
		if (r == -EWOULDBLOCK) {
			if (read_int_fd(fd, 1, INT_MAX, &pid) == 0)
				*ret_holder = (int)pid;
			r = -EBUSY;
		}
		close(fd);
		return r;
	}
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)len, 0) != len) {
		r = -errno;
		close(fd);
		return r < 0 ? r : -EIO;
	}
	return fd;
}
