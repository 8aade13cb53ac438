/* Unit tests for fileio: the atomic write in a directory someone else controls
 * (symlinks and FIFOs planted at the target and at temporary names), the
 * reads that refuse what is not a regular file, and reading a /proc file
 * until end of file when each read(2) returns only part of it, the removal
 * of a written file that follows no symlink either, and the sweep of the
 * temporary files a killed writer left.
 *
 * getrandom() and pread() are replaced here (this program's definitions win
 * over the C library's for fileio.c, linked in): the first to choose the
 * temporary names, the second to return short reads as /proc does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"

/* While fake_random_n > 0, getrandom() hands out these values in turn (the
 * last one again and again once they run out). */
static uint64_t fake_random[4];
static size_t fake_random_n, fake_random_next;

ssize_t
getrandom(void *buf, size_t len, unsigned flags)
{
	if (fake_random_n > 0 && len == sizeof(uint64_t)) {
		size_t i = fake_random_next < fake_random_n ? fake_random_next++ : fake_random_n - 1;

		memcpy(buf, &fake_random[i], sizeof(uint64_t));
		return (ssize_t)len;
	}
	return syscall(SYS_getrandom, buf, len, flags);
}

/* While pread_chunk > 0, pread() returns at most that many bytes a call. */
static size_t pread_chunk;
static unsigned pread_calls;

ssize_t
pread(int fd, void *buf, size_t count, off_t offset)
{
	pread_calls++;
	if (pread_chunk > 0 && count > pread_chunk)
		count = pread_chunk;
	return syscall(SYS_pread64, fd, buf, count, offset);
}

static char dir[64];
/* What the last failed write said (fileio_write_atomic's why). */
static char wbuf[PATH_MAX + 80];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_fileio.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	fake_random_n = fake_random_next = 0;
	pread_chunk = 0;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void
