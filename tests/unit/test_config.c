/* Unit tests for the configuration: every key, every error, line numbers
 * (golden files in tests/data/config: NAME.conf and the errors NAME.expected
 * with '@' standing for the path). */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "config_file.h"

#define DATA "tests/data/config/"

/* The tests run in a copy of DATA under fixtures (copy_fixtures); tree is the
 * directory they were started from, whose DATA update-golden rewrites. */
static char fixtures[64], tree[4096];

struct errors {
	char text[2 * PATH_MAX + 1024]; /* test_long_paths: two messages that name 3,900-byte paths */
	unsigned n;
};

static void
collect(void *userdata, const char *message)
{
	struct errors *e = userdata;
	size_t used = strlen(e->text);

	snprintf(e->text + used, sizeof(e->text) - used, "%s\n", message);
	e->n++;
}

static void
read_expected(const char *name, const char *path, char *out, size_t outlen)
{
	char file[256], line[512];
	FILE *f;

	snprintf(file, sizeof(file), DATA "%s.expected", name);
	f = fopen(file, "re");
	if (!f)
		fail_msg("cannot open %s", file);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		size_t used = strlen(out);

		assert_true(line[0] == '@');
		snprintf(out + used, outlen - used, "%s%s", path, line + 1);
	}
	fclose(f);
}

/* With UPDATE_GOLDEN=1 in the environment (make update-golden), the errors
 * a golden file produces become its NAME.expected instead of being compared:
 * review the diff before committing it. */
static void
write_expected(const char *name, const char *path, const char *got)
{
	size_t plen = strlen(path);
	char file[4352];
	FILE *f;

	snprintf(file, sizeof(file), "%s/" DATA "%s.expected", tree, name);
	f = fopen(file, "we");
	if (!f)
		fail_msg("cannot write %s", file);
	for (const char *line = got; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);

		/* Each message starts with the path; '@' stands for it. */
		if (strncmp(line, path, plen) != 0)
			fail_msg("%s: message does not start with the path: %.*s", name, (int)len, line);
		fprintf(f, "@%.*s", (int)(len - plen), line + plen);
		line += len;
	}
	if (fclose(f) != 0)
		fail_msg("cannot write %s", file);
}

/* Every NAME.expected in tests/data/config, found by glob: NAME.conf must fail
 * to load with exactly those errors. */
