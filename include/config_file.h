/* Reading /etc/autoswappiness.conf with inih. */
#ifndef AUTOSWAPPINESS_CONFIG_FILE_H
#define AUTOSWAPPINESS_CONFIG_FILE_H

#include <stdio.h>

#include "config.h"

/* Receives each error as "path:line: message" (or "path: message"). */
typedef void (*config_error_fn)(void *userdata, const char *message);

/* Collects errors as lines, for one log record that holds them all. */
struct config_errors {
	char text[3072];
	size_t used;
	unsigned count;
};

/* A config_error_fn appending to a struct config_errors (userdata); lines
 * that do not fit are counted but left out. */
void config_errors_collect(void *userdata, const char *message);

/* Writes "\n... and N more errors not shown" into buf when some errors were
 * counted but left out of e->text (its lines are those that fit), else "". */
static inline void
config_errors_more(const struct config_errors *e, char *buf, size_t len)
{
	unsigned shown = 0;

	for (size_t i = 0; i < e->used; i++)
		shown += e->text[i] == '\n';
	if (e->count > shown)
		snprintf(buf, len, "\n... and %u more errors not shown", e->count - shown);
	else if (len > 0)
		buf[0] = '\0';
}

/*
 * Reads path into *ret, starting from the defaults; reports every error in the
 * file, in one pass, through on_error. *ret is written only on success.
 * Returns 0; 1 when optional is true and the file does not exist (*ret then
 * holds the defaults); -ENOENT when a required file does not exist; another
 * negative errno (-EINVAL for a bad file). Every failure is reported.
 */
int config_file_load(const char *path, bool optional, struct config *ret, config_error_fn on_error,
		     void *userdata);

#endif
