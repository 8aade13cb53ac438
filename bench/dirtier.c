/*
 * dirtier: Andrea Arcangeli's 1999 benchmark (seed 003): allocate a working set
 * in 1 MiB chunks and write every byte of every chunk, pass after pass; with a
 * working set larger than RAM every pass goes through swap. The bytes written
 * compress about 3:1 (fill_page in common.h), so that a zram swap stores them
 * as it would program memory rather than as free same-filled pages. Prints the
 * seconds each pass took, then the whole run, the first pass (which also
 * faults the memory in) and the median of the others.
 *
 *   dirtier MIB PASSES
 *
 * Last line: "dirtier: MIB MiB, PASSES passes: total T s, first F s, median of
 * passes 2..N M s" (M is F when PASSES is 1).
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
	double *secs, total = 0;

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
			for (long off = 0; off < CHUNK_BYTES; off += PAGE)
				fill_page(chunks[i] + off, ((unsigned long)p << 40) ^ ((unsigned long)i << 8) ^
								   (unsigned long)(off / PAGE));
		secs[p] = now_s() - t0;
		total += secs[p];
		printf("pass %ld: %.3f s\n", p + 1, secs[p]);
		fflush(stdout);
	}
	double first = secs[0], median = first;

	if (passes > 1) {
		qsort(secs + 1, (size_t)(passes - 1), sizeof(*secs), cmp_double);
		median = secs[1 + (passes - 2) / 2];
	}
	printf("dirtier: %ld MiB, %ld passes: total %.3f s, first %.3f s, median of passes 2..N %.3f s\n", mib,
	       passes, total, first, median);
	return 0;
}
