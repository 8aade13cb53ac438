/* Unit tests for knob ownership (owner.c): each transition, and the sequences
 * the integration tests drive through the real daemon (yield then reload,
 * reload into and out of a dry run, a yield during a dry run, the records a
 * crashed instance left, and the exit after each). A small fake world (the
 * knob, the four records, the cgroups that follow) carries out what each
 * transition asks for, in owner.h's order, as ownership.c does. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "owner.h"

struct world {
	int knob;
	bool has_original, has_yielded, has_written, has_writing;
	int original, yielded, written, writing; /* the records' contents */
	int cg;		       /* what the cgroups that follow hold */
	bool restore_fails;
};

static struct owner_records
records_of(const struct world *w)
{
	return (struct owner_records){
		.original_r = w->has_original ? 0 : -ENOENT,
		.original = w->has_original ? w->original : -1,
		.yielded_r = w->has_yielded ? 0 : -ENOENT,
		.yielded = w->has_yielded ? w->yielded : -1,
		.written_r = w->has_written ? 0 : -ENOENT,
		.written = w->has_written ? w->written : -1,
		.writing_r = w->has_writing ? 0 : -ENOENT,
		.writing = w->has_writing ? w->writing : -1,
	};
}

/* What ownership.c's perform() does, on the fake world. */
static void
apply(struct world *w, const struct owner *o, unsigned todo)
{
	if (todo & OWNER_RESTORE) {
		if (w->restore_fails)
			return;
		w->knob = o->original;
	}
	if (todo & OWNER_FOLLOW_ORIGINAL)
		w->cg = o->original;
	if (todo & OWNER_REMOVE_ORIGINAL)
		w->has_original = false;
	if (todo & OWNER_REMOVE_WRITTEN)
		w->has_written = false;
	if (todo & OWNER_SAVE_WRITTEN) {
		w->has_written = true;
		w->written = o->expected;
	}
	if (todo & OWNER_REMOVE_WRITING)
		w->has_writing = false;
	if (todo & OWNER_SAVE_ORIGINAL) {
		w->has_original = true;
		w->original = o->original;
	}
	if (todo & OWNER_REMOVE_YIELDED)
		w->has_yielded = false;
	if (todo & OWNER_SAVE_YIELDED) {
		w->has_yielded = true;
		w->yielded = o->cg_value;
	}
	if (todo & OWNER_SAVE_WRITING) {
		w->has_writing = true;
		w->writing = o->writing;
	}
}

static unsigned
start(struct owner *o, struct world *w, bool dry_run)
{
	struct owner_records rec = records_of(w);
	unsigned todo = owner_start(o, w->knob, dry_run, &rec);

	apply(w, o, todo);
	return todo;
}

static unsigned
reload(struct owner *o, struct world *w, bool dry_run)
{
	struct owner_records rec = records_of(w);
	unsigned todo = owner_reload(o, dry_run, w->knob, &rec);

	apply(w, o, todo);
	return todo;
}

/* The loop writes value (as act() does: "writing" first, then the knob, then
 * "written"). */
static void
write_knob(struct owner *o, struct world *w, int value)
{
	assert_false(owner_changed_elsewhere(o, w->knob));
	apply(w, o, owner_will_write(o, value));
	w->knob = value;
	apply(w, o, owner_expect(o, value));
	w->cg = value;
	o->cg_value = value;
}

/* Someone else sets the knob; the next poll sees it and yields. */
static void
set_elsewhere_and_yield(struct owner *o, struct world *w, int value)
{
	w->knob = value;
	assert_true(owner_changed_elsewhere(o, w->knob));
	apply(w, o, owner_yield(o, w->knob));
}

static unsigned
exit_(struct owner *o, struct world *w)
{
	unsigned todo = owner_exit(o, w->knob);

	apply(w, o, todo);
	return todo;
}

