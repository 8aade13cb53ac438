/* --once: one sample, one decision (decide.c, as the loop's poll), one write,
 * and the result as key=value pairs. No history, no records, no loop. */
#include "daemon.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "decide.h"
#include "fileio.h"
#include "journal.h"
#include "knob.h"
#include "kpath.h"
#include "lru_watch.h"
#include "sample.h"
#include "writer.h"

/* Opens the sampler and the knob and reads both. Returns 0 or a negative
 * errno (logged). */
static int
read_inputs(struct sampler **sampler, struct knob *knob, int *ret_knob, struct sample *ret)
{
	struct lru_info lru;
	int r;

	r = sampler_new(sampler);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", KPATH_MEMINFO, fileio_strerror(r));
		return r;
	}
	r = knob_open(knob, KPATH_SWAPPINESS);
	if (r >= 0)
		r = knob_read(knob, ret_knob);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", KPATH_SWAPPINESS, fileio_strerror(r));
		return r;
	}
	r = sampler_read(*sampler, ret);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", KPATH_MEMINFO,
			    r == -ENODATA ? "no MemTotal" : strerror(-r));
		return r;
	}
	/* Under the multi-gen LRU the regulator keeps off 0, 1 and 200 (regulator.h). */
	lru_read(&lru);
	ret->mglru = lru.kind == LRU_MGLRU;
	return 0;
}

/* Decides, and writes unless dry_run. Returns 0 or a negative errno (logged). */
static int
decide_and_write(const struct config *cfg, struct knob *knob, const struct sample *cur, int knob_value,
		 bool dry_run, struct decision *dn, bool *written)
{
	struct regulator reg = { 0 };
	struct policy_state fresh = { 0 }; /* the daemon's first poll, which has no history either */
	int r, readback, max = decide_max(cfg, cur);

	if (cfg->max == CONFIG_MAX_AUTO)
		journal_log(LOG_DEBUG, NULL, "max = auto: %d (%u swap devices, %u on zram, zswap %s)", max,
			    cur->swaps.devices, cur->swaps.zram, cur->zswap_enabled ? "on" : "off");
	r = decide(cfg, max, knob_kernel_max(), &fresh, &reg, NULL, cur, knob_value, dn);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "cannot decide: %s", strerror(-r));
		return r;
	}
	if (dn->dec.verdict != REGULATOR_WRITE || dry_run)
		return 0;
	r = knob_write(knob, dn->dec.value, &readback);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to write '%s': %s", KPATH_SWAPPINESS, fileio_strerror(r));
		return r;
	}
	knob_log_readback(knob, dn->dec.value, readback);
	*written = true;
	return 0;
}

int
daemon_once(const struct daemon_options *opt, const struct config *cfg, FILE *out)
{
	struct sampler *sampler = NULL;
	struct knob knob = { .fd = -1 };
	struct sample cur;
	struct decision dn;
	bool written = false, dry_run = opt->dry_run || cfg->dry_run;
	int r, knob_value;

	journal_set_verbose(opt->verbose || cfg->debug);
	writer_warn_limits(cfg, knob_kernel_max());
	r = read_inputs(&sampler, &knob, &knob_value, &cur);
	if (r >= 0)
		r = decide_and_write(cfg, &knob, &cur, knob_value, dry_run, &dn, &written);
	if (r < 0)
		goto out;
	fprintf(out,
		"policy=%s swappiness=%d previous=%d app_centile=%d swap_centile=%d mapped_ratio=%d distress=%d "
		"swap_tendency=%d target=%d max=%d verdict=%s dry_run=%s written=%s\n",
		policy_name(decide_policy(cfg, cur.mglru)), dn.dec.value, knob_value, dn.pr.app_centile, dn.pr.swap_centile,
		dn.pr.mapped_ratio, dn.pr.distress, dn.pr.swap_tendency, dn.pr.target, dn.lim.max,
		regulator_verdict_name(dn.dec.verdict), dry_run ? "yes" : "no", written ? "yes" : "no");
	if (fflush(out) != 0)
		r = -errno;
out:
	knob_close(&knob);
	sampler_free(sampler);
	return r;
}
