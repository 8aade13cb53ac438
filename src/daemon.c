/* The daemon's life: start, reload, signals, stop. One poll is in
 * src/daemon_poll.c; the state they share is in include/daemon_internal.h. */
#include "daemon_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config_file.h"
#include "fileio.h"
#include "journal.h"
#include "kpath.h"
#include "lru_watch.h"

static void
apply_config(struct daemon *d, const struct config *cfg)
{
	d->cfg = *cfg;
	d->st.policy_auto = cfg->policy == CONFIG_POLICY_AUTO;
	journal_set_verbose(d->opt.verbose || cfg->debug);
	regulator_reset(&d->reg);
	d->policy = POLICY_COUNT; /* none yet: daemon_follow_lru sets it and the history */
	daemon_follow_lru(d, false);
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
	daemon_follow_cgroups(userdata, value);
}

/* Warns about each other tool that sets vm.swappiness: at start and on each
 * reload, never per poll. */
static void
check_others(struct daemon *d)
{
	coexist_scan(&d->others, true);
	coexist_report(&d->others, d->cfg.on_external_change);
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
		daemon_publish(d);
		(void)notify_send("READY=1");
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
			daemon_status_yielded(d, knob_value);
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
	(void)notify_send("READY=1");
	return 0;
}

static int
on_exit_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	(void)userdata;
	journal_log(LOG_INFO, NULL, "received %s, stopping", strsignal((int)si->ssi_signo));
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

/* A log line to a stderr pipe whose reader left (runit, s6, OpenRC log pipes,
 * `| tee`) must cost that line, not the daemon: its default action would end
 * it with the knob left at its last value. Writes then fail with EPIPE, which
 * the logging ignores, as the sockets' MSG_NOSIGNAL does. */
static int
ignore_sigpipe(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	if (sigemptyset(&sa.sa_mask) < 0 || sigaction(SIGPIPE, &sa, NULL) < 0)
		return -errno;
	return 0;
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
	/* A reload comes after them and after a poll that is due: the kernel hands
	 * out the lowest-numbered pending signal first, and SIGHUP (1) on the
	 * same signalfd as SIGTERM (15) starved it through a storm of reloads
	 * (sd-event reads one signalfd per priority), as it starved the polls. */
	if (r >= 0)
		r = sd_event_source_set_priority(d->sig_hup, SD_EVENT_PRIORITY_NORMAL + 1);
	if (r >= 0)
		r = wakeup_start(&d->wake, d->event);
	if (r >= 0)
		r = notify_watchdog_start(&d->watchdog, d->event);
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
	wakeup_init(&d->wake, &d->cfg, daemon_poll, d);
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
	lru_watch_close(&d->lru);
	sampler_free(d->sampler);
	wakeup_stop(&d->wake);
	notify_watchdog_stop(&d->watchdog);
	sd_event_source_unref(d->sig_hup);
	sd_event_source_unref(d->sig_term);
	sd_event_source_unref(d->sig_int);
	sd_event_unref(d->event);
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	if (d->state_fd >= 0)
		close(d->state_fd);
}

/* Under the lock no other instance writes here: a temporary file is what one
 * killed between writing and renaming a record left. */
static void
sweep_temps(struct daemon *d)
{
	unsigned removed;
	int r;

	r = fileio_remove_temps(d->state_fd, &removed);
	if (removed)
		journal_log(LOG_INFO, NULL, "removed %u temporary file%s left in '%s' by an instance killed mid-write",
			    removed, removed == 1 ? "" : "s", d->opt.state_dir);
	if (r < 0)
		journal_log(LOG_WARNING, MSGID_ERROR, "failed to remove the temporary files left in '%s': %s",
			    d->opt.state_dir, strerror(-r));
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
	sweep_temps(d);
	return 0;
}

int
daemon_run(const struct daemon_options *opt, const struct config *cfg)
{
	struct daemon d = { .state_fd = -1, .lock_fd = -1, .wake.psi_fd = -1, .lru.fd = -1 };
	char desc[160];
	int r, knob_value;

	r = ignore_sigpipe();
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "cannot ignore SIGPIPE: %s", strerror(-r));
		goto out;
	}
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
	lru_watch_open(&d.lru, &d.st);
	daemon_follow_lru(&d, false);
	journal_lru(LOG_INFO, MSGID_START, &d.lru.info, "started: %s, original %d%s; %s LRU, Linux %s%s%s",
		    config_describe(&d.cfg, desc, sizeof(desc)), d.own.original, d.own.dry_run ? ", dry run" : "",
		    d.st.lru, d.st.kernel, d.cfg.policy == CONFIG_POLICY_AUTO ? "; policy auto runs " : "",
		    d.cfg.policy == CONFIG_POLICY_AUTO ? d.io.policy : "");
	check_others(&d);
	if (d.own.yielded)
		daemon_status_yielded(&d, d.own.expected);
	else
		notify_status(&d.status, "started; swappiness %d", d.own.expected);
	d.st.pid = getpid();
	d.st.started_s = daemon_now_s();
	d.st.last_poll_s = d.st.started_s;
	d.st.swappiness = d.own.expected;
	publish_init(&d.pub);
	daemon_publish(&d);
	(void)notify_send("READY=1");
	r = sd_event_loop(d.event);
	(void)notify_send("STOPPING=1");
	if (r < 0)
		journal_log(LOG_ERR, MSGID_ERROR, "event loop failed: %s", strerror(-r));
	/* A failed restore is a failed stop: systemctl shows it, and the records
	 * stay for the next start. */
	if (!ownership_exit(&d.io, &d.own) && r >= 0)
		r = -EIO;
	publish_remove(d.opt.state_dir, d.state_fd, d.cfg.metrics_textfile);
	journal_log(LOG_INFO, MSGID_STOP, "stopped");
out:
	finish(&d);
	return r < 0 ? r : 0;
}
