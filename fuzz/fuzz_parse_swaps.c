/* libFuzzer target: parse_swaps on arbitrary bytes, copied into a buffer of
 * exactly their size, not NUL-terminated, as the sampler hands over a read()
 * buffer: ASan then catches any read past buf[len - 1]. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct swaps sw, sentinel;
	char *buf;
	int r;

	/* malloc(0) under ASan is a valid zero-byte block: reading it is caught. */
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	memset(&sentinel, 0xa5, sizeof(sentinel));
	memcpy(&sw, &sentinel, sizeof(sw));

	r = parse_swaps(buf, size, &sw);
	if (r == 0) {
		/* zram counts "of which" devices; one device per line after the header. */
		if (sw.zram > sw.devices || sw.devices > size)
			abort();
	} else if (r != -EINVAL || memcmp(&sw, &sentinel, sizeof(sw)) != 0) {
		abort(); /* the only documented failure; *ret filled only on success */
	}
	free(buf);
	return 0;
}
