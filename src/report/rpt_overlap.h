/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_overlap: bytes (and other counts) moved inside NVTX ranges, from samples streamed in time
 * order. Each group sweeps a few channels (rx, tx, the extra fields): a channel's rate is NaN
 * in a window without a value, which then adds nothing. A sample covers the half-open window
 * (a, b] at a constant rate; what it moved inside a range [s, e] is rate * |(a, b] ∩ [s, e]|.
 * Each range counts on its own (nested or overlapping ranges both get the bytes). The sweep
 * keeps, per group, the integral C(t) of the rate since the second sample and adds C(e) - C(s)
 * to the range's name; the first sample, whose window is known only at the end (one median
 * interval), is added range by range with rpt_sweep_first(). */
#ifndef KN_RPT_OVERLAP_H
#define KN_RPT_OVERLAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One NVTX range: [start, end] in ns, and the index of its name. */
struct rpt_range {
	int64_t start, end;
	uint32_t name;
};

/* A range's start (sign -1) or end (sign +1), sorted by time. */
struct rpt_endpoint {
	int64_t t;
	uint32_t name;
	int32_t sign;
};

/* What every group of one report shares: the ranges and their sorted endpoints. */
struct rpt_sweep {
	const struct rpt_range *ranges;
	size_t nranges, nnames;
	struct rpt_endpoint *ends; /* 2 * nranges, by time */
};

/* One group's progress: endpoints passed, the integrals so far, the sums per range name. */
struct rpt_sweep_group {
	size_t next;  /* first endpoint not yet passed */
	size_t nch;   /* channels */
	double *c;    /* per channel: integral of the rate (rate * ns) over the windows so far */
	double *acc;  /* [name * nch + channel]: rate * ns inside the name's ranges */
};

/* Sort the endpoints of n ranges; -1 when out of memory. */
int rpt_sweep_init(struct rpt_sweep *sw, const struct rpt_range *ranges, size_t n, size_t nnames);

/* Free the endpoints. */
void rpt_sweep_free(struct rpt_sweep *sw);

/* Start one group of nch channels; -1 when out of memory. */
int rpt_sweep_group_init(struct rpt_sweep_group *g, const struct rpt_sweep *sw, size_t nch);

/* Free the group's sums. */
void rpt_sweep_group_free(struct rpt_sweep_group *g);

/* Add the window (a, b] at the rates of each channel (NaN: no value, nothing added). */
void rpt_sweep_window(struct rpt_sweep_group *g, const struct rpt_sweep *sw, int64_t a, int64_t b,
		      const double *rate);

/* Pass the endpoints after the last window. */
void rpt_sweep_finish(struct rpt_sweep_group *g, const struct rpt_sweep *sw);

/* Add the first sample's window (a, b] (a may be fractional) at the channels' rates (NaN:
 * nothing) to every range. */
void rpt_sweep_first(struct rpt_sweep_group *g, const struct rpt_sweep *sw, double a, int64_t b,
		     const double *rate);

/* Length of the intersection of (a, b] and [s, e], 0 when they do not meet. */
double rpt_overlap_length(double a, double b, double s, double e);

#endif
