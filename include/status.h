/* The daemon's state for `autoswappiness status` and Prometheus: a snapshot,
 * its file format under /run, and its renderings. Pure: no I/O, no clock. */
#ifndef AUTOSWAPPINESS_STATUS_H
#define AUTOSWAPPINESS_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lru.h"

/* The last decisions kept in the state file. */
#define STATUS_HISTORY 8
#define STATUS_REASON_BYTES 128

struct status_decision {
	int64_t time_s; /* CLOCK_REALTIME seconds */
	int from;
	int to;
	char reason[STATUS_REASON_BYTES];
};

/* The kernel's cumulative page counters, as one poll read them. */
struct status_pages {
	bool has_vmstat;   /* pswpin and pgscan were read */
	bool has_refaults; /* workingset_refault_file/_anon were read (Linux 5.9+) */
	uint64_t refault_file, refault_anon, swapin, scan;
};

struct status_snapshot {
	int64_t pid;
	int64_t started_s;
	char policy[16];
	bool policy_auto;		 /* [policy] name = auto chose policy for this LRU */
	char lru[8];			 /* "classic" or "mglru"; "": not recorded (an older daemon) */
	char kernel[LRU_RELEASE_BYTES]; /* the kernel's release; "": not known */
	int swappiness;	 /* what the knob holds */
	int original;	 /* what the daemon restores on exit, if restores */
	bool restores;	 /* the exit writes original back (owner_restores) */
	bool has_swap;	 /* SwapTotal > 0 at the last decision: swap_centile means something */
	int target;	 /* the policy's last target */
	int min, max;	 /* the limits in effect (max resolved from auto) */
	int app_centile, swap_centile, mapped_ratio, distress, swap_tendency;
	uint64_t refault_file_pps, refault_anon_pps, swapin_pps;
	bool dry_run;
	bool yielded;
	uint64_t writes, yields, reloads, reload_failures, errors;
	uint64_t journal_dropped; /* log records journald or stderr did not take (journal_not_taken) */
	int64_t last_decision_s; /* 0: none yet */
	int64_t last_poll_s;	 /* when the last poll began (the start before the first) */
	unsigned poll_interval_ms; /* the wait until the next poll */
	/* Pages since the daemon started, from the counters' increases between
	 * polls that read them (page_base: the last reading). */
	struct status_pages pages, page_base;
	unsigned n_history;	 /* oldest first */
	struct status_decision history[STATUS_HISTORY];
};

/* Appends a decision, dropping the oldest when the history is full. */
void status_add_decision(struct status_snapshot *s, int64_t time_s, int from, int to, const char *reason);

/* Adds what the counters in now grew by since the last reading to s->pages
 * (a counter that went backwards adds nothing), then keeps now as the base. A
 * source that was not read keeps its base, so a gap is counted at the next
 * reading; the has_ flags say which totals exist. */
void status_count_pages(struct status_snapshot *s, const struct status_pages *now);

/*
 * Writes the state file format ("key=value" lines, then one "decision=TIME FROM
 * TO REASON" line per decision) into buf. Returns the length, or -ENOBUFS when
 * it does not fit.
 */
int status_render_state(const struct status_snapshot *s, char *buf, size_t len);

/*
 * Parses the state file format. Unknown keys are skipped (a newer daemon may add
 * some). Returns 0 and fills *ret, or -EINVAL when a known key has a bad value or
 * version, pid or swappiness is missing.
 */
int status_parse_state(const char *buf, size_t len, struct status_snapshot *ret);

/* Renders for a human; now_s is the current CLOCK_REALTIME time in seconds.
 * Returns the length or -ENOBUFS. */
int status_render_human(const struct status_snapshot *s, int64_t now_s, char *buf, size_t len);

/* Renders as one JSON object. Returns the length or -ENOBUFS. */
int status_render_json(const struct status_snapshot *s, char *buf, size_t len);

/* Renders the Prometheus text exposition format (HELP and TYPE for each metric,
 * base units: ratios 0..1, seconds). Returns the length or -ENOBUFS. */
int status_render_metrics(const struct status_snapshot *s, char *buf, size_t len);

#endif
