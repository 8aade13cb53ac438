#include "status.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "textbuf.h"
#include "version.h"


#define STATE_VERSION 1

void
status_add_decision(struct status_snapshot *s, int64_t time_s, int from, int to, const char *reason)
{
	struct status_decision *d;

	if (s->n_history == STATUS_HISTORY) {
		memmove(&s->history[0], &s->history[1], sizeof(s->history[0]) * (STATUS_HISTORY - 1));
		s->n_history--;
	}
	d = &s->history[s->n_history++];
	d->time_s = time_s;
	d->from = from;
	d->to = to;
	/* Newlines would break the line format; the reasons we make have none. */
	snprintf(d->reason, sizeof(d->reason), "%s", reason);
	for (char *c = d->reason; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	s->last_decision_s = time_s;
}

static void
grow(uint64_t *total, uint64_t *base, uint64_t now, bool had_base)
{
	if (had_base && now > *base)
		*total += now - *base;
	*base = now;
}

void
status_count_pages(struct status_snapshot *s, const struct status_pages *now)
{
	struct status_pages *b = &s->page_base, *t = &s->pages;

	if (now->has_vmstat) {
		grow(&t->swapin, &b->swapin, now->swapin, b->has_vmstat);
		grow(&t->scan, &b->scan, now->scan, b->has_vmstat);
		b->has_vmstat = t->has_vmstat = true;
	}
	if (now->has_refaults) {
		grow(&t->refault_file, &b->refault_file, now->refault_file, b->has_refaults);
		grow(&t->refault_anon, &b->refault_anon, now->refault_anon, b->has_refaults);
		b->has_refaults = t->has_refaults = true;
	}
}

int
status_render_state(const struct status_snapshot *s, char *buf, size_t len)
{
	struct textbuf o = textbuf_init(buf, len);

	textbuf_put(&o, "version=%d\npid=%" PRId64 "\nstarted=%" PRId64 "\n", STATE_VERSION, s->pid, s->started_s);
	/* Only what is known: an empty value would not parse back. */
	if (s->lru[0])
		textbuf_put(&o, "lru=%s\n", s->lru);
	if (s->kernel[0])
		textbuf_put(&o, "kernel=%s\n", s->kernel);
	textbuf_put(&o, "policy=%s\nswappiness=%d\noriginal=%d\ntarget=%d\nmin=%d\nmax=%d\n", s->policy, s->swappiness,
	    s->original, s->target, s->min, s->max);
	if (s->policy_auto)
		textbuf_put(&o, "policy_auto=1\n");
	textbuf_put(&o, "app_centile=%d\nswap_centile=%d\nmapped_ratio=%d\ndistress=%d\nswap_tendency=%d\n", s->app_centile,
	    s->swap_centile, s->mapped_ratio, s->distress, s->swap_tendency);
	textbuf_put(&o, "refault_file_pps=%" PRIu64 "\nrefault_anon_pps=%" PRIu64 "\nswapin_pps=%" PRIu64 "\n",
	    s->refault_file_pps, s->refault_anon_pps, s->swapin_pps);
	textbuf_put(&o, "dry_run=%d\nyielded=%d\nrestores=%d\nhas_swap=%d\n", s->dry_run, s->yielded, s->restores,
	    s->has_swap);
	textbuf_put(&o,
	    "writes=%" PRIu64 "\nyields=%" PRIu64 "\nreloads=%" PRIu64 "\nreload_failures=%" PRIu64
	    "\nerrors=%" PRIu64 "\nlast_decision=%" PRId64 "\njournal_dropped=%" PRIu64 "\n",
	    s->writes, s->yields, s->reloads, s->reload_failures, s->errors, s->last_decision_s, s->journal_dropped);
	for (unsigned i = 0; i < s->n_history; i++)
		textbuf_put(&o, "decision=%" PRId64 " %d %d %s\n", s->history[i].time_s, s->history[i].from, s->history[i].to,
		    s->history[i].reason);
	return textbuf_end(&o);
}

/* Parses a decimal into *ret (int64 or uint64 through the long long path). */
static int
num(const char *v, long long min, long long max, long long *ret)
{
	char *end;
	long long x;

	if (*v == '\0')
		return -EINVAL;
	errno = 0;
	x = strtoll(v, &end, 10);
	if (errno || *end != '\0' || x < min || x > max)
		return -EINVAL;
	*ret = x;
	return 0;
}

static int
parse_decision(const char *v, struct status_decision *d)
{
	long long t, from, to;
	char tbuf[24], fbuf[8], obuf[8];
	const char *p = v;
	char *bufs[3] = { tbuf, fbuf, obuf };
	size_t sizes[3] = { sizeof(tbuf), sizeof(fbuf), sizeof(obuf) };

	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(p, " ");

		if (n == 0 || n >= sizes[i] || p[n] != ' ')
			return -EINVAL;
		memcpy(bufs[i], p, n);
		bufs[i][n] = '\0';
		p += n + 1;
	}
	if (num(tbuf, 0, INT64_MAX, &t) < 0 || num(fbuf, 0, 200, &from) < 0 || num(obuf, 0, 200, &to) < 0)
		return -EINVAL;
	d->time_s = t;
	d->from = (int)from;
	d->to = (int)to;
	snprintf(d->reason, sizeof(d->reason), "%s", p);
	return 0;
}

