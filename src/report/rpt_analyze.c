/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_analyze: one report's numbers (summary, ranges, curves). */
#include "config.h"

#include "rpt_analyze.h"
#include "rpt_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1e9

/* Pass 1, per group: the sample times seen and the intervals between them. */
struct times {
	size_t n, cap;
	int64_t first, last;
	int64_t *intervals; /* freed once the median is known */
	double median;
	bool oom;
};

/* Pass 2, per group: the running sums and the values kept for the percentiles. */
struct group_state {
	size_t n;        /* samples from pass 1 */
	int64_t first;   /* time of the first sample */
	double median;   /* median interval (ns): the first sample's window */
	size_t seen, nval;
	int64_t prev;
	double *rx, *tx; /* values of the samples with one */
	double covered, int_rx, int_tx; /* ns, MiB/s * ns */
	struct rpt_sweep_group sweep;
};

/* Everything of one analysis. */
struct analysis {
	const struct rpt_config *cfg;
	struct rpt_result *res;
	size_t ngroups;
	struct rpt_group_info *info;
	struct times *times;
	struct group_state *state;
	struct rpt_sweep sweep;
	bool oom, changed;
};

/* Pass 1 callback: one sample time of group g. */
static void on_time(void *ctx, size_t g, int64_t t)
{
	struct analysis *an = ctx;
	struct times *tm = &an->times[g];
	if (tm->n > 0) {
		if (tm->n - 1 == tm->cap) {
			size_t ncap = tm->cap ? tm->cap + tm->cap / 2 : 1024;
			int64_t *p = realloc(tm->intervals, ncap * sizeof *p);
			if (p == NULL) {
				an->oom = true;
				return;
			}
			tm->intervals = p;
			tm->cap = ncap;
		}
		tm->intervals[tm->n - 1] = t - tm->last;
	} else {
		tm->first = t;
	}
	tm->last = t;
	tm->n++;
}

/* Forget pass 1's results (before an ordered re-run). */
static void times_reset(struct analysis *an)
{
	for (size_t g = 0; g < an->ngroups; g++) {
		free(an->times[g].intervals);
		an->times[g] = (struct times){0};
	}
}

/* The bucket of time t in the report's span. */
static size_t bucket_of(const struct rpt_result *res, double t)
{
	double span = (double)(res->t_hi - res->t_lo);
	if (span <= 0 || t <= (double)res->t_lo)
		return 0;
	size_t b = (size_t)((t - (double)res->t_lo) / span * RPT_BUCKETS);
	return b < RPT_BUCKETS ? b : RPT_BUCKETS - 1;
}

/* Add one sample to group g's state; window (a, b] of length len. */
static void state_add(struct analysis *an, size_t g, int64_t t, double len, bool valid, double rx,
		      double tx)
{
	struct group_state *st = &an->state[g];
	if (valid) {
		st->rx[st->nval] = rx;
		st->tx[st->nval] = tx;
		st->nval++;
		st->covered += len;
		st->int_rx += rx * len;
		st->int_tx += tx * len;
	}
	if (an->res->series != NULL) {
		struct rpt_series *s = &an->res->series[g];
		size_t b = bucket_of(an->res, (double)t);
		if (valid) {
			s->sum_rx[b] += rx;
			s->sum_tx[b] += tx;
			s->nval[b]++;
		} else {
			s->nnone[b]++;
		}
	}
}

/* Pass 2 callback: one sample of group g. */
static void on_sample(void *ctx, size_t g, int64_t t, bool rx_ok, double rx, bool tx_ok, double tx)
{
	struct analysis *an = ctx;
	struct group_state *st = &an->state[g];
	bool valid = rpt_field_valid(rx_ok, rx) && rpt_field_valid(tx_ok, tx);
	if (st->seen >= st->n || (st->seen == 0 && t != st->first)) {
		an->changed = true; /* not the samples of pass 1 */
		return;
	}
	if (st->seen == 0) {
		state_add(an, g, t, st->median, valid, rx, tx);
		if (valid && an->cfg->ranges)
			rpt_sweep_first(&st->sweep, &an->sweep, (double)t - st->median, t, rx, tx);
	} else {
		state_add(an, g, t, (double)(t - st->prev), valid, rx, tx);
		if (an->cfg->ranges)
			rpt_sweep_window(&st->sweep, &an->sweep, st->prev, t, valid, rx, tx);
	}
	st->prev = t;
	st->seen++;
}

