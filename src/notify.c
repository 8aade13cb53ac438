#include "notify.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "journal.h"

/* systemd's notify socket (sd_notify(3), NOTIFY_SOCKET), spoken over our own
 * non-blocking socket: sd_notify() sends on a blocking one, and a reader that
 * stops reading (PID 1 stalled, a supervisor's socket nobody drains) would hang
 * the loop in the kernel's wait for the peer's queue, SIGTERM unread. A message
 * that finds the queue full is dropped: each is a hint whose successor says more
 * (the next STATUS, the next WATCHDOG). */
static int notify_fd = -1;
static struct sockaddr_un notify_addr;
static socklen_t notify_addr_len;
static bool notify_tried;
static int notify_err; /* the last send error, logged once */
/* READY=1 was dropped: systemd waits for it (a start, a reload) until its timeout,
 * so it goes again before the next message, unless a STOPPING or RELOADING makes
 * it moot. */
static bool ready_pending;

/* Sets up notify_fd from NOTIFY_SOCKET; no socket (not under systemd, or an
 * address family other than AF_UNIX) leaves it -1. */
static void
notify_open(void)
{
	const char *path = getenv("NOTIFY_SOCKET");
	size_t len;

	notify_tried = true;
	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	len = strlen(path);
	if (len < 2 || len >= sizeof(notify_addr.sun_path)) {
		journal_log(LOG_WARNING, MSGID_ERROR, "NOTIFY_SOCKET '%s' is not a usable socket path; not notifying",
			    path);
		return;
	}
	notify_addr.sun_family = AF_UNIX;
	memcpy(notify_addr.sun_path, path, len);
	if (path[0] == '@')
		notify_addr.sun_path[0] = '\0'; /* the abstract namespace */
	notify_addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (notify_fd < 0)
		journal_log(LOG_WARNING, MSGID_ERROR, "cannot create a socket for NOTIFY_SOCKET '%s': %s", path,
			    strerror(errno));
}

/* One sendto, its failure logged once until a send works again. */
static int
send_one(const char *msg)
{
	int r = 0;

	if (sendto(notify_fd, msg, strlen(msg), MSG_DONTWAIT | MSG_NOSIGNAL, (const struct sockaddr *)&notify_addr,
		   notify_addr_len) < 0)
		r = -errno;
	if (r < 0)
		journal_log_once(&notify_err, r, LOG_WARNING, MSGID_ERROR,
				 "cannot notify systemd through '%s': %s; dropping such messages until it takes them again",
				 getenv("NOTIFY_SOCKET"), strerror(-r));
	else
		journal_log_once(&notify_err, 0, LOG_INFO, NULL, "'%s' takes notifications again",
				 getenv("NOTIFY_SOCKET"));
	return r;
}

int
notify_send(const char *msg)
{
	bool ready = strcmp(msg, "READY=1") == 0;
	bool moot = strncmp(msg, "STOPPING=", 9) == 0 || strncmp(msg, "RELOADING=", 10) == 0;
	int r;

	if (!notify_tried)
		notify_open();
	if (notify_fd < 0)
		return 0;
	if (ready_pending && !ready && !moot && send_one("READY=1") == 0) {
		ready_pending = false;
		journal_log(LOG_INFO, NULL, "READY=1 sent again: the first one was dropped");
	}
	r = send_one(msg);
	if (ready || moot)
		ready_pending = ready && r < 0;
	return r;
}

void
notify_flush(void)
{
	if (ready_pending)
		(void)notify_send("READY=1");
}

/* Sends text when it differs from the last one sent; returns whether it did. */
static bool
send_status(struct notify_status *n, const char *text)
{
	char msg[sizeof("STATUS=") + sizeof(n->text)];

	if (strcmp(text, n->text) == 0)
		return false;
	snprintf(n->text, sizeof(n->text), "%s", text);
	/* Formatted here, not by sd_notifyf, which allocates: the status may change at
	 * every poll, and a poll allocates nothing. */
	snprintf(msg, sizeof(msg), "STATUS=%s", n->text);
	(void)notify_send(msg);
	return true;
}

void
notify_status(struct notify_status *n, const char *fmt, ...)
{
	char text[sizeof(n->text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	(void)send_status(n, text);
}

bool
notify_kept_due(const struct notify_status *n, uint64_t now_us)
{
	return !n->kept_sent || now_us < n->kept_us || now_us - n->kept_us >= NOTIFY_REASON_MIN_S * 1000000ull;
}

void
notify_kept(struct notify_status *n, uint64_t now_us, const char *fmt, ...)
{
	char text[sizeof(n->text)];
	va_list ap;

	if (!notify_kept_due(n, now_us))
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (send_status(n, text)) {
		n->kept_sent = true;
		n->kept_us = now_us;
	}
}

void
notify_reloading(void)
{
	char msg[64];
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		snprintf(msg, sizeof(msg), "RELOADING=1\nMONOTONIC_USEC=%llu",
			 (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000u);
	else
		snprintf(msg, sizeof(msg), "RELOADING=1");
	(void)notify_send(msg);
}

/* Sends WATCHDOG=1 and re-arms for half the interval from now (systemd's own
 * advice in sd_watchdog_enabled(3)). */
static int
on_watchdog(sd_event_source *s, uint64_t usec, void *userdata)
{
	const uint64_t *interval_us = userdata;
	int r;

	(void)notify_send("WATCHDOG=1");
	r = sd_event_source_set_time(s, usec + *interval_us / 2);
	if (r >= 0)
		r = sd_event_source_set_enabled(s, SD_EVENT_ON);
	if (r < 0)
		journal_log(LOG_ERR, MSGID_ERROR, "cannot re-arm the watchdog timer: %s", strerror(-r));
	return 0;
}

int
notify_watchdog_start(struct notify_watchdog *w, sd_event *event)
{
	int r;

	r = sd_watchdog_enabled(0, &w->interval_us);
	if (r <= 0 || w->interval_us == 0)
		return r < 0 ? r : 0;
	r = sd_event_add_time_relative(event, &w->source, CLOCK_MONOTONIC, w->interval_us / 2, 0, on_watchdog,
				       &w->interval_us);
	if (r >= 0)
		/* Ahead of a poll or a reload that is due at the same time. */
		r = sd_event_source_set_priority(w->source, SD_EVENT_PRIORITY_IMPORTANT);
	return r < 0 ? r : 1;
}

void
notify_watchdog_stop(struct notify_watchdog *w)
{
	w->source = sd_event_source_disable_unref(w->source);
}
