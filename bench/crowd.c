/*
 * crowd: hundreds of small processes (seed 001, Fremlin). Forks N children; each holds KIB
 * of its own memory and, every INTERVAL_MS (plus up to 50% jitter), touches it again, like
 * idle daemons and shells that wake now and then. With KIB 0 the children only sleep. Their
 * memory is filled with fill_page (compresses about 3:1, like program memory) before the
 * first touch.
 *
 *   crowd N KIB INTERVAL_MS
 *
 * Prints "crowd: ready, N processes" once all are forked, then waits for SIGTERM or SIGINT,
 * kills its children and reaps them.
 */
#include "common.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void
child(long kib, long interval_ms, unsigned seed)
{
	long pages = (kib * 1024 + PAGE - 1) / PAGE;
	char *mem = NULL;

	/* The parent's stop flag is no use here: the default action ends the child. */
	if (signal(SIGTERM, SIG_DFL) == SIG_ERR || signal(SIGINT, SIG_DFL) == SIG_ERR)
		_exit(1);
	if (pages == 0) {
		for (;;)
			pause();
	}
	mem = malloc((size_t)(pages * PAGE));
	if (!mem)
		_exit(1);
	for (long p = 0; p < pages; p++)
		fill_page(mem + p * PAGE, ((unsigned long)seed << 20) ^ (unsigned long)p);
	for (;;) {
		struct timespec ts;
		long ms = interval_ms + (long)rand_r(&seed) % (interval_ms / 2 + 1);

		for (long p = 0; p < pages; p++)
			((volatile char *)mem)[p * PAGE] += 1;
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (ms % 1000) * 1000000L;
		nanosleep(&ts, NULL);
	}
}

int
main(int argc, char **argv)
{
	long n, kib, interval_ms, forked = 0;
	pid_t *pids;

	if (argc != 4) {
		fprintf(stderr, "usage: crowd N KIB INTERVAL_MS\n");
		return 1;
	}
	n = arg_range("crowd", argv[1], "N", 1, 100000);
	kib = arg_range("crowd", argv[2], "KIB", 0, 1L << 20);
	interval_ms = arg_range("crowd", argv[3], "INTERVAL_MS", 1, 3600000);
	pids = calloc((size_t)n, sizeof(*pids));
	if (!pids) {
		fprintf(stderr, "crowd: out of memory\n");
		return 1;
	}
	catch_stop("crowd");
	for (long i = 0; i < n && !stop; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "crowd: fork %ld of %ld: %s\n", i + 1, n, strerror(errno));
			break;
		}
		if (pid == 0)
			child(kib, interval_ms, (unsigned)i * 2654435761u);
		pids[forked++] = pid;
	}
	printf("crowd: ready, %ld processes of %ld KiB\n", forked, kib);
	fflush(stdout);
	while (!stop)
		pause();
	for (long i = 0; i < forked; i++)
		kill(pids[i], SIGKILL);
	for (long i = 0; i < forked; i++)
		waitpid(pids[i], NULL, 0);
	return forked == n ? 0 : 1;
}
