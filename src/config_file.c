#include "config_file.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct loader {
	FILE *f;
	const char *path;
	unsigned line;		/* the line inih is working on */
	unsigned errors;
	unsigned key_line[CONFIG_KEY_COUNT];	 /* in the current file: duplicates */
	unsigned key_last_line[CONFIG_KEY_COUNT]; /* where the value in effect was set */
	char key_path[CONFIG_KEY_COUNT][PATH_MAX];
	struct config cfg;
	config_error_fn on_error;
	void *userdata;
};

static void __attribute__((format(printf, 3, 4)))
report(struct loader *l, unsigned line, const char *fmt, ...)
{
	char msg[512], full[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(full, sizeof(full), "%s:%u: %s", l->path, line, msg);
	else
		snprintf(full, sizeof(full), "%s: %s", l->path, msg);
	l->errors++;
	if (l->on_error)
		l->on_error(l->userdata, full);
}

/* Checks what inih would reject, so that every bad line is reported (inih keeps
 * only the first). Returns true when the line may go on to inih. */
static bool
check_line(struct loader *l, const char *s)
{
	if (*s == '\0' || *s == '\n' || *s == ';' || *s == '#')
		return true;
	if (*s == '[') {
		const char *close = strchr(s, ']');
		char name[64];
		size_t n;

		if (!close) {
			report(l, l->line, "expected ']' to close the section name");
			return false;
		}
		n = (size_t)(close - s - 1);
		if (n >= sizeof(name)) {
			report(l, l->line, "unknown section '%.*s'", (int)n, s + 1);
			return false;
		}
		memcpy(name, s + 1, n);
		name[n] = '\0';
		if (!config_section_known(name))
			report(l, l->line, "unknown section '[%s]'", name);
		return true;
	}
	if (!strchr(s, '=') && !strchr(s, ':')) {
		size_t n = strcspn(s, "\r\n");

		report(l, l->line, "expected 'key = value', got '%.*s'", (int)(n > 60 ? 60 : n), s);
		return false;
	}
	return true;
}

/* An fgets for inih that counts lines, reports overlong lines and syntax errors,
 * and strips indentation (inih would take an indented line as the continuation
 * of the previous value). */
static char *
reader(char *str, int num, void *stream)
{
	struct loader *l = stream;
	bool nul = false;
	int c = EOF, n = 0;
	char *s;

	/* Byte by byte rather than fgets: a NUL inside a line must not hide
	 * its end (and shift every later line number). */
	while (n < num - 1 && (c = fgetc(l->f)) != EOF) {
		if (c == '\0')
			nul = true;
		str[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0)
		return NULL;
	str[n] = '\0';
	l->line++;
	if (c != '\n' && n == num - 1) {
		c = fgetc(l->f);
		if (c != EOF && c != '\n') {
			report(l, l->line, "line longer than %d characters", num - 1);
			while ((c = fgetc(l->f)) != EOF && c != '\n')
				;
			strcpy(str, "\n");
			return str;
		}
	}
	if (nul) {
		report(l, l->line, "NUL byte in the line");
		strcpy(str, "\n");
		return str;
	}
	s = str + strspn(str, " \t");
	if (s != str)
		memmove(str, s, strlen(s) + 1);
	if (!check_line(l, str))
		strcpy(str, "\n");
	return str;
}

static int
handler(void *user, const char *section, const char *name, const char *value)
{
	struct loader *l = user;
	enum config_key key;
	char err[256];

	if (section[0] == '\0') {
		report(l, l->line, "key '%s' outside any section", name);
		return 1;
	}
	if (!config_section_known(section))
		return 1; /* reported once, at the section's line */
	if (config_set(&l->cfg, section, name, value, &key, err, sizeof(err)) < 0) {
		report(l, l->line, "%s", err);
		return 1;
	}
	if (l->key_line[key] != 0)
		report(l, l->line, "key '%s' set again (first set at line %u)", name, l->key_line[key]);
	else
		l->key_line[key] = l->line;
	/* Where the value in effect came from, to blame in cross-key errors. */
	snprintf(l->key_path[key], sizeof(l->key_path[key]), "%s", l->path);
	l->key_last_line[key] = l->line;
	return 1;
}

void
config_errors_collect(void *userdata, const char *message)
{
	struct config_errors *e = userdata;
	size_t n = strlen(message);

	e->count++;
	if (e->used + n + 2 > sizeof(e->text))
		return;
	memcpy(e->text + e->used, message, n);
	e->used += n;
	e->text[e->used++] = '\n';
	e->text[e->used] = '\0';
}

/* Reads one file into l->cfg on top of what is there. Returns 0, or a negative
 * errno when it cannot be opened or read (reported; -ENOENT only when
 * report_missing). Parse errors are counted in l->errors. */
static int
load_one(struct loader *l, const char *path, bool report_missing)
{
	int r;

	l->path = path;
	l->line = 0;
	memset(l->key_line, 0, sizeof(l->key_line));
	l->f = fopen(path, "re");
	if (!l->f) {
		r = -errno;
		if (r != -ENOENT || report_missing)
			report(l, 0, "%s", strerror(-r));
		return r;
	}
	r = ini_parse_stream(reader, l, handler, l);
	if (ferror(l->f)) {
		report(l, 0, "read error: %s", strerror(EIO));
		fclose(l->f);
		return -EIO;
	}
	fclose(l->f);
	if (r < 0) {
		report(l, 0, "out of memory while parsing");
		return -ENOMEM;
	}
	if (r > 0 && l->errors == 0)
		report(l, (unsigned)r, "syntax error");
	return 0;
}

static int
is_dropin(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 && strcmp(e->d_name + n - 5, ".conf") == 0 &&
	       (e->d_type == DT_REG || e->d_type == DT_LNK || e->d_type == DT_UNKNOWN);
}

int
config_file_load(const char *path, bool optional, struct config *ret, config_error_fn on_error, void *userdata)
{
	struct loader l = { .on_error = on_error, .userdata = userdata };
	char dir[PATH_MAX], file[PATH_MAX];
	struct dirent **list = NULL;
	enum config_key key;
	char err[256];
	int n, r;
	bool main_absent = false;

	config_defaults(&l.cfg);
	r = load_one(&l, path, !optional);
	if (r == -ENOENT && optional) {
		main_absent = true;
		r = 0;
	} else if (r < 0) {
		return r;
	}

	/* Drop-ins, the way systemd's own .conf.d work: FILE.d/NAME.conf after FILE,
	 * in lexical order, later keys overriding earlier ones. */
	snprintf(dir, sizeof(dir), "%s.d", path);
	n = scandir(dir, &list, is_dropin, alphasort);
	if (n < 0 && errno != ENOENT && errno != ENOTDIR) {
		r = -errno;
		l.path = dir;
		report(&l, 0, "%s", strerror(-r));
		return r;
	}
	for (int i = 0; i < n; i++) {
		if (snprintf(file, sizeof(file), "%s/%s", dir, list[i]->d_name) < (int)sizeof(file) && r >= 0)
			r = load_one(&l, file, true);
		free(list[i]);
	}
	free(list);
	if (r < 0)
		return r;

	if (config_validate(&l.cfg, &key, err, sizeof(err)) < 0) {
		l.path = l.key_path[key][0] ? l.key_path[key] : path;
		if (key == CONFIG_KEY_LIMITS_MIN && l.key_last_line[CONFIG_KEY_LIMITS_MAX])
			report(&l, l.key_last_line[key], "%s (max set at %s:%u)", err, l.key_path[CONFIG_KEY_LIMITS_MAX],
			       l.key_last_line[CONFIG_KEY_LIMITS_MAX]);
		else
			report(&l, l.key_last_line[key], "%s", err);
	}
	if (l.errors > 0)
		return -EINVAL;
	*ret = l.cfg;
	return main_absent && n <= 0 ? 1 : 0;
}
