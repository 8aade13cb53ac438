#include "textbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

struct textbuf
textbuf_init(char *buf, size_t len)
{
	struct textbuf t = { .buf = buf, .len = len, .used = 0, .overflow = false };

	if (len > 0)
		buf[0] = '\0';
	return t;
}

void
textbuf_put(struct textbuf *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->len - t->used) {
		t->overflow = true;
		return;
	}
	t->used += (size_t)n;
}

int
textbuf_end(const struct textbuf *t)
{
	return t->overflow ? -ENOBUFS : (int)t->used;
}
