#include "sample.h"

#include <errno.h>
#include <fcntl.h>
#include <libproc2/meminfo.h>
#include <libproc2/vmstat.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "journal.h"
#include "kpath.h"

/* /proc/vmstat is 4-6 KiB on 6.x kernels and /proc/swaps about 60 bytes a
 * swap area (more with long swap file paths). Both are read whole into buffers
 * that grow; beyond this they are no longer files from the kernel. */
#define PROC_FILE_MAX_BYTES (1024 * 1024)
/* Two lines of about 90 bytes each (Documentation/accounting/psi.rst). */
#define PSI_BUF_BYTES 256

static enum meminfo_item meminfo_items[] = {
	MEMINFO_MEM_TOTAL, MEMINFO_MEM_FREE,   MEMINFO_MEM_BUFFERS, MEMINFO_MEM_CACHED,
	MEMINFO_MEM_SHARED, MEMINFO_MEM_MAPPED, MEMINFO_SWAP_TOTAL,  MEMINFO_SWAP_FREE,
};
enum { MI_TOTAL, MI_FREE, MI_BUFFERS, MI_CACHED, MI_SHMEM, MI_MAPPED, MI_SWAP_TOTAL, MI_SWAP_FREE };

static enum vmstat_item vmstat_items[] = {
	VMSTAT_PGSCAN_KSWAPD, VMSTAT_PGSCAN_DIRECT, VMSTAT_PGSTEAL_KSWAPD,
	VMSTAT_PGSTEAL_DIRECT, VMSTAT_PSWPIN,	     VMSTAT_PSWPOUT,
};
enum { VM_SCAN_KSWAPD, VM_SCAN_DIRECT, VM_STEAL_KSWAPD, VM_STEAL_DIRECT, VM_PSWPIN, VM_PSWPOUT };

/* libproc2 4.0 does not know these (added to the kernel in 5.9). */
static const char *const refault_keys[] = { "workingset_refault_anon", "workingset_refault_file",
					     "workingset_activate_anon", "workingset_activate_file" };

struct sampler {
	struct meminfo_info *meminfo;
	struct vmstat_info *vmstat;
	int vmstat_fd;
	int psi_fd;
	int swaps_fd;
	int zswap_fd;
	struct sample_errors err;
	unsigned missing;
	struct fileio_buf vmstat_buf;
	char psi_buf[PSI_BUF_BYTES];
	struct fileio_buf swaps_buf;
};

/* Opens an optional source of the sampler's; *err gets the errno when it
 * cannot be used. A file that is there but is no regular file (a FIFO bound
 * in its place) is never waited on. */
static int
open_source(const char *path, int *err)
{
	int fd = fileio_open_kernel(path, O_RDONLY);

	if (fd < 0)
		*err = -fd;
	return fd;
}

/* libproc2 opens /proc/meminfo and /proc/vmstat itself, blocking and once for
 * the handle's life (procps 4.0: open(O_RDONLY), then lseek and read at each
 * select): a look first, so that it never opens what would block. Returns 0 or
 * a negative errno (-EBADFD: not a regular file). */
