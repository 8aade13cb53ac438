#include "knob.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "fileio.h"
#include "parse.h"

int
knob_open(struct knob *k, const char *path)
{
	k->path = path;
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
	r = knob_read(k, &back);
	if (r < 0)
		return r;
	*ret_readback = back;
	return back == value ? 0 : -EIO;
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
	return rec == KNOB_RECORD_YIELDED ? "yielded" : "original";
}

static void
record_path(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

int
knob_record_load(const char *dir, enum knob_record rec, int *ret_value)
{
	char path[PATH_MAX], buf[32];
	ssize_t n;
	long v;

	record_path(path, sizeof(path), dir, knob_record_name(rec));
	/* Whole, and only if it is a regular file: never a FIFO someone left. */
	n = fileio_read(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (parse_long(buf, 0, CONFIG_SWAPPINESS_MAX, &v) < 0)
		return -EINVAL;
	*ret_value = (int)v;
	return 0;
}

int
knob_record_save(const char *dir, enum knob_record rec, int value)
{
	char path[PATH_MAX], buf[16];
	int len;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	record_path(path, sizeof(path), dir, knob_record_name(rec));
	len = snprintf(buf, sizeof(buf), "%d\n", value);
	return fileio_write_atomic(path, buf, (size_t)len, 0600);
}

int
knob_record_remove(const char *dir, enum knob_record rec)
{
	char path[PATH_MAX];

	record_path(path, sizeof(path), dir, knob_record_name(rec));
	if (unlink(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int
knob_lock(const char *dir, int *ret_holder)
{
	char path[PATH_MAX], buf[24];
	long pid;
	int fd, len, r;

	*ret_holder = 0;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	record_path(path, sizeof(path), dir, "lock");
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
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
