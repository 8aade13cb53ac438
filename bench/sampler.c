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
 * pswpout, refault_anon, refault_file (workingset_refault_anon/_file), pgmajfault; then what
 * else the daemon's policies read (struct sample, src/sample.c), so that a time series can be
 * replayed through them (tests/data/traces/README): memtotal_kb, buffers_kb, shmem_kb,
 * mapped_kb, pgscan and pgsteal (kswapd + direct, as src/sample.c sums them), swap_devices and
 * swap_zram (lines of /proc/swaps, those on /dev/zram), zswap (1: enabled, 0: off or not built);
 * pace_us (the guest's pace: pace_us() below); activate_anon, activate_file
 * (workingset_activate_anon/_file: the refaults the kernel judged within reach of the working
 * set, so that more room for their kind would have kept them), steal_anon, steal_file
 * (pgsteal_anon/_file: what reclaim took of each kind). Since Linux 5.9 (5.8 for the steals);
 * -1 on older kernels.
 * New columns go at the end: readers find columns by name, older series lack the new ones.
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

/* The file's text, or "" (its columns then read -1) after one message per
 * failing path: a sampler that stops would leave a hole in the time series. */
static const char *
slurp(const char *path)
{
	static const char *failed[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n = -1;

	if (fd < 0) {
		err = errno;
	} else {
		n = read(fd, buf, sizeof(buf) - 1);
		err = n < 0 ? errno : 0;
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	if (err) {
		size_t i = 0;

		while (i < 8 && failed[i] && failed[i] != path)
			i++;
		if (i < 8 && !failed[i]) {
			failed[i] = path;
			fprintf(stderr, "sampler: cannot read '%s': %s (its columns read -1)\n", path, strerror(err));
		}
	}
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

/* The sum of two counters, or -1 when either is missing. */
static long long
sum2(long long a, long long b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

/* Devices in /proc/swaps (after its header line), and of them those on zram. */
static void
swap_devices(const char *text, long long *ret_devices, long long *ret_zram)
{
	const char *p = strchr(text, '\n');

	*ret_devices = *text ? 0 : -1;
	*ret_zram = *text ? 0 : -1;
	for (; p && p[1]; p = strchr(p + 1, '\n')) {
		(*ret_devices)++;
		if (strncmp(p + 1, "/dev/zram", 9) == 0)
			(*ret_zram)++;
	}
}

/* Iterations of pace_us()'s loop: about 0.3 ms of a TCG guest's CPU (a vCPU's 0.03% a second). */
#define PACE_LOOPS 100000UL

/*
 * The guest's pace: the CPU time this thread takes for a fixed loop, in microseconds, -1 if the
 * clock fails. The guest's clock follows the host's, so where the host runs other work on the
 * emulator's cores the loop takes more of it; other guest threads do not count (their time is
 * not this thread's), interrupts that land in the loop do. bench/report.py compares each run's
 * with its boot's.
 */
static long long
pace_us(void)
{
	struct timespec a, b;
	volatile unsigned long spin = 0;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a) != 0)
		return -1;
	for (unsigned long i = 0; i < PACE_LOOPS; i++)
		spin += i;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b) != 0)
		return -1;
	return (long long)(b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000;
}

int
main(int argc, char **argv)
{
	struct timespec next;
	long interval_ms;

	if (argc != 2) {
		fprintf(stderr, "usage: sampler INTERVAL_MS\n");
		return 1;
	}
	interval_ms = arg_range("sampler", argv[1], "INTERVAL_MS", 10, 3600000);
	catch_stop("sampler");
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		fprintf(stderr, "sampler: mlockall: %s (sampling anyway)\n", strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("t,swappiness,memfree_kb,memavail_kb,cached_kb,anon_kb,swapfree_kb,swaptotal_kb,"
	       "psi_some_us,psi_full_us,psi_some_avg10,pswpin,pswpout,refault_anon,refault_file,pgmajfault,"
	       "memtotal_kb,buffers_kb,shmem_kb,mapped_kb,pgscan,pgsteal,swap_devices,swap_zram,zswap,pace_us,"
	       "activate_anon,activate_file,steal_anon,steal_file\n");
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop) {
		struct timespec bt;
		long long swappiness, mf, ma, ca, aa, ia, sf, st, ps = -1, pf = -1, in, out, ra, rf, mj;
		long long mt, bu, sh, mp, scan, steal, devs, zram, zswap, aca, acf, sta, stf;
		double avg10 = -1;
		const char *t, *s;

		clock_gettime(CLOCK_BOOTTIME, &bt);
		t = slurp("/proc/sys/vm/swappiness");
		swappiness = *t ? strtoll(t, NULL, 10) : -1;
		t = slurp("/proc/meminfo");
		mf = field(t, "MemFree:");
		ma = field(t, "MemAvailable:");
		ca = field(t, "Cached:");
		aa = field(t, "Active(anon):");
		ia = field(t, "Inactive(anon):");
		sf = field(t, "SwapFree:");
		st = field(t, "SwapTotal:");
		mt = field(t, "MemTotal:");
		bu = field(t, "Buffers:");
		sh = field(t, "Shmem:");
		mp = field(t, "Mapped:");
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
		scan = sum2(field(t, "pgscan_kswapd "), field(t, "pgscan_direct "));
		steal = sum2(field(t, "pgsteal_kswapd "), field(t, "pgsteal_direct "));
		aca = field(t, "workingset_activate_anon ");
		acf = field(t, "workingset_activate_file ");
		sta = field(t, "pgsteal_anon ");
		stf = field(t, "pgsteal_file ");
		swap_devices(slurp("/proc/swaps"), &devs, &zram);
		/* Absent when zswap is not built in: then it is off, as src/sample.c reads it. */
		zswap = 0;
		if (access("/sys/module/zswap/parameters/enabled", F_OK) == 0) {
			t = slurp("/sys/module/zswap/parameters/enabled");
			zswap = *t ? *t == 'Y' || *t == 'y' || *t == '1' : -1;
		}
		printf("%.2f,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.2f,%lld,%lld,%lld,%lld,%lld,"
		       "%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n",
		       (double)bt.tv_sec + (double)bt.tv_nsec / 1e9, swappiness, mf, ma, ca, aa + ia, sf, st, ps, pf,
		       avg10, in, out, ra, rf, mj, mt, bu, sh, mp, scan, steal, devs, zram, zswap, pace_us(),
		       aca, acf, sta, stf);
		ts_add_ms(&next, interval_ms);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}
