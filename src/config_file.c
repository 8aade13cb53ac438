#include "config_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The UTF-8 byte order mark some Windows editors put at the start of a file. */
static const char utf8_bom[] = "\xef\xbb\xbf";

struct loader {
	const char *data; /* the whole file being parsed */
	size_t len, pos;
	const char *path;
	unsigned line;		/* the line inih is working on */
	unsigned errors;
	unsigned key_line[CONFIG_KEY_COUNT];	 /* in the current file: duplicates */
	unsigned key_last_line[CONFIG_KEY_COUNT]; /* where the value in effect was set */
	char key_path[CONFIG_KEY_COUNT][PATH_MAX];
	struct config cfg;
	config_error_fn on_error;
	void *userdata;
	struct config_file_info *info; /* failed_path: the first file that failed */
};

/* Remembers path as the first file or directory that could not be read. */
static void
failed(struct loader *l, const char *path)
{
	if (l->info->failed_path[0] == '\0')
		snprintf(l->info->failed_path, sizeof(l->info->failed_path), "%s", path);
}

static void __attribute__((format(printf, 3, 4)))
report(struct loader *l, unsigned line, const char *fmt, ...)
{
	char msg[512], full[PATH_MAX + sizeof(msg) + 16]; /* the whole path, whatever its length */
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

/* Whether line s has the '=' or ':' of a setting before any inline comment. */
static bool
has_separator(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '=' || *p == ':')
			return true;
		if (*p == ';' && p > s && (p[-1] == ' ' || p[-1] == '\t'))
			return false;
	}
	return false;
}

/* A section line that is reported as broken goes on to inih as a section that
 * no name matches: the keys after it are ignored (their section is the broken
 * one), not blamed on the section before it. */
static bool
broken_section(char *s)
{
	strcpy(s, "[\x7f]\n");
	return true;
}

/* Checks what inih would reject, so that every bad line is reported (inih keeps
 * only the first). Returns true when the line (which it may rewrite, as
 * broken_section does) may go on to inih. */
static bool
check_line(struct loader *l, char *s)
{
	if (*s == '\0' || *s == '\n' || *s == ';' || *s == '#')
		return true;
	if (*s == '[') {
		const char *close = strchr(s, ']');
		char name[CONFIG_QUOTE_MAX + 2], quoted[CONFIG_QUOTE_BYTES];
		size_t n;

		if (!close) {
			report(l, l->line, "expected ']' to close the section name");
			return broken_section(s);
		}
		/* Longer than any section: quoted as its length alone. */
		n = (size_t)(close - s - 1);
		if (n > CONFIG_QUOTE_MAX + 1)
			n = CONFIG_QUOTE_MAX + 1;
		memcpy(name, s + 1, n);
		name[n] = '\0';
		if (n > CONFIG_QUOTE_MAX) {
			report(l, l->line, "unknown section (%zu bytes, not shown)", (size_t)(close - s - 1));
			return broken_section(s);
		}
		if (!config_section_known(name))
			report(l, l->line, "unknown section %s", config_quote(name, true, quoted, sizeof(quoted)));
		/* inih drops what follows the ']': "[limits] max = 50" would set
		 * nothing and say nothing. The section itself still counts, so
		 * that the keys after it are not blamed on the one before. */
		close += strspn(close + 1, " \t\r") + 1;
		if (*close != '\0' && *close != '\n' && *close != ';')
			report(l, l->line, "text after the section's ']'");
		return true;
	}
	/* Not configuration: its text is not repeated (the file may be anyone's).
	 * As inih reads it, a ';' after a blank starts a comment, also before
	 * the '=' ("max ;= 5" has none). */
	if (!has_separator(s)) {
		report(l, l->line, "expected 'key = value' or '[section]'");
		return false;
	}
	return true;
}

static int
next_byte(struct loader *l)
{
	return l->pos < l->len ? (unsigned char)l->data[l->pos++] : EOF;
}

/* An fgets for inih that counts lines, reports overlong lines and syntax errors,
 * and strips indentation (inih would take an indented line as the continuation
 * of the previous value; any blank counts, \f and \v as well, and the \r of a
 * CR LF blank line). */
