/*
 * keephot: keep the emulator's memory resident under the hypervisor that runs this host.
 *
 *   keephot SECONDS PID [FILE...]
 *
 * Every SECONDS, reads one byte of every page of process PID that is resident (its
 * /proc/PID/pagemap says so) in each of its readable mappings, and of every resident page of
 * each FILE (mincore), until PID exits or SIGTERM/SIGINT. Runs on the host, beside qemu.
 *
 * Why: the machines this benchmark runs on are themselves guests, and the hypervisor under
 * them takes back memory that has not been touched for a minute or two. In the host's own
 * view the pages stay resident; the next touch waits for the hypervisor: 1 GiB idle for 120 s
 * took 4.4 s to write again, idle for 240 s 7.9 s, against 0.2-0.4 s after up to 60 s. In the
 * emulated guest that is a free page, a page of cache or a translated block of code left
 * alone for a while, and a run that happens to need it goes at hypervisor speed. A read is a
 * touch. Four runs with and without it (bench/EXPERIMENTS.md, noise-2026-12-04) were no steadier
 * with it; a pass over qemu's 1.5-1.9 GB took 0.7-2.0 s on average (one byte of each page
 * through process_vm_readv).
 * Pages that are not resident are left alone (reading them would allocate them).
 *
 * Prints at the end: "keephot: P passes, last N pages, slowest pass S s, mean M s".
 * Exit status 0 when PID has gone or on a signal, 1 with a message on an error.
 */
#define _GNU_SOURCE
#include "common.h"
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define BATCH 1024

static pid_t pid;
static int pagemap_fd = -1;

/* Reads one byte of each page in iov[0..n) of pid's memory. Unmapped meanwhile: skipped. */
static void
touch_batch(struct iovec *remote, size_t n)
{
	static char sink[BATCH];
	struct iovec local = {sink, 0};
	size_t done = 0;

	local.iov_len = n;
	while (done < n) {
		ssize_t r = process_vm_readv(pid, &local, 1, remote + done, n - done, 0);

		if (r <= 0)
			done++; /* that page went away: go on with the next */
		else
			done += (size_t)r;
		local.iov_len = n - done;
	}
}

/* Touches the resident pages of pid's mapping [lo, hi). Returns how many. */
static uint64_t
touch_range(uint64_t lo, uint64_t hi)
{
	static uint64_t pm[BATCH];
	static struct iovec iov[BATCH];
	uint64_t addr = lo, count = 0;

	while (addr < hi && !stop) {
		size_t want = (size_t)((hi - addr) / PAGE), got, i, n = 0;
		ssize_t r;

		if (want > BATCH)
			want = BATCH;
		r = pread(pagemap_fd, pm, want * sizeof(pm[0]), (off_t)(addr / PAGE * sizeof(pm[0])));
		if (r <= 0)
			break;
		got = (size_t)r / sizeof(pm[0]);
		for (i = 0; i < got; i++) {
			if (pm[i] >> 63) { /* present */
				iov[n].iov_base = (void *)(uintptr_t)(addr + i * PAGE);
				iov[n].iov_len = 1;
				n++;
			}
		}
		if (n > 0)
			touch_batch(iov, n);
		count += n;
		addr += got * PAGE;
	}
	return count;
}

static uint64_t
touch_process(void)
{
	char path[64], line[512];
	FILE *maps;
	uint64_t count = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "re");
	if (!maps)
		return 0; /* gone */
	while (fgets(line, sizeof(line), maps) && !stop) {
		unsigned long long lo, hi;
		char perms[5];

		if (sscanf(line, "%llx-%llx %4s", &lo, &hi, perms) != 3 || perms[0] != 'r')
			continue;
		if (strstr(line, "[vsyscall]") || strstr(line, "[vvar]") || strstr(line, "[vvar_vclock]"))
			continue;
		count += touch_range(lo, hi);
	}
	fclose(maps);
	return count;
}

static uint64_t
touch_file(const char *name)
{
	int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	unsigned char *vec;
	volatile unsigned char *p;
	size_t pages, i;
	uint64_t count = 0;

	if (fd < 0) {
		fprintf(stderr, "keephot: %s: %s\n", name, strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return 0;
	}
	pages = (size_t)((st.st_size + PAGE - 1) / PAGE);
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "keephot: mmap %s: %s\n", name, strerror(errno));
		return 0;
	}
	vec = malloc(pages);
	if (vec && mincore((void *)p, (size_t)st.st_size, vec) == 0) {
		unsigned sum = 0;

		for (i = 0; i < pages && !stop; i++) {
			if (vec[i] & 1) {
				sum += p[i * PAGE];
				count++;
			}
		}
		(void)sum;
	}
	free(vec);
	munmap((void *)p, (size_t)st.st_size);
	return count;
}

int
main(int argc, char **argv)
{
	unsigned every;
	double slowest = 0, total = 0;
	unsigned long passes = 0;
	uint64_t last = 0;
	char path[64];

	if (argc < 3) {
		fprintf(stderr, "usage: keephot SECONDS PID [FILE...]\n");
		return 1;
	}
	every = (unsigned)arg_range("keephot", argv[1], "SECONDS", 1, 3600);
	pid = (pid_t)arg_range("keephot", argv[2], "PID", 1, 1 << 22);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pagemap_fd < 0) {
		fprintf(stderr, "keephot: %s: %s\n", path, strerror(errno));
		return 1;
	}
	catch_stop("keephot");
	while (!stop && kill(pid, 0) == 0) {
		double t = now_s(), d;
		int i;

		last = touch_process();
		for (i = 3; i < argc; i++)
			last += touch_file(argv[i]);
		d = now_s() - t;
		passes++;
		total += d;
		if (d > slowest)
			slowest = d;
		for (unsigned k = 0; k < every && !stop && kill(pid, 0) == 0; k++)
			sleep(1);
	}
	printf("keephot: %lu passes, last %" PRIu64 " pages, slowest pass %.3f s, mean %.3f s\n", passes, last,
	       slowest, passes ? total / (double)passes : 0.0);
	return 0;
}
