/* SPDX-License-Identifier: Apache-2.0 */
/* rate: pure arithmetic from two counter readings to per-second fields; no I/O. */
#include "config.h"

#include "rate.h"

#include <math.h>

/* What one unit of counter k is in its field's unit: bytes are given in MiB (an exact power of
 * two, so multiplying by its inverse rounds exactly as dividing by it would). */
static double counter_scale(int k)
{
	return k <= COUNTER_TX_BYTES ? 1.0 / RATE_BYTES_PER_MIB : 1.0;
}

double rate_util(double bytes_per_s, double speed_mbps)
{
	if (!(speed_mbps > 0.0))
		return NAN;
	return bytes_per_s * 8.0 * 100.0 / (speed_mbps * 1e6);
}

bool rate_compute(const struct counter_set *prev, const struct counter_set *cur, double dt_s,
		  double speed_mbps, struct rate *out)
{
	if (!(dt_s > 0.0))
		return false;
	for (int f = 0; f < FIELD_KINDS; f++)
		out->field[f] = NAN;
	unsigned both = prev->have & cur->have; /* the per-tick cost follows the counters read */
	for (int k = 0; (both >> k) != 0; k++)
		if ((both & COUNTER_BIT(k)) && cur->value[k] >= prev->value[k])
			out->field[k] = (double)(cur->value[k] - prev->value[k]) / dt_s * counter_scale(k);
	if (isnan(out->field[FIELD_RX]) || isnan(out->field[FIELD_TX]))
		return false;
	out->field[FIELD_RX_UTIL] = rate_util(out->field[FIELD_RX] * RATE_BYTES_PER_MIB, speed_mbps);
	out->field[FIELD_TX_UTIL] = rate_util(out->field[FIELD_TX] * RATE_BYTES_PER_MIB, speed_mbps);
	return true;
}

void rate_total_init(struct rate_total *total, unsigned counters)
{
	*total = (struct rate_total){.counters = counters & COUNTER_ALL};
}

void rate_total_add(struct rate_total *total, const struct rate *r, double speed_mbps)
{
	for (int f = 0; (total->counters >> f) != 0; f++) { /* not util: rate_total_finish() derives it */
		if (!(total->counters & COUNTER_BIT(f)) || isnan(r->field[f]))
			continue;
		total->sum.field[f] += r->field[f];
		total->have |= 1u << f;
	}
	if (speed_mbps > 0.0) {
		total->util_rx += r->field[FIELD_RX] * RATE_BYTES_PER_MIB;
		total->util_tx += r->field[FIELD_TX] * RATE_BYTES_PER_MIB;
		total->speed_mbps += speed_mbps;
	}
}

void rate_total_finish(const struct rate_total *total, struct rate *out)
{
	for (int f = 0; f < FIELD_KINDS; f++)
		out->field[f] = (total->have & (1u << f)) ? total->sum.field[f] : NAN;
	out->field[FIELD_RX_UTIL] = rate_util(total->util_rx, total->speed_mbps);
	out->field[FIELD_TX_UTIL] = rate_util(total->util_tx, total->speed_mbps);
}
