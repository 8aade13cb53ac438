/* Who owns vm.swappiness: the original value to restore, a yield to someone
 * else, a dry run, and the records that carry these across a crash. Pure: each
 * transition updates the struct and returns what the caller must do (write
 * records, restore the knob); it does no I/O itself. */
#ifndef AUTOSWAPPINESS_OWNER_H
#define AUTOSWAPPINESS_OWNER_H

#include <stdbool.h>

struct owner {
	int original;  /* what to restore on exit */
	int expected;  /* what the knob should hold: our last write, or what we found;
			  recorded as "written" while the knob is ours */
	int writing;   /* the value about to be written, recorded as "writing" before */
	bool owns_knob; /* the original is recorded: restore it on exit */
	bool yielded;  /* someone else set the knob: hands off until reload */
	bool dry_run;
	int dry_value; /* the value a dry run pretends to have written */
	int cg_value;  /* what the memory cgroups that follow the knob hold */
};

/* The records found in the state directory (knob_record_load's results):
 * each r is 0 (value holds the record), -ENOENT (none), -EPERM (not a file
 * only root controls: never trusted, the why says why, for the log) or another
 * negative errno (unreadable). */
struct owner_records {
	int original_r, original;
	int yielded_r, yielded;
	int written_r, written; /* -ENOENT also from a version that did not keep it */
	int writing_r, writing; /* likewise; only a readable one of root's counts */
	char original_why[80], yielded_why[80], written_why[80], writing_why[80];
};

/*
 * What a transition asks the caller to do, in this order: write o->original to
 * the knob (and stop there if that fails: the records stay for the next start);
 * make the cgroups that follow go to o->original; remove the "original"
 * record; remove the "written" record; record o->expected as written; remove
 * the "writing" record; record o->original; remove the "yielded" record;
 * record o->cg_value as yielded (OWNER_SAVE_WRITING, o->writing as writing,
 * comes alone). The OWNER_NOTE_* bits only say what happened, for the log.
 *
 * "written" says what the knob held as the daemon left it, so that a start
 * after a crash can tell the crashed instance's last write (its original is
 * restored) from a value someone set since (that value is the original). It is
 * recorded before "original" and removed after it: a crash in between leaves
 * no "original", and the knob's value becomes the original, as it should.
 * "writing" is recorded before each write of the knob (owner_will_write) and
 * removed once "written" holds that value: a crash between the write and
 * "written" leaves the knob at "writing", still the crashed instance's own.
 */
enum {
	OWNER_RESTORE = 1u << 0,
	OWNER_FOLLOW_ORIGINAL = 1u << 1,
	OWNER_REMOVE_ORIGINAL = 1u << 2,
	OWNER_SAVE_ORIGINAL = 1u << 3,
	OWNER_REMOVE_YIELDED = 1u << 4,
	OWNER_SAVE_YIELDED = 1u << 5,
	OWNER_REMOVE_WRITTEN = 1u << 6,
	OWNER_SAVE_WRITTEN = 1u << 7,
	OWNER_NOTE_CLAIMED = 1u << 8,	       /* took charge of the knob, from the records */
	OWNER_NOTE_FOUND_ORIGINAL = 1u << 9,   /* a crashed instance's original wins */
	OWNER_NOTE_FOUND_YIELDED = 1u << 10,   /* a crashed instance had yielded: so do we */
	OWNER_NOTE_DRY_RUN_RECORD = 1u << 11,  /* a dry run found an original and leaves it */
	OWNER_NOTE_LEAVE_YIELDED = 1u << 12,   /* exit leaves someone else's value */
	OWNER_NOTE_ALREADY_ORIGINAL = 1u << 13, /* exit finds the original in place */
	OWNER_NOTE_LEAVE_CHANGED = 1u << 14,   /* exit finds a value someone else set since the last poll */
	OWNER_NOTE_ORIGINAL_STALE = 1u << 15,  /* the knob no longer holds the crashed instance's
						  last write: its original is dropped */
	OWNER_NOTE_WRITTEN_IGNORED = 1u << 16, /* "written" untrusted or unreadable: the original
						  is trusted, as without the record */
	OWNER_REMOVE_WRITING = 1u << 17,
	OWNER_SAVE_WRITING = 1u << 18,
};

/* Start with the knob holding knob_value. A real run takes charge (records
 * left by an instance that did not exit cleanly win, the original only while
 * the knob holds what that instance last wrote or was about to write
 * ("written" or "writing"), or without a "written" record,
 * as an older version left them); a dry run owns nothing and leaves the
 * records for the next real start. */
unsigned owner_start(struct owner *o, int knob_value, bool dry_run, const struct owner_records *rec);

/* Whether knob_value means someone else set the knob. A dry run watches too
 * while there is something to restore (after a reload into it). */
bool owner_changed_elsewhere(const struct owner *o, int knob_value);

/* The daemon is about to write value to the knob. Returns OWNER_SAVE_WRITING
 * when the knob is ours, else 0. */
unsigned owner_will_write(struct owner *o, int value);

/* From now on the knob should hold value: the daemon wrote it, or, in override
 * mode, takes someone else's value as its own. Returns OWNER_SAVE_WRITTEN |
 * OWNER_REMOVE_WRITING when the knob is ours, else 0. */
unsigned owner_expect(struct owner *o, int value);

/* Someone else set the knob to knob_value: hands off until a reload, also
 * across a crash and restart. */
unsigned owner_yield(struct owner *o, int knob_value);

/* A reload, with dry_run now on or off and the knob holding knob_value
 * (negative: unreadable, then only the dry-run flag changes). It ends a yield
 * (someone else's value becomes the original); out of a dry run it takes
 * charge if nothing is owned yet (with the knob unreadable, owner_must_claim
 * says so until a poll can); into one it pretends from knob_value. */
unsigned owner_reload(struct owner *o, bool dry_run, int knob_value, const struct owner_records *rec);

/* Whether a real run owns nothing yet: a reload out of a dry run could not
 * read the knob. The next poll that reads it claims it (owner_claim), before
 * anything is written. */
bool owner_must_claim(const struct owner *o);

/* Takes charge of the knob holding knob_value, as a real start does (the
 * records win). Returns the OWNER_ bits to carry out. */
unsigned owner_claim(struct owner *o, int knob_value, const struct owner_records *rec);

/* Whether the exit writes the original back (unless the knob holds it
 * already, or someone else set it since the last poll): the knob is ours and
 * nobody else has set it since. A dry run
 * that never owned it restores nothing; one reloaded from a real run does. */
bool owner_restores(const struct owner *o);

/* The knob's value as the regulator should see it. */
int owner_current(const struct owner *o, int knob_value);

/* The exit, with the knob holding knob_value (negative: unreadable). It writes the
 * original back only over the daemon's own last value (o->expected): a value someone
 * else set since the last poll stays, as after a yield. */
unsigned owner_exit(const struct owner *o, int knob_value);

#endif