static void
test_start_fresh_then_exit(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_CLAIMED);
	assert_true(todo & OWNER_SAVE_ORIGINAL);
	assert_false(todo & (OWNER_NOTE_FOUND_ORIGINAL | OWNER_NOTE_FOUND_YIELDED));
	assert_true(o.owns_knob);
	assert_false(o.yielded);
	assert_int_equal(o.original, 60);
	assert_int_equal(o.expected, 60);
	assert_true(w.has_original);
	assert_int_equal(w.original, 60);
	write_knob(&o, &w, 23);
	assert_int_equal(owner_current(&o, w.knob), 23);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_RESTORE);
	assert_int_equal(w.knob, 60);
	assert_int_equal(w.cg, 60);
	assert_false(w.has_original);
	assert_false(w.has_yielded);
}

/* A restart after SIGKILL: the record wins over the knob (the crashed
 * instance's own last write), and is not rewritten. */
static void
test_start_finds_crash_record(void **state)
{
	struct world w = { .knob = 23, .has_original = true, .original = 60, .cg = 23 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_false(todo & OWNER_SAVE_ORIGINAL);
	assert_true(o.owns_knob);
	assert_int_equal(o.original, 60);
	assert_int_equal(o.expected, 23);
	assert_false(o.yielded);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_RESTORE);
	assert_int_equal(w.knob, 60);
	assert_false(w.has_original);
}

/* An unreadable record is no record: the knob's value becomes the original. */
static void
test_start_unreadable_original(void **state)
{
	struct world w = { .knob = 40, .cg = 40 };
	struct owner_records rec = { .original_r = -EBADFD, .original = 99, .yielded_r = -ENOENT };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = owner_start(&o, w.knob, false, &rec);
	assert_true(todo & OWNER_NOTE_CLAIMED);
	assert_true(todo & OWNER_SAVE_ORIGINAL);
	assert_false(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_int_equal(o.original, 40);
}

/* The crashed instance had yielded: keep off the knob until a reload, leave it
 * on exit, and let the cgroups that followed it go back to the original. */
static void
test_start_finds_yielded_record(void **state)
{
	struct world w = { .knob = 77, .has_original = true, .original = 60, .has_yielded = true, .yielded = 23,
			   .cg = 23 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_FOUND_YIELDED);
	assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_true(o.yielded);
	assert_int_equal(o.expected, 77);
	assert_int_equal(o.cg_value, 23);
	assert_int_equal(o.original, 60);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_LEAVE_YIELDED);
	assert_false(todo & OWNER_RESTORE);
	assert_int_equal(w.knob, 77);
	assert_int_equal(w.cg, 60);
	assert_false(w.has_original);
	assert_false(w.has_yielded);
}

