#include "ownership.h"

#include <errno.h>
#include <string.h>

#include "fileio.h"
#include "journal.h"
#include "kpath.h"

static void
remove_record(const struct ownership_io *io, enum knob_record rec)
{
	int r;

	r = knob_record_remove(io->state_fd, rec);
	if (r < 0)
		journal_log(LOG_WARNING, MSGID_ERROR, "failed to remove '%s/%s': %s", io->state_dir,
			    knob_record_name(rec), strerror(-r));
}

static void
save_record(const struct ownership_io *io, enum knob_record rec, int value, const char *consequence)
{
	int r;

	r = knob_record_save(io->state_fd, rec, value);
	if (r < 0)
		journal_log(LOG_WARNING, MSGID_ERROR, "failed to record the %s in '%s/%s': %s; %s",
			    rec == KNOB_RECORD_YIELDED ? "yield" : "original value", io->state_dir,
			    knob_record_name(rec), strerror(-r), consequence);
}

/* Records value as the one the knob holds as the daemon left it ("written")
 * or is about to ("writing"). A failure removes the record (a stale "written"
 * would have a restart after a crash take the crashed instance's own write for
 * someone else's; none has it trust "original", as before there was one; a
 * stale "writing" could match a value set since) and is logged once until it
 * changes in *last. */
static void
save_tracking(const struct ownership_io *io, enum knob_record rec, int value, int *last)
{
	const char *name = knob_record_name(rec);
	int r;

	r = knob_record_save(io->state_fd, rec, value);
	if (r == 0) {
		journal_log_once(last, 0, LOG_INFO, NULL, "recording in '%s/%s' works again", io->state_dir, name);
		return;
	}
	remove_record(io, rec);
	if (rec == KNOB_RECORD_WRITTEN)
		journal_log_once(last, r, LOG_WARNING, MSGID_ERROR,
				 "failed to record the value written in '%s/written': %s; a restart after a crash "
				 "trusts '%s/original' whatever the knob holds",
				 io->state_dir, strerror(-r), io->state_dir);
	else
		journal_log_once(last, r, LOG_WARNING, MSGID_ERROR,
				 "failed to record the value about to be written in '%s/%s': %s; a restart after a "
				 "crash right after the write takes that value for the original",
				 io->state_dir, name, strerror(-r));
}

/* The records an instance that did not exit cleanly left behind. */
static void
load_records(const struct ownership_io *io, struct owner_records *rec)
{
	rec->original_r = knob_record_load(io->state_fd, KNOB_RECORD_ORIGINAL, &rec->original, rec->original_why,
					   sizeof(rec->original_why));
	rec->yielded_r = knob_record_load(io->state_fd, KNOB_RECORD_YIELDED, &rec->yielded, rec->yielded_why,
					  sizeof(rec->yielded_why));
	rec->written_r = knob_record_load(io->state_fd, KNOB_RECORD_WRITTEN, &rec->written, rec->written_why,
					  sizeof(rec->written_why));
	rec->writing_r = knob_record_load(io->state_fd, KNOB_RECORD_WRITING, &rec->writing, rec->writing_why,
					  sizeof(rec->writing_why));
}

/* Why a record was not used, for the log. */
static const char *
record_error(int r, const char *why)
{
	if (r == -EPERM && why[0])
		return why;
	if (r == -EINVAL)
		return "does not hold a value 0..200 as the daemon writes it";
	return fileio_strerror(r);
}

/* Writes the original value back on exit. Returns false when that failed. */
static bool
restore_knob(const struct ownership_io *io, const struct owner *o, int knob_value)
{
	int r, readback;

	r = knob_write(io->knob, o->original, &readback);
	if (r < 0) {
		journal_log(LOG_ERR, MSGID_ERROR, "failed to restore '%s' to %d: %s", KPATH_SWAPPINESS,
			    o->original, strerror(-r));
		return false;
	}
	struct journal_decision jd = { .policy = io->policy,
				       .swappiness = o->original,
				       .previous = knob_value,
				       .result = NULL,
				       .reason = "restore the original value on exit" };

	journal_decision(LOG_NOTICE, MSGID_RESTORE, &jd, "restored swappiness %d", o->original);
	/* Their value stands: the exit writes over no one (owner.h). */
	knob_log_readback(io->knob, o->original, readback);
	return true;
}

