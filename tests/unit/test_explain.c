/* Unit tests for explain_render(): the sentences of --explain for each case,
 * from decisions that decide() makes on made-up samples. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"

/* Two looks a second apart. */
#define LOOKS_US 1000000u

static char text[EXPLAIN_TEXT_BYTES];
/* The kernel and LRU render_from says (NULL: none, as in most tests). */
static const struct lru_info *lru_given;

/* The integration tests' fixture: app 40%, mapped 10%, 23% of 1000000 kB swap
 * free on one disk device, idle PSI: tendency 28, ck 23. */
static struct sample
fixture(uint64_t time_us)
{
	return (struct sample){
		.time_us = time_us,
		.mem_total_kib = 1000000,
		.mem_free_kib = 300000,
		.buffers_kib = 50000,
		.cached_kib = 250000,
		.mapped_kib = 100000,
		.swap_total_kib = 1000000,
		.swap_free_kib = 230000,
		.has_vmstat = true,
		.has_psi = true,
		.has_swaps = true,
		.swaps = { .devices = 1 },
	};
}

static struct config
conf(enum policy_kind kind)
{
	struct config c;

	config_defaults(&c);
	c.policy = kind;
	return c;
}

/* Decides as the daemon would from prev and cur (prev NULL: one look) and
 * renders; returns the text (or fails the test). */
static const char *
render_from(const struct config *c, enum explain_config_source src, const struct sample *prev,
	    const struct sample *cur, int current, int kernel_max)
{
	static struct decision dn;
	struct regulator reg = { 0 };
	struct policy_state fresh = { 0 }; /* as explain_run.c: the daemon's first poll */
	struct explain_input in = {
		.cfg = c,
		.config_path = "/etc/autoswappiness.conf",
		.config_source = src,
		.config_errno = src == EXPLAIN_CONFIG_REFUSED ? EPERM : 0,
		.cur = cur,
		.interval_us = prev ? cur->time_us - prev->time_us : 0,
		.dn = &dn,
		.current = current,
		.lru = lru_given,
	};
	int len;

	assert_int_equal(decide(c, decide_max(c, cur), kernel_max, &fresh, &reg, prev, cur, current, &dn), 0);
	len = explain_render(&in, text, sizeof(text));
	assert_true(len > 0);
	assert_int_equal((size_t)len, strlen(text));
	return text;
}

/* Two looks a second apart: calm, but the kernel reclaimed (1000 pages scanned, all
 * freed), so tendency follows its formula. */
static const char *
render(const struct config *c, const struct sample *cur_in, int current)
{
	static struct sample prev, cur;

	cur = *cur_in;
	prev = cur;
	prev.time_us = cur.time_us - LOOKS_US;
	cur.pgscan_pages = prev.pgscan_pages + 1000;
	cur.pgsteal_pages = prev.pgsteal_pages + 1000;
	return render_from(c, EXPLAIN_CONFIG_FILE, &prev, &cur, current, 200);
}

static void
assert_first_line(const char *t, const char *want)
{
	size_t n = strcspn(t, "\n");

	if (n != strlen(want) || strncmp(t, want, n) != 0)
		fail_msg("first line: want '%s', got '%.*s'", want, (int)n, t);
}

static void
assert_has(const char *t, const char *want)
{
	if (!strstr(t, want))
		fail_msg("no '%s' in:\n%s", want, t);
}

static void
assert_lacks(const char *t, const char *unwanted)
{
	if (strstr(t, unwanted))
		fail_msg("'%s' in:\n%s", unwanted, t);
}

static void
test_no_swap(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	s.swap_total_kib = s.swap_free_kib = 0;
	s.swaps.devices = 0;
	t = render(&c, &s, 60);
	assert_first_line(t, "No swap: swappiness has no effect here; nothing to do.");
	assert_has(t, "\nWithout swap the kernel reclaims only file pages");
	assert_has(t, "(it is 60 now)");
	/* What the daemon does without swap: tendency is mapped/2 = 5, and it writes it. */
	assert_has(t, "The daemon has no special case for this: it would keep polling and write 5 now, as the "
		      "tendency policy asks (mapped 10%/2 + distress 0 + ck 0), which changes nothing");
	assert_has(t, "there is no swap");
	assert_lacks(t, "Swap:");
	assert_lacks(t, "Limits:");

	/* Already there: it leaves it. */
	t = render(&c, &s, 5);
	assert_has(t, "it would keep polling and leave 5 in place, as the tendency policy asks");
}

