/* Unit tests for the lines journal.c writes to stderr once the daemon has
 * asked that they never wait (journal_stderr_never_block): a pipe whose reader
 * stalls costs lines, counted and then noted, never a wait; a line a short
 * write cut goes out whole before the next; the shared description of the
 * pipe keeps its flags; a regular file is appended to as before; a reader that
 * left costs the line, not the process; a DEBUG record is kept only when
 * verbose. fd 2 is a pipe or a file of the test's
 * own during each test, and put back after it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"
#include "policy.h"

/* A pipe's smallest size is one page; 4096 is the smallest page there is. */
#define SMALL_PIPE_BYTES 4096

struct fixture {
	int saved_stderr;
	int rd, wr; /* the pipe on fd 2 (wr: our copy of the description fd 2 was given) */
	char path[64];
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int p[2];

	assert_non_null(f);
	f->saved_stderr = dup(STDERR_FILENO);
	assert_true(f->saved_stderr >= 0);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	f->rd = p[0];
	f->wr = p[1];
	assert_int_equal(fcntl(f->wr, F_SETPIPE_SZ, SMALL_PIPE_BYTES), SMALL_PIPE_BYTES);
	assert_int_equal(dup2(f->wr, STDERR_FILENO), STDERR_FILENO);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	dup2(f->saved_stderr, STDERR_FILENO);
	close(f->saved_stderr);
	if (f->rd >= 0)
		close(f->rd);
	close(f->wr);
	if (f->path[0])
		unlink(f->path);
	free(f);
	return 0;
}

