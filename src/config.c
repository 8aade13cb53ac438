#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

/* Defaults: workingset, the policy the latest benchmark chose
 * (bench/results/default-policy.txt); max follows the swap devices
 * (policy_device_max); a step of 20 keeps the knob from being rewritten for
 * the formulas' poll-to-poll noise (autoswappiness(7), THE REGULATOR'S DEFAULTS: at 5 the
 * benchmark's zram runs wrote 15-37 times a minute); a calm machine is polled
 * every 5 s, one under pressure every second, and a PSI trigger (20 ms of
 * stall in 2 s) wakes the daemon when pressure starts, at the kernel's next
 * check (every 200 ms with the unit's CAP_SYS_RESOURCE): 83 to 324 ms after
 * the first 10 ms of stall in the VM, where 200 ms of stall took 0.7 to 5.0 s
 * to add up (tests/vm/psi-reaction.sh). */
void
config_defaults(struct config *ret)
{
	*ret = (struct config){
		.policy = POLICY_WORKINGSET,
		.min = 0,
		.max = CONFIG_MAX_AUTO,
		.step = 20,
		.smoothing_pct = 0,
		.interval_ms = 5000,
		.busy_interval_ms = 1000,
		.psi_trigger_ms = 20,
		.dry_run = false,
		.on_external_change = CONFIG_EXTERNAL_YIELD,
		.debug = false,
	};
}

static const struct {
	const char *section;
	const char *key;
	const char *full;
} config_keys[CONFIG_KEY_COUNT] = {
	[CONFIG_KEY_POLICY_NAME] = { "policy", "name", "policy.name" },
	[CONFIG_KEY_LIMITS_MIN] = { "limits", "min", "limits.min" },
	[CONFIG_KEY_LIMITS_MAX] = { "limits", "max", "limits.max" },
	[CONFIG_KEY_LIMITS_STEP] = { "limits", "step", "limits.step" },
	[CONFIG_KEY_LIMITS_SMOOTHING] = { "limits", "smoothing", "limits.smoothing" },
	[CONFIG_KEY_DAEMON_INTERVAL_MS] = { "daemon", "interval_ms", "daemon.interval_ms" },
	[CONFIG_KEY_DAEMON_BUSY_INTERVAL_MS] = { "daemon", "busy_interval_ms", "daemon.busy_interval_ms" },
	[CONFIG_KEY_DAEMON_PSI_TRIGGER_MS] = { "daemon", "psi_trigger_ms", "daemon.psi_trigger_ms" },
	[CONFIG_KEY_DAEMON_DRY_RUN] = { "daemon", "dry_run", "daemon.dry_run" },
	[CONFIG_KEY_DAEMON_ON_EXTERNAL_CHANGE] = { "daemon", "on_external_change", "daemon.on_external_change" },
	[CONFIG_KEY_DAEMON_DEBUG] = { "daemon", "debug", "daemon.debug" },
	[CONFIG_KEY_METRICS_TEXTFILE] = { "metrics", "textfile", "metrics.textfile" },
	[CONFIG_KEY_DAEMON_CGROUP_V1_FOLLOW] = { "daemon", "cgroup_v1_follow", "daemon.cgroup_v1_follow" },
};

const char *
config_key_name(enum config_key key)
{
	if ((unsigned)key >= CONFIG_KEY_COUNT)
		return "?";
	return config_keys[key].full;
}

bool
config_section_known(const char *name)
{
	for (unsigned i = 0; i < CONFIG_KEY_COUNT; i++)
		if (strcmp(name, config_keys[i].section) == 0)
			return true;
	return false;
}

const char *
config_external_name(enum config_external e)
{
	return e == CONFIG_EXTERNAL_OVERRIDE ? "override" : "yield";
}

const char *
config_quote(const char *s, bool brackets, char *buf, size_t len)
{
	size_t n = strlen(s);
	bool printable = true;

	for (size_t i = 0; i < n; i++)
		printable = printable && s[i] >= 0x20 && s[i] <= 0x7e;
	if (n > CONFIG_QUOTE_MAX)
		snprintf(buf, len, "(%zu bytes, not shown)", n);
	else if (!printable)
		snprintf(buf, len, "(%zu bytes, some not printable, not shown)", n);
	else
		snprintf(buf, len, brackets ? "'[%s]'" : "'%s'", s);
	return buf;
}