static void
test_disk_swap_writes(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	t = render(&c, &s, 60);
	assert_first_line(t, "It would set vm.swappiness to 28 (it is 60 now): the tendency policy asks for 28 "
			     "(mapped 10%/2 + distress 0 + ck 23).");
	assert_has(t, "\nSwap: 1 device on disk, 976 MiB, 23% free.\n");
	assert_has(t, "\nmax = auto makes the upper limit 100: on disk, the kernel weighs anonymous and file "
		      "pages as costing the same IO.\nThe tendency policy goes to 200 above it while only the "
		      "programs' own text is left in the page cache to reclaim and swapped-out pages do not come back "
		      "(sparing the cache: it takes a few polls, so the running daemon may hold 200 now).\n");
	/* Under the multi-gen LRU the regulator keeps 2..199: it names 199, what it would write. */
	s.mglru = true;
	assert_has(render(&c, &s, 60), "\nThe tendency policy goes to 199 above it while only the programs' own "
					"text is left in the page cache to reclaim");
	s.mglru = false;
	t = render(&c, &s, 60);
	/* The inputs, in words. */
	assert_has(t, "\nOf 976 MiB of RAM, application memory is 40% and mapped memory is 10%; 23% of swap is "
		      "free; distress is 0.\n");
	assert_has(t, "adds half the mapped share (5), the distress (0) and ck, the smaller of application memory "
		      "and free swap (23): 28.\n");
	assert_has(t, "\nLimits: 0 to 100; a change smaller than 20 is not written.\n");
	assert_has(t, "\nOver 1 s: 0 file refaults/s, 0 anonymous refaults/s, 0 swap-ins/s, 0 swap-outs/s.\n");
	assert_has(t, "\nNothing was written: --explain only reads. The daemon would decide every 5 s (every 1 s "
		      "under pressure).\n");
}

/* tendency without reclaim or a stall keeps the value it finds, and says why. */
static void
test_tendency_without_reclaim(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample prev, s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	prev = s;
	prev.time_us -= LOOKS_US;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_first_line(t, "It would leave vm.swappiness at 60, which is what it should be: the tendency policy "
			     "asks for 60 (stay at 60: no reclaim (formula 28)).");
	assert_has(t, "(23): 28.\nIt follows that formula only while the kernel reclaims or tasks stall on memory "
		      "(2.6 computed it in reclaim and nowhere else); between the two looks neither happened, so "
		      "it keeps the value in effect, 60.\n");
	/* 31 pages scanned are not reclaim (SWAP_CLUSTER_MAX). */
	s.pgscan_pages = prev.pgscan_pages + 31;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "stay at 60: no reclaim");
	/* One look (no rates): it cannot tell. */
	t = render_from(&c, EXPLAIN_CONFIG_FILE, NULL, &s, 60, 200);
	assert_has(t, "; one look cannot tell, so it keeps the value in effect, 60.\n");
	/* The formula already there: no sentence about it. */
	t = render(&c, &s, 60);
	assert_lacks(t, "It follows that formula only");
}

/* A daemon that held the top of the range: the sentence names the hold, not a lack of
 * reclaim (explain_render explains the decision it is given, whatever state made it). */
