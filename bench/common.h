/* What the small benchmark programs share: a monotonic clock in seconds, a
 * checked numeric argument, and a comparison for qsort of doubles. Header-only:
 * each program is built alone with `cc -static bench/NAME.c`. */
#ifndef AUTOSWAPPINESS_BENCH_COMMON_H
#define AUTOSWAPPINESS_BENCH_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Parses argument s (called name in messages) as a whole number in min..max,
 * or exits 1 with a message that starts with prog. */
static inline long
arg_range(const char *prog, const char *s, const char *name, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "%s: %s: expected %ld..%ld, got '%s'\n", prog, name, min, max, s);
		exit(1);
	}
	return v;
}

static inline int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
