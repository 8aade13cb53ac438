/* O_PATH (open_dir_nofollow). */
#define _GNU_SOURCE
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* A name someone planted is skipped; this many in a row means someone is
 * guessing our names, or the directory is full of them. */
#define TEMP_NAME_TRIES 16
/* The first allocation of a fileio_buf: a page, what one read of /proc gives. */
#define FILEIO_BUF_MIN_BYTES 4096

/* 64 bits for a temporary name. Unpredictable when the kernel can give it
 * without blocking (getrandom may block early at boot, when the daemon
 * starts); otherwise merely unlikely to repeat: O_EXCL makes a collision
 * harmless either way, the randomness only spares retries. */
static uint64_t
temp_suffix(void)
{
	static uint64_t counter;
	struct timespec ts;
	uint64_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	v = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 48) ^ ++counter;
	/* splitmix64's finaliser, so that consecutive names differ in every digit. */
	v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9u;
	v = (v ^ (v >> 27)) * 0x94d049bb133111ebu;
	return v ^ (v >> 31);
}

static int
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Creates a new regular file under a random name in dfd and returns its fd,
 * or a negative errno; the name goes to tmp. */
static int
create_temp(int dfd, const char *base, char *tmp, size_t tmp_len)
{
	for (int i = 0; i < TEMP_NAME_TRIES; i++) {
		int fd;

		if (snprintf(tmp, tmp_len, ".%s.%016llx.tmp", base, (unsigned long long)temp_suffix()) >= (int)tmp_len)
			return -ENAMETOOLONG;
		/* O_EXCL: whatever is at the name (a symlink, a FIFO, a file) makes
		 * this fail instead of being followed or opened. O_NONBLOCK as well,
		 * should a filesystem ever hand back something that blocks. */
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			    0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int
fileio_write_atomic_at(int dfd, const char *name, const char *buf, size_t len, mode_t mode)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	int fd, r;

	if (name[0] == '\0' || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return -EISDIR;
	fd = create_temp(dfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EBADFD;
	/* The mode as asked, whatever the umask (the unit's is 0077): node_exporter
	 * and `autoswappiness status` run as other users. */
	else if (fchmod(fd, mode) < 0)
		r = -errno;
	else
		r = write_all(fd, buf, len);
	/* No fsync: these files live in /run or are rewritten at the next poll;
	 * rename alone gives readers all or nothing. */
	if (close(fd) < 0 && r == 0)
		r = -errno;
	/* rename replaces whatever is at name (a symlink is replaced, not
	 * followed) and fails on a directory. */
	if (r == 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dfd, tmp, 0);
	return r;
}

bool
fileio_is_temp_name(const char *name)
{
	size_t n = strlen(name);
	const char *hex;

	/* ".", a name of at least one byte, ".", 16 digits, ".tmp" */
	if (n < 23 || name[0] != '.' || strcmp(name + n - 4, ".tmp") != 0)
		return false;
	hex = name + n - 4 - 16;
	if (hex[-1] != '.')
		return false;
	for (int i = 0; i < 16; i++)
		if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
			return false;
	return true;
}

int
fileio_remove_temps(int dfd, unsigned *removed)
{
	struct dirent *e;
	struct stat st;
	DIR *dir;
	int fd, r = 0;

	*removed = 0;
	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		r = -errno;
		close(fd);
		return r;
	}
	for (;;) {
		errno = 0;
		e = readdir(dir);
		if (!e) {
			if (errno)
				r = -errno;
			break;
		}
		if (!fileio_is_temp_name(e->d_name))
			continue;
		/* Only a regular file: a link or a directory of that name is
		 * nothing an atomic write made. */
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				r = -errno;
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		if (unlinkat(fd, e->d_name, 0) < 0) {
			if (errno != ENOENT)
				r = -errno;
			continue;
		}
		(*removed)++;
	}
	closedir(dir);
	return r;
}

static const char *
file_kind(mode_t mode)
{
	return S_ISDIR(mode)	? "a directory"
	       : S_ISREG(mode)	? "a regular file"
	       : S_ISLNK(mode)	? "a symbolic link"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "of an unknown type";
}

/* Opens dir one component at a time from / (or the working directory), each
 * with O_NOFOLLOW: a symlink anywhere on the way is refused, not followed, so
 * that someone who may replace a directory on the path (the collector's user
 * owns the textfile's directory, sometimes its parent) cannot send a write or a
 * removal to another directory's file of that name. O_PATH: each needs only
 * search permission, as a path lookup does. Returns the fd, or a negative
 * errno (-ENOTDIR for a symlink) with *bad_len the length of the prefix of dir
 * that names the component refused. */
static int
open_dir_nofollow(const char *dir, size_t *bad_len)
{
	const char *p = dir;
	int dfd;

	dfd = open(dir[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		*bad_len = dir[0] == '/' ? 1 : 0;
		return -errno;
	}
	for (;;) {
		char name[NAME_MAX + 1];
		const char *end;
		size_t n;
		int next;

		while (*p == '/')
			p++;
		if (*p == '\0')
			return dfd;
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (n > NAME_MAX)
			next = -ENAMETOOLONG;
		else {
			memcpy(name, p, n);
			name[n] = '\0';
			next = openat(dfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (next < 0)
				next = -errno;
		}
		close(dfd);
		if (next < 0) {
			*bad_len = (size_t)(end - dir);
			return next;
		}
		dfd = next;
		p = end;
	}
}

/* Opens the directory of path as the atomic write and the removal do
 * (open_dir_nofollow). dir (dir_len bytes) gets the directory's path,
 * *ret_base the last component of path. Returns the fd or a negative errno
 * (-ENOTDIR when a component of the directory is a symlink, -EISDIR when path
 * names no file); on failure why (why_len bytes) says what was refused. */
static int
open_parent(const char *path, char *dir, size_t dir_len, const char **ret_base, char *why, size_t why_len)
{
	const char *slash = strrchr(path, '/'), *base;
	char comp[PATH_MAX];
	size_t bad = 0, n;
	struct stat st;
	bool last;
	int dfd;

	if (!slash) {
		snprintf(dir, dir_len, ".");
		base = path;
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= dir_len) {
			snprintf(why, why_len, "its directory's path is too long");
			return -ENAMETOOLONG;
		}
		memcpy(dir, path, n);
		dir[n] = '\0';
		base = slash + 1;
	}
	if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		snprintf(why, why_len, "%s", strerror(EISDIR));
		return -EISDIR;
	}
	dfd = open_dir_nofollow(dir, &bad);
	if (dfd >= 0) {
		*ret_base = base;
		return dfd;
	}
	/* Name what was refused; lstat only names what is there. */
	n = bad < sizeof(comp) ? bad : sizeof(comp) - 1;
	memcpy(comp, dir, n);
	comp[n] = '\0';
	last = n == strlen(dir);
	if ((dfd == -ENOTDIR || dfd == -ELOOP) && lstat(comp, &st) == 0 && !S_ISDIR(st.st_mode))
		snprintf(why, why_len, last ? "its directory '%s' is %s, %s" : "'%s', on its directory's path, is %s, %s",
			 comp, file_kind(st.st_mode), S_ISLNK(st.st_mode) ? "not followed" : "not a directory");
	else
		snprintf(why, why_len, last ? "its directory '%s': %s" : "'%s', on its directory's path: %s", comp,
			 strerror(-dfd));
	return dfd;
}

int
fileio_write_atomic(const char *path, const char *buf, size_t len, mode_t mode, char *why, size_t why_len)
{
	char dir[PATH_MAX];
	const char *base;
	int dfd, r;

	dfd = open_parent(path, dir, sizeof(dir), &base, why, why_len);
	if (dfd < 0)
		return dfd;
	r = fileio_write_atomic_at(dfd, base, buf, len, mode);
	if (r < 0)
		snprintf(why, why_len, "%s", strerror(-r));
	close(dfd);
	return r;
}

int
fileio_remove(const char *path, char *why, size_t why_len)
{
	char dir[PATH_MAX] = "";
	const char *base;
	struct stat st;
	int dfd, r = 0;

	dfd = open_parent(path, dir, sizeof(dir), &base, why, why_len);
	if (dfd < 0)
		return dfd;
	/* Only a regular file: what else is at the name is not ours. Should a
	 * symlink take its place after this fstatat, unlinkat removes the link
	 * itself (it never follows the last component), in this directory. */
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode)) {
		r = -EBADFD;
		snprintf(why, why_len, "%s, not a regular file: left in place", file_kind(st.st_mode));
	} else if (unlinkat(dfd, base, 0) < 0)
		r = -errno;
	if (r < 0 && r != -EBADFD)
		snprintf(why, why_len, "%s", strerror(-r));
	close(dfd);
	return r;
}

