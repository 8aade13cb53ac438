/* One snapshot of the kernel's memory state. */
#ifndef AUTOSWAPPINESS_SAMPLE_H
#define AUTOSWAPPINESS_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"

struct sample {
	uint64_t time_us; /* CLOCK_MONOTONIC when taken */

	/* /proc/meminfo, in KiB */
	uint64_t mem_total_kib;
	uint64_t mem_free_kib;
	uint64_t buffers_kib;
	uint64_t cached_kib;
	uint64_t shmem_kib;
	uint64_t mapped_kib;
	uint64_t swap_total_kib;
	uint64_t swap_free_kib;

	/* /proc/vmstat, cumulative page counts */
	bool has_vmstat;
	uint64_t pgscan_pages; /* kswapd + direct */
	uint64_t pgsteal_pages;
	uint64_t pswpin_pages;
	uint64_t pswpout_pages;
	bool has_refaults; /* workingset_refault_anon/_file: Linux 5.9+ */
	uint64_t refault_anon_pages;
	uint64_t refault_file_pages;
	/* workingset_activate_anon/_file (Linux 5.9+): the refaults whose refault distance
	 * was within the working set, so that more room for their kind would have kept them. */
	bool has_activations;
	uint64_t activate_anon_pages;
	uint64_t activate_file_pages;

	/* /proc/pressure/memory */
	bool has_psi;
	struct psi psi;

	/* /proc/swaps and zswap */
	bool has_swaps;
	struct swaps swaps;
	bool zswap_enabled;

	/* The kernel reclaims with the multi-gen LRU (lru.h): filled by the caller
	 * from lru_gen/enabled, not by sampler_read. */
	bool mglru;
};

struct sampler;

/* Which optional sources a sampler lost; sampler_log_missing() logs each once. */
enum sample_source {
	SAMPLE_SOURCE_VMSTAT = 1 << 0,
	SAMPLE_SOURCE_REFAULTS = 1 << 1,
	SAMPLE_SOURCE_PSI = 1 << 2,
	SAMPLE_SOURCE_SWAPS = 1 << 3,
};

/*
 * Opens the kernel's files (kept open: a poll opens nothing).
 * Returns 0 and sets *ret, or a negative errno when /proc/meminfo cannot be read.
 */
int sampler_new(struct sampler **ret);

/* Closes everything; NULL is fine. */
void sampler_free(struct sampler *s);

/*
 * Takes one snapshot into *ret. Optional sources that fail leave their has_ flag
 * false. Returns 0, or a negative errno when /proc/meminfo cannot be read or has
 * no MemTotal (-ENODATA).
 */
int sampler_read(struct sampler *s, struct sample *ret);

/* The errno of each optional source in the last read (0: it was read). */
struct sample_errors {
	int vmstat, refaults, psi, swaps;
};

/* Returns the SAMPLE_SOURCE_ bits missing in the last read and fills *ret. */
unsigned sampler_missing(const struct sampler *s, struct sample_errors *ret);

/* Logs each optional source that went missing in the last read, or came back,
 * once: *logged holds the SAMPLE_SOURCE_ bits already reported missing. */
void sampler_log_missing(const struct sampler *s, unsigned *logged);

/*
 * The file descriptor of /proc/pressure/memory opened for a PSI trigger
 * ("some STALL_US WINDOW_US"), which signals POLLPRI when tasks stall on memory
 * for stall_us within window_us. Returns the fd (the caller closes it) or a
 * negative errno (-EPERM without CAP_SYS_RESOURCE on kernels before 6.5).
 */
int sampler_psi_trigger(unsigned stall_us, unsigned window_us);

#endif
