/* Configuration: defaults, one key at a time, and whole-struct validation. Pure. */
#ifndef AUTOSWAPPINESS_CONFIG_H
#define AUTOSWAPPINESS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "policy.h"

enum config_external {
	CONFIG_EXTERNAL_YIELD,	  /* stop writing until the next reload */
	CONFIG_EXTERNAL_OVERRIDE, /* log it and keep regulating */
};

/* Every key, so that loaders can remember where each was set. */
enum config_key {
	CONFIG_KEY_POLICY_NAME,
	CONFIG_KEY_LIMITS_MIN,
	CONFIG_KEY_LIMITS_MAX,
	CONFIG_KEY_LIMITS_STEP,
	CONFIG_KEY_LIMITS_SMOOTHING,
	CONFIG_KEY_DAEMON_INTERVAL_MS,
	CONFIG_KEY_DAEMON_BUSY_INTERVAL_MS,
	CONFIG_KEY_DAEMON_PSI_TRIGGER_MS,
	CONFIG_KEY_DAEMON_DRY_RUN,
	CONFIG_KEY_DAEMON_ON_EXTERNAL_CHANGE,
	CONFIG_KEY_DAEMON_DEBUG,
	CONFIG_KEY_METRICS_TEXTFILE,
	CONFIG_KEY_DAEMON_CGROUP_V1_FOLLOW,
	CONFIG_KEY_COUNT,
};

/* Bounds of the numeric keys. */
#define CONFIG_SWAPPINESS_MAX 200 /* the kernel's limit since 5.8 */
#define CONFIG_SMOOTHING_MAX 99	  /* 100 would never move */
#define CONFIG_INTERVAL_MS_MIN 10 /* tests and benchmarks poll fast; a daemon wants 1000 or more */
#define CONFIG_INTERVAL_MS_MAX 3600000 /* one hour */
#define CONFIG_PSI_WINDOW_MS 2000	/* the trigger window: unprivileged triggers need a multiple of 2 s */
#define CONFIG_PSI_UNPRIVILEGED_CHECK_MS 2000 /* the kernel checks a trigger opened without CAP_SYS_RESOURCE this often */
#define CONFIG_MAX_AUTO (-1)		/* max = auto: follow the swap devices */
#define CONFIG_POLICY_AUTO POLICY_COUNT /* name = auto: one policy per LRU (decide_policy) */
#define CONFIG_PATH_BYTES 256		/* room for a path in the config, NUL included */

struct config {
	enum policy_kind policy; /* or CONFIG_POLICY_AUTO */
	int min;
	int max; /* CONFIG_MAX_AUTO or 0..200 */
	int step;
	int smoothing_pct;
	unsigned interval_ms;	   /* between polls while nothing happens */
	unsigned busy_interval_ms; /* between polls while memory is under pressure */
	unsigned psi_trigger_ms;   /* stall in the 2 s window that wakes the daemon; 0: no trigger */
	bool dry_run;
	enum config_external on_external_change;
	bool debug;
	char metrics_textfile[CONFIG_PATH_BYTES]; /* "" when off */
	bool cgroup_v1_follow; /* make existing v1 memory cgroups follow each write */
};

/* Fills *ret with the defaults. */
void config_defaults(struct config *ret);

/*
 * Sets one key from its text. On failure writes a message such as
 * "key 'max': expected auto or 0..200, got '300'" (without path or line) to err.
 * Returns 0 and sets *ret_key, -ENOENT for an unknown section or key, -EINVAL
 * for a bad value.
 */
int config_set(struct config *c, const char *section, const char *key, const char *value,
	       enum config_key *ret_key, char *err, size_t errlen);

/*
 * Checks the keys against each other. On failure writes a message to err and
 * sets *ret_key to the key to blame. Returns 0 or -EINVAL.
 */
int config_validate(const struct config *c, enum config_key *ret_key, char *err, size_t errlen);

/* The longest key, value or section name that an error message quotes: 32
 * bytes of printable ASCII (the longest key, on_external_change, has 18). A
 * config checker says no more of a file than configuration needs: `-n` and
 * `--explain -c FILE` may be run on any file their caller can read. */
#define CONFIG_QUOTE_MAX 32
#define CONFIG_QUOTE_BYTES 64 /* what config_quote writes, NUL included */

/* Writes s quoted ('s', or '[s]' with brackets) into buf when it is at most
 * CONFIG_QUOTE_MAX bytes of printable ASCII, else "(N bytes, not shown)" or
 * "(N bytes, some not printable, not shown)". Returns buf. */
const char *config_quote(const char *s, bool brackets, char *buf, size_t len);

/* Returns true when name is one of the sections config_set knows. */
bool config_section_known(const char *name);

/* Returns "section.key" for a key, e.g. "limits.max". */
const char *config_key_name(enum config_key key);

/* Returns "yield" or "override". */
const char *config_external_name(enum config_external e);

/* Writes a one-line summary of c into buf ("policy ck, limits 0..auto, step 20,
 * smoothing 0%, interval 5000 ms (busy 1000 ms)") and returns buf. */
const char *config_describe(const struct config *c, char *buf, size_t len);

/* The name of a configuration's policy: a policy's name, or "auto". */
const char *config_policy_name(enum policy_kind policy);

#endif