/* Does what an ownership transition asks for, in owner.h's order. Returns false
 * when the restore failed: the records then stay for the next start. */
static bool
perform(const struct ownership_io *io, const struct owner *o, unsigned todo, int knob_value)
{
	int written_err = 0; /* a transition's failure is always logged */

	if ((todo & OWNER_RESTORE) && !restore_knob(io, o, knob_value))
		return false;
	if (todo & OWNER_FOLLOW_ORIGINAL)
		io->follow(io->userdata, o->original);
	if (todo & OWNER_REMOVE_ORIGINAL)
		remove_record(io, KNOB_RECORD_ORIGINAL);
	if (todo & OWNER_REMOVE_WRITTEN)
		remove_record(io, KNOB_RECORD_WRITTEN);
	if (todo & OWNER_SAVE_WRITTEN)
		save_tracking(io, KNOB_RECORD_WRITTEN, o->expected, &written_err);
	if (todo & OWNER_REMOVE_WRITING)
		remove_record(io, KNOB_RECORD_WRITING);
	if (todo & OWNER_SAVE_ORIGINAL)
		save_record(io, KNOB_RECORD_ORIGINAL, o->original, "a crash would lose it");
	if (todo & OWNER_REMOVE_YIELDED)
		remove_record(io, KNOB_RECORD_YIELDED);
	if (todo & OWNER_SAVE_YIELDED)
		save_record(io, KNOB_RECORD_YIELDED, o->cg_value, "a restart after a crash would write again");
	return true;
}

/* Says which "original" record a transition found (before it is acted on). */
static void
log_original_record(const struct ownership_io *io, const struct owner *o, unsigned todo,
		    const struct owner_records *rec)
{
	if (todo & OWNER_NOTE_WRITTEN_IGNORED)
		journal_log(LOG_WARNING, MSGID_ERROR, "ignoring '%s/written': %s; trusting '%s/original'",
			    io->state_dir, record_error(rec->written_r, rec->written_why), io->state_dir);
	if (todo & OWNER_NOTE_FOUND_ORIGINAL)
		journal_log(LOG_NOTICE, NULL,
			    "found '%s/original' = %d from an instance that did not exit cleanly; will restore that",
			    io->state_dir, rec->original);
	else if (todo & OWNER_NOTE_ORIGINAL_STALE)
		journal_log(LOG_NOTICE, NULL,
			    "found '%s/original' = %d from an instance that did not exit cleanly, but %s holds %d, "
			    "not its last write %d ('%s/written'): someone else set it since; recording %d as the "
			    "original",
			    io->state_dir, rec->original, KPATH_SWAPPINESS, o->original, rec->written, io->state_dir,
			    o->original);
	else if ((todo & OWNER_NOTE_CLAIMED) && rec->original_r != -ENOENT)
		journal_log(LOG_WARNING, MSGID_ERROR, "ignoring '%s/original': %s; recording %d as the original",
			    io->state_dir, record_error(rec->original_r, rec->original_why), o->original);
	if (todo & OWNER_NOTE_DRY_RUN_RECORD)
		journal_log(LOG_NOTICE, NULL,
			    "found '%s/original' = %d from an instance that did not exit cleanly; a dry run leaves "
			    "it for the next real start",
			    io->state_dir, rec->original);
}

