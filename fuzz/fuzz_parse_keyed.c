/* libFuzzer target: parse_keyed_u64 on arbitrary bytes with the vmstat keys the
 * sampler asks for, plus a key that is a prefix of another real key
 * (nr_free_pages / nr_free_pages_blocks). The input is copied into a buffer of
 * exactly its size, not NUL-terminated; values[] is exactly n long. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = {
	"workingset_refault_anon", "workingset_refault_file", /* what sample.c asks for */
	"pgscan_kswapd",	   "pgscan_direct",	      "pgsteal_kswapd", "pgsteal_direct", "pswpin", "pswpout",
	"nr_free_pages",
};
#define NKEYS	 (sizeof(keys) / sizeof(keys[0]))
#define SENTINEL UINT64_C(0xa5a5a5a5a5a5a5a5)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t *values;
	uint32_t found;
	char *buf;

	/* malloc(0) under ASan is a valid zero-byte block: reading it is caught. */
	buf = malloc(size);
	values = malloc(NKEYS * sizeof(*values));
	if (!buf || !values)
		abort();
	memcpy(buf, data, size);

	/* Every prefix of the key list, so that n is exercised too. */
	for (size_t n = 0; n <= NKEYS; n++) {
		for (size_t i = 0; i < NKEYS; i++)
			values[i] = SENTINEL;
		found = parse_keyed_u64(buf, size, keys, n, values);
		if (n < 32 && (found >> n) != 0)
			abort(); /* a bit for a key that was not asked for */
		for (size_t i = 0; i < NKEYS; i++)
			if (!(found & (UINT32_C(1) << i)) && values[i] != SENTINEL)
				abort(); /* written without its bit: documented as skipped */
	}
	free(values);
	free(buf);
	return 0;
}
