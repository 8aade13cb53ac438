/* Telling systemd what the daemon does (sd_notify): the STATUS line that
 * `systemctl status` shows, sent only when it changes, and a reload's start. */
#ifndef AUTOSWAPPINESS_NOTIFY_H
#define AUTOSWAPPINESS_NOTIFY_H

struct notify_status {
	char text[192]; /* the last STATUS sent */
};

/* Sends STATUS=... when the text differs from the last one sent. */
void notify_status(struct notify_status *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* RELOADING=1, with MONOTONIC_USEC so that Type=notify-reload (systemd 253+)
 * matches this reload. */
void notify_reloading(void);

#endif
