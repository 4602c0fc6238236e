/* SPDX-License-Identifier: Apache-2.0 */
/* rate: pure arithmetic from two counter readings to MiB/s; no I/O. */
#include "config.h"

#include "rate.h"

bool rate_compute(const struct counter_pair *prev, const struct counter_pair *cur, double dt_s,
		  struct rate *out)
{
	if (!(dt_s > 0.0) || cur->rx < prev->rx || cur->tx < prev->tx)
		return false;
	out->rx = (double)(cur->rx - prev->rx) / dt_s / RATE_BYTES_PER_MIB;
	out->tx = (double)(cur->tx - prev->tx) / dt_s / RATE_BYTES_PER_MIB;
	return true;
}

void rate_add(struct rate *sum, const struct rate *r)
{
	sum->rx += r->rx;
	sum->tx += r->tx;
}
