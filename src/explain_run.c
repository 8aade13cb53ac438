/* --explain: two looks at the kernel's state a second apart, the decision the
 * daemon would make (decide.c), and explain.c's sentences on stdout. Reads
 * only: no write to the knob, no state under /run, no journal, no lock; it
 * needs no privilege beyond reading /proc. */
#include "daemon.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "config_file.h"
#include "decide.h"
#include "explain.h"
#include "fileio.h"
#include "journal.h"
#include "knob.h"
#include "kpath.h"
#include "lru_watch.h"
#include "sample.h"

/* Between the two looks: the daemon's default poll under pressure, long enough
 * for PSI's stall total and the reclaim counters to say something. */
#define EXPLAIN_INTERVAL_MS 1000

/* Loads the configuration the daemon would use, or the defaults when this user
 * cannot read it or it is refused; says which in *in (the file to blame is
 * kept in info, which must outlive *in). */
static void
load_config(const struct daemon_options *opt, struct config *cfg, struct explain_input *in,
	    struct config_file_info *info)
{
	int r = config_file_load_info(opt->config_path, true, cfg, config_errors_print, NULL, info);

	in->config_path = opt->config_path;
	in->config_failed = info->failed_path[0] ? info->failed_path : NULL;
	if (r == 0) {
		in->config_source = info->main_absent ? EXPLAIN_CONFIG_DROPINS : EXPLAIN_CONFIG_FILE;
		return;
	}
	/* Absent: config_file_load has filled in the defaults. */
	in->config_source = r == 1	   ? EXPLAIN_CONFIG_ABSENT
			    : r == -EACCES ? EXPLAIN_CONFIG_UNREADABLE
					   : EXPLAIN_CONFIG_REFUSED;
	in->config_errno = r < 0 ? -r : 0;
	if (r < 0)
		config_defaults(cfg);
}

static int
sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* The knob's value and two samples EXPLAIN_INTERVAL_MS apart. Returns 0 or a
 * negative errno (logged). */
static int
read_inputs(int *ret_knob, struct sample *prev, struct sample *cur)
{
	struct sampler *sampler = NULL;
	struct knob knob = { .fd = -1 };
	const char *what = KPATH_SWAPPINESS;
	int r;

	r = knob_open(&knob, KPATH_SWAPPINESS);
	if (r >= 0)
		r = knob_read(&knob, ret_knob);
	knob_close(&knob);
	if (r >= 0) {
		what = KPATH_MEMINFO;
		r = sampler_new(&sampler);
	}
	if (r >= 0)
		r = sampler_read(sampler, prev);
	if (r >= 0) {
		what = "clock";
		r = sleep_ms(EXPLAIN_INTERVAL_MS);
	}
	if (r >= 0) {
		what = KPATH_MEMINFO;
		r = sampler_read(sampler, cur);
	}
	/* The optional sources it could not read, on stderr: which file and
	 * what is decided without it. */
	if (r >= 0) {
		unsigned logged = 0;

		sampler_log_missing(sampler, &logged);
	}
	sampler_free(sampler);
	if (r < 0)
		journal_log(LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", what,
			    r == -ENODATA ? "no MemTotal" : fileio_strerror(r));
	return r;
}

int
daemon_explain(const struct daemon_options *opt, FILE *out)
{
	struct explain_input in = { 0 };
	struct config cfg;
	struct sample prev, cur;
	struct decision dn;
	struct regulator reg = { 0 };
	struct policy_state fresh = { 0 }; /* the daemon's first poll, which has no history either */
	struct lru_info lru;
	static struct config_file_info info; /* PATH_MAX: off the stack */
	static char text[EXPLAIN_TEXT_BYTES];
	int r, knob_value, len;

	load_config(opt, &cfg, &in, &info);
	r = read_inputs(&knob_value, &prev, &cur);
	if (r < 0)
		return r;
	lru_read(&lru);
	cur.mglru = lru.kind == LRU_MGLRU;
	r = decide(&cfg, decide_max(&cfg, &cur), knob_kernel_max(), &fresh, &reg, &prev, &cur, knob_value, &dn);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "cannot decide: %s", strerror(-r));
		return r;
	}
	in.cfg = &cfg;
	in.cur = &cur;
	in.interval_us = cur.time_us > prev.time_us ? cur.time_us - prev.time_us : 0;
	in.dn = &dn;
	in.current = knob_value;
	in.lru = &lru;
	len = explain_render(&in, text, sizeof(text));
	if (len < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "the explanation does not fit its buffer");
		return len;
	}
	errno = 0;
	if (fwrite(text, 1, (size_t)len, out) != (size_t)len || fflush(out) != 0) {
		r = errno ? -errno : -EIO;
		journal_log(LOG_ERR, MSGID_ERROR, "failed to write the explanation: %s", strerror(-r));
		return r;
	}
	return 0;
}
