/* Unit tests for the status snapshot: state file round trip, parse errors,
 * history, and the human, JSON and Prometheus renderings. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "status.h"

static struct status_snapshot
sample_snapshot(void)
{
	struct status_snapshot s;

	memset(&s, 0, sizeof(s));
	s.pid = 4242;
	s.started_s = 1700000000;
	snprintf(s.policy, sizeof(s.policy), "adaptive");
	snprintf(s.lru, sizeof(s.lru), "mglru");
	snprintf(s.kernel, sizeof(s.kernel), "6.12.57+deb13-amd64");
	s.swappiness = 23;
	s.original = 60;
	s.restores = true;
	s.has_swap = true;
	s.last_poll_s = 1700000200;
	s.poll_interval_ms = 1500;
	s.target = 25;
	s.min = 0;
	s.max = 133;
	s.app_centile = 41;
	s.swap_centile = 23;
	s.mapped_ratio = 10;
	s.distress = 5;
	s.swap_tendency = 33;
	s.refault_file_pps = 840;
	s.refault_anon_pps = 3;
	s.swapin_pps = 12;
	s.writes = 7;
	s.yields = 1;
	s.reloads = 2;
	s.reload_failures = 1;
	s.errors = 3;
	s.journal_dropped = 4;
	status_add_decision(&s, 1700000100, 60, 40, "up 10: file refaults 840/s, swap-ins 12/s");
	status_add_decision(&s, 1700000160, 40, 23, "down 10: swap-ins 900/s, file refaults 0/s");
	return s;
}

static void
test_round_trip(void **state)
{
	struct status_snapshot s = sample_snapshot(), p;
	char buf[4096];
	int n;

	(void)state;
	n = status_render_state(&s, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(status_parse_state(buf, (size_t)n, &p), 0);
	assert_int_equal(p.pid, 4242);
	assert_string_equal(p.policy, "adaptive");
	assert_string_equal(p.lru, "mglru");
	assert_string_equal(p.kernel, "6.12.57+deb13-amd64");
	assert_int_equal(p.swappiness, 23);
	assert_int_equal(p.original, 60);
	assert_true(p.restores);
	assert_true(p.has_swap);
	assert_int_equal(p.max, 133);
	assert_int_equal(p.refault_file_pps, 840);
	assert_int_equal(p.writes, 7);
	assert_int_equal(p.reload_failures, 1);
	assert_int_equal(p.journal_dropped, 4);
	assert_int_equal(p.last_decision_s, 1700000160);
	assert_int_equal(p.n_history, 2);
	assert_false(p.policy_auto);
	assert_null(strstr(buf, "policy_auto")); /* a policy named in the file: no key, as before */
	s.policy_auto = true;		      /* name = auto chose it */
	n = status_render_state(&s, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\npolicy_auto=1\n"));
	assert_int_equal(status_parse_state(buf, (size_t)n, &p), 0);
	assert_true(p.policy_auto);
	assert_int_equal(p.history[0].from, 60);
	assert_int_equal(p.history[1].to, 23);
	assert_string_equal(p.history[1].reason, "down 10: swap-ins 900/s, file refaults 0/s");
	/* Too small a buffer is an error, not a truncated file. */
	assert_int_equal(status_render_state(&s, buf, 64), -ENOBUFS);
	/* The classic LRU, and a state without the LRU (an older daemon's): it stays unknown. */
	snprintf(s.lru, sizeof(s.lru), "classic");
	n = status_render_state(&s, buf, sizeof(buf));
	assert_true(n > 0);
	assert_non_null(strstr(buf, "\nlru=classic\nkernel=6.12.57+deb13-amd64\n"));
	assert_int_equal(status_parse_state(buf, (size_t)n, &p), 0);
	assert_string_equal(p.lru, "classic");
	s.lru[0] = s.kernel[0] = '\0';
	n = status_render_state(&s, buf, sizeof(buf));
	assert_true(n > 0);
	assert_null(strstr(buf, "lru="));
	assert_null(strstr(buf, "kernel="));
	assert_int_equal(status_parse_state(buf, (size_t)n, &p), 0);
	assert_string_equal(p.lru, "");
	assert_string_equal(p.kernel, "");
}

