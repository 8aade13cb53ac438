/* Reading /etc/autoswappiness.conf with inih. */
#ifndef AUTOSWAPPINESS_CONFIG_FILE_H
#define AUTOSWAPPINESS_CONFIG_FILE_H

#include <stdio.h>

#include "config.h"

/* The most a configuration file or drop-in may hold, in bytes (64 KiB: the
 * shipped file, with every key explained, is about 4 KiB). */
#define CONFIG_FILE_MAX_BYTES 65536

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
 * Reads path into *ret, starting from the defaults, then its drop-ins (the
 * *.conf files in path.d); reports every error in the files, in one pass, through
 * on_error. Only regular files of at most CONFIG_FILE_MAX_BYTES are read,
 * owned by root (or by the user running this) and writable by their owner only;
 * the drop-in directory likewise. *ret is written only on success.
 * Returns 0; 1 when optional is true and the file does not exist (*ret then
 * holds the defaults); -ENOENT when a required file does not exist; another
 * negative errno (-EINVAL for a bad file). Every failure is reported.
 */
int config_file_load(const char *path, bool optional, struct config *ret, config_error_fn on_error,
		     void *userdata);

#endif