/* Free pass 2's state. */
static void states_free(struct analysis *an)
{
	for (size_t g = 0; an->state != NULL && g < an->ngroups; g++) {
		free(an->state[g].rx);
		free(an->state[g].tx);
		rpt_sweep_group_free(&an->state[g].sweep);
	}
	free(an->state);
	an->state = NULL;
}

/* Set up pass 2 from pass 1 (counts, medians, the span); -1 when out of memory. */
static int states_init(struct analysis *an)
{
	struct rpt_result *res = an->res;
	an->state = calloc(an->ngroups ? an->ngroups : 1, sizeof *an->state);
	if (an->state == NULL)
		return -1;
	bool any = false;
	for (size_t g = 0; g < an->ngroups; g++) {
		struct times *tm = &an->times[g];
		struct group_state *st = &an->state[g];
		st->n = tm->n;
		st->first = tm->first;
		st->median = tm->median;
		st->rx = malloc((tm->n ? tm->n : 1) * sizeof *st->rx);
		st->tx = malloc((tm->n ? tm->n : 1) * sizeof *st->tx);
		if (st->rx == NULL || st->tx == NULL || rpt_sweep_group_init(&st->sweep, &an->sweep) != 0)
			return -1;
		if (tm->n > 0) {
			int64_t lo = tm->first - (int64_t)ceil(st->median);
			res->t_lo = any && res->t_lo < lo ? res->t_lo : lo;
			res->t_hi = any && res->t_hi > tm->last ? res->t_hi : tm->last;
			any = true;
		}
	}
	if (res->series != NULL)
		memset(res->series, 0, an->ngroups * sizeof *res->series);
	return 0;
}

/* One field's numbers from its values (reordered) and integral. */
static struct rpt_field_stats field_stats(double *values, size_t n, double integral, double covered)
{
	struct rpt_field_stats f = {integral / NS_PER_S, NAN, NAN, NAN, NAN};
	if (n > 0) {
		f.mean = covered > 0 ? integral / covered : NAN;
		f.max = rpt_percentile(values, n, 100);
		f.p95 = rpt_percentile(values, n, 95);
		f.p50 = rpt_percentile(values, n, 50);
	}
	return f;
}

/* Turn pass 2's sums into the result; -1 when out of memory. */
static int results_make(struct analysis *an)
{
	struct rpt_result *res = an->res;
	size_t ng = an->ngroups, nn = res->ranges.nnames, ncells = (nn * ng) + 1;
	res->groups = calloc(ng ? ng : 1, sizeof *res->groups);
	res->range_count = calloc(nn ? nn : 1, sizeof *res->range_count);
	res->range_seconds = calloc(nn ? nn : 1, sizeof *res->range_seconds);
	res->range_rx = calloc(ncells, sizeof *res->range_rx);
	res->range_tx = calloc(ncells, sizeof *res->range_tx);
	if (!res->groups || !res->range_count || !res->range_seconds || !res->range_rx || !res->range_tx)
		return -1;
	res->ngroups = ng;
	for (size_t g = 0; g < ng; g++) {
		struct group_state *st = &an->state[g];
		struct rpt_group_result *gr = &res->groups[g];
		gr->name = an->info[g].name;
		an->info[g].name = NULL;
		gr->samples = st->nval;
		gr->seconds = st->covered / NS_PER_S;
		gr->rx = field_stats(st->rx, st->nval, st->int_rx, st->covered);
		gr->tx = field_stats(st->tx, st->nval, st->int_tx, st->covered);
		rpt_sweep_finish(&st->sweep, &an->sweep);
		for (size_t k = 0; k < nn; k++) {
			res->range_rx[k * ng + g] = st->sweep.acc_rx[k] / NS_PER_S;
			res->range_tx[k * ng + g] = st->sweep.acc_tx[k] / NS_PER_S;
		}
	}
	for (size_t i = 0; i < res->ranges.nranges; i++) {
		const struct rpt_range *r = &res->ranges.ranges[i];
		res->range_count[r->name]++;
		res->range_seconds[r->name] += (double)(r->end - r->start); /* ns, exact below 2^53 */
	}
	for (size_t k = 0; k < nn; k++)
		res->range_seconds[k] /= NS_PER_S;
	return 0;
}

