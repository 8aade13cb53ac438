#include "daemon.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include "cgroup.h"
#include "coexist_scan.h"
#include "config_file.h"
#include "decide.h"
#include "fileio.h"
#include "journal.h"
#include "knob.h"
#include "notify.h"
#include "ownership.h"
#include "kpath.h"
#include "publish.h"
#include "sample.h"
#include "wakeup.h"
#include "writer.h"

struct daemon {
	struct daemon_options opt;
	struct config cfg;
	sd_event *event;
	struct sampler *sampler;
	struct knob knob;
	struct regulator reg;
	struct policy_state pstate;
	struct sample prev, cur;
	bool has_prev;
	int kernel_max;
	struct owner own; /* who owns the knob, what to restore */
	struct ownership_io io; /* how ownership.c reaches the records and the knob */
	struct writer writer; /* the write backoff */
	/* The last error of each kind, so that a repeated failure logs once. */
	int sample_err, knob_read_err;
	unsigned missing_logged;
	struct notify_status status; /* what systemctl status shows */
	int state_fd; /* the state directory, open for the daemon's life */
	int lock_fd; /* held for the daemon's life */
	int auto_max; /* the last max = auto resolved to */
	struct wakeup wake; /* the poll timer and the PSI trigger */
	/* What `autoswappiness status` and the metrics show (publish.h says when
	 * each is rewritten). */
	struct status_snapshot st;
	struct publisher pub;
	bool cgroup_v1;	    /* a v1 memory hierarchy is mounted */
	struct cgroup_move cg_move; /* the last walk */
	int cgroup_err;	    /* the last failure making them follow, logged once */
	sd_event_source *sig_hup, *sig_term, *sig_int;
	/* Who else sets vm.swappiness, as of the last start, reload or yield. */
	struct coexist_findings others;
};

/* With cgroup v1, existing memory cgroups keep their own swappiness: the ones
 * that follow the global value follow it to value (the others were set on
 * purpose and are left alone). */
static void
follow_cgroups(struct daemon *d, int value)
{
	if (!d->cgroup_v1 || !d->cfg.cgroup_v1_follow || value == d->own.cg_value)
		return;
	cgroup_v1_follow(CGROUP_V1_MEMORY, &d->own.cg_value, value, &d->cg_move, &d->cgroup_err);
}

static int64_t
now_realtime_s(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_REALTIME, &ts) == 0 ? (int64_t)ts.tv_sec : 0;
}

