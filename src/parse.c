#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *
skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int
parse_long(const char *s, long min, long max, long *ret_value)
{
	char *end;
	long v;

	s = skip_blanks(s);
	/* strtol would take a sign and leading spaces; we want plain digits, with an
	 * optional minus so that "-1" is reported as out of range, not garbage. */
	if (!isdigit((unsigned char)*s) && !(*s == '-' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	end = (char *)skip_blanks(end);
	if (*end == '\n')
		end++;
	if (*end != '\0')
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*ret_value = v;
	return 0;
}

int
parse_record_value(const char *s, int max, int *ret_value)
{
	long v = 0;
	size_t n = 0;

	while (isdigit((unsigned char)s[n])) {
		if (n == 9)
			return -ERANGE;
		v = v * 10 + (s[n] - '0');
		n++;
	}
	if (n == 0 || (s[0] == '0' && n > 1))
		return -EINVAL;
	if (s[n] == '\n')
		n++;
	if (s[n] != '\0')
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*ret_value = (int)v;
	return 0;
}

int
parse_bool(const char *s, bool *ret_value)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*ret_value = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*ret_value = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* Parses an unsigned decimal at *p, advancing *p. Returns 0 or -EINVAL/-ERANGE. */
static int
take_u64(const char **p, const char *end, uint64_t *ret)
{
	uint64_t v = 0;
	const char *s = *p;

	if (s >= end || !isdigit((unsigned char)*s))
		return -EINVAL;
	for (; s < end && isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*p = s;
	*ret = v;
	return 0;
}

/* Parses "NN.DD" (a PSI percentage, 0.00..100.00) into hundredths. */
static int
take_centipct(const char **p, const char *end, uint32_t *ret)
{
	uint64_t whole, frac;
	const char *s = *p, *frac_start;

	if (take_u64(&s, end, &whole) < 0 || whole > 100)
		return -EINVAL;
	if (s >= end || *s != '.')
		return -EINVAL;
	s++;
	frac_start = s;
	if (take_u64(&s, end, &frac) < 0 || s - frac_start != 2)
		return -EINVAL;
	if (whole * 100 + frac > 10000)
		return -EINVAL;
	*p = s;
	*ret = (uint32_t)(whole * 100 + frac);
	return 0;
}

static int
take_literal(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n) != 0)
		return -EINVAL;
	*p += n;
	return 0;
}

/* One PSI line after its "some"/"full" word:
 * " avg10=0.00 avg60=0.00 avg300=0.00 total=0" */
static int
parse_psi_line(const char *s, const char *end, uint32_t *ret_avg10, uint64_t *ret_total)
{
	uint32_t avg10, avg60, avg300;
	uint64_t total;

	if (take_literal(&s, end, " avg10=") < 0 || take_centipct(&s, end, &avg10) < 0 ||
	    take_literal(&s, end, " avg60=") < 0 || take_centipct(&s, end, &avg60) < 0 ||
	    take_literal(&s, end, " avg300=") < 0 || take_centipct(&s, end, &avg300) < 0 ||
	    take_literal(&s, end, " total=") < 0 || take_u64(&s, end, &total) < 0)
		return -EINVAL;
	if (s != end)
		return -EINVAL;
	*ret_avg10 = avg10;
	*ret_total = total;
	return 0;
}

int
parse_psi(const char *buf, size_t len, struct psi *ret)
{
	struct psi psi = { 0 };
	bool has_some = false;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol - p >= 4 && memcmp(p, "some", 4) == 0) {
			if (has_some || parse_psi_line(p + 4, eol, &psi.some_avg10_centipct, &psi.some_total_us) < 0)
				return -EINVAL;
			has_some = true;
		} else if (eol - p >= 4 && memcmp(p, "full", 4) == 0) {
			if (psi.has_full || parse_psi_line(p + 4, eol, &psi.full_avg10_centipct, &psi.full_total_us) < 0)
				return -EINVAL;
			psi.has_full = true;
		} else if (eol != p) {
			return -EINVAL;
		}
		p = nl ? nl + 1 : end;
	}
	if (!has_some)
		return -EINVAL;
	*ret = psi;
	return 0;
}

