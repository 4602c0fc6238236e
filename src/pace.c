/* SPDX-License-Identifier: Apache-2.0 */
/* pace: deadline arithmetic for the sampling loop (pure, so tests can drive it with any clock). */
#include "config.h"

#include "pace.h"

#include <stddef.h>

int64_t pace_first(int64_t start_ns, int64_t interval_ns, int64_t *grid_ns)
{
	if (interval_ns <= PACE_FIRST_WINDOW_NS) {
		*grid_ns = start_ns + interval_ns;
		return *grid_ns;
	}
	*grid_ns = start_ns;
	return start_ns + PACE_FIRST_WINDOW_NS;
}

int64_t pace_next(int64_t deadline_ns, int64_t now_ns, int64_t interval_ns, uint64_t *skipped)
{
	int64_t next = deadline_ns + interval_ns;
	uint64_t dropped = 0;
	if (next <= now_ns) {
		dropped = (uint64_t)((now_ns - deadline_ns) / interval_ns);
		next = now_ns + interval_ns;
	}
	if (skipped != NULL)
		*skipped = dropped;
	return next;
}