/* Publishes the state file (for `status`) and the metrics textfile. */
static void
publish_state(struct daemon *d)
{
	d->st.dry_run = d->own.dry_run;
	d->st.yielded = d->own.yielded;
	d->st.original = d->own.original;
	d->st.restores = owner_restores(&d->own);
	d->st.poll_interval_ms = wakeup_interval_ms(&d->wake);
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


static void
status_yielded(struct daemon *d, int knob_value)
{
	notify_status(&d->status, "yielded: swappiness %d was set by someone else; reload to resume", knob_value);
}

/* Warns about each other tool that sets vm.swappiness: at start and on each
 * reload, never per poll. */
static void
check_others(struct daemon *d)
{
	coexist_scan(&d->others, true);
	coexist_report(&d->others, d->cfg.on_external_change);
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
		d->own.expected = knob_value;
		return false;
	}
	/* Once until the next reload: read the files again, since the usual
	 * cause is a file dropped in just now and a `sysctl --system`. */
	coexist_scan(&d->others, false);
	log_external(d, knob_value, "leaving it alone until reload");
	d->st.yields++;
	ownership_yield(&d->io, &d->own, knob_value);
	status_yielded(d, knob_value);
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
	const char *pname = policy_name(d->cfg.policy);
	struct journal_decision jd = {
		.policy = pname, .swappiness = dec->value, .previous = current, .result = pr, .reason = pr->reason
	};
	int r;

	if (dec->verdict != REGULATOR_WRITE) {
		journal_decision(LOG_DEBUG, MSGID_DECISION, &jd, "swappiness stays %d (%s: %s; %s)", current, pname,
				 pr->reason, regulator_verdict_name(dec->verdict));
		/* systemctl status shows the reason of a decision, not only of the last write
		 * (tendency keeps the value without reclaim and says so); sent only on change,
		 * and while the value stays at most every NOTIFY_REASON_MIN_S (notify.h). */
		if (!d->own.dry_run)
			notify_kept(&d->status, d->cur.time_us, "swappiness %d (%s: %s; %s)", current, pname,
				    pr->reason, regulator_verdict_name(dec->verdict));
		return;
	}
	if (d->own.dry_run) {
		journal_decision(LOG_NOTICE, MSGID_DECISION, &jd, "dry run: would set swappiness %d -> %d (%s: %s%s)",
				 current, dec->value, pname, pr->reason, dec->clamped ? ", clamped" : "");
		d->own.dry_value = dec->value;
		d->st.swappiness = dec->value;
		status_add_decision(&d->st, now_realtime_s(), current, dec->value, pr->reason);
		notify_status(&d->status, "dry run: swappiness would be %d (%s: %s)", dec->value, pname, pr->reason);
		return;
	}
	r = writer_write(&d->writer, &d->knob, dec->value, &d->kernel_max);
	if (r < 0) {
		d->st.errors++;
		notify_status(&d->status, "cannot write %s: %s", KPATH_SWAPPINESS, strerror(-r));
	}
	if (r != WRITER_WRITTEN)
		return;
	d->own.expected = dec->value;
	d->st.swappiness = dec->value;
	d->st.writes++;
	follow_cgroups(d, dec->value);
	status_add_decision(&d->st, now_realtime_s(), current, dec->value, pr->reason);
	journal_decision(LOG_NOTICE, MSGID_DECISION, &jd, "swappiness %d -> %d (%s: %s%s)", current, dec->value,
			 pname, pr->reason, dec->clamped ? ", clamped" : "");
	notify_status(&d->status, "swappiness %d (%s: %s)", dec->value, pname, pr->reason);
}

static void
poll_once(struct daemon *d)
{
	struct decision dn;
	int r, knob_value, current, max;

	/* Busy only while a decision sees pressure (not while yielded or failing). */
	d->wake.busy = false;
	d->st.last_poll_s = now_realtime_s();
	if (!read_sample(d)) {
		publish_state(d);
		return;
	}
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
	publish_state(d);
}

static void
poll_cb(void *userdata)
{
	poll_once(userdata);
}

static void
apply_config(struct daemon *d, const struct config *cfg)
{
	d->cfg = *cfg;
	d->io.policy = policy_name(cfg->policy);
	snprintf(d->st.policy, sizeof(d->st.policy), "%s", d->io.policy);
	journal_set_verbose(d->opt.verbose || cfg->debug);
	regulator_reset(&d->reg);
	d->pstate = (struct policy_state){ 0 };
}

/* --dry-run or the config's dry_run. */
static bool
want_dry_run(const struct daemon *d)
{
	return d->opt.dry_run || d->cfg.dry_run;
}

static void
follow_cb(void *userdata, int value)
{
	follow_cgroups(userdata, value);
}

static int
on_sighup(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct daemon *d = userdata;
	static struct config_errors errors;
	struct config cfg;
	char desc[160];
	int r, knob_value;

	(void)s;
	(void)si;
	notify_reloading();
	config_errors_reset(&errors);
	r = config_file_load(d->opt.config_path, d->opt.config_optional, &cfg, config_errors_collect, &errors);
	if (r < 0) {
		char more[64];

		config_errors_finish(&errors, more, sizeof(more));
		journal_log(LOG_ERR, MSGID_RELOAD_FAILED,
			    "reload of '%s' failed; keeping the running configuration (%u errors):\n%s%s",
			    d->opt.config_path, errors.count, errors.text, more);
		d->st.reload_failures++;
		check_others(d);
		publish_state(d);
		(void)sd_notify(0, "READY=1");
		return 0;
	}
	/* Do not leave a stale file behind for the collector. */
	if (strcmp(cfg.metrics_textfile, d->cfg.metrics_textfile) != 0)
		publish_metrics_moved(&d->pub, d->cfg.metrics_textfile);
	apply_config(d, &cfg);
	wakeup_arm_psi(&d->wake);
	writer_warn_limits(&d->cfg, d->kernel_max);
	if (knob_read(&d->knob, &knob_value) < 0)
		knob_value = -1;
	ownership_reload(&d->io, &d->own, want_dry_run(d), knob_value);
	if (knob_value >= 0) {
		if (d->own.yielded)
			status_yielded(d, knob_value);
		else
			notify_status(&d->status, "reloaded; swappiness %d", knob_value);
	}
	/* The new configuration's first decision shows at once. */
	d->status.kept_sent = false;
	d->st.reloads++;
	journal_log(LOG_NOTICE, MSGID_RELOAD, "reloaded '%s': %s%s", d->opt.config_path,
		    config_describe(&d->cfg, desc, sizeof(desc)), d->own.dry_run ? ", dry run" : "");
	check_others(d);
	/* Apply the new configuration now rather than at the next tick. */
	wakeup_soon(&d->wake);
	(void)sd_notify(0, "READY=1");
	return 0;
}

