/* Small parsers for kernel files and numbers: pure, no I/O, no allocation. */
#ifndef AUTOSWAPPINESS_PARSE_H
#define AUTOSWAPPINESS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Pressure stall information for one resource ("some" and "full" lines). */
struct psi {
	uint32_t some_avg10_centipct; /* avg10 in hundredths of a percent */
	uint64_t some_total_us;
	uint32_t full_avg10_centipct;
	uint64_t full_total_us;
	bool has_full; /* the "full" line is absent for CPU on old kernels */
};

/*
 * Parses a decimal integer in [min, max] from a NUL-terminated string, allowing
 * leading and trailing blanks (spaces, tabs, one trailing newline).
 * Returns 0 and sets *ret_value, -EINVAL on garbage or trailing text, -ERANGE
 * when outside [min, max] or not representable.
 */
int parse_long(const char *s, long min, long max, long *ret_value);

/* Parses a record as the daemon writes it, "%d\n": decimal digits without a
 * sign, blank or leading zero, then one newline or nothing. Returns 0 and sets
 * *ret_value, -EINVAL for anything else, -ERANGE above max. */
int parse_record_value(const char *s, int max, int *ret_value);

/*
 * Parses a boolean: yes/no, true/false, on/off, 1/0 (case-insensitive).
 * Returns 0 and sets *ret_value, -EINVAL otherwise.
 */
int parse_bool(const char *s, bool *ret_value);

/*
 * Parses a PSI file (/proc/pressure/memory) held in buf[0..len).
 * Returns 0 and fills *ret, -EINVAL when the "some" line is missing or malformed
 * or a "full" line is malformed.
 */
int parse_psi(const char *buf, size_t len, struct psi *ret);

/*
 * Looks up "key value" lines (as in /proc/vmstat) in buf[0..len): for each of the
 * n keys, matched at the start of a line followed by one space, stores the value
 * in values[i] and sets bit i of the returned mask. Lines with other keys, or a
 * malformed value for a wanted key, are skipped (the bit stays clear).
 * Returns the mask of keys found (n must be at most 32).
 */
uint32_t parse_keyed_u64(const char *buf, size_t len, const char *const *keys, size_t n, uint64_t *values);

/* What /proc/swaps says about the swap devices. */
struct swaps {
	unsigned devices;
	unsigned zram; /* of which /dev/zramN: compressed RAM, no disk behind */
};

/*
 * Parses /proc/swaps held in buf[0..len): a header line, then one line per
 * device ("Filename Type Size Used Priority"). Returns 0 and fills *ret,
 * -EINVAL when the header is missing or a line has fewer than five fields.
 */
int parse_swaps(const char *buf, size_t len, struct swaps *ret);

/*
 * Parses the leading "MAJOR.MINOR" of a kernel release string (uname -r).
 * Returns 0 and sets *ret_major and *ret_minor, -EINVAL otherwise.
 */
int parse_kernel_release(const char *release, unsigned *ret_major, unsigned *ret_minor);

/*
 * Parses /sys/kernel/mm/lru_gen/enabled held in buf[0..len): what the kernel
 * prints there ("0x%04x\n", mm/vmscan.c enabled_show) and every number it takes
 * on write (enabled_store's kstrtouint(buf, 0, ...): an optional '+', then hex
 * after 0x, octal after a leading 0, else decimal, and at most one newline).
 * The words y and n it also takes on write are never printed, so they are
 * garbage here. Returns 0 and sets *ret_caps, -EINVAL on empty input, garbage
 * or trailing text, -ERANGE when the number does not fit 32 bits.
 */
int parse_lru_gen_enabled(const char *buf, size_t len, uint32_t *ret_caps);

/*
 * The largest vm.swappiness a kernel of this version accepts: 200 since Linux 5.8
 * (commit c843966c556d, "mm: allow swappiness that prefers reclaiming anon over
 * the file workingset"), 100 before.
 * Returns that limit.
 */
int parse_swappiness_limit(unsigned major, unsigned minor);

#endif