static int
check_libproc2_path(const char *path)
{
	int fd = fileio_open_kernel(path, O_RDONLY);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int
sampler_new(struct sampler **ret)
{
	struct sampler *s;
	int r;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	r = check_libproc2_path(KPATH_MEMINFO);
	if (r == 0)
		r = procps_meminfo_new(&s->meminfo);
	if (r < 0) {
		free(s);
		return r;
	}
	/* Optional sources: their absence is reported by sampler_missing(). */
	r = check_libproc2_path(KPATH_VMSTAT);
	if (r == 0)
		r = procps_vmstat_new(&s->vmstat);
	if (r < 0) {
		s->vmstat = NULL;
		s->err.vmstat = -r;
	}
	s->vmstat_fd = open_source(KPATH_VMSTAT, &s->err.refaults);
	s->psi_fd = open_source(KPATH_PSI_MEMORY, &s->err.psi);
	s->swaps_fd = open_source(KPATH_SWAPS, &s->err.swaps);
	/* Absent when zswap is not built in: then it is simply off; anything but
	 * a regular file there is said once, and counts as off too. */
	s->zswap_fd = open_source(KPATH_ZSWAP_ENABLED, &r);
	if (s->zswap_fd == -EBADFD)
		journal_log(LOG_WARNING, MSGID_ERROR, "cannot read '%s': not a regular file; zswap counts as off",
			    KPATH_ZSWAP_ENABLED);
	*ret = s;
	return 0;
}

void
sampler_free(struct sampler *s)
{
	if (!s)
		return;
	if (s->meminfo)
		procps_meminfo_unref(&s->meminfo);
	if (s->vmstat)
		procps_vmstat_unref(&s->vmstat);
	if (s->vmstat_fd >= 0)
		close(s->vmstat_fd);
	if (s->psi_fd >= 0)
		close(s->psi_fd);
	if (s->swaps_fd >= 0)
		close(s->swaps_fd);
	if (s->zswap_fd >= 0)
		close(s->zswap_fd);
	fileio_buf_free(&s->vmstat_buf);
	fileio_buf_free(&s->swaps_buf);
	free(s);
}

/* Reads a whole small /proc file at offset 0 into buf, NUL-terminated, until
 * end of file. Returns the length or a negative errno (-EFBIG when it does not
 * fit). */
static ssize_t
read_at0(int fd, char *buf, size_t size)
{
	size_t len = 0;

	for (;;) {
		char extra;
		ssize_t n = len < size - 1 ? pread(fd, buf + len, size - 1 - len, (off_t)len)
					   : pread(fd, &extra, 1, (off_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		if (len == size - 1)
			return -EFBIG;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

static void
read_vmstat(struct sampler *s, struct sample *out)
{
	struct vmstat_stack *st;

	if (!s->vmstat)
		return;
	/* select() re-reads the file each call; get() would cache it for a second. */
	st = procps_vmstat_select(s->vmstat, vmstat_items, sizeof(vmstat_items) / sizeof(vmstat_items[0]));
	if (!st) {
		s->err.vmstat = errno ? errno : EIO;
		return;
	}
	s->err.vmstat = 0;
	out->has_vmstat = true;
	out->pgscan_pages = st->head[VM_SCAN_KSWAPD].result.ul_int + st->head[VM_SCAN_DIRECT].result.ul_int;
	out->pgsteal_pages = st->head[VM_STEAL_KSWAPD].result.ul_int + st->head[VM_STEAL_DIRECT].result.ul_int;
	out->pswpin_pages = st->head[VM_PSWPIN].result.ul_int;
	out->pswpout_pages = st->head[VM_PSWPOUT].result.ul_int;
}

static void
read_refaults(struct sampler *s, struct sample *out)
{
	uint64_t v[4];
	uint32_t found;
	ssize_t n;

	if (s->vmstat_fd < 0)
		return;
	n = fileio_pread_all(s->vmstat_fd, &s->vmstat_buf, PROC_FILE_MAX_BYTES);
	if (n < 0) {
		s->err.refaults = (int)-n;
		return;
	}
	found = parse_keyed_u64(s->vmstat_buf.data, (size_t)n, refault_keys, 4, v);
	if ((found & 3) != 3) {
		s->err.refaults = ENOENT;
		return;
	}
	s->err.refaults = 0;
	out->has_refaults = true;
	out->refault_anon_pages = v[0];
	out->refault_file_pages = v[1];
	out->has_activations = (found & 12) == 12;
	out->activate_anon_pages = v[2];
	out->activate_file_pages = v[3];
}

static void
read_psi(struct sampler *s, struct sample *out)
{
	ssize_t n;

	if (s->psi_fd < 0)
		return;
	/* With psi=0 on the kernel command line the file exists but reads fail
	 * with EOPNOTSUPP. */
	n = read_at0(s->psi_fd, s->psi_buf, sizeof(s->psi_buf));
	if (n < 0) {
		s->err.psi = (int)-n;
		return;
	}
	if (parse_psi(s->psi_buf, (size_t)n, &out->psi) < 0) {
		s->err.psi = EINVAL;
		return;
	}
	s->err.psi = 0;
	out->has_psi = true;
}

static void
read_swaps(struct sampler *s, struct sample *out)
{
	char buf[8];
	ssize_t n;

	if (s->swaps_fd >= 0) {
		/* Whole, whatever its length: cut short, the areas past the cut
		 * would not count (and a cut line makes it unparsable). */
		n = fileio_pread_all(s->swaps_fd, &s->swaps_buf, PROC_FILE_MAX_BYTES);
		if (n < 0)
			s->err.swaps = (int)-n;
		else if (parse_swaps(s->swaps_buf.data, (size_t)n, &out->swaps) < 0)
			s->err.swaps = EINVAL;
		else {
			s->err.swaps = 0;
			out->has_swaps = true;
		}
	}
	if (s->zswap_fd >= 0) {
		n = read_at0(s->zswap_fd, buf, sizeof(buf));
		out->zswap_enabled = n > 0 && (buf[0] == 'Y' || buf[0] == 'y' || buf[0] == '1');
	}
}

int
sampler_psi_trigger(unsigned stall_us, unsigned window_us)
{
	char buf[64];
	int fd, len;

	struct statfs sfs;

	fd = open(KPATH_PSI_MEMORY, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Only procfs turns the write into a trigger; on a stand-in file (tests)
	 * it would overwrite the content. */
	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC) {
		close(fd);
		return -ENOTSUP;
	}
	/* The trigger is the write, including its terminating NUL (psi.rst). */
	len = snprintf(buf, sizeof(buf), "some %u %u", stall_us, window_us);
	if (write(fd, buf, (size_t)len + 1) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

int
sampler_read(struct sampler *s, struct sample *ret)
{
	struct sample out = { 0 };
	struct meminfo_stack *st;
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return -errno;
	out.time_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;

	st = procps_meminfo_select(s->meminfo, meminfo_items, sizeof(meminfo_items) / sizeof(meminfo_items[0]));
	if (!st)
		return errno ? -errno : -EIO;
	out.mem_total_kib = st->head[MI_TOTAL].result.ul_int;
	out.mem_free_kib = st->head[MI_FREE].result.ul_int;
	out.buffers_kib = st->head[MI_BUFFERS].result.ul_int;
	out.cached_kib = st->head[MI_CACHED].result.ul_int;
	out.shmem_kib = st->head[MI_SHMEM].result.ul_int;
	out.mapped_kib = st->head[MI_MAPPED].result.ul_int;
	out.swap_total_kib = st->head[MI_SWAP_TOTAL].result.ul_int;
	out.swap_free_kib = st->head[MI_SWAP_FREE].result.ul_int;
	if (out.mem_total_kib == 0)
		return -ENODATA;

	read_vmstat(s, &out);
	read_refaults(s, &out);
	read_psi(s, &out);
	read_swaps(s, &out);

	s->missing = (out.has_vmstat ? 0u : SAMPLE_SOURCE_VMSTAT) | (out.has_refaults ? 0u : SAMPLE_SOURCE_REFAULTS) |
		     (out.has_psi ? 0u : SAMPLE_SOURCE_PSI) | (out.has_swaps ? 0u : SAMPLE_SOURCE_SWAPS);
	*ret = out;
	return 0;
}

unsigned
sampler_missing(const struct sampler *s, struct sample_errors *ret)
{
	*ret = s->err;
	return s->missing;
}

/* Logs a source of the daemon's when it went missing (warning: what the daemon does
 * without it) or came back; via says how it is read ("" or " through libproc2"). */
static void
log_source(unsigned changed, unsigned missing, unsigned source, const char *path, const char *via, int err,
	   const char *without)
{
	if (!(changed & source))
		return;
	if (missing & source)
		journal_log(LOG_WARNING, MSGID_ERROR, "cannot read '%s'%s: %s; %s", path, via, fileio_strerror(-err),
			    without);
	else
		journal_log(LOG_INFO, NULL, "'%s' readable again", path);
}

void
sampler_log_missing(const struct sampler *s, unsigned *logged)
{
	struct sample_errors e;
	unsigned missing = sampler_missing(s, &e);
	unsigned changed = missing ^ *logged;

	log_source(changed, missing, SAMPLE_SOURCE_VMSTAT, KPATH_VMSTAT, " through libproc2", e.vmstat,
		   "reclaim efficiency is not used");
	/* Counters an older kernel lacks: information, not a fault. */
	if (changed & SAMPLE_SOURCE_REFAULTS) {
		if (missing & SAMPLE_SOURCE_REFAULTS)
			journal_log(LOG_INFO, NULL, "no workingset_refault_anon/_file in '%s': %s", KPATH_VMSTAT,
				    e.refaults == ENOENT ? "not in this kernel (5.9+)" : fileio_strerror(-e.refaults));
		else
			journal_log(LOG_INFO, NULL, "workingset refault counters available in '%s'", KPATH_VMSTAT);
	}
	log_source(changed, missing, SAMPLE_SOURCE_PSI, KPATH_PSI_MEMORY, "", e.psi,
		   "distress uses reclaim efficiency only");
	log_source(changed, missing, SAMPLE_SOURCE_SWAPS, KPATH_SWAPS, "", e.swaps, "max = auto assumes disk swap");
	*logged = missing;
}