static void
test_tendency_holding_the_top(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample prev, s = fixture(5 * LOOKS_US);
	struct policy_state st = { 0 };
	struct regulator reg = { 0 };
	struct decision dn;
	struct explain_input in = {
		.cfg = &c,
		.config_path = "/etc/autoswappiness.conf",
		.config_source = EXPLAIN_CONFIG_FILE,
		.cur = &s,
		.interval_us = LOOKS_US,
		.dn = &dn,
		.current = 100,
	};

	(void)unused;
	prev = s;
	prev.time_us -= LOOKS_US;
	s.pgscan_pages = prev.pgscan_pages + 1000;
	s.pgsteal_pages = prev.pgsteal_pages + 1000;
	/* At 100, the top on disk, where the formula was a second ago; now it says 28. */
	policy_observe(&st, 100, 100);
	st.top_us = prev.time_us;
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, &st, &reg, &prev, &s, 100, &dn), 0);
	assert_int_equal(dn.pr.kept, POLICY_KEPT_TOP);
	assert_true(explain_render(&in, text, sizeof(text)) > 0);
	assert_has(text, "(23): 28.\nA fall from the top of the range waits 3 s after the formula last reached it, "
			 "since distress swings from poll to poll: it keeps 100.\n");
	assert_lacks(text, "It follows that formula only");
}

static void
test_zram_and_zswap(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	s.swaps = (struct swaps){ .devices = 2, .zram = 2 };
	t = render(&c, &s, 60);
	assert_has(t, "\nSwap: 2 devices, all on zram (compressed RAM, no disk behind), 976 MiB, 23% free.\n");
	assert_has(t, "max = auto makes the upper limit 200: all swap is on zram");
	assert_has(t, "Limits: 0 to 200;");
	/* Under the multi-gen LRU the regulator keeps off 0, 1 and 200, and says why. */
	s.mglru = true;
	t = render(&c, &s, 60);
	assert_has(t, "\nLimits: 0 to 200, kept within 2 to 199 under the multi-gen LRU, where 0 never swaps and 1 "
		      "and 200 evict one kind of page first without feedback; a change smaller than 20 is not written.\n");
	s.mglru = false;

	s.swaps = (struct swaps){ .devices = 1, .zram = 1 };
	t = render(&c, &s, 60);
	assert_has(t, "\nSwap: 1 device on zram (compressed RAM");

	s.swaps = (struct swaps){ .devices = 2, .zram = 1 };
	t = render(&c, &s, 60);
	assert_has(t, "\nSwap: 2 devices, 1 of them on zram,");
	assert_has(t, "upper limit 100: on disk");

	s.swaps = (struct swaps){ .devices = 1 };
	s.zswap_enabled = true;
	t = render(&c, &s, 60);
	assert_has(t, "23% free; zswap is on (a compressed cache in front of it).\n");
	assert_has(t, "max = auto makes the upper limit 133: with zswap, swap IO is about twice as fast");

	s.has_swaps = false;
	s.zswap_enabled = false;
	t = render(&c, &s, 60);
	assert_has(t, "\nSwap: devices unknown (/proc/swaps unreadable, counted as disk), 976 MiB");
}

static void
test_pinned_max_and_kernel(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	c.min = 150;
	c.max = 150;
	s.swaps = (struct swaps){ .devices = 1, .zram = 1 };
	t = render(&c, &s, 60);
	assert_first_line(t, "It would set vm.swappiness to 150 (it is 60 now): the tendency policy asks for 28, "
			     "which the limits 150..150 make 150 (mapped 10%/2 + distress 0 + ck 23).");
	assert_has(t, "\nmax is pinned at 150 in the configuration (max = auto would make it 200: all swap is on "
		      "zram,");
	assert_lacks(t, "This kernel");

	static struct sample prev;
	prev = s;
	prev.time_us -= LOOKS_US;
	s.pgscan_pages += 1000; /* reclaim between the looks: the formula decides */
	s.pgsteal_pages += 1000;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 100);
	assert_has(t, "\nThis kernel accepts at most 100 (Linux before 5.8).\n");
	/* The range the value was kept in is the kernel's, not the configuration's 150..150. */
	assert_first_line(t, "It would set vm.swappiness to 100 (it is 60 now): the tendency policy asks for 28, "
			     "which the limits 100..100 make 100 (mapped 10%/2 + distress 0 + ck 23).");
}

