#include "wakeup.h"

#include <errno.h>
#include <linux/capability.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "journal.h"
#include "kpath.h"
#include "sample.h"

int
wakeup_block_signals(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	return sigprocmask(SIG_BLOCK, &mask, NULL) < 0 ? -errno : 0;
}

void
wakeup_init(struct wakeup *w, const struct config *cfg, void (*poll)(void *userdata), void *userdata)
{
	*w = (struct wakeup){ .psi_fd = -1, .cfg = cfg, .poll = poll, .userdata = userdata };
}

unsigned
wakeup_interval_ms(const struct wakeup *w)
{
	/* Without a working PSI trigger nothing wakes the daemon early, so the
	 * calm interval would be the reaction time: poll at the busy pace. */
	bool no_wakeup = w->cfg->psi_trigger_ms > 0 && w->psi_fd < 0;

	if ((w->busy || no_wakeup) && w->cfg->busy_interval_ms < w->cfg->interval_ms)
		return w->cfg->busy_interval_ms;
	return w->cfg->interval_ms;
}

static int
on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct wakeup *w = userdata;
	uint64_t ms;
	int r;

	(void)usec;
	w->poll(w->userdata);
	/* Poll often while memory is under pressure, rarely while it is calm. */
	/* sd-event's default accuracy is 250 ms, which would stretch short
	 * intervals; a tenth of the interval still lets wake-ups coalesce. */
	ms = wakeup_interval_ms(w);
	r = sd_event_source_set_time_relative(s, ms * 1000u);
	if (r >= 0)
		r = sd_event_source_set_time_accuracy(s, ms * 100u);
	if (r >= 0)
		r = sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to re-arm the poll timer: %s", strerror(-r));
		return sd_event_exit(sd_event_source_get_event(s), r);
	}
	return 0;
}

int
wakeup_start(struct wakeup *w, sd_event *event)
{
	w->event = event;
	return sd_event_add_time_relative(event, &w->timer, CLOCK_MONOTONIC, 0, 0, on_timer, w);
}

void
wakeup_soon(struct wakeup *w)
{
	int r;

	r = sd_event_source_set_time_relative(w->timer, 0);
	/* Now means now: the accuracy on_timer left (a tenth of the calm
	 * interval, 500 ms by default) would let sd-event put this poll up to
	 * that much later to coalesce wake-ups. 1 us, as 0 is sd-event's
	 * default of 250 ms; on_timer sets it again for the next wait. */
	if (r >= 0)
		r = sd_event_source_set_time_accuracy(w->timer, 1);
	if (r >= 0)
		r = sd_event_source_set_enabled(w->timer, SD_EVENT_ONESHOT);
	if (r < 0)
		journal_log(LOG_ERR, MSGID_ERROR, "failed to re-arm the poll timer: %s", strerror(-r));
}

static void
disarm_psi_trigger(struct wakeup *w)
{
	w->psi_source = sd_event_source_disable_unref(w->psi_source);
	if (w->psi_fd >= 0)
		close(w->psi_fd);
	w->psi_fd = -1;
	w->psi_trigger_ms = 0;
}

static int
on_psi(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct wakeup *w = userdata;

	(void)s;
	(void)fd;
	if (revents & (EPOLLERR | EPOLLHUP)) {
		journal_log(LOG_WARNING, MSGID_ERROR, "the PSI trigger on '%s' went away; polling on the timer only",
			    KPATH_PSI_MEMORY);
		disarm_psi_trigger(w);
		return 0;
	}
	journal_log(LOG_DEBUG, NULL, "PSI trigger: memory stall over %u ms in %u ms", w->psi_trigger_ms,
		    (unsigned)CONFIG_PSI_WINDOW_MS);
	w->busy = true;
	wakeup_soon(w);
	return 0;
}

/*
 * The kernel's pace for a trigger that this process opens now: it takes the
 * opener's CAP_SYS_RESOURCE (file->f_cred) as the privilege to poll. With it,
 * its psimon thread checks the trigger every tenth of the window while tasks
 * stall; without it, the 2 s averaging worker does (Linux 6.5, Debian 12's
 * 6.1). The unit grants the capability inside its private user namespace,
 * where the kernel's capable() checks never see it (autoswappiness.service).
 */
static unsigned
psi_check_ms(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	if (syscall(SYS_capget, &hdr, data) < 0 ||
	    !(data[CAP_TO_INDEX(CAP_SYS_RESOURCE)].effective & CAP_TO_MASK(CAP_SYS_RESOURCE)))
		return CONFIG_PSI_UNPRIVILEGED_CHECK_MS;
	return CONFIG_PSI_WINDOW_MS / 10;
}

void
wakeup_arm_psi(struct wakeup *w)
{
	const struct config *c = w->cfg;
	unsigned check_ms;
	int fd, r;

	if (c->psi_trigger_ms == w->psi_trigger_ms)
		return;
	disarm_psi_trigger(w);
	if (c->psi_trigger_ms == 0)
		return;
	check_ms = psi_check_ms();
	fd = sampler_psi_trigger(c->psi_trigger_ms * 1000u, CONFIG_PSI_WINDOW_MS * 1000u);
	if (fd < 0) {
		journal_log(LOG_WARNING, NULL, "no PSI trigger on '%s': %s; polling every %u ms", KPATH_PSI_MEMORY,
			    fd == -ENOTSUP ? "not procfs" : strerror(-fd),
			    c->busy_interval_ms < c->interval_ms ? c->busy_interval_ms : c->interval_ms);
		return;
	}
	r = sd_event_add_io(w->event, &w->psi_source, fd, EPOLLPRI, on_psi, w);
	if (r < 0) {
		close(fd);
		journal_log(LOG_WARNING, MSGID_ERROR, "cannot watch the PSI trigger: %s", strerror(-r));
		return;
	}
	w->psi_fd = fd;
	w->psi_trigger_ms = c->psi_trigger_ms;
	journal_log(LOG_INFO, NULL, "PSI trigger armed: some %u ms per %u ms, checked by the kernel every %u ms (%s)",
		    w->psi_trigger_ms, (unsigned)CONFIG_PSI_WINDOW_MS, check_ms,
		    check_ms < CONFIG_PSI_UNPRIVILEGED_CHECK_MS ? "CAP_SYS_RESOURCE" : "without CAP_SYS_RESOURCE");
}

void
wakeup_stop(struct wakeup *w)
{
	disarm_psi_trigger(w);
	w->timer = sd_event_source_unref(w->timer);
}
