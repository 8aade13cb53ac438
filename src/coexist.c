#include "coexist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's range for vm.swappiness since 5.8 (mm: 100 -> 200); a value
 * above it is refused by the write, so it sets nothing. */
#define COEXIST_VALUE_MAX 200

static const char SWAPPINESS_KEY[] = "vm.swappiness";

const char *
coexist_source_name(enum coexist_source source)
{
	switch (source) {
	case COEXIST_SYSCTL_D:
		return "sysctl.d";
	case COEXIST_TUNED:
		return "tuned";
	case COEXIST_CMDLINE:
		return "cmdline";
	}
	return "?";
}

/* isspace() without the locale. A NUL byte is neither blank nor the end of
 * the text: it is a byte like any other, which no key or value contains. */
static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && is_blank((*s)[*len - 1]))
		(*len)--;
}

/* "vm.swappiness" with '/' for either '.': systemd-sysctl turns "vm/swappiness"
 * into "vm.swappiness", and the kernel's command line takes both. */
static bool
key_is_swappiness(const char *k, size_t len)
{
	if (len != sizeof(SWAPPINESS_KEY) - 1)
		return false;
	for (size_t i = 0; i < len; i++) {
		char want = SWAPPINESS_KEY[i];

		if (k[i] == want || (want == '.' && k[i] == '/'))
			continue;
		return false;
	}
	return true;
}

/* The length of the start of s (len bytes) up to the kernel's blank after a
 * number (proc_wspace_sep); a NUL byte is not one. */
static size_t
up_to_blank(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] != ' ' && s[n] != '\t' && s[n] != '\n')
		n++;
	return n;
}