static void
test_pressure(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample prev = fixture(4 * LOOKS_US), cur = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	/* Calm: the same counters. */
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &cur, 60, 200);
	assert_has(t, "\nMemory is calm: no task stalled on memory in the 1 s between the two looks (PSI), and "
		      "reclaim is not struggling.\n");
	assert_lacks(t, "under pressure:");

	/* 300 ms of stall in a second, and reclaim freeing 400 of 1000 pages scanned. */
	cur.psi.some_total_us = prev.psi.some_total_us + 300000;
	cur.pgscan_pages = prev.pgscan_pages + 1000;
	cur.pgsteal_pages = prev.pgsteal_pages + 400;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &cur, 60, 200);
	assert_has(t, "\nMemory is under pressure: tasks stalled on memory 30% of the 1 s between the two looks "
		      "(PSI), and reclaim freed only 40% of the pages it scanned; distress is 60.\n");
	assert_first_line(t, "It would set vm.swappiness to 88 (it is 60 now): the tendency policy asks for 88 "
			     "(mapped 10%/2 + distress 60 + ck 23).");

	/* The scheduler's lateness does not change the sentences; shorter looks in tenths. */
	cur = fixture(5 * LOOKS_US);
	prev.time_us = cur.time_us - 1040000;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &cur, 60, 200);
	assert_has(t, "in the 1 s between the two looks");
	assert_has(t, "\nOver 1 s: ");
	prev.time_us = cur.time_us - 520000;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &cur, 60, 200);
	assert_has(t, "\nOver 500 ms: ");
	prev.time_us = cur.time_us - 2500000;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &cur, 60, 200);
	assert_has(t, "\nOver 3 s: ");
	prev = fixture(4 * LOOKS_US);

	/* One look: PSI's avg10. */
	cur = fixture(5 * LOOKS_US);
	cur.psi.some_avg10_centipct = 1200;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, NULL, &cur, 60, 200);
	assert_has(t, "\nMemory is under pressure: tasks stalled on memory 12% of the last 10 s (PSI avg10); "
		      "distress is 12.\n");
	assert_lacks(t, "Over ");

	cur.psi.some_avg10_centipct = 0;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, NULL, &cur, 60, 200);
	assert_has(t, "no task stalled on memory in the last 10 s (PSI avg10), and reclaim needs two looks");

	/* No PSI. */
	cur.has_psi = false;
	prev.has_psi = false;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &cur, 60, 200);
	assert_has(t, "\nMemory is calm: PSI is not available here (distress comes from reclaim efficiency only)");
}

static void
test_verdicts(void **unused)
{
	struct config c = conf(POLICY_CK);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	t = render(&c, &s, 23);
	assert_first_line(t, "It would leave vm.swappiness at 23, which is what it should be: the ck policy asks "
			     "for 23 (min(app 40%, swap free 23%)).");
	t = render(&c, &s, 25);
	assert_first_line(t, "It would leave vm.swappiness at 25: the ck policy asks for 23 (min(app 40%, swap free "
			     "23%)), less than the step of 20 away.");
	assert_has(t, "The ck policy (Con Kolivas, 2003) takes the smaller of application memory and free swap (0 "
		      "without swap): 23.\n");
	/* Sparing the cache is the tendency policy's alone, and needs max = auto. */
	assert_lacks(t, "sparing the cache");
	c = conf(POLICY_TENDENCY);
	c.max = 100;
	t = render(&c, &s, 25);
	assert_lacks(t, "sparing the cache");
}

static void
test_adaptive(void **unused)
{
	struct config c = conf(POLICY_ADAPTIVE);
	struct sample prev, s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	s.swap_free_kib = 1000000;
	prev = s; /* nothing reclaimed between the looks */
	prev.time_us -= LOOKS_US;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_first_line(t, "It would set vm.swappiness to 100 (it is 60 now): the adaptive policy asks for 100 "
			     "(rest at 100: nothing reclaimed).");
	assert_has(t, "\nThe adaptive policy learns from poll to poll; one decision without history says: rest at 100: "
		      "nothing reclaimed. The running daemon may hold another value.\n");
	assert_lacks(t, "sparing the cache");
}

