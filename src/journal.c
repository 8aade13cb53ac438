#include "journal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "textbuf.h"

static bool use_journal;
static bool verbose_logs;

/* systemd sets JOURNAL_STREAM to "DEV:INODE" of the stream it connected to
 * stderr; if stderr is still that stream, structured records can go to journald
 * directly (see systemd.exec(5)). */
static bool
stderr_is_journal(const struct stat *st)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return false;
	return st->st_dev == dev && st->st_ino == ino;
}

/* journald's native protocol socket (systemd.io/JOURNAL_NATIVE_PROTOCOL). We
 * speak it ourselves over a non-blocking socket: sd_journal_sendv() uses a
 * blocking one, and a stalled journald would then stall the loop and let the
 * watchdog kill the daemon. A record that cannot be sent at once is dropped
 * and counted: when journald is stalled it is lost (the journal stream on
 * stderr is stalled too); when journald has gone (no socket, or nobody at it)
 * it is written to stderr instead, without waiting, so that the restore at
 * exit is still told. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

static int journal_fd = -1;
static unsigned long long dropped;   /* since the last note that said so */
static unsigned long long not_taken; /* since the start: journal_not_taken() */

/* At most this many fields in one record (MESSAGE, PRIORITY, MESSAGE_ID, the
 * identifier and up to fourteen decision fields). */
#define MAX_FIELDS 24
#define FIELD_BYTES 192
/* A reload that fails reports all its errors in the one MESSAGE. */
#define MESSAGE_BYTES 4096
/* The longest line stderr gets: prefix, MESSAGE and every field. */
#define LINE_BYTES (64 + MESSAGE_BYTES + MAX_FIELDS * (FIELD_BYTES + 1))

/* Standard error, when the records go there or journald has gone. A line is
 * one write(2) of the whole of it. Once the daemon has asked for it
 * (journal_stderr_never_block), and whenever the records go to journald, a
 * line never waits for the reader: a socket is sent to with MSG_DONTWAIT, a
 * pipe or a terminal is written through a non-blocking description of its
 * own. A line that does not go out (no room, or no reader) is dropped and
 * counted: in not_taken when stderr is where the records go (a record
 * journald did not take is counted there already), and for a note of how
 * many, which precedes the next line that goes out. What a short write left
 * of a line goes out before anything else, so that no line is ever cut. */
static bool err_nowait;		       /* lines to stderr never wait */
static bool err_socket;		       /* fd 2 was a socket at journal_init() */
static unsigned long long err_dropped; /* lines lost since the last note that said so */
static char err_tail[LINE_BYTES];      /* the rest of a line a short write cut */
static size_t err_tail_at, err_tail_len;

unsigned long long
journal_not_taken(void)
{
	return not_taken;
}

static int
journal_connect(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, JOURNAL_SOCKET, sizeof(JOURNAL_SOCKET));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

void
journal_init(enum journal_target target, bool verbose)
{
	struct stat st;
	bool have_st = fstat(STDERR_FILENO, &st) == 0;

	use_journal = false;
	if (target == JOURNAL_AUTO && have_st && stderr_is_journal(&st)) {
		journal_fd = journal_connect();
		/* Without the native socket, stderr (the journal stream) still works. */
		use_journal = journal_fd >= 0;
	}
	/* Records that journald does not take never wait, and nor do the lines
	 * that then go to stderr instead. */
	err_nowait = use_journal;
	err_socket = have_st && S_ISSOCK(st.st_mode);
	err_dropped = 0;
	err_tail_len = 0;
	verbose_logs = verbose;
}

/*
 * A pipe or a terminal on fd 2 gets a description of its own, opened with
 * O_NONBLOCK, in fd 2's place: setting O_NONBLOCK on the description we were
 * given would change it for every process that shares it (the shell's
 * terminal, the other services on a log pipe). Only those two: a regular file
 * reopened without O_APPEND would be written from offset 0, a socket is sent
 * to with MSG_DONTWAIT, and opening another device node may do things of its
 * own (a watchdog starts when opened). fd 2 itself is replaced, so that
 * whatever else in the process writes there (the C library's fatal messages,
 * libsystemd's own) cannot block either.
 */
