#include "explain.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kpath.h"
#include "parse.h"
#include "textbuf.h"

/* "5 s", "1.5 s", "250 ms". */
static const char *
duration(uint64_t ms, char *buf, size_t len)
{
	if (ms >= 1000 && ms % 1000 == 0)
		snprintf(buf, len, "%llu s", (unsigned long long)(ms / 1000));
	else if (ms >= 1000)
		snprintf(buf, len, "%llu.%llu s", (unsigned long long)(ms / 1000),
			 (unsigned long long)(ms % 1000 / 100));
	else
		snprintf(buf, len, "%llu ms", (unsigned long long)ms);
	return buf;
}

/* The time between the two looks, to the second from one second on (to the
 * tenth below): the sentences are the same for 1000 and 1040 ms, whatever the
 * scheduler added to the sleep. */
static uint64_t
looks_ms(const struct explain_input *in)
{
	if (in->interval_us >= 950000)
		return (in->interval_us + 500000) / 1000000 * 1000;
	return (in->interval_us + 50000) / 100000 * 100;
}

static const char *
plural(unsigned n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The policy that decides here: the configured one, or name = auto's for this LRU. */
static enum policy_kind
policy_of(const struct explain_input *in)
{
	return decide_policy(in->cfg, in->cur->mglru);
}

/* What the policy asks for and what the limits make of it. */
static void
put_asks(struct textbuf *t, const struct explain_input *in)
{
	const struct decision *dn = in->dn;
	int lo, hi;

	regulator_range(&dn->lim, &lo, &hi);
	textbuf_put(t, "the %s policy asks for %d", policy_name(policy_of(in)), dn->pr.target);
	if (dn->dec.clamped)
		textbuf_put(t, ", which the limits %d..%d make %d", lo, hi, dn->dec.value);
	textbuf_put(t, " (%s)", dn->pr.reason);
}

/* The first line: the answer. */
static void
put_answer(struct textbuf *t, const struct explain_input *in)
{
	const struct regulator_decision *dec = &in->dn->dec;

	if (in->cur->swap_total_kib == 0) {
		textbuf_put(t, "No swap: swappiness has no effect here; nothing to do.\n");
		return;
	}
	switch (dec->verdict) {
	case REGULATOR_WRITE:
		textbuf_put(t, "It would set vm.swappiness to %d (it is %d now): ", dec->value, in->current);
		put_asks(t, in);
		break;
	case REGULATOR_UNCHANGED:
		textbuf_put(t, "It would leave vm.swappiness at %d, which is what it should be: ", in->current);
		put_asks(t, in);
		break;
	case REGULATOR_BELOW_STEP:
		textbuf_put(t, "It would leave vm.swappiness at %d: ", in->current);
		put_asks(t, in);
		textbuf_put(t, ", less than the step of %d away", dec->step);
		break;
	}
	textbuf_put(t, ".\n");
}

/* Without swap: what the kernel and the daemon do. */
static void
put_no_swap(struct textbuf *t, const struct explain_input *in)
{
	const struct regulator_decision *dec = &in->dn->dec;

	textbuf_put(t,
	    "Without swap the kernel reclaims only file pages (mm/vmscan.c scans no anonymous memory), "
	    "whatever vm.swappiness says (it is %d now).\n",
	    in->current);
	textbuf_put(t, "The daemon has no special case for this: it would keep polling and ");
	if (dec->verdict == REGULATOR_WRITE)
		textbuf_put(t, "write %d now,", dec->value);
	else
		textbuf_put(t, "leave %d in place,", in->current);
	textbuf_put(t,
	    " as the %s policy asks (%s), which changes nothing until swap is added; swapon is picked up "
	    "at the next poll.\n",
	    policy_name(policy_of(in)), in->dn->pr.reason);
}

/* The swap devices, and what max = auto (or the pinned max) becomes. */
static void
put_swap(struct textbuf *t, const struct explain_input *in)
{
	const struct sample *s = in->cur;
	int auto_max = policy_device_max(s);
	int spare_top = decide_spare_top(in->cfg, policy_of(in), auto_max, in->dn->lim.kernel_max, s->mglru);

	textbuf_put(t, "Swap: ");
	if (!s->has_swaps)
		textbuf_put(t, "devices unknown (/proc/swaps unreadable, counted as disk)");
	else if (s->swaps.zram == s->swaps.devices)
		textbuf_put(t, "%u %s on zram (compressed RAM, no disk behind)", s->swaps.devices,
		    plural(s->swaps.devices, "device", "devices, all"));
	else if (s->swaps.zram > 0)
		textbuf_put(t, "%u devices, %u of them on zram", s->swaps.devices, s->swaps.zram);
	else
		textbuf_put(t, "%u %s on disk", s->swaps.devices, plural(s->swaps.devices, "device", "devices"));
	textbuf_put(t, ", %llu MiB, %d%% free%s.\n", (unsigned long long)(s->swap_total_kib / 1024), in->dn->pr.swap_centile,
	    s->zswap_enabled ? "; zswap is on (a compressed cache in front of it)" : "");
	if (in->cfg->max == CONFIG_MAX_AUTO)
		textbuf_put(t, "max = auto makes the upper limit %d: ", auto_max);
	else
		textbuf_put(t, "max is pinned at %d in the configuration (max = auto would make it %d: ", in->cfg->max,
		    auto_max);
	if (auto_max == 200)
		textbuf_put(t, "all swap is on zram, so swapping costs no IO and anonymous pages are the cheaper to reclaim");
	else if (auto_max == 133)
		textbuf_put(t, "with zswap, swap IO is about twice as fast as the file system's");
	else
		textbuf_put(t, "on disk, the kernel weighs anonymous and file pages as costing the same IO");
	textbuf_put(t, "%s.\n", in->cfg->max == CONFIG_MAX_AUTO ? "" : ")");
	if (spare_top > 0)
		textbuf_put(t,
		    "The tendency policy goes to %d above it while only the programs' own text is left in the page "
		    "cache to reclaim and swapped-out pages do not come back (sparing the cache: it takes a few polls, "
		    "so the running daemon may hold %d now).\n",
		    spare_top, spare_top);
	if (in->dn->lim.kernel_max < in->dn->lim.max)
		textbuf_put(t, "This kernel accepts at most %d (Linux before 5.8).\n", in->dn->lim.kernel_max);
}

/* Calm or under pressure, from PSI and reclaim efficiency. */
static void
put_pressure(struct textbuf *t, const struct explain_input *in)
{
	const struct policy_result *pr = &in->dn->pr;
	char d[32];
	const char *when = in->interval_us ? duration(looks_ms(in), d, sizeof(d)) : NULL;

	if (pr->distress == 0) {
		textbuf_put(t, "Memory is calm: ");
		if (!in->cur->has_psi)
			textbuf_put(t, "PSI is not available here (distress comes from reclaim efficiency only), and ");
		else if (when)
			textbuf_put(t, "no task stalled on memory in the %s between the two looks (PSI), and ", when);
		else
			textbuf_put(t, "no task stalled on memory in the last 10 s (PSI avg10), and ");
		textbuf_put(t, "%s.\n", when ? "reclaim is not struggling" : "reclaim needs two looks to judge");
		return;
	}
	textbuf_put(t, "Memory is under pressure: ");
	if (pr->psi_distress > 0) {
		if (when)
			textbuf_put(t, "tasks stalled on memory %d%% of the %s between the two looks (PSI)", pr->psi_distress,
			    when);
		else
			textbuf_put(t, "tasks stalled on memory %d%% of the last 10 s (PSI avg10)", pr->psi_distress);
	}
	if (pr->psi_distress > 0 && pr->reclaim_distress > 0)
		textbuf_put(t, ", and ");
	if (pr->reclaim_distress > 0)
		textbuf_put(t, "reclaim freed only %d%% of the pages it scanned", 100 - pr->reclaim_distress);
	textbuf_put(t, "; distress is %d.\n", pr->distress);
}

/* The tendency formula in words, and why its value is kept (tendency and workingset); who
 * names the policy that runs it, as the sentence's subject. */
static void
put_tendency(struct textbuf *t, const struct policy_result *pr, bool two_looks, const char *who)
{
	textbuf_put(t,
	    "%s (Linux 2.6's swap_tendency) adds half the mapped share (%d), the distress (%d) and ck, the "
	    "smaller of application memory and free swap (%d): %d.\n",
	    who, pr->mapped_ratio / 2, pr->distress, pr->ck, pr->swap_tendency);
	if (pr->kept == POLICY_KEPT_NO_RECLAIM)
		textbuf_put(t,
		    "It follows that formula only while the kernel reclaims or tasks stall on memory (2.6 computed it "
		    "in reclaim and nowhere else); %s, so it keeps the value in effect, %d.\n",
		    two_looks ? "between the two looks neither happened" : "one look cannot tell", pr->target);
	else if (pr->kept == POLICY_KEPT_TOP)
		textbuf_put(t,
		    "A fall from the top of the range waits %d s after the formula last reached it, since distress "
		    "swings from poll to poll: it keeps %d.\n",
		    POLICY_TENDENCY_TOP_HOLD_S, pr->target);
}

/* The device policy in words: the kernel doc's meaning, the device, the value. */
static void
put_device(struct textbuf *t, const struct explain_input *in)
{
	const struct policy_result *pr = &in->dn->pr;
	int cost = policy_device_max(in->cur);

	textbuf_put(t,
	    "The device policy sets vm.swappiness to what the kernel documents it as, the rough relative IO "
	    "cost of swapping and file system paging (100: the same; above 100: swap is the faster), and holds "
	    "it, leaving the kernel's refault feedback to adapt to the workload: ");
	if (pr->kept == POLICY_KEPT_NO_SWAP)
		textbuf_put(t, "without swap the value changes nothing, so it keeps the value in effect, %d.\n", pr->target);
	else
		textbuf_put(t, "%s, so it asks for %d.\n",
		    cost == 200   ? "all swap is on zram, which costs no IO"
		    : cost == 133 ? "zswap holds swapped pages compressed in RAM, about twice as fast as the file IO"
				  : "swap on disk costs what the file IO costs",
		    pr->target);
}

/* The policy's inputs, and its formula, in words. */
/* name = auto: which policy this LRU gets, and why. */
static void
put_auto(struct textbuf *t, const struct explain_input *in)
{
	if (in->cur->mglru)
		textbuf_put(t,
		    "The configuration's policy is auto, and this kernel reclaims with the multi-gen LRU, where the value "
		    "only weighs the refault rates of the two kinds of page when the generations' ages do not already "
		    "pick which to evict: so the %s policy, not the %s policy that auto runs under the classic LRU.\n",
		    policy_name(DECIDE_AUTO_MGLRU), policy_name(DECIDE_AUTO_CLASSIC));
	else
		textbuf_put(t,
		    "The configuration's policy is auto, and this kernel reclaims with the classic LRU: so the %s "
		    "policy, not the %s policy that auto runs under the multi-gen LRU.\n",
		    policy_name(DECIDE_AUTO_CLASSIC), policy_name(DECIDE_AUTO_MGLRU));
}

static void
put_inputs(struct textbuf *t, const struct explain_input *in)
{
	const struct policy_result *pr = &in->dn->pr;
	char d[32];

	textbuf_put(t, "Of %llu MiB of RAM, application memory is %d%% and mapped memory is %d%%; ",
	    (unsigned long long)(in->cur->mem_total_kib / 1024), pr->app_centile, pr->mapped_ratio);
	if (in->cur->swap_total_kib == 0)
		textbuf_put(t, "there is no swap; distress is %d.\n", pr->distress);
	else
		textbuf_put(t, "%d%% of swap is free; distress is %d.\n", pr->swap_centile, pr->distress);
	if (in->interval_us)
		textbuf_put(t, "Over %s: %llu file refaults/s, %llu anonymous refaults/s, %llu swap-ins/s, %llu swap-outs/s.\n",
		    duration(looks_ms(in), d, sizeof(d)), (unsigned long long)pr->file_refault_pps,
		    (unsigned long long)pr->anon_refault_pps, (unsigned long long)pr->swapin_pps,
		    (unsigned long long)pr->swapout_pps);
	if (in->cfg->policy == CONFIG_POLICY_AUTO)
		put_auto(t, in);
	switch (policy_of(in)) {
	case POLICY_CK:
		textbuf_put(t,
		    "The ck policy (Con Kolivas, 2003) takes the smaller of application memory and free swap "
		    "(0 without swap): %d.\n",
		    pr->ck);
		break;
	case POLICY_TENDENCY:
		put_tendency(t, pr, in->interval_us != 0, "The tendency policy");
		break;
	case POLICY_WORKINGSET:
		put_tendency(t, pr, in->interval_us != 0,
		    "The workingset policy starts from the tendency policy's value: that policy");
		if (!in->cur->has_activations) {
			textbuf_put(t,
			    "It would steer that value by the refaults the kernel counts as its working set coming "
			    "back, but this kernel does not show them (workingset_activate_anon and _file, Linux 5.9 "
			    "and later), so it is the tendency policy alone.\n");
			break;
		}
		textbuf_put(t,
		    "It steers that value by the refaults the kernel counts as its working set coming back (%llu "
		    "anonymous and %llu file pages a second here): up toward %d while file ones dominate and "
		    "little page cache is unmapped, down toward %d while anonymous ones do, and after a rise "
		    "that brought back at least as many anonymous pages as the file ones it saved it waits %d s "
		    "before rising again (twice as long each time). One decision has no window of polls to "
		    "steer by: only a snap acts in it (%d anonymous pages a second or more, %d times the file "
		    "ones, keep the value at %d or below); otherwise the value is the tendency policy's.\n",
		    (unsigned long long)pr->activate_anon_pps, (unsigned long long)pr->activate_file_pps,
		    POLICY_WS_HIGH, POLICY_WS_LOW, POLICY_ADAPTIVE_BACKOFF_S, POLICY_WS_SNAP_PPS, POLICY_WS_RATIO,
		    POLICY_WS_LOW);
		break;
	case POLICY_DEVICE:
		put_device(t, in);
		break;
	default:
		textbuf_put(t,
		    "The adaptive policy learns from poll to poll; one decision without history says: %s. "
		    "The running daemon may hold another value.\n",
		    pr->reason);
		break;
	}
}

/* What workingset_activate_anon and _file, the workingset policy's input, count under
 * the multi-gen LRU of this release (DESIGN.md, with mm/vmscan.c and mm/workingset.c
 * by version): fd-access promotions in sort_folio() on 6.1, recent refaults after
 * "Multi-gen LRU: fix workingset accounting" (about 6.5), and from the 6.14 rework
 * only page-fault refaults of folios with PG_workingset. */
static void
put_ws_mglru(struct textbuf *t, const char *release)
{
	unsigned major, minor;
	const char *when, *what;

	if (parse_kernel_release(release, &major, &minor) < 0) {
		when = "";
		what = "do not count what they count under the classic LRU (that changed in Linux 6.5 and 6.14)";
	} else if (major < 6 || (major == 6 && minor < 5)) {
		when = " before about Linux 6.5";
		what = "count promotions of pages used through file descriptors, not refaults";
	} else if (major == 6 && minor < 14) {
		when = " from about Linux 6.5 to 6.13";
		what = "count every recent refault, not only those within the working set";
	} else {
		when = " from Linux 6.14";
		what = "count only page-fault refaults of pages that were in the working set: file pages read back "
		       "through read() never count";
	}
	textbuf_put(t, "Under the multi-gen LRU%s, workingset_activate_anon and _file, which the workingset policy "
	    "steers by, %s.\n", when, what);
}

/* The kernel and its LRU; under the multi-gen LRU, what the workingset policy's
 * counters mean. */
static void
put_lru(struct textbuf *t, const struct explain_input *in)
{
	const struct lru_info *l = in->lru;
	const char *rel;

	if (!l)
		return;
	rel = l->release[0] ? l->release : "(release unknown)";
	if (l->source == LRU_SOURCE_BAD)
		textbuf_put(t, "Kernel: Linux %s, its LRU taken as classic (%s: %s).\n", rel, KPATH_LRU_GEN_ENABLED,
		    l->err == -EINVAL ? "not a number" : l->err == -EBADFD ? "not a regular file" : strerror(-l->err));
	else if (l->source == LRU_SOURCE_ABSENT)
		textbuf_put(t, "Kernel: Linux %s, with the classic LRU (no %s: it has no multi-gen LRU).\n", rel,
		    KPATH_LRU_GEN_ENABLED);
	else if (l->kind == LRU_CLASSIC)
		textbuf_put(t, "Kernel: Linux %s, with the classic LRU (%s is 0x%04x: the multi-gen LRU is built but off).\n",
		    rel, KPATH_LRU_GEN_ENABLED, (unsigned)l->caps);
	else
		textbuf_put(t, "Kernel: Linux %s, with the multi-gen LRU (mglru: %s is 0x%04x).\n", rel,
		    KPATH_LRU_GEN_ENABLED, (unsigned)l->caps);
	if (l->kind == LRU_MGLRU && policy_of(in) == POLICY_WORKINGSET && in->cur->has_activations)
		put_ws_mglru(t, l->release);
}

static void
put_limits(struct textbuf *t, const struct explain_input *in)
{
	const struct regulator_limits *lim = &in->dn->lim;

	textbuf_put(t, "Limits: %d to %d", lim->min, lim->max);
	if (lim->mglru)
		textbuf_put(t, ", kept within %d to %d under the multi-gen LRU, where 0 never swaps and 1 and 200 evict "
			    "one kind of page first without feedback", REGULATOR_MGLRU_MIN, REGULATOR_MGLRU_MAX);
	textbuf_put(t, "; a change smaller than %d is not written", lim->step);
	if (lim->smoothing_pct > 0)
		textbuf_put(t, "; smoothing %d%% (it needs history, which one decision does not have)",
		    lim->smoothing_pct);
	textbuf_put(t, ".\n");
}

static void
put_config(struct textbuf *t, const struct explain_input *in)
{
	const char *blame = in->config_failed ? in->config_failed : in->config_path;
	char desc[160];

	config_describe(in->cfg, desc, sizeof(desc));
	switch (in->config_source) {
	case EXPLAIN_CONFIG_FILE:
		textbuf_put(t, "Configuration: %s (%s).\n", in->config_path, desc);
		break;
	case EXPLAIN_CONFIG_DROPINS:
		textbuf_put(t, "Configuration: the drop-ins in %s.d, on the built-in defaults, as %s does not exist (%s).\n",
		    in->config_path, in->config_path, desc);
		break;
	case EXPLAIN_CONFIG_ABSENT:
		textbuf_put(t, "Configuration: the built-in defaults, as %s does not exist (%s).\n", in->config_path, desc);
		break;
	case EXPLAIN_CONFIG_UNREADABLE:
		textbuf_put(t,
		    "Configuration: the built-in defaults, as this user may not read %s; the daemon, as root, "
		    "would use it (%s).\n",
		    blame, desc);
		break;
	case EXPLAIN_CONFIG_REFUSED:
		textbuf_put(t,
		    "Configuration: the built-in defaults, as %s is refused (%s; the errors are above): the daemon "
		    "would not start with it (%s).\n",
		    blame, strerror(in->config_errno), desc);
		break;
	}
	if (in->cfg->dry_run)
		textbuf_put(t, "dry_run = yes: the daemon would only log its decisions.\n");
}

int
explain_render(const struct explain_input *in, char *buf, size_t len)
{
	struct textbuf t = textbuf_init(buf, len);
	char d1[32], d2[32];

	put_answer(&t, in);
	if (in->cur->swap_total_kib == 0)
		put_no_swap(&t, in);
	else
		put_swap(&t, in);
	put_pressure(&t, in);
	put_inputs(&t, in);
	put_lru(&t, in);
	if (in->cur->swap_total_kib != 0)
		put_limits(&t, in);
	put_config(&t, in);
	textbuf_put(&t,
	    "Nothing was written: --explain only reads. The daemon would decide every %s (every %s under pressure).\n",
	    duration(in->cfg->interval_ms, d1, sizeof(d1)), duration(in->cfg->busy_interval_ms, d2, sizeof(d2)));
	return textbuf_end(&t);
}
