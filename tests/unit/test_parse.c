/* Unit tests for the small parsers: garbage, truncation, overflow, trailing text. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "parse.h"

static void
test_parse_long_table(void **state)
{
	static const struct {
		const char *in;
		long min, max;
		int ret;
		long value;
	} cases[] = {
		{ "0", 0, 200, 0, 0 },
		{ "200", 0, 200, 0, 200 },
		{ "201", 0, 200, -ERANGE, 0 },
		{ "-1", 0, 200, -ERANGE, 0 },
		{ " 42 ", 0, 200, 0, 42 },
		{ "\t7\n", 0, 200, 0, 7 },
		{ "42\n\n", 0, 200, -EINVAL, 0 },
		{ "", 0, 200, -EINVAL, 0 },
		{ " ", 0, 200, -EINVAL, 0 },
		{ "abc", 0, 200, -EINVAL, 0 },
		{ "12abc", 0, 200, -EINVAL, 0 },
		{ "12 34", 0, 200, -EINVAL, 0 },
		{ "+5", 0, 200, -EINVAL, 0 },
		{ "0x10", 0, 200, -EINVAL, 0 },
		{ "1.5", 0, 200, -EINVAL, 0 },
		{ "99999999999999999999999", 0, 200, -ERANGE, 0 },
		{ "-99999999999999999999999", 0, 200, -ERANGE, 0 },
		{ "3600000", 100, 3600000, 0, 3600000 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long v = -12345;
		int r = parse_long(cases[i].in, cases[i].min, cases[i].max, &v);

		if (r != cases[i].ret)
			fail_msg("parse_long('%s') = %d, want %d", cases[i].in, r, cases[i].ret);
		if (r == 0)
			assert_int_equal(v, cases[i].value);
		else
			assert_int_equal(v, -12345); /* untouched on failure */
	}
}

/* A record of the daemon's: only what it writes ("%d\n"); the " 7 " an old
 * parser took (and restored at exit) is refused. */
static void
test_parse_record_value_table(void **state)
{
	static const struct {
		const char *in;
		int ret, value;
	} cases[] = {
		{ "0\n", 0, 0 },	  { "7\n", 0, 7 },	  { "200\n", 0, 200 },	 { "60", 0, 60 },
		{ " 7 \n", -EINVAL, 0 },  { " 7", -EINVAL, 0 },	  { "7 ", -EINVAL, 0 },	 { "7\t", -EINVAL, 0 },
		{ "+7", -EINVAL, 0 },	  { "-7", -EINVAL, 0 },	  { "07", -EINVAL, 0 },	 { "00", -EINVAL, 0 },
		{ "7x", -EINVAL, 0 },	  { "7\n\n", -EINVAL, 0 }, { "7\n8", -EINVAL, 0 }, { "\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 },	  { "0x10", -EINVAL, 0 }, { "201\n", -ERANGE, 0 }, { "999999999", -ERANGE, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int v = -1;
		int r = parse_record_value(cases[i].in, 200, &v);

		if (r != cases[i].ret)
			fail_msg("parse_record_value('%s') = %d, want %d", cases[i].in, r, cases[i].ret);
		if (r == 0 && v != cases[i].value)
			fail_msg("parse_record_value('%s') gave %d, want %d", cases[i].in, v, cases[i].value);
		if (r < 0 && v != -1)
			fail_msg("parse_record_value('%s') set the value on failure", cases[i].in);
	}
}

static void
test_parse_bool_table(void **state)
{
	static const char *const yes[] = { "yes", "YES", "true", "on", "1" };
	static const char *const no[] = { "no", "False", "off", "0" };
	static const char *const bad[] = { "", "y", "2", "yes ", "nope" };
	bool v;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		v = false;
		assert_int_equal(parse_bool(yes[i], &v), 0);
		assert_true(v);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		v = true;
		assert_int_equal(parse_bool(no[i], &v), 0);
		assert_false(v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_bool(bad[i], &v), -EINVAL);
}

static int
psi(const char *s, struct psi *out)
{
	return parse_psi(s, strlen(s), out);
}

static void
test_parse_psi_good(void **state)
{
	struct psi p;

	(void)state;
	assert_int_equal(psi("some avg10=12.34 avg60=1.00 avg300=0.05 total=123456789\n"
			     "full avg10=3.50 avg60=0.00 avg300=0.00 total=42\n",
			     &p),
			 0);
	assert_int_equal(p.some_avg10_centipct, 1234);
	assert_int_equal(p.some_total_us, 123456789);
	assert_true(p.has_full);
	assert_int_equal(p.full_avg10_centipct, 350);
	assert_int_equal(p.full_total_us, 42);

	/* Only "some" (as /proc/pressure/cpu on old kernels), no trailing newline. */
	assert_int_equal(psi("some avg10=100.00 avg60=0.00 avg300=0.00 total=18446744073709551615", &p), 0);
	assert_int_equal(p.some_avg10_centipct, 10000);
	assert_int_equal(p.some_total_us, UINT64_MAX);
	assert_false(p.has_full);
}

static void
test_parse_psi_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",	 /* no some */
		"some avg10=0.00 avg60=0.00 avg300=0.00\n",		 /* truncated */
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=\n",	 /* empty number */
		"some avg10=0.0 avg60=0.00 avg300=0.00 total=1\n",	 /* one decimal */
		"some avg10=101.00 avg60=0.00 avg300=0.00 total=1\n",	 /* over 100% */
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1 x\n",	 /* trailing text */
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551616\n", /* overflow */
		"some avg10=-1.00 avg60=0.00 avg300=0.00 total=1\n",
		"some  avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",	 /* double space */
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1\ngarbage\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=x avg60=0.00 avg300=0.00 total=1\n",
	};
	struct psi p;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (psi(bad[i], &p) != -EINVAL)
			fail_msg("parse_psi accepted case %zu: '%s'", i, bad[i]);
}

