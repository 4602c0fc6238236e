/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_extra: one group's extra fields (rpt_fields.h) while its samples stream by, and their
 * numbers at the end. Each extra field counts on its own: a sample's value of it counts when
 * present, finite and not subnormal, whatever rx and tx hold, over the same window as rx and
 * tx (the time since the previous sample; the first sample, one median interval). A rate field
 * gives its count (the integral of the rate over the windows with a value) and mean rate (that
 * count over those windows' time); util gives the same time-weighted mean and, over the values,
 * the median, 95th percentile and peak (util keeps its values: 8 bytes per sample and field).
 * The range sweep (rpt_overlap.h) gets one channel per field: 0 rx, 1 tx, then one per extra
 * field, then one per util field whose rate is 1 where util has a value (the time it covers). */
#ifndef KN_RPT_EXTRA_H
#define KN_RPT_EXTRA_H

#include "rpt_db.h"
#include "rpt_fields.h"
#include "rpt_values.h"

#include <stdbool.h>
#include <stddef.h>

#define RPT_MAX_CHANNELS (RPT_NFIELDS + 2)

/* One extra field's numbers, NaN where there is none (every one when the group lacks the field):
 * count (rate * s; util: % * s, 0 without values), seconds with a value, mean (count / seconds),
 * and for util p50, p95, max. */
struct rpt_extra_stats {
	double count, seconds, mean, p50, p95, max;
};

/* One group's extra fields while the samples stream by. */
struct rpt_extra {
	size_t nch;                  /* sweep channels */
	int chan[RPT_NFIELDS];       /* channel of each field, -1 when the group lacks it */
	int cover[RPT_NFIELDS];      /* util fields: the channel of their covered time, else -1 */
	double covered[RPT_NFIELDS]; /* ns with a value */
	double integral[RPT_NFIELDS]; /* value * ns */
	struct rpt_values util[2];   /* rx_util, tx_util values */
};

/* Start the extra fields of group gi. */
void rpt_extra_init(struct rpt_extra *x, const struct rpt_group_info *gi);

/* Free the kept values. */
void rpt_extra_free(struct rpt_extra *x);

/* One sample's channel rates into rate[] (NaN: no value; rx and tx NaN unless valid, the two
 * taken together), keeping util's values; -1 when out of memory. */
int rpt_extra_sample(struct rpt_extra *x, const struct rpt_sample *s, bool valid, double *rate);

/* Add a window of len ns at the channel rates of rpt_extra_sample() to the extra fields' sums. */
void rpt_extra_window(struct rpt_extra *x, const double *rate, double len);

/* The numbers of every extra field into out[field] (rx and tx untouched); -1 out of memory. */
int rpt_extra_stats(struct rpt_extra *x, struct rpt_extra_stats out[RPT_NFIELDS]);

#endif
