/* Unit tests for the STATUS= lines notify.c sends: a text is sent only when it
 * changes; a decision that keeps the value sends its text at most every
 * NOTIFY_REASON_MIN_S, and notify_kept_due says beforehand whether it would
 * (act() builds the text only then). NOTIFY_SOCKET names a datagram socket of
 * the test's own, read without waiting. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"
#include "notify.h"

#define S 1000000ull /* a second, in us */

static int sock = -1;
static char dir[] = "/tmp/test_notify.XXXXXX";
static char path[sizeof(dir) + 8];

/* The next message sent to the socket, or "" when none waits. */
static const char *
next_message(void)
{
	static char buf[512];
	ssize_t n = recv(sock, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	if (n < 0) {
		assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
		n = 0;
	}
	buf[n] = '\0';
	return buf;
}

static void
test_kept_due(void **state)
{
	struct notify_status n = { 0 };

	(void)state;
	assert_true(notify_kept_due(&n, 5 * S)); /* nothing sent yet */
	n.kept_sent = true;
	n.kept_us = 100 * S;
	assert_false(notify_kept_due(&n, 100 * S));
	assert_false(notify_kept_due(&n, (100 + NOTIFY_REASON_MIN_S) * S - 1));
	assert_true(notify_kept_due(&n, (100 + NOTIFY_REASON_MIN_S) * S));
	assert_true(notify_kept_due(&n, 99 * S)); /* a clock that went back does not hold it forever */
}

static void
test_kept_sent_at_most_every_min_s(void **state)
{
	struct notify_status n = { 0 };
	uint64_t t = 1000 * S;

	(void)state;
	notify_kept(&n, t, "swappiness %d (%s)", 23, "first");
	assert_string_equal(next_message(), "STATUS=swappiness 23 (first)");
	assert_false(notify_kept_due(&n, t + S));
	notify_kept(&n, t + S, "swappiness %d (%s)", 23, "second");
	assert_string_equal(next_message(), "");
	/* Due again, but the same text is not sent twice. */
	notify_kept(&n, t + NOTIFY_REASON_MIN_S * S, "swappiness %d (%s)", 23, "first");
	assert_string_equal(next_message(), "");
	assert_true(notify_kept_due(&n, t + NOTIFY_REASON_MIN_S * S));
	notify_kept(&n, t + NOTIFY_REASON_MIN_S * S, "swappiness %d (%s)", 23, "third");
	assert_string_equal(next_message(), "STATUS=swappiness 23 (third)");
	assert_false(notify_kept_due(&n, t + NOTIFY_REASON_MIN_S * S + 1));
	/* A write's status goes at once, whatever the kept texts' pace. */
	notify_status(&n, "swappiness %d (%s)", 45, "written");
	assert_string_equal(next_message(), "STATUS=swappiness 45 (written)");
	notify_status(&n, "swappiness %d (%s)", 45, "written");
	assert_string_equal(next_message(), "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_due),
		cmocka_unit_test(test_kept_sent_at_most_every_min_s),
	};
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int r;

	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/notify", dir);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror(path);
		return 1;
	}
	setenv("NOTIFY_SOCKET", path, 1);
	journal_init(JOURNAL_STDERR, false);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	close(sock);
	unlink(path);
	rmdir(dir);
	return r;
}
