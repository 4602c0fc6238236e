/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_output: the rows of kvikio_nic_report: per group, per range and group, the --sum rows. */
#include "config.h"

#include "rpt_output.h"
#include "rpt_sheet.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const summary_columns[] = {"report", "host", "group", "samples", "seconds",
	"rx_MiB", "tx_MiB", "rx_mean", "rx_p50", "rx_p95", "rx_max", "tx_mean", "tx_p50", "tx_p95",
	"tx_max"};
static const char *const range_columns[] = {"report", "host", "range", "count", "seconds", "group",
	"rx_MiB", "tx_MiB", "rx_mean", "tx_mean"};
#define NSUMMARY (sizeof summary_columns / sizeof summary_columns[0])
#define NRANGE (sizeof range_columns / sizeof range_columns[0])
#define MAX_COLUMNS (NSUMMARY + RPT_NMETRICS * RPT_MAX_METRIC_COLUMNS)
_Static_assert(MAX_COLUMNS <= RPT_SHEET_MAX_COLUMNS, "the sheet holds every column");

/* The rows being made, and the extra metrics that have columns. */
struct sheet {
	struct rpt_sheet s;
	bool metric[RPT_NMETRICS];
};

/* Sum of a and b where NaN means "none" (NaN only when both are). */
static double add_defined(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a + b;
}

/* The summary cells of metric m of a group into c (as rpt_metric_columns() names them); their
 * number. */
static size_t summary_metric_cells(struct rpt_cell *c, const struct rpt_group_result *g,
				   enum rpt_metric m)
{
	const struct rpt_extra_stats *rx = &g->extra[RPT_METRIC_FIELD(m, 0)];
	const struct rpt_extra_stats *tx = &g->extra[RPT_METRIC_FIELD(m, 1)];
	if (rpt_metric_is_util(m)) {
		struct rpt_cell row[] = {rpt_num_cell(rx->mean), rpt_num_cell(rx->p50), rpt_num_cell(rx->p95),
			rpt_num_cell(rx->max), rpt_num_cell(tx->mean), rpt_num_cell(tx->p50), rpt_num_cell(tx->p95),
			rpt_num_cell(tx->max)};
		memcpy(c, row, sizeof row);
		return sizeof row / sizeof row[0];
	}
	struct rpt_cell row[] = {rpt_num_cell(rx->count), rpt_num_cell(tx->count), rpt_num_cell(rx->mean),
		rpt_num_cell(tx->mean)};
	memcpy(c, row, sizeof row);
	return sizeof row / sizeof row[0];
}

/* Append the summary row of one group. */
static void summary_row(struct sheet *sh, const char *report, const char *host,
			const struct rpt_group_result *g)
{
	struct rpt_cell *c = rpt_sheet_row(&sh->s);
	if (c == NULL)
		return;
	const struct rpt_field_stats *rx = &g->rx, *tx = &g->tx;
	struct rpt_cell row[NSUMMARY] = {rpt_text_cell(report), rpt_text_cell(host), rpt_text_cell(g->name),
		rpt_int_cell(g->samples), rpt_num_cell(g->seconds), rpt_num_cell(rx->mib), rpt_num_cell(tx->mib),
		rpt_num_cell(rx->mean), rpt_num_cell(rx->p50), rpt_num_cell(rx->p95), rpt_num_cell(rx->max),
		rpt_num_cell(tx->mean), rpt_num_cell(tx->p50), rpt_num_cell(tx->p95), rpt_num_cell(tx->max)};
	memcpy(c, row, sizeof row);
	c += NSUMMARY;
	for (int m = 0; m < RPT_NMETRICS; m++)
		if (sh->metric[m])
			c += summary_metric_cells(c, g, (enum rpt_metric)m);
}