put(const char *name, const char *content, mode_t mode)
{
	char p[128];
	int fd;

	path_in(p, sizeof(p), name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

/* The content of dir/name, or "" when unreadable. */
static const char *
content(const char *name)
{
	static char buf[256];
	char p[128];
	ssize_t n;
	int fd;

	path_in(p, sizeof(p), name);
	buf[0] = '\0';
	fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	return buf;
}

static mode_t
mode_of(const char *name)
{
	struct stat st;
	char p[128];

	path_in(p, sizeof(p), name);
	assert_int_equal(lstat(p, &st), 0);
	return st.st_mode;
}

static unsigned
entries(void)
{
	char cmd[128];
	unsigned n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%u", &n), 1);
	pclose(f);
	return n;
}

static void
test_write_plain(void **state)
{
	char target[128];
	mode_t old = umask(077);

	(void)state;
	path_in(target, sizeof(target), "m.prom");
	assert_int_equal(fileio_write_atomic(target, "one\n", 4, 0644, wbuf, sizeof(wbuf)), 0);
	/* The mode as asked, whatever the umask. */
	assert_int_equal(mode_of("m.prom"), S_IFREG | 0644);
	assert_string_equal(content("m.prom"), "one\n");
	assert_int_equal(fileio_write_atomic(target, "two\n", 4, 0644, wbuf, sizeof(wbuf)), 0);
	assert_string_equal(content("m.prom"), "two\n");
	assert_int_equal(entries(), 1); /* no temporary file left */
	umask(old);
}

/* A symlink or FIFO at the target's name is replaced, never followed or opened. */
static void
test_write_over_planted_target(void **state)
{
	char target[128], secret[128];

	(void)state;
	put("secret", "root only\n", 0600);
	path_in(secret, sizeof(secret), "secret");
	path_in(target, sizeof(target), "m.prom");
	assert_int_equal(symlink(secret, target), 0);
	assert_int_equal(fileio_write_atomic(target, "metrics\n", 8, 0644, wbuf, sizeof(wbuf)), 0);
	assert_int_equal(mode_of("m.prom"), S_IFREG | 0644);
	assert_string_equal(content("m.prom"), "metrics\n");
	assert_string_equal(content("secret"), "root only\n");
	assert_int_equal(mode_of("secret"), S_IFREG | 0600);

	assert_int_equal(unlink(target), 0);
	assert_int_equal(mkfifo(target, 0644), 0);
	alarm(10); /* a blocked open would hang here: fail instead */
	assert_int_equal(fileio_write_atomic(target, "metrics\n", 8, 0644, wbuf, sizeof(wbuf)), 0);
	alarm(0);
	assert_int_equal(mode_of("m.prom"), S_IFREG | 0644);
	assert_int_equal(entries(), 2);
}

/* Whatever sits at a temporary name (the old fixed name, or the random name
 * chosen) is skipped: O_EXCL fails on it, another name is tried. */
static void
test_write_skips_planted_temp_names(void **state)
{
	char target[128], secret[128], planted[128];

	(void)state;
	put("secret", "root only\n", 0600);
	path_in(secret, sizeof(secret), "secret");
	path_in(target, sizeof(target), "m.prom");
	path_in(planted, sizeof(planted), "m.prom.tmp");
	assert_int_equal(symlink(secret, planted), 0);
	path_in(planted, sizeof(planted), ".m.prom.00000000000000aa.tmp");
	assert_int_equal(symlink(secret, planted), 0);
	path_in(planted, sizeof(planted), ".m.prom.00000000000000bb.tmp");
	assert_int_equal(mkfifo(planted, 0666), 0);
	fake_random[0] = 0xaa;
	fake_random[1] = 0xbb;
	fake_random[2] = 0xcc;
	fake_random_n = 3;
	alarm(10);
	assert_int_equal(fileio_write_atomic(target, "metrics\n", 8, 0644, wbuf, sizeof(wbuf)), 0);
	alarm(0);
	assert_int_equal(fake_random_next, 3); /* two names skipped, the third taken */
	assert_string_equal(content("m.prom"), "metrics\n");
	assert_int_equal(mode_of("m.prom"), S_IFREG | 0644);
	assert_string_equal(content("secret"), "root only\n");
	assert_int_equal(mode_of("secret"), S_IFREG | 0600);
	assert_true(S_ISLNK(mode_of(".m.prom.00000000000000aa.tmp")));
	assert_true(S_ISFIFO(mode_of(".m.prom.00000000000000bb.tmp")));
	assert_int_equal(entries(), 5); /* secret, 3 planted, m.prom */

	/* Every name taken: it gives up, and writes nothing anywhere. */
	fake_random[0] = 0xaa;
	fake_random_n = 1;
	fake_random_next = 0;
	assert_int_equal(fileio_write_atomic(target, "other\n", 6, 0644, wbuf, sizeof(wbuf)), -EEXIST);
	assert_string_equal(content("m.prom"), "metrics\n");
	assert_string_equal(content("secret"), "root only\n");
	assert_int_equal(entries(), 5);
}

/* Writing dir/rel fails with err, why says before, dir, after, and nothing is at dir/none
 * (unless NULL). */
static void
write_refused(const char *rel, int err, const char *before, const char *after, const char *none)
{
	char target[128], expect[256];

	path_in(target, sizeof(target), rel);
	assert_int_equal(fileio_write_atomic(target, "x\n", 2, 0644, wbuf, sizeof(wbuf)), err);
	snprintf(expect, sizeof(expect), "%s%s%s", before, dir, after);
	assert_string_equal(wbuf, expect);
	if (none) {
		path_in(target, sizeof(target), none);
		assert_int_equal(access(target, F_OK), -1);
	}
}

static void
test_write_refuses(void **state)
{
	char target[128], link[128], sub[128], expect[256];

	(void)state;
	/* The directory itself a symlink: not followed. */
	path_in(sub, sizeof(sub), "real");
	assert_int_equal(mkdir(sub, 0755), 0);
	path_in(link, sizeof(link), "link");
	assert_int_equal(symlink(sub, link), 0);
	write_refused("link/m.prom", -ENOTDIR, "its directory '", "/link' is a symbolic link, not followed",
		      "real/m.prom");
	/* A symlink higher up: refused as well (the collector's user may own the
	 * parent of the textfile's directory), and named. */
	path_in(sub, sizeof(sub), "real/sub");
	assert_int_equal(mkdir(sub, 0755), 0);
	write_refused("link/sub/m.prom", -ENOTDIR, "'", "/link', on its directory's path, is a symbolic link, not followed",
		      "real/sub/m.prom");
	/* A file on the way, and a missing directory, are named too. */
	put("file", "", 0600);
	write_refused("file/sub/m.prom", -ENOTDIR, "'", "/file', on its directory's path, is a regular file, not a directory",
		      NULL);
	snprintf(expect, sizeof(expect), "/gone', on its directory's path: %s", strerror(ENOENT));
	write_refused("gone/sub/m.prom", -ENOENT, "'", expect, NULL);
	/* A component longer than a name can be: refused before any lookup, and named. */
	{
		char longname[NAME_MAX + 2], lpath[PATH_MAX], lexpect[PATH_MAX + 128];

		memset(longname, 'd', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		snprintf(lpath, sizeof(lpath), "%s/%s/sub/m.prom", dir, longname);
		assert_int_equal(fileio_write_atomic(lpath, "x\n", 2, 0644, wbuf, sizeof(wbuf)), -ENAMETOOLONG);
		snprintf(lexpect, sizeof(lexpect), "'%s/%s', on its directory's path: %s", dir, longname,
			 strerror(ENAMETOOLONG));
		assert_string_equal(wbuf, lexpect);
	}
	/* Empty and "." components and the real directories: written. */
	snprintf(target, sizeof(target), "%s//real/./sub/m.prom", dir);
	assert_int_equal(fileio_write_atomic(target, "y\n", 2, 0644, wbuf, sizeof(wbuf)), 0);
	assert_string_equal(content("real/sub/m.prom"), "y\n");
	assert_int_equal(unlink(target), 0);
	path_in(sub, sizeof(sub), "real/sub");
	assert_int_equal(rmdir(sub), 0);
	path_in(sub, sizeof(sub), "file");
	assert_int_equal(unlink(sub), 0);
	path_in(target, sizeof(target), "real/m.prom");
	/* A directory at the target's name: an error, and no temporary file left. */
	assert_int_equal(mkdir(target, 0755), 0);
	assert_int_equal(fileio_write_atomic(target, "x\n", 2, 0644, wbuf, sizeof(wbuf)), -EISDIR);
	assert_int_equal(entries(), 2);
	path_in(target, sizeof(target), "real");
	snprintf(sub, sizeof(sub), "ls -A '%s/real' | grep -q tmp", dir);
	assert_int_not_equal(system(sub), 0);
	/* No name. */
	path_in(target, sizeof(target), "");
	assert_int_equal(fileio_write_atomic(target, "x\n", 2, 0644, wbuf, sizeof(wbuf)), -EISDIR);
}

static void
test_read(void **state)
{
	char p[128], buf[8], secret[128];

	(void)state;
	put("seven", "1234567", 0644);
	path_in(p, sizeof(p), "seven");
	assert_int_equal(fileio_read(p, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "1234567");
	put("eight", "12345678", 0644);
	path_in(p, sizeof(p), "eight");
	assert_int_equal(fileio_read(p, buf, sizeof(buf)), -EFBIG);
	/* A symlink is not followed, a FIFO not opened for long, a directory
	 * not read. */
	path_in(secret, sizeof(secret), "seven");
	path_in(p, sizeof(p), "link");
	assert_int_equal(symlink(secret, p), 0);
	assert_int_equal(fileio_read(p, buf, sizeof(buf)), -ELOOP);
	path_in(p, sizeof(p), "fifo");
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(10);
	assert_int_equal(fileio_read(p, buf, sizeof(buf)), -EBADFD);
	alarm(0);
	assert_string_equal(fileio_strerror(-EBADFD), "not a regular file");
	assert_int_equal(fileio_read(dir, buf, sizeof(buf)), -EISDIR);
	path_in(p, sizeof(p), "none");
	assert_int_equal(fileio_read(p, buf, sizeof(buf)), -ENOENT);
}

/* The read for others' configuration files: links followed to a regular
 * file, a link to /dev/null (systemd's mask) reads as empty, a FIFO or other
 * device is refused without blocking. */
static void
test_read_follow(void **state)
{
	char p[128], buf[8], target[128];
	struct stat st, want;

	(void)state;
	put("seven", "1234567", 0644);
	path_in(target, sizeof(target), "seven");
	path_in(p, sizeof(p), "link");
	assert_int_equal(symlink(target, p), 0);
	assert_int_equal(fileio_read_follow(p, buf, sizeof(buf), &st), 7);
	assert_string_equal(buf, "1234567");
	assert_int_equal(stat(target, &want), 0);
	assert_true(st.st_ino == want.st_ino && st.st_dev == want.st_dev);
	put("eight", "12345678", 0644);
	path_in(p, sizeof(p), "eight");
	assert_int_equal(fileio_read_follow(p, buf, sizeof(buf), &st), -EFBIG);
	path_in(p, sizeof(p), "masked");
	assert_int_equal(symlink("/dev/null", p), 0);
	buf[0] = 'x';
	assert_int_equal(fileio_read_follow(p, buf, sizeof(buf), &st), 0);
	assert_string_equal(buf, "");
	path_in(target, sizeof(target), "fifo");
	assert_int_equal(mkfifo(target, 0644), 0);
	path_in(p, sizeof(p), "fifo-link");
	assert_int_equal(symlink(target, p), 0);
	alarm(10);
	assert_int_equal(fileio_read_follow(p, buf, sizeof(buf), &st), -EBADFD);
	alarm(0);
	assert_int_equal(fileio_read_follow("/dev/zero", buf, sizeof(buf), &st), -EBADFD);
	assert_int_equal(fileio_read_follow(dir, buf, sizeof(buf), &st), -EISDIR);
	path_in(p, sizeof(p), "dangling");
	assert_int_equal(symlink("/nonexistent/x", p), 0);
	assert_int_equal(fileio_read_follow(p, buf, sizeof(buf), &st), -ENOENT);
}

/* A /proc file comes a page or so per read: the reader goes on to the end. */
static void
test_pread_all_short_reads(void **state)
{
	struct fileio_buf b = { 0 };
	char p[128], *text;
	size_t len = 10000;
	int fd;

	(void)state;
	text = malloc(len + 1);
	assert_non_null(text);
	for (size_t i = 0; i < len; i++)
		text[i] = (char)('a' + i % 26);
	text[len] = '\0';
	put("big", text, 0644);
	path_in(p, sizeof(p), "big");
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);

	pread_chunk = 100;
	pread_calls = 0;
	assert_int_equal(fileio_pread_all(fd, &b, 1024 * 1024), (ssize_t)len);
	assert_true(pread_calls >= len / 100);
	assert_string_equal(b.data, text);
	/* Again, into the buffer it grew: same result, no more growth. */
	size_t size = b.size;
	assert_int_equal(fileio_pread_all(fd, &b, 1024 * 1024), (ssize_t)len);
	assert_int_equal(b.size, size);
	assert_string_equal(b.data, text);
	/* Exactly max_bytes fits; one more does not. */
	assert_int_equal(fileio_pread_all(fd, &b, len), (ssize_t)len);
	assert_memory_equal(b.data, text, len);
	fileio_buf_free(&b);
	assert_int_equal(fileio_pread_all(fd, &b, len - 1), -EFBIG);
	fileio_buf_free(&b);
	/* Whole reads, as from a regular file. */
	pread_chunk = 0;
	assert_int_equal(fileio_pread_all(fd, &b, 1024 * 1024), (ssize_t)len);
	assert_string_equal(b.data, text);
	/* An empty file. */
	close(fd);
	put("empty", "", 0644);
	path_in(p, sizeof(p), "empty");
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fileio_pread_all(fd, &b, 1024 * 1024), 0);
	assert_string_equal(b.data, "");
	close(fd);
	fileio_buf_free(&b);
	assert_null(b.data);
	free(text);
}

/* A kernel file: a regular file opens (proc and sysfs files are regular, of
 * size 0); a FIFO bound in its place is refused without waiting for a writer,
 * as are a directory and a device. */
static void
test_open_kernel(void **state)
{
	char p[128];
	int fd;

	(void)state;
	put("meminfo", "MemTotal: 1 kB\n", 0644);
	path_in(p, sizeof(p), "meminfo");
	fd = fileio_open_kernel(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
	fd = fileio_open_kernel("/proc/self/stat", O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	path_in(p, sizeof(p), "fifo");
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(10); /* a blocked open would hang here: fail instead */
	assert_int_equal(fileio_open_kernel(p, O_RDONLY), -EBADFD);
	assert_int_equal(fileio_open_kernel(p, O_WRONLY | O_TRUNC), -ENXIO);
	alarm(0);
	assert_int_equal(fileio_open_kernel(dir, O_RDONLY), -EBADFD);
	assert_int_equal(fileio_open_kernel("/dev/null", O_RDONLY), -EBADFD);
	path_in(p, sizeof(p), "missing");
	assert_int_equal(fileio_open_kernel(p, O_RDONLY), -ENOENT);
}

/* What the daemon trusts in its state directory: a table of stat results. */
static void
test_check_private(void **state)
{
	static const struct {
		mode_t mode;
		uid_t uid;
		nlink_t nlink;
		bool dir;
		const char *why; /* NULL: trusted */
	} cases[] = {
		{ S_IFDIR | 0755, 0, 2, true, NULL },
		{ S_IFDIR | 0700, 0, 2, true, NULL },
		{ S_IFDIR | 0777, 0, 2, true, "mode 0777 lets group or others write it" },
		{ S_IFDIR | 01777, 0, 2, true, "mode 1777 lets group or others write it" },
		{ S_IFDIR | 0775, 0, 2, true, "mode 0775 lets group or others write it" },
		{ S_IFDIR | 0755, 65534, 2, true, "owned by uid 65534, not by root" },
		{ S_IFLNK | 0777, 0, 1, true, "a symbolic link, not a directory" },
		{ S_IFREG | 0644, 0, 1, true, "a regular file, not a directory" },
		{ S_IFREG | 0600, 0, 1, false, NULL },
		{ S_IFREG | 0644, 0, 1, false, NULL },
		{ S_IFREG | 0600, 0, 2, false, "2 hard links to it" },
		{ S_IFREG | 0646, 0, 1, false, "mode 0646 lets group or others write it" },
		{ S_IFREG | 0620, 0, 1, false, "mode 0620 lets group or others write it" },
		{ S_IFREG | 0600, 1000, 1, false, "owned by uid 1000, not by root" },
		{ S_IFIFO | 0600, 0, 1, false, "a FIFO, not a regular file" },
		{ S_IFLNK | 0777, 0, 1, false, "a symbolic link, not a regular file" },
		{ S_IFDIR | 0755, 0, 2, false, "a directory, not a regular file" },
		{ S_IFCHR | 0666, 0, 1, false, "a character device, not a regular file" },
		{ S_IFSOCK | 0755, 0, 1, false, "a socket, not a regular file" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct stat st = { .st_mode = cases[i].mode, .st_uid = cases[i].uid, .st_nlink = cases[i].nlink };
		char why[96] = "";
		int r = fileio_check_private(&st, cases[i].dir, why, sizeof(why));

		if (!cases[i].why) {
			if (r != 0)
				fail_msg("case %zu: refused (%s), want trusted", i, why);
			continue;
		}
		if (r != -EPERM || strcmp(why, cases[i].why) != 0)
			fail_msg("case %zu: %d '%s', want -EPERM '%s'", i, r, why, cases[i].why);
	}
}

/* Through a directory fd: the name is written in that directory, whatever its
 * path has become since, and a name with a slash is refused. */
static void
test_write_atomic_at(void **state)
{
	char a[128], b[128];
	int dfd;

	(void)state;
	path_in(a, sizeof(a), "a");
	path_in(b, sizeof(b), "b");
	assert_int_equal(mkdir(a, 0755), 0);
	dfd = open(a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(rename(a, b), 0);
	assert_int_equal(symlink(dir, a), 0);
	assert_int_equal(fileio_write_atomic_at(dfd, "state", "x=1\n", 4, 0644), 0);
	assert_string_equal(content("b/state"), "x=1\n");
	assert_string_equal(content("state"), "");
	assert_int_equal(fileio_write_atomic_at(dfd, "../state", "x\n", 2, 0644), -EISDIR);
	assert_int_equal(fileio_write_atomic_at(dfd, "..", "x\n", 2, 0644), -EISDIR);
	close(dfd);
}

/* The removal on exit or reload goes the way the write went: a directory that
 * is a symlink is refused, not followed to another directory's file of the
 * same name; only a regular file is removed. */
static void
test_remove(void **state)
{
	char target[128], other[256], link[128], why[256];

	(void)state;
	path_in(target, sizeof(target), "m.prom");
	assert_int_equal(fileio_write_atomic(target, "one\n", 4, 0644, wbuf, sizeof(wbuf)), 0);
	assert_int_equal(fileio_remove(target, why, sizeof(why)), 0);
	assert_int_equal(entries(), 0);
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -ENOENT);
	path_in(target, sizeof(target), "gone/m.prom");
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -ENOENT);

	/* The textfile's directory swapped for a link to one holding a file of that name. */
	path_in(other, sizeof(other), "other");
	assert_int_equal(mkdir(other, 0755), 0);
	put("other/m.prom", "root only\n", 0600);
	path_in(link, sizeof(link), "prom");
	assert_int_equal(symlink(other, link), 0);
	path_in(target, sizeof(target), "prom/m.prom");
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -ENOTDIR);
	assert_string_equal(content("other/m.prom"), "root only\n");
	snprintf(other, sizeof(other), "its directory '%s/prom' is a symbolic link, not followed", dir);
	assert_string_equal(why, other);
	/* Or a directory above it. */
	path_in(other, sizeof(other), "other/sub");
	assert_int_equal(mkdir(other, 0755), 0);
	put("other/sub/m.prom", "root only\n", 0600);
	path_in(target, sizeof(target), "prom/sub/m.prom");
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -ENOTDIR);
	assert_string_equal(content("other/sub/m.prom"), "root only\n");
	snprintf(other, sizeof(other), "'%s/prom', on its directory's path, is a symbolic link, not followed", dir);
	assert_string_equal(why, other);

	/* A symlink, FIFO or directory at the name is left in place. */
	put("secret", "root only\n", 0600);
	path_in(other, sizeof(other), "secret");
	path_in(target, sizeof(target), "m.prom");
	assert_int_equal(symlink(other, target), 0);
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -EBADFD);
	assert_string_equal(why, "a symbolic link, not a regular file: left in place");
	assert_true(S_ISLNK(mode_of("m.prom")));
	assert_string_equal(content("secret"), "root only\n");
	/* What the removal relies on should such a link replace the file after
	 * its fstatat: unlinkat removes the link, not what it points to. */
	assert_int_equal(unlinkat(AT_FDCWD, target, 0), 0);
	assert_string_equal(content("secret"), "root only\n");
	assert_int_equal(mkfifo(target, 0644), 0);
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -EBADFD);
	assert_string_equal(why, "a FIFO, not a regular file: left in place");
	assert_true(S_ISFIFO(mode_of("m.prom")));
	assert_int_equal(unlink(target), 0);
	assert_int_equal(mkdir(target, 0755), 0);
	assert_int_equal(fileio_remove(target, why, sizeof(why)), -EBADFD);
	assert_true(S_ISDIR(mode_of("m.prom")));
}

