/* Unit tests for coexist.c: who else sets vm.swappiness. The sysctl.d, tuned
 * and kernel command line parsers (comments, whitespace, the '-' prefix, the
 * slash form, quotes, garbage, huge values, the kernel's base-0 numbers),
 * systemd-sysctl's precedence and shadowing, and tuned's includes (order,
 * depth, loops) against a table of fake profiles. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coexist.h"

/* The value a sysctl.d text sets, -1 for none, -2 for more than one. */
static int
sysctl_value(const char *text, unsigned *ret_line)
{
	struct coexist_hit hits[4];
	size_t n = coexist_parse_sysctl(text, strlen(text), hits, 4);

	if (n == 0)
		return -1;
	if (n > 1)
		return -2;
	if (ret_line)
		*ret_line = hits[0].line;
	return hits[0].value;
}

static void
test_sysctl_lines(void **state)
{
	static const struct {
		const char *text;
		int value;
	} cases[] = {
		{ "vm.swappiness = 10\n", 10 },
		{ "vm.swappiness=10", 10 },
		{ "  \tvm.swappiness\t=\t10  \r\n", 10 },
		{ "vm/swappiness = 10\n", 10 },
		{ "-vm.swappiness = 10\n", 10 },
		{ "- vm.swappiness = 10\n", 10 },
		{ "-vm/swappiness=10\n", 10 },
		{ "vm.swappiness = 0\n", 0 },
		{ "vm.swappiness = 200\n", 200 },
		/* The kernel reads base 0: octal and hex. */
		{ "vm.swappiness = 010\n", 8 },
		{ "vm.swappiness = 0x10\n", 16 },
		/* Comments, at the start of the line only. */
		{ "# vm.swappiness = 10\n", -1 },
		{ "; vm.swappiness = 10\n", -1 },
		{ "   # vm.swappiness = 10\n", -1 },
		{ "\t; vm.swappiness = 10\n", -1 },
		/* The kernel reads one number up to a blank and not the rest:
		 * what looks like an inline comment is ignored, and so is a
		 * second number. */
		{ "vm.swappiness = 10 # low\n", 10 },
		{ "vm.swappiness = 10\t;low\n", 10 },
		{ "vm.swappiness = 10 20\n", 10 },
		{ "vm.swappiness = -0\n", 0 },
		{ "vm.swappiness = 10#low\n", -1 },
		{ "vm.swappiness = 000000000000000000000010\n", -1 },
		/* Other keys, prefixes and suffixes. */
		{ "vm.swappiness_x = 10\n", -1 },
		{ "xvm.swappiness = 10\n", -1 },
		{ "vm.swappines = 10\n", -1 },
		{ "vm_swappiness = 10\n", -1 },
		{ "vm.Swappiness = 10\n", -1 },
		{ "vm..swappiness = 10\n", -1 },
		{ "vm.vfs_cache_pressure = 10\n", -1 },
		{ "--vm.swappiness = 10\n", -1 },
		/* Values the kernel refuses set nothing. */
		{ "vm.swappiness = 201\n", -1 },
		{ "vm.swappiness = -1\n", -1 },
		{ "vm.swappiness = +10\n", -1 },
		{ "vm.swappiness = 99999999999999999999999999\n", -1 },
		{ "vm.swappiness = 18446744073709551616\n", -1 },
		{ "vm.swappiness = 4294967306\n", -1 },
		{ "vm.swappiness = 10x\n", -1 },
		{ "vm.swappiness = 08\n", -1 },
		{ "vm.swappiness = \n", -1 },
		{ "vm.swappiness =\n", -1 },
		{ "vm.swappiness\n", -1 },
		{ "vm.swappiness 10\n", -1 },
		{ "= 10\n", -1 },
		{ "", -1 },
		{ "\n\n\n", -1 },
		{ "[sysctl]\nvm.swappiness = 10\n", 10 },
		{ "garbage\x01\x02\xff\n=\n==\nvm.swappiness==10\n", -1 },
		{ "vm.swappiness = \"10\"\n", -1 },
		/* Two lines: both are findings. */
		{ "vm.swappiness = 10\nvm.swappiness = 20\n", -2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = sysctl_value(cases[i].text, NULL);

		if (got != cases[i].value)
			fail_msg("case %zu '%s': got %d, want %d", i, cases[i].text, got, cases[i].value);
	}
}

static void
test_sysctl_line_numbers(void **state)
{
	const char *text = "# swap\n\nvm.dirty_ratio = 5\r\n; vm.swappiness = 1\nvm/swappiness=30\n"
			   "kernel.pid_max = 4194304\n-vm.swappiness = 0x3c";
	struct coexist_hit hits[4];
	unsigned line = 0;

	(void)state;
	assert_int_equal(coexist_parse_sysctl(text, strlen(text), hits, 4), 2);
	assert_int_equal(hits[0].line, 5);
	assert_int_equal(hits[0].value, 30);
	/* The last line without a newline counts. */
	assert_int_equal(hits[1].line, 7);
	assert_int_equal(hits[1].value, 60);
	/* More than max: all counted, max stored. */
	assert_int_equal(coexist_parse_sysctl(text, strlen(text), hits, 1), 2);
	assert_int_equal(hits[0].line, 5);
	assert_int_equal(sysctl_value("\n\n\nvm.swappiness=1", &line), 1);
	assert_int_equal(line, 4);
}

/* A NUL byte is not the end of the text: the lines after it still count, and
 * it does not join a key to the next line. */
static void
test_sysctl_nul_bytes(void **state)
{
	const char text[] = "a = \0b\nvm.swappiness = 7\nvm.swappiness\0= 9\nvm.swappiness = 8\0\n";
	struct coexist_hit hits[4];

	(void)state;
	assert_int_equal(coexist_parse_sysctl(text, sizeof(text) - 1, hits, 4), 1);
	assert_int_equal(hits[0].line, 2);
	assert_int_equal(hits[0].value, 7);
}

static void
test_parse_value(void **state)
{
	int v = -1;

	(void)state;
	assert_int_equal(coexist_parse_value("60", 2, &v), 0);
	assert_int_equal(v, 60);
	assert_int_equal(coexist_parse_value("0", 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(coexist_parse_value("0310", 4, &v), 0); /* octal 200 */
	assert_int_equal(v, 200);
	v = 5;
	assert_int_equal(coexist_parse_value("", 0, &v), -EINVAL);
	assert_int_equal(coexist_parse_value(" 6", 2, &v), -EINVAL);
	assert_int_equal(coexist_parse_value("6 ", 2, &v), 0); /* the kernel stops at the blank */
	assert_int_equal(v, 6);
	assert_int_equal(coexist_parse_value("-6", 2, &v), -EINVAL);
	assert_int_equal(coexist_parse_value("-", 1, &v), -EINVAL);
	assert_int_equal(coexist_parse_value("0x", 2, &v), -EINVAL);
	assert_int_equal(coexist_parse_value("0xc9", 4, &v), -EINVAL);
	assert_int_equal(coexist_parse_value("123456789012345678901234567890123456", 36, &v), -EINVAL);
	/* A NUL byte is not the end of the value. */
	assert_int_equal(coexist_parse_value("1\0", 2, &v), -EINVAL);
	assert_int_equal(coexist_parse_value("12\0003", 4, &v), -EINVAL);
	/* Only len bytes count. */
	assert_int_equal(coexist_parse_value("12345", 2, &v), 0);
	assert_int_equal(v, 12);
}

static void
test_sysctl_names(void **state)
{
	(void)state;
	assert_true(coexist_sysctl_name_ok("99-swap.conf"));
	assert_true(coexist_sysctl_name_ok("a.conf"));
	assert_false(coexist_sysctl_name_ok(".conf"));
	assert_false(coexist_sysctl_name_ok(".hidden.conf"));
	assert_false(coexist_sysctl_name_ok("99-swap.conf~"));
	assert_false(coexist_sysctl_name_ok("99-swap.conf.dpkg-old"));
	assert_false(coexist_sysctl_name_ok("README.sysctl"));
	assert_false(coexist_sysctl_name_ok("new\nline.conf"));
	assert_false(coexist_sysctl_name_ok(""));
}

static size_t
entries(struct coexist_entry *e, const char *const *names, const unsigned *dirs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		snprintf(e[i].name, sizeof(e[i].name), "%s", names[i]);
		e[i].dir = dirs[i];
	}
	return n;
}

/* Directories 0 /etc/sysctl.d, 1 /run, 2 /usr/local/lib, 3 /usr/lib, 4 /lib. */
static void
test_sysctl_precedence(void **state)
{
	static const char *const names[] = { "99-swap.conf", "10-a.conf", "99-swap.conf", "50-pid-max.conf",
					     "50-pid-max.conf", "10-a.conf", "99-swap.conf", "30-b.conf" };
	static const unsigned dirs[] = { 3, 4, 0, 3, 4, 1, 2, 4 };
	struct coexist_entry e[8];
	size_t n = entries(e, names, dirs, 8);

	(void)state;
	n = coexist_sysctl_order(e, n);
	assert_int_equal(n, 4);
	/* By name whatever the directory; the earliest directory of a name wins. */
	assert_string_equal(e[0].name, "10-a.conf");
	assert_int_equal(e[0].dir, 1);
	assert_string_equal(e[1].name, "30-b.conf");
	assert_int_equal(e[1].dir, 4);
	assert_string_equal(e[2].name, "50-pid-max.conf");
	assert_int_equal(e[2].dir, 3);
	assert_string_equal(e[3].name, "99-swap.conf");
	assert_int_equal(e[3].dir, 0);
	assert_int_equal(coexist_sysctl_order(e, 0), 0);
}

static void
test_sysctl_order_is_byte_order(void **state)
{
	static const char *const names[] = { "b.conf", "B.conf", "a.conf", "10.conf", "9.conf" };
	static const unsigned dirs[] = { 0, 0, 3, 3, 0 };
	struct coexist_entry e[5];
	size_t n = entries(e, names, dirs, 5);

	(void)state;
	assert_int_equal(coexist_sysctl_order(e, n), 5);
	assert_string_equal(e[0].name, "10.conf");
	assert_string_equal(e[1].name, "9.conf");
	assert_string_equal(e[2].name, "B.conf");
	assert_string_equal(e[3].name, "a.conf");
	assert_string_equal(e[4].name, "b.conf");
}

static void
test_tuned_parse(void **state)
{
	const char *text = "#\n# tuned configuration\n#\n\n[main]\nsummary=Optimize for running inside a VM\n"
			   "include = throughput-performance, ${f:virt_check:a:b} ;extra\n\n[sysctl]\n"
			   "vm.dirty_ratio = 30\n# vm.swappiness = 1\nvm.swappiness = 30 # as RHEL ships it\n"
			   "[vm]\nvm.swappiness = 5\n";
	struct coexist_tuned t;

	(void)state;
	coexist_parse_tuned(text, strlen(text), &t);
	assert_true(t.has_value);
	assert_int_equal(t.hit.line, 12);
	assert_int_equal(t.hit.value, 30);
	assert_int_equal(t.n_includes, 2);
	assert_string_equal(t.includes[0], "throughput-performance");
	assert_string_equal(t.includes[1], "extra");
}

static void
test_tuned_parse_edges(void **state)
{
	struct coexist_tuned t;
	const char *text;

	(void)state;
	/* Outside [sysctl] it is not a sysctl; include= outside [main] is not an include. */
	text = "vm.swappiness=10\n[main]\nvm.swappiness=11\n[sysctl2]\nvm.swappiness=12\n[disk]\ninclude=x\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_false(t.has_value);
	assert_int_equal(t.n_includes, 0);
	/* Whitespace in the section name, the slash form, the last one wins. */
	text = "[ sysctl ]\nvm/swappiness=10\n  vm.swappiness  =  20  \n[sysctl\nvm.swappiness=30\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_true(t.has_value);
	assert_int_equal(t.hit.line, 3);
	assert_int_equal(t.hit.value, 20);
	/* A plugin instance named otherwise: "type = sysctl" makes it a sysctl section, wherever
	 * in the section it stands; "type" names another plugin for [sysctl]; [main] stays main. */
	text = "[tweaks]\nvm.swappiness=15\ntype = sysctl\n[other]\nvm.swappiness=16\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_true(t.has_value);
	assert_int_equal(t.hit.line, 2);
	assert_int_equal(t.hit.value, 15);
	text = "[sysctl]\ntype=vm\nvm.swappiness=17\n[main]\ntype=sysctl\nvm.swappiness=18\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_false(t.has_value);
	/* The last sysctl section's value wins, as each applies in turn; a broken header's lines
	 * count for nothing, its type= neither. */
	text = "[a]\ntype=sysctl\nvm.swappiness=1\n[sysctl]\nvm.swappiness=2\n[b\ntype=sysctl\nvm.swappiness=3\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_true(t.has_value);
	assert_int_equal(t.hit.value, 2);
	/* Values tuned would expand or the kernel refuses. */
	text = "[sysctl]\nvm.swappiness=${swappiness}\nvm.swappiness=300\nvm.swappiness=\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_false(t.has_value);
	/* Names that are not one plain path component are not followed. */
	text = "[main]\ninclude=../../etc/shadow, /abs, .hidden, a/b, ok-1.2_x\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_int_equal(t.n_includes, 1);
	assert_string_equal(t.includes[0], "ok-1.2_x");
	/* More names than fit: the first ones. */
	text = "[main]\ninclude=a,b,c,d,e,f,g,h,i,j\n";
	coexist_parse_tuned(text, strlen(text), &t);
	assert_int_equal(t.n_includes, COEXIST_TUNED_INCLUDES);
	assert_string_equal(t.includes[7], "h");
}

static void
test_profile_names(void **state)
{
	char names[4][COEXIST_PROFILE_BYTES];
	char longname[COEXIST_PROFILE_BYTES + 8];

	(void)state;
	assert_true(coexist_profile_name_ok("virtual-guest"));
	assert_false(coexist_profile_name_ok(""));
	assert_false(coexist_profile_name_ok(".."));
	assert_false(coexist_profile_name_ok("a b"));
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_false(coexist_profile_name_ok(longname));
	assert_int_equal(coexist_split_profiles(longname, strlen(longname), names, 4), 0);
	/* active_profile: names separated by blanks, with its newline. */
	assert_int_equal(coexist_split_profiles("balanced  powersave\n", 20, names, 4), 2);
	assert_string_equal(names[0], "balanced");
	assert_string_equal(names[1], "powersave");
	assert_int_equal(coexist_split_profiles("", 0, names, 4), 0);
	assert_int_equal(coexist_split_profiles(" , ;\n", 5, names, 4), 0);
}

/* A table of fake profiles for coexist_tuned_effective(). */
struct fake_profile {
	const char *name;
	const char *text;
};

static const struct fake_profile *fake_profiles;
static unsigned fake_loads;

static int
fake_load(void *userdata, const char *profile, struct coexist_tuned *ret, char *path, size_t path_len)
{
	(void)userdata;
	fake_loads++;
	for (const struct fake_profile *p = fake_profiles; p->name; p++) {
		if (strcmp(p->name, profile) != 0)
			continue;
		snprintf(path, path_len, "/usr/lib/tuned/%s/tuned.conf", profile);
		coexist_parse_tuned(p->text, strlen(p->text), ret);
		return 0;
	}
	return -ENOENT;
}

/* The file and value tuned applies for active, "" and -1 when none. */
static int
effective(const struct fake_profile *table, const char *active, char *file, size_t file_len)
{
	struct coexist_finding f;

	fake_profiles = table;
	fake_loads = 0;
	if (!coexist_tuned_effective(active, strlen(active), fake_load, NULL, &f)) {
		snprintf(file, file_len, "%s", "");
		return -1;
	}
	assert_int_equal(f.source, COEXIST_TUNED);
	snprintf(file, file_len, "%s:%u", f.file, f.line);
	return f.value;
}

static void
test_tuned_includes(void **state)
{
	static const struct fake_profile table[] = {
		{ "throughput-performance", "[sysctl]\nvm.dirty_ratio = 40\nvm.swappiness=10\n" },
		{ "virtual-guest", "[main]\ninclude=throughput-performance\n[sysctl]\nvm.swappiness = 30\n" },
		{ "my-guest", "[main]\ninclude=virtual-guest\n[cpu]\ngovernor=performance\n" },
		{ "deep", "[main]\ninclude=my-guest\n" },
		{ "deeper", "[main]\ninclude=deep\n" },
		{ "balanced", "[cpu]\n" },
		{ "a", "[main]\ninclude=throughput-performance, balanced\n" },
		{ "b", "[main]\ninclude=virtual-guest,throughput-performance\n" },
		{ NULL, NULL },
	};
	char file[COEXIST_PATH_BYTES + 16];

	(void)state;
	/* The profile's own value wins over its include's. */
	assert_int_equal(effective(table, "virtual-guest\n", file, sizeof(file)), 30);
	assert_string_equal(file, "/usr/lib/tuned/virtual-guest/tuned.conf:4");
	/* One level of include without a value of its own. */
	assert_int_equal(effective(table, "throughput-performance", file, sizeof(file)), 10);
	/* Two levels. */
	assert_int_equal(effective(table, "my-guest", file, sizeof(file)), 30);
	assert_string_equal(file, "/usr/lib/tuned/virtual-guest/tuned.conf:4");
	/* Two levels of includes are followed, the third is not. */
	assert_int_equal(effective(table, "deep", file, sizeof(file)), 30);
	assert_int_equal(effective(table, "deeper", file, sizeof(file)), -1);
	assert_int_equal(effective(table, "balanced", file, sizeof(file)), -1);
	/* A missing profile is nothing; the next active one still counts. */
	assert_int_equal(effective(table, "missing balanced", file, sizeof(file)), -1);
	assert_int_equal(effective(table, "missing virtual-guest", file, sizeof(file)), 30);
	/* Later includes and later active profiles win. */
	assert_int_equal(effective(table, "a", file, sizeof(file)), 10);
	assert_int_equal(effective(table, "b", file, sizeof(file)), 10);
	assert_string_equal(file, "/usr/lib/tuned/throughput-performance/tuned.conf:3");
	assert_int_equal(effective(table, "virtual-guest throughput-performance", file, sizeof(file)), 10);
	assert_int_equal(effective(table, "throughput-performance virtual-guest", file, sizeof(file)), 30);
	assert_int_equal(effective(table, "", file, sizeof(file)), -1);
	assert_int_equal(effective(table, "../etc", file, sizeof(file)), -1);
	assert_int_equal(fake_loads, 0);
}

static void
test_tuned_include_loops(void **state)
{
	static const struct fake_profile table[] = {
		{ "self", "[main]\ninclude=self\n[sysctl]\nvm.swappiness=1\n" },
		{ "x", "[main]\ninclude=y\n[sysctl]\nvm.swappiness=2\n" },
		{ "y", "[main]\ninclude=x\n" },
		{ "fan", "[main]\ninclude=fan,fan,fan,fan,fan,fan,fan,fan\n" },
		{ "p", "[main]\ninclude=q,q,q,q,q,q,q,q\n" },
		{ "q", "[main]\ninclude=p,q,p,q,p,q,p,q\n[sysctl]\nvm.swappiness=3\n" },
		{ NULL, NULL },
	};
	char file[COEXIST_PATH_BYTES + 16];

	(void)state;
	assert_int_equal(effective(table, "self", file, sizeof(file)), 1);
	assert_int_equal(fake_loads, 1);
	assert_int_equal(effective(table, "x", file, sizeof(file)), 2);
	assert_int_equal(effective(table, "y", file, sizeof(file)), 2);
	assert_int_equal(effective(table, "fan", file, sizeof(file)), -1);
	/* Bounded by depth and fan-out: 1 + 8 + 8 * 8 at most. */
	assert_int_equal(effective(table, "p", file, sizeof(file)), 3);
	assert_true(fake_loads <= 1 + 8 + 64);
}

static int
cmdline_value(const char *text)
{
	int v = -1;

	return coexist_parse_cmdline(text, strlen(text), &v) ? v : -1;
}

static void
test_cmdline(void **state)
{
	(void)state;
	assert_int_equal(cmdline_value("BOOT_IMAGE=/vmlinuz root=/dev/vda ro sysctl.vm.swappiness=10 quiet\n"), 10);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=10"), 10);
	assert_int_equal(cmdline_value("sysctl/vm/swappiness=11"), 11);
	assert_int_equal(cmdline_value("sysctl.vm/swappiness=12"), 12);
	assert_int_equal(cmdline_value("sysctl/vm.swappiness=13"), 13);
	/* The last one wins: each is written in turn. */
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=10 sysctl.vm.swappiness=20"), 20);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=10 sysctl.vm.swappiness=999"), 10);
	/* Quotes as the kernel strips them. */
	assert_int_equal(cmdline_value("\"sysctl.vm.swappiness=14\""), 14);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=\"15\""), 15);
	assert_int_equal(cmdline_value("dyndbg=\"file a.c +p\" sysctl.vm.swappiness=16"), 16);
	assert_int_equal(cmdline_value("x=\"sysctl.vm.swappiness=16\""), -1);
	/* After "--" the words are init's. */
	assert_int_equal(cmdline_value("quiet -- sysctl.vm.swappiness=17"), -1);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=18 -- sysctl.vm.swappiness=17"), 18);
	assert_int_equal(cmdline_value("a=-- sysctl.vm.swappiness=19"), 19);
	/* Not it. */
	assert_int_equal(cmdline_value("vm.swappiness=10"), -1);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness"), -1);
	assert_int_equal(cmdline_value("sysctlvm.swappiness=10"), -1);
	assert_int_equal(cmdline_value("sysctl..vm.swappiness=10"), -1);
	assert_int_equal(cmdline_value("xsysctl.vm.swappiness=10"), -1);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness= 10"), -1);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=1e3"), -1);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=99999999999999999999999"), -1);
	assert_int_equal(cmdline_value("sysctl.vm.swappiness=010"), 8);
	assert_int_equal(cmdline_value(""), -1);
	assert_int_equal(cmdline_value("\""), -1);
	assert_int_equal(cmdline_value("= \"=\" \"\" ="), -1);
	/* The host's own line, init arguments and all. */
	assert_int_equal(cmdline_value("console=ttyS0 psi=1 rdinit=/process_api -- --firecracker-init --addr 0.0.0.0:2024"),
			 -1);
}