/* workingset says the formula it starts from, as tendency does, then how it steers it (or that
 * this kernel cannot: no activation counters). */
static void
test_workingset(void **unused)
{
	struct config c = conf(POLICY_WORKINGSET);
	struct sample prev, s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	s.has_activations = true;
	prev = s;
	prev.time_us -= LOOKS_US;
	s.activate_anon_pages = prev.activate_anon_pages + 7;
	s.activate_file_pages = prev.activate_file_pages + 300;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_first_line(t, "It would leave vm.swappiness at 60, which is what it should be: the workingset policy "
			     "asks for 60 (stay at 60: no reclaim (formula 28)).");
	assert_has(t, "\nThe workingset policy starts from the tendency policy's value: that policy (Linux 2.6's "
		      "swap_tendency) adds half the mapped share (5), the distress (0) and ck, the smaller of "
		      "application memory and free swap (23): 28.\nIt follows that formula only while the kernel "
		      "reclaims or tasks stall on memory (2.6 computed it in reclaim and nowhere else); between the "
		      "two looks neither happened, so it keeps the value in effect, 60.\n");
	assert_has(t, "\nIt steers that value by the refaults the kernel counts as its working set coming back (7 "
		      "anonymous and 300 file pages a second here): up toward 200 while file ones dominate and "
		      "little page cache is unmapped, down toward 60 while anonymous ones do, and after a rise "
		      "that brought back at least as many anonymous pages as the file ones it saved it waits 30 s "
		      "before rising again (twice as long each time). One decision has no window of polls to steer "
		      "by: only a snap acts in it (512 anonymous pages a second or more, 2 times the file ones, keep "
		      "the value at 60 or below); otherwise the value is the tendency policy's.\n");
	/* Under reclaim the formula itself, and no sentence about keeping the value. */
	t = render(&c, &s, 60);
	assert_has(t, "(23): 28.\nIt steers that value by ");
	/* A kernel before 5.9: tendency alone, and the text says why. */
	s.has_activations = false;
	prev.has_activations = false;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\nIt would steer that value by the refaults the kernel counts as its working set coming "
		      "back, but this kernel does not show them (workingset_activate_anon and _file, Linux 5.9 and "
		      "later), so it is the tendency policy alone.\n");
	assert_lacks(t, "It steers that value");
}

/* device: the kernel doc's meaning, the device and its value, in one sentence; without swap,
 * the value in effect kept. */
static void
test_device(void **unused)
{
	struct config c = conf(POLICY_DEVICE);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	t = render(&c, &s, 60);
	assert_first_line(t, "It would set vm.swappiness to 100 (it is 60 now): the device policy asks for 100 "
			     "(swap on disk, cost value 100).");
	assert_has(t, "\nThe device policy sets vm.swappiness to what the kernel documents it as, the rough relative "
		      "IO cost of swapping and file system paging (100: the same; above 100: swap is the faster), and "
		      "holds it, leaving the kernel's refault feedback to adapt to the workload: swap on disk costs "
		      "what the file IO costs, so it asks for 100.\n");
	s.swaps = (struct swaps){ .devices = 1, .zram = 1 };
	s.mglru = true;
	t = render(&c, &s, 60);
	assert_first_line(t, "It would set vm.swappiness to 199 (it is 60 now): the device policy asks for 200, which "
			     "the limits 2..199 make 199 (all swap on zram, cost value 200).");
	assert_has(t, ": all swap is on zram, which costs no IO, so it asks for 200.\n");
	s.mglru = false;
	s.swaps = (struct swaps){ .devices = 1 };
	s.zswap_enabled = true;
	t = render(&c, &s, 60);
	assert_has(t, ": zswap holds swapped pages compressed in RAM, about twice as fast as the file IO, so it asks "
		      "for 133.\n");
	s.swap_total_kib = s.swap_free_kib = 0;
	s.swaps.devices = 0;
	t = render(&c, &s, 60);
	assert_first_line(t, "No swap: swappiness has no effect here; nothing to do.");
	assert_has(t, "leave 60 in place, as the device policy asks (no swap, stay at 60)");
	assert_has(t, ": without swap the value changes nothing, so it keeps the value in effect, 60.\n");
}

