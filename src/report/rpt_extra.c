/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_extra: one group's extra fields while its samples stream by, and their numbers. */
#include "config.h"

#include "rpt_extra.h"
#include "rpt_stats.h"

#include <math.h>

#define NS_PER_S 1e9

void rpt_extra_init(struct rpt_extra *x, const struct rpt_group_info *gi)
{
	*x = (struct rpt_extra){.nch = 0};
	for (int f = 0; f < RPT_NFIELDS; f++) {
		x->chan[f] = gi->has[f] ? (int)x->nch++ : -1;
		x->cover[f] = -1;
	}
	for (int tx = 0; tx < 2; tx++)
		if (gi->has[RPT_METRIC_FIELD(RPT_UTIL, tx)])
			x->cover[RPT_METRIC_FIELD(RPT_UTIL, tx)] = (int)x->nch++;
}

void rpt_extra_free(struct rpt_extra *x)
{
	rpt_values_free(&x->util[0]);
	rpt_values_free(&x->util[1]);
}

int rpt_extra_sample(struct rpt_extra *x, const struct rpt_sample *s, bool valid, double *rate)
{
	int rc = 0;
	rate[0] = valid ? s->v[RPT_RX] : NAN;
	rate[1] = valid ? s->v[RPT_TX] : NAN;
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++) {
		if (x->chan[f] < 0)
			continue;
		bool ok = rpt_field_valid(s->ok[f], s->v[f]);
		rate[x->chan[f]] = ok ? s->v[f] : NAN;
		if (x->cover[f] < 0)
			continue;
		rate[x->cover[f]] = ok ? 1.0 : NAN;
		if (ok && rpt_values_push(&x->util[f == RPT_TX_UTIL], s->v[f]) != 0)
			rc = -1;
	}
	return rc;
}

void rpt_extra_window(struct rpt_extra *x, const double *rate, double len)
{
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++)
		if (x->chan[f] >= 0 && !isnan(rate[x->chan[f]])) {
			x->covered[f] += len;
			x->integral[f] += rate[x->chan[f]] * len;
		}
}

int rpt_extra_stats(struct rpt_extra *x, struct rpt_extra_stats out[RPT_NFIELDS])
{
	int rc = 0;
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++) {
		struct rpt_extra_stats *o = &out[f];
		*o = (struct rpt_extra_stats){NAN, NAN, NAN, NAN, NAN, NAN};
		if (x->chan[f] < 0)
			continue;
		o->count = x->integral[f] / NS_PER_S;
		o->seconds = x->covered[f] / NS_PER_S;
		if (x->covered[f] > 0)
			o->mean = x->integral[f] / x->covered[f];
		if (x->cover[f] >= 0 &&
		    rpt_values_spread(&x->util[f == RPT_TX_UTIL], &o->p50, &o->p95, &o->max) != 0)
			rc = -1;
	}
	return rc;
}