/* A kernel release: printable, no blank (a metric's label and a JSON string
 * carry it), and it fits. */
static int
parse_kernel(struct status_snapshot *s, const char *v)
{
	size_t n = strlen(v);

	if (n == 0 || n >= sizeof(s->kernel))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (v[i] <= ' ' || v[i] > '~' || v[i] == '"' || v[i] == '\\')
			return -EINVAL;
	memcpy(s->kernel, v, n + 1);
	return 0;
}

/* The keys without which a state file is not one. */
enum { SEEN_VERSION = 1, SEEN_PID = 2, SEEN_SWAPPINESS = 4 };

/* Parses one key=value line of the state file into *s. Returns 0 or -EINVAL;
 * sets the SEEN_ bit of a required key in *seen. */
static int
parse_key(struct status_snapshot *s, const char *key, const char *v, unsigned *seen)
{
	long long x = 0;
	int r = 0;

#define INT_KEY(name, field, lo, hi)                   \
	else if (strcmp(key, name) == 0)               \
	{                                              \
		r = num(v, lo, hi, &x);                \
		if (r == 0)                            \
			s->field = (__typeof__(s->field))x; \
	}
	if (strcmp(key, "version") == 0) {
		r = num(v, STATE_VERSION, STATE_VERSION, &x);
		*seen |= r == 0 ? SEEN_VERSION : 0;
	} else if (strcmp(key, "pid") == 0) {
		r = num(v, 1, INT32_MAX, &x);
		s->pid = x;
		*seen |= r == 0 ? SEEN_PID : 0;
	} else if (strcmp(key, "swappiness") == 0) {
		r = num(v, 0, 200, &x);
		s->swappiness = (int)x;
		*seen |= r == 0 ? SEEN_SWAPPINESS : 0;
	} else if (strcmp(key, "policy") == 0) {
		if (strlen(v) >= sizeof(s->policy))
			r = -EINVAL;
		else
			snprintf(s->policy, sizeof(s->policy), "%s", v);
	} else if (strcmp(key, "lru") == 0) {
		if (strcmp(v, "classic") != 0 && strcmp(v, "mglru") != 0)
			r = -EINVAL;
		else
			snprintf(s->lru, sizeof(s->lru), "%s", v);
	} else if (strcmp(key, "kernel") == 0) {
		r = parse_kernel(s, v);
	} else if (strcmp(key, "decision") == 0) {
		if (s->n_history == STATUS_HISTORY)
			memmove(&s->history[0], &s->history[1], sizeof(s->history[0]) * (STATUS_HISTORY - 1));
		else
			s->n_history++;
		r = parse_decision(v, &s->history[s->n_history - 1]);
	}
	INT_KEY("started", started_s, 0, INT64_MAX)
	INT_KEY("original", original, 0, 200)
	INT_KEY("target", target, 0, 1000)
	INT_KEY("min", min, 0, 200)
	INT_KEY("max", max, 0, 200)
	INT_KEY("app_centile", app_centile, 0, 100)
	INT_KEY("swap_centile", swap_centile, 0, 100)
	INT_KEY("mapped_ratio", mapped_ratio, 0, 100)
	INT_KEY("distress", distress, 0, 100)
	INT_KEY("swap_tendency", swap_tendency, 0, 1000)
	INT_KEY("refault_file_pps", refault_file_pps, 0, INT64_MAX)
	INT_KEY("refault_anon_pps", refault_anon_pps, 0, INT64_MAX)
	INT_KEY("swapin_pps", swapin_pps, 0, INT64_MAX)
	INT_KEY("dry_run", dry_run, 0, 1)
	INT_KEY("yielded", yielded, 0, 1)
	INT_KEY("restores", restores, 0, 1)
	INT_KEY("has_swap", has_swap, 0, 1)
	INT_KEY("policy_auto", policy_auto, 0, 1)
	INT_KEY("writes", writes, 0, INT64_MAX)
	INT_KEY("yields", yields, 0, INT64_MAX)
	INT_KEY("reloads", reloads, 0, INT64_MAX)
	INT_KEY("reload_failures", reload_failures, 0, INT64_MAX)
	INT_KEY("errors", errors, 0, INT64_MAX)
	INT_KEY("last_decision", last_decision_s, 0, INT64_MAX)
	INT_KEY("journal_dropped", journal_dropped, 0, INT64_MAX)
#undef INT_KEY
	return r < 0 ? -EINVAL : 0;
}

