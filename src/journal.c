#include "journal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

static bool use_journal;
static bool verbose_logs;

/* systemd sets JOURNAL_STREAM to "DEV:INODE" of the stream it connected to
 * stderr; if stderr is still that stream, structured records can go to journald
 * directly (see systemd.exec(5)). */
static bool
stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(STDERR_FILENO, &st) < 0)
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

void
journal_init(enum journal_target target, bool verbose)
{
	use_journal = target == JOURNAL_AUTO && stderr_is_journal();
	verbose_logs = verbose;
}

void
journal_set_verbose(bool verbose)
{
	verbose_logs = verbose;
}

static const char *
priority_name(int priority)
{
	static const char *const names[] = { "emerg", "alert", "crit", "error", "warning", "notice", "info", "debug" };

	return priority >= 0 && priority <= LOG_DEBUG ? names[priority] : "?";
}

/* At most this many fields in one record (MESSAGE, PRIORITY, MESSAGE_ID, the
 * identifier and up to fourteen decision fields). */
#define MAX_FIELDS 24
#define FIELD_BYTES 192

struct record {
	struct iovec iov[MAX_FIELDS];
	char buf[MAX_FIELDS][FIELD_BYTES];
	int n;
};

static void __attribute__((format(printf, 2, 3)))
add(struct record *rec, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (rec->n >= MAX_FIELDS)
		return;
	va_start(ap, fmt);
	len = vsnprintf(rec->buf[rec->n], FIELD_BYTES, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len >= FIELD_BYTES)
		len = FIELD_BYTES - 1;
	rec->iov[rec->n].iov_base = rec->buf[rec->n];
	rec->iov[rec->n].iov_len = (size_t)len;
	rec->n++;
}

/* Sends rec (whose first field is MESSAGE=) to journald, or prints it to stderr
 * as "autoswappiness: <priority>: message" with the other fields when verbose. */
static void
emit(int priority, struct record *rec, int first_extra)
{
	if (priority == LOG_DEBUG && !verbose_logs)
		return;
	if (use_journal) {
		add(rec, "PRIORITY=%d", priority);
		add(rec, "SYSLOG_IDENTIFIER=autoswappiness");
		/* A failure to log must never stop the loop; there is nobody to tell. */
		(void)sd_journal_sendv(rec->iov, rec->n);
		return;
	}
	fprintf(stderr, "autoswappiness: %s: %.*s", priority_name(priority), (int)rec->iov[0].iov_len - 8,
		(const char *)rec->iov[0].iov_base + 8);
	if (verbose_logs)
		for (int i = first_extra; i < rec->n; i++)
			fprintf(stderr, " %.*s", (int)rec->iov[i].iov_len, (const char *)rec->iov[i].iov_base);
	fputc('\n', stderr);
}

static void
add_message(struct record *rec, const char *fmt, va_list ap)
{
	char msg[FIELD_BYTES - 8];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	add(rec, "MESSAGE=%s", msg);
}

void
journal_log(int priority, const char *msgid, const char *fmt, ...)
{
	struct record rec;
	va_list ap;

	rec.n = 0;
	va_start(ap, fmt);
	add_message(&rec, fmt, ap);
	va_end(ap);
	if (msgid)
		add(&rec, "MESSAGE_ID=%s", msgid);
	emit(priority, &rec, 1);
}

void
journal_decision(int priority, const char *msgid, const struct journal_decision *d, const char *fmt, ...)
{
	const struct policy_result *r = d->result;
	struct record rec;
	va_list ap;

	rec.n = 0;
	va_start(ap, fmt);
	add_message(&rec, fmt, ap);
	va_end(ap);
	add(&rec, "MESSAGE_ID=%s", msgid);
	add(&rec, "SWAPPINESS=%d", d->swappiness);
	add(&rec, "PREVIOUS=%d", d->previous);
	add(&rec, "POLICY=%s", d->policy);
	if (r) {
		add(&rec, "APP_CENTILE=%d", r->app_centile);
		add(&rec, "SWAP_CENTILE=%d", r->swap_centile);
		add(&rec, "MAPPED_RATIO=%d", r->mapped_ratio);
		add(&rec, "DISTRESS=%d", r->distress);
		add(&rec, "SWAP_TENDENCY=%d", r->swap_tendency);
		add(&rec, "REFAULT_FILE_PPS=%llu", (unsigned long long)r->file_refault_pps);
		add(&rec, "REFAULT_ANON_PPS=%llu", (unsigned long long)r->anon_refault_pps);
		add(&rec, "SWAPIN_PPS=%llu", (unsigned long long)r->swapin_pps);
		add(&rec, "SCAN_PPS=%llu", (unsigned long long)r->scan_pps);
	}
	add(&rec, "REASON=%s", d->reason);
	emit(priority, &rec, 1);
}
