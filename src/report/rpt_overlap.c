/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_overlap: bytes moved inside NVTX ranges, from samples streamed in time order. */
#include "config.h"

#include "rpt_overlap.h"

#include <math.h>
#include <stdlib.h>

/* qsort order of endpoints: by time (ties in any order: each reads the same integral). */
static int compare_endpoints(const void *a, const void *b)
{
	int64_t x = ((const struct rpt_endpoint *)a)->t, y = ((const struct rpt_endpoint *)b)->t;
	return (x > y) - (x < y);
}

int rpt_sweep_init(struct rpt_sweep *sw, const struct rpt_range *ranges, size_t n, size_t nnames)
{
	sw->ranges = ranges;
	sw->nranges = n;
	sw->nnames = nnames;
	sw->ends = NULL;
	if (n == 0)
		return 0;
	sw->ends = malloc(2 * n * sizeof *sw->ends);
	if (sw->ends == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		sw->ends[2 * i] = (struct rpt_endpoint){ranges[i].start, ranges[i].name, -1};
		sw->ends[2 * i + 1] = (struct rpt_endpoint){ranges[i].end, ranges[i].name, +1};
	}
	qsort(sw->ends, 2 * n, sizeof *sw->ends, compare_endpoints);
	return 0;
}

void rpt_sweep_free(struct rpt_sweep *sw)
{
	free(sw->ends);
	sw->ends = NULL;
}

int rpt_sweep_group_init(struct rpt_sweep_group *g, const struct rpt_sweep *sw, size_t nch)
{
	*g = (struct rpt_sweep_group){.nch = nch};
	size_t n = sw->nnames > 0 ? sw->nnames : 1;
	g->c = calloc(nch ? nch : 1, sizeof *g->c);
	g->acc = calloc(n * (nch ? nch : 1), sizeof *g->acc);
	if (g->c == NULL || g->acc == NULL) {
		rpt_sweep_group_free(g);
		return -1;
	}
	return 0;
}

void rpt_sweep_group_free(struct rpt_sweep_group *g)
{
	free(g->c);
	free(g->acc);
	g->c = g->acc = NULL;
}

/* Add sign times the integrals at endpoint time t (inside the window (a, b]) to name's sums. */
static void sweep_endpoint(struct rpt_sweep_group *g, const struct rpt_endpoint *e, int64_t a,
			   const double *rate)
{
	double *acc = &g->acc[e->name * g->nch];
	for (size_t ch = 0; ch < g->nch; ch++) {
		double c = g->c[ch];
		if (!isnan(rate[ch]) && e->t > a)
			c += rate[ch] * (double)(e->t - a);
		acc[ch] += e->sign * c;
	}
}

void rpt_sweep_window(struct rpt_sweep_group *g, const struct rpt_sweep *sw, int64_t a, int64_t b,
		      const double *rate)
{
	size_t nends = 2 * sw->nranges;
	while (g->next < nends && sw->ends[g->next].t <= b)
		sweep_endpoint(g, &sw->ends[g->next++], a, rate);
	for (size_t ch = 0; b > a && ch < g->nch; ch++)
		if (!isnan(rate[ch]))
			g->c[ch] += rate[ch] * (double)(b - a);
}

void rpt_sweep_finish(struct rpt_sweep_group *g, const struct rpt_sweep *sw)
{
	for (size_t nends = 2 * sw->nranges; g->next < nends; g->next++) {
		const struct rpt_endpoint *e = &sw->ends[g->next];
		for (size_t ch = 0; ch < g->nch; ch++)
			g->acc[e->name * g->nch + ch] += e->sign * g->c[ch];
	}
}

double rpt_overlap_length(double a, double b, double s, double e)
{
	double lo = a > s ? a : s, hi = b < e ? b : e;
	return hi > lo ? hi - lo : 0.0;
}

void rpt_sweep_first(struct rpt_sweep_group *g, const struct rpt_sweep *sw, double a, int64_t b,
		     const double *rate)
{
	for (size_t i = 0; i < sw->nranges; i++) {
		const struct rpt_range *r = &sw->ranges[i];
		double len = rpt_overlap_length(a, (double)b, (double)r->start, (double)r->end);
		for (size_t ch = 0; ch < g->nch; ch++)
			if (!isnan(rate[ch]))
				g->acc[r->name * g->nch + ch] += rate[ch] * len;
	}
}
