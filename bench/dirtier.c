/*
 * dirtier: Andrea Arcangeli's 1999 benchmark (seed 003): allocate a working set
 * in 1 MiB chunks and write every byte of every chunk, pass after pass; with a
 * working set larger than RAM every pass goes through swap. The bytes written
 * compress about 3:1 (fill_page in common.h), so that a zram swap stores them
 * as it would program memory rather than as free same-filled pages. Prints the
 * seconds each pass took, then the whole run, the first pass (which also
 * faults the memory in) and the median of the others.
 *
 *   dirtier MIB PASSES [SECONDS]
 *
 * With SECONDS it stops after that long (SIGALRM, seen at the next page: under
 * thrashing one 1 MiB chunk took 30 s), or on SIGTERM/SIGINT, with the passes
 * done so far. Last lines:
 *   "dirtier: wrote W MiB in T s"
 *   "dirtier: MIB MiB, P passes: total T s, first F s, median of passes 2..N M s"
 * (P the passes completed, the last only when at least one was; M is F when P is 1).
 * Exit status: 0, or 1 with a message (allocation failure, bad argument).
 */
#include "common.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define CHUNK_BYTES (1024 * 1024)

int
main(int argc, char **argv)
{
	long mib, passes;
	char **chunks;
	double *secs, total = 0;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: dirtier MIB PASSES [SECONDS]\n");
		return 1;
	}
	mib = arg_range("dirtier", argv[1], "MIB", 1, 1L << 20);
	passes = arg_range("dirtier", argv[2], "PASSES", 1, 100000);
	double t_start = now_s();
	long written = 0, done = 0;

	catch_stop("dirtier");
	if (argc == 4) {
		struct itimerval it = { .it_value = { .tv_sec = arg_range("dirtier", argv[3], "SECONDS", 1, 1L << 24) } };

		if (sigaction(SIGALRM, &(struct sigaction){ .sa_handler = on_stop_signal }, NULL) != 0 ||
		    setitimer(ITIMER_REAL, &it, NULL) != 0) {
			fprintf(stderr, "dirtier: cannot arm the timer: %s\n", strerror(errno));
			return 1;
		}
	}
	chunks = calloc((size_t)mib, sizeof(*chunks));
	secs = calloc((size_t)passes, sizeof(*secs));
	if (!chunks || !secs) {
		fprintf(stderr, "dirtier: out of memory\n");
		return 1;
	}
	for (long i = 0; i < mib; i++) {
		chunks[i] = malloc(CHUNK_BYTES);
		if (!chunks[i]) {
			fprintf(stderr, "dirtier: cannot allocate chunk %ld of %ld MiB\n", i, mib);
			return 1;
		}
	}
	for (long p = 0; p < passes && !stop; p++) {
		double t0 = now_s();
		long i;

		for (i = 0; i < mib && !stop; i++) {
			for (long off = 0; off < CHUNK_BYTES && !stop; off += PAGE)
				fill_page(chunks[i] + off, ((unsigned long)p << 40) ^ ((unsigned long)i << 8) ^
								   (unsigned long)(off / PAGE));
			if (!stop)
				written++;
		}
		if (stop) /* a pass cut short is no pass */
			break;
		secs[p] = now_s() - t0;
		total += secs[p];
		done++;
		printf("pass %ld: %.3f s\n", p + 1, secs[p]);
		fflush(stdout);
	}
	printf("dirtier: wrote %ld MiB in %.3f s\n", written, now_s() - t_start);
	if (done == 0)
		return 0;
	double first = secs[0], median = first;

	if (done > 1) {
		qsort(secs + 1, (size_t)(done - 1), sizeof(*secs), cmp_double);
		median = secs[1 + (done - 2) / 2];
	}
	printf("dirtier: %ld MiB, %ld passes: total %.3f s, first %.3f s, median of passes 2..N %.3f s\n", mib,
	       done, total, first, median);
	return 0;
}
