/* libFuzzer target: status_parse_state (the state file `autoswappiness status`
 * reads from /run) on arbitrary bytes in an exactly-sized buffer; whatever it
 * accepts must render as human text, JSON and metrics without overflow, and
 * render back to a state file that parses to the same values. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[16384];
	struct status_snapshot s, again;
	char *buf;
	int n;

	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (status_parse_state(buf, size, &s) == 0) {
		if (s.n_history > STATUS_HISTORY || s.swappiness < 0 || s.swappiness > 200)
			abort();
		if (status_render_human(&s, 2000000000, out, sizeof(out)) < 0 ||
		    status_render_json(&s, out, sizeof(out)) < 0 || status_render_metrics(&s, out, sizeof(out)) < 0)
			abort(); /* a parsed state always fits the daemon's buffers */
		n = status_render_state(&s, out, sizeof(out));
		if (n < 0 || status_parse_state(out, (size_t)n, &again) != 0)
			abort();
		if (again.pid != s.pid || again.swappiness != s.swappiness || again.n_history != s.n_history ||
		    again.writes != s.writes)
			abort();
	}
	free(buf);
	return 0;
}