/* A yield record that cannot be read still says someone else is in charge. */
static void
test_start_unreadable_yielded(void **state)
{
	struct owner_records rec = { .original_r = -ENOENT, .yielded_r = -EINVAL, .yielded = 5 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = owner_start(&o, 77, false, &rec);
	assert_true(todo & OWNER_NOTE_FOUND_YIELDED);
	assert_true(o.yielded);
	assert_int_equal(o.cg_value, 77);
	assert_int_equal(o.expected, 77);
}

/* A yield record that is no file of root's alone (a FIFO, another user's,
 * -EPERM from knob_record_load) says nothing: the start takes charge and
 * regulates, and removes it; an untrusted original is not restored either. */
static void
test_start_untrusted_records(void **state)
{
	struct owner_records rec = { .original_r = -EPERM, .original = 7, .yielded_r = -EPERM, .yielded = 5 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = owner_start(&o, 77, false, &rec);
	assert_false(todo & OWNER_NOTE_FOUND_YIELDED);
	assert_false(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_true(todo & OWNER_REMOVE_YIELDED);
	assert_true(todo & OWNER_SAVE_ORIGINAL);
	assert_false(o.yielded);
	assert_true(owner_restores(&o));
	assert_int_equal(o.original, 77);
	assert_int_equal(o.cg_value, 77);
}

/* A dry run owns nothing, writes no record and leaves a crashed instance's
 * record for the next real start. */
static void
test_start_dry_run(void **state)
{
	struct world w = { .knob = 23, .has_original = true, .original = 60, .cg = 23 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, true);
	assert_int_equal(todo, OWNER_NOTE_DRY_RUN_RECORD);
	assert_false(o.owns_knob);
	assert_int_equal(o.original, 23);
	/* Someone else setting the knob is no yield: there is nothing to restore. */
	assert_false(owner_changed_elsewhere(&o, 77));
	o.dry_value = 40; /* a decision the dry run only pretends to write */
	assert_int_equal(owner_current(&o, 23), 40);
	todo = exit_(&o, &w);
	assert_int_equal(todo, OWNER_FOLLOW_ORIGINAL);
	assert_int_equal(w.knob, 23);
	assert_true(w.has_original);
	assert_int_equal(w.original, 60);

	w.has_original = false;
	assert_int_equal(start(&o, &w, true), 0);
	assert_false(w.has_original);
}

static void
test_yield_then_reload(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	assert_false(owner_changed_elsewhere(&o, 23));
	set_elsewhere_and_yield(&o, &w, 77);
	assert_true(o.yielded);
	assert_int_equal(o.expected, 77);
	assert_true(w.has_yielded);
	assert_int_equal(w.yielded, 23); /* what the cgroups that follow hold */
	/* The reload: the value someone else set becomes the original. */
	todo = reload(&o, &w, false);
	assert_int_equal(todo & (OWNER_REMOVE_ORIGINAL | OWNER_SAVE_ORIGINAL | OWNER_REMOVE_YIELDED),
			 OWNER_REMOVE_ORIGINAL | OWNER_SAVE_ORIGINAL | OWNER_REMOVE_YIELDED);
	assert_false(o.yielded);
	assert_true(o.owns_knob);
	assert_int_equal(o.original, 77);
	assert_true(w.has_original);
	assert_int_equal(w.original, 77);
	assert_false(w.has_yielded);
	write_knob(&o, &w, 23);
	exit_(&o, &w);
	assert_int_equal(w.knob, 77);
	assert_false(w.has_original);
}

/* A yielded daemon exits: the knob stays, the records go. */
static void
test_yield_then_exit(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	set_elsewhere_and_yield(&o, &w, 77);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_LEAVE_YIELDED);
	assert_int_equal(w.knob, 77);
	assert_int_equal(w.cg, 60);
	assert_false(w.has_original);
	assert_false(w.has_yielded);
}

/* A reload into dry run ends the yield but owns nothing: the exit writes
 * nothing, and the cgroups that followed go to the value someone else set. */
static void
test_yield_then_reload_into_dry_run(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	set_elsewhere_and_yield(&o, &w, 77);
	todo = reload(&o, &w, true);
	assert_false(todo & OWNER_SAVE_ORIGINAL);
	assert_false(o.yielded);
	assert_false(o.owns_knob);
	assert_true(o.dry_run);
	assert_int_equal(o.original, 77);
	assert_int_equal(owner_current(&o, 77), 77);
	assert_false(w.has_original);
	assert_false(w.has_yielded);
	todo = exit_(&o, &w);
	assert_int_equal(todo, OWNER_FOLLOW_ORIGINAL);
	assert_int_equal(w.knob, 77);
	assert_int_equal(w.cg, 77);
}

/* Reloading into dry run after a write: the exit still restores, and the
 * dry run still watches for someone else (there is something to restore). */
static void
test_reload_into_dry_run(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	assert_int_equal(reload(&o, &w, true), 0);
	assert_true(o.dry_run);
	assert_true(o.owns_knob);
	assert_int_equal(o.dry_value, 23);
	assert_int_equal(owner_current(&o, 23), 23);
	assert_true(owner_changed_elsewhere(&o, 77));
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_RESTORE);
	assert_int_equal(w.knob, 60);
	assert_false(w.has_original);
}

/* Yield during a dry run that owns the knob (reloaded into it): hands off,
 * and the exit leaves the other value. */
static void
test_yield_in_dry_run(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	reload(&o, &w, true);
	set_elsewhere_and_yield(&o, &w, 77);
	assert_true(o.yielded);
	assert_true(w.has_yielded);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_LEAVE_YIELDED);
	assert_int_equal(w.knob, 77);
	assert_false(w.has_yielded);
}