static void
test_parse_psi_length_bounds(void **state)
{
	/* The parser must not read past len even without a NUL. */
	char buf[64];
	struct psi p;
	const char *s = "some avg10=1.00 avg60=0.00 avg300=0.00 total=567";

	(void)state;
	memset(buf, '9', sizeof(buf)); /* digits after len would extend the number */
	memcpy(buf, s, strlen(s));
	assert_int_equal(parse_psi(buf, strlen(s), &p), 0);
	assert_int_equal(p.some_total_us, 567);
	assert_int_equal(parse_psi(buf, strlen(s) - 2, &p), 0);
	assert_int_equal(p.some_total_us, 5);
	/* Cut right after "total=": no digits is an error, not zero. */
	assert_int_equal(parse_psi(buf, strlen(s) - 3, &p), -EINVAL);
}

static void
test_parse_keyed(void **state)
{
	static const char *const keys[] = { "workingset_refault_anon", "workingset_refault_file", "pswpin" };
	const char *buf = "nr_free_pages 100\n"
			  "workingset_refault_anon_extra 9\n" /* a longer key must not match */
			  "workingset_refault_anon 12\n"
			  "xworkingset_refault_file 1\n" /* must match at line start */
			  "workingset_refault_file 34\n"
			  "pswpin 1x\n"; /* malformed value: not found */
	uint64_t v[3] = { 0, 0, 0 };

	(void)state;
	assert_int_equal(parse_keyed_u64(buf, strlen(buf), keys, 3, v), 3);
	assert_int_equal(v[0], 12);
	assert_int_equal(v[1], 34);
	assert_int_equal(v[2], 0);

	assert_int_equal(parse_keyed_u64("", 0, keys, 3, v), 0);
	assert_int_equal(parse_keyed_u64("pswpin 99999999999999999999999\n", 31, keys, 3, v), 0);
	/* Truncated in the middle of a value: what is there is parsed. */
	assert_int_equal(parse_keyed_u64("pswpin 123", 8, keys, 3, v), 4);
	assert_int_equal(v[2], 1);
}