/* Whether name is among the first k group names of the inputs before (i, g); for --sum order. */
static bool seen_before(const struct rpt_input *in, size_t i, size_t g, const char *name)
{
	for (size_t a = 0; a <= i; a++)
		for (size_t b = 0; in[a].ok && b < (a == i ? g : in[a].res.ngroups); b++)
			if (strcmp(in[a].res.groups[b].name, name) == 0)
				return true;
	return false;
}

/* Add group r's extra fields to the --sum row total (util's mean is weighted below). */
static void sum_extra(struct rpt_group_result *total, const struct rpt_group_result *r)
{
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++) {
		struct rpt_extra_stats *t = &total->extra[f];
		const struct rpt_extra_stats *x = &r->extra[f];
		t->count = add_defined(t->count, x->count);
		t->seconds = add_defined(t->seconds, x->seconds);
		t->mean = add_defined(t->mean, x->mean);
	}
}

/* Finish the --sum row's extra fields: util's mean is over the time it covers on every report. */
static void sum_extra_finish(struct rpt_group_result *total)
{
	for (int tx = 0; tx < 2; tx++) {
		struct rpt_extra_stats *t = &total->extra[RPT_METRIC_FIELD(RPT_UTIL, tx)];
		t->mean = t->seconds > 0 ? t->count / t->seconds : NAN;
	}
}

/* The --sum row of group name: counts, seconds, MiB and extra counts summed, means summed (util:
 * its mean over the time it covers), percentiles none. */
static void summary_sum_row(struct sheet *sh, const struct rpt_input *in, size_t n, const char *name)
{
	struct rpt_group_result total = {.name = (char *)name};
	total.rx = total.tx = (struct rpt_field_stats){0, NAN, NAN, NAN, NAN};
	for (int f = 0; f < RPT_NFIELDS; f++)
		total.extra[f] = (struct rpt_extra_stats){NAN, NAN, NAN, NAN, NAN, NAN};
	for (size_t i = 0; i < n; i++)
		for (size_t g = 0; in[i].ok && g < in[i].res.ngroups; g++) {
			const struct rpt_group_result *r = &in[i].res.groups[g];
			if (strcmp(r->name, name) != 0)
				continue;
			total.samples += r->samples;
			total.seconds += r->seconds;
			total.rx.mib += r->rx.mib;
			total.tx.mib += r->tx.mib;
			total.rx.mean = add_defined(total.rx.mean, r->rx.mean);
			total.tx.mean = add_defined(total.tx.mean, r->tx.mean);
			sum_extra(&total, r);
		}
	sum_extra_finish(&total);
	summary_row(sh, RPT_SUM_REPORT, "", &total);
}

/* Fill the summary sheet. */
static void summary_sheet(struct sheet *sh, const struct rpt_input *in, size_t n, bool sum)
{
	for (size_t i = 0; i < n; i++)
		for (size_t g = 0; in[i].ok && g < in[i].res.ngroups; g++)
			summary_row(sh, in[i].name, in[i].res.host, &in[i].res.groups[g]);
	for (size_t i = 0; sum && i < n; i++)
		for (size_t g = 0; in[i].ok && g < in[i].res.ngroups; g++)
			if (!seen_before(in, i, g, in[i].res.groups[g].name))
				summary_sum_row(sh, in, n, in[i].res.groups[g].name);
}

/* Values of one ranges row; per extra field (NaN where the group lacks it) the count inside
 * (util: % * s), the seconds util has a value inside, and the mean. */
struct range_values {
	uint64_t count;
	double seconds, rx, tx, rx_mean, tx_mean;
	double extra[RPT_NFIELDS], cover[RPT_NFIELDS], mean[RPT_NFIELDS];
};

/* The --ranges cells of metric m into c (as rpt_metric_columns() names them); their number. */
static size_t range_metric_cells(struct rpt_cell *c, const struct range_values *v, enum rpt_metric m)
{
	int rx = RPT_METRIC_FIELD(m, 0), tx = RPT_METRIC_FIELD(m, 1);
	if (rpt_metric_is_util(m)) {
		c[0] = rpt_num_cell(v->mean[rx]);
		c[1] = rpt_num_cell(v->mean[tx]);
		return 2;
	}
	struct rpt_cell row[] = {rpt_num_cell(v->extra[rx]), rpt_num_cell(v->extra[tx]), rpt_num_cell(v->mean[rx]),
		rpt_num_cell(v->mean[tx])};
	memcpy(c, row, sizeof row);
	return sizeof row / sizeof row[0];
}