/* One quoted text per message: the buffer lives in the caller's block. */
#define QUOTE(s) config_quote((s), false, (char[CONFIG_QUOTE_BYTES]){ 0 }, CONFIG_QUOTE_BYTES)
#define QUOTE_SECTION(s) config_quote((s), true, (char[CONFIG_QUOTE_BYTES]){ 0 }, CONFIG_QUOTE_BYTES)

static int
set_int(int *dst, const char *key, const char *value, long min, long max, char *err, size_t errlen)
{
	long v;

	if (parse_long(value, min, max, &v) < 0) {
		snprintf(err, errlen, "key '%s': expected %ld..%ld, got %s", key, min, max, QUOTE(value));
		return -EINVAL;
	}
	*dst = (int)v;
	return 0;
}

static int
set_ms(unsigned *dst, const char *key, const char *value, long min, long max, char *err, size_t errlen)
{
	int ms;

	if (set_int(&ms, key, value, min, max, err, errlen) < 0)
		return -EINVAL;
	*dst = (unsigned)ms;
	return 0;
}

static int
set_bool(bool *dst, const char *key, const char *value, char *err, size_t errlen)
{
	if (parse_bool(value, dst) < 0) {
		snprintf(err, errlen, "key '%s': expected yes or no, got %s", key, QUOTE(value));
		return -EINVAL;
	}
	return 0;
}

/* Finds section.key. Returns 0 and sets *ret, or -ENOENT (with err). */
static int
find_key(const char *section, const char *key, enum config_key *ret, char *err, size_t errlen)
{
	enum config_key k = CONFIG_KEY_COUNT;
	bool section_known = false;

	for (unsigned i = 0; i < CONFIG_KEY_COUNT; i++) {
		if (strcmp(section, config_keys[i].section) != 0)
			continue;
		section_known = true;
		if (strcmp(key, config_keys[i].key) == 0)
			k = (enum config_key)i;
	}
	if (!section_known) {
		snprintf(err, errlen, "unknown section %s", QUOTE_SECTION(section));
		return -ENOENT;
	}
	if (k == CONFIG_KEY_COUNT) {
		snprintf(err, errlen, "unknown key %s in section '[%s]'", QUOTE(key), section);
		return -ENOENT;
	}
	*ret = k;
	return 0;
}

static int
set_textfile(struct config *c, const char *value, char *err, size_t errlen)
{
	size_t n = strlen(value);

	/* node_exporter's textfile collector reads only *.prom files. */
	if (n == 0) {
		c->metrics_textfile[0] = '\0';
	} else if (value[0] != '/' || n >= sizeof(c->metrics_textfile) || n < 6 ||
		   strcmp(value + n - 5, ".prom") != 0 || strstr(value, "/../") != NULL) {
		snprintf(err, errlen,
			 "key 'textfile': expected an absolute path ending in .prom, at most %zu characters, got %s",
			 sizeof(c->metrics_textfile) - 1, QUOTE(value));
		return -EINVAL;
	} else {
		memcpy(c->metrics_textfile, value, n + 1);
	}
	return 0;
}

/* [policy] name: auto (one policy per LRU) or a policy; a later name undoes auto. */
static int
set_policy_name(struct config *c, const char *value, char *err, size_t errlen)
{
	if (strcmp(value, "auto") == 0) {
		c->policy = CONFIG_POLICY_AUTO;
		return 0;
	}
	if (policy_from_name(value, &c->policy) == 0)
		return 0;
	snprintf(err, errlen, "key 'name': expected auto, ck, tendency, adaptive, workingset or device, got %s",
		 QUOTE(value));
	return -EINVAL;
}

int
config_set(struct config *c, const char *section, const char *key, const char *value,
	   enum config_key *ret_key, char *err, size_t errlen)
{
	enum config_key k;
	int r;

