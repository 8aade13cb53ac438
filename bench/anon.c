/*
 * anon: hold anonymous memory, idle or at work, for the benchmark workloads.
 *
 *   anon MIB idle             allocate MIB, fill every page (fill_page: compresses about
 *                             3:1), print "anon: ready", then sleep until SIGTERM or
 *                             SIGINT (an idle application)
 *   anon MIB work SECONDS     allocate and fill MIB, print "anon: ready", then write one
 *                             word in every page, pass after pass, until the process has
 *                             spent SECONDS of CPU time in user mode (ITIMER_VIRTUAL): a
 *                             fixed amount of work, whatever the emulator's speed. Prints
 *                             "RESULT anon_wall_s=W anon_user_s=U anon_sys_s=S
 *                             anon_runq_s=Q anon_blocked_s=B anon_majflt=M anon_minflt=N
 *                             anon_passes=P anon_capped=0|1"
 *
 * The work's figures: W, the wall time it took; what memory pressure cost it on top of U:
 * S, the kernel's time on its behalf (faults, direct reclaim), Q, the time it waited for a
 * CPU, and B = W - (CPU time) - Q, the time it could not run at all (waiting for pages from
 * swap or disk, throttled in reclaim), from getrusage and /proc/self/schedstat; M and N,
 * its own major and minor faults. Times in seconds with microseconds. The count of passes
 * is no measure: under TCG the same pass takes 1 or 4-8 ms depending on the emulator's TLB,
 * whatever the swapping, and that is user time, the same for every setting here.
 * anon_capped=1: stopped at 3 x SECONDS of wall time (ITIMER_REAL) before the work was
 * done (thrashing), so W is a lower bound.
 * Exit status: 0, or 1 with a message.
 */
#include "common.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Give up after this many times SECONDS of wall time: at swappiness 200 the phased working
 * set thrashes and the work would take minutes (the first bench run saw 0.01% of the
 * progress of static 60 there); 3 x is enough to rank it last. */
#define WALL_CAP 3

/* Set by SIGVTALRM (the user-mode CPU time is spent) and SIGALRM (the wall-time cap). */
static volatile sig_atomic_t work_done, capped;

static void
on_timer(int sig)
{
	if (sig == SIGVTALRM)
		work_done = 1;
	else
		capped = 1;
}

/* The process's on-CPU and run-queue seconds (single-threaded), from /proc/self/schedstat;
 * exits 1 with a message when it cannot be read. */
static void
schedstat(double *cpu_s, double *runq_s)
{
	const char *path = "/proc/self/schedstat";
	unsigned long long cpu_ns, runq_ns;
	FILE *f = fopen(path, "re");

	if (!f) {
		fprintf(stderr, "anon: failed to open '%s': %s\n", path, strerror(errno));
		exit(1);
	}
	if (fscanf(f, "%llu %llu", &cpu_ns, &runq_ns) != 2) {
		fprintf(stderr, "anon: failed to read '%s': unexpected contents\n", path);
		exit(1);
	}
	fclose(f);
	*cpu_s = (double)cpu_ns / 1e9;
	*runq_s = (double)runq_ns / 1e9;
}

static double
tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Arms the timer (ITIMER_VIRTUAL or ITIMER_REAL) for secs, with on_timer for its signal. */
static void
arm(int which, int sig, double secs)
{
	struct sigaction sa;
	struct itimerval it = { .it_value = { .tv_sec = (time_t)secs, .tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6) } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) != 0 || setitimer(which, &it, NULL) != 0) {
		fprintf(stderr, "anon: cannot arm a timer: %s\n", strerror(errno));
		exit(1);
	}
}

static int
work(char *mem, long pages, double secs)
{
	struct rusage ru0, ru1;
	double cpu0, runq0, cpu, runq, t0, wall;
	long passes = 0;

	if (getrusage(RUSAGE_SELF, &ru0) != 0) {
		fprintf(stderr, "anon: getrusage: %s\n", strerror(errno));
		return 1;
	}
	schedstat(&cpu0, &runq0);
	t0 = now_s();
	arm(ITIMER_VIRTUAL, SIGVTALRM, secs);
	arm(ITIMER_REAL, SIGALRM, WALL_CAP * secs);
	while (!work_done && !capped && !stop) {
		long p;

		/* One load of the flags per page: the timers' signals end the work at once, even
		 * in the middle of a pass that thrashes. */
		for (p = 0; p < pages && !(work_done | capped | stop); p++)
			((volatile long *)(mem + p * PAGE))[0] += 1;
		if (p == pages)
			passes++;
	}
	wall = now_s() - t0;
	schedstat(&cpu, &runq);
	if (getrusage(RUSAGE_SELF, &ru1) != 0) {
		fprintf(stderr, "anon: getrusage: %s\n", strerror(errno));
		return 1;
	}
	double c = cpu - cpu0, q = runq - runq0, blocked = wall - c - q;

	/* The clocks differ by a few microseconds: no negative waits. */
	if (blocked < 0)
		blocked = 0;
	printf("RESULT anon_wall_s=%.6f anon_user_s=%.6f anon_sys_s=%.6f anon_runq_s=%.6f anon_blocked_s=%.6f "
	       "anon_majflt=%ld anon_minflt=%ld anon_passes=%ld anon_capped=%d\n",
	       wall, tv_s(&ru1.ru_utime) - tv_s(&ru0.ru_utime), tv_s(&ru1.ru_stime) - tv_s(&ru0.ru_stime), q, blocked,
	       ru1.ru_majflt - ru0.ru_majflt, ru1.ru_minflt - ru0.ru_minflt, passes, capped ? 1 : 0);
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

	printf("anon: ready, %ld MiB at work for %.0f s of user-mode CPU time\n", mib, secs);
	fflush(stdout);
	return work(mem, pages, secs);
}
