#include "writer.h"

#include <errno.h>
#include <string.h>

#include "fileio.h"
#include "journal.h"
#include "kpath.h"

void
writer_warn_limits(const struct config *cfg, int kernel_max)
{
	if (cfg->max > kernel_max || cfg->min > kernel_max)
		journal_log(LOG_WARNING, NULL, "limits.%s %d is above what this kernel accepts; using at most %d",
			    cfg->max > kernel_max ? "max" : "min", cfg->max > kernel_max ? cfg->max : cfg->min,
			    kernel_max);
}

bool
writer_will_write(const struct writer *w)
{
	return w->backoff_left == 0;
}

int
writer_write(struct writer *w, struct knob *k, int value, int *kernel_max)
{
	int r;

	if (w->backoff_left > 0) {
		w->backoff_left--;
		return WRITER_WAITING;
	}
	/* A readback other than value is someone else's write after ours: the next
	 * poll sees it as any change by someone else (yield or override). */
	r = knob_write(k, value, NULL);
	if (r == -EINVAL && value > 100 && *kernel_max > 100) {
		/* The kernel said no to a value above 100: it predates 5.8. */
		*kernel_max = 100;
		journal_log(LOG_WARNING, MSGID_ERROR, "'%s' refused %d: this kernel accepts 0..100, limiting to that",
			    KPATH_SWAPPINESS, value);
		return WRITER_LIMITED;
	}
	if (r == 0) {
		journal_log_once(&w->err, 0, LOG_INFO, NULL, "'%s' writable again", KPATH_SWAPPINESS);
		w->backoff_polls = 0;
		return WRITER_WRITTEN;
	}
	journal_log_once(&w->err, r, LOG_ERR, MSGID_ERROR, "failed to write '%s': %s", KPATH_SWAPPINESS,
			 fileio_strerror(r));
	w->backoff_polls = w->backoff_polls == 0 ? 1 : w->backoff_polls * 2;
	if (w->backoff_polls > WRITER_BACKOFF_MAX_POLLS)
		w->backoff_polls = WRITER_BACKOFF_MAX_POLLS;
	w->backoff_left = w->backoff_polls;
	return r;
}
