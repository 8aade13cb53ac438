#include "coexist_scan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "journal.h"
#include "kpath.h"

/* Files larger than this are not read: the sysctl.d files and tuned profiles
 * that distributions ship are a few KiB, the same limit as for the daemon's
 * own drop-ins. */
#define COEXIST_FILE_MAX_BYTES (64 * 1024)
/* sysctl.d files over all directories (a Debian 12 system has about ten). */
#define COEXIST_MAX_FILES 512

static const char *const sysctl_dirs[] = KPATH_SYSCTL_DIRS;
static const char *const tuned_dirs[] = KPATH_TUNED_DIRS;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct scan {
	char *buf; /* COEXIST_FILE_MAX_BYTES + 1 */
	bool log_errors;
	struct coexist_findings *out;
};

static void
scan_error(const struct scan *s, const char *path, int r)
{
	/* A missing file or directory is the usual case, not an error. */
	if (r == -ENOENT || !s->log_errors)
		return;
	journal_log(LOG_WARNING, MSGID_ERROR, "cannot check '%s' for vm.swappiness: %s", path,
		    r == -EFBIG ? "larger than 64 KiB" : fileio_strerror(r));
}

/* The cap reached in sysctl_dirs[dir], after added names from it: says which
 * directories were not read, or not in full. */
static void
report_cap(const struct scan *s, unsigned dir, size_t added)
{
	char rest[512] = "";
	size_t used = 0;

	if (!s->log_errors)
		return;
	for (unsigned i = dir + 1; i < ARRAY_SIZE(sysctl_dirs) && used < sizeof(rest); i++) {
		int len = snprintf(rest + used, sizeof(rest) - used, ", '%s'", sysctl_dirs[i]);

		if (len > 0)
			used += (size_t)len;
	}
	journal_log(LOG_WARNING, MSGID_ERROR,
		    "more than %d sysctl.d files, the most the check for vm.swappiness reads: not checked: %s'%s'%s",
		    COEXIST_MAX_FILES, added > 0 ? "the rest of " : "", sysctl_dirs[dir], rest);
}

/* Adds the names of the files in sysctl_dirs[dir] to e. Returns false when
 * COEXIST_MAX_FILES were reached (reported), true otherwise. */
static bool
list_dir(const struct scan *s, unsigned dir, struct coexist_entry *e, size_t *n)
{
	DIR *d = opendir(sysctl_dirs[dir]);
	struct dirent *de;
	size_t added = 0;
	bool room = true;

	if (!d) {
		scan_error(s, sysctl_dirs[dir], -errno);
		return true;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno != 0)
				scan_error(s, sysctl_dirs[dir], -errno);
			break;
		}
		if (!coexist_sysctl_name_ok(de->d_name))
			continue;
		if (*n >= COEXIST_MAX_FILES) {
			report_cap(s, dir, added);
			room = false;
			break;
		}
		snprintf(e[*n].name, sizeof(e[*n].name), "%s", de->d_name);
		e[*n].dir = dir;
		(*n)++;
		added++;
	}
	closedir(d);
	return room;
}

/* Reads one sysctl.d file and adds what it sets. Returns 0 and fills *ret_st,
 * or a negative errno. */
static int
scan_sysctl_file(const struct scan *s, const char *path, struct stat *ret_st)
{
	struct coexist_hit hits[COEXIST_MAX_FINDINGS];
	ssize_t len;
	size_t n;

	len = fileio_read_follow(path, s->buf, COEXIST_FILE_MAX_BYTES + 1, ret_st);
	if (len < 0) {
		scan_error(s, path, (int)len);
		return (int)len;
	}
	n = coexist_parse_sysctl(s->buf, (size_t)len, hits, COEXIST_MAX_FINDINGS);
	for (size_t i = 0; i < n; i++) {
		if (i < COEXIST_MAX_FINDINGS)
			coexist_add(s->out, COEXIST_SYSCTL_D, path, hits[i].line, hits[i].value);
		else
			s->out->dropped++;
	}
	return 0;
}

static void
scan_sysctl(const struct scan *s)
{
	struct coexist_entry *e;
	struct stat conf_st, st;
	bool have_conf, conf_seen = false;
	size_t n = 0;

	e = calloc(COEXIST_MAX_FILES, sizeof(*e));
	if (!e) {
		scan_error(s, sysctl_dirs[0], -ENOMEM);
		return;
	}
	/* Debian links /etc/sysctl.d/99-sysctl.conf to it: the same file once. */
	have_conf = stat(KPATH_SYSCTL_CONF, &conf_st) == 0;
	for (unsigned dir = 0; dir < ARRAY_SIZE(sysctl_dirs) && list_dir(s, dir, e, &n); dir++)
		;
	n = coexist_sysctl_order(e, n);
	for (size_t i = 0; i < n; i++) {
		char path[COEXIST_PATH_BYTES];

		if (snprintf(path, sizeof(path), "%s/%s", sysctl_dirs[e[i].dir], e[i].name) >= (int)sizeof(path)) {
			if (s->log_errors)
				journal_log(LOG_WARNING, MSGID_ERROR,
					    "cannot check '%s/%s' for vm.swappiness: its path is longer than %d bytes, the "
					    "most the check takes",
					    sysctl_dirs[e[i].dir], e[i].name, COEXIST_PATH_BYTES - 1);
			continue;
		}
		if (scan_sysctl_file(s, path, &st) == 0 && have_conf && st.st_dev == conf_st.st_dev &&
		    st.st_ino == conf_st.st_ino)
			conf_seen = true;
	}
	free(e);
	if (!conf_seen)
		(void)scan_sysctl_file(s, KPATH_SYSCTL_CONF, &st);
}

