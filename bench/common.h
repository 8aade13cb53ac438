/* What the small benchmark programs share: the page size they touch memory by,
 * a stop flag set by SIGTERM/SIGINT, timespec arithmetic and a monotonic clock
 * in seconds, a checked numeric argument, a comparison for qsort of doubles, and
 * the page contents they write (compressible like program memory). Header-only:
 * each program is built alone with `cc -static bench/NAME.c`. */
#ifndef AUTOSWAPPINESS_BENCH_COMMON_H
#define AUTOSWAPPINESS_BENCH_COMMON_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The page size the programs write by: one word per page faults the page in. */
#define PAGE 4096L

/* Set by SIGTERM or SIGINT once catch_stop() is in place. */
static volatile sig_atomic_t stop;

static void
on_stop_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* SIGTERM and SIGINT set stop instead of killing: the program prints its
 * figures first. No SA_RESTART, so that a sleep returns EINTR at once.
 * Exits 1 with a message starting with prog if the handler cannot be set. */
static inline void
catch_stop(const char *prog)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) != 0 || sigaction(SIGINT, &sa, NULL) != 0) {
		fprintf(stderr, "%s: sigaction: %s\n", prog, strerror(errno));
		exit(1);
	}
}

static inline double
ts_s(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

/* Moves *ts ms milliseconds on: the next wake-up of a periodic loop. */
static inline void
ts_add_ms(struct timespec *ts, long ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_nsec -= 1000000000L;
		ts->tv_sec++;
	}
}

static inline double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_s(&ts);
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

/* Fills one page with contents that compress about 3:1 (lz4 on 4 KiB pages of
 * it: 2.98), the ratio usually quoted for program memory under zram: in every
 * 64-byte line, 16 pseudo-random bytes and 48 zero bytes. Seed makes pages
 * differ. A same-filled page (one word repeated, as memset writes) would cost
 * zram nothing at all: it keeps such a page as one word, so a swap to zram of
 * memset memory measures nothing. On a disk swap the contents make no
 * difference. */
static inline void
fill_page(char *page, unsigned long seed)
{
	unsigned long x = seed * 0x9E3779B97F4A7C15UL + 0x2545F4914F6CDD1DUL;

	if (x == 0) /* xorshift stays at 0 once there */
		x = 1;
	for (long off = 0; off < PAGE; off += 64) {
		unsigned long *w = (unsigned long *)(page + off);

		/* xorshift64: cheap under TCG */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[0] = x;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[1] = x;
		memset(w + 2, 0, 48);
	}
}

static inline int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
