/* --explain: what the daemon would do now and why, as plain sentences. Pure:
 * it formats a decision that decide() made; src/explain_run.c reads. */
#ifndef AUTOSWAPPINESS_EXPLAIN_H
#define AUTOSWAPPINESS_EXPLAIN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "decide.h"
#include "lru.h"
#include "sample.h"

/* Where the configuration explained came from. */
enum explain_config_source {
	EXPLAIN_CONFIG_FILE,	   /* the file, as the daemon would read it */
	EXPLAIN_CONFIG_DROPINS,	   /* no main file, but drop-ins in config_path.d: as the daemon would */
	EXPLAIN_CONFIG_ABSENT,	   /* no file: the built-in defaults, as the daemon would */
	EXPLAIN_CONFIG_UNREADABLE, /* this user may not read config_failed (EACCES): the built-in defaults */
	EXPLAIN_CONFIG_REFUSED,	   /* invalid or refused: the built-in defaults; the daemon would not start */
};

/* Room for the explanation: its sentences (about 2 KiB at most) and the
 * configuration's paths, each up to PATH_MAX (a drop-in's, or path.d). */
#define EXPLAIN_TEXT_BYTES (4096 + 2 * (PATH_MAX + 2))

struct explain_input {
	const struct config *cfg;
	const char *config_path;
	const char *config_failed; /* UNREADABLE, REFUSED: the file or directory to blame (NULL: config_path) */
	enum explain_config_source config_source;
	int config_errno; /* EXPLAIN_CONFIG_REFUSED: the loader's errno (positive) */
	const struct sample *cur;
	uint64_t interval_us; /* between the two samples decided from; 0: one sample */
	const struct decision *dn;
	int current; /* what vm.swappiness holds now */
	const struct lru_info *lru; /* the kernel's LRU and release; NULL: not said */
};

/*
 * Writes the explanation into buf: the answer on the first line (what would be
 * written now, or that nothing needs doing), then the inputs in words, one
 * sentence a line. Returns its length, or -ENOBUFS when it does not fit in len
 * (buf then holds a truncated, NUL-terminated text); EXPLAIN_TEXT_BYTES is enough.
 */
int explain_render(const struct explain_input *in, char *buf, size_t len);

#endif