int
coexist_parse_value(const char *s, size_t len, int *ret)
{
	char buf[22], *end; /* the kernel's TMPBUFLEN */
	unsigned long v;
	bool neg = len > 0 && s[0] == '-';

	/* The kernel (__do_proc_dointvec, proc_get_long) reads one number for
	 * an int: an optional '-', digits, then the end or a blank (' ', '\t',
	 * '\n'), after which the rest is not read ("10 # low" sets 10); a
	 * number up to 21 characters. */
	if (neg) {
		s++;
		len--;
	}
	len = up_to_blank(s, len);
	if (len == 0 || len >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	/* Base 0 as the kernel's strtoul_lenient(p, &p, 0, ...): "0x10" is 16. */
	v = strtoul(buf, &end, 0);
	/* Below the minimum 0: only "-0" is 0. */
	if (errno != 0 || end != buf + len || v > COEXIST_VALUE_MAX || (neg && v != 0))
		return -EINVAL;
	*ret = (int)v;
	return 0;
}

/* One line of a sysctl.d file: the value when it sets vm.swappiness. */
static bool
sysctl_line(const char *s, size_t len, int *ret)
{
	const char *end, *eq, *k, *v;
	size_t klen, vlen;

	trim(&s, &len);
	if (len == 0 || s[0] == '#' || s[0] == ';')
		return false;
	end = s + len;
	eq = memchr(s, '=', len);
	if (!eq)
		return false;
	k = s;
	klen = (size_t)(eq - s);
	/* "-key = value": a failure to set it is ignored, but it is set. */
	if (klen > 0 && k[0] == '-') {
		k++;
		klen--;
	}
	trim(&k, &klen);
	if (!key_is_swappiness(k, klen))
		return false;
	v = eq + 1;
	vlen = (size_t)(end - v);
	trim(&v, &vlen);
	return coexist_parse_value(v, vlen, ret) == 0;
}

size_t
coexist_parse_sysctl(const char *text, size_t len, struct coexist_hit *hits, size_t max)
{
	const char *p = text, *end = text + len;
	unsigned line = 0;
	size_t n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		int value;

		line++;
		if (sysctl_line(p, (size_t)(eol - p), &value)) {
			if (n < max)
				hits[n] = (struct coexist_hit){ .line = line, .value = value };
			n++;
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}

bool
coexist_profile_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= COEXIST_PROFILE_BYTES || name[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

static bool
is_list_separator(char c)
{
	return is_blank(c) || c == ',' || c == ';' || c == '\0';
}

size_t
coexist_split_profiles(const char *text, size_t len, char (*names)[COEXIST_PROFILE_BYTES], size_t max)
{
	const char *p = text, *end = text + len;
	size_t n = 0;

	while (p < end && n < max) {
		const char *w;

		while (p < end && is_list_separator(*p))
			p++;
		w = p;
		while (p < end && !is_list_separator(*p))
			p++;
		if (p == w || (size_t)(p - w) >= COEXIST_PROFILE_BYTES)
			continue;
		memcpy(names[n], w, (size_t)(p - w));
		names[n][p - w] = '\0';
		if (coexist_profile_name_ok(names[n]))
			n++;
	}
	return n;
}

/* tuned reads its profiles with Python's ConfigParser, with '#' as an inline
 * comment after whitespace: "vm.swappiness=10 # low" is 10. */
static void
strip_inline_comment(const char *s, size_t *len)
{
	for (size_t i = 1; i < *len; i++)
		if (s[i] == '#' && is_blank(s[i - 1])) {
			*len = i;
			break;
		}
}

/* TUNED_BROKEN: a header without its "]", or no header yet: lines that count for
 * nothing (ConfigParser refuses both). */
enum tuned_section { TUNED_OTHER, TUNED_MAIN, TUNED_SYSCTL, TUNED_BROKEN };

static enum tuned_section
tuned_section(const char *s, size_t len)
{
	trim(&s, &len);
	if (len == 4 && memcmp(s, "main", 4) == 0)
		return TUNED_MAIN;
	if (len == 6 && memcmp(s, "sysctl", 6) == 0)
		return TUNED_SYSCTL;
	return TUNED_OTHER;
}

/* A plugin section being read: tuned takes its plugin from "type =", else from
 * the section's name, so "[tweaks]" with "type = sysctl" is a sysctl section too,
 * and a "type =" anywhere in the section counts (ConfigParser reads it whole). */
struct tuned_sec {
	enum tuned_section by_name;
	bool has_type;
	enum tuned_section by_type;
	bool has_hit;
	struct coexist_hit hit; /* the section's last vm.swappiness */
};

/* The section ends: its vm.swappiness counts if it is a sysctl section. */
static void
tuned_section_end(const struct tuned_sec *sec, struct coexist_tuned *t)
{
	enum tuned_section kind = sec->has_type ? sec->by_type : sec->by_name;

	if (sec->by_name != TUNED_MAIN && sec->by_name != TUNED_BROKEN && kind == TUNED_SYSCTL && sec->has_hit) {
		t->has_value = true;
		t->hit = sec->hit;
	}
}

/* One "key = value" line of a tuned.conf in section sec. */
static void
tuned_line(const char *s, size_t len, unsigned line, struct tuned_sec *sec, struct coexist_tuned *t)
{
	const char *eq = memchr(s, '=', len), *v;
	size_t klen, vlen;
	int value;

	if (!eq)
		return;
	v = eq + 1;
	vlen = len - (size_t)(v - s);
	klen = (size_t)(eq - s);
	trim(&s, &klen);
	strip_inline_comment(v, &vlen);
	trim(&v, &vlen);
	if (sec->by_name == TUNED_BROKEN)
		return;
	if (sec->by_name == TUNED_MAIN) {
		if (klen == 7 && memcmp(s, "include", 7) == 0)
			t->n_includes = coexist_split_profiles(v, vlen, t->includes, COEXIST_TUNED_INCLUDES);
	} else if (klen == 4 && memcmp(s, "type", 4) == 0) {
		sec->has_type = true;
		sec->by_type = tuned_section(v, vlen) == TUNED_SYSCTL ? TUNED_SYSCTL : TUNED_OTHER;
	} else if (key_is_swappiness(s, klen) && coexist_parse_value(v, vlen, &value) == 0) {
		sec->has_hit = true;
		sec->hit = (struct coexist_hit){ .line = line, .value = value };
	}
}

void
coexist_parse_tuned(const char *text, size_t len, struct coexist_tuned *ret)
{
	const char *p = text, *end = text + len;
	struct tuned_sec sec = { .by_name = TUNED_BROKEN };
	unsigned line = 0;

	*ret = (struct coexist_tuned){ 0 };
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;
		size_t n = (size_t)((nl ? nl : end) - p);

		line++;
		p = nl ? nl + 1 : end;
		trim(&s, &n);
		if (n == 0 || s[0] == '#' || s[0] == ';')
			continue;
		if (s[0] == '[') {
			const char *close = memchr(s, ']', n);

			tuned_section_end(&sec, ret);
			sec = (struct tuned_sec){ .by_name = close ? tuned_section(s + 1, (size_t)(close - s - 1))
								     : TUNED_BROKEN };
			continue;
		}
		tuned_line(s, n, line, &sec, ret);
	}
	tuned_section_end(&sec, ret);
}

/* The kernel's next_arg(): a word ends at a blank outside quotes; the first
 * '=' splits it; quotes around the whole word or around the value go. */
static const char *
next_word(const char *p, const char *end, const char **ret_key, size_t *ret_klen, const char **ret_val,
	  size_t *ret_vlen)
{
	const char *w, *eq = NULL, *wend;
	bool in_quote = false;

	if (p < end && *p == '"') {
		p++;
		in_quote = true;
	}
	w = p;
	for (; p < end; p++) {
		if (is_blank(*p) && !in_quote)
			break;
		if (!eq && *p == '=')
			eq = p;
		if (*p == '"')
			in_quote = !in_quote;
	}
	wend = p;
	*ret_key = w;
	*ret_klen = (size_t)((eq ? eq : wend) - w);
	*ret_val = NULL;
	*ret_vlen = 0;
	if (eq) {
		const char *v = eq + 1;

		if (v < wend && *v == '"')
			v++;
		if (wend > v && wend[-1] == '"')
			wend--;
		*ret_val = v;
		*ret_vlen = (size_t)(wend - v);
	} else if (*ret_klen > 0 && w[*ret_klen - 1] == '"') {
		(*ret_klen)--;
	}
	return p;
}

bool
coexist_parse_cmdline(const char *text, size_t len, int *ret_value)
{
	const char *p = text, *end = text + len;
	bool found = false;

	while (p < end) {
		const char *key, *val;
		size_t klen, vlen;
		int value;

		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		p = next_word(p, end, &key, &klen, &val, &vlen);
		/* parse_args(): what follows "--" is for init. */
		if (!val && klen == 2 && memcmp(key, "--", 2) == 0)
			break;
		/* process_sysctl_arg(): "sysctl" then '.' or '/', the rest with
		 * either separator. */
		if (!val || klen < 7 || memcmp(key, "sysctl", 6) != 0 || (key[6] != '.' && key[6] != '/'))
			continue;
		if (key_is_swappiness(key + 7, klen - 7) && coexist_parse_value(val, vlen, &value) == 0) {
			*ret_value = value;
			found = true;
		}
	}
	return found;
}

bool
coexist_sysctl_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (len <= 5 || name[0] == '.' || strcmp(name + len - 5, ".conf") != 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct coexist_entry *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r != 0)
		return r;
	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

size_t
coexist_sysctl_order(struct coexist_entry *e, size_t n)
{
	size_t out = 0;

	if (n == 0)
		return 0;
	qsort(e, n, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < n; i++) {
		/* Sorted by name, then directory: the first of a name wins. */
		if (out > 0 && strcmp(e[out - 1].name, e[i].name) == 0)
			continue;
		if (out != i)
			e[out] = e[i];
		out++;
	}
	return out;
}

struct tuned_walk {
	coexist_tuned_load_fn load;
	void *userdata;
	/* The profiles being followed, outermost first: a loop shows as a name
	 * already here. */
	const char *stack[COEXIST_TUNED_DEPTH];
	size_t depth;
	struct coexist_finding *ret;
	bool found;
};

static void
tuned_follow(struct tuned_walk *w, const char *profile)
{
	struct coexist_tuned t;
	char path[COEXIST_PATH_BYTES];

	if (w->depth >= COEXIST_TUNED_DEPTH)
		return;
	for (size_t i = 0; i < w->depth; i++)
		if (strcmp(w->stack[i], profile) == 0)
			return;
	if (w->load(w->userdata, profile, &t, path, sizeof(path)) < 0)
		return;
	w->stack[w->depth++] = profile;
	for (size_t i = 0; i < t.n_includes; i++)
		tuned_follow(w, t.includes[i]);
	w->depth--;
	if (!t.has_value)
		return;
	w->ret->source = COEXIST_TUNED;
	snprintf(w->ret->file, sizeof(w->ret->file), "%s", path);
	w->ret->line = t.hit.line;
	w->ret->value = t.hit.value;
	w->found = true;
}

bool
coexist_tuned_effective(const char *active, size_t len, coexist_tuned_load_fn load, void *userdata,
			struct coexist_finding *ret)
{
	char names[COEXIST_TUNED_INCLUDES][COEXIST_PROFILE_BYTES];
	struct tuned_walk w = { .load = load, .userdata = userdata, .ret = ret };
	size_t n = coexist_split_profiles(active, len, names, COEXIST_TUNED_INCLUDES);

	for (size_t i = 0; i < n; i++)
		tuned_follow(&w, names[i]);
	return w.found;
}

void
coexist_add(struct coexist_findings *f, enum coexist_source source, const char *file, unsigned line, int value)
{
	struct coexist_finding *x;

	if (f->n >= COEXIST_MAX_FINDINGS) {
		f->dropped++;
		return;
	}
	x = &f->item[f->n++];
	x->source = source;
	snprintf(x->file, sizeof(x->file), "%s", file);
	x->line = line;
	x->value = value;
}

const struct coexist_finding *
coexist_match(const struct coexist_findings *f, int value)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->item[i].source != COEXIST_CMDLINE && f->item[i].value == value)
			return &f->item[i];
	return NULL;
}