/* name = auto: the policy for the LRU, said before its own sentences, and the configuration
 * line names auto. */
static void
test_auto(void **unused)
{
	struct config c = conf(POLICY_CK);
	struct sample s = fixture(5 * LOOKS_US);
	const char *t;

	(void)unused;
	c.policy = CONFIG_POLICY_AUTO;
	s.swaps = (struct swaps){ .devices = 1, .zram = 1 };
	s.mglru = true;
	t = render(&c, &s, 60);
	assert_first_line(t, "It would set vm.swappiness to 199 (it is 60 now): the device policy asks for 200, which "
			     "the limits 2..199 make 199 (all swap on zram, cost value 200).");
	assert_has(t, "\nThe configuration's policy is auto, and this kernel reclaims with the multi-gen LRU, where the "
		      "value only weighs the refault rates of the two kinds of page when the generations' ages do not "
		      "already pick which to evict: so the device policy, not the workingset policy that auto runs "
		      "under the classic LRU.\nThe device policy sets vm.swappiness to what the kernel documents it as");
	assert_has(t, "\nConfiguration: /etc/autoswappiness.conf (policy auto, limits 0..auto,");
	s.mglru = false;
	t = render(&c, &s, 60);
	assert_has(t, "the workingset policy asks for");
	assert_has(t, "\nThe configuration's policy is auto, and this kernel reclaims with the classic LRU: so the "
		      "workingset policy, not the device policy that auto runs under the multi-gen LRU.\nThe workingset "
		      "policy starts from the tendency policy's value");
	assert_lacks(t, "cost value");
	/* A named policy says nothing of auto. */
	c.policy = POLICY_CK;
	t = render(&c, &s, 60);
	assert_lacks(t, "auto runs");
	assert_lacks(t, "policy is auto");
}

/* The kernel and its LRU, one sentence; under the multi-gen LRU with the workingset
 * policy, what its counters count on this release. */
