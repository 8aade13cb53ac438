/*
 * dirtier: Andrea Arcangeli's 1999 benchmark (seed 003): allocate a working set
 * in 1 MiB chunks and write every byte of every chunk, pass after pass; with a
 * working set larger than RAM every pass goes through swap. Prints the seconds
 * each pass took, then the median, min and max of all passes but the first.
 *
 *   dirtier MIB PASSES
 *
 * Exit status: 0, or 1 with a message (allocation failure, bad argument).
 */
#include "common.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK_BYTES (1024 * 1024)

int
main(int argc, char **argv)
{
	long mib, passes;
	char **chunks;
	double *secs;

	if (argc != 3) {
		fprintf(stderr, "usage: dirtier MIB PASSES\n");
		return 1;
	}
	mib = arg_range("dirtier", argv[1], "MIB", 1, 1L << 20);
	passes = arg_range("dirtier", argv[2], "PASSES", 1, 100000);
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
	for (long p = 0; p < passes; p++) {
		double t0 = now_s();

		for (long i = 0; i < mib; i++)
			memset(chunks[i], (int)(p + 1), CHUNK_BYTES);
		secs[p] = now_s() - t0;
		printf("pass %ld: %.3f s\n", p + 1, secs[p]);
		fflush(stdout);
	}
	if (passes > 1) {
		qsort(secs + 1, (size_t)(passes - 1), sizeof(*secs), cmp_double);
		printf("dirtier: %ld MiB, passes 2..%ld: median %.3f s, min %.3f s, max %.3f s\n", mib, passes,
		       secs[1 + (passes - 1) / 2], secs[1], secs[passes - 1]);
	}
	return 0;
}
