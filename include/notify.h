/* Telling systemd what the daemon does (the sd_notify protocol, over a
 * non-blocking socket of our own, so that a notify socket nobody reads never
 * stops the loop): READY, STOPPING, the watchdog, the STATUS line that
 * `systemctl status` shows, sent only when it changes, and a reload's start.
 *
 * Each STATUS= wakes systemd (PID 1), and under memory pressure PID 1 must fault its own
 * pages back in to read it. A decision's reason carries the poll's rates, so it changes at
 * every poll: sent at every busy poll (1 s), it cost the benchmark's responsiveness
 * workload (make bench, disk swap) 9,700-15,700 file refaults a run against 2,900-3,500
 * with the rule below, and 1.14 times less written by its dirtier than at static 60 against
 * 1.01 (bench/EXPERIMENTS.md, status-2026-12-05). So a decision that keeps the value sends its
 * reason at most once every NOTIFY_REASON_MIN_S; what changes the value is sent at once. */
#ifndef AUTOSWAPPINESS_NOTIFY_H
#define AUTOSWAPPINESS_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#define NOTIFY_REASON_MIN_S 30

struct notify_status {
	char text[192];	   /* the last STATUS sent */
	bool kept_sent;	   /* a notify_kept() text has been sent ... */
	uint64_t kept_us;  /* ... at this time (CLOCK_MONOTONIC, us) */
};

/* Sends STATUS=... when the text differs from the last one sent. */
void notify_status(struct notify_status *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same for a decision that keeps the value: sent when the text differs from the last
 * one sent, and the last text sent by notify_kept (if any) went NOTIFY_REASON_MIN_S or more
 * before now_us. */
void notify_kept(struct notify_status *n, uint64_t now_us, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Whether notify_kept would send at now_us if the text changed: a caller asks
 * before building the text. */
bool notify_kept_due(const struct notify_status *n, uint64_t now_us);

/* Sends one notification (e.g. "READY=1") to $NOTIFY_SOCKET without waiting:
 * returns 0 when sent or when there is no socket, a negative errno when it was
 * dropped (-EAGAIN: the reader is not reading); a failure is logged once until
 * a send works again. */
int notify_send(const char *msg);

/* Sends READY=1 again if the last one was dropped (notify_send also does so
 * before any message but STOPPING and RELOADING): called at every poll. */
void notify_flush(void);

/* The watchdog (WatchdogSec=): WATCHDOG=1 every half interval, through
 * notify_send. */
struct notify_watchdog {
	sd_event_source *source;
	uint64_t interval_us;
};

/* Starts it when systemd asks for one ($WATCHDOG_USEC, $WATCHDOG_PID): returns 1
 * when started, 0 when not asked for, a negative errno on failure. */
int notify_watchdog_start(struct notify_watchdog *w, sd_event *event);
void notify_watchdog_stop(struct notify_watchdog *w);

/* RELOADING=1, with MONOTONIC_USEC so that Type=notify-reload (systemd 253+)
 * matches this reload. */
void notify_reloading(void);

#endif