static void
test_history_ring(void **state)
{
	struct status_snapshot s;
	char reason[32];

	(void)state;
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < STATUS_HISTORY + 3; i++) {
		snprintf(reason, sizeof(reason), "n%d\nwith newline", i);
		status_add_decision(&s, 1000 + i, i, i + 1, reason);
	}
	assert_int_equal(s.n_history, STATUS_HISTORY);
	assert_int_equal(s.history[0].from, 3); /* the three oldest dropped */
	assert_int_equal(s.history[STATUS_HISTORY - 1].from, STATUS_HISTORY + 2);
	assert_string_equal(s.history[0].reason, "n3 with newline");
	assert_int_equal(s.last_decision_s, 1000 + STATUS_HISTORY + 2);
}

static void
test_parse_errors(void **state)
{
	static const struct {
		const char *in;
		int ret;
	} cases[] = {
		{ "version=1\npid=5\nswappiness=10\n", 0 },
		{ "version=1\npid=5\nswappiness=10\nfuture_key=whatever\n", 0 }, /* newer daemon */
		{ "pid=5\nswappiness=10\n", -EINVAL },				   /* no version */
		{ "version=2\npid=5\nswappiness=10\n", -EINVAL },
		{ "version=1\nswappiness=10\n", -EINVAL },
		{ "version=1\npid=5\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=201\n", -EINVAL },
		{ "version=1\npid=0\nswappiness=10\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nwrites=-1\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nwrites=12x\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nno equals sign\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\ndecision=1 2\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\ndecision=1 2 300 x\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\ndecision=1 2 3 \n", 0 }, /* empty reason is fine */
		{ "version=1\npid=5\nswappiness=10\npolicy=\n", 0 }, /* what an empty policy renders as */
		{ "version=1\npid=5\nswappiness=10\npolicy_auto=2\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\npolicy=averyveryverylongname\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nlru=mglru\nkernel=6.1.0-27-amd64\n", 0 },
		{ "version=1\npid=5\nswappiness=10\nlru=classic\n", 0 },
		{ "version=1\npid=5\nswappiness=10\nlru=\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nlru=MGLRU\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nlru=mglru2\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nkernel=\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nkernel=6.1 0\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nkernel=6.1\"0\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nkernel=6.1\\0\n", -EINVAL },
		{ "version=1\npid=5\nswappiness=10\nkernel="
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 0 }, /* 64: uname's most */
		{ "version=1\npid=5\nswappiness=10\nkernel="
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", -EINVAL },
		{ "", -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct status_snapshot s;
		int r = status_parse_state(cases[i].in, strlen(cases[i].in), &s);

		if (r != cases[i].ret)
			fail_msg("case %zu: %d, want %d: '%s'", i, r, cases[i].ret, cases[i].in);
	}
}

static void
test_human(void **state)
{
	struct status_snapshot s = sample_snapshot();
	char buf[4096];

	(void)state;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "autoswappiness (pid 4242) running since 3 min ago\n"));
	assert_non_null(strstr(buf, "  policy:      adaptive\n"));
	s.policy_auto = true;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  policy:      adaptive (name = auto: the policy for this LRU)\n"));
	s.policy_auto = false;
	assert_non_null(strstr(buf, "  inputs:      app 41%, swap free 23%, mapped 10%"));
	assert_non_null(strstr(buf, "  swappiness:  23 (target 25, limits 0..133)\n"));
	assert_non_null(strstr(buf, "  on exit:     restores 60\n"));
	assert_non_null(strstr(buf, "  lru:         mglru (Linux 6.12.57+deb13-amd64)\n"));
	assert_non_null(strstr(buf, "  counts:      writes 7, yields 1, reloads 2 (1 failed), errors 3, log records journald "
				    "or stderr did not take 4\n"));
	assert_non_null(strstr(buf, "    60 s ago: 40 -> 23, down 10: swap-ins 900/s, file refaults 0/s\n"));
	assert_non_null(strstr(buf, "    2 min ago: 60 -> 40, up 10"));
	s.yielded = true;
	s.n_history = 0;
	s.kernel[0] = '\0';
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  lru:         mglru (Linux release unknown)\n"));
	s.lru[0] = '\0'; /* an older daemon's state: no line */
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_null(strstr(buf, "lru:"));
	assert_non_null(strstr(buf, "yielded"));
	assert_non_null(strstr(buf, "decisions:   none yet"));
}

