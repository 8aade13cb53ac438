/*
 * probe: the responsiveness probe (seed 001, Fremlin). An interactive program with a small
 * working set: every INTERVAL_MS it wakes up and touches (reads and writes) each page of its
 * KIB of memory. Its latency is the time from the planned wake-up to the end of the touch,
 * so a late wake-up (the CPU or the scheduler starved) counts as well as a page brought back
 * from swap.
 *
 *   probe SECONDS KIB INTERVAL_MS
 *
 * Prints, at the end (or on SIGTERM/SIGINT), latencies in milliseconds with microseconds:
 *   RESULT probe_n=N probe_p50_ms=X probe_p99_ms=Y probe_max_ms=Z probe_over100_ms=K
 * where probe_over100_ms counts rounds slower than 100 ms. For p99 to be a percentile and
 * not nearly the maximum, N should be at least 1000 (an INTERVAL_MS of 10 over a 20 s run).
 */
#include "common.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int
main(int argc, char **argv)
{
	struct timespec next, now;
	long secs, kib, interval_ms, pages, n = 0, cap, over = 0;
	double *lat, t_end;
	char *mem;

	if (argc != 4) {
		fprintf(stderr, "usage: probe SECONDS KIB INTERVAL_MS\n");
		return 1;
	}
	secs = arg_range("probe", argv[1], "SECONDS", 1, 1L << 24);
	kib = arg_range("probe", argv[2], "KIB", 1, 1L << 30);
	interval_ms = arg_range("probe", argv[3], "INTERVAL_MS", 1, 3600000);
	pages = (kib * 1024 + PAGE - 1) / PAGE;
	cap = secs * 1000 / interval_ms + 16;
	mem = malloc((size_t)(pages * PAGE));
	lat = calloc((size_t)cap, sizeof(*lat));
	if (!mem || !lat) {
		fprintf(stderr, "probe: out of memory\n");
		return 1;
	}
	for (long p = 0; p < pages; p++)
		fill_page(mem + p * PAGE, (unsigned long)p);
	catch_stop("probe");

	clock_gettime(CLOCK_MONOTONIC, &next);
	t_end = ts_s(&next) + (double)secs;
	while (!stop && n < cap) {
		ts_add_ms(&next, interval_ms);
		if (ts_s(&next) > t_end)
			break;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR && stop)
			break;
		for (long p = 0; p < pages; p++)
			((volatile char *)mem)[p * PAGE] += 1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		lat[n] = (ts_s(&now) - ts_s(&next)) * 1000.0;
		if (lat[n] > 100.0)
			over++;
		n++;
		/* After an overrun, plan from now instead of firing a burst of late rounds. */
		if (ts_s(&now) > ts_s(&next))
			next = now;
	}
	if (n == 0) {
		printf("RESULT probe_n=0\n");
		return 1;
	}
	qsort(lat, (size_t)n, sizeof(*lat), cmp_double);
	printf("RESULT probe_n=%ld probe_p50_ms=%.3f probe_p99_ms=%.3f probe_max_ms=%.3f probe_over100_ms=%ld\n",
	       n, lat[(n - 1) / 2], lat[(n * 99 - 1) / 100], lat[n - 1], over);
	return 0;
}
