/* Others who set vm.swappiness: the parsers for a sysctl.d file, a tuned
 * profile and the kernel command line, the sysctl.d precedence and the walk
 * through tuned's includes. Pure: the files are read by coexist_scan.c. */
#ifndef AUTOSWAPPINESS_COEXIST_H
#define AUTOSWAPPINESS_COEXIST_H

#include <stdbool.h>
#include <stddef.h>

enum coexist_source {
	COEXIST_SYSCTL_D, /* a sysctl.d file or /etc/sysctl.conf */
	COEXIST_TUNED,	  /* the active tuned profile */
	COEXIST_CMDLINE,  /* sysctl.vm.swappiness= on the kernel command line */
};

#define COEXIST_MAX_FINDINGS 16 /* more are counted in dropped */
#define COEXIST_PATH_BYTES 256
#define COEXIST_NAME_BYTES 256 /* a file name in a sysctl.d directory, NUL included (NAME_MAX + 1) */
#define COEXIST_PROFILE_BYTES 64 /* a tuned profile's name, NUL included */
#define COEXIST_TUNED_INCLUDES 8 /* profiles named by one include= or active_profile */
/* The active profile, its includes and theirs: "one or two levels" of
 * include=, which is how tuned's shipped profiles nest (virtual-guest includes
 * throughput-performance). Deeper ones are not followed. */
#define COEXIST_TUNED_DEPTH 3

/* One place that sets vm.swappiness. */
struct coexist_finding {
	enum coexist_source source;
	char file[COEXIST_PATH_BYTES];
	unsigned line; /* 1-based; 1 for /proc/cmdline */
	int value;
};

struct coexist_findings {
	struct coexist_finding item[COEXIST_MAX_FINDINGS];
	size_t n;
	size_t dropped; /* findings beyond COEXIST_MAX_FINDINGS */
};

/* A line that sets vm.swappiness. */
struct coexist_hit {
	unsigned line;
	int value;
};

/* One file name in one of the sysctl.d directories (dir: its index in the
 * precedence list, 0 first). */
struct coexist_entry {
	char name[COEXIST_NAME_BYTES];
	unsigned dir;
};

/* What a tuned.conf says: its own vm.swappiness, and the profiles its [main]
 * include= names. */
struct coexist_tuned {
	bool has_value;
	struct coexist_hit hit; /* the last [sysctl] vm.swappiness in the file */
	char includes[COEXIST_TUNED_INCLUDES][COEXIST_PROFILE_BYTES];
	size_t n_includes;
};

/* "sysctl.d", "tuned" or "cmdline" (the OTHER_SOURCE= field). */
const char *coexist_source_name(enum coexist_source source);

/*
 * Parses a value as the kernel parses what is written to a sysctl file
 * (proc_dointvec_minmax: a base-0 number, so "010" is 8, up to a blank after
 * which the rest is ignored, so "10 # low" is 10; "-0" is 0) into 0..200.
 * Returns 0 and sets *ret, or -EINVAL.
 */
int coexist_parse_value(const char *s, size_t len, int *ret);

/*
 * Parses the text of a sysctl.d file as systemd-sysctl and `sysctl --system`
 * read it: "vm.swappiness = N" or "vm/swappiness = N", optionally with a
 * leading '-', comments starting with '#' or ';', whitespace anywhere around.
 * Stores up to max lines that set vm.swappiness to a value the kernel takes
 * (0..200). Returns how many there are (possibly more than max).
 */
size_t coexist_parse_sysctl(const char *text, size_t len, struct coexist_hit *hits, size_t max);

/*
 * Parses a tuned.conf: the last vm.swappiness of its sysctl sections ([sysctl],
 * or any other section with "type = sysctl", as tuned names plugin instances)
 * and the profile names in [main] include=. Names that are not plain profile names
 * (coexist_profile_name_ok) are skipped. Fills *ret.
 */
void coexist_parse_tuned(const char *text, size_t len, struct coexist_tuned *ret);

/*
 * Splits a list of profile names (tuned's active_profile, or an include=
 * value) at whitespace, commas and semicolons into names, skipping the ones
 * that are not plain profile names. Returns how many were stored (at most
 * max).
 */
size_t coexist_split_profiles(const char *text, size_t len, char (*names)[COEXIST_PROFILE_BYTES], size_t max);

/* A profile name that is safe as one path component: letters, digits, '.',
 * '_' and '-', not starting with '.', shorter than COEXIST_PROFILE_BYTES. */
bool coexist_profile_name_ok(const char *name);

/*
 * Parses the kernel command line as the kernel does (Linux 5.8+,
 * process_sysctl_arg): sysctl.vm.swappiness=N or sysctl/vm/swappiness=N,
 * quotes as the kernel strips them, nothing after a bare "--" (init's
 * arguments). Returns true and sets *ret_value to the last such value the
 * kernel takes, false when there is none.
 */
bool coexist_parse_cmdline(const char *text, size_t len, int *ret_value);

/* A name systemd-sysctl reads in a sysctl.d directory: ends in ".conf", does
 * not start with '.', holds no control character. */
bool coexist_sysctl_name_ok(const char *name);

/*
 * systemd-sysctl's precedence: a file in an earlier directory shadows one of
 * the same name in a later directory, and the files are read in the order of
 * their names whatever their directory. Sorts e in place into that order,
 * dropping shadowed entries. Returns the number left.
 */
size_t coexist_sysctl_order(struct coexist_entry *e, size_t n);

/*
 * Reads one tuned profile for coexist_tuned_effective(): fills *ret and the
 * path of its tuned.conf. Returns 0, or a negative errno when there is no
 * such profile or it cannot be read.
 */
typedef int (*coexist_tuned_load_fn)(void *userdata, const char *profile, struct coexist_tuned *ret, char *path,
				     size_t path_len);

/*
 * The vm.swappiness that tuned applies for the active profiles (the text of
 * active_profile): each profile's includes first, in order, then the profile's
 * own [sysctl] section over them; with several active profiles, the later
 * ones win. Includes are followed COEXIST_TUNED_DEPTH levels deep, and a
 * profile that includes itself (directly or not) is not followed again.
 * Returns true and fills *ret (source COEXIST_TUNED) when a profile sets it.
 */
bool coexist_tuned_effective(const char *active, size_t len, coexist_tuned_load_fn load, void *userdata,
			     struct coexist_finding *ret);

/* Appends a finding; counts it in dropped when the list is full. */
void coexist_add(struct coexist_findings *f, enum coexist_source source, const char *file, unsigned line, int value);

/* The first finding (not the kernel command line, which is applied only at
 * boot) that sets exactly value, or NULL. */
const struct coexist_finding *coexist_match(const struct coexist_findings *f, int value);

#endif
