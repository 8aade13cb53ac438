/*
 * anon: hold anonymous memory, idle or at work, for the benchmark workloads.
 *
 *   anon MIB idle             allocate MIB, fill every page (fill_page: compresses about
 *                             3:1), print "anon: ready", then sleep until SIGTERM or
 *                             SIGINT (an idle application)
 *   anon MIB work SECONDS     allocate and fill MIB, print "anon: ready", then write one
 *                             word in every page, pass after pass, until the process has
 *                             been runnable (on a CPU or waiting for one) for SECONDS: a
 *                             fixed amount of work, whatever the emulator's speed. Prints
 *                             "RESULT anon_wall_s=W anon_cpu_s=C anon_runq_s=Q
 *                             anon_blocked_s=B anon_majflt=M anon_minflt=N anon_passes=P
 *                             anon_capped=0|1"
 *
 * The work's figures: W, the wall time it took; B = W - C - Q, the time the process could
 * not run at all (waiting for pages from swap or disk, or throttled in reclaim), from
 * /proc/self/schedstat (on-CPU and run-queue nanoseconds); M and N, its own major and minor
 * faults (getrusage). Times in seconds with microseconds. The count of passes is no
 * measure: under TCG the same pass takes 1 or 4-8 ms depending on the emulator's TLB,
 * whatever the swapping. anon_capped=1: stopped at 3 x SECONDS of wall time before the
 * work was done (thrashing), so W and B are lower bounds.
 * Exit status: 0, or 1 with a message.
 */
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Check the runnable time every 4096 pages (16 MiB): a pread of schedstat costs tens of
 * microseconds under TCG, and a pass of the phased working set is 31,000 pages. */
#define CHECK_PAGES 4096
/* Give up after this many times SECONDS of wall time: at swappiness 200 the phased working
 * set thrashes and the work would take minutes (the first bench run saw 0.01% of the
 * progress of static 60 there); 3 x is enough to rank it last. */
#define WALL_CAP 3

/* On-CPU and run-queue seconds of this process (single-threaded) from the open
 * /proc/self/schedstat fd; exits 1 with a message when it cannot be read. */
static void
runnable(int fd, double *cpu_s, double *runq_s)
{
	char buf[128];
	unsigned long long cpu_ns, runq_ns;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0) {
		fprintf(stderr, "anon: failed to read '/proc/self/schedstat': %s\n", n < 0 ? strerror(errno) : "empty");
		exit(1);
	}
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &cpu_ns, &runq_ns) != 2) {
		fprintf(stderr, "anon: '/proc/self/schedstat': unexpected '%s'\n", buf);
		exit(1);
	}
	*cpu_s = (double)cpu_ns / 1e9;
	*runq_s = (double)runq_ns / 1e9;
}

static int
work(char *mem, long pages, double secs)
{
	struct rusage ru0, ru1;
	double cpu0, runq0, cpu, runq, t0, t;
	long passes = 0;
	int capped = 0, fd = open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "anon: failed to open '/proc/self/schedstat': %s\n", strerror(errno));
		return 1;
	}
	if (getrusage(RUSAGE_SELF, &ru0) != 0) {
		fprintf(stderr, "anon: getrusage: %s\n", strerror(errno));
		return 1;
	}
	t0 = now_s();
	runnable(fd, &cpu0, &runq0);
	for (;;) {
		long p;
		int done = 0;

		for (p = 0; p < pages && !done; p++) {
			((volatile long *)(mem + p * PAGE))[0] += 1;
			/* The wall clock (vDSO, cheap) every 1 MiB: a thrashing pass is slow. */
			if ((p + 1) % 256 == 0 && now_s() - t0 >= WALL_CAP * secs)
				done = capped = 1;
			if (!done && ((p + 1) % CHECK_PAGES == 0 || p + 1 == pages)) {
				runnable(fd, &cpu, &runq);
				done = (cpu - cpu0) + (runq - runq0) >= secs;
			}
			done = done || stop;
		}
		if (p == pages)
			passes++;
		if (done)
			break;
	}
	t = now_s();
	runnable(fd, &cpu, &runq);
	if (getrusage(RUSAGE_SELF, &ru1) != 0) {
		fprintf(stderr, "anon: getrusage: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	double wall = t - t0, c = cpu - cpu0, q = runq - runq0, blocked = wall - c - q;

	/* The clocks differ by a few microseconds: no negative waits. */
	if (blocked < 0)
		blocked = 0;
	printf("RESULT anon_wall_s=%.6f anon_cpu_s=%.6f anon_runq_s=%.6f anon_blocked_s=%.6f anon_majflt=%ld "
	       "anon_minflt=%ld anon_passes=%ld anon_capped=%d\n",
	       wall, c, q, blocked, ru1.ru_majflt - ru0.ru_majflt, ru1.ru_minflt - ru0.ru_minflt, passes, capped);
	return 0;
}

int
main(int argc, char **argv)
{
	long mib, pages;
	char *mem;

	if (argc < 3 || (strcmp(argv[2], "idle") == 0 && argc != 3) ||
	    (strcmp(argv[2], "work") == 0 && argc != 4) ||
	    (strcmp(argv[2], "idle") != 0 && strcmp(argv[2], "work") != 0)) {
		fprintf(stderr, "usage: anon MIB idle | anon MIB work SECONDS\n");
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
	for (long p = 0; p < pages && !stop; p++)
		fill_page(mem + p * PAGE, (unsigned long)p);

	if (strcmp(argv[2], "idle") == 0) {
		printf("anon: ready, %ld MiB idle\n", mib);
		fflush(stdout);
		while (!stop)
			pause();
		return 0;
	}
	double secs = (double)arg_range("anon", argv[3], "SECONDS", 1, 1L << 24);

	printf("anon: ready, %ld MiB at work for %.0f s of runnable time\n", mib, secs);
	fflush(stdout);
	return work(mem, pages, secs);
}