static void
test_parse_kernel_release(void **state)
{
	static const struct {
		const char *release;
		int ret;
		unsigned major, minor;
		int limit;
	} cases[] = {
		{ "6.18.44-fc-v782", 0, 6, 18, 200 },
		{ "5.8.0", 0, 5, 8, 200 },
		{ "5.7.19-generic", 0, 5, 7, 100 },
		{ "4.19.0-21-amd64", 0, 4, 19, 100 },
		{ "2.6.0-test9", 0, 2, 6, 100 },
		{ "10.0", 0, 10, 0, 200 },
		{ "", -EINVAL, 0, 0, 0 },
		{ "6", -EINVAL, 0, 0, 0 },
		{ "6.", -EINVAL, 0, 0, 0 },
		{ "x.y", -EINVAL, 0, 0, 0 },
		{ "99999999999999999999.1", -EINVAL, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned major = 0, minor = 0;
		int r = parse_kernel_release(cases[i].release, &major, &minor);

		if (r != cases[i].ret)
			fail_msg("parse_kernel_release('%s') = %d", cases[i].release, r);
		if (r == 0) {
			assert_int_equal(major, cases[i].major);
			assert_int_equal(minor, cases[i].minor);
			assert_int_equal(parse_swappiness_limit(major, minor), cases[i].limit);
		}
	}
}

static void
test_parse_swaps(void **state)
{
	static const struct {
		const char *in;
		int ret;
		unsigned devices, zram;
	} cases[] = {
		{ "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", 0, 0, 0 },
		{ "Filename Type Size Used Priority\n/dev/vdb partition 1048572 0 -2\n", 0, 1, 0 },
		{ "Filename Type Size Used Priority\n/dev/zram0 partition 4194300 12 100\n"
		  "/swapfile file 1048572 0 -2\n",
		  0, 2, 1 },
		{ "Filename Type Size Used Priority\n/dev/zram0 partition 4194300 12 100\n/dev/zram1 partition 1 0 5",
		  0, 2, 2 },
		{ "", -EINVAL, 0, 0 },
		{ "/dev/vdb partition 1048572 0 -2\n", -EINVAL, 0, 0 }, /* no header */
		{ "Filename Type Size Used Priority\n/dev/vdb partition\n", -EINVAL, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct swaps sw = { 99, 99 };
		int r = parse_swaps(cases[i].in, strlen(cases[i].in), &sw);

		if (r != cases[i].ret)
			fail_msg("parse_swaps case %zu = %d", i, r);
		if (r == 0) {
			assert_int_equal(sw.devices, cases[i].devices);
			assert_int_equal(sw.zram, cases[i].zram);
		} else {
			assert_int_equal(sw.devices, 99);
		}
	}
}

/* /sys/kernel/mm/lru_gen/enabled: what enabled_show prints ("0x%04x\n"), the numbers
 * enabled_store takes (kstrtouint base 0), and what neither does. */
static void
test_parse_lru_gen_enabled_table(void **state)
{
	static const struct {
		const char *in;
		size_t len; /* 0: strlen(in) */
		int ret;
		uint32_t caps;
	} cases[] = {
		{ "0x0000\n", 0, 0, 0x0 },
		{ "0x0001\n", 0, 0, 0x1 },
		{ "0x0007\n", 0, 0, 0x7 },
		{ "0x0005\n", 0, 0, 0x5 },
		{ "0x000f\n", 0, 0, 0xf }, /* 6.11+: a fourth cap */
		{ "0x0007", 0, 0, 0x7 },
		{ "0X00FF\n", 0, 0, 0xff },
		{ "7\n", 0, 0, 7 },     /* decimal, as written to it */
		{ "0\n", 0, 0, 0 },
		{ "+1\n", 0, 0, 1 },
		{ "010\n", 0, 0, 8 },   /* octal after a leading 0 */
		{ "4294967295\n", 0, 0, UINT32_MAX },
		{ "0xffffffff\n", 0, 0, UINT32_MAX },
		{ "4294967296\n", 0, -ERANGE, 0 },
		{ "0x100000000\n", 0, -ERANGE, 0 },
		{ "99999999999999999999999999\n", 0, -ERANGE, 0 },
		{ "", 0, -EINVAL, 0 },
		{ "\n", 0, -EINVAL, 0 },
		{ "0x\n", 0, -EINVAL, 0 },
		{ "0x0007\n\n", 0, -EINVAL, 0 },
		{ "0x0007 \n", 0, -EINVAL, 0 },
		{ " 0x0007\n", 0, -EINVAL, 0 },
		{ "0x0007 trailing\n", 0, -EINVAL, 0 },
		{ "99999999999999999999999999x\n", 0, -EINVAL, 0 }, /* garbage, not overflow */
		{ "08\n", 0, -EINVAL, 0 },
		{ "0xg\n", 0, -EINVAL, 0 },
		{ "-1\n", 0, -EINVAL, 0 },
		{ "y\n", 0, -EINVAL, 0 }, /* taken on write, never printed */
		{ "N\n", 0, -EINVAL, 0 },
		{ "garbage\x01\x02", 0, -EINVAL, 0 },
		{ "0x0007\0", 7, -EINVAL, 0 },
		{ "\0\0\0", 3, -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
		uint32_t caps = 12345;
		int r = parse_lru_gen_enabled(cases[i].in, len, &caps);

		if (r != cases[i].ret)
			fail_msg("parse_lru_gen_enabled(case %zu) = %d, want %d", i, r, cases[i].ret);
		assert_int_equal(caps, r == 0 ? cases[i].caps : 12345); /* untouched on failure */
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_long_table), cmocka_unit_test(test_parse_record_value_table),     cmocka_unit_test(test_parse_bool_table),
		cmocka_unit_test(test_parse_psi_good),	     cmocka_unit_test(test_parse_psi_bad),
		cmocka_unit_test(test_parse_psi_length_bounds), cmocka_unit_test(test_parse_keyed),
		cmocka_unit_test(test_parse_kernel_release), cmocka_unit_test(test_parse_swaps),
		cmocka_unit_test(test_parse_lru_gen_enabled_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
