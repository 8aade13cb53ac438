#ifndef AUTOSWAPPINESS_TEXTBUF_H
#define AUTOSWAPPINESS_TEXTBUF_H

/* Text appended into a caller's buffer, printf style. An append that does
 * not fit is dropped and remembered, so a renderer appends without checking
 * each time and reports the overflow once, at the end. Pure: no I/O. */

#include <stdbool.h>
#include <stddef.h>

struct textbuf {
	char *buf;
	size_t len;
	size_t used;
	bool overflow;
};

/* An empty text in buf[len]; buf stays NUL-terminated while len > 0. */
struct textbuf textbuf_init(char *buf, size_t len);

void textbuf_put(struct textbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The length of the text, or -ENOBUFS when an append did not fit. */
int textbuf_end(const struct textbuf *t);

#endif