/* coexist_tuned_load_fn: the first of tuned_dirs that has the profile. */
static int
tuned_load(void *userdata, const char *profile, struct coexist_tuned *ret, char *path, size_t path_len)
{
	const struct scan *s = userdata;

	for (size_t i = 0; i < ARRAY_SIZE(tuned_dirs); i++) {
		struct stat st;
		ssize_t len;

		if (snprintf(path, path_len, "%s/%s/tuned.conf", tuned_dirs[i], profile) >= (int)path_len)
			return -ENAMETOOLONG;
		len = fileio_read_follow(path, s->buf, COEXIST_FILE_MAX_BYTES + 1, &st);
		if (len == -ENOENT || len == -ENOTDIR)
			continue;
		if (len < 0) {
			scan_error(s, path, (int)len);
			return (int)len;
		}
		coexist_parse_tuned(s->buf, (size_t)len, ret);
		return 0;
	}
	return -ENOENT;
}

static void
scan_tuned(const struct scan *s)
{
	struct coexist_finding f;
	struct stat st;
	ssize_t len;

	len = fileio_read_follow(KPATH_TUNED_ACTIVE, s->buf, COEXIST_FILE_MAX_BYTES + 1, &st);
	if (len < 0) {
		scan_error(s, KPATH_TUNED_ACTIVE, (int)len);
		return;
	}
	if (coexist_tuned_effective(s->buf, (size_t)len, tuned_load, (void *)s, &f))
		coexist_add(s->out, f.source, f.file, f.line, f.value);
}

static void
scan_cmdline(const struct scan *s)
{
	ssize_t len;
	int value;

	len = fileio_read(KPATH_CMDLINE, s->buf, COEXIST_FILE_MAX_BYTES + 1);
	if (len < 0) {
		scan_error(s, KPATH_CMDLINE, (int)len);
		return;
	}
	if (coexist_parse_cmdline(s->buf, (size_t)len, &value))
		coexist_add(s->out, COEXIST_CMDLINE, KPATH_CMDLINE, 1, value);
}

void
coexist_scan(struct coexist_findings *ret, bool log_errors)
{
	struct scan s = { .log_errors = log_errors, .out = ret };

	*ret = (struct coexist_findings){ 0 };
	s.buf = malloc(COEXIST_FILE_MAX_BYTES + 1);
	if (!s.buf) {
		if (log_errors)
			journal_log(LOG_WARNING, MSGID_ERROR, "cannot check for others who set vm.swappiness: %s",
				    strerror(ENOMEM));
		return;
	}
	scan_sysctl(&s);
	scan_tuned(&s);
	scan_cmdline(&s);
	free(s.buf);
}

void
coexist_report(const struct coexist_findings *f, enum config_external mode)
{
	const char *effect = mode == CONFIG_EXTERNAL_YIELD ? "stops regulation" : "is undone at the next poll";

	for (size_t i = 0; i < f->n; i++) {
		const struct coexist_finding *x = &f->item[i];
		struct journal_other o = {
			.source = coexist_source_name(x->source), .file = x->file, .line = x->line, .value = x->value
		};

		if (x->source == COEXIST_SYSCTL_D)
			journal_other(LOG_WARNING, MSGID_OTHER,
				      &o, "%s:%u sets vm.swappiness = %d: with on_external_change = %s, a `sysctl --system` %s; remove that line (see autoswappiness(8), LIVING WITH OTHER TOOLS)",
				      x->file, x->line, x->value, config_external_name(mode), effect);
		else if (x->source == COEXIST_TUNED)
			journal_other(LOG_WARNING, MSGID_OTHER,
				      &o, "%s:%u sets vm.swappiness = %d in the active tuned profile: with on_external_change = %s, applying the profile %s; take vm.swappiness out of the profile (see autoswappiness(8), LIVING WITH OTHER TOOLS)",
				      x->file, x->line, x->value, config_external_name(mode), effect);
		else
			journal_other(LOG_WARNING, MSGID_OTHER,
				      &o, "%s: the kernel command line sets vm.swappiness = %d at boot; remove sysctl.vm.swappiness= from the boot loader's configuration (see autoswappiness(8), LIVING WITH OTHER TOOLS)",
				      x->file, x->value);
	}
	if (f->dropped > 0)
		journal_log(LOG_WARNING, MSGID_OTHER, "%zu more settings of vm.swappiness not listed", f->dropped);
}