/* Reloading out of a dry run: the original is recorded before the first write. */
static void
test_reload_out_of_dry_run(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, true);
	assert_false(w.has_original);
	w.knob = 50; /* someone else, while the dry run looked on */
	todo = reload(&o, &w, false);
	assert_true(todo & OWNER_NOTE_CLAIMED);
	assert_true(todo & OWNER_SAVE_ORIGINAL);
	assert_true(o.owns_knob);
	assert_false(o.dry_run);
	assert_int_equal(o.original, 50);
	assert_int_equal(o.expected, 50);
	assert_true(w.has_original);
	assert_int_equal(w.original, 50);
	write_knob(&o, &w, 23);
	exit_(&o, &w);
	assert_int_equal(w.knob, 50);
	assert_false(w.has_original);
	/* A second reload out of nothing changes nothing. */
	start(&o, &w, false);
	assert_int_equal(reload(&o, &w, false), 0);
}

/* Out of a dry run with a crashed instance's records: they win, as at start. */
static void
test_reload_out_of_dry_run_finds_records(void **state)
{
	struct world w = { .knob = 23, .has_original = true, .original = 60, .cg = 23 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, true);
	todo = reload(&o, &w, false);
	assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_int_equal(o.original, 60);
	exit_(&o, &w);
	assert_int_equal(w.knob, 60);
}

/* A reload that cannot read the knob changes only the dry-run flag. */
static void
test_reload_knob_unreadable(void **state)
{
	struct owner_records rec = { .original_r = -ENOENT, .yielded_r = -ENOENT };
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o, before;

	(void)state;
	start(&o, &w, false);
	set_elsewhere_and_yield(&o, &w, 77);
	before = o;
	assert_int_equal(owner_reload(&o, true, -1, &rec), 0);
	assert_true(o.dry_run);
	assert_true(o.yielded);
	assert_int_equal(o.original, before.original);
	assert_int_equal(o.expected, before.expected);
}

/* Out of a dry run while the knob cannot be read: nothing is owned yet, so
 * nothing may be written and the exit restores nothing; the first poll that
 * reads the knob takes charge of it (the bug: the original was never recorded
 * and the exit left the daemon's writes in place). */
static void
test_reload_out_of_dry_run_knob_unreadable(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	struct owner_records rec;
	unsigned todo;

	(void)state;
	start(&o, &w, true);
	assert_false(owner_must_claim(&o));
	assert_int_equal(owner_reload(&o, false, -1, &(struct owner_records){ .original_r = -ENOENT, .yielded_r = -ENOENT }), 0);
	assert_false(o.dry_run);
	assert_false(owner_restores(&o));
	assert_true(owner_must_claim(&o));
	/* The next poll reads 50 (someone else changed it meanwhile): that is the original. */
	w.knob = 50;
	rec = records_of(&w);
	todo = owner_claim(&o, w.knob, &rec);
	apply(&w, &o, todo);
	assert_true(todo & OWNER_SAVE_ORIGINAL);
	assert_false(owner_must_claim(&o));
	assert_true(owner_restores(&o));
	assert_true(w.has_original);
	assert_int_equal(w.original, 50);
	write_knob(&o, &w, 23);
	exit_(&o, &w);
	assert_int_equal(w.knob, 50);
	assert_false(w.has_original);
}

/* owner_restores() is what `status` and the metrics say about the exit:
 * exactly when owner_exit() would write the original back. */
