/* Which LRU the kernel reclaims with, the classic two lists or the multi-gen
 * LRU (MGLRU), and the kernel's release. Under the multi-gen LRU vm.swappiness
 * and the workingset counters mean something else (DESIGN.md; autoswappiness(8),
 * THE WORKINGSET POLICY), and root can switch it at run time through
 * /sys/kernel/mm/lru_gen/enabled: the daemon reads that file at start and at
 * every poll. src/lru.c is pure (what a read means); src/lru_watch.c reads. */
#ifndef AUTOSWAPPINESS_LRU_H
#define AUTOSWAPPINESS_LRU_H

#include <stdint.h>
#include <sys/types.h>

/* Bit 0 of lru_gen/enabled is LRU_GEN_CORE, the multi-gen LRU itself; the
 * others are optional parts of it (mm/vmscan.c, enum lru_gen_caps). */
#define LRU_GEN_CORE_BIT 0x1u
/* struct utsname's release, with its NUL (__NEW_UTS_LEN + 1). */
#define LRU_RELEASE_BYTES 65

enum lru_kind {
	LRU_CLASSIC,
	LRU_MGLRU,
};

/* What /sys/kernel/mm/lru_gen/enabled said. */
enum lru_source {
	LRU_SOURCE_ABSENT, /* no such file: a kernel built without the multi-gen LRU */
	LRU_SOURCE_FILE,   /* read: caps holds its value */
	LRU_SOURCE_BAD,	   /* unreadable, not a regular file, too long or not a number: taken as classic */
};

struct lru_info {
	enum lru_kind kind;
	enum lru_source source;
	uint32_t caps;			 /* LRU_SOURCE_FILE: the file's value */
	int err;			 /* LRU_SOURCE_BAD: a negative errno (-EINVAL: not a number) */
	char release[LRU_RELEASE_BYTES]; /* the kernel's release (uname -r); "" when unknown */
};

/* Returns "classic" or "mglru". */
const char *lru_name(enum lru_kind kind);

/*
 * Fills everything but release in *ret from one read of lru_gen/enabled: r is
 * the length read into buf, or a negative errno (-ENOENT: no such file, which
 * means classic). A failure or garbage is LRU_SOURCE_BAD and classic.
 */
void lru_classify(ssize_t r, const char *buf, struct lru_info *ret);

/*
 * Keeps a kernel release read from a file (its trailing newline dropped) in
 * *ret. Returns 0, or -EINVAL when it is empty, too long or holds a character
 * that is not printable, a blank, a quote or a backslash (*ret is then left
 * alone).
 */
int lru_set_release(struct lru_info *ret, const char *buf, size_t len);

#endif
