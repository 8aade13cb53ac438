#include "daemon_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "decide.h"
#include "journal.h"
#include "kpath.h"

/* With cgroup v1, existing memory cgroups keep their own swappiness: the ones
 * that follow the global value follow it to value (the others were set on
 * purpose and are left alone). */
void
daemon_follow_cgroups(struct daemon *d, int value)
{
	if (!d->cgroup_v1 || !d->cfg.cgroup_v1_follow || value == d->own.cg_value)
		return;
	cgroup_v1_follow(CGROUP_V1_MEMORY, &d->own.cg_value, value, &d->cg_move, &d->cgroup_err);
}

int64_t
daemon_now_s(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_REALTIME, &ts) == 0 ? (int64_t)ts.tv_sec : 0;
}

/* Publishes the state file (for `status`) and the metrics textfile. */
void
daemon_publish(struct daemon *d)
{
	d->st.dry_run = d->own.dry_run;
	d->st.yielded = d->own.yielded;
	d->st.original = d->own.original;
	d->st.restores = owner_restores(&d->own);
	d->st.poll_interval_ms = wakeup_interval_ms(&d->wake);
	d->st.journal_dropped = journal_not_taken();
	publish(&d->pub, d->opt.state_dir, d->state_fd, d->cfg.metrics_textfile, &d->st);
}

/* The configured max, or with max = auto the top of the range that suits the
 * swap devices now (logged when it changes: swapon/swapoff, zram, zswap). */
static int
resolve_max(struct daemon *d, const struct sample *s)
{
	int max;

	if (d->cfg.max != CONFIG_MAX_AUTO)
		return d->cfg.max;
	max = decide_max(&d->cfg, s);
	/* The first one at debug level: the start record says max = auto. */
	journal_log_once(&d->auto_max, max, d->auto_max ? LOG_NOTICE : LOG_DEBUG, NULL,
			 "max = auto: %d (%u swap devices, %u on zram, zswap %s)", max, s->swaps.devices, s->swaps.zram,
			 s->zswap_enabled ? "on" : "off");
	return max;
}


void
daemon_status_yielded(struct daemon *d, int knob_value)
{
	notify_status(&d->status, "yielded: swappiness %d was set by someone else; reload to resume", knob_value);
}

/* Logs someone else's change of the knob, naming the file that probably made
 * it when one of the others sets exactly that value. */
static void
log_external(struct daemon *d, int knob_value, const char *what)
{
	const struct coexist_finding *f = coexist_match(&d->others, knob_value);
	struct journal_other o;

	if (!f) {
		journal_log(LOG_NOTICE, MSGID_EXTERNAL, "%s changed from %d to %d by someone else; %s", KPATH_SWAPPINESS,
			    d->own.expected, knob_value, what);
		return;
	}
	o = (struct journal_other){
		.source = coexist_source_name(f->source), .file = f->file, .line = f->line, .value = f->value
	};
	journal_other(LOG_NOTICE, MSGID_EXTERNAL, &o,
		      "%s changed from %d to %d by someone else; %s (probably %s:%u, which sets vm.swappiness = %d)",
		      KPATH_SWAPPINESS, d->own.expected, knob_value, what, f->file, f->line, f->value);
}

/* Returns true when someone else changed the knob and we now keep our hands off
 * (owner_changed_elsewhere: the exit must not write over their value). */
static bool
check_external_change(struct daemon *d, int knob_value)
{
	if (!owner_changed_elsewhere(&d->own, knob_value))
		return false;
	d->st.swappiness = knob_value;
	if (d->cfg.on_external_change == CONFIG_EXTERNAL_OVERRIDE) {
		/* The findings of the last start or reload: an override may
		 * happen at every poll, and a poll reads no configuration. */
		log_external(d, knob_value, "overriding");
		ownership_expect(&d->io, &d->own, knob_value);
		return false;
	}
	/* Once until the next reload: read the files again, since the usual
	 * cause is a file dropped in just now and a `sysctl --system`. */
	coexist_scan(&d->others, false);
	log_external(d, knob_value, "leaving it alone until reload");
	d->st.yields++;
	ownership_yield(&d->io, &d->own, knob_value);
	daemon_status_yielded(d, knob_value);
	return true;
}