static int
on_exit_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	(void)userdata;
	journal_log(LOG_INFO, NULL, "received %s, stopping", strsignal((int)si->ssi_signo));
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

/* Keeps the daemon resident while the machine swaps: a regulator that is itself
 * swapped out decides nothing. MCL_ONFAULT (4.4+) locks pages as they are
 * touched instead of the whole address space up front. */
static void
lock_memory(void)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0)
		return;
	if (errno == EINVAL && mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
		return;
	journal_log(LOG_WARNING, MSGID_ERROR, "mlockall failed: %s; the daemon may be swapped out under pressure",
		    strerror(errno));
}

static int
setup_loop(struct daemon *d)
{
	int r;

	r = wakeup_block_signals();
	if (r < 0)
		return r;
	r = sd_event_default(&d->event);
	if (r < 0)
		return r;
	r = sd_event_add_signal(d->event, &d->sig_hup, SIGHUP, on_sighup, d);
	if (r >= 0)
		r = sd_event_add_signal(d->event, &d->sig_term, SIGTERM, on_exit_signal, d);
	if (r >= 0)
		r = sd_event_add_signal(d->event, &d->sig_int, SIGINT, on_exit_signal, d);
	/* A signal that came during startup (it has been blocked since main) is
	 * pending when the loop starts, as the first poll is: the signal goes
	 * first, so that a stop asked for then writes nothing. */
	if (r >= 0)
		r = sd_event_source_set_priority(d->sig_term, SD_EVENT_PRIORITY_IMPORTANT);
	if (r >= 0)
		r = sd_event_source_set_priority(d->sig_int, SD_EVENT_PRIORITY_IMPORTANT);
	if (r >= 0)
		r = sd_event_source_set_priority(d->sig_hup, SD_EVENT_PRIORITY_IMPORTANT);
	if (r >= 0)
		r = wakeup_start(&d->wake, d->event);
	if (r >= 0)
		r = sd_event_set_watchdog(d->event, true);
	return r < 0 ? r : 0;
}

/* Opens the sampler and the knob; *ret_knob is the knob's value. */
static int
start(struct daemon *d, const struct daemon_options *opt, const struct config *cfg, int *ret_knob)
{
	int r;

	d->opt = *opt;
	d->knob.fd = -1;
	d->io = (struct ownership_io){
		.state_dir = opt->state_dir, .state_fd = -1, .knob = &d->knob, .follow = follow_cb, .userdata = d
	};
	wakeup_init(&d->wake, &d->cfg, poll_cb, d);
	apply_config(d, cfg);
	d->kernel_max = knob_kernel_max();
	writer_warn_limits(&d->cfg, d->kernel_max);
	r = sampler_new(&d->sampler);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", KPATH_MEMINFO, fileio_strerror(r));
		return r;
	}
	r = knob_open(&d->knob, KPATH_SWAPPINESS);
	if (r >= 0)
		r = knob_read(&d->knob, ret_knob);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to read '%s': %s", KPATH_SWAPPINESS, fileio_strerror(r));
		return r;
	}
	return 0;
}

