/* Unit tests for fileio: reading a /proc file until end of file when each
 * read(2) returns only part of it.
 *
 * pread() is replaced here (this program's definition wins over the C
 * library's for fileio.c, linked in), to return short reads as /proc does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"

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

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_fileio.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pread_all_short_reads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
