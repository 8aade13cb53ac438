/* libFuzzer target: the parsers for others who set vm.swappiness (coexist.c)
 * on arbitrary bytes in an exactly-sized buffer. The first byte picks one: a
 * sysctl.d file, a tuned.conf, the kernel command line, or tuned's walk through
 * includes where every profile is the input itself (loops, fan-out). Whatever
 * they report must be a value the kernel takes, a line that exists, and
 * profile names that are one safe path component. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coexist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *text;
static size_t text_len;
static unsigned loads;

static unsigned
lines_in(const char *s, size_t len)
{
	unsigned n = 1;

	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

static void
check_tuned(const struct coexist_tuned *t)
{
	if (t->n_includes > COEXIST_TUNED_INCLUDES)
		abort();
	for (size_t i = 0; i < t->n_includes; i++)
		if (!coexist_profile_name_ok(t->includes[i]) || strchr(t->includes[i], '/'))
			abort();
	if (t->has_value && (t->hit.value < 0 || t->hit.value > 200 || t->hit.line == 0 ||
			     t->hit.line > lines_in(text, text_len)))
		abort();
}

static int
load(void *userdata, const char *profile, struct coexist_tuned *ret, char *path, size_t path_len)
{
	(void)userdata;
	if (!coexist_profile_name_ok(profile))
		abort();
	loads++;
	snprintf(path, path_len, "/usr/lib/tuned/%s/tuned.conf", profile);
	coexist_parse_tuned(text, text_len, ret);
	check_tuned(ret);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coexist_hit hits[4];
	struct coexist_tuned t;
	struct coexist_finding f;
	char *buf;
	size_t n;
	int v;

	if (size < 1)
		return 0;
	buf = malloc(size - 1 + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	text = buf;
	text_len = size - 1;
	switch (data[0] % 4) {
	case 0:
		n = coexist_parse_sysctl(text, text_len, hits, 4);
		for (size_t i = 0; i < n && i < 4; i++)
			if (hits[i].value < 0 || hits[i].value > 200 || hits[i].line == 0 ||
			    hits[i].line > lines_in(text, text_len) || (i > 0 && hits[i].line <= hits[i - 1].line))
				abort();
		break;
	case 1:
		coexist_parse_tuned(text, text_len, &t);
		check_tuned(&t);
		break;
	case 2:
		if (coexist_parse_cmdline(text, text_len, &v) && (v < 0 || v > 200))
			abort();
		break;
	default:
		loads = 0;
		if (coexist_tuned_effective(text, text_len, load, NULL, &f) &&
		    (f.source != COEXIST_TUNED || f.value < 0 || f.value > 200))
			abort();
		/* Depth 3, at most 8 names at each level. */
		if (loads > 8 + 8 * 8 + 8 * 8 * 8)
			abort();
		break;
	}
	free(buf);
	return 0;
}
