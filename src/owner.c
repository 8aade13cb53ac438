#include "owner.h"

#include <errno.h>

/* Which original to restore. The one an instance that did not exit cleanly
 * recorded applies while the knob holds that instance's last write
 * ("written"), the write it was making ("writing": killed before "written"
 * followed), or someone else's value it had yielded to (yielding); any other
 * value was set since (`sysctl -w` while no instance ran), and that value is
 * the original now. Without a "written" record (an older version's) or with
 * one that cannot be trusted, the recorded original is trusted, as before; an
 * untrusted or unreadable "writing" is none. Without a recorded original, the
 * knob's value is it. */
static unsigned
take_original(struct owner *o, int knob_value, const struct owner_records *rec, bool yielding)
{
	/* A value counts only from a record that was read. */
	bool ours = (rec->written_r == 0 && rec->written == knob_value) ||
		    (rec->writing_r == 0 && rec->writing == knob_value);

	if (rec->original_r != 0) {
		o->original = knob_value;
		return OWNER_SAVE_ORIGINAL;
	}
	if (!yielding && rec->written_r == 0 && !ours) {
		o->original = knob_value;
		return OWNER_NOTE_ORIGINAL_STALE | OWNER_REMOVE_ORIGINAL | OWNER_SAVE_ORIGINAL;
	}
	o->original = rec->original;
	if (!yielding && rec->written_r != 0 && rec->written_r != -ENOENT)
		return OWNER_NOTE_FOUND_ORIGINAL | OWNER_NOTE_WRITTEN_IGNORED;
	return OWNER_NOTE_FOUND_ORIGINAL;
}

/* Takes charge of the knob. The records left by an instance that did not exit
 * cleanly win over what the knob holds now: its original (take_original), and
 * its yield (the knob holds someone else's value: keep off it until a reload).
 * What the knob holds is recorded as written in any case. */
static unsigned
claim(struct owner *o, int knob_value, const struct owner_records *rec)
{
	/* A yield record that only root could have made, even one that cannot be
	 * read, says that someone else is in charge; one that others could have
	 * made (a FIFO, a file of another user's) says nothing, and goes. */
	bool yielding = rec->yielded_r != -ENOENT && rec->yielded_r != -EPERM;
	unsigned todo = OWNER_NOTE_CLAIMED | OWNER_SAVE_WRITTEN | OWNER_REMOVE_WRITING;

	o->cg_value = knob_value;
	o->owns_knob = true;
	todo |= take_original(o, knob_value, rec, yielding);
	if (rec->yielded_r == -ENOENT)
		return todo;
	if (rec->yielded_r == -EPERM)
		return todo | OWNER_REMOVE_YIELDED;
	if (rec->yielded_r == 0)
		o->cg_value = rec->yielded;
	o->yielded = true;
	o->expected = knob_value;
	return todo | OWNER_NOTE_FOUND_YIELDED;
}

unsigned
owner_start(struct owner *o, int knob_value, bool dry_run, const struct owner_records *rec)
{
	*o = (struct owner){
		.original = knob_value,
		.expected = knob_value,
		.dry_run = dry_run,
		.dry_value = knob_value,
		.cg_value = knob_value,
	};
	if (!dry_run)
		return claim(o, knob_value, rec);
	/* A dry run never writes, so it restores nothing. */
	return rec->original_r == 0 ? OWNER_NOTE_DRY_RUN_RECORD : 0;
}

bool
owner_changed_elsewhere(const struct owner *o, int knob_value)
{
	return !(o->dry_run && !o->owns_knob) && knob_value != o->expected;
}

unsigned
owner_will_write(struct owner *o, int value)
{
	o->writing = value;
	return o->owns_knob ? OWNER_SAVE_WRITING : 0;
}

unsigned
owner_expect(struct owner *o, int value)
{
	o->expected = value;
	return o->owns_knob ? OWNER_SAVE_WRITTEN | OWNER_REMOVE_WRITING : 0;
}

unsigned
owner_yield(struct owner *o, int knob_value)
{
	o->yielded = true;
	o->expected = knob_value;
	return OWNER_SAVE_YIELDED;
}

/* A reload ends a yield: the value someone else set becomes the original (the
 * one the cgroups that followed go back to, even when the reload turns on a
 * dry run and the knob is left alone), and the old records no longer apply. */
static unsigned
end_yield(struct owner *o, int knob_value)
{
	unsigned todo = OWNER_REMOVE_ORIGINAL;

	o->yielded = false;
	o->expected = knob_value;
	o->dry_value = knob_value;
	o->original = knob_value;
	o->owns_knob = false;
	if (!o->dry_run) {
		o->owns_knob = true;
		todo |= OWNER_SAVE_WRITTEN | OWNER_SAVE_ORIGINAL;
	} else {
		todo |= OWNER_REMOVE_WRITTEN;
	}
	todo |= OWNER_REMOVE_WRITING;
	return todo | OWNER_REMOVE_YIELDED;
}

unsigned
owner_reload(struct owner *o, bool dry_run, int knob_value, const struct owner_records *rec)
{
	bool was_dry_run = o->dry_run;

	o->dry_run = dry_run;
	if (knob_value < 0)
		return 0;
	if (o->yielded)
		return end_yield(o, knob_value);
	if (was_dry_run && !dry_run && !o->owns_knob)
		return owner_claim(o, knob_value, rec);
	if (!was_dry_run && dry_run)
		o->dry_value = knob_value;
	return 0;
}

bool
owner_must_claim(const struct owner *o)
{
	return !o->dry_run && !o->owns_knob && !o->yielded;
}

unsigned
owner_claim(struct owner *o, int knob_value, const struct owner_records *rec)
{
	o->expected = knob_value;
	return claim(o, knob_value, rec);
}

bool
owner_restores(const struct owner *o)
{
	return o->owns_knob && !o->yielded;
}

int
owner_current(const struct owner *o, int knob_value)
{
	return o->dry_run ? o->dry_value : knob_value;
}

unsigned
owner_exit(const struct owner *o, int knob_value)
{
	unsigned todo;

	/* Even after a reload into dry run: what we changed goes back. */
	if (!o->owns_knob)
		return OWNER_FOLLOW_ORIGINAL;
	if (o->yielded)
		todo = OWNER_NOTE_LEAVE_YIELDED;
	else if (knob_value >= 0 && knob_value == o->original)
		todo = OWNER_NOTE_ALREADY_ORIGINAL;
	else if (knob_value >= 0 && knob_value != o->expected)
		/* Someone else set it since our last poll (`sysctl -w` and then a stop):
		 * theirs is the newer wish, whatever on_external_change says; override
		 * would have written over it at the next poll, but there is none. */
		todo = OWNER_NOTE_LEAVE_CHANGED;
	else
		todo = OWNER_RESTORE;
	/* After a yield too: the cgroups that followed us go back. The original
	 * record goes first: a crash in between leaves the yield, which keeps the
	 * next start off the knob, rather than the original alone, which would
	 * have it written back over someone else's value. */
	return todo | OWNER_FOLLOW_ORIGINAL | OWNER_REMOVE_ORIGINAL | OWNER_REMOVE_WRITTEN | OWNER_REMOVE_WRITING |
	       OWNER_REMOVE_YIELDED;
}