static void
test_restores(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;

	(void)state;
	start(&o, &w, false);
	assert_true(owner_restores(&o));
	write_knob(&o, &w, 23);
	assert_true(owner_exit(&o, w.knob) & OWNER_RESTORE);
	/* Reloaded into a dry run: what was written still goes back. */
	reload(&o, &w, true);
	assert_true(owner_restores(&o));
	assert_true(owner_exit(&o, w.knob) & OWNER_RESTORE);
	/* Yielded: someone else's value stays. */
	set_elsewhere_and_yield(&o, &w, 77);
	assert_false(owner_restores(&o));
	assert_false(owner_exit(&o, w.knob) & OWNER_RESTORE);
	/* A dry run from the start owns nothing. */
	w = (struct world){ .knob = 60, .cg = 60 };
	start(&o, &w, true);
	assert_false(owner_restores(&o));
	assert_false(owner_exit(&o, 23) & OWNER_RESTORE);
	assert_false(owner_must_claim(&o));
}

static void
test_exit_cases(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	/* Already the original: nothing to write, the records still go. */
	start(&o, &w, false);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_ALREADY_ORIGINAL);
	assert_false(todo & OWNER_RESTORE);
	assert_false(w.has_original);
	/* The knob cannot be read: write the original all the same. */
	start(&o, &w, false);
	todo = owner_exit(&o, -1);
	assert_true(todo & OWNER_RESTORE);
	/* The restore fails: the record stays for the next start. */
	write_knob(&o, &w, 23);
	w.restore_fails = true;
	exit_(&o, &w);
	assert_int_equal(w.knob, 23);
	assert_true(w.has_original);
	assert_int_equal(w.original, 60);
}

/* Someone else sets the knob and the daemon exits before a poll sees it
 * (`sysctl -w vm.swappiness=42` and `systemctl stop` within one interval):
 * their value stays, the records go, and the cgroups that followed us go back.
 * Also after a reload into a dry run, whose expected value is the last real
 * write; and one equal to the original is simply the original. */
static void
test_exit_after_unseen_change(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	w.knob = 42;
	assert_true(owner_restores(&o));
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_LEAVE_CHANGED);
	assert_false(todo & (OWNER_RESTORE | OWNER_NOTE_ALREADY_ORIGINAL | OWNER_NOTE_LEAVE_YIELDED));
	assert_true(todo & OWNER_FOLLOW_ORIGINAL);
	assert_int_equal(w.knob, 42);
	assert_false(w.has_original);
	assert_false(w.has_yielded);
	/* Into a dry run: a change made since is theirs too. */
	w = (struct world){ .knob = 60, .cg = 60 };
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	reload(&o, &w, true);
	w.knob = 7;
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_LEAVE_CHANGED);
	assert_int_equal(w.knob, 7);
	/* Back to the original by hand: nothing to do either way. */
	w = (struct world){ .knob = 60, .cg = 60 };
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	w.knob = 60;
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_NOTE_ALREADY_ORIGINAL);
	assert_false(todo & (OWNER_RESTORE | OWNER_NOTE_LEAVE_CHANGED));
	/* Our own value still there: restored. */
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	todo = exit_(&o, &w);
	assert_true(todo & OWNER_RESTORE);
	assert_false(todo & OWNER_NOTE_LEAVE_CHANGED);
	assert_int_equal(w.knob, 60);
}

/* Override mode takes someone else's value as what the knob should hold; a
 * value equal to our own is no change. */
static void
test_changed_elsewhere(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;

	(void)state;
	start(&o, &w, false);
	assert_false(owner_changed_elsewhere(&o, 60));
	assert_true(owner_changed_elsewhere(&o, 61));
	o.expected = 61;
	assert_false(owner_changed_elsewhere(&o, 61));
}

/* "written" follows what the knob holds as the daemon left it: what it found
 * at start, each write, a value override mode takes over; the exit removes it. */