/* Reads the next sample. Returns false (logged once) when it cannot be read. */
static bool
read_sample(struct daemon *d)
{
	int r;

	r = sampler_read(d->sampler, &d->cur);
	if (r < 0) {
		if (journal_log_once(&d->sample_err, r, LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", KPATH_MEMINFO,
				     r == -ENODATA ? "no MemTotal" : strerror(-r)))
			d->st.errors++;
		d->has_prev = false;
		return false;
	}
	journal_log_once(&d->sample_err, 0, LOG_INFO, NULL, "'%s' readable again", KPATH_MEMINFO);
	sampler_log_missing(d->sampler, &d->missing_logged);
	status_count_pages(&d->st, &(struct status_pages){ .has_vmstat = d->cur.has_vmstat,
							   .has_refaults = d->cur.has_refaults,
							   .refault_file = d->cur.refault_file_pages,
							   .refault_anon = d->cur.refault_anon_pages,
							   .swapin = d->cur.pswpin_pages,
							   .scan = d->cur.pgscan_pages });
	return true;
}

/* What `status` and the metrics show of a decision. */
static void
show_decision(struct daemon *d, const struct decision *dn, int current)
{
	const struct policy_result *pr = &dn->pr;

	d->st.swappiness = current;
	d->st.target = pr->target;
	regulator_range(&dn->lim, &d->st.min, &d->st.max);
	d->st.app_centile = pr->app_centile;
	d->st.swap_centile = pr->swap_centile;
	d->st.mapped_ratio = pr->mapped_ratio;
	d->st.distress = pr->distress;
	d->st.swap_tendency = pr->swap_tendency;
	d->st.has_swap = d->cur.swap_total_kib > 0;
	d->st.refault_file_pps = pr->file_refault_pps;
	d->st.refault_anon_pps = pr->anon_refault_pps;
	d->st.swapin_pps = pr->swapin_pps;
}

/* Carries out a decision: logs it, pretends it (dry run), or writes it (unless
 * backing off after a failed write). */
static void
act(struct daemon *d, const struct decision *dn, int current)
{
	const struct policy_result *pr = &dn->pr;
	const struct regulator_decision *dec = &dn->dec;
	const char *pname = d->io.policy;
	struct journal_decision jd = {
		.policy = pname, .swappiness = dec->value, .previous = current, .result = pr, .reason = pr->reason
	};
	char verdict[REGULATOR_VERDICT_TEXT_MAX];
	int r;

	if (dec->verdict != REGULATOR_WRITE) {
		/* Most polls keep the value, and then no one may read their text: the DEBUG
		 * record is off by default, and systemctl status shows the reason of a decision
		 * that keeps the value (tendency keeps it without reclaim and says so) only on
		 * change and at most every NOTIFY_REASON_MIN_S (notify.h). So it is built only
		 * for a reader. */
		bool log = journal_wants(LOG_DEBUG);
		bool tell = !d->own.dry_run && notify_kept_due(&d->status, d->cur.time_us);

		if (!log && !tell)
			return;
		regulator_verdict_text(dec, &dn->lim, verdict, sizeof(verdict));
		if (log)
			journal_decision(LOG_DEBUG, MSGID_DECISION, &jd, "swappiness stays %d (%s: %s; %s)", current,
					 pname, pr->reason, verdict);
		if (tell)
			notify_kept(&d->status, d->cur.time_us, "swappiness %d (%s: %s; %s)", current, pname,
				    pr->reason, verdict);
		return;
	}
	if (d->own.dry_run) {
		journal_decision(LOG_NOTICE, MSGID_DECISION, &jd, "dry run: would set swappiness %d -> %d (%s: %s%s)",
				 current, dec->value, pname, pr->reason, dec->clamped ? ", clamped" : "");
		d->own.dry_value = dec->value;
		d->st.swappiness = dec->value;
		status_add_decision(&d->st, daemon_now_s(), current, dec->value, pr->reason);
		notify_status(&d->status, "dry run: swappiness would be %d (%s: %s)", dec->value, pname, pr->reason);
		return;
	}
	/* Write-ahead: a crash between the write and "written" leaves "writing"
	 * naming the value as ours (owner.h). */
	if (writer_will_write(&d->writer))
		ownership_will_write(&d->io, &d->own, dec->value);
	r = writer_write(&d->writer, &d->knob, dec->value, &d->kernel_max);
	if (r < 0) {
		d->st.errors++;
		notify_status(&d->status, "cannot write %s: %s", KPATH_SWAPPINESS, strerror(-r));
	}
	if (r != WRITER_WRITTEN)
		return;
	ownership_expect(&d->io, &d->own, dec->value);
	d->st.swappiness = dec->value;
	d->st.writes++;
	daemon_follow_cgroups(d, dec->value);
	status_add_decision(&d->st, daemon_now_s(), current, dec->value, pr->reason);
	journal_decision(LOG_NOTICE, MSGID_DECISION, &jd, "swappiness %d -> %d (%s: %s%s)", current, dec->value,
			 pname, pr->reason, dec->clamped ? ", clamped" : "");
	notify_status(&d->status, "swappiness %d (%s: %s)", dec->value, pname, pr->reason);
}

