/* Reading /etc/autoswappiness.conf with inih. */
#ifndef AUTOSWAPPINESS_CONFIG_FILE_H
#define AUTOSWAPPINESS_CONFIG_FILE_H

#include <limits.h>
#include <stdio.h>

#include "config.h"

/* The most a configuration file or drop-in may hold, in bytes (64 KiB: the
 * shipped file, with every key explained, is about 4 KiB). */
#define CONFIG_FILE_MAX_BYTES 65536

/* Receives each error as "path:line: message" (or "path: message"). */
typedef void (*config_error_fn)(void *userdata, const char *message);

/* Collects errors as lines, for one log record that holds them all. */
struct config_errors {
	char text[3072]; /* with the path and the count, within one journal record (4096 bytes) */
	size_t used;
	unsigned count;
};

/* A config_error_fn appending to a struct config_errors (userdata); lines
 * that do not fit are counted but left out. */
void config_errors_collect(void *userdata, const char *message);

/* A config_error_fn writing each error as a line of stderr (userdata unused):
 * for `autoswappiness -n` and `--explain`, run by a person at a terminal. */
void config_errors_print(void *userdata, const char *message);

/* Empties e for another load. */
void config_errors_reset(struct config_errors *e);

/* Readies e->text for one log record that holds every error, each as
 * file:line (the last newline goes), and writes "\n... and N more errors not
 * shown" into more when some errors did not fit in it, else "". */
void config_errors_finish(struct config_errors *e, char *more, size_t len);

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

/* Which files config_file_load_info read, and which one failed (for --explain). */
struct config_file_info {
	char failed_path[PATH_MAX + 2]; /* the first file or drop-in directory that could not be read or
					   was refused, "" when none (parse errors name their own files) */
	bool main_absent;		/* the main file does not exist (optional) */
	unsigned dropins;		/* drop-ins found in path.d */
};

/* config_file_load, and fills *info (always). */
int config_file_load_info(const char *path, bool optional, struct config *ret, config_error_fn on_error,
			  void *userdata, struct config_file_info *info);

#endif
