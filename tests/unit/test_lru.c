/* Unit tests for src/lru.c: what a read of /sys/kernel/mm/lru_gen/enabled
 * means (a missing file is classic, garbage is taken as classic), and which
 * kernel releases are kept. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lru.h"

static void
test_classify_table(void **state)
{
	static const struct {
		ssize_t r; /* the read's length or a negative errno */
		const char *buf;
		enum lru_kind kind;
		enum lru_source source;
		uint32_t caps;
		int err;
	} cases[] = {
		{7, "0x0007\n", LRU_MGLRU, LRU_SOURCE_FILE, 0x7, 0},
		{7, "0x0001\n", LRU_MGLRU, LRU_SOURCE_FILE, 0x1, 0},
		{7, "0x0000\n", LRU_CLASSIC, LRU_SOURCE_FILE, 0x0, 0},
		/* The optional parts without the core: still the classic LRU. */
		{7, "0x0006\n", LRU_CLASSIC, LRU_SOURCE_FILE, 0x6, 0},
		{2, "1\n", LRU_MGLRU, LRU_SOURCE_FILE, 0x1, 0},
		{-ENOENT, "", LRU_CLASSIC, LRU_SOURCE_ABSENT, 0, 0},
		{0, "", LRU_CLASSIC, LRU_SOURCE_BAD, 0, -EINVAL},
		{8, "garbage\n", LRU_CLASSIC, LRU_SOURCE_BAD, 0, -EINVAL},
		{11, "4294967296\n", LRU_CLASSIC, LRU_SOURCE_BAD, 0, -ERANGE},
		{-EFBIG, "", LRU_CLASSIC, LRU_SOURCE_BAD, 0, -EFBIG},
		{-EBADFD, "", LRU_CLASSIC, LRU_SOURCE_BAD, 0, -EBADFD},
		{-EACCES, "", LRU_CLASSIC, LRU_SOURCE_BAD, 0, -EACCES},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lru_info info;

		memset(&info, 0xa5, sizeof(info));
		lru_classify(cases[i].r, cases[i].buf, &info);
		if (info.kind != cases[i].kind || info.source != cases[i].source || info.caps != cases[i].caps ||
		    info.err != cases[i].err)
			fail_msg("case %zu: kind %d source %d caps %#x err %d", i, info.kind, info.source,
				 (unsigned)info.caps, info.err);
	}
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(lru_name(LRU_CLASSIC), "classic");
	assert_string_equal(lru_name(LRU_MGLRU), "mglru");
}

static void
test_release(void **state)
{
	static const char *const good[] = {"6.12.57+deb13-amd64\n", "6.1.0-27-amd64", "6.18.44-fc-v1272\n"};
	static const char *const bad[] = {"", "\n", "6.1 0", "6.1\t0", "6.1\"0", "6.1\\0", "6.1\n0", "\x01"};
	struct lru_info info = {0};
	char longest[LRU_RELEASE_BYTES + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(lru_set_release(&info, good[i], strlen(good[i])), 0);
		assert_int_equal(strncmp(info.release, good[i], strlen(info.release)), 0);
		assert_int_equal(strcspn(good[i], "\n"), strlen(info.release));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(lru_set_release(&info, bad[i], strlen(bad[i])), -EINVAL);
		assert_string_equal(info.release, "6.18.44-fc-v1272"); /* left alone */
	}
	/* 64 characters fit (utsname's 65 bytes with the NUL), 65 do not. */
	memset(longest, 'a', sizeof(longest));
	assert_int_equal(lru_set_release(&info, longest, LRU_RELEASE_BYTES), -EINVAL);
	assert_int_equal(lru_set_release(&info, longest, LRU_RELEASE_BYTES - 1), 0);
	assert_int_equal(strlen(info.release), LRU_RELEASE_BYTES - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_table),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
