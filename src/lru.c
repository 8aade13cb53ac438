#include "lru.h"

#include <errno.h>
#include <string.h>

#include "parse.h"

const char *
lru_name(enum lru_kind kind)
{
	return kind == LRU_MGLRU ? "mglru" : "classic";
}

void
lru_classify(ssize_t r, const char *buf, struct lru_info *ret)
{
	uint32_t caps;
	int e;

	ret->kind = LRU_CLASSIC;
	ret->caps = 0;
	ret->err = 0;
	if (r == -ENOENT) {
		ret->source = LRU_SOURCE_ABSENT;
		return;
	}
	e = r < 0 ? (int)r : parse_lru_gen_enabled(buf, (size_t)r, &caps);
	if (e < 0) {
		ret->source = LRU_SOURCE_BAD;
		ret->err = e;
		return;
	}
	ret->source = LRU_SOURCE_FILE;
	ret->caps = caps;
	ret->kind = caps & LRU_GEN_CORE_BIT ? LRU_MGLRU : LRU_CLASSIC;
}

/* A release goes into a metric's label and a JSON string unescaped: printable
 * characters only, no blank, quote or backslash (uname -r never has them). */
int
lru_set_release(struct lru_info *ret, const char *buf, size_t len)
{
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (len == 0 || len >= sizeof(ret->release))
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (buf[i] <= ' ' || buf[i] > '~' || buf[i] == '"' || buf[i] == '\\')
			return -EINVAL;
	memcpy(ret->release, buf, len);
	ret->release[len] = '\0';
	return 0;
}