static void
finish(struct daemon *d)
{
	knob_close(&d->knob);
	sampler_free(d->sampler);
	wakeup_stop(&d->wake);
	sd_event_source_unref(d->sig_hup);
	sd_event_source_unref(d->sig_term);
	sd_event_source_unref(d->sig_int);
	sd_event_unref(d->event);
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	if (d->state_fd >= 0)
		close(d->state_fd);
}

/* Opens the state directory and takes its lock. Returns 0, -EPERM when the
 * directory or the lock is not what only root controls, or another negative
 * errno (logged). */
static int
take_state_dir(struct daemon *d)
{
	const char *dir = d->opt.state_dir;
	char why[96];
	int r, holder;

	r = knob_state_dir_open(dir, why, sizeof(why));
	if (r == -EPERM) {
		journal_log(LOG_ERR, MSGID_ERROR,
			    "refusing to start: the state directory '%s' is %s; it must be a directory of root's "
			    "that only root may write",
			    dir, why);
		return r;
	}
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to open '%s': %s", dir, strerror(-r));
		return r;
	}
	d->state_fd = d->io.state_fd = r;
	r = knob_lock(d->state_fd, &holder, why, sizeof(why));
	if (r == -EBUSY)
		journal_log(LOG_ERR, MSGID_ERROR, "another instance (pid %d) holds '%s/lock'; not starting", holder,
			    dir);
	else if (r == -EPERM)
		journal_log(LOG_ERR, MSGID_ERROR,
			    "refusing to start: '%s/lock' is %s; it must be a regular file of root's with one link",
			    dir, why);
	else if (r < 0)
		journal_log(LOG_ERR, MSGID_ERROR, "failed to lock '%s/lock': %s", dir, strerror(-r));
	if (r < 0)
		return r;
	d->lock_fd = r;
	return 0;
}

int
daemon_run(const struct daemon_options *opt, const struct config *cfg)
{
	struct daemon d = { .state_fd = -1, .lock_fd = -1, .wake.psi_fd = -1 };
	char desc[160];
	int r, knob_value;

	r = start(&d, opt, cfg, &knob_value);
	if (r < 0)
		goto out;
	r = take_state_dir(&d);
	if (r < 0)
		goto out;
	lock_memory();
	/* Records left by an instance that did not exit cleanly win over what
	 * the knob holds now. */
	ownership_start(&d.io, &d.own, knob_value, want_dry_run(&d));
	r = setup_loop(&d);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to set up the event loop: %s", strerror(-r));
		goto out;
	}
	wakeup_arm_psi(&d.wake);
	d.cgroup_v1 = cgroup_v1_present(CGROUP_V1_MEMORY);
	if (d.cgroup_v1 && !d.cfg.cgroup_v1_follow)
		journal_log(LOG_WARNING, NULL,
			    "cgroup v1 memory controller: each memory cgroup keeps the swappiness it was created with, "
			    "so vm.swappiness changes only the root; [daemon] cgroup_v1_follow = yes makes them follow");
	journal_log(LOG_INFO, MSGID_START, "started: %s, original %d%s", config_describe(&d.cfg, desc, sizeof(desc)),
		    d.own.original, d.own.dry_run ? ", dry run" : "");
	check_others(&d);
	if (d.own.yielded)
		status_yielded(&d, d.own.expected);
	else
		notify_status(&d.status, "started; swappiness %d", d.own.expected);
	d.st.pid = getpid();
	d.st.started_s = now_realtime_s();
	d.st.last_poll_s = d.st.started_s;
	d.st.swappiness = d.own.expected;
	publish_init(&d.pub);
	publish_state(&d);
	(void)sd_notify(0, "READY=1");
	r = sd_event_loop(d.event);
	(void)sd_notify(0, "STOPPING=1");
	if (r < 0)
		journal_log(LOG_ERR, MSGID_ERROR, "event loop failed: %s", strerror(-r));
	ownership_exit(&d.io, &d.own);
	publish_remove(d.opt.state_dir, d.state_fd, d.cfg.metrics_textfile);
	journal_log(LOG_INFO, MSGID_STOP, "stopped");
out:
	finish(&d);
	return r < 0 ? r : 0;
}
