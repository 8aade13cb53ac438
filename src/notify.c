#include "notify.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-daemon.h>

void
notify_status(struct notify_status *n, const char *fmt, ...)
{
	char text[sizeof(n->text)], msg[sizeof("STATUS=") + sizeof(n->text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (strcmp(text, n->text) == 0)
		return;
	memcpy(n->text, text, sizeof(text));
	/* Formatted here, not by sd_notifyf, which allocates: the status may change at
	 * every poll, and a poll allocates nothing. */
	snprintf(msg, sizeof(msg), "STATUS=%s", n->text);
	(void)sd_notify(0, msg);
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