static void
test_written_follows_the_knob(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_SAVE_WRITTEN);
	assert_true(w.has_written);
	assert_int_equal(w.written, 60);
	write_knob(&o, &w, 23);
	assert_int_equal(w.written, 23);
	/* Override mode takes someone else's 90 as its own. */
	w.knob = 90;
	apply(&w, &o, owner_expect(&o, 90));
	assert_int_equal(w.written, 90);
	assert_false(owner_changed_elsewhere(&o, 90));
	exit_(&o, &w);
	assert_int_equal(w.knob, 60);
	assert_false(w.has_written);
	assert_false(w.has_original);
	/* A dry run that owns nothing records nothing. */
	start(&o, &w, true);
	assert_int_equal(owner_expect(&o, 23), 0);
	assert_false(w.has_written);
}

/* SIGKILL, no restart, then `sysctl -w vm.swappiness=30`, then a start: the
 * knob no longer holds the crashed instance's last write, so 30 is the value
 * to restore, not the crashed instance's 60 (the bug: the stop wrote 60 over
 * the administrator's 30). The same knob without that change restores 60. */
static void
test_start_after_crash_and_change(void **state)
{
	struct world w = { .knob = 60, .cg = 60 }, crashed;
	struct owner o;
	unsigned todo;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	crashed = w; /* SIGKILL: the records stay */
	assert_true(crashed.has_original && crashed.has_written);

	w = crashed;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_false(todo & (OWNER_NOTE_ORIGINAL_STALE | OWNER_SAVE_ORIGINAL));
	assert_int_equal(o.original, 60);
	exit_(&o, &w);
	assert_int_equal(w.knob, 60);

	w = crashed;
	w.knob = 30;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_ORIGINAL_STALE);
	assert_false(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_true(todo & OWNER_SAVE_ORIGINAL);
	assert_int_equal(o.original, 30);
	assert_int_equal(o.expected, 30);
	assert_int_equal(w.original, 30);
	assert_int_equal(w.written, 30);
	write_knob(&o, &w, 23);
	exit_(&o, &w);
	assert_int_equal(w.knob, 30);
	assert_false(w.has_original || w.has_written);
}

/* A crash in the middle of replacing a stale original (after each step of
 * owner.h's order): the next start still takes the knob's 30 as the original,
 * never the crashed instance's 60. */
static void
test_stale_original_replaced_in_order(void **state)
{
	static const unsigned steps[] = { OWNER_REMOVE_ORIGINAL, OWNER_REMOVE_WRITTEN, OWNER_SAVE_WRITTEN,
					  OWNER_SAVE_ORIGINAL };
	const struct world crashed = { .knob = 30, .has_original = true, .original = 60, .has_written = true,
				       .written = 23, .cg = 23 };

	(void)state;
	for (size_t done = 0; done <= sizeof(steps) / sizeof(steps[0]); done++) {
		struct world w = crashed;
		struct owner_records rec = records_of(&w);
		struct owner o;
		unsigned all = owner_start(&o, w.knob, false, &rec), some = 0;

		assert_true(all & OWNER_NOTE_ORIGINAL_STALE);
		for (size_t i = 0; i < done; i++)
			some |= all & steps[i];
		apply(&w, &o, some); /* and SIGKILL */
		start(&o, &w, false);
		assert_int_equal(o.original, 30);
	}
}

/* Records from a version without "written": the original is trusted as
 * before, and "written" is recorded from then on. */