static void
test_json_escaping(void **state)
{
	struct status_snapshot s = sample_snapshot();
	char buf[4096];

	(void)state;
	s.n_history = 0;
	status_add_decision(&s, 5, 1, 2, "quote \" backslash \\ tab \t end");
	assert_true(status_render_json(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "{\"running\":true,\"pid\":4242,"));
	assert_non_null(strstr(buf, "\"reason\":\"quote \\\" backslash \\\\ tab \\u0009 end\""));
	assert_non_null(strstr(buf, "\"dry_run\":false"));
	assert_non_null(strstr(buf, ",\"policy\":\"adaptive\",\"policy_auto\":false,\"lru\":\"mglru\",\"kernel\":\"6.12.57+deb13-amd64\","));
	assert_int_equal(buf[strlen(buf) - 2], '}');
	s.policy_auto = true;
	assert_true(status_render_json(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, ",\"policy\":\"adaptive\",\"policy_auto\":true,"));
	s.lru[0] = s.kernel[0] = '\0';
	assert_true(status_render_json(&s, buf, sizeof(buf)) > 0);
	assert_null(strstr(buf, "\"lru\""));
	assert_null(strstr(buf, "\"kernel\""));
}

/* A state file anyone could have written: escape sequences, C1 controls, a
 * direction override and bytes that are not UTF-8 in the free text. */
static struct status_snapshot
forged_snapshot(void)
{
	static const char state[] = "version=1\npid=7\nswappiness=23\n"
				    "policy=ck\033]0;pwn\a\n"
				    "decision=1700000000 60 23 \033[2J\033[31mred\x9b\xff\xc3\x28 \xc2\x9b \xe2\x80\xae "
				    "\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 caf\xc3\xa9 \xf0\x9f\x90\xa7 end\n";
	struct status_snapshot s;

	assert_int_equal(status_parse_state(state, sizeof(state) - 1, &s), 0);
	return s;
}

/* Whether buf holds nothing a terminal acts on: printable ASCII and newlines. */
static bool
printable_ascii(const char *buf)
{
	for (const unsigned char *c = (const unsigned char *)buf; *c; c++)
		if (*c != '\n' && (*c < 0x20 || *c > 0x7e))
			return false;
	return true;
}

