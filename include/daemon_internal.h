/* The daemon's state, shared by its two halves: src/daemon.c (start, reload,
 * signals, stop) and src/daemon_poll.c (one poll: sample, decide, act, notice
 * someone else's change). Not for other modules: they see include/daemon.h. */
#ifndef AUTOSWAPPINESS_DAEMON_INTERNAL_H
#define AUTOSWAPPINESS_DAEMON_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "coexist_scan.h"
#include "config.h"
#include "daemon.h"
#include "knob.h"
#include "lru_watch.h"
#include "notify.h"
#include "owner.h"
#include "ownership.h"
#include "policy.h"
#include "publish.h"
#include "regulator.h"
#include "sample.h"
#include "cgroup.h"
#include "status.h"
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
	enum policy_kind policy; /* the policy deciding: the configured one, or auto's for the LRU */
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
	struct notify_watchdog watchdog;
	/* Who else sets vm.swappiness, as of the last start, reload or yield. */
	struct coexist_findings others;
	struct lru_watch lru; /* the kernel's LRU, read at every poll */
};

/* One poll (wakeup.c's callback; userdata is the struct daemon). */
void daemon_poll(void *userdata);

/* Makes the policy that decides the one the configuration gives the kernel's LRU now
 * (decide_policy; name = auto follows a switch of LRU at run time). When that changes
 * the policy's history starts afresh, and with say a record tells. */
void daemon_follow_lru(struct daemon *d, bool say);

/* Publishes the state file (for `status`) and the metrics textfile. */
void daemon_publish(struct daemon *d);

/* With cgroup v1, the memory cgroups that follow the global value follow it to
 * value (the others were set on purpose and are left alone). */
void daemon_follow_cgroups(struct daemon *d, int value);

/* STATUS= while yielded to someone else's knob_value. */
void daemon_status_yielded(struct daemon *d, int knob_value);

/* CLOCK_REALTIME in seconds, 0 if unreadable. */
int64_t daemon_now_s(void);

#endif