/* Append one ranges row. */
static void range_row(struct sheet *sh, const char *report, const char *host, const char *range,
		      const char *group, const struct range_values *v)
{
	struct rpt_cell *c = rpt_sheet_row(&sh->s);
	if (c == NULL)
		return;
	struct rpt_cell row[NRANGE] = {rpt_text_cell(report), rpt_text_cell(host), rpt_text_cell(range),
		rpt_int_cell(v->count), rpt_num_cell(v->seconds), rpt_text_cell(group), rpt_num_cell(v->rx),
		rpt_num_cell(v->tx), rpt_num_cell(v->rx_mean), rpt_num_cell(v->tx_mean)};
	memcpy(c, row, sizeof row);
	c += NRANGE;
	for (int m = 0; m < RPT_NMETRICS; m++)
		if (sh->metric[m])
			c += range_metric_cells(c, v, (enum rpt_metric)m);
}

/* Set the means of the extra fields of v: a rate's count over the range's seconds, util's
 * integral over the time it has a value inside. */
static void range_means(struct range_values *v)
{
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++) {
		bool util = f == RPT_RX_UTIL || f == RPT_TX_UTIL;
		double over = util ? v->cover[f] : v->seconds;
		v->mean[f] = !isnan(v->extra[f]) && over > 0 ? v->extra[f] / over : NAN;
	}
}

/* The values of range name k and group g of one result (mean: MiB / seconds). */
static struct range_values range_values_of(const struct rpt_result *res, size_t k, size_t g)
{
	size_t cell = k * res->ngroups + g;
	struct range_values v = {res->range_count[k], res->range_seconds[k], res->range_rx[cell],
		res->range_tx[cell], NAN, NAN, {0}, {0}, {0}};
	if (v.seconds > 0) {
		v.rx_mean = v.rx / v.seconds;
		v.tx_mean = v.tx / v.seconds;
	}
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++) {
		bool has = res->groups[g].has[f] && res->range_extra != NULL;
		v.extra[f] = has ? res->range_extra[cell * RPT_NFIELDS + f] : NAN;
		v.cover[f] = has ? res->range_cover[cell * RPT_NFIELDS + f] : NAN;
	}
	range_means(&v);
	return v;
}

/* Whether (range, group) occurred in an input before (i, k, g). */
static bool range_seen_before(const struct rpt_input *in, size_t i, const char *range,
			      const char *group)
{
	for (size_t a = 0; a < i; a++) {
		const struct rpt_result *r = &in[a].res;
		for (size_t k = 0; in[a].ok && k < r->ranges.nnames; k++)
			for (size_t g = 0; strcmp(r->ranges.names[k], range) == 0 && g < r->ngroups; g++)
				if (strcmp(r->groups[g].name, group) == 0)
					return true;
	}
	return false;
}

/* The --sum row of (range, group): counts, seconds, MiB and extra counts summed, means summed
 * (util: its mean over the time it has a value inside, on every report). */
