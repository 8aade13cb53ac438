#include "publish.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "journal.h"

void
publish_init(struct publisher *p)
{
	p->state_len = -1;
	p->state_err = p->metrics_err = 0;
}

/* Writes buf to name in the directory open at dfd, or to path when dfd is
 * AT_FDCWD (path names it in messages either way); with last (the previous
 * write), only if it differs. Logs a failure once until it changes. */
static void
publish_file(int dfd, const char *name, const char *path, const char *buf, int len, char *last, int *last_len,
	     int *err)
{
	char why[PATH_MAX + 80];
	int r;

	if (len < 0) {
		journal_log_once(err, -ENOBUFS, LOG_ERR, MSGID_ERROR, "'%s' does not fit its buffer; not written",
				 path);
		return;
	}
	if (last && len == *last_len && memcmp(buf, last, (size_t)len) == 0 && *err == 0)
		return;
	if (dfd == AT_FDCWD)
		r = fileio_write_atomic(path, buf, (size_t)len, 0644, why, sizeof(why));
	else
		r = fileio_write_atomic_at(dfd, name, buf, (size_t)len, 0644);
	if (r < 0) {
		/* strerror only on failure: glibc 2.41's allocates (gettext), and a poll allocates
		 * nothing (tests/valgrind.sh). */
		journal_log_once(err, r, LOG_ERR, MSGID_ERROR, "failed to write '%s': %s", path,
				 dfd == AT_FDCWD ? why : strerror(-r));
		return;
	}
	*err = 0;
	if (!last)
		return;
	memcpy(last, buf, (size_t)len);
	*last_len = len;
}

void
publish(struct publisher *p, const char *state_dir, int state_fd, const char *metrics_path,
	const struct status_snapshot *st)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", state_dir);
	publish_file(state_fd, "state", path, p->state_buf,
		     status_render_state(st, p->state_buf, sizeof(p->state_buf)), p->state_last, &p->state_len,
		     &p->state_err);
	/* The textfile every time: a collector tells a live daemon from a file
	 * left by a killed one by its last_poll_timestamp_seconds. */
	if (metrics_path[0])
		publish_file(AT_FDCWD, NULL, metrics_path, p->metrics_buf,
			     status_render_metrics(st, p->metrics_buf, sizeof(p->metrics_buf)), NULL, NULL,
			     &p->metrics_err);
}

static void
remove_file(int dfd, const char *name, const char *path)
{
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		journal_log(LOG_WARNING, MSGID_ERROR, "failed to remove '%s': %s", path, strerror(errno));
}

/* The textfile's directory may belong to the collector's user: removed the
 * way it was written (fileio_remove), never through a symlink put in its
 * directory's place or above it. */
static void
remove_metrics(const char *path)
{
	char why[PATH_MAX + 64];
	int r;

	if (!path[0])
		return;
	r = fileio_remove(path, why, sizeof(why));
	if (r < 0 && r != -ENOENT)
		journal_log(LOG_WARNING, MSGID_ERROR, "failed to remove '%s': %s", path, why);
}

void
publish_metrics_moved(struct publisher *p, const char *old_path)
{
	remove_metrics(old_path);
	p->metrics_err = 0;
}

void
publish_remove(const char *state_dir, int state_fd, const char *metrics_path)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", state_dir);
	remove_file(state_fd, "state", path);
	remove_metrics(metrics_path);
}
