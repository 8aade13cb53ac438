/* Reads the kernel's LRU (lru.h) at start and at every poll, and says when it
 * changes. */
#ifndef AUTOSWAPPINESS_LRU_WATCH_H
#define AUTOSWAPPINESS_LRU_WATCH_H

#include "fileio.h"
#include "lru.h"
#include "status.h"

struct lru_watch {
	int fd;	      /* lru_gen/enabled, kept open (a poll opens nothing); -1: absent or refused */
	int open_err; /* why it is not open (0: it is) */
	struct fileio_buf buf;
	struct lru_info info;
	int logged_err; /* the failure last logged, so that it is said once */
};

/*
 * Fills *ret with the kernel's release and what lru_gen/enabled says now, and
 * logs nothing: --explain's one look.
 */
void lru_read(struct lru_info *ret);

/*
 * Opens lru_gen/enabled without following a symlink or blocking, and only
 * when it is a regular file (sysfs's are), reads the release and the file,
 * and puts both in st. A file that cannot be read is taken as classic and
 * logged once. Never fails.
 */
void lru_watch_open(struct lru_watch *w, struct status_snapshot *st);

/* Reads the file again and puts the LRU in st; logs a change of LRU (notice,
 * MSGID_LRU) and a failure to read it once until it changes. */
void lru_watch_poll(struct lru_watch *w, struct status_snapshot *st);

/* Closes the file and frees the buffer. */
void lru_watch_close(struct lru_watch *w);

#endif
