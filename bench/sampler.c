/*
 * sampler: one CSV line of the kernel's memory state every INTERVAL_MS, until SIGTERM or
 * SIGINT. The benchmark's time series (what vm.swappiness was, free memory, free swap, PSI,
 * swap and refault counters) comes from it. It locks its memory so that it keeps sampling
 * while the machine thrashes, and reads each file with one read(2).
 *
 *   sampler INTERVAL_MS
 *
 * Columns: t (CLOCK_BOOTTIME seconds, the clock of /proc/uptime), swappiness, memfree_kb,
 * memavail_kb, cached_kb, anon_kb (Active(anon) + Inactive(anon)), swapfree_kb, swaptotal_kb,
 * psi_some_us, psi_full_us (the "total" of /proc/pressure/memory), psi_some_avg10, pswpin,
 * pswpout, refault_anon, refault_file (workingset_refault_anon/_file), pgmajfault.
 */
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

static const char *
slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* The number after "KEY" at the start of a line (KEY includes its separator). */
static long long
field(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, len) == 0)
			return strtoll(p + len, NULL, 10);
	return -1;
}

int
main(int argc, char **argv)
{
	struct timespec next;
	long interval_ms;

	if (argc != 2 || (interval_ms = strtol(argv[1], NULL, 10)) < 10) {
		fprintf(stderr, "usage: sampler INTERVAL_MS (10 or more)\n");
		return 1;
	}
	catch_stop("sampler");
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		fprintf(stderr, "sampler: mlockall: %s (sampling anyway)\n", strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("t,swappiness,memfree_kb,memavail_kb,cached_kb,anon_kb,swapfree_kb,swaptotal_kb,"
	       "psi_some_us,psi_full_us,psi_some_avg10,pswpin,pswpout,refault_anon,refault_file,pgmajfault\n");
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop) {
		struct timespec bt;
		long long swappiness, mf, ma, ca, aa, ia, sf, st, ps = -1, pf = -1, in, out, ra, rf, mj;
		double avg10 = -1;
		const char *t, *s;

		clock_gettime(CLOCK_BOOTTIME, &bt);
		swappiness = strtoll(slurp("/proc/sys/vm/swappiness"), NULL, 10);
		t = slurp("/proc/meminfo");
		mf = field(t, "MemFree:");
		ma = field(t, "MemAvailable:");
		ca = field(t, "Cached:");
		aa = field(t, "Active(anon):");
		ia = field(t, "Inactive(anon):");
		sf = field(t, "SwapFree:");
		st = field(t, "SwapTotal:");
		t = slurp("/proc/pressure/memory");
		if ((s = strstr(t, "some avg10=")))
			avg10 = strtod(s + 11, NULL);
		if ((s = strstr(t, "some ")) && (s = strstr(s, "total=")))
			ps = strtoll(s + 6, NULL, 10);
		if ((s = strstr(t, "full ")) && (s = strstr(s, "total=")))
			pf = strtoll(s + 6, NULL, 10);
		t = slurp("/proc/vmstat");
		in = field(t, "pswpin ");
		out = field(t, "pswpout ");
		ra = field(t, "workingset_refault_anon ");
		rf = field(t, "workingset_refault_file ");
		mj = field(t, "pgmajfault ");
		printf("%.2f,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.2f,%lld,%lld,%lld,%lld,%lld\n",
		       (double)bt.tv_sec + (double)bt.tv_nsec / 1e9, swappiness, mf, ma, ca, aa + ia, sf, st, ps, pf,
		       avg10, in, out, ra, rf, mj);
		next.tv_nsec += interval_ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}