int
status_parse_state(const char *buf, size_t len, struct status_snapshot *ret)
{
	struct status_snapshot s;
	const char *p = buf, *end = buf + len;
	unsigned seen = 0;

	memset(&s, 0, sizeof(s));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		char line[256], *eq;

		if ((size_t)(eol - p) >= sizeof(line))
			return -EINVAL;
		memcpy(line, p, (size_t)(eol - p));
		line[eol - p] = '\0';
		p = nl ? nl + 1 : end;
		if (line[0] == '\0')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (parse_key(&s, line, eq + 1, &seen) < 0)
			return -EINVAL;
	}
	if (seen != (SEEN_VERSION | SEEN_PID | SEEN_SWAPPINESS))
		return -EINVAL;
	*ret = s;
	return 0;
}

/* The length of the UTF-8 sequence at s (1 to 4 bytes) when it is a valid one
 * (RFC 3629: shortest form, no surrogates, at most U+10FFFF), with its code
 * point in *ret_cp; 0 for a byte that starts none. */
static size_t
utf8_char(const unsigned char *s, uint32_t *ret_cp)
{
	static const uint32_t min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? (s[0] < 0xf0 ? 3 : 0) : s[0] >= 0xc2 ? 2 : 0;
	if (n == 0)
		return 0;
	cp = s[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return n;
}

/* A code point a terminal acts on instead of showing: C0 and C1 controls, DEL,
 * and the line separators and direction overrides that reorder what follows. */
static bool
is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x2028 || cp == 0x2029 || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Text from the state file (anyone who could write it chose it) for a terminal:
 * controls as \uXXXX, bytes that are not UTF-8 as \xNN, the rest as it is. */
static void
put_text(struct textbuf *o, const char *str)
{
	for (const unsigned char *c = (const unsigned char *)str; *c;) {
		uint32_t cp;
		size_t n = utf8_char(c, &cp);

		if (n == 0) {
			textbuf_put(o, "\\x%02x", *c);
			n = 1;
		} else if (is_control(cp)) {
			textbuf_put(o, "\\u%04x", (unsigned)cp);
		} else {
			textbuf_put(o, "%.*s", (int)n, (const char *)c);
		}
		c += n;
	}
}

/* A JSON string that is valid UTF-8 whatever str holds: a byte that is not
 * UTF-8 becomes U+FFFD, controls are escaped. */
static void
put_json_string(struct textbuf *o, const char *str)
{
	textbuf_put(o, "\"");
	for (const unsigned char *c = (const unsigned char *)str; *c;) {
		uint32_t cp;
		size_t n = utf8_char(c, &cp);

		if (n == 0) {
			textbuf_put(o, "\\ufffd");
			n = 1;
		} else if (cp == '"' || cp == '\\') {
			textbuf_put(o, "\\%c", (char)cp);
		} else if (is_control(cp)) {
			textbuf_put(o, "\\u%04x", (unsigned)cp);
		} else {
			textbuf_put(o, "%.*s", (int)n, (const char *)c);
		}
		c += n;
	}
	textbuf_put(o, "\"");
}

static void
put_ago(struct textbuf *o, int64_t now_s, int64_t then_s)
{
	int64_t ago = now_s > then_s ? now_s - then_s : 0;

	if (ago < 120)
		textbuf_put(o, "%" PRId64 " s ago", ago);
	else if (ago < 7200)
		textbuf_put(o, "%" PRId64 " min ago", ago / 60);
	else
		textbuf_put(o, "%" PRId64 " h ago", ago / 3600);
}

/* What the exit will do, as owner_exit() decides it. */
static void
put_on_exit(struct textbuf *o, const struct status_snapshot *s)
{
	if (s->restores)
		textbuf_put(o, "  on exit:     restores %d\n", s->original);
	else if (s->yielded)
		textbuf_put(o, "  on exit:     leaves the value someone else set\n");
	else if (s->dry_run)
		textbuf_put(o, "  on exit:     writes nothing (dry run)\n");
	else
		textbuf_put(o, "  on exit:     writes nothing (no original value recorded yet)\n");
}

int
status_render_human(const struct status_snapshot *s, int64_t now_s, char *buf, size_t len)
{
	struct textbuf o = textbuf_init(buf, len);

	textbuf_put(&o, "autoswappiness (pid %" PRId64 ") running since ", s->pid);
	put_ago(&o, now_s, s->started_s);
	textbuf_put(&o, "\n  policy:      ");
	put_text(&o, s->policy);
	textbuf_put(&o, "%s%s%s\n", s->policy_auto ? " (name = auto: the policy for this LRU)" : "",
	    s->dry_run ? " (dry run: never writes)" : "",
	    s->yielded ? " (yielded: someone else set the value; reload to resume)" : "");
	textbuf_put(&o, "  swappiness:  %d (target %d, limits %d..%d)\n", s->swappiness, s->target, s->min, s->max);
	put_on_exit(&o, s);
	if (s->lru[0])
		textbuf_put(&o, "  lru:         %s (Linux %s)\n", s->lru, s->kernel[0] ? s->kernel : "release unknown");
	textbuf_put(&o, "  inputs:      app %d%%, ", s->app_centile);
	if (s->has_swap)
		textbuf_put(&o, "swap free %d%%, ", s->swap_centile);
	else
		textbuf_put(&o, "no swap, ");
	textbuf_put(&o, "mapped %d%%, distress %d, swap_tendency %d\n", s->mapped_ratio, s->distress, s->swap_tendency);
	textbuf_put(&o, "  rates:       file refaults %" PRIu64 "/s, anon refaults %" PRIu64 "/s, swap-ins %" PRIu64 "/s\n",
	    s->refault_file_pps, s->refault_anon_pps, s->swapin_pps);
	textbuf_put(&o,
	    "  counts:      writes %" PRIu64 ", yields %" PRIu64 ", reloads %" PRIu64 " (%" PRIu64
	    " failed), errors %" PRIu64 "%s",
	    s->writes, s->yields, s->reloads, s->reload_failures, s->errors, s->journal_dropped ? "" : "\n");
	if (s->journal_dropped)
		textbuf_put(&o, ", log records journald or stderr did not take %" PRIu64 "\n", s->journal_dropped);
	if (s->n_history == 0)
		textbuf_put(&o, "  decisions:   none yet\n");
	else
		textbuf_put(&o, "  decisions (newest last):\n");
	for (unsigned i = 0; i < s->n_history; i++) {
		textbuf_put(&o, "    ");
		put_ago(&o, now_s, s->history[i].time_s);
		textbuf_put(&o, ": %d -> %d, ", s->history[i].from, s->history[i].to);
		put_text(&o, s->history[i].reason);
		textbuf_put(&o, "\n");
	}
	return textbuf_end(&o);
}

int
status_render_json(const struct status_snapshot *s, char *buf, size_t len)
{
	struct textbuf o = textbuf_init(buf, len);

	textbuf_put(&o, "{\"running\":true,\"pid\":%" PRId64 ",\"started\":%" PRId64 ",\"policy\":", s->pid, s->started_s);
	put_json_string(&o, s->policy);
	textbuf_put(&o, ",\"policy_auto\":%s", s->policy_auto ? "true" : "false");
	if (s->lru[0]) {
		textbuf_put(&o, ",\"lru\":");
		put_json_string(&o, s->lru);
	}
	if (s->kernel[0]) {
		textbuf_put(&o, ",\"kernel\":");
		put_json_string(&o, s->kernel);
	}
	textbuf_put(&o, ",\"swappiness\":%d,\"original\":%d,\"target\":%d,\"min\":%d,\"max\":%d", s->swappiness, s->original,
	    s->target, s->min, s->max);
	textbuf_put(&o, ",\"app_centile\":%d,\"swap_centile\":%d,\"mapped_ratio\":%d,\"distress\":%d,\"swap_tendency\":%d",
	    s->app_centile, s->swap_centile, s->mapped_ratio, s->distress, s->swap_tendency);
	textbuf_put(&o, ",\"refault_file_pps\":%" PRIu64 ",\"refault_anon_pps\":%" PRIu64 ",\"swapin_pps\":%" PRIu64,
	    s->refault_file_pps, s->refault_anon_pps, s->swapin_pps);
	textbuf_put(&o, ",\"dry_run\":%s,\"yielded\":%s,\"restores\":%s,\"has_swap\":%s", s->dry_run ? "true" : "false",
	    s->yielded ? "true" : "false", s->restores ? "true" : "false", s->has_swap ? "true" : "false");
	textbuf_put(&o,
	    ",\"writes\":%" PRIu64 ",\"yields\":%" PRIu64 ",\"reloads\":%" PRIu64 ",\"reload_failures\":%" PRIu64
	    ",\"errors\":%" PRIu64 ",\"journal_dropped\":%" PRIu64 ",\"last_decision\":%" PRId64 ",\"decisions\":[",
	    s->writes, s->yields, s->reloads, s->reload_failures, s->errors, s->journal_dropped, s->last_decision_s);
	for (unsigned i = 0; i < s->n_history; i++) {
		textbuf_put(&o, "%s{\"time\":%" PRId64 ",\"from\":%d,\"to\":%d,\"reason\":", i ? "," : "", s->history[i].time_s,
		    s->history[i].from, s->history[i].to);
		put_json_string(&o, s->history[i].reason);
		textbuf_put(&o, "}");
	}
	textbuf_put(&o, "]}\n");
	return textbuf_end(&o);
}

static void
metric(struct textbuf *o, const char *name, const char *type, const char *help)
{
	textbuf_put(o, "# HELP autoswappiness_%s %s\n# TYPE autoswappiness_%s %s\n", name, help, name, type);
}

/* A metric with its one value: HELP, TYPE and the sample from one name. */
static void
gauge(struct textbuf *o, const char *name, const char *help, int64_t v)
{
	metric(o, name, "gauge", help);
	textbuf_put(o, "autoswappiness_%s %" PRId64 "\n", name, v);
}

static void
counter(struct textbuf *o, const char *name, const char *help, uint64_t v)
{
	metric(o, name, "counter", help);
	textbuf_put(o, "autoswappiness_%s %" PRIu64 "\n", name, v);
}

/* A ratio 0..1 from a percentage, in base units. */
static void
ratio(struct textbuf *o, const char *name, const char *help, int pct)
{
	metric(o, name, "gauge", help);
	textbuf_put(o, "autoswappiness_%s %d.%02d\n", name, pct / 100, pct % 100);
}

/* The knob, the limits and who owns it. */
static void
metrics_knob(struct textbuf *o, const struct status_snapshot *s)
{
	gauge(o, "swappiness", "Current value of vm.swappiness.", s->swappiness);
	gauge(o, "target", "The policy's last target, before the limits.", s->target);
	/* Only with something to restore: a dry run wrote nothing, a yield leaves
	 * someone else's value. */
	if (s->restores)
		gauge(o, "original_swappiness", "The value restored when the daemon stops.", s->original);
	gauge(o, "limit_min", "Lower limit in effect.", s->min);
	gauge(o, "limit_max", "Upper limit in effect (max = auto resolved).", s->max);
	metric(o, "policy_info", "gauge", "The policy in use and the name configured (auto picks per LRU), as labels.");
	textbuf_put(o, "autoswappiness_policy_info{policy=\"%s\",configured=\"%s\"} 1\n", s->policy,
		    s->policy_auto ? "auto" : s->policy);
	if (s->lru[0]) {
		metric(o, "lru_info", "gauge", "The kernel's LRU (classic or mglru) and release, as labels.");
		textbuf_put(o, "autoswappiness_lru_info{lru=\"%s\",kernel=\"%s\"} 1\n", s->lru, s->kernel);
	}
	gauge(o, "dry_run", "1 when the daemon never writes.", s->dry_run);
	gauge(o, "yielded", "1 when someone else set vm.swappiness and the daemon keeps its hands off.", s->yielded);
}

/* The policy's inputs at the last decision. */
static void
metrics_inputs(struct textbuf *o, const struct status_snapshot *s)
{
	ratio(o, "app_memory_ratio", "Share of RAM held by application memory (app_centile / 100).", s->app_centile);
	/* Without swap there is no share of it free; 0 would read "swap full". */
	if (s->has_swap)
		ratio(o, "swap_free_ratio", "Share of swap still free (swap_centile / 100).", s->swap_centile);
	ratio(o, "mapped_ratio", "Share of RAM mapped into page tables (mapped_ratio / 100).", s->mapped_ratio);
	ratio(o, "distress_ratio", "Reclaim distress (PSI stall share or reclaim inefficiency) / 100.", s->distress);
	gauge(o, "swap_tendency", "Linux 2.6 swap_tendency = mapped_ratio/2 + distress + ck.", s->swap_tendency);
}

/* The kernel's page counters since the daemon started, for rate(); only those
 * the kernel offers. */
static void
metrics_pages(struct textbuf *o, const struct status_pages *p)
{
	if (p->has_refaults) {
		counter(o, "refault_file_pages_total", "workingset_refault_file since the daemon started.", p->refault_file);
		counter(o, "refault_anon_pages_total", "workingset_refault_anon since the daemon started.", p->refault_anon);
	}
	if (p->has_vmstat) {
		counter(o, "swapin_pages_total", "pswpin since the daemon started.", p->swapin);
		counter(o, "scan_pages_total", "pgscan_kswapd + pgscan_direct since the daemon started.", p->scan);
	}
}

/* What the daemon did, and whether it is alive. */
static void
metrics_daemon(struct textbuf *o, const struct status_snapshot *s)
{
	counter(o, "writes_total", "Writes of vm.swappiness.", s->writes);
	counter(o, "yields_total", "Times the daemon yielded to someone else's value.", s->yields);
	counter(o, "reloads_total", "Configuration reloads that took effect.", s->reloads);
	counter(o, "reload_failures_total", "Reloads refused because of a bad configuration.", s->reload_failures);
	counter(o, "errors_total", "Errors logged (read or write failures).", s->errors);
	counter(o, "journal_dropped_total",
		"Log records journald or stderr did not take (journald's lost while it was stalled or written to stderr "
		"while it was gone; stderr's lost while its reader stalled or after it left).",
		s->journal_dropped);
	gauge(o, "last_decision_timestamp_seconds",
	      "Unix time of the last decision to change the value (a write, or in a dry run the write it would make).",
	      s->last_decision_s);
	gauge(o, "last_poll_timestamp_seconds",
	      "Unix time the last poll began (the start time before the first).", s->last_poll_s);
	metric(o, "poll_interval_seconds", "gauge", "The wait until the next poll at the latest.");
	textbuf_put(o, "autoswappiness_poll_interval_seconds %u.%03u\n", s->poll_interval_ms / 1000,
		    s->poll_interval_ms % 1000);
	gauge(o, "start_time_seconds", "Unix time the daemon started.", s->started_s);
	metric(o, "build_info", "gauge", "Always 1, with the daemon's version as a label.");
	textbuf_put(o, "autoswappiness_build_info{version=\"%s\"} 1\n", VERSION);
}

int
status_render_metrics(const struct status_snapshot *s, char *buf, size_t len)
{
	struct textbuf o = textbuf_init(buf, len);

	metrics_knob(&o, s);
	metrics_inputs(&o, s);
	metrics_pages(&o, &s->pages);
	metrics_daemon(&o, s);
	return textbuf_end(&o);
}