static void
test_human_forged_text(void **state)
{
	struct status_snapshot s = forged_snapshot();
	char buf[4096];

	(void)state;
	assert_true(status_render_human(&s, 1700000100, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  policy:      ck\\u001b]0;pwn\\u0007\n"));
	/* Valid UTF-8 that is no control stays as it is; each byte that starts no
	 * UTF-8 character (a lone continuation, 0xff, a lead without its
	 * continuation, a surrogate, an overlong form, past U+10FFFF) is \xNN. */
	assert_non_null(strstr(buf, ": 60 -> 23, \\u001b[2J\\u001b[31mred\\x9b\\xff\\xc3( \\u009b \\u202e "
				    "\\xed\\xa0\\x80 \\xc0\\xaf \\xf4\\x90\\x80\\x80 caf\xc3\xa9 \xf0\x9f\x90\xa7 end\n"));
	/* Once the two characters the test put there are out, all is printable. */
	memset(strstr(buf, "\xc3\xa9"), '_', 2);
	memset(strstr(buf, "\xf0\x9f\x90\xa7"), '_', 4);
	assert_true(printable_ascii(buf));
}

/* Whether buf is valid UTF-8 (RFC 3629), checked here independently of
 * status.c's own decoder: no overlong forms, surrogates or past U+10FFFF. */
static bool
valid_utf8(const unsigned char *c)
{
	while (*c) {
		unsigned n = *c < 0x80 ? 1 : (*c & 0xe0) == 0xc0 ? 2 : (*c & 0xf0) == 0xe0 ? 3 : (*c & 0xf8) == 0xf0 ? 4 : 0;
		uint32_t cp = n == 1 ? *c : n == 2 ? *c & 0x1fu : n == 3 ? *c & 0x0fu : *c & 0x07u;

		if (n == 0)
			return false;
		for (unsigned i = 1; i < n; i++) {
			if ((c[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (c[i] & 0x3fu);
		}
		if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		c += n;
	}
	return true;
}

static void
test_json_forged_text(void **state)
{
	struct status_snapshot s = forged_snapshot();
	char buf[4096];

	(void)state;
	assert_true(status_render_json(&s, buf, sizeof(buf)) > 0);
	assert_true(valid_utf8((const unsigned char *)buf));
	assert_non_null(strstr(buf, "\"policy\":\"ck\\u001b]0;pwn\\u0007\""));
	assert_non_null(strstr(buf, "\"reason\":\"\\u001b[2J\\u001b[31mred\\ufffd\\ufffd\\ufffd( \\u009b \\u202e "
				    "\\ufffd\\ufffd\\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\\ufffd caf\xc3\xa9 "
				    "\xf0\x9f\x90\xa7 end\"}"));
	/* Every byte of the reason, one at a time, as the only text: still UTF-8. */
	for (unsigned b = 1; b < 256; b++) {
		char one[2] = { (char)b, '\0' };

		status_add_decision(&s, 5, 1, 2, one);
		assert_true(status_render_json(&s, buf, sizeof(buf)) > 0);
		assert_true(valid_utf8((const unsigned char *)buf));
	}
}

static void
test_metrics(void **state)
{
	static const char *const names[] = {
		"swappiness", "writes_total", "yields_total", "reloads_total", "reload_failures_total", "errors_total",
		"journal_dropped_total",
		"last_decision_timestamp_seconds", "app_memory_ratio", "swap_free_ratio", "original_swappiness",
		"last_poll_timestamp_seconds", "poll_interval_seconds", "build_info", "lru_info",
	};
	struct status_snapshot s = sample_snapshot();
	char buf[8192], want[128];

	(void)state;
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(want, sizeof(want), "# HELP autoswappiness_%s ", names[i]);
		assert_non_null(strstr(buf, want));
		snprintf(want, sizeof(want), "# TYPE autoswappiness_%s ", names[i]);
		assert_non_null(strstr(buf, want));
	}
	assert_non_null(strstr(buf, "\nautoswappiness_swappiness 23\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_app_memory_ratio 0.41\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_swap_free_ratio 0.23\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_original_swappiness 60\n"));
	assert_non_null(strstr(buf, "# TYPE autoswappiness_writes_total counter\nautoswappiness_writes_total 7\n"));
	assert_non_null(strstr(buf, "autoswappiness_policy_info{policy=\"adaptive\",configured=\"adaptive\"} 1\n"));
	/* name = auto: the policy that runs, and that auto picked it. */
	s.policy_auto = true;
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "autoswappiness_policy_info{policy=\"adaptive\",configured=\"auto\"} 1\n"));
	s.policy_auto = false;
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "# TYPE autoswappiness_lru_info gauge\n"
				    "autoswappiness_lru_info{lru=\"mglru\",kernel=\"6.12.57+deb13-amd64\"} 1\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_last_poll_timestamp_seconds 1700000200\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_poll_interval_seconds 1.500\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_build_info{version=\"" VERSION "\"} 1\n"));
	/* The rates became counters: no gauge per second is left. */
	assert_null(strstr(buf, "per_second"));
	s.app_centile = 100;
	s.poll_interval_ms = 60000;
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\nautoswappiness_app_memory_ratio 1.00\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_poll_interval_seconds 60.000\n"));
	s.app_centile = 5;
	s.poll_interval_ms = 50;
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\nautoswappiness_app_memory_ratio 0.05\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_poll_interval_seconds 0.050\n"));
}

/* What has no meaning is left out rather than shown as 0: the free share of
 * swap without swap (0 would read "swap full"), the original value when the
 * exit restores nothing, counters the kernel does not offer. */
static void
test_metrics_omitted(void **state)
{
	struct status_snapshot s = sample_snapshot();
	char buf[8192];

	(void)state;
	s.has_swap = false;
	s.restores = false;
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_null(strstr(buf, "swap_free_ratio"));
	assert_null(strstr(buf, "original_swappiness"));
	assert_null(strstr(buf, "_pages_total"));
	assert_non_null(strstr(buf, "\nautoswappiness_swappiness 23\n"));
	s.lru[0] = '\0'; /* not known: no LRU to name */
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_null(strstr(buf, "lru_info"));
}

