/* Files written whole and atomically (state under /run, metrics), and files
 * read whole (state, records, growing /proc files). */
#ifndef AUTOSWAPPINESS_FILEIO_H
#define AUTOSWAPPINESS_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Writes buf to path with the given mode, so that a reader sees the old
 * content or the new, never a part. Everything goes through a descriptor of
 * path's directory, opened one component at a time with O_NOFOLLOW: a symlink
 * anywhere in the directory's path is refused (-ENOTDIR), not followed. In it
 * a temporary file ".NAME.XXXXXXXXXXXXXXXX.tmp" with a random suffix is created
 * with O_EXCL and O_NOFOLLOW (another name is tried when one exists, whatever
 * it is), written, and renamed over NAME; a symlink, FIFO or file at NAME is
 * replaced, never opened or followed. The directory may belong to another user.
 * Returns 0 or a negative errno (-EISDIR when NAME is a directory); on failure
 * no temporary file is left, and why (why_len bytes) says what failed, naming
 * the component refused, for the log.
 */
int fileio_write_atomic(const char *path, const char *buf, size_t len, mode_t mode, char *why, size_t why_len);

/*
 * Removes the file fileio_write_atomic wrote at path, through a descriptor of
 * its directory opened the same way: a symlink anywhere in the directory's path
 * is refused (-ENOTDIR), not followed to another directory's file of that name.
 * Only a regular file is removed; a symlink, FIFO or directory at NAME is
 * left in place (-EBADFD), never followed. Returns 0, -ENOENT when there is
 * no such file or directory, or another negative errno; on failure why
 * (why_len bytes) says what was refused and why, for the log.
 */
int fileio_remove(const char *path, char *why, size_t why_len);

/* As fileio_write_atomic, for NAME (no slash) in the directory open at dfd. */
int fileio_write_atomic_at(int dfd, const char *name, const char *buf, size_t len, mode_t mode);

/* Whether name is one the atomic writes give their temporary file
 * (".NAME.<16 lowercase hex digits>.tmp"): what a writer killed between
 * creating and renaming it leaves behind. */
bool fileio_is_temp_name(const char *name);

/*
 * Removes the temporary files that writers killed mid-write left in the
 * directory open at dfd (an O_PATH descriptor will do): regular files only, by
 * fileio_is_temp_name, never following a link. For a directory no other
 * writer uses at the time (the daemon's own, under its lock). Returns 0 or the
 * negative errno of the last failure; *removed counts the files removed.
 */
int fileio_remove_temps(int dfd, unsigned *removed);

/*
 * Reads at most len - 1 bytes of path into buf and NUL-terminates it. The
 * last component of path must not be a symlink (-ELOOP) and must be a regular
 * file (-EISDIR for a directory, -EBADFD for anything else); a FIFO or device
 * is never read, so this never blocks on a file someone else planted.
 * Returns the length, -EFBIG when the file is larger, or a negative errno.
 */
ssize_t fileio_read(const char *path, char *buf, size_t len);

/*
 * As fileio_read, for configuration files that may be links (Debian's
 * /etc/sysctl.d/99-sysctl.conf -> ../sysctl.conf): follows symlinks, but
 * still reads only a regular file, and never opens a FIFO or device. A link
 * to /dev/null (systemd's way to mask a file) reads as empty. *ret_st gets the
 * file's stat (to tell two names of one file apart). Returns the length,
 * -EFBIG when the file is larger, or a negative errno.
 */
struct stat;
ssize_t fileio_read_follow(const char *path, char *buf, size_t len, struct stat *ret_st);

/* What a negative errno from these functions means, for messages: -EBADFD is
 * "not a regular file", the rest strerror(). */
const char *fileio_strerror(int r);

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

/*
 * Opens a file of the kernel's (/proc, /sys) with flags | O_NONBLOCK |
 * O_CLOEXEC | O_NOCTTY and checks with fstat that it is a regular file, as
 * proc and sysfs files are (of size 0): a FIFO or device bound in its place
 * is never waited on. Returns the fd, -EBADFD when it is not a regular file,
 * or another negative errno.
 */
int fileio_open_kernel(const char *path, int flags);

/*
 * Whether st is what the daemon (root) may trust in its state directory: with
 * dir, a directory; otherwise a regular file with one link (a hard link would
 * let a truncate or write reach another name). Either must belong to root and
 * not be writable by group or others. Returns 0, or -EPERM with the reason in
 * why ("a FIFO, not a regular file", "owned by uid 1000, not by root", ...).
 */
int fileio_check_private(const struct stat *st, bool dir, char *why, size_t why_len);

#endif
