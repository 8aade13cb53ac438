#include "notify.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-daemon.h>

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
	(void)sd_notify(0, msg);
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

void
notify_kept(struct notify_status *n, uint64_t now_us, const char *fmt, ...)
{
	char text[sizeof(n->text)];
	va_list ap;

	if (n->kept_sent && now_us >= n->kept_us && now_us - n->kept_us < NOTIFY_REASON_MIN_S * 1000000ull)
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
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		(void)sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
				 (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000u);
	else
		(void)sd_notify(0, "RELOADING=1");
}