	r = find_key(section, key, &k, err, errlen);
	if (r < 0)
		return r;
	switch (k) {
	case CONFIG_KEY_POLICY_NAME:
		r = set_policy_name(c, value, err, errlen);
		break;
	case CONFIG_KEY_LIMITS_MIN:
		r = set_int(&c->min, key, value, 0, CONFIG_SWAPPINESS_MAX, err, errlen);
		break;
	case CONFIG_KEY_LIMITS_MAX:
		if (strcmp(value, "auto") == 0) {
			c->max = CONFIG_MAX_AUTO;
			break;
		}
		r = set_int(&c->max, key, value, 0, CONFIG_SWAPPINESS_MAX, err, errlen);
		if (r < 0)
			snprintf(err, errlen, "key 'max': expected auto or 0..%d, got %s", CONFIG_SWAPPINESS_MAX,
				 QUOTE(value));
		break;
	case CONFIG_KEY_LIMITS_STEP:
		r = set_int(&c->step, key, value, 1, CONFIG_SWAPPINESS_MAX, err, errlen);
		break;
	case CONFIG_KEY_LIMITS_SMOOTHING:
		r = set_int(&c->smoothing_pct, key, value, 0, CONFIG_SMOOTHING_MAX, err, errlen);
		break;
	case CONFIG_KEY_DAEMON_INTERVAL_MS:
		r = set_ms(&c->interval_ms, key, value, CONFIG_INTERVAL_MS_MIN, CONFIG_INTERVAL_MS_MAX, err, errlen);
		break;
	case CONFIG_KEY_DAEMON_BUSY_INTERVAL_MS:
		r = set_ms(&c->busy_interval_ms, key, value, CONFIG_INTERVAL_MS_MIN, CONFIG_INTERVAL_MS_MAX, err, errlen);
		break;
	case CONFIG_KEY_DAEMON_PSI_TRIGGER_MS:
		/* The kernel wants a stall below the window (psi.rst). */
		r = set_ms(&c->psi_trigger_ms, key, value, 0, CONFIG_PSI_WINDOW_MS - 1, err, errlen);
		break;
	case CONFIG_KEY_DAEMON_DRY_RUN:
		r = set_bool(&c->dry_run, key, value, err, errlen);
		break;
	case CONFIG_KEY_DAEMON_ON_EXTERNAL_CHANGE:
		if (strcmp(value, "yield") == 0)
			c->on_external_change = CONFIG_EXTERNAL_YIELD;
		else if (strcmp(value, "override") == 0)
			c->on_external_change = CONFIG_EXTERNAL_OVERRIDE;
		else {
			snprintf(err, errlen, "key 'on_external_change': expected yield or override, got %s",
				 QUOTE(value));
			r = -EINVAL;
		}
		break;
	case CONFIG_KEY_DAEMON_DEBUG:
		r = set_bool(&c->debug, key, value, err, errlen);
		break;
	case CONFIG_KEY_DAEMON_CGROUP_V1_FOLLOW:
		r = set_bool(&c->cgroup_v1_follow, key, value, err, errlen);
		break;
	case CONFIG_KEY_METRICS_TEXTFILE:
		r = set_textfile(c, value, err, errlen);
		break;
	case CONFIG_KEY_COUNT:
		return -ENOENT;
	}
	if (r == 0)
		*ret_key = k;
	return r;
}

int
config_validate(const struct config *c, enum config_key *ret_key, char *err, size_t errlen)
{
	if (c->max != CONFIG_MAX_AUTO && c->min > c->max) {
		snprintf(err, errlen, "key 'min': %d is greater than max %d", c->min, c->max);
		*ret_key = CONFIG_KEY_LIMITS_MIN;
		return -EINVAL;
	}
	return 0;
}

const char *
config_policy_name(enum policy_kind policy)
{
	return policy == CONFIG_POLICY_AUTO ? "auto" : policy_name(policy);
}

const char *
config_describe(const struct config *c, char *buf, size_t len)
{
	char max[8];

	if (c->max == CONFIG_MAX_AUTO)
		snprintf(max, sizeof(max), "auto");
	else
		snprintf(max, sizeof(max), "%d", c->max);
	snprintf(buf, len, "policy %s, limits %d..%s, step %d, smoothing %d%%, interval %u ms (busy %u ms)",
		 config_policy_name(c->policy), c->min, max, c->step, c->smoothing_pct, c->interval_ms, c->busy_interval_ms);
	return buf;
}