/* Reads what the pipe holds now, without waiting; returns its length. */
static size_t
drain(int rd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	while (used < len - 1 && (n = read(rd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	return used;
}

static void
test_stalled_pipe_drops_and_notes(void **state)
{
	struct fixture *f = *state;
	unsigned long long before = journal_not_taken(), lost;
	static char buf[4 * SMALL_PIPE_BYTES];
	char want[128];
	int i;

	journal_init(JOURNAL_STDERR, false);
	assert_int_equal(journal_stderr_never_block(), 0);
	assert_int_equal(fcntl(f->rd, F_SETFL, O_NONBLOCK), 0);
	/* fd 2 is a description of its own: the one it was given stays blocking. */
	assert_true(fcntl(STDERR_FILENO, F_GETFL) & O_NONBLOCK);
	assert_false(fcntl(f->wr, F_GETFL) & O_NONBLOCK);
	/* Nobody reads: the pipe fills up and the lines after that are dropped,
	 * each at once (a wait would hang this test). */
	for (i = 0; journal_not_taken() - before < 3; i++) {
		assert_true(i < 10000);
		journal_log(LOG_INFO, NULL, "line %d", i);
	}
	lost = journal_not_taken() - before;
	drain(f->rd, buf, sizeof(buf));
	assert_int_equal(strncmp(buf, "autoswappiness: info: line 0\n", 29), 0);
	/* Every line that went is whole: the last one ends the pipe's content. */
	assert_int_equal(buf[strlen(buf) - 1], '\n');
	/* The reader reads again: first the note of how many were lost. */
	journal_log(LOG_INFO, NULL, "after");
	drain(f->rd, buf, sizeof(buf));
	snprintf(want, sizeof(want),
		 "autoswappiness: warning: stderr did not keep up: %llu records dropped\nautoswappiness: info: after\n",
		 lost);
	assert_string_equal(buf, want);
	assert_int_equal(journal_not_taken() - before, lost);
	/* Once. */
	journal_log(LOG_INFO, NULL, "again");
	drain(f->rd, buf, sizeof(buf));
	assert_string_equal(buf, "autoswappiness: info: again\n");
}

/* A line longer than PIPE_BUF is not written atomically: into a pipe with
 * less room than that, write(2) takes part of it. The rest goes before the
 * next line, and the reader gets both whole. */
static void
test_short_write_keeps_line_whole(void **state)
{
	struct fixture *f = *state;
	unsigned long long before = journal_not_taken();
	static char buf[4 * SMALL_PIPE_BYTES], got[4 * SMALL_PIPE_BYTES], want[4 * SMALL_PIPE_BYTES];
	static char msg[4080 + 1];
	size_t used;

	assert_int_equal(fcntl(f->wr, F_SETPIPE_SZ, 2 * SMALL_PIPE_BYTES), 2 * SMALL_PIPE_BYTES);
	journal_init(JOURNAL_STDERR, false);
	assert_int_equal(journal_stderr_never_block(), 0);
	assert_int_equal(fcntl(f->rd, F_SETFL, O_NONBLOCK), 0);
	memset(buf, 'f', 6000);
	assert_int_equal(write(f->wr, buf, 6000), 6000);
	memset(msg, 'x', sizeof(msg) - 1);
	journal_log(LOG_NOTICE, NULL, "%s", msg);
	assert_int_equal(journal_not_taken() - before, 0);
	used = drain(f->rd, got, sizeof(got));
	assert_true(used > 6000 && used < 6000 + 24 + sizeof(msg));
	journal_log(LOG_INFO, NULL, "next");
	drain(f->rd, got + used, sizeof(got) - used);
	snprintf(want, sizeof(want), "%.6000sautoswappiness: notice: %s\nautoswappiness: info: next\n", buf, msg);
	assert_string_equal(got, want);
	assert_int_equal(journal_not_taken() - before, 0);
}

/* A regular file is not reopened (that would write from offset 0): records
 * are appended after what it held. */
static void
test_regular_file_appended(void **state)
{
	struct fixture *f = *state;
	char buf[256];
	int fd;
	ssize_t n;

	snprintf(f->path, sizeof(f->path), "/tmp/test_journal.XXXXXX");
	fd = mkstemp(f->path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "before\n", 7), 7);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	close(fd);
	journal_init(JOURNAL_STDERR, false);
	assert_int_equal(journal_stderr_never_block(), 0);
	assert_false(fcntl(STDERR_FILENO, F_GETFL) & O_NONBLOCK);
	journal_log(LOG_INFO, NULL, "appended");
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "before\nautoswappiness: info: appended\n");
}

/* The reader left: the line is lost and counted, the process lives on (the
 * daemon ignores SIGPIPE, as here). */
static void
test_reader_gone(void **state)
{
	struct fixture *f = *state;
	unsigned long long before = journal_not_taken();

	journal_init(JOURNAL_STDERR, false);
	assert_int_equal(journal_stderr_never_block(), 0);
	close(f->rd);
	f->rd = -1;
	journal_log(LOG_INFO, NULL, "nobody reads this");
	assert_int_equal(journal_not_taken() - before, 1);
}

/* A DEBUG record is kept only when verbose, and journal_wants says so first:
 * act() builds a kept decision's text only when someone will read it. */
static void
test_debug_only_when_verbose(void **state)
{
	struct fixture *f = *state;
	struct policy_result pr = { .app_centile = 45, .swap_centile = 50 };
	struct journal_decision jd = { .policy = "ck", .swappiness = 23, .previous = 23, .result = &pr,
				       .reason = "because" };
	char buf[SMALL_PIPE_BYTES];

	journal_init(JOURNAL_STDERR, false);
	assert_int_equal(journal_stderr_never_block(), 0);
	assert_int_equal(fcntl(f->rd, F_SETFL, O_NONBLOCK), 0);
	assert_false(journal_wants(LOG_DEBUG));
	assert_true(journal_wants(LOG_INFO));
	assert_true(journal_wants(LOG_ERR));
	journal_decision(LOG_DEBUG, NULL, &jd, "swappiness stays %d", 23);
	journal_log(LOG_DEBUG, NULL, "not kept either");
	assert_int_equal(drain(f->rd, buf, sizeof(buf)), 0);
	journal_set_verbose(true);
	assert_true(journal_wants(LOG_DEBUG));
	journal_decision(LOG_DEBUG, NULL, &jd, "swappiness stays %d", 23);
	drain(f->rd, buf, sizeof(buf));
	assert_non_null(strstr(buf, "autoswappiness: debug: swappiness stays 23 "));
	assert_non_null(strstr(buf, " APP_CENTILE=45 "));
	assert_non_null(strstr(buf, " REASON=because\n"));
	journal_set_verbose(false);
	assert_false(journal_wants(LOG_DEBUG));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stalled_pipe_drops_and_notes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_write_keeps_line_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_regular_file_appended, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_debug_only_when_verbose, setup, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
