#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first allocation of a fileio_buf: a page, what one read of /proc gives. */
#define FILEIO_BUF_MIN_BYTES 4096

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