static void
test_findings(void **state)
{
	struct coexist_findings f = { 0 };
	const struct coexist_finding *m;

	(void)state;
	coexist_add(&f, COEXIST_CMDLINE, "/proc/cmdline", 1, 10);
	coexist_add(&f, COEXIST_SYSCTL_D, "/etc/sysctl.d/99-swap.conf", 3, 10);
	coexist_add(&f, COEXIST_TUNED, "/usr/lib/tuned/virtual-guest/tuned.conf", 4, 30);
	/* The kernel command line applies only at boot: not a run-time change. */
	m = coexist_match(&f, 10);
	assert_non_null(m);
	assert_string_equal(m->file, "/etc/sysctl.d/99-swap.conf");
	assert_int_equal(m->line, 3);
	m = coexist_match(&f, 30);
	assert_non_null(m);
	assert_int_equal(m->source, COEXIST_TUNED);
	assert_null(coexist_match(&f, 11));
	for (int i = 0; i < 20; i++)
		coexist_add(&f, COEXIST_SYSCTL_D, "/etc/sysctl.d/x.conf", (unsigned)i, i);
	assert_int_equal(f.n, COEXIST_MAX_FINDINGS);
	assert_int_equal(f.dropped, 3 + 20 - COEXIST_MAX_FINDINGS);
	assert_string_equal(coexist_source_name(COEXIST_SYSCTL_D), "sysctl.d");
	assert_string_equal(coexist_source_name(COEXIST_TUNED), "tuned");
	assert_string_equal(coexist_source_name(COEXIST_CMDLINE), "cmdline");
}