void
daemon_follow_lru(struct daemon *d, bool say)
{
	enum policy_kind kind = decide_policy(&d->cfg, d->lru.info.kind == LRU_MGLRU);

	if (kind == d->policy)
		return;
	d->policy = kind;
	d->io.policy = policy_name(kind);
	snprintf(d->st.policy, sizeof(d->st.policy), "%s", d->io.policy);
	d->pstate = (struct policy_state){ 0 };
	if (say)
		journal_lru(LOG_NOTICE, MSGID_LRU, &d->lru.info, "policy auto: the %s policy decides from now on, for the %s LRU",
			    d->io.policy, d->st.lru);
}

static void
poll_once(struct daemon *d)
{
	struct decision dn;
	int r, knob_value, current, max;

	/* Busy only while a decision sees pressure (not while yielded or failing). */
	d->wake.busy = false;
	d->st.last_poll_s = daemon_now_s();
	notify_flush();
	lru_watch_poll(&d->lru, &d->st);
	daemon_follow_lru(d, true);
	if (!read_sample(d)) {
		daemon_publish(d);
		return;
	}
	d->cur.mglru = d->lru.info.kind == LRU_MGLRU;
	max = resolve_max(d, &d->cur);
	r = knob_read(&d->knob, &knob_value);
	if (r < 0) {
		if (journal_log_once(&d->knob_read_err, r, LOG_ERR, MSGID_ERROR, "failed to read '%s': %s",
				     KPATH_SWAPPINESS, strerror(-r)))
			d->st.errors++;
		goto done;
	}
	d->knob_read_err = 0;
	if (owner_must_claim(&d->own))
		ownership_claim(&d->io, &d->own, knob_value);
	if (d->own.yielded || check_external_change(d, knob_value))
		goto done;
	current = owner_current(&d->own, knob_value);
	r = decide(&d->cfg, max, d->kernel_max, &d->pstate, &d->reg, d->has_prev ? &d->prev : NULL, &d->cur,
		   current, &dn);
	if (r < 0) {
		/* Cannot happen with a validated config; say so rather than go quiet. */
		journal_log(LOG_ERR, MSGID_ERROR, "cannot decide: %s", strerror(-r));
		goto done;
	}
	d->wake.busy = dn.pr.active;
	show_decision(d, &dn, current);
	act(d, &dn, current);
done:
	d->prev = d->cur;
	d->has_prev = true;
	daemon_publish(d);
}

void
daemon_poll(void *userdata)
{
	poll_once(userdata);
}

