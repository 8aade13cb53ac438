/* Unit tests for textbuf: appends, the exact fit, overflow remembered, len 0. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "textbuf.h"

static void
test_appends(void **state)
{
	char buf[32];
	struct textbuf t = textbuf_init(buf, sizeof(buf));

	(void)state;
	assert_string_equal(buf, "");
	assert_int_equal(textbuf_end(&t), 0);
	textbuf_put(&t, "swappiness %d", 60);
	textbuf_put(&t, "%s", "");
	textbuf_put(&t, " -> %s\n", "100");
	assert_string_equal(buf, "swappiness 60 -> 100\n");
	assert_int_equal(textbuf_end(&t), (int)strlen("swappiness 60 -> 100\n"));
}

/* len - 1 characters fit (the NUL takes the last byte); len do not. */
static void
test_exact_fit(void **state)
{
	char buf[8];
	struct textbuf t = textbuf_init(buf, sizeof(buf));

	(void)state;
	textbuf_put(&t, "%s", "1234567");
	assert_int_equal(textbuf_end(&t), 7);
	assert_string_equal(buf, "1234567");

	t = textbuf_init(buf, sizeof(buf));
	textbuf_put(&t, "%s", "12345678");
	assert_int_equal(textbuf_end(&t), -ENOBUFS);
}

/* After an overflow, even an append that would fit is dropped: the text never
 * has a hole in the middle. */
static void
test_overflow_sticks(void **state)
{
	char buf[8];
	struct textbuf t = textbuf_init(buf, sizeof(buf));

	(void)state;
	textbuf_put(&t, "abc");
	textbuf_put(&t, "%s", "defghij");
	assert_true(t.overflow);
	assert_int_equal(t.used, 3);
	textbuf_put(&t, "x");
	assert_int_equal(t.used, 3);
	assert_int_equal(textbuf_end(&t), -ENOBUFS);
}

static void
test_zero_length(void **state)
{
	char buf[1] = { 'z' };
	struct textbuf t = textbuf_init(buf, 0);

	(void)state;
	assert_int_equal(buf[0], 'z');
	textbuf_put(&t, "%s", "");
	assert_int_equal(textbuf_end(&t), -ENOBUFS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_exact_fit),
		cmocka_unit_test(test_overflow_sticks),
		cmocka_unit_test(test_zero_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
