#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int
fileio_write_atomic(const char *path, const char *buf, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	ssize_t n;
	int fd, r = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	/* The mode as asked, whatever the umask (the unit's is 0077): node_exporter
	 * and `autoswappiness status` run as other users. */
	if (fchmod(fd, mode) < 0) {
		r = -errno;
	} else {
		n = write(fd, buf, len);
		if (n < 0)
			r = -errno;
		else if ((size_t)n != len)
			r = -EIO;
	}
	/* No fsync: these files live in /run or are rewritten at the next poll;
	 * rename alone gives readers all or nothing. */
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

ssize_t
fileio_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		r = -errno;
	else if ((size_t)n == len - 1) {
		char extra;

		if (read(fd, &extra, 1) == 1)
			r = -EFBIG;
	}
	close(fd);
	if (r < 0)
		return r;
	buf[n] = '\0';
	return n;
}