static void
test_golden_errors(void **state)
{
	bool update = getenv("UPDATE_GOLDEN") != NULL;
	unsigned tested = 0;
	glob_t g;

	(void)state;
	assert_int_equal(glob(DATA "*.expected", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char name[128], path[256], want[4096];
		const char *base = g.gl_pathv[i] + strlen(DATA);
		struct errors e = { .n = 0 };
		struct config c;

		snprintf(name, sizeof(name), "%.*s", (int)(strlen(base) - strlen(".expected")), base);
		snprintf(path, sizeof(path), DATA "%s.conf", name);
		c.max = 4242;
		assert_int_equal(config_file_load(path, false, &c, collect, &e), -EINVAL);
		assert_int_equal(c.max, 4242); /* *ret untouched on failure */
		tested++;
		if (update) {
			write_expected(name, path, e.text);
			continue;
		}
		read_expected(name, path, want, sizeof(want));
		if (strcmp(e.text, want) != 0)
			fail_msg("%s: got\n%swant\n%s", name, e.text, want);
	}
	globfree(&g);
	/* The glob found the files: a moved directory must not pass as empty. */
	assert_true(tested >= 6);
}

static void
test_good_full(void **state)
{
	struct errors e = { .n = 0 };
	struct config c;

	(void)state;
	assert_int_equal(config_file_load(DATA "good-full.conf", false, &c, collect, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.policy, POLICY_TENDENCY);
	assert_int_equal(c.min, 10);
	assert_int_equal(c.max, 150);
	assert_int_equal(c.step, 3);
	assert_int_equal(c.smoothing_pct, 40);
	assert_int_equal(c.interval_ms, 2500);
	assert_int_equal(c.busy_interval_ms, 250);
	assert_int_equal(c.psi_trigger_ms, 150);
	assert_true(c.dry_run);
	assert_int_equal(c.on_external_change, CONFIG_EXTERNAL_OVERRIDE);
	assert_true(c.debug);
}

static void
test_defaults_and_comments(void **state)
{
	struct errors e = { .n = 0 };
	struct config c, d;

	(void)state;
	config_defaults(&d);
	assert_int_equal(config_file_load(DATA "empty.conf", false, &c, collect, &e), 0);
	/* Field by field: the struct has padding. */
	assert_int_equal(c.policy, d.policy);
	assert_int_equal(c.min, d.min);
	assert_int_equal(c.max, d.max);
	assert_int_equal(c.step, d.step);
	assert_int_equal(c.smoothing_pct, d.smoothing_pct);
	assert_int_equal(c.interval_ms, d.interval_ms);
	assert_int_equal(c.busy_interval_ms, d.busy_interval_ms);
	assert_int_equal(c.psi_trigger_ms, d.psi_trigger_ms);
	assert_int_equal(c.dry_run, d.dry_run);
	assert_int_equal(c.on_external_change, d.on_external_change);
	assert_int_equal(c.debug, d.debug);
	assert_int_equal(d.policy, POLICY_WORKINGSET);
	assert_int_equal(d.min, 0);
	assert_int_equal(d.max, CONFIG_MAX_AUTO);
	assert_int_equal(d.step, 20);
	assert_int_equal(d.interval_ms, 5000);
	assert_int_equal(d.busy_interval_ms, 1000);
	assert_int_equal(d.psi_trigger_ms, 20);
	assert_false(d.dry_run);
	assert_int_equal(d.on_external_change, CONFIG_EXTERNAL_YIELD);

	assert_int_equal(config_file_load(DATA "comments.conf", false, &c, collect, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.max, 80);
	assert_int_equal(c.min, 5); /* indented: a key of its own, not a continuation */
	assert_int_equal(c.step, 2);

	assert_int_equal(config_file_load(DATA "crlf.conf", false, &c, collect, &e), 0);
	assert_int_equal(c.max, 70);
	assert_int_equal(e.n, 0);

	/* Blank lines of a CR LF file are blank, and a line indented with \f or
	 * \v is a key of its own (inih would take it for a continuation). */
	c.max = 0;
	c.step = 0;
	assert_int_equal(config_file_load(DATA "crlf-blank.conf", false, &c, collect, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.max, 70);
	assert_int_equal(c.step, 2);

	/* A UTF-8 byte order mark (Notepad's) is skipped, not taken for part
	 * of the section line; bom.conf shows the line numbers stay right. */
	c.max = 0;
	assert_int_equal(config_file_load(DATA "bom-crlf.conf", false, &c, collect, &e), 0);
	assert_int_equal(c.max, 70);
	assert_int_equal(e.n, 0);
}

static void
test_missing_file(void **state)
{
	struct errors e = { .n = 0 };
	struct config c;

	(void)state;
	assert_int_equal(config_file_load(DATA "does-not-exist.conf", false, &c, collect, &e), -ENOENT);
	assert_string_equal(e.text, DATA "does-not-exist.conf: No such file or directory\n");
	e.text[0] = '\0';
	e.n = 0;
	/* The default path may be absent: defaults, no error. */
	assert_int_equal(config_file_load(DATA "does-not-exist.conf", true, &c, collect, &e), 1);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.max, CONFIG_MAX_AUTO);
	/* A directory is not a config file. */
	assert_true(config_file_load(DATA, false, &c, collect, &e) < 0);
	assert_true(e.n >= 1);
}

static void
test_dropins(void **state)
{
	static struct config_file_info info;
	struct errors e = { .n = 0 };
	char want[1024];
	struct config c;

	(void)state;
	/* Main file, then dropin.conf.d/ in lexical order; README and dot files
	 * are not drop-ins. */
	assert_int_equal(config_file_load(DATA "dropin.conf", false, &c, collect, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.max, 60);
	assert_int_equal(c.min, 10);
	assert_int_equal(c.policy, POLICY_TENDENCY);

	/* Errors name the drop-in and its line; a cross-key error blames the
	 * file that set the value in effect. Order: main file, then drop-ins,
	 * then validation. */
	assert_int_equal(config_file_load(DATA "dropin-bad.conf", false, &c, collect, &e), -EINVAL);
	read_expected("dropin-bad", DATA "dropin-bad.conf", want, sizeof(want));
	if (strcmp(e.text, want) != 0)
		fail_msg("got\n%swant\n%s", e.text, want);
	/* The file --explain blames is the first with an error, not the main
	 * file, which may not even exist. */
	e.text[0] = '\0';
	assert_int_equal(config_file_load_info(DATA "dropin-bad.conf", false, &c, collect, &e, &info), -EINVAL);
	assert_string_equal(info.failed_path, DATA "dropin-bad.conf.d/20-b.conf");
}

static void
test_set_every_key(void **state)
{
	static const struct {
		const char *section, *key, *value;
		int ret;
	} cases[] = {
		{ "policy", "name", "ck", 0 },
		{ "policy", "name", "tendency", 0 },
		{ "policy", "name", "", -EINVAL },
		{ "limits", "min", "0", 0 },
		{ "limits", "min", "200", 0 },
		{ "limits", "min", "201", -EINVAL },
		{ "limits", "max", "200", 0 },
		{ "limits", "max", "1e2", -EINVAL },
		{ "limits", "max", "auto", 0 },
		{ "limits", "max", "Auto", -EINVAL },
		{ "policy", "name", "adaptive", 0 },
		{ "policy", "name", "device", 0 },
		{ "policy", "name", "Device", -EINVAL },
		{ "policy", "name", "auto", 0 },
		{ "policy", "name", "Auto", -EINVAL },
		{ "policy", "name", "auto ", -EINVAL },
		{ "daemon", "busy_interval_ms", "100", 0 },
		{ "daemon", "busy_interval_ms", "9", -EINVAL },
		{ "daemon", "psi_trigger_ms", "0", 0 },
		{ "daemon", "psi_trigger_ms", "1999", 0 },
		{ "daemon", "psi_trigger_ms", "2000", -EINVAL },
		{ "limits", "step", "1", 0 },
		{ "limits", "step", "0", -EINVAL },
		{ "limits", "smoothing", "99", 0 },
		{ "limits", "smoothing", "-0", 0 },
		{ "daemon", "interval_ms", "10", 0 },
		{ "daemon", "interval_ms", "9", -EINVAL },
		{ "daemon", "interval_ms", "3600001", -EINVAL },
		{ "daemon", "interval_ms", "99999999999999999999", -EINVAL },
		{ "daemon", "dry_run", "off", 0 },
		{ "daemon", "on_external_change", "yield", 0 },
		{ "daemon", "on_external_change", "Yield", -EINVAL },
		{ "daemon", "debug", "no", 0 },
		{ "daemon", "nope", "1", -ENOENT },
		{ "Limits", "max", "1", -ENOENT },
		{ "", "max", "1", -ENOENT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config c;
		enum config_key k;
		char err[256] = "";
		int r;

		config_defaults(&c);
		r = config_set(&c, cases[i].section, cases[i].key, cases[i].value, &k, err, sizeof(err));
		if (r != cases[i].ret)
			fail_msg("[%s] %s = %s: %d (%s)", cases[i].section, cases[i].key, cases[i].value, r, err);
		if (r == 0) {
			char want[64];

			snprintf(want, sizeof(want), "%s.%s", cases[i].section, cases[i].key);
			assert_string_equal(config_key_name(k), want);
		} else {
			assert_true(strlen(err) > 0);
		}
	}
}

/* name = auto sets no policy of its own, a later name (a drop-in's) undoes it, and the
 * summary that the start record and --explain quote says which. */
static void
test_policy_auto(void **state)
{
	struct config c;
	enum config_key k;
	char err[256] = "", desc[160];

	(void)state;
	config_defaults(&c);
	assert_int_not_equal(c.policy, CONFIG_POLICY_AUTO);
	assert_int_equal(config_set(&c, "policy", "name", "auto", &k, err, sizeof(err)), 0);
	assert_int_equal(c.policy, CONFIG_POLICY_AUTO);
	assert_string_equal(config_describe(&c, desc, sizeof(desc)),
			    "policy auto, limits 0..auto, step 20, smoothing 0%, interval 5000 ms (busy 1000 ms)");
	assert_int_equal(config_set(&c, "policy", "name", "ck", &k, err, sizeof(err)), 0);
	assert_int_not_equal(c.policy, CONFIG_POLICY_AUTO);
	assert_int_equal(c.policy, POLICY_CK);
	assert_string_equal(config_describe(&c, desc, sizeof(desc)),
			    "policy ck, limits 0..auto, step 20, smoothing 0%, interval 5000 ms (busy 1000 ms)");
	/* A bad name changes neither. */
	assert_int_equal(config_set(&c, "policy", "name", "auto", &k, err, sizeof(err)), 0);
	assert_int_equal(config_set(&c, "policy", "name", "autos", &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(c.policy, CONFIG_POLICY_AUTO);
	assert_string_equal(err, "key 'name': expected auto, ck, tendency, adaptive, workingset or device, got 'autos'");
}

static void
test_validate(void **state)
{
	struct config c;
	enum config_key k;
	char err[256];

	(void)state;
	config_defaults(&c);
	assert_int_equal(config_validate(&c, &k, err, sizeof(err)), 0);
	c.min = 50;
	c.max = 50;
	assert_int_equal(config_validate(&c, &k, err, sizeof(err)), 0);
	c.min = 51;
	assert_int_equal(config_validate(&c, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(k, CONFIG_KEY_LIMITS_MIN);
	assert_string_equal(err, "key 'min': 51 is greater than max 50");
	/* max = auto is checked against the devices at run time, not here. */
	c.min = 200;
	c.max = CONFIG_MAX_AUTO;
	assert_int_equal(config_validate(&c, &k, err, sizeof(err)), 0);
	assert_true(config_section_known("daemon"));
	assert_false(config_section_known("tendency"));
	assert_string_equal(config_external_name(CONFIG_EXTERNAL_OVERRIDE), "override");
}

static char scratch[64];

/* scratch/NAME */
static const char *
at(const char *name)
{
	static char buf[4][256];
	static unsigned i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", scratch, name);
	return buf[i];
}

/* Writes len bytes of text (0: all of it) to path and sets its mode. */
static void
write_file(const char *path, const char *text, size_t len, mode_t mode)
{
	if (len == 0)
		len = strlen(text);
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/*
 * What is not a regular file is reported and never read: a drop-in that is a
 * symlink to /dev/zero or a FIFO used to make the loader read forever (or
 * block in open), and a directory gave "Input/output error". Past 64 KiB a
 * file is refused, and so is one that others may write (the daemon is root).
 * Every drop-in is still looked at: all the errors in one pass.
 */
/* A main file that is refused still has its drop-ins read for their errors:
 * every error in one pass, the main file blamed. */
static void
test_refused_main_dropin_errors(void **state)
{
	static struct config_file_info info;
	struct errors e = { .n = 0 };
	char want[1024], cmd[128];
	struct config c;

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/test_config.XXXXXX");
	assert_non_null(mkdtemp(scratch));
	write_file(at("a.conf"), "[limits]\nmax = 90\n", 0, 0666);
	assert_int_equal(mkdir(at("a.conf.d"), 0755), 0);
	write_file(at("a.conf.d/50-bad.conf"), "[limits]\nbogus = 1\n", 0, 0644);
	assert_int_equal(config_file_load_info(at("a.conf"), false, &c, collect, &e, &info), -EPERM);
	assert_string_equal(info.failed_path, at("a.conf"));
	assert_int_equal(info.dropins, 1);
	snprintf(want, sizeof(want),
		 "%s/a.conf: mode 0666 (owner uid %u) lets group or others write it: a configuration file must be "
		 "writable by its owner only\n%s/a.conf.d/50-bad.conf:2: unknown key 'bogus' in section '[limits]'\n",
		 scratch, (unsigned)geteuid(), scratch);
	assert_string_equal(e.text, want);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	assert_int_equal(system(cmd), 0);
}

/* Long paths: a message names the whole path (they were cut at 768 bytes), and a drop-in
 * whose path is longer than PATH_MAX is reported and fails the load (it was skipped in
 * silence). */
static void
test_long_paths(void **state)
{
	static struct errors ce;
	static char deep[PATH_MAX], path[PATH_MAX + 64], want[2 * PATH_MAX + 512], name[256];
	static struct config_file_info info;
	char cmd[128];
	struct config c;
	size_t len;
	int dfd, fd;

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/test_config.XXXXXX");
	assert_non_null(mkdtemp(scratch));
	memset(name, 'd', 200);
	name[200] = '\0';
	len = (size_t)snprintf(deep, sizeof(deep), "%s", scratch);
	/* 3,896 bytes of directories: room for "/a.conf.d/" and a short name, not a long one. */
	while (len < PATH_MAX - 200) {
		size_t n = PATH_MAX - 200 - len - 1;

		len += (size_t)snprintf(deep + len, sizeof(deep) - len, "/%.*s", (int)(n < 200 ? n : 200), name);
		assert_int_equal(mkdir(deep, 0755), 0);
	}
	assert_int_equal(len, PATH_MAX - 200);
	snprintf(path, sizeof(path), "%s/a.conf", deep);
	write_file(path, "[limits]\nbogus = 1\n", 0, 0644);
	assert_int_equal(config_file_load(path, false, &c, collect, &ce), -EINVAL);
	snprintf(want, sizeof(want), "%s:2: unknown key 'bogus' in section '[limits]'\n", path);
	assert_string_equal(ce.text, want);

	write_file(path, "[limits]\nmax = 90\n", 0, 0644);
	snprintf(path, sizeof(path), "%s/a.conf.d", deep);
	assert_int_equal(mkdir(path, 0755), 0);
	memset(name, 'd', sizeof(name) - 1);
	name[PATH_MAX - strlen(path) - 1] = '\0'; /* path/name: PATH_MAX bytes and the NUL, one too many */
	memcpy(name + strlen(name) - 5, ".conf", 5);
	snprintf(want, sizeof(want), "%s/%s", path, name);
	assert_true(strlen(want) == PATH_MAX);
	/* Made through its directory: its whole path is too long for open(2). */
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[limits]\nmax = 80\n", 19), 19);
	assert_int_equal(close(fd), 0);
	assert_int_equal(close(dfd), 0);
	ce.text[0] = '\0';
	snprintf(want, sizeof(want), "%s/a.conf", deep);
	assert_int_equal(config_file_load_info(want, false, &c, collect, &ce, &info), -ENAMETOOLONG);
	assert_string_equal(info.failed_path, path);
	snprintf(want, sizeof(want), "%s: drop-in '%s': its path is longer than %d bytes; not read\n", path, name,
		 PATH_MAX - 1);
	assert_string_equal(ce.text, want);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	assert_int_equal(system(cmd), 0);
}

static void
test_refused_files(void **state)
{
	static struct config_file_info info;
	struct errors e = { .n = 0 };
	char want[4096], *big;
	struct config c;
	size_t n;

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/test_config.XXXXXX");
	assert_non_null(mkdtemp(scratch));
	write_file(at("a.conf"), "[limits]\nmax = 90\n", 0, 0644);
	assert_int_equal(mkdir(at("a.conf.d"), 0755), 0);
	assert_int_equal(symlink("/dev/zero", at("a.conf.d/10-zero.conf")), 0);
	assert_int_equal(mkfifo(at("a.conf.d/20-fifo.conf"), 0644), 0);
	assert_int_equal(mkdir(at("a.conf.d/30-dir.conf"), 0755), 0);
	/* Exactly the cap is fine (comment lines of 100 bytes, then one of 36). */
	big = malloc(CONFIG_FILE_MAX_BYTES + 1);
	assert_non_null(big);
	memset(big, '#', CONFIG_FILE_MAX_BYTES + 1);
	for (n = 99; n < CONFIG_FILE_MAX_BYTES; n += 100)
		big[n] = '\n';
	big[CONFIG_FILE_MAX_BYTES - 1] = '\n';
	write_file(at("a.conf.d/40-max.conf"), big, CONFIG_FILE_MAX_BYTES, 0644);
	big[CONFIG_FILE_MAX_BYTES] = '\n';
	write_file(at("a.conf.d/45-big.conf"), big, CONFIG_FILE_MAX_BYTES + 1, 0644);
	free(big);
	write_file(at("a.conf.d/50-group.conf"), "[limits]\nmax = 10\n", 0, 0664);
	write_file(at("a.conf.d/55-other.conf"), "[limits]\nmax = 10\n", 0, 0646);
	write_file(at("a.conf.d/60-unreadable.conf"), "[limits]\nmax = 10\n", 0, 0200);
	write_file(at("a.conf.d/70-good.conf"), "[limits]\nmax = 20\n", 0, 0600);

	alarm(20); /* the old loader never returned: fail rather than hang */
	c.max = 4242;
	assert_int_equal(config_file_load_info(at("a.conf"), false, &c, collect, &e, &info), -EBADFD);
	alarm(0);
	assert_int_equal(c.max, 4242);
	/* The file to blame is the first drop-in that failed, not the main file (issue 48). */
	assert_string_equal(info.failed_path, at("a.conf.d/10-zero.conf"));
	assert_false(info.main_absent);
	snprintf(want, sizeof(want),
		 "%s/a.conf.d/10-zero.conf: not a regular file (a character device)\n"
		 "%s/a.conf.d/20-fifo.conf: not a regular file (a FIFO)\n"
		 "%s/a.conf.d/30-dir.conf: Is a directory\n"
		 "%s/a.conf.d/45-big.conf: larger than 65536 bytes (64 KiB), the most a configuration file may hold\n"
		 "%s/a.conf.d/50-group.conf: mode 0664 (owner uid %u) lets group or others write it: a configuration "
		 "file must be writable by its owner only\n"
		 "%s/a.conf.d/55-other.conf: mode 0646 (owner uid %u) lets group or others write it: a configuration "
		 "file must be writable by its owner only\n"
		 "%s/a.conf.d/60-unreadable.conf: mode 0200 (owner uid %u): its owner may not read it, nor may the "
		 "service, which has no CAP_DAC_OVERRIDE\n",
		 scratch, scratch, scratch, scratch, scratch, (unsigned)geteuid(), scratch, (unsigned)geteuid(), scratch,
		 (unsigned)geteuid());
	if (strcmp(e.text, want) != 0)
		fail_msg("got\n%swant\n%s", e.text, want);

	/* Without the bad ones, the rest loads: the cap itself is allowed. */
	for (const char *const *p = (const char *const[]){ "10-zero.conf", "20-fifo.conf", "45-big.conf",
							     "50-group.conf", "55-other.conf", "60-unreadable.conf",
							     NULL };
	     *p; p++) {
		char name[64];

		snprintf(name, sizeof(name), "a.conf.d/%s", *p);
		assert_int_equal(unlink(at(name)), 0);
	}
	assert_int_equal(rmdir(at("a.conf.d/30-dir.conf")), 0);
	e.text[0] = '\0';
	e.n = 0;
	assert_int_equal(config_file_load_info(at("a.conf"), false, &c, collect, &e, &info), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.max, 20);
	assert_string_equal(info.failed_path, "");
	assert_int_equal(info.dropins, 2);

	/* No main file, drop-ins only: loaded, and said so. */
	assert_int_equal(rename(at("a.conf"), at("b.conf")), 0);
	assert_int_equal(config_file_load_info(at("a.conf"), true, &c, collect, &e, &info), 0);
	assert_true(info.main_absent);
	assert_int_equal(info.dropins, 2);
	assert_int_equal(c.max, 20);
	assert_int_equal(rename(at("b.conf"), at("a.conf")), 0);

	/* A drop-in directory that others may write is refused as a whole. */
	assert_int_equal(chmod(at("a.conf.d"), 0777), 0);
	assert_int_equal(config_file_load_info(at("a.conf"), false, &c, collect, &e, &info), -EPERM);
	assert_string_equal(info.failed_path, at("a.conf.d"));
	snprintf(want, sizeof(want),
		 "%s/a.conf.d: mode 0777 (owner uid %u) lets group or others write it: a drop-in directory must be "
		 "writable by its owner only\n",
		 scratch, (unsigned)geteuid());
	assert_string_equal(e.text, want);
	assert_int_equal(chmod(at("a.conf.d"), 0755), 0);

	/* As root: a file another user owns, even one only its owner can read
	 * (the service, without CAP_DAC_OVERRIDE, could not read it at all). */
	if (geteuid() == 0) {
		e.text[0] = '\0';
		assert_int_equal(chown(at("a.conf.d/70-good.conf"), 65534, 65534), 0);
		assert_int_equal(config_file_load(at("a.conf"), false, &c, collect, &e), -EPERM);
		snprintf(want, sizeof(want),
			 "%s/a.conf.d/70-good.conf: owned by uid 65534 (mode 0600): a configuration file must belong "
			 "to root\n",
			 scratch);
		assert_string_equal(e.text, want);
	}
	snprintf(want, sizeof(want), "rm -rf '%s'", scratch);
	assert_int_equal(system(want), 0);
}

/* The fixtures are read from a copy that this user owns and only it may
 * write, whoever checked the tree out and with whatever umask: the loader
 * refuses anything else (see fixtures and tree above). */
static int
copy_fixtures(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(fixtures, sizeof(fixtures), "/tmp/test_config_data.XXXXXX");
	if (!mkdtemp(fixtures) || !getcwd(tree, sizeof(tree)))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/tests/data' && cp -R tests/data/config '%s/tests/data/' && chmod -R go-w '%s'", fixtures,
		 fixtures, fixtures);
	if (system(cmd) != 0)
		return -1;
	return chdir(fixtures);
}

static int
remove_fixtures(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixtures);
	if (chdir(tree) < 0)
		return -1;
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_errors), cmocka_unit_test(test_good_full),
		cmocka_unit_test(test_defaults_and_comments), cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_set_every_key), cmocka_unit_test(test_validate), cmocka_unit_test(test_policy_auto),
		cmocka_unit_test(test_dropins), cmocka_unit_test(test_refused_files),
		cmocka_unit_test(test_refused_main_dropin_errors), cmocka_unit_test(test_long_paths),
	};

	return cmocka_run_group_tests(tests, copy_fixtures, remove_fixtures);
}