/* Says that a transition found a "yielded" record and keeps off the knob. */
static void
log_yielded_record(const struct ownership_io *io, unsigned todo, const struct owner_records *rec, int knob_value)
{
	if ((todo & OWNER_NOTE_CLAIMED) && rec->yielded_r == -EPERM)
		journal_log(LOG_WARNING, MSGID_ERROR, "ignoring '%s/yielded': %s; regulating, and removing it",
			    io->state_dir, record_error(rec->yielded_r, rec->yielded_why));
	if (!(todo & OWNER_NOTE_FOUND_YIELDED))
		return;
	if (rec->yielded_r < 0)
		journal_log(LOG_WARNING, MSGID_ERROR, "cannot read '%s/yielded': %s; yielding all the same",
			    io->state_dir, record_error(rec->yielded_r, rec->yielded_why));
	journal_log(LOG_NOTICE, NULL,
		    "found '%s/yielded' from an instance that did not exit cleanly: someone else set %s; leaving it "
		    "at %d until reload",
		    io->state_dir, KPATH_SWAPPINESS, knob_value);
}

/* Runs an ownership transition's effects with the records it was given. */
static void
perform_with_records(const struct ownership_io *io, const struct owner *o, unsigned todo,
		     const struct owner_records *rec, int knob_value)
{
	log_original_record(io, o, todo, rec);
	perform(io, o, todo, knob_value);
	log_yielded_record(io, todo, rec, knob_value);
}

void
ownership_start(const struct ownership_io *io, struct owner *o, int knob_value, bool dry_run)
{
	struct owner_records rec = { 0 };

	load_records(io, &rec);
	perform_with_records(io, o, owner_start(o, knob_value, dry_run, &rec), &rec, knob_value);
}

void
ownership_reload(const struct ownership_io *io, struct owner *o, bool dry_run, int knob_value)
{
	struct owner_records rec = { 0 };

	load_records(io, &rec);
	perform_with_records(io, o, owner_reload(o, dry_run, knob_value, &rec), &rec, knob_value);
}

void
ownership_claim(const struct ownership_io *io, struct owner *o, int knob_value)
{
	struct owner_records rec = { 0 };

	load_records(io, &rec);
	journal_log(LOG_NOTICE, NULL, "'%s' readable again: taking charge of it at %d", KPATH_SWAPPINESS,
		    knob_value);
	perform_with_records(io, o, owner_claim(o, knob_value, &rec), &rec, knob_value);
}

void
ownership_will_write(struct ownership_io *io, struct owner *o, int value)
{
	if (owner_will_write(o, value) & OWNER_SAVE_WRITING)
		save_tracking(io, KNOB_RECORD_WRITING, value, &io->writing_err);
}

void
ownership_expect(struct ownership_io *io, struct owner *o, int value)
{
	unsigned todo = owner_expect(o, value);

	if (todo & OWNER_SAVE_WRITTEN)
		save_tracking(io, KNOB_RECORD_WRITTEN, value, &io->written_err);
	if (todo & OWNER_REMOVE_WRITING)
		remove_record(io, KNOB_RECORD_WRITING);
}

void
ownership_yield(const struct ownership_io *io, struct owner *o, int knob_value)
{
	perform(io, o, owner_yield(o, knob_value), knob_value);
}

bool
ownership_exit(const struct ownership_io *io, const struct owner *o)
{
	unsigned todo;
	int knob_value;

	if (knob_read(io->knob, &knob_value) < 0)
		knob_value = -1;
	todo = owner_exit(o, knob_value);
	if (todo & OWNER_NOTE_LEAVE_YIELDED)
		journal_log(LOG_NOTICE, NULL, "leaving swappiness at %d as set by someone else", o->expected);
	if (todo & OWNER_NOTE_LEAVE_CHANGED)
		journal_log(LOG_NOTICE, MSGID_EXTERNAL,
			    "%s changed from %d to %d by someone else since the last poll; leaving it at %d", KPATH_SWAPPINESS,
			    o->expected, knob_value, knob_value);
	if (todo & OWNER_NOTE_ALREADY_ORIGINAL)
		journal_log(LOG_INFO, NULL, "swappiness is already the original %d", o->original);
	return perform(io, o, todo, knob_value);
}