/* Reads an open file into buf (see fileio_read), refusing what is not a
 * regular file; *ret_st gets its fstat. Closes fd. */
static ssize_t
read_regular(int fd, char *buf, size_t len, struct stat *ret_st)
{
	size_t got = 0;
	int r = 0;

	if (fstat(fd, ret_st) < 0)
		r = -errno;
	else if (S_ISDIR(ret_st->st_mode))
		r = -EISDIR;
	else if (!S_ISREG(ret_st->st_mode))
		r = -EBADFD;
	while (r == 0) {
		ssize_t n;
		char extra;

		if (got < len - 1)
			n = read(fd, buf + got, len - 1 - got);
		else
			n = read(fd, &extra, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			r = -errno;
		else if (n == 0)
			break;
		else if (got == len - 1)
			r = -EFBIG;
		else
			got += (size_t)n;
	}
	close(fd);
	if (r < 0)
		return r;
	buf[got] = '\0';
	return (ssize_t)got;
}

ssize_t
fileio_read(const char *path, char *buf, size_t len)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return read_regular(fd, buf, len, &st);
}

/* systemd's null_or_empty(): a link to /dev/null masks a configuration file. */
static bool
is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

ssize_t
fileio_read_follow(const char *path, char *buf, size_t len, struct stat *ret_st)
{
	int fd;

	/* stat first: a FIFO or a device other than /dev/null is refused
	 * without being opened, since opening some devices does something. */
	if (stat(path, ret_st) < 0)
		return -errno;
	if (is_dev_null(ret_st)) {
		buf[0] = '\0';
		return 0;
	}
	if (S_ISDIR(ret_st->st_mode))
		return -EISDIR;
	if (!S_ISREG(ret_st->st_mode))
		return -EBADFD;
	/* O_NONBLOCK: should it have become a FIFO since, the open does not
	 * wait and read_regular refuses it. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return read_regular(fd, buf, len, ret_st);
}

const char *
fileio_strerror(int r)
{
	return r == -EBADFD ? "not a regular file" : strerror(-r);
}

ssize_t
fileio_pread_all(int fd, struct fileio_buf *b, size_t max_bytes)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;
		/* Room for one more byte and the NUL, up to max_bytes. */
		size_t need = len < max_bytes ? len + 2 : len + 1;

		if (b->size < need) {
			size_t want = b->size < FILEIO_BUF_MIN_BYTES / 2 ? FILEIO_BUF_MIN_BYTES : b->size * 2;
			char *p;

			if (want > max_bytes + 1)
				want = max_bytes + 1;
			if (want < need)
				want = need;
			p = realloc(b->data, want);
			if (!p)
				return -ENOMEM;
			b->data = p;
			b->size = want;
		}
		if (len < max_bytes) {
			size_t end = b->size - 1 < max_bytes ? b->size - 1 : max_bytes;

			n = pread(fd, b->data + len, end - len, (off_t)len);
		} else {
			char extra;

			/* Full: one more byte tells a file of exactly max_bytes
			 * from a larger one. */
			n = pread(fd, &extra, 1, (off_t)len);
			if (n > 0)
				return -EFBIG;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	b->data[len] = '\0';
	return (ssize_t)len;
}

void
fileio_buf_free(struct fileio_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->size = 0;
}

int
fileio_open_kernel(const char *path, int flags)
{
	struct stat st;
	int fd, r;

	fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else
		r = S_ISREG(st.st_mode) ? 0 : -EBADFD;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int
fileio_check_private(const struct stat *st, bool dir, char *why, size_t why_len)
{
	unsigned mode = (unsigned)st->st_mode & 07777;

	if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
		snprintf(why, why_len, "%s, not %s", file_kind(st->st_mode), dir ? "a directory" : "a regular file");
	else if (st->st_uid != 0)
		snprintf(why, why_len, "owned by uid %u, not by root", (unsigned)st->st_uid);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, why_len, "mode %04o lets group or others write it", mode);
	else if (!dir && st->st_nlink != 1)
		snprintf(why, why_len, "%ju hard links to it", (uintmax_t)st->st_nlink);
	else
		return 0;
	return -EPERM;
}