static void
test_start_old_records(void **state)
{
	struct world w = { .knob = 30, .has_original = true, .original = 60, .cg = 30 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_false(todo & (OWNER_NOTE_ORIGINAL_STALE | OWNER_NOTE_WRITTEN_IGNORED | OWNER_SAVE_ORIGINAL));
	assert_int_equal(o.original, 60);
	assert_true(w.has_written);
	assert_int_equal(w.written, 30);
	exit_(&o, &w);
	assert_int_equal(w.knob, 60);
}

/* A "written" record that cannot be trusted (another user's, a FIFO) or read
 * says nothing: the original is trusted, as without one, and it is replaced. */
static void
test_start_untrusted_written(void **state)
{
	static const int errs[] = { -EPERM, -EINVAL, -EIO };

	(void)state;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct owner_records rec = { .original_r = 0, .original = 60, .yielded_r = -ENOENT,
					     .written_r = errs[i], .written = 7 };
		struct owner o;
		unsigned todo = owner_start(&o, 30, false, &rec);

		assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
		assert_true(todo & OWNER_NOTE_WRITTEN_IGNORED);
		assert_true(todo & OWNER_SAVE_WRITTEN);
		assert_false(todo & OWNER_NOTE_ORIGINAL_STALE);
		assert_int_equal(o.original, 60);
	}
}

/* A crashed instance that had yielded: the knob holds someone else's value by
 * design, so "written" is not compared; its original stays, as before. */
static void
test_start_yielded_ignores_written(void **state)
{
	struct world w = { .knob = 77, .has_original = true, .original = 60, .has_yielded = true, .yielded = 23,
			   .has_written = true, .written = 23, .cg = 23 };
	struct owner o;
	unsigned todo;

	(void)state;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_FOUND_YIELDED);
	assert_true(todo & OWNER_NOTE_FOUND_ORIGINAL);
	assert_false(todo & (OWNER_NOTE_ORIGINAL_STALE | OWNER_NOTE_WRITTEN_IGNORED));
	assert_int_equal(o.original, 60);
	assert_true(o.yielded);
}

/* A dry run leaves the records; someone sets the knob meanwhile; the reload
 * out of it finds the knob no longer holds the crashed instance's last write. */
static void
test_reload_out_of_dry_run_finds_stale_original(void **state)
{
	struct world w = { .knob = 23, .has_original = true, .original = 60, .has_written = true, .written = 23,
			   .cg = 23 };
	struct owner o;
	unsigned todo;

	(void)state;
	assert_int_equal(start(&o, &w, true), OWNER_NOTE_DRY_RUN_RECORD);
	assert_true(w.has_written);
	w.knob = 30;
	todo = reload(&o, &w, false);
	assert_true(todo & OWNER_NOTE_ORIGINAL_STALE);
	assert_int_equal(o.original, 30);
	write_knob(&o, &w, 23);
	exit_(&o, &w);
	assert_int_equal(w.knob, 30);
}

/* A reload that ends a yield records the value someone else set as written
 * (and as the original); one into a dry run owns nothing and removes it. */
static void
test_end_yield_written(void **state)
{
	struct world w = { .knob = 60, .cg = 60 };
	struct owner o;

	(void)state;
	start(&o, &w, false);
	write_knob(&o, &w, 23);
	set_elsewhere_and_yield(&o, &w, 77);
	assert_int_equal(w.written, 23);
	assert_true(reload(&o, &w, false) & OWNER_SAVE_WRITTEN);
	assert_int_equal(w.written, 77);
	set_elsewhere_and_yield(&o, &w, 42);
	assert_true(reload(&o, &w, true) & OWNER_REMOVE_WRITTEN);
	assert_false(w.has_written);
}

/* SIGKILL at each point of a write of 23 over 40 (the original 60): before
 * "writing", after it, after the knob write (the gap: "written" still says
 * 40, and the knob's 23 was taken for someone else's value and restored over
 * 60), after "written", after "writing" goes. The restart always restores 60. */
