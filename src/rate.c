/* SPDX-License-Identifier: Apache-2.0 */
/* rate: pure arithmetic from two counter readings to per-second fields; no I/O. */
#include "config.h"

#include "rate.h"

#include <math.h>

/* Counter k's rate from prev to cur over dt_s, divided by scale; NaN if either reading lacks it
 * or it went backwards. */
static double counter_rate(const struct counter_set *prev, const struct counter_set *cur, int k, double dt_s,
			   double scale)
{
	unsigned bit = COUNTER_BIT(k);
	if (!(prev->have & bit) || !(cur->have & bit) || cur->value[k] < prev->value[k])
		return NAN;
	return (double)(cur->value[k] - prev->value[k]) / dt_s / scale;
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
	for (int k = 0; k < COUNTER_KINDS; k++)
		out->field[k] = counter_rate(prev, cur, k, dt_s, k <= COUNTER_TX_BYTES ? RATE_BYTES_PER_MIB : 1.0);
	if (isnan(out->field[FIELD_RX]) || isnan(out->field[FIELD_TX]))
		return false;
	out->field[FIELD_RX_UTIL] = rate_util(out->field[FIELD_RX] * RATE_BYTES_PER_MIB, speed_mbps);
	out->field[FIELD_TX_UTIL] = rate_util(out->field[FIELD_TX] * RATE_BYTES_PER_MIB, speed_mbps);
	return true;
}

void rate_total_init(struct rate_total *total)
{
	*total = (struct rate_total){.have = 0};
}

void rate_total_add(struct rate_total *total, const struct rate *r, double speed_mbps)
{
	for (int f = 0; f < FIELD_KINDS; f++) {
		if (isnan(r->field[f]))
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