int
journal_stderr_never_block(void)
{
	struct stat st;
	int fd, r = 0;

	err_nowait = true;
	if (fstat(STDERR_FILENO, &st) < 0)
		return -errno;
	if (!S_ISFIFO(st.st_mode) && !(S_ISCHR(st.st_mode) && isatty(STDERR_FILENO)))
		return 0;
	fd = open("/proc/self/fd/2", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* dup2() leaves FD_CLOEXEC clear on fd 2, as it was. */
	if (dup2(fd, STDERR_FILENO) < 0)
		r = -errno;
	close(fd);
	return r;
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

struct record {
	struct iovec iov[MAX_FIELDS];
	char buf[MAX_FIELDS][FIELD_BYTES];
	char message[MESSAGE_BYTES];
	int n;
};

static ssize_t
err_write(const char *buf, size_t len)
{
	ssize_t n;

	do {
		if (err_nowait && err_socket)
			n = send(STDERR_FILENO, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		else
			n = write(STDERR_FILENO, buf, len);
	} while (n < 0 && errno == EINTR);
	return n;
}

/* Writes line with one write(2), and keeps what a short write left of it for
 * err_flush(). Returns false when none of it went. */
static bool
err_put(const char *line, size_t len)
{
	ssize_t n = err_write(line, len);

	if (n <= 0)
		return false;
	err_tail_at = 0;
	err_tail_len = len - (size_t)n;
	memcpy(err_tail, line + n, err_tail_len);
	return true;
}

/* Writes what a short write left of the last line. Returns true when none is
 * left. */
static bool
err_flush(void)
{
	while (err_tail_len > 0) {
		ssize_t n = err_write(err_tail + err_tail_at, err_tail_len);

		if (n <= 0)
			return false;
		err_tail_at += (size_t)n;
		err_tail_len -= (size_t)n;
	}
	return true;
}

/* The note of the lines stderr did not take, as journald gets its own. */
static bool
err_note(void)
{
	char note[96];
	int len = snprintf(note, sizeof(note), "autoswappiness: warning: stderr did not keep up: %llu records dropped\n",
			   err_dropped);

	if (len < 0 || (size_t)len >= sizeof(note) || !err_put(note, (size_t)len))
		return false;
	err_dropped = 0;
	return true;
}

/* Prints line to stderr, after the rest of a line a short write cut and the
 * note of the lines lost before it. Returns true when it went out (or began
 * to, its rest kept); false when it was dropped, counted for the note. */
static bool
stderr_print(const char *line, size_t len)
{
	if (err_flush() && (err_dropped == 0 || err_note()) && err_flush() && err_put(line, len))
		return true;
	err_dropped++;
	return false;
}

static int send_native(const struct record *rec);

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

/* Formats rec as the line stderr gets: "autoswappiness: <priority>: message",
 * with the fields from first_extra on when verbose. Returns its length. */
static size_t
stderr_line(int priority, const struct record *rec, int first_extra, char *buf, size_t len)
{
	struct textbuf t = textbuf_init(buf, len);

	textbuf_put(&t, "autoswappiness: %s: %.*s", priority_name(priority), (int)rec->iov[0].iov_len - 8,
		    (const char *)rec->iov[0].iov_base + 8);
	if (verbose_logs)
		for (int i = first_extra; i < rec->n; i++)
			textbuf_put(&t, " %.*s", (int)rec->iov[i].iov_len, (const char *)rec->iov[i].iov_base);
	textbuf_put(&t, "\n");
	return t.used;
}

/* Sends rec to journald, first the note of the records it did not take, if
 * any. Returns 0 or a negative errno (-EAGAIN: stalled; -ENOENT,
 * -ECONNREFUSED, -ENOTCONN: gone). */
static int
send_journal(const struct record *rec)
{
	int r;

	if (journal_fd < 0)
		journal_fd = journal_connect();
	if (journal_fd < 0)
		return journal_fd;
	if (dropped > 0) {
		struct record note;
		char text[128];

		snprintf(text, sizeof(text), "MESSAGE=journald did not keep up: %llu records dropped", dropped);
		note.iov[0] = (struct iovec){ text, strlen(text) };
		note.iov[1] = (struct iovec){ "PRIORITY=4", 10 };
		note.iov[2] = (struct iovec){ "SYSLOG_IDENTIFIER=autoswappiness", 32 };
		note.n = 3;
		if (send_native(&note) == 0)
			dropped = 0;
	}
	r = send_native(rec);
	if (r == -ECONNREFUSED || r == -ENOTCONN) {
		/* journald restarted: its socket is a new one. */
		close(journal_fd);
		journal_fd = journal_connect();
		r = journal_fd >= 0 ? send_native(rec) : journal_fd;
	}
	return r;
}

/* Sends rec (whose first field is MESSAGE=) to journald, or prints it to stderr
 * as "autoswappiness: <priority>: message" with the other fields when verbose. */
static void
emit(int priority, struct record *rec, int first_extra)
{
	static char line[LINE_BYTES];
	int r, fields = rec->n;

	if (!journal_wants(priority))
		return;
	if (!use_journal) {
		if (!stderr_print(line, stderr_line(priority, rec, first_extra, line, sizeof(line))))
			not_taken++;
		return;
	}
	add(rec, "PRIORITY=%d", priority);
	add(rec, "SYSLOG_IDENTIFIER=autoswappiness");
	/* Never wait and never fail the loop for a log record. */
	r = send_journal(rec);
	if (r >= 0)
		return;
	dropped++;
	not_taken++;
	if (r == -ENOENT || r == -ECONNREFUSED || r == -ENOTCONN) {
		/* Gone: to stderr instead, without waiting (counted above already). */
		rec->n = fields; /* PRIORITY and the identifier are in the line */
		(void)stderr_print(line, stderr_line(priority, rec, first_extra, line, sizeof(line)));
	}
}

/* MESSAGE is always the first field, in its own larger buffer. */
static void
add_message(struct record *rec, const char *fmt, va_list ap)
{
	int len;

	memcpy(rec->message, "MESSAGE=", 8);
	len = vsnprintf(rec->message + 8, sizeof(rec->message) - 8, fmt, ap);
	if (len < 0)
		len = 0;
	if ((size_t)len >= sizeof(rec->message) - 8)
		len = (int)sizeof(rec->message) - 9;
	rec->iov[0].iov_base = rec->message;
	rec->iov[0].iov_len = (size_t)len + 8;
	rec->n = 1;
}

/*
 * Sends the fields in the native protocol: "KEY=value\n", or for a value with a
 * newline "KEY\n", its length as 64-bit little endian, the value and "\n".
 * Returns 0 or a negative errno (-EAGAIN when journald is not keeping up).
 */
static int
send_native(const struct record *rec)
{
	struct iovec iov[MAX_FIELDS * 4];
	uint64_t lengths[MAX_FIELDS];
	struct msghdr mh = { .msg_iov = iov };
	size_t n = 0;

	for (int i = 0; i < rec->n; i++) {
		const char *f = rec->iov[i].iov_base;
		size_t len = rec->iov[i].iov_len;
		const char *eq = memchr(f, '=', len);

		if (!eq)
			continue;
		if (memchr(eq + 1, '\n', len - (size_t)(eq + 1 - f))) {
			uint64_t v = len - (size_t)(eq + 1 - f);

			for (int b = 0; b < 8; b++)
				((unsigned char *)&lengths[i])[b] = (unsigned char)(v >> (8 * b));
			iov[n++] = (struct iovec){ (void *)f, (size_t)(eq - f) };
			iov[n++] = (struct iovec){ "\n", 1 };
			iov[n++] = (struct iovec){ &lengths[i], 8 };
			iov[n++] = (struct iovec){ (void *)(eq + 1), (size_t)v };
		} else {
			iov[n++] = (struct iovec){ (void *)f, len };
		}
		iov[n++] = (struct iovec){ "\n", 1 };
	}
	mh.msg_iovlen = n;
	if (sendmsg(journal_fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return -errno;
	return 0;
}

static void logv(int priority, const char *msgid, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

static void record_start(struct record *rec, const char *msgid, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Every record begins so: its MESSAGE=, then its MESSAGE_ID= when it has one. */
static void
record_start(struct record *rec, const char *msgid, const char *fmt, va_list ap)
{
	rec->n = 0;
	add_message(rec, fmt, ap);
	if (msgid)
		add(rec, "MESSAGE_ID=%s", msgid);
}

static void
logv(int priority, const char *msgid, const char *fmt, va_list ap)
{
	struct record rec;

	record_start(&rec, msgid, fmt, ap);
	emit(priority, &rec, 1);
}

bool
journal_wants(int priority)
{
	return priority != LOG_DEBUG || verbose_logs;
}

void
journal_log(int priority, const char *msgid, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	logv(priority, msgid, fmt, ap);
	va_end(ap);
}

bool
journal_log_once(int *last, int r, int priority, const char *msgid, const char *fmt, ...)
{
	va_list ap;

	if (r == *last)
		return false;
	*last = r;
	va_start(ap, fmt);
	logv(priority, msgid, fmt, ap);
	va_end(ap);
	return true;
}

void
journal_other(int priority, const char *msgid, const struct journal_other *o, const char *fmt, ...)
{
	struct record rec;
	va_list ap;

	va_start(ap, fmt);
	record_start(&rec, msgid, fmt, ap);
	va_end(ap);
	if (o) {
		add(&rec, "OTHER_SOURCE=%s", o->source);
		add(&rec, "OTHER_FILE=%s", o->file);
		add(&rec, "OTHER_LINE=%u", o->line);
		add(&rec, "OTHER_VALUE=%d", o->value);
	}
	emit(priority, &rec, 1);
}

void
journal_lru(int priority, const char *msgid, const struct lru_info *lru, const char *fmt, ...)
{
	struct record rec;
	va_list ap;

	va_start(ap, fmt);
	record_start(&rec, msgid, fmt, ap);
	va_end(ap);
	add(&rec, "LRU=%s", lru_name(lru->kind));
	if (lru->release[0])
		add(&rec, "KERNEL=%s", lru->release);
	emit(priority, &rec, 1);
}

void
journal_decision(int priority, const char *msgid, const struct journal_decision *d, const char *fmt, ...)
{
	const struct policy_result *r = d->result;
	struct record rec;
	va_list ap;

	if (!journal_wants(priority))
		return; /* sixteen fields, formatted at every poll that keeps the value */
	va_start(ap, fmt);
	record_start(&rec, msgid, fmt, ap);
	va_end(ap);
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
