#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum field {
	F_T_MS,
	F_PHASE,
	F_SWAPPINESS,
	F_MEMTOTAL,
	F_MEMFREE,
	F_BUFFERS,
	F_CACHED,
	F_SHMEM,
	F_MAPPED,
	F_SWAPTOTAL,
	F_SWAPFREE,
	F_PGSCAN,
	F_PGSTEAL,
	F_PSWPIN,
	F_PSWPOUT,
	F_REFAULT_ANON,
	F_REFAULT_FILE,
	F_PSI_SOME,
	F_PSI_FULL,
	F_PSI_AVG10,
	F_SWAP_DEVICES,
	F_SWAP_ZRAM,
	F_ZSWAP,
	F_ACTIVATE_ANON,
	F_ACTIVATE_FILE,
	F_MGLRU,
	F_COUNT,
	F_IGNORED = F_COUNT,
};

static const struct {
	const char *name;
	bool required;
} fields[F_COUNT] = {
	[F_T_MS] = {"t_ms", true},
	[F_PHASE] = {"phase", true},
	[F_SWAPPINESS] = {"swappiness", false},
	[F_MEMTOTAL] = {"memtotal_kb", true},
	[F_MEMFREE] = {"memfree_kb", true},
	[F_BUFFERS] = {"buffers_kb", true},
	[F_CACHED] = {"cached_kb", true},
	[F_SHMEM] = {"shmem_kb", true},
	[F_MAPPED] = {"mapped_kb", true},
	[F_SWAPTOTAL] = {"swaptotal_kb", true},
	[F_SWAPFREE] = {"swapfree_kb", true},
	[F_PGSCAN] = {"pgscan", false},
	[F_PGSTEAL] = {"pgsteal", false},
	[F_PSWPIN] = {"pswpin", false},
	[F_PSWPOUT] = {"pswpout", false},
	[F_REFAULT_ANON] = {"refault_anon", false},
	[F_REFAULT_FILE] = {"refault_file", false},
	[F_PSI_SOME] = {"psi_some_us", false},
	[F_PSI_FULL] = {"psi_full_us", false},
	[F_PSI_AVG10] = {"psi_some_avg10_centipct", false},
	[F_SWAP_DEVICES] = {"swap_devices", false},
	[F_SWAP_ZRAM] = {"swap_zram", false},
	[F_ZSWAP] = {"zswap", false},
	[F_ACTIVATE_ANON] = {"activate_anon", false},
	[F_ACTIVATE_FILE] = {"activate_file", false},
	[F_MGLRU] = {"mglru", false},
};

#define TRACE_MAX_COLUMNS 64

/* The next line of buf[*pos..len) without its newline; false at the end. */
static bool
next_line(const char *buf, size_t len, size_t *pos, const char **ret, size_t *ret_len)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*ret = buf + *pos;
	nl = memchr(*ret, '\n', len - *pos);
	*ret_len = nl ? (size_t)(nl - *ret) : len - *pos;
	*pos += *ret_len + (nl ? 1 : 0);
	return true;
}

/* Splits line[0..len) at commas into at most max fields (pointers and lengths).
 * Returns the number of fields, or -1 when there are more than max. */
static int
split(const char *line, size_t len, const char **f, size_t *flen, int max)
{
	int n = 0;
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (n == max)
			return -1;
		f[n] = line + start;
		flen[n] = i - start;
		n++;
		start = i + 1;
	}
	return n;
}

/* A decimal integer >= -1 that fills s[0..len) exactly. */
static int
parse_value(const char *s, size_t len, int64_t *ret)
{
	char tmp[24];
	char *end;
	long long v;

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno || *end || v < -1)
		return -EINVAL;
	*ret = v;
	return 0;
}

/* The phase's index, added if new. */
static int
phase_index(struct trace *t, const char *s, size_t len)
{
	if (len == 0 || len >= TRACE_PHASE_LEN)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return -EINVAL;
	for (unsigned i = 0; i < t->n_phases; i++)
		if (strlen(t->phases[i]) == len && memcmp(t->phases[i], s, len) == 0)
			return (int)i;
	if (t->n_phases == TRACE_MAX_PHASES)
		return -EINVAL;
	memcpy(t->phases[t->n_phases], s, len);
	t->phases[t->n_phases][len] = '\0';
	return (int)t->n_phases++;
}