static void
test_lru(void **unused)
{
	static const struct {
		const char *release;
		const char *when; /* NULL: no version named */
		const char *what;
	} versions[] = {
		{ "6.1.0-27-amd64", " before about Linux 6.5",
		  "count promotions of pages used through file descriptors, not refaults" },
		{ "6.4.16", " before about Linux 6.5", "count promotions" },
		{ "6.5.0", " from about Linux 6.5 to 6.13", "count every recent refault, not only those within the "
							    "working set" },
		{ "6.12.57+deb13-amd64", " from about Linux 6.5 to 6.13", "count every recent refault" },
		{ "6.13.12", " from about Linux 6.5 to 6.13", "count every recent refault" },
		{ "6.14.0", " from Linux 6.14", "count only page-fault refaults of pages that were in the working "
						"set: file pages read back through read() never count" },
		{ "6.18.44-fc-v1272", " from Linux 6.14", "count only page-fault refaults" },
		{ "7.0.1", " from Linux 6.14", "count only page-fault refaults" },
		{ "", NULL, "do not count what they count under the classic LRU (that changed in Linux 6.5 and 6.14)" },
	};
	struct config ws = conf(POLICY_WORKINGSET), ck = conf(POLICY_CK);
	struct sample prev, s = fixture(5 * LOOKS_US);
	struct lru_info l = { .kind = LRU_MGLRU, .source = LRU_SOURCE_FILE, .caps = 7 };
	char want[512];
	const char *t;

	(void)unused;
	s.has_activations = true;
	prev = s;
	prev.time_us -= LOOKS_US;
	lru_given = &l;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		snprintf(l.release, sizeof(l.release), "%s", versions[i].release);
		t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
		snprintf(want, sizeof(want), "\nKernel: Linux %s, with the multi-gen LRU (mglru: "
		    "/sys/kernel/mm/lru_gen/enabled is 0x0007).\nUnder the multi-gen LRU%s, workingset_activate_anon "
		    "and _file, which the workingset policy steers by, %s", l.release[0] ? l.release : "(release unknown)",
		    versions[i].when ? versions[i].when : "", versions[i].what);
		assert_has(t, want);
	}
	/* Only the workingset policy steers by those counters, and only while it has them. */
	snprintf(l.release, sizeof(l.release), "6.12.57+deb13-amd64");
	t = render_from(&ck, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\nKernel: Linux 6.12.57+deb13-amd64, with the multi-gen LRU (mglru: /sys/kernel/mm/lru_gen/"
		      "enabled is 0x0007).\nLimits: ");
	assert_lacks(t, "Under the multi-gen LRU");
	s.has_activations = prev.has_activations = false;
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_lacks(t, "Under the multi-gen LRU");
	s.has_activations = prev.has_activations = true;
	/* The classic LRU: built but off, not built, or a file that cannot be read. */
	l.kind = LRU_CLASSIC;
	l.caps = 0;
	snprintf(l.release, sizeof(l.release), "6.1.0-27-amd64");
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\nKernel: Linux 6.1.0-27-amd64, with the classic LRU (/sys/kernel/mm/lru_gen/enabled is "
		      "0x0000: the multi-gen LRU is built but off).\nLimits: ");
	l.source = LRU_SOURCE_ABSENT;
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\nKernel: Linux 6.1.0-27-amd64, with the classic LRU (no /sys/kernel/mm/lru_gen/enabled: it "
		      "has no multi-gen LRU).\nLimits: ");
	l.source = LRU_SOURCE_BAD;
	l.err = -EINVAL;
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\nKernel: Linux 6.1.0-27-amd64, its LRU taken as classic (/sys/kernel/mm/lru_gen/enabled: not "
		      "a number).\n");
	l.err = -EBADFD;
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "(/sys/kernel/mm/lru_gen/enabled: not a regular file).\n");
	l.err = -EACCES;
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "(/sys/kernel/mm/lru_gen/enabled: Permission denied).\n");
	assert_lacks(t, "Under the multi-gen LRU");
	lru_given = NULL;
	t = render_from(&ws, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_lacks(t, "Kernel:");
}

static void
test_config_sources(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US), prev = fixture(4 * LOOKS_US);
	const char *t;

	(void)unused;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\nConfiguration: /etc/autoswappiness.conf (policy tendency, limits 0..auto, step 20, "
		      "smoothing 0%, interval 5000 ms (busy 1000 ms)).\n");
	t = render_from(&c, EXPLAIN_CONFIG_ABSENT, &prev, &s, 60, 200);
	assert_has(t, "\nConfiguration: the built-in defaults, as /etc/autoswappiness.conf does not exist (policy "
		      "tendency,");
	t = render_from(&c, EXPLAIN_CONFIG_UNREADABLE, &prev, &s, 60, 200);
	assert_has(t, "\nConfiguration: the built-in defaults, as this user may not read /etc/autoswappiness.conf; "
		      "the daemon, as root, would use it (");
	t = render_from(&c, EXPLAIN_CONFIG_REFUSED, &prev, &s, 60, 200);
	assert_has(t, "\nConfiguration: the built-in defaults, as /etc/autoswappiness.conf is refused (Operation not "
		      "permitted; the errors are above): the daemon would not start with it (");
	/* Only drop-ins: the main file is not named as if it were read (issue 48). */
	t = render_from(&c, EXPLAIN_CONFIG_DROPINS, &prev, &s, 60, 200);
	assert_has(t, "\nConfiguration: the drop-ins in /etc/autoswappiness.conf.d, on the built-in defaults, as "
		      "/etc/autoswappiness.conf does not exist (policy tendency,");
	assert_lacks(t, "dry_run");
	c.dry_run = true;
	c.smoothing_pct = 50;
	t = render_from(&c, EXPLAIN_CONFIG_FILE, &prev, &s, 60, 200);
	assert_has(t, "\ndry_run = yes: the daemon would only log its decisions.\n");
	assert_has(t, "; smoothing 50% (it needs history, which one decision does not have).\n");
}

