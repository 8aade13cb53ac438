/* Small files written whole and atomically (state under /run, metrics), and
 * files read whole (growing /proc files). */
#ifndef AUTOSWAPPINESS_FILEIO_H
#define AUTOSWAPPINESS_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Writes buf to path through a temporary file in the same directory and
 * rename(2), so that a reader sees the old content or the new, never a part.
 * Returns 0 or a negative errno.
 */
int fileio_write_atomic(const char *path, const char *buf, size_t len, mode_t mode);

/*
 * Reads at most len - 1 bytes of path into buf and NUL-terminates it.
 * Returns the length, -EFBIG when the file is larger, or a negative errno.
 */
ssize_t fileio_read(const char *path, char *buf, size_t len);

/* A buffer that grows with the file it holds; zero-initialise it. */
struct fileio_buf {
	char *data;
	size_t size; /* allocated bytes */
};

/*
 * Reads fd from offset 0 to end of file into b, growing it as needed, and
 * NUL-terminates it. A read(2) of a /proc file returns about a page at most,
 * so it reads until one returns 0. Returns the length, -EFBIG when the file
 * holds more than max_bytes, or a negative errno (-ENOMEM). b keeps what it
 * allocated for the next call.
 */
ssize_t fileio_pread_all(int fd, struct fileio_buf *b, size_t max_bytes);

/* Frees b's memory and zeroes it. */
void fileio_buf_free(struct fileio_buf *b);

#endif
