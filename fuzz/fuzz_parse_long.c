/* libFuzzer target: parse_long, parse_bool and parse_kernel_release on a
 * NUL-terminated copy of the input in a buffer of exactly size + 1 bytes, so
 * that ASan catches any read past the terminator; parse_lru_gen_enabled on the
 * input as it is (it takes a length, as a read gives it). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The ranges config.c asks for, and the widest one. */
static const struct {
	long min, max;
} ranges[] = {
	{0, CONFIG_SWAPPINESS_MAX},    {1, CONFIG_SWAPPINESS_MAX},
	{0, CONFIG_SMOOTHING_MAX},     {CONFIG_INTERVAL_MS_MIN, CONFIG_INTERVAL_MS_MAX},
	{0, CONFIG_PSI_WINDOW_MS - 1}, {LONG_MIN, LONG_MAX},
};

/* Returns 0, -EINVAL or -ERANGE, fills caps only on success, and what the kernel
 * would print for that value parses back to it. */
static void
check_lru_gen_enabled(const uint8_t *data, size_t size)
{
	uint32_t caps = 0xa5a5a5a5, again = 0;
	char shown[16];
	int r = parse_lru_gen_enabled((const char *)data, size, &caps);

	if (r != 0) {
		if ((r != -EINVAL && r != -ERANGE) || caps != 0xa5a5a5a5)
			abort();
		return;
	}
	snprintf(shown, sizeof(shown), "0x%04x\n", (unsigned)caps);
	if (parse_lru_gen_enabled(shown, strlen(shown), &again) != 0 || again != caps)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned major = 0xa5a5, minor = 0xa5a5;
	char *s;
	bool b;
	int r;

	check_lru_gen_enabled(data, size);
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		long v = 0x5a5a5a5a;

		r = parse_long(s, ranges[i].min, ranges[i].max, &v);
		if (r == 0 && (v < ranges[i].min || v > ranges[i].max))
			abort();
		if (r != 0 && (r != -EINVAL && r != -ERANGE))
			abort();
		if (r != 0 && v != 0x5a5a5a5a)
			abort(); /* out-parameters are filled only on success */
	}

	r = parse_bool(s, &b);
	if (r != 0 && r != -EINVAL)
		abort();

	r = parse_kernel_release(s, &major, &minor);
	if (r == 0) {
		int limit = parse_swappiness_limit(major, minor);

		if (limit != 100 && limit != 200)
			abort();
	} else if (r != -EINVAL || major != 0xa5a5 || minor != 0xa5a5) {
		abort();
	}
	free(s);
	return 0;
}
