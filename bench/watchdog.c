/*
 * watchdog: ends a benchmark run that takes too long, even while the guest thrashes. A
 * shell `sleep N && kill` does not: in the first zram try-out its pages were swapped out
 * with everything else, and a run due to end at 120 s was still going at 360 s. This one
 * locks its memory, raises its priority, and sleeps on the monotonic clock.
 *
 *   watchdog SECONDS PGID FLAGFILE
 *
 * After SECONDS: creates FLAGFILE (so that the driver knows the run was killed), sends
 * SIGTERM to process group PGID, and SIGKILL 10 s later. Ends early, with nothing done, on
 * SIGTERM or SIGINT (the run finished in time). Exit status: 0, or 1 with a message.
 */
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Sleeps secs on the monotonic clock; returns 1 if a stop signal came first. */
static int
nap(long secs)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += secs;
	while (!stop) {
		int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);

		if (r == 0)
			return 0;
		if (r != EINTR) {
			fprintf(stderr, "watchdog: clock_nanosleep: %s\n", strerror(r));
			return 1;
		}
	}
	return 1;
}

int
main(int argc, char **argv)
{
	long secs, pgid;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: watchdog SECONDS PGID FLAGFILE\n");
		return 1;
	}
	secs = arg_range("watchdog", argv[1], "SECONDS", 1, 1L << 24);
	pgid = arg_range("watchdog", argv[2], "PGID", 2, 1L << 30);
	catch_stop("watchdog");
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		fprintf(stderr, "watchdog: mlockall: %s (going on)\n", strerror(errno));
	if (setpriority(PRIO_PROCESS, 0, -10) != 0)
		fprintf(stderr, "watchdog: setpriority: %s (going on)\n", strerror(errno));
	if (nap(secs))
		return 0;
	fd = open(argv[3], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		fprintf(stderr, "watchdog: failed to create '%s': %s\n", argv[3], strerror(errno));
	else
		close(fd);
	if (kill(-(pid_t)pgid, SIGTERM) != 0) {
		/* ESRCH: the run ended just now; nothing to do. */
		if (errno != ESRCH)
			fprintf(stderr, "watchdog: kill -TERM -%ld: %s\n", pgid, strerror(errno));
		return errno == ESRCH ? 0 : 1;
	}
	stop = 0;
	nap(10);
	if (kill(-(pid_t)pgid, SIGKILL) != 0 && errno != ESRCH) {
		fprintf(stderr, "watchdog: kill -KILL -%ld: %s\n", pgid, strerror(errno));
		return 1;
	}
	return 0;
}