static void
test_crash_at_each_step_of_a_write(void **state)
{
	(void)state;
	for (int kill_after = 0; kill_after <= 4; kill_after++) {
		struct world w = { .knob = 60, .cg = 60 };
		struct owner o;
		unsigned expect;

		start(&o, &w, false);
		write_knob(&o, &w, 40);
		if (kill_after >= 1)
			apply(&w, &o, owner_will_write(&o, 23));
		if (kill_after >= 2)
			w.knob = 23;
		expect = owner_expect(&o, 23);
		if (kill_after >= 3)
			apply(&w, &o, expect & OWNER_SAVE_WRITTEN);
		if (kill_after >= 4)
			apply(&w, &o, expect & OWNER_REMOVE_WRITING);
		/* SIGKILL; systemd restarts the daemon. */
		assert_true(start(&o, &w, false) & OWNER_NOTE_FOUND_ORIGINAL);
		assert_int_equal(o.original, 60);
		assert_false(w.has_writing);
		assert_int_equal(w.written, w.knob);
		exit_(&o, &w);
		assert_int_equal(w.knob, 60);
		assert_false(w.has_original || w.has_written || w.has_writing);
	}
}

/* A write that failed leaves "writing" with the knob at "written": trusted.
 * Neither record matching the knob is a value set since, as without
 * "writing"; one that cannot be trusted or read names nothing as ours. */
static void
test_start_writing_record(void **state)
{
	const struct world crashed = { .knob = 40, .has_original = true, .original = 60, .has_written = true,
				       .written = 40, .has_writing = true, .writing = 23, .cg = 40 };
	struct world w = crashed;
	struct owner_records rec;
	struct owner o;
	unsigned todo;

	(void)state;
	assert_true(start(&o, &w, false) & OWNER_NOTE_FOUND_ORIGINAL);
	assert_int_equal(o.original, 60);
	assert_false(w.has_writing);
	w = crashed;
	w.knob = 30;
	todo = start(&o, &w, false);
	assert_true(todo & OWNER_NOTE_ORIGINAL_STALE);
	assert_int_equal(o.original, 30);
	assert_false(w.has_writing);
	w = crashed;
	w.knob = 23;
	rec = records_of(&w);
	rec.writing_r = -EPERM;
	assert_true(owner_start(&o, w.knob, false, &rec) & OWNER_NOTE_ORIGINAL_STALE);
	assert_int_equal(o.original, 23);
	/* A dry run writes nothing and records nothing. */
	w = (struct world){ .knob = 60, .cg = 60 };
	start(&o, &w, true);
	assert_int_equal(owner_will_write(&o, 23), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_fresh_then_exit),
		cmocka_unit_test(test_reload_out_of_dry_run_knob_unreadable),
		cmocka_unit_test(test_restores),
		cmocka_unit_test(test_start_finds_crash_record),
		cmocka_unit_test(test_start_unreadable_original),
		cmocka_unit_test(test_start_finds_yielded_record),
		cmocka_unit_test(test_start_unreadable_yielded),
		cmocka_unit_test(test_start_untrusted_records),
		cmocka_unit_test(test_start_dry_run),
		cmocka_unit_test(test_yield_then_reload),
		cmocka_unit_test(test_yield_then_exit),
		cmocka_unit_test(test_yield_then_reload_into_dry_run),
		cmocka_unit_test(test_reload_into_dry_run),
		cmocka_unit_test(test_yield_in_dry_run),
		cmocka_unit_test(test_reload_out_of_dry_run),
		cmocka_unit_test(test_reload_out_of_dry_run_finds_records),
		cmocka_unit_test(test_reload_knob_unreadable),
		cmocka_unit_test(test_exit_cases),
		cmocka_unit_test(test_exit_after_unseen_change),
		cmocka_unit_test(test_changed_elsewhere),
		cmocka_unit_test(test_written_follows_the_knob),
		cmocka_unit_test(test_start_after_crash_and_change),
		cmocka_unit_test(test_stale_original_replaced_in_order),
		cmocka_unit_test(test_start_old_records),
		cmocka_unit_test(test_start_untrusted_written),
		cmocka_unit_test(test_start_yielded_ignores_written),
		cmocka_unit_test(test_reload_out_of_dry_run_finds_stale_original),
		cmocka_unit_test(test_end_yield_written),
		cmocka_unit_test(test_crash_at_each_step_of_a_write),
		cmocka_unit_test(test_start_writing_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