static void range_sum_row(struct sheet *sh, const struct rpt_input *in, size_t n, const char *range,
			  const char *group)
{
	struct range_values t = {0, 0, 0, 0, NAN, NAN, {0}, {0}, {0}};
	for (int f = 0; f < RPT_NFIELDS; f++)
		t.extra[f] = t.cover[f] = t.mean[f] = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct rpt_result *r = &in[i].res;
		for (size_t k = 0; in[i].ok && k < r->ranges.nnames; k++)
			for (size_t g = 0; strcmp(r->ranges.names[k], range) == 0 && g < r->ngroups; g++) {
				if (strcmp(r->groups[g].name, group) != 0)
					continue;
				struct range_values v = range_values_of(r, k, g);
				t.count += v.count;
				t.seconds += v.seconds;
				t.rx += v.rx;
				t.tx += v.tx;
				t.rx_mean = add_defined(t.rx_mean, v.rx_mean);
				t.tx_mean = add_defined(t.tx_mean, v.tx_mean);
				for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++) {
					t.extra[f] = add_defined(t.extra[f], v.extra[f]);
					t.cover[f] = add_defined(t.cover[f], v.cover[f]);
					t.mean[f] = add_defined(t.mean[f], v.mean[f]);
				}
			}
	}
	for (int tx = 0; tx < 2; tx++) {
		int f = RPT_METRIC_FIELD(RPT_UTIL, tx);
		t.mean[f] = t.cover[f] > 0 ? t.extra[f] / t.cover[f] : NAN;
	}
	range_row(sh, RPT_SUM_REPORT, "", range, group, &t);
}

/* Fill the ranges sheet: per report, range name (sorted) and group; then the --sum rows. */
static void ranges_sheet(struct sheet *sh, const struct rpt_input *in, size_t n, bool sum)
{
	for (size_t i = 0; i < n; i++) {
		const struct rpt_result *r = &in[i].res;
		for (size_t k = 0; in[i].ok && k < r->ranges.nnames; k++)
			for (size_t g = 0; g < r->ngroups; g++) {
				struct range_values v = range_values_of(r, k, g);
				range_row(sh, in[i].name, r->host, r->ranges.names[k], r->groups[g].name, &v);
			}
	}
	for (size_t i = 0; sum && i < n; i++) {
		const struct rpt_result *r = &in[i].res;
		for (size_t k = 0; in[i].ok && k < r->ranges.nnames; k++)
			for (size_t g = 0; g < r->ngroups; g++) {
				bool dup = range_seen_before(in, i, r->ranges.names[k], r->groups[g].name);
				for (size_t b = 0; !dup && b < g; b++)
					dup = strcmp(r->groups[b].name, r->groups[g].name) == 0;
				if (!dup)
					range_sum_row(sh, in, n, r->ranges.names[k], r->groups[g].name);
			}
	}
}

/* The columns: the fixed ones, then those of each extra metric that some group of the inputs has. */
static void sheet_columns(struct sheet *sh, bool ranges, const struct rpt_input *in, size_t n)
{
	const char *const *fixed = ranges ? range_columns : summary_columns;
	sh->s.ncols = ranges ? NRANGE : NSUMMARY;
	memcpy(sh->s.columns, fixed, sh->s.ncols * sizeof *fixed);
	for (size_t i = 0; i < n; i++)
		for (size_t g = 0; in[i].ok && g < in[i].res.ngroups; g++)
			for (int m = 0; m < RPT_NMETRICS; m++)
				sh->metric[m] |= in[i].res.groups[g].has[RPT_METRIC_FIELD(m, 0)] ||
						 in[i].res.groups[g].has[RPT_METRIC_FIELD(m, 1)];
	for (int m = 0; m < RPT_NMETRICS; m++) {
		size_t k;
		const char *const *cols = rpt_metric_columns((enum rpt_metric)m, ranges, &k);
		if (sh->metric[m]) {
			memcpy(sh->s.columns + sh->s.ncols, cols, k * sizeof *cols);
			sh->s.ncols += k;
		}
	}
}

int rpt_output_print(FILE *f, enum rpt_format format, bool ranges, bool sum,
		     const struct rpt_input *in, size_t n)
{
	struct sheet sh = {.s.ncols = 0};
	sheet_columns(&sh, ranges, in, n);
	if (ranges)
		ranges_sheet(&sh, in, n, sum);
	else
		summary_sheet(&sh, in, n, sum);
	int rc = sh.s.oom ? -1 : rpt_sheet_print(f, &sh.s, format);
	free(sh.s.cells);
	return rc;
}
