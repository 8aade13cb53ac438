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
 * Prints at the end: "keephot: P passes, last N pages, slowest pass S s, mean M s". A pass
 * that did not see PID's memory is not counted: its figure would be the files' pages alone.
 * That is a pass that meets PID exiting (its memory already gone, or PID ended before the
 * pass did), or one that PID's execve raced. /proc/PID/pagemap is opened at each pass: an
 * open file keeps reading the memory PID had when it was opened, which an execve (a shell's
 * child becoming `sleep`) leaves empty. PID's end is seen through a pidfd, so an exited PID
 * that its parent has not reaped yet ends the loop too.
 * Exit status 0 when PID has gone or on a signal, 1 with a message on an error.
 */
#define _GNU_SOURCE
#include "common.h"
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define BATCH 1024

static pid_t pid;
static int pagemap_fd = -1; /* during a pass */
static int pidfd = -1;
/* Set during a pass that found pid's memory gone (pid exiting, or an execve that raced the
 * pass): that pass is not counted. */
static int gone;

/* 1 when pid has exited (a zombie counts) within timeout_ms; 0 on timeout or a signal. */
static int
exited(int timeout_ms)
{
	struct pollfd p = {.fd = pidfd, .events = POLLIN};

	return poll(&p, 1, timeout_ms) > 0;
}

/* Reads one byte of each page in iov[0..n) of pid's memory. Unmapped meanwhile: skipped.
 * Returns how many pages were read; sets gone if pid has no memory any more. */
static uint64_t
touch_batch(struct iovec *remote, size_t n)
{
	static char sink[BATCH];
	struct iovec local = {sink, 0};
	size_t done = 0;
	uint64_t read = 0;

	local.iov_len = n;
	while (done < n) {
		ssize_t r = process_vm_readv(pid, &local, 1, remote + done, n - done, 0);

		if (r < 0 && errno == ESRCH) {
			gone = 1;
			break;
		}
		if (r <= 0) {
			done++; /* that page went away: go on with the next */
		} else {
			done += (size_t)r;
			read += (uint64_t)r;
		}
		local.iov_len = n - done;
	}
	return read;
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
		if (r <= 0) { /* 0: the memory the file was opened on is gone */
			gone = 1;
			break;
		}
		got = (size_t)r / sizeof(pm[0]);
		for (i = 0; i < got; i++) {
			if (pm[i] >> 63) { /* present */
				iov[n].iov_base = (void *)(uintptr_t)(addr + i * PAGE);
				iov[n].iov_len = 1;
				n++;
			}
		}
		if (n > 0)
			count += touch_batch(iov, n);
		addr += got * PAGE;
	}
	return count;
}

/* Opens pid's /proc file name. Returns the fd, or -1 with errno set. */
static int
open_proc(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Touches pid's resident pages, through a pagemap opened now (before its maps: an execve in
 * between leaves the pagemap empty, and the pass is not counted). Returns how many. */
static uint64_t
touch_process(void)
{
	char line[512];
	FILE *maps = NULL;
	uint64_t count = 0, lines = 0;
	int fd;

	pagemap_fd = open_proc("pagemap");
	fd = pagemap_fd < 0 ? -1 : open_proc("maps");
	if (fd >= 0)
		maps = fdopen(fd, "r");
	if (!maps) {
		if (fd >= 0)
			close(fd);
		if (pagemap_fd >= 0)
			close(pagemap_fd);
		gone = 1;
		return 0;
	}
	while (fgets(line, sizeof(line), maps) && !stop) {
		unsigned long long lo, hi;
		char perms[5];

		lines++;
		if (sscanf(line, "%llx-%llx %4s", &lo, &hi, perms) != 3 || perms[0] != 'r')
			continue;
		if (strstr(line, "[vsyscall]") || strstr(line, "[vvar]") || strstr(line, "[vvar_vclock]"))
			continue;
		count += touch_range(lo, hi);
	}
	fclose(maps);
	close(pagemap_fd);
	if (lines == 0 && !stop)
		gone = 1; /* an exiting process's maps read empty */
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

	if (argc < 3) {
		fprintf(stderr, "usage: keephot SECONDS PID [FILE...]\n");
		return 1;
	}
	every = (unsigned)arg_range("keephot", argv[1], "SECONDS", 1, 3600);
	pid = (pid_t)arg_range("keephot", argv[2], "PID", 1, 1 << 22);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		fprintf(stderr, "keephot: pidfd_open %d: %s\n", (int)pid, strerror(errno));
		return 1;
	}
	pagemap_fd = open_proc("pagemap"); /* that it can be read: a pass opens its own */
	if (pagemap_fd < 0) {
		fprintf(stderr, "keephot: /proc/%d/pagemap: %s\n", (int)pid, strerror(errno));
		return 1;
	}
	close(pagemap_fd);
	catch_stop("keephot");
	while (!stop && !exited(0)) {
		double t = now_s(), d;
		uint64_t pages;
		int i;

		gone = 0;
		pages = touch_process();
		for (i = 3; i < argc; i++)
			pages += touch_file(argv[i]);
		/* A pass cut short by a signal, that met pid exiting, or that did not see its
		 * memory (an execve raced it), says nothing of pid: not counted. */
		if (stop || exited(0))
			break;
		if (!gone) {
			d = now_s() - t;
			last = pages;
			passes++;
			total += d;
			if (d > slowest)
				slowest = d;
		}
		if (exited((int)every * 1000))
			break;
	}
	printf("keephot: %lu passes, last %" PRIu64 " pages, slowest pass %.3f s, mean %.3f s\n", passes, last,
	       slowest, passes ? total / (double)passes : 0.0);
	return 0;
}
