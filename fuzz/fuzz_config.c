/* libFuzzer target: the whole configuration path. The input becomes the
 * contents of a file (a memfd, reached as /proc/self/fd/N), config_file_load
 * reads it through inih, config_set and config_validate, and the errors are
 * collected. On success the result must validate and every value must lie in
 * the range autoswappiness.conf(5) documents; on failure at least one error must
 * have been reported and *ret left alone. Any breach abort()s. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "config_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct errors {
	const char *path;
	unsigned count;
};

static void
on_error(void *userdata, const char *message)
{
	struct errors *e = userdata;

	/* Every message is "path:line: ..." or "path: ...". */
	if (strncmp(message, e->path, strlen(e->path)) != 0 || message[strlen(e->path)] != ':')
		abort();
	e->count++;
}

static void
check_ranges(const struct config *c)
{
	enum config_key key;
	char err[256];

	if (config_validate(c, &key, err, sizeof(err)) != 0)
		abort();
	if (c->policy != CONFIG_POLICY_AUTO && ((unsigned)c->policy >= POLICY_COUNT || policy_name(c->policy) == NULL))
		abort();
	if (c->min < 0 || c->min > CONFIG_SWAPPINESS_MAX)
		abort();
	if (c->max != CONFIG_MAX_AUTO && (c->max < 0 || c->max > CONFIG_SWAPPINESS_MAX || c->min > c->max))
		abort();
	if (c->step < 1 || c->step > CONFIG_SWAPPINESS_MAX)
		abort();
	if (c->smoothing_pct < 0 || c->smoothing_pct > CONFIG_SMOOTHING_MAX)
		abort();
	if (c->interval_ms < CONFIG_INTERVAL_MS_MIN || c->interval_ms > CONFIG_INTERVAL_MS_MAX ||
	    c->busy_interval_ms < CONFIG_INTERVAL_MS_MIN || c->busy_interval_ms > CONFIG_INTERVAL_MS_MAX)
		abort();
	/* The kernel wants the stall below the window (psi.rst). */
	if (c->psi_trigger_ms >= CONFIG_PSI_WINDOW_MS)
		abort();
	if (c->on_external_change != CONFIG_EXTERNAL_YIELD && c->on_external_change != CONFIG_EXTERNAL_OVERRIDE)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct config cfg, sentinel;
	struct errors errors = {.path = path};
	int r;

	if (fd < 0) {
		fd = memfd_create("fuzz-config", MFD_CLOEXEC);
		/* A memfd is created 0777; the loader refuses a file that others
		 * may write. */
		if (fd < 0 || fchmod(fd, 0600) < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();

	/* memcpy, not assignment, so that the padding matches too; the bools stay
	 * valid bools for UBSan. */
	memset(&sentinel, 0xa5, sizeof(sentinel));
	sentinel.dry_run = sentinel.debug = false;
	memcpy(&cfg, &sentinel, sizeof(cfg));
	r = config_file_load(path, false, &cfg, on_error, &errors);
	if (r == 0) {
		if (errors.count != 0)
			abort(); /* an error reported, yet success */
		check_ranges(&cfg);
	} else {
		if (r > 0 || errors.count == 0)
			abort(); /* "Every failure is reported" */
		if (memcmp(&cfg, &sentinel, sizeof(cfg)) != 0)
			abort(); /* "*ret is written only on success" */
	}
	return 0;
}