/* The file to blame, when it is a drop-in (issue 48: the main file was named). */
static void
test_config_blames_the_dropin(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US);
	struct decision dn;
	struct regulator reg = { 0 };
	struct explain_input in = {
		.cfg = &c, .config_path = "/etc/a.conf", .config_failed = "/etc/a.conf.d/10-secret.conf",
		.config_source = EXPLAIN_CONFIG_UNREADABLE, .cur = &s, .dn = &dn, .current = 60,
	};

	(void)unused;
	assert_int_equal(decide(&c, 100, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_true(explain_render(&in, text, sizeof(text)) > 0);
	assert_has(text, "\nConfiguration: the built-in defaults, as this user may not read "
			 "/etc/a.conf.d/10-secret.conf; the daemon, as root, would use it (");
	in.config_source = EXPLAIN_CONFIG_REFUSED;
	in.config_errno = EPERM;
	assert_true(explain_render(&in, text, sizeof(text)) > 0);
	assert_has(text, "\nConfiguration: the built-in defaults, as /etc/a.conf.d/10-secret.conf is refused (");
}

/* Paths up to PATH_MAX fit EXPLAIN_TEXT_BYTES in every case (issue 48: a long -c
 * path failed with "does not fit its buffer"), the longest sentences with them. */
static void
test_long_paths(void **unused)
{
	static char path[PATH_MAX], failed[PATH_MAX + 2];
	struct config c = conf(POLICY_WORKINGSET);
	struct sample s = fixture(5 * LOOKS_US), prev = fixture(4 * LOOKS_US);
	struct decision dn;
	struct regulator reg = { 0 };
	struct policy_state fresh = { 0 };
	struct explain_input in = {
		.cfg = &c, .config_path = path, .config_failed = failed, .cur = &s, .dn = &dn, .current = 60,
		.interval_us = LOOKS_US,
	};

	(void)unused;
	memset(path, 'a', sizeof(path) - 1);
	memset(failed, 'b', sizeof(failed) - 1);
	c.dry_run = true;
	c.smoothing_pct = 50;
	s.pgscan_pages = prev.pgscan_pages + 1000;
	assert_int_equal(decide(&c, decide_max(&c, &s), 200, &fresh, &reg, &prev, &s, 60, &dn), 0);
	for (int src = EXPLAIN_CONFIG_FILE; src <= EXPLAIN_CONFIG_REFUSED; src++) {
		in.config_source = (enum explain_config_source)src;
		in.config_errno = EPERM;
		assert_true(explain_render(&in, text, sizeof(text)) > 0);
	}
}

static void
test_small_buffer(void **unused)
{
	struct config c = conf(POLICY_TENDENCY);
	struct sample s = fixture(5 * LOOKS_US);
	struct decision dn;
	struct regulator reg = { 0 };
	struct explain_input in = {
		.cfg = &c, .config_path = "/x", .cur = &s, .dn = &dn, .current = 60,
	};
	char small[64];

	(void)unused;
	assert_int_equal(decide(&c, 100, 200, NULL, &reg, NULL, &s, 60, &dn), 0);
	assert_int_equal(explain_render(&in, small, sizeof(small)), -ENOBUFS);
	assert_int_equal(strlen(small) < sizeof(small), 1);
	assert_int_equal(explain_render(&in, small, 0), -ENOBUFS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_swap),
		cmocka_unit_test(test_disk_swap_writes), cmocka_unit_test(test_tendency_without_reclaim),
		cmocka_unit_test(test_tendency_holding_the_top),
		cmocka_unit_test(test_zram_and_zswap),
		cmocka_unit_test(test_pinned_max_and_kernel),
		cmocka_unit_test(test_pressure),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_adaptive),
		cmocka_unit_test(test_workingset),
		cmocka_unit_test(test_device), cmocka_unit_test(test_auto),
		cmocka_unit_test(test_lru),
		cmocka_unit_test(test_config_sources),
		cmocka_unit_test(test_config_blames_the_dropin),
		cmocka_unit_test(test_long_paths),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
