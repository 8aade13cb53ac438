/* Logging: structured records to journald, or plain lines to stderr. */
#ifndef AUTOSWAPPINESS_JOURNAL_H
#define AUTOSWAPPINESS_JOURNAL_H

#include <stdbool.h>
#include <syslog.h>

#include "lru.h"
#include "policy.h"

/* One MESSAGE_ID per kind of event (journalctl MESSAGE_ID=...). */
#define MSGID_START "3b8e4e1c5f0a4d7f9a3a2d7c41e0b6a1"
#define MSGID_STOP "8c1f0e2b7d6a4a9e8f5b3c2d1e0f9a8b"
#define MSGID_DECISION "5a0d6c3e9b7f4e21a8c4d2b1f0e9d8c7"
#define MSGID_RELOAD "c2e7a9b41d8f4c6e9a0b5d3f2e1c7b6a"
#define MSGID_RELOAD_FAILED "e9b3d1f7a2c84e5d9b6a0c4f3e2d1b8a"
#define MSGID_EXTERNAL "7f2a4c6e8b0d4f1a9c3e5b7d2f4a6c8e"
#define MSGID_ERROR "1d4f7a2c5e8b4b3d9e6a1c4f7b2e5d8a"
#define MSGID_CONFIG "a6c9e2f5b8d14a7c9e3f6b2d5a8c1e4f"
#define MSGID_RESTORE "4e8b2d6f0a3c4e7b9d1f5a8c2e6b0d4f"
#define MSGID_OTHER "2b5b3f1464d4423fb1f7426b78fbfead"
#define MSGID_LRU "2cb1048d98c44aac910214e42809057a"

/* Where records go. */
enum journal_target {
	JOURNAL_AUTO,	/* journald when stderr is the journal stream, else stderr */
	JOURNAL_STDERR, /* always stderr (--foreground) */
};

/* The fields of one decision record. */
struct journal_decision {
	const char *policy;
	int swappiness;
	int previous;
	const struct policy_result *result; /* NULL: no policy inputs (a restore) */
	const char *reason;
};

/* Chooses the target; with verbose, DEBUG records are kept and stderr lines carry
 * the fields. */
void journal_init(enum journal_target target, bool verbose);

/*
 * Makes every later line to stderr go without waiting for its reader, for the
 * daemon: a pipe or a terminal on fd 2 is replaced with a non-blocking
 * description of its own, a socket is sent to with MSG_DONTWAIT; a line that
 * does not go out is dropped and counted. Returns 0, or a negative errno when
 * stderr could not be reopened so (its lines may then wait).
 */
int journal_stderr_never_block(void);

/* Records not taken since the start: by journald's socket (lost while it was
 * stalled, written to stderr instead while it was gone), or by stderr when
 * the records go there (lost while its reader stalled, or after it left). */
unsigned long long journal_not_taken(void);

/* Changes verbosity after a reload. */
void journal_set_verbose(bool verbose);

/* Whether a record of this priority is kept: DEBUG ones only when verbose. A caller
 * that builds text for a DEBUG record at every poll asks first. */
bool journal_wants(int priority);

/* Logs a record with MESSAGE and MESSAGE_ID (msgid may be NULL). */
void journal_log(int priority, const char *msgid, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Logs once until it changes: logs (as journal_log) only when r differs from
 * *last, the previous result of the same operation, then keeps r there. A
 * failure that repeats is logged once; with r = 0 after a failure, the
 * record says that it works again. Returns true when it logged.
 */
bool journal_log_once(int *last, int r, int priority, const char *msgid, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Another tool's setting of vm.swappiness (coexist.h), for a record's fields. */
struct journal_other {
	const char *source; /* "sysctl.d", "tuned" or "cmdline" */
	const char *file;
	unsigned line;
	int value;
};

/* Logs a record with MESSAGE and MESSAGE_ID, plus OTHER_SOURCE, OTHER_FILE,
 * OTHER_LINE and OTHER_VALUE when o is set. */
void journal_other(int priority, const char *msgid, const struct journal_other *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Logs a record with MESSAGE and MESSAGE_ID plus LRU (classic or mglru) and
 * KERNEL (the release, when known): the start and a change of LRU. */
void journal_lru(int priority, const char *msgid, const struct lru_info *lru, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Logs a decision record: MESSAGE plus SWAPPINESS, PREVIOUS, POLICY, APP_CENTILE,
 * SWAP_CENTILE, MAPPED_RATIO, DISTRESS, SWAP_TENDENCY, REFAULT_FILE_PPS,
 * REFAULT_ANON_PPS, SWAPIN_PPS, SCAN_PPS (when result is set), REASON. */
void journal_decision(int priority, const char *msgid, const struct journal_decision *d, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
