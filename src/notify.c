#include "notify.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-daemon.h>

void
notify_status(struct notify_status *n, const char *fmt, ...)
{
	char text[sizeof(n->text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (strcmp(text, n->text) == 0)
		return;
	memcpy(n->text, text, sizeof(text));
	(void)sd_notifyf(0, "STATUS=%s", n->text);
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