/* The names the atomic writes give their temporary files, and no other. */
static void
test_is_temp_name(void **state)
{
	static const struct {
		const char *name;
		bool temp;
	} cases[] = {
		{ ".state.0123456789abcdef.tmp", true },
		{ ".autoswappiness.prom.00000000000000aa.tmp", true },
		{ ".x.ffffffffffffffff.tmp", true },
		{ "..0123456789abcdef.tmp", false },	      /* no name */
		{ "state.0123456789abcdef.tmp", false },      /* not hidden */
		{ ".state.0123456789ABCDEF.tmp", false },     /* upper case: not ours */
		{ ".state.0123456789abcde.tmp", false },      /* 15 digits */
		{ ".state0123456789abcdef0.tmp", false },     /* no dot before the digits */
		{ ".state.0123456789abcdeg.tmp", false },     /* not hex */
		{ ".state.0123456789abcdef.tmpx", false },    /* another end */
		{ ".state.0123456789abcdef.TMP", false },
		{ ".state.0123456789abcdef", false },
		{ ".tmp", false },
		{ "", false },
		{ "m.prom.tmp", false },
		{ "state", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (fileio_is_temp_name(cases[i].name) != cases[i].temp)
			fail_msg("'%s': want %s", cases[i].name, cases[i].temp ? "a temporary name" : "not one");
	}
}

/* What a writer killed mid-write left is removed: regular files of the
 * temporary names only. A link of that name is removed as a link (its target
 * kept) or, here, left: only what an atomic write made is touched. */
static void
test_remove_temps(void **state)
{
	char secret[128], p[128], sub[128];
	unsigned removed = 99;
	int dfd;

	(void)state;
	/* The name a write tries is one the sweep knows: a FIFO planted there
	 * makes the write take the next suffix. */
	path_in(p, sizeof(p), ".a.0000000000005eed.tmp");
	assert_int_equal(mkfifo(p, 0600), 0);
	fake_random[0] = 0x5eed;
	fake_random[1] = 0x5eee;
	fake_random_n = 2;
	alarm(10);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(fileio_write_atomic_at(dfd, "a", "1\n", 2, 0600), 0);
	alarm(0);
	assert_int_equal(fake_random_next, 2);
	fake_random_n = 0;
	assert_true(fileio_is_temp_name(".a.0000000000005eed.tmp"));
	assert_int_equal(unlink(p), 0);

	put(".state.0123456789abcdef.tmp", "half a st", 0600);
	put(".original.00000000000000aa.tmp", "6", 0600);
	put("state", "whole\n", 0644);
	put("keep.tmp", "theirs\n", 0600);
	put("secret", "root only\n", 0600);
	path_in(secret, sizeof(secret), "secret");
	path_in(p, sizeof(p), ".lock.00000000000000bb.tmp");
	assert_int_equal(symlink(secret, p), 0);
	path_in(p, sizeof(p), ".yielded.00000000000000cc.tmp");
	assert_int_equal(mkfifo(p, 0600), 0);
	path_in(sub, sizeof(sub), ".written.00000000000000dd.tmp");
	assert_int_equal(mkdir(sub, 0700), 0);
	alarm(10); /* a FIFO opened would block */
	assert_int_equal(fileio_remove_temps(dfd, &removed), 0);
	alarm(0);
	assert_int_equal(removed, 2);
	assert_string_equal(content("state"), "whole\n");
	assert_string_equal(content("keep.tmp"), "theirs\n");
	assert_string_equal(content("secret"), "root only\n");
	assert_true(S_ISLNK(mode_of(".lock.00000000000000bb.tmp")));
	assert_true(S_ISFIFO(mode_of(".yielded.00000000000000cc.tmp")));
	assert_true(S_ISDIR(mode_of(".written.00000000000000dd.tmp")));
	assert_int_equal(entries(), 7); /* a, state, keep.tmp, secret, link, FIFO, directory */
	/* Nothing left to remove: 0, none. */
	assert_int_equal(fileio_remove_temps(dfd, &removed), 0);
	assert_int_equal(removed, 0);
	close(dfd);
	/* A descriptor that is no directory: the error, nothing removed. */
	path_in(p, sizeof(p), "state");
	dfd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(fileio_remove_temps(dfd, &removed), -ENOTDIR);
	assert_int_equal(removed, 0);
	close(dfd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_plain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_over_planted_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_skips_planted_temp_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_follow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pread_all_short_reads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_private, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_atomic_at, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
		cmocka_unit_test_setup_teardown(test_is_temp_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_temps, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