uint32_t
parse_keyed_u64(const char *buf, size_t len, const char *const *keys, size_t n, uint64_t *values)
{
	uint32_t found = 0;
	const char *p = buf, *end = buf + len;

	if (n > 32)
		n = 32;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		for (size_t i = 0; i < n; i++) {
			size_t klen = strlen(keys[i]);
			const char *v = p + klen + 1;
			uint64_t value;

			if ((size_t)(eol - p) <= klen + 1 || memcmp(p, keys[i], klen) != 0 || p[klen] != ' ')
				continue;
			if (take_u64(&v, eol, &value) == 0 && v == eol) {
				values[i] = value;
				found |= UINT32_C(1) << i;
			}
			break;
		}
		p = nl ? nl + 1 : end;
	}
	return found;
}

int
parse_swaps(const char *buf, size_t len, struct swaps *ret)
{
	struct swaps sw = { 0 };
	const char *p = buf, *end = buf + len;
	bool header = true;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		unsigned fields = 0;
		bool in_field = false;

		for (const char *q = p; q < eol; q++) {
			bool blank = *q == ' ' || *q == '\t';

			if (!blank && !in_field)
				fields++;
			in_field = !blank;
		}
		if (header) {
			if (eol - p < 8 || memcmp(p, "Filename", 8) != 0)
				return -EINVAL;
			header = false;
		} else if (fields > 0) {
			if (fields < 5)
				return -EINVAL;
			sw.devices++;
			if (eol - p > 9 && memcmp(p, "/dev/zram", 9) == 0)
				sw.zram++;
		}
		p = nl ? nl + 1 : end;
	}
	if (header)
		return -EINVAL;
	*ret = sw;
	return 0;
}

int
parse_kernel_release(const char *release, unsigned *ret_major, unsigned *ret_minor)
{
	const char *p = release, *end = release + strlen(release);
	uint64_t major, minor;

	if (take_u64(&p, end, &major) < 0 || p >= end || *p != '.')
		return -EINVAL;
	p++;
	if (take_u64(&p, end, &minor) < 0)
		return -EINVAL;
	if (major > 1000 || minor > 1000)
		return -EINVAL;
	*ret_major = (unsigned)major;
	*ret_minor = (unsigned)minor;
	return 0;
}

/* The value of one digit in base, or -1. */
static int
digit_value(char c, unsigned base)
{
	int v = -1;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	return v >= 0 && (unsigned)v < base ? v : -1;
}

int
parse_lru_gen_enabled(const char *buf, size_t len, uint32_t *ret_caps)
{
	const char *p = buf, *end = buf + len;
	unsigned base = 10;
	uint64_t v = 0;
	bool big = false;
	int d;

	/* lib/kstrtox.c: _parse_integer_fixup_radix, then _parse_integer. */
	if (p < end && *p == '+')
		p++;
	if (end - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit_value(p[2], 16) >= 0) {
		base = 16;
		p += 2;
	} else if (p < end && *p == '0') {
		base = 8;
	}
	if (p >= end || digit_value(*p, base) < 0)
		return -EINVAL;
	for (; p < end && (d = digit_value(*p, base)) >= 0; p++) {
		v = v * base + (unsigned)d;
		/* Keep reading to the end: trailing text is garbage, not overflow. */
		if (v > UINT32_MAX) {
			big = true;
			v = UINT32_MAX;
		}
	}
	if (p < end && *p == '\n')
		p++;
	if (p != end)
		return -EINVAL;
	if (big)
		return -ERANGE;
	*ret_caps = (uint32_t)v;
	return 0;
}

int
parse_swappiness_limit(unsigned major, unsigned minor)
{
	if (major > 5 || (major == 5 && minor >= 8))
		return 200;
	return 100;
}
