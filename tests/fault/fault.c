/*
 * A fault injector for the integration tests, loaded with LD_PRELOAD into the
 * real binary: makes opening or writing one path fail with a chosen errno, the
 * way a kernel or a sandbox would.
 *
 *   FAULT_PATH=/proc/sys/vm/swappiness
 *   FAULT_OPEN_ERRNO=EACCES|EPERM|EROFS   opening FAULT_PATH for writing fails
 *   FAULT_EINVAL_ABOVE=100                writing a number above 100 to it fails
 *                                         with EINVAL (a kernel before 5.8), and
 *                                         leaves the old value, as a sysctl does:
 *                                         the stand-in file is not truncated first
 *   FAULT_HOLDS=[W:]42                    every write to it (of W only, with W:)
 *                                         goes in, and someone else writes 42
 *                                         right after (before the writer can
 *                                         read it back)
 *   FAULT_READBACK_ERRNO=[W:]EIO          every write to it (of W only, with W:)
 *                                         goes in, and the next pread(2) of it
 *                                         (the writer's readback) fails with EIO
 *   FAULT_KILL_AFTER_WRITE=N              the N-th write to it goes in, and the
 *                                         process gets SIGKILL right after (a
 *                                         crash before anything else happens)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
errno_by_name(const char *name)
{
	static const struct {
		const char *name;
		int value;
	} names[] = { { "EACCES", EACCES }, { "EPERM", EPERM }, { "EROFS", EROFS },
		      { "EINVAL", EINVAL }, { "EIO", EIO } };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].value;
	return 0;
}

static int
is_fault_path(const char *path)
{
	const char *p = getenv("FAULT_PATH");

	return p && path && strcmp(p, path) == 0;
}

static int
fd_is_fault_path(int fd)
{
	char link[64], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return is_fault_path(target);
}

int
open(const char *path, int flags, ...)
{
	static int (*real_open)(const char *, int, ...);
	const char *e = getenv("FAULT_OPEN_ERRNO");
	mode_t mode = 0;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (e && (flags & O_ACCMODE) != O_RDONLY && is_fault_path(path)) {
		errno = errno_by_name(e);
		return -1;
	}
	if (getenv("FAULT_EINVAL_ABOVE") && (flags & O_ACCMODE) != O_RDONLY && is_fault_path(path))
		flags &= ~O_TRUNC; /* truncated in write(), once the value is accepted */
	return real_open(path, flags, mode);
}

/* FAULT_READBACK_ERRNO: the errno the next pread of FAULT_PATH fails with, set
 * by a write to it. */
static int readback_errno;

/* Arms FAULT_READBACK_ERRNO after a write of buf (len bytes) that went in. */
static void
arm_readback(const void *buf, size_t len)
{
	const char *e = getenv("FAULT_READBACK_ERRNO"), *colon;
	char v[16];

	if (!e || len >= sizeof(v))
		return;
	colon = strchr(e, ':');
	memcpy(v, buf, len);
	v[len] = '\0';
	if (colon && atoi(v) != atoi(e))
		return;
	readback_errno = errno_by_name(colon ? colon + 1 : e);
}

static ssize_t
fail_readback(int fd)
{
	if (readback_errno == 0 || !fd_is_fault_path(fd))
		return 0;
	errno = readback_errno;
	readback_errno = 0;
	return -1;
}

ssize_t
pread(int fd, void *buf, size_t len, off_t off)
{
	static ssize_t (*real_pread)(int, void *, size_t, off_t);

	if (!real_pread)
		real_pread = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	if (fail_readback(fd) < 0)
		return -1;
	return real_pread(fd, buf, len, off);
}

ssize_t
pread64(int fd, void *buf, size_t len, off_t off)
{
	static ssize_t (*real_pread64)(int, void *, size_t, off_t);

	if (!real_pread64)
		real_pread64 = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
	if (fail_readback(fd) < 0)
		return -1;
	return real_pread64(fd, buf, len, off);
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	static int writes;
	const char *above = getenv("FAULT_EINVAL_ABOVE"), *kill_after = getenv("FAULT_KILL_AFTER_WRITE");

	if (!real_write)
		real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (kill_after && fd > 2 && fd_is_fault_path(fd)) {
		ssize_t w = real_write(fd, buf, len);

		if (w >= 0 && ++writes == atoi(kill_after))
			raise(SIGKILL);
		return w;
	}
	if (above && fd > 2 && len < 16 && fd_is_fault_path(fd)) {
		char v[16];

		memcpy(v, buf, len);
		v[len] = '\0';
		if (atoi(v) > atoi(above)) {
			errno = EINVAL;
			return -1;
		}
		ssize_t n = real_write(fd, buf, len);

		if (n >= 0 && ftruncate(fd, n) < 0)
			return -1;
		return n;
	}
	if (getenv("FAULT_HOLDS") && fd > 2 && len < 16 && fd_is_fault_path(fd)) {
		const char *holds = getenv("FAULT_HOLDS"), *colon = strchr(holds, ':');
		char v[16];
		int n;
		ssize_t w;

		memcpy(v, buf, len);
		v[len] = '\0';
		if (colon && atoi(v) != atoi(holds))
			return real_write(fd, buf, len);
		n = snprintf(v, sizeof(v), "%d\n", atoi(colon ? colon + 1 : holds));
		w = real_write(fd, buf, len);

		if (w < 0 || pwrite(fd, v, (size_t)n, 0) != n || ftruncate(fd, n) < 0)
			return -1;
		return w;
	}
	if (getenv("FAULT_READBACK_ERRNO") && fd > 2 && len < 16 && fd_is_fault_path(fd)) {
		ssize_t w = real_write(fd, buf, len);

		if (w >= 0)
			arm_readback(buf, len);
		return w;
	}
	return real_write(fd, buf, len);
}
