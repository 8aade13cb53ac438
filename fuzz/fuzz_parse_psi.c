/* libFuzzer target: parse_psi on arbitrary bytes. The input is copied into a
 * buffer of exactly its size, not NUL-terminated, as the sampler hands over a
 * read() buffer: ASan then catches any read past buf[len - 1]. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct psi psi, sentinel;
	char *buf;
	int r;

	/* malloc(0) under ASan is a valid zero-byte block: reading it is caught. */
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	memset(&sentinel, 0xa5, sizeof(sentinel));
	sentinel.has_full = true;	      /* a valid bool for UBSan */
	memcpy(&psi, &sentinel, sizeof(psi)); /* padding included */

	r = parse_psi(buf, size, &psi);
	if (r != 0 && r != -EINVAL /* the only documented failure */)
		abort();
	if (r == 0) {
		/* avg10 is a percentage, 0.00..100.00, in hundredths. */
		if (psi.some_avg10_centipct > 10000 || psi.full_avg10_centipct > 10000)
			abort();
	} else if (memcmp(&psi, &sentinel, sizeof(psi)) != 0) {
		abort(); /* out-parameters are filled only on success */
	}
	free(buf);
	return 0;
}