static char *
reader(char *str, int num, void *stream)
{
	struct loader *l = stream;
	bool nul = false;
	int c = EOF, n = 0;
	char *s;

	/* Byte by byte rather than fgets: a NUL inside a line must not hide
	 * its end (and shift every later line number). */
	while (n < num - 1 && (c = next_byte(l)) != EOF) {
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
		c = next_byte(l);
		if (c != EOF && c != '\n') {
			report(l, l->line, "line longer than %d characters", num - 1);
			while ((c = next_byte(l)) != EOF && c != '\n')
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
	s = str + strspn(str, " \t\f\v\r");
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
	char err[256], quoted[CONFIG_QUOTE_BYTES];

	if (section[0] == '\0') {
		report(l, l->line, "key %s outside any section", config_quote(name, false, quoted, sizeof(quoted)));
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
config_errors_print(void *userdata, const char *message)
{
	(void)userdata;
	fprintf(stderr, "%s\n", message);
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

void
config_errors_reset(struct config_errors *e)
{
	e->used = e->count = 0;
	e->text[0] = '\0';
}

void
config_errors_finish(struct config_errors *e, char *more, size_t len)
{
	unsigned shown = 0;

	for (size_t i = 0; i < e->used; i++)
		shown += e->text[i] == '\n';
	if (e->count > shown)
		snprintf(more, len, "\n... and %u more errors not shown", e->count - shown);
	else if (len > 0)
		more[0] = '\0';
	if (e->used > 0)
		e->text[e->used - 1] = '\0';
}

static const char *
file_type(mode_t mode)
{
	return S_ISCHR(mode)   ? "a character device"
	       : S_ISBLK(mode) ? "a block device"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISLNK(mode) ? "a symlink"
				: "not a file";
}

/* A configuration file or drop-in directory steers a daemon that runs as
 * root, so only root may change it (or, for `-n` run by a user, that user):
 * refused when another user owns it or group or others may write it, as sshd
 * and sudo do. The service has no CAP_DAC_OVERRIDE, so root reads a file only
 * through its owner bits: refused too when those do not let it read, so that
 * `-n` says what the service will see. Returns 0 or -EPERM (reported). */
static int
check_owner(struct loader *l, const struct stat *st, const char *what)
{
	uid_t euid = geteuid();
	unsigned mode = (unsigned)st->st_mode & 07777;
	mode_t need = S_IRUSR | (S_ISDIR(st->st_mode) ? S_IXUSR : 0);

	if (st->st_uid != 0 && st->st_uid != euid) {
		if (euid == 0)
			report(l, 0, "owned by uid %u (mode %04o): %s must belong to root", (unsigned)st->st_uid, mode,
			       what);
		else
			report(l, 0, "owned by uid %u (mode %04o): %s must belong to root or to uid %u, who runs this",
			       (unsigned)st->st_uid, mode, what, (unsigned)euid);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		report(l, 0,
		       "mode %04o (owner uid %u) lets group or others write it: %s must be writable by its owner only",
		       mode, (unsigned)st->st_uid, what);
		return -EPERM;
	}
	if ((st->st_mode & need) != need) {
		report(l, 0,
		       "mode %04o (owner uid %u): its owner may not %s it, nor may the service, which has no "
		       "CAP_DAC_OVERRIDE",
		       mode, (unsigned)st->st_uid, S_ISDIR(st->st_mode) ? "list" : "read");
		return -EPERM;
	}
	return 0;
}

/* Checks what stat says about a configuration file. Returns 0 or a negative
 * errno (reported). */
static int
check_file(struct loader *l, const struct stat *st)
{
	if (S_ISDIR(st->st_mode)) {
		report(l, 0, "%s", strerror(EISDIR));
		return -EISDIR;
	}
	if (!S_ISREG(st->st_mode)) {
		report(l, 0, "not a regular file (%s)", file_type(st->st_mode));
		return -EBADFD;
	}
	if (st->st_size > CONFIG_FILE_MAX_BYTES) {
		report(l, 0, "larger than %d bytes (%d KiB), the most a configuration file may hold",
		       CONFIG_FILE_MAX_BYTES, CONFIG_FILE_MAX_BYTES / 1024);
		return -EFBIG;
	}
	return check_owner(l, st, "a configuration file");
}

/* Reads the whole of path into a new buffer (*ret_data, which the caller
 * frees). Nothing but a regular file is opened or read: a FIFO, /dev/zero or
 * a directory where a drop-in should be is reported, not read forever.
 * Returns 0 or a negative errno (reported; -ENOENT only when report_missing). */
static int
read_file(struct loader *l, const char *path, bool report_missing, char **ret_data, size_t *ret_len)
{
	struct stat st;
	size_t len = 0;
	char *data;
	int fd, r;

	/* stat first: a device is not even opened (an open can have effects). */
	if (stat(path, &st) < 0) {
		r = -errno;
		if (r != -ENOENT || report_missing)
			report(l, 0, "%s", strerror(-r));
		return r;
	}
	r = check_file(l, &st);
	if (r < 0)
		return r;
	/* O_NONBLOCK: should it have become a FIFO since, the open does not wait. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		report(l, 0, "%s", strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		report(l, 0, "%s", strerror(-r));
		close(fd);
		return r;
	}
	r = check_file(l, &st);
	if (r < 0) {
		close(fd);
		return r;
	}
	data = malloc(CONFIG_FILE_MAX_BYTES + 1);
	if (!data) {
		report(l, 0, "out of memory");
		close(fd);
		return -ENOMEM;
	}
	/* Until end of file, and one byte past the cap: it may have grown. */
	while (len <= CONFIG_FILE_MAX_BYTES) {
		ssize_t n = read(fd, data + len, CONFIG_FILE_MAX_BYTES + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			report(l, 0, "read error: %s", strerror(-r));
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r == 0 && len > CONFIG_FILE_MAX_BYTES) {
		report(l, 0, "larger than %d bytes (%d KiB), the most a configuration file may hold",
		       CONFIG_FILE_MAX_BYTES, CONFIG_FILE_MAX_BYTES / 1024);
		r = -EFBIG;
	}
	if (r < 0) {
		free(data);
		return r;
	}
	*ret_data = data;
	*ret_len = len;
	return 0;
}

/* Reads one file into l->cfg on top of what is there. Returns 0, or a negative
 * errno when it cannot be opened or read or is refused (reported; -ENOENT only
 * when report_missing). Parse errors are counted in l->errors. */
static int
load_one(struct loader *l, const char *path, bool report_missing)
{
	char *data = NULL;
	size_t len = 0;
	unsigned errors = l->errors;
	int r;

	l->path = path;
	l->line = 0;
	memset(l->key_line, 0, sizeof(l->key_line));
	r = read_file(l, path, report_missing, &data, &len);
	if (r < 0)
		return r;
	l->data = data;
	l->len = len;
	/* A byte order mark is no part of the first line. */
	l->pos = len >= 3 && memcmp(data, utf8_bom, 3) == 0 ? 3 : 0;
	r = ini_parse_stream(reader, l, handler, l);
	free(data);
	l->data = NULL;
	l->len = l->pos = 0;
	if (r < 0) {
		report(l, 0, "out of memory while parsing");
		return -ENOMEM;
	}
	if (r > 0 && l->errors == 0)
		report(l, (unsigned)r, "syntax error");
	/* The first file with an error is the one to blame (--explain). */
	if (l->errors > errors)
		failed(l, path);
	return 0;
}

static int
is_dropin(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	/* Whatever its type: one that is not a regular file is reported, not
	 * skipped in silence. */
	return e->d_name[0] != '.' && n > 5 && strcmp(e->d_name + n - 5, ".conf") == 0;
}

/* Reads the drop-ins of path (path.d/\*.conf) into l->cfg; sets *ret_n to how
 * many there are. Returns 0 or the first negative errno (reported). */
static int
load_dropins(struct loader *l, const char *path, int *ret_n)
{
	char dir[PATH_MAX + 2], file[PATH_MAX];
	struct dirent **list = NULL;
	struct stat st;
	int n, r = 0;

	*ret_n = 0;
	/* Drop-ins, the way systemd's own .conf.d work: FILE.d/NAME.conf after FILE,
	 * in lexical order, later keys overriding earlier ones. */
	snprintf(dir, sizeof(dir), "%s.d", path);
	l->path = dir;
	if (stat(dir, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0; /* no drop-ins */
		r = -errno;
		report(l, 0, "%s", strerror(-r));
		failed(l, dir);
		return r;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;
	r = check_owner(l, &st, "a drop-in directory");
	if (r >= 0) {
		n = scandir(dir, &list, is_dropin, alphasort);
		if (n < 0) {
			r = -errno;
			report(l, 0, "%s", strerror(-r));
		}
	}
	if (r < 0) {
		failed(l, dir);
		return r;
	}
	/* Every drop-in, even after one that is refused: all errors in one pass. */
	for (int i = 0; i < n; i++) {
		int q;

		if (snprintf(file, sizeof(file), "%s/%s", dir, list[i]->d_name) < (int)sizeof(file)) {
			q = load_one(l, file, true);
		} else {
			/* Not read, and said: a drop-in is never left out in silence. */
			l->path = dir;
			report(l, 0, "drop-in '%s': its path is longer than %d bytes; not read", list[i]->d_name,
			       PATH_MAX - 1);
			q = -ENAMETOOLONG;
		}
		if (q < 0 && r >= 0) {
			r = q;
			failed(l, q == -ENAMETOOLONG ? dir : file);
		}
		free(list[i]);
	}
	free(list);
	*ret_n = n;
	return r;
}

int
config_file_load_info(const char *path, bool optional, struct config *ret, config_error_fn on_error,
		      void *userdata, struct config_file_info *info)
{
	struct loader l = { .on_error = on_error, .userdata = userdata, .info = info };
	enum config_key key;
	char err[256];
	int n, r;

	*info = (struct config_file_info){ 0 };
	config_defaults(&l.cfg);
	r = load_one(&l, path, !optional);
	if (r == -ENOENT && optional) {
		info->main_absent = true;
		r = 0;
	} else if (r < 0) {
		/* Refused, but its drop-ins' errors are reported too: every error
		 * in one pass. */
		failed(&l, path);
		(void)load_dropins(&l, path, &n);
		info->dropins = (unsigned)n;
		return r;
	}
	r = load_dropins(&l, path, &n);
	info->dropins = (unsigned)n;
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
	return info->main_absent && n <= 0 ? 1 : 0;
}

int
config_file_load(const char *path, bool optional, struct config *ret, config_error_fn on_error, void *userdata)
{
	struct config_file_info info;

	return config_file_load_info(path, optional, ret, on_error, userdata, &info);
}