/* Pass 1: the sample times; falls back to an SQL-sorted scan. 0, or -1 with err. */
static int pass_times(struct rpt_db *db, struct analysis *an, bool *ordered, char err[RPT_ERR_MAX])
{
	int rc = rpt_db_times(db, an->info, an->ngroups, false, on_time, an, err);
	if (rc == RPT_DB_UNORDERED) {
		times_reset(an);
		*ordered = true;
		rc = rpt_db_times(db, an->info, an->ngroups, true, on_time, an, err);
	}
	if (rc == 0 && an->oom) {
		snprintf(err, RPT_ERR_MAX, "out of memory");
		rc = -1;
	}
	for (size_t g = 0; rc == 0 && g < an->ngroups; g++) {
		struct times *tm = &an->times[g];
		tm->median = tm->n > 1 ? rpt_median_int64(tm->intervals, tm->n - 1) : 0.0;
		free(tm->intervals); /* before pass 2 allocates the values: memory is one or the other */
		tm->intervals = NULL;
	}
	return rc;
}

/* Pass 2: the samples with their values; falls back to an SQL-sorted scan. 0, or -1 with err. */
static int pass_samples(struct rpt_db *db, struct analysis *an, bool ordered, char err[RPT_ERR_MAX])
{
	if (states_init(an) != 0)
		goto oom;
	int rc = rpt_db_samples(db, an->info, an->ngroups, ordered, on_sample, an, err);
	if (rc == RPT_DB_UNORDERED) {
		states_free(an);
		an->changed = false;
		if (states_init(an) != 0)
			goto oom;
		rc = rpt_db_samples(db, an->info, an->ngroups, true, on_sample, an, err);
	}
	for (size_t g = 0; rc == 0 && g < an->ngroups; g++)
		an->changed |= an->state[g].seen != an->state[g].n;
	if (rc == 0 && an->changed) {
		snprintf(err, RPT_ERR_MAX, "the samples changed between two reads of the export");
		rc = -1;
	}
	return rc;
oom:
	snprintf(err, RPT_ERR_MAX, "out of memory");
	return -1;
}

/* Read the host, the groups and the ranges; 0, or -1 with err. */
static int read_tables(struct rpt_db *db, struct analysis *an, char err[RPT_ERR_MAX])
{
	int dom = rpt_db_has_domain(db, err);
	if (dom < 0)
		return -1;
	if (dom == 0) {
		snprintf(err, RPT_ERR_MAX, "no 'KvikIO NIC' NVTX domain: not recorded with "
					   "nsys profile --enable=kvikio_nic (or not an nsys export)");
		return -1;
	}
	if (rpt_db_host(db, &an->res->host, err) != 0 ||
	    rpt_db_groups(db, &an->info, &an->ngroups, err) != 0)
		return -1;
	if (an->cfg->ranges &&
	    rpt_db_ranges(db, an->cfg->keep_range, an->cfg->keep_ctx, &an->res->ranges, err) != 0)
		return -1;
	if (rpt_sweep_init(&an->sweep, an->res->ranges.ranges, an->res->ranges.nranges,
			   an->res->ranges.nnames) != 0 ||
	    (an->times = calloc(an->ngroups ? an->ngroups : 1, sizeof *an->times)) == NULL ||
	    (an->cfg->series &&
	     (an->res->series = malloc((an->ngroups ? an->ngroups : 1) * sizeof *an->res->series)) == NULL)) {
		snprintf(err, RPT_ERR_MAX, "out of memory");
		return -1;
	}
	return 0;
}

int rpt_analyze(struct rpt_db *db, const struct rpt_config *cfg, struct rpt_result *res,
		char err[RPT_ERR_MAX])
{
	*res = (struct rpt_result){0};
	struct analysis an = {.cfg = cfg, .res = res};
	bool ordered = false;
	int rc = read_tables(db, &an, err);
	if (rc == 0)
		rc = pass_times(db, &an, &ordered, err);
	if (rc == 0)
		rc = pass_samples(db, &an, ordered, err);
	if (an.times != NULL)
		times_reset(&an);
	free(an.times);
	if (rc == 0 && results_make(&an) != 0) {
		snprintf(err, RPT_ERR_MAX, "out of memory");
		rc = -1;
	}
	states_free(&an);
	rpt_sweep_free(&an.sweep);
	rpt_groups_free(an.info, an.ngroups);
	if (rc != 0)
		rpt_result_free(res);
	return rc;
}

void rpt_result_free(struct rpt_result *res)
{
	for (size_t g = 0; res->groups != NULL && g < res->ngroups; g++)
		free(res->groups[g].name);
	free(res->groups);
	free(res->host);
	rpt_range_set_free(&res->ranges);
	free(res->range_count);
	free(res->range_seconds);
	free(res->range_rx);
	free(res->range_tx);
	free(res->series);
	*res = (struct rpt_result){0};
}
