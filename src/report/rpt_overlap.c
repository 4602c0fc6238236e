/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_overlap: bytes moved inside NVTX ranges, from samples streamed in time order. */
#include "config.h"

#include "rpt_overlap.h"

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

int rpt_sweep_group_init(struct rpt_sweep_group *g, const struct rpt_sweep *sw)
{
	*g = (struct rpt_sweep_group){0};
	size_t n = sw->nnames > 0 ? sw->nnames : 1;
	g->acc_rx = calloc(n, sizeof *g->acc_rx);
	g->acc_tx = calloc(n, sizeof *g->acc_tx);
	if (g->acc_rx == NULL || g->acc_tx == NULL) {
		rpt_sweep_group_free(g);
		return -1;
	}
	return 0;
}

void rpt_sweep_group_free(struct rpt_sweep_group *g)
{
	free(g->acc_rx);
	free(g->acc_tx);
	g->acc_rx = g->acc_tx = NULL;
}

void rpt_sweep_window(struct rpt_sweep_group *g, const struct rpt_sweep *sw, int64_t a, int64_t b,
		      bool valid, double rx, double tx)
{
	size_t nends = 2 * sw->nranges;
	while (g->next < nends && sw->ends[g->next].t <= b) {
		const struct rpt_endpoint *e = &sw->ends[g->next++];
		double c_rx = g->c_rx, c_tx = g->c_tx;
		if (valid && e->t > a) {
			c_rx += rx * (double)(e->t - a);
			c_tx += tx * (double)(e->t - a);
		}
		g->acc_rx[e->name] += e->sign * c_rx;
		g->acc_tx[e->name] += e->sign * c_tx;
	}
	if (valid && b > a) {
		g->c_rx += rx * (double)(b - a);
		g->c_tx += tx * (double)(b - a);
	}
}

void rpt_sweep_finish(struct rpt_sweep_group *g, const struct rpt_sweep *sw)
{
	for (size_t nends = 2 * sw->nranges; g->next < nends; g->next++) {
		const struct rpt_endpoint *e = &sw->ends[g->next];
		g->acc_rx[e->name] += e->sign * g->c_rx;
		g->acc_tx[e->name] += e->sign * g->c_tx;
	}
}

double rpt_overlap_length(double a, double b, double s, double e)
{
	double lo = a > s ? a : s, hi = b < e ? b : e;
	return hi > lo ? hi - lo : 0.0;
}

void rpt_sweep_first(struct rpt_sweep_group *g, const struct rpt_sweep *sw, double a, int64_t b,
		     double rx, double tx)
{
	for (size_t i = 0; i < sw->nranges; i++) {
		const struct rpt_range *r = &sw->ranges[i];
		double len = rpt_overlap_length(a, (double)b, (double)r->start, (double)r->end);
		g->acc_rx[r->name] += rx * len;
		g->acc_tx[r->name] += tx * len;
	}
}