/* Huge inputs: a long line, a long file of hits, a huge number. */
static void
test_huge(void **state)
{
	size_t len = 1 << 20;
	char *text = malloc(len + 1);
	struct coexist_hit hits[2];
	int v;

	(void)state;
	assert_non_null(text);
	memset(text, '1', len);
	memcpy(text, "vm.swappiness = ", 16);
	text[len] = '\0';
	assert_int_equal(coexist_parse_sysctl(text, len, hits, 2), 0);
	for (size_t i = 0; i + 18 <= len; i += 18)
		memcpy(text + i, "vm.swappiness = 7\n", 18);
	assert_int_equal(coexist_parse_sysctl(text, len / 18 * 18, hits, 2), len / 18);
	assert_int_equal(hits[1].line, 2);
	memcpy(text, "sysctl.vm.swappiness=", 21);
	memset(text + 21, '9', len - 21);
	assert_false(coexist_parse_cmdline(text, len, &v));
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysctl_lines),	   cmocka_unit_test(test_sysctl_line_numbers),
		cmocka_unit_test(test_sysctl_nul_bytes),   cmocka_unit_test(test_parse_value),
		cmocka_unit_test(test_sysctl_names),	   cmocka_unit_test(test_sysctl_precedence),
		cmocka_unit_test(test_sysctl_order_is_byte_order), cmocka_unit_test(test_tuned_parse),
		cmocka_unit_test(test_tuned_parse_edges),  cmocka_unit_test(test_profile_names),
		cmocka_unit_test(test_tuned_includes),	   cmocka_unit_test(test_tuned_include_loops),
		cmocka_unit_test(test_cmdline),		   cmocka_unit_test(test_findings),
		cmocka_unit_test(test_huge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