static uint64_t
u(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

/* The sample the daemon's sampler would have taken; -1 marks what it could not read. */
static void
fill_sample(const int64_t *v, struct trace_row *row)
{
	struct sample *s = &row->s;

	row->t_ms = u(v[F_T_MS]);
	row->swappiness = (int)v[F_SWAPPINESS];
	s->time_us = row->t_ms * 1000u;
	s->mem_total_kib = u(v[F_MEMTOTAL]);
	s->mem_free_kib = u(v[F_MEMFREE]);
	s->buffers_kib = u(v[F_BUFFERS]);
	s->cached_kib = u(v[F_CACHED]);
	s->shmem_kib = u(v[F_SHMEM]);
	s->mapped_kib = u(v[F_MAPPED]);
	s->swap_total_kib = u(v[F_SWAPTOTAL]);
	s->swap_free_kib = u(v[F_SWAPFREE]);
	s->has_vmstat = v[F_PGSCAN] >= 0 && v[F_PGSTEAL] >= 0 && v[F_PSWPIN] >= 0 && v[F_PSWPOUT] >= 0;
	s->pgscan_pages = u(v[F_PGSCAN]);
	s->pgsteal_pages = u(v[F_PGSTEAL]);
	s->pswpin_pages = u(v[F_PSWPIN]);
	s->pswpout_pages = u(v[F_PSWPOUT]);
	s->has_refaults = v[F_REFAULT_ANON] >= 0 && v[F_REFAULT_FILE] >= 0;
	s->refault_anon_pages = u(v[F_REFAULT_ANON]);
	s->refault_file_pages = u(v[F_REFAULT_FILE]);
	s->has_activations = v[F_ACTIVATE_ANON] >= 0 && v[F_ACTIVATE_FILE] >= 0;
	s->activate_anon_pages = u(v[F_ACTIVATE_ANON]);
	s->activate_file_pages = u(v[F_ACTIVATE_FILE]);
	s->has_psi = v[F_PSI_SOME] >= 0;
	s->psi.some_total_us = u(v[F_PSI_SOME]);
	s->psi.has_full = v[F_PSI_FULL] >= 0;
	s->psi.full_total_us = u(v[F_PSI_FULL]);
	s->psi.some_avg10_centipct =
		v[F_PSI_AVG10] < 0 ? 0 : (uint32_t)(v[F_PSI_AVG10] > 10000 ? 10000 : v[F_PSI_AVG10]);
	s->has_swaps = v[F_SWAP_DEVICES] >= 0 && v[F_SWAP_ZRAM] >= 0;
	s->swaps.devices = (unsigned)u(v[F_SWAP_DEVICES]);
	s->swaps.zram = (unsigned)u(v[F_SWAP_ZRAM]);
	s->zswap_enabled = v[F_ZSWAP] == 1;
	/* The LRU the guest ran (lru_gen/enabled bit 0x1): 1 the multi-gen LRU; 0, -1 or no
	 * such column (a trace from before the LRU was recorded: Debian 12's 6.1) the classic one. */
	s->mglru = v[F_MGLRU] == 1;
}

int
trace_parse(const char *buf, size_t len, struct trace *ret, unsigned *errline)
{
	struct trace t = {0};
	enum field cols[TRACE_MAX_COLUMNS];
	const char *f[TRACE_MAX_COLUMNS];
	size_t flen[TRACE_MAX_COLUMNS], pos = 0, cap = 0, llen;
	const char *line;
	int ncols = -1, r = 0;
	unsigned lineno = 0;

	while (next_line(buf, len, &pos, &line, &llen)) {
		int64_t v[F_COUNT];
		int n, ph = -1;

		lineno++;
		if (llen > 0 && line[llen - 1] == '\r')
			llen--;
		if (llen == 0 || line[0] == '#')
			continue;
		n = split(line, llen, f, flen, TRACE_MAX_COLUMNS);
		if (n < 0) {
			r = -EINVAL;
			goto fail;
		}
		if (ncols < 0) {
			bool seen[F_COUNT] = {false};

			for (int i = 0; i < n; i++) {
				cols[i] = F_IGNORED;
				for (int k = 0; k < F_COUNT; k++) {
					if (strlen(fields[k].name) == flen[i] &&
					    memcmp(fields[k].name, f[i], flen[i]) == 0) {
						if (seen[k]) {
							r = -EINVAL; /* a column twice */
							goto fail;
						}
						seen[k] = true;
						cols[i] = (enum field)k;
					}
				}
			}
			for (int k = 0; k < F_COUNT; k++) {
				if (fields[k].required && !seen[k]) {
					r = -EINVAL;
					goto fail;
				}
			}
			ncols = n;
			continue;
		}
		if (n != ncols) {
			r = -EINVAL;
			goto fail;
		}
		for (int k = 0; k < F_COUNT; k++)
			v[k] = -1;
		for (int i = 0; i < n; i++) {
			if (cols[i] == F_IGNORED)
				continue;
			if (cols[i] == F_PHASE)
				r = ph = phase_index(&t, f[i], flen[i]);
			else
				r = parse_value(f[i], flen[i], &v[cols[i]]);
			if (r < 0)
				goto fail;
		}
		/* Time never goes back, and the meminfo columns are always there (the
		 * daemon does not decide without MemTotal). */
		if (v[F_T_MS] < 0 || v[F_MEMTOTAL] <= 0 ||
		    (t.n_rows > 0 && (uint64_t)v[F_T_MS] < t.rows[t.n_rows - 1].t_ms)) {
			r = -EINVAL;
			goto fail;
		}
		if (t.n_rows == cap) {
			size_t ncap = cap ? cap * 2 : 128;
			struct trace_row *nrows = realloc(t.rows, ncap * sizeof(*nrows));

			if (!nrows) {
				r = -ENOMEM;
				goto fail;
			}
			t.rows = nrows;
			cap = ncap;
		}
		memset(&t.rows[t.n_rows], 0, sizeof(t.rows[0]));
		fill_sample(v, &t.rows[t.n_rows]);
		t.rows[t.n_rows].phase = (unsigned)ph;
		t.n_rows++;
	}
	if (t.n_rows == 0) {
		r = -EINVAL; /* no header or no rows */
		goto fail;
	}
	*ret = t;
	return 0;
fail:
	if (errline)
		*errline = lineno;
	free(t.rows);
	return r;
}

int
trace_load(const char *path, struct trace *ret, unsigned *errline)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd, r;

	if (errline)
		*errline = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	/* A trace is tens of KiB; anything over a few MiB is not one. */
	if (!S_ISREG(st.st_mode) || st.st_size > 16 * 1024 * 1024) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			free(buf);
			close(fd);
			return r;
		}
		got += (size_t)n;
	}
	close(fd);
	r = trace_parse(buf, got, ret, errline);
	free(buf);
	return r;
}

void
trace_free(struct trace *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n_rows = 0;
}

int
trace_phase(const struct trace *t, const char *name)
{
	for (unsigned i = 0; i < t->n_phases; i++)
		if (strcmp(t->phases[i], name) == 0)
			return (int)i;
	return -1;
}
