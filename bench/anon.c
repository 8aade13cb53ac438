/*
 * anon: hold anonymous memory, idle or active, for the benchmark workloads.
 *
 *   anon MIB idle             allocate MIB, write every page once, print "anon: ready",
 *                             then sleep until SIGTERM or SIGINT (an idle application)
 *   anon MIB active SECONDS   allocate MIB, then write one word in every page, pass after
 *                             pass, for SECONDS (an application using its whole working set);
 *                             prints at the end
 *                             "RESULT anon_passes=N anon_mbps=X anon_pass_median_s=Y"
 *
 * MB/s counts the pages touched, MIB per full pass, over the whole run (a pass still running
 * when time is up counts in proportion to the pages it touched).
 * Exit status: 0, or 1 with a message.
 */
#include "common.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long mib, pages;
	char *mem;

	if (argc < 3 || (strcmp(argv[2], "idle") == 0 && argc != 3) ||
	    (strcmp(argv[2], "active") == 0 && argc != 4) ||
	    (strcmp(argv[2], "idle") != 0 && strcmp(argv[2], "active") != 0)) {
		fprintf(stderr, "usage: anon MIB idle | anon MIB active SECONDS\n");
		return 1;
	}
	mib = arg_range("anon", argv[1], "MIB", 1, 1L << 20);
	pages = mib * (1024 * 1024 / PAGE);
	catch_stop("anon");
	mem = mmap(NULL, (size_t)(pages * PAGE), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "anon: cannot map %ld MiB: %s\n", mib, strerror(errno));
		return 1;
	}
	/* Distinct contents per page, so that nothing could merge or compress them away. */
	for (long p = 0; p < pages && !stop; p++)
		for (long w = 0; w < PAGE / (long)sizeof(long); w += 64)
			((long *)(mem + p * PAGE))[w] = p * 7919 + w;

	if (strcmp(argv[2], "idle") == 0) {
		printf("anon: ready, %ld MiB idle\n", mib);
		fflush(stdout);
		while (!stop)
			pause();
		return 0;
	}

	double secs = (double)arg_range("anon", argv[3], "SECONDS", 1, 1L << 24);
	double t_start = now_s(), t_end = t_start + secs, t_pass = t_start;
	double *pass_s = calloc(1 << 16, sizeof(*pass_s));
	long passes = 0, touched = 0;

	if (!pass_s) {
		fprintf(stderr, "anon: out of memory\n");
		return 1;
	}
	printf("anon: ready, %ld MiB active for %.0f s\n", mib, secs);
	fflush(stdout);
	while (!stop) {
		long p;

		for (p = 0; p < pages; p++) {
			((volatile long *)(mem + p * PAGE))[0] += 1;
			/* Check the clock every 256 pages (1 MiB): cheap, and precise enough. */
			if ((p & 255) == 255 && now_s() >= t_end)
				break;
		}
		touched += p < pages ? p + 1 : pages;
		if (p < pages)
			break;
		double t = now_s();
		if (passes < (1 << 16))
			pass_s[passes] = t - t_pass;
		passes++;
		t_pass = t;
		if (t >= t_end)
			break;
	}
	double elapsed = now_s() - t_start;
	long n = passes < (1 << 16) ? passes : (1 << 16);
	qsort(pass_s, (size_t)n, sizeof(*pass_s), cmp_double);
	printf("RESULT anon_passes=%ld anon_mbps=%.2f anon_pass_median_s=%.3f\n", passes,
	       (double)touched * PAGE / 1048576.0 / elapsed, n ? pass_s[(n - 1) / 2] : 0.0);
	return 0;
}
