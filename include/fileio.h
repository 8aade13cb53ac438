/* Small files written whole and atomically (state under /run, metrics). */
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

#endif