static void
test_count_pages(void **state)
{
	struct status_snapshot s;
	struct status_pages now = { .has_vmstat = true, .swapin = 1000, .scan = 5000 };
	char buf[8192];

	(void)state;
	memset(&s, 0, sizeof(s));
	/* The first reading is the base: pages since the start are 0. */
	status_count_pages(&s, &now);
	assert_true(s.pages.has_vmstat);
	assert_false(s.pages.has_refaults);
	assert_int_equal(s.pages.swapin, 0);
	now.swapin = 1012;
	now.scan = 5100;
	status_count_pages(&s, &now);
	assert_int_equal(s.pages.swapin, 12);
	assert_int_equal(s.pages.scan, 100);
	/* Refaults appear later (their base is their first reading). */
	now.has_refaults = true;
	now.refault_file = 800;
	now.refault_anon = 7;
	status_count_pages(&s, &now);
	assert_true(s.pages.has_refaults);
	assert_int_equal(s.pages.refault_file, 0);
	/* A poll that could not read vmstat: its growth is counted at the next. */
	now.has_vmstat = false;
	now.has_refaults = false;
	now.swapin = 1500;
	status_count_pages(&s, &now);
	assert_int_equal(s.pages.swapin, 12);
	now.has_vmstat = true;
	now.has_refaults = true;
	now.refault_file = 840;
	now.refault_anon = 10;
	status_count_pages(&s, &now);
	assert_int_equal(s.pages.swapin, 500);
	assert_int_equal(s.pages.refault_file, 40);
	assert_int_equal(s.pages.refault_anon, 3);
	/* A counter that goes backwards adds nothing and becomes the new base. */
	now.swapin = 10;
	status_count_pages(&s, &now);
	assert_int_equal(s.pages.swapin, 500);
	now.swapin = 15;
	status_count_pages(&s, &now);
	assert_int_equal(s.pages.swapin, 505);
	/* 64-bit counters near the top. */
	now.scan = UINT64_MAX - 1;
	status_count_pages(&s, &now);
	now.scan = UINT64_MAX;
	status_count_pages(&s, &now);
	assert_true(status_render_metrics(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "# TYPE autoswappiness_swapin_pages_total counter\nautoswappiness_swapin_pages_total 505\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_refault_file_pages_total 40\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_refault_anon_pages_total 3\n"));
	assert_non_null(strstr(buf, "# TYPE autoswappiness_scan_pages_total counter\n"));
	assert_non_null(strstr(buf, "\nautoswappiness_scan_pages_total 18446744073709546615\n"));
}

/* `status` says what the exit will do: restore only what the daemon owns and
 * nobody else has set since. */
static void
test_human_on_exit(void **state)
{
	struct status_snapshot s = sample_snapshot();
	char buf[4096];

	(void)state;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  on exit:     restores 60\n"));
	/* A dry run that never owned the knob. */
	s.restores = false;
	s.dry_run = true;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_null(strstr(buf, "restores"));
	assert_non_null(strstr(buf, "  on exit:     writes nothing (dry run)\n"));
	/* A dry run reloaded from a real run still puts back what it wrote. */
	s.restores = true;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  on exit:     restores 60\n"));
	/* Yielded, in a dry run or not. */
	s.restores = false;
	s.yielded = true;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_null(strstr(buf, "restores"));
	assert_non_null(strstr(buf, "  on exit:     leaves the value someone else set\n"));
	s.dry_run = false;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  on exit:     leaves the value someone else set\n"));
	/* A real run that has not recorded an original yet. */
	s.yielded = false;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  on exit:     writes nothing (no original value recorded yet)\n"));
	/* No swap: no share of it free. */
	s.has_swap = false;
	assert_true(status_render_human(&s, 1700000220, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "  inputs:      app 41%, no swap, mapped 10%"));
	assert_null(strstr(buf, "swap free"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip), cmocka_unit_test(test_history_ring),
		cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_human),
		cmocka_unit_test(test_json_escaping), cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_metrics_omitted), cmocka_unit_test(test_count_pages),
		cmocka_unit_test(test_human_on_exit), cmocka_unit_test(test_human_forged_text),
		cmocka_unit_test(test_json_forged_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
