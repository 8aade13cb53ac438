#include "lru_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "journal.h"
#include "kpath.h"

/* The kernel prints "0x%04x\n" (7 bytes); room for any number it takes on
 * write. Anything longer is not the kernel's file. */
#define LRU_FILE_MAX_BYTES 32

/* The release from KPATH_OSRELEASE, else from uname(2), else "". */
static void
read_release(struct lru_info *info)
{
	char buf[LRU_RELEASE_BYTES + 1];
	struct utsname u;
	ssize_t n = fileio_read(KPATH_OSRELEASE, buf, sizeof(buf));

	info->release[0] = '\0';
	if (n >= 0 && lru_set_release(info, buf, (size_t)n) == 0)
		return;
	if (uname(&u) == 0)
		(void)lru_set_release(info, u.release, strlen(u.release));
}

/* Opens the file for reads at offset 0. Returns the fd or a negative errno:
 * -EBADFD when it is not a regular file (a FIFO or a device someone put
 * there is never read, so a read never blocks). */
static int
open_enabled(void)
{
	struct stat st;
	int fd;

	fd = open(KPATH_LRU_GEN_ENABLED, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EBADFD;
	}
	return fd;
}

/* Reads the open file (or takes why it is not open) into w->info. */
static void
read_enabled(struct lru_watch *w)
{
	ssize_t n = w->fd >= 0 ? fileio_pread_all(w->fd, &w->buf, LRU_FILE_MAX_BYTES) : w->open_err;

	lru_classify(n, w->buf.data, &w->info);
}

void
lru_read(struct lru_info *ret)
{
	struct lru_watch w = {.fd = -1};

	w.fd = open_enabled();
	if (w.fd < 0)
		w.open_err = w.fd;
	read_enabled(&w);
	read_release(&w.info);
	*ret = w.info;
	lru_watch_close(&w);
}

/* What the file says, for a message: "0x0007", "no such file", or why it
 * could not be read. */
static const char *
describe(const struct lru_info *info, char *buf, size_t len)
{
	if (info->source == LRU_SOURCE_FILE)
		snprintf(buf, len, "'%s' is 0x%04x", KPATH_LRU_GEN_ENABLED, (unsigned)info->caps);
	else if (info->source == LRU_SOURCE_ABSENT)
		snprintf(buf, len, "no '%s'", KPATH_LRU_GEN_ENABLED);
	else
		snprintf(buf, len, "'%s' unreadable", KPATH_LRU_GEN_ENABLED);
	return buf;
}

/* Logs a failure to read the file, or its end, once each. */
static void
log_failure(struct lru_watch *w)
{
	int err = w->info.source == LRU_SOURCE_BAD ? w->info.err : 0;

	if (err == w->logged_err)
		return;
	if (err < 0)
		journal_log(LOG_WARNING, MSGID_ERROR, "cannot read '%s': %s; taking the LRU as classic",
			    KPATH_LRU_GEN_ENABLED, err == -EINVAL ? "not a number" : fileio_strerror(err));
	else
		journal_log(LOG_INFO, NULL, "'%s' readable again", KPATH_LRU_GEN_ENABLED);
	w->logged_err = err;
}

static void
show(const struct lru_watch *w, struct status_snapshot *st)
{
	snprintf(st->lru, sizeof(st->lru), "%s", lru_name(w->info.kind));
	snprintf(st->kernel, sizeof(st->kernel), "%s", w->info.release);
}

void
lru_watch_open(struct lru_watch *w, struct status_snapshot *st)
{
	*w = (struct lru_watch){.fd = -1};
	w->fd = open_enabled();
	if (w->fd < 0)
		w->open_err = w->fd;
	read_enabled(w);
	read_release(&w->info);
	log_failure(w);
	show(w, st);
}

void
lru_watch_poll(struct lru_watch *w, struct status_snapshot *st)
{
	enum lru_kind was = w->info.kind;
	char what[96];

	if (w->fd < 0)
		return;
	read_enabled(w);
	log_failure(w);
	if (w->info.kind != was)
		journal_lru(LOG_NOTICE, MSGID_LRU, &w->info, "the kernel's LRU changed from %s to %s (%s)",
			    lru_name(was), lru_name(w->info.kind), describe(&w->info, what, sizeof(what)));
	show(w, st);
}

void
lru_watch_close(struct lru_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	fileio_buf_free(&w->buf);
}
