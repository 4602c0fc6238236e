/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_analyze: one report's numbers (summary, ranges, curves). */
#include "config.h"

#include "rpt_analyze.h"
#include "rpt_stats.h"
#include "rpt_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1e9

/* Per group: the running sums, the values kept for the percentiles, the first sample. */
struct group_state {
	size_t seen;
	int64_t prev;
	int64_t head[RPT_HEAD_INTERVALS + 1]; /* the first sample times */
	bool first_valid;
	double first_rx, first_tx;
	double first_rate[RPT_MAX_CHANNELS];   /* the first sample's channel rates */
	struct rpt_values rx, tx;              /* values of the samples with one */
	double covered, int_rx, int_tx;        /* ns, MiB/s * ns */
	struct rpt_extra extra;
	struct rpt_sweep_group sweep;
};

/* Everything of one analysis. */
struct analysis {
	const struct rpt_config *cfg;
	struct rpt_result *res;
	size_t ngroups;
	struct rpt_group_info *info;
	struct group_state *state;
	struct rpt_sweep sweep;
	bool extras; /* some group has an extra field */
	bool oom;
};

/* The bucket of time t in the report's span. */
static size_t bucket_of(const struct rpt_result *res, double t)
{
	double span = (double)(res->t_hi - res->t_lo);
	if (span <= 0 || t <= (double)res->t_lo)
		return 0;
	size_t b = (size_t)((t - (double)res->t_lo) / span * RPT_BUCKETS);
	return b < RPT_BUCKETS ? b : RPT_BUCKETS - 1;
}

/* Add sample at t of group g to its curve. */
static void series_add(struct analysis *an, size_t g, int64_t t, bool valid, double rx, double tx)
{
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

/* Scan callback: one sample of group g, in time order. */
static void on_sample(void *ctx, size_t g, int64_t t, const struct rpt_sample *smp)
{
	struct analysis *an = ctx;
	struct group_state *st = &an->state[g];
	double rx = smp->v[RPT_RX], tx = smp->v[RPT_TX], rate[RPT_MAX_CHANNELS];
	bool valid = rpt_field_valid(smp->ok[RPT_RX], rx) && rpt_field_valid(smp->ok[RPT_TX], tx);
	if (valid && (rpt_values_push(&st->rx, rx) != 0 || rpt_values_push(&st->tx, tx) != 0))
		an->oom = true;
	if (rpt_extra_sample(&st->extra, smp, valid, rate) != 0)
		an->oom = true;
	if (st->seen <= RPT_HEAD_INTERVALS)
		st->head[st->seen] = t;
	if (st->seen == 0) {
		st->first_valid = valid; /* its window is known at the end */
		st->first_rx = rx;
		st->first_tx = tx;
		memcpy(st->first_rate, rate, st->extra.nch * sizeof *rate);
	} else {
		double len = (double)(t - st->prev);
		if (valid) {
			st->covered += len;
			st->int_rx += rx * len;
			st->int_tx += tx * len;
		}
		rpt_extra_window(&st->extra, rate, len);
		if (an->cfg->ranges)
			rpt_sweep_window(&st->sweep, &an->sweep, st->prev, t, rate);
	}
	if (an->res->series != NULL)
		series_add(an, g, t, valid, rx, tx);
	st->prev = t;
	st->seen++;
}

/* Add the first sample's window (one median of the first intervals) to its sums. */
static void first_sample(struct analysis *an, size_t g)
{
	struct group_state *st = &an->state[g];
	size_t nhead = st->seen <= RPT_HEAD_INTERVALS ? st->seen : RPT_HEAD_INTERVALS + 1;
	if (nhead < 2)
		return; /* one sample: no interval, the sample covers nothing */
	int64_t intervals[RPT_HEAD_INTERVALS];
	for (size_t i = 1; i < nhead; i++)
		intervals[i - 1] = st->head[i] - st->head[i - 1];
	double m = rpt_median_int64(intervals, nhead - 1);
	if (st->first_valid) {
		st->covered += m;
		st->int_rx += st->first_rx * m;
		st->int_tx += st->first_tx * m;
	}
	rpt_extra_window(&st->extra, st->first_rate, m);
	if (an->cfg->ranges)
		rpt_sweep_first(&st->sweep, &an->sweep, (double)st->head[0] - m, st->head[0],
				st->first_rate);
}

/* Free the scan's state. */
static void states_free(struct analysis *an)
{
	for (size_t g = 0; an->state != NULL && g < an->ngroups; g++) {
		rpt_values_free(&an->state[g].rx);
		rpt_values_free(&an->state[g].tx);
		rpt_extra_free(&an->state[g].extra);
		rpt_sweep_group_free(&an->state[g].sweep);
	}
	free(an->state);
	an->state = NULL;
}

/* Set up the scan's state (and empty curves); -1 when out of memory. */
static int states_init(struct analysis *an)
{
	an->state = calloc(an->ngroups ? an->ngroups : 1, sizeof *an->state);
	if (an->state == NULL)
		return -1;
	for (size_t g = 0; g < an->ngroups; g++) {
		struct group_state *st = &an->state[g];
		rpt_extra_init(&st->extra, &an->info[g]);
		an->extras |= st->extra.nch > 2;
		if (rpt_sweep_group_init(&st->sweep, &an->sweep, st->extra.nch) != 0)
			return -1;
	}
	if (an->res->series != NULL)
		memset(an->res->series, 0, an->ngroups * sizeof *an->res->series);
	return 0;
}

/* One field's numbers from its values and integral; -1 when out of memory. */
static int field_stats(struct rpt_values *vs, double integral, double covered,
		       struct rpt_field_stats *f)
{
	*f = (struct rpt_field_stats){integral / NS_PER_S, NAN, NAN, NAN, NAN};
	if (vs->n > 0)
		f->mean = covered > 0 ? integral / covered : NAN;
	return rpt_values_spread(vs, &f->p50, &f->p95, &f->max);
}

/* Allocate the result's tables (extras: the extra fields' too); -1 when out of memory. */
static int results_alloc(struct rpt_result *res, size_t ng, size_t nn, bool extras)
{
	size_t ncells = nn * ng + 1;
	if (extras && ((res->range_extra = calloc(ncells * RPT_NFIELDS, sizeof(double))) == NULL ||
		       (res->range_cover = calloc(ncells * RPT_NFIELDS, sizeof(double))) == NULL))
		return -1;
	res->groups = calloc(ng ? ng : 1, sizeof *res->groups);
	res->range_count = calloc(nn ? nn : 1, sizeof *res->range_count);
	res->range_seconds = calloc(nn ? nn : 1, sizeof *res->range_seconds);
	res->range_rx = calloc(ncells, sizeof *res->range_rx);
	res->range_tx = calloc(ncells, sizeof *res->range_tx);
	return res->groups && res->range_count && res->range_seconds && res->range_rx && res->range_tx
		       ? 0
		       : -1;
}

/* Put group g's sums inside the ranges of name k into the result. */
static void range_sums(struct rpt_result *res, const struct rpt_sweep_group *sw,
		       const struct rpt_extra *x, size_t k, size_t g)
{
	size_t cell = k * res->ngroups + g;
	const double *acc = &sw->acc[k * sw->nch];
	res->range_rx[cell] = acc[0] / NS_PER_S;
	res->range_tx[cell] = acc[1] / NS_PER_S;
	for (int f = RPT_RX_PACKETS; res->range_extra != NULL && f < RPT_NFIELDS; f++) {
		if (x->chan[f] >= 0)
			res->range_extra[cell * RPT_NFIELDS + f] = acc[x->chan[f]] / NS_PER_S;
		if (x->cover[f] >= 0)
			res->range_cover[cell * RPT_NFIELDS + f] = acc[x->cover[f]] / NS_PER_S;
	}
}

/* Turn the scan's sums into the result; -1 when out of memory. */
static int results_make(struct analysis *an)
{
	struct rpt_result *res = an->res;
	size_t ng = an->ngroups, nn = res->ranges.nnames;
	if (results_alloc(res, ng, nn, an->extras) != 0)
		return -1;
	res->ngroups = ng;
	for (size_t g = 0; g < ng; g++) {
		struct group_state *st = &an->state[g];
		struct rpt_group_result *gr = &res->groups[g];
		gr->name = an->info[g].name;
		an->info[g].name = NULL;
		first_sample(an, g);
		gr->samples = st->rx.n;
		gr->seconds = st->covered / NS_PER_S;
		memcpy(gr->has, an->info[g].has, sizeof gr->has);
		if (field_stats(&st->rx, st->int_rx, st->covered, &gr->rx) != 0 ||
		    field_stats(&st->tx, st->int_tx, st->covered, &gr->tx) != 0 ||
		    rpt_extra_stats(&st->extra, gr->extra) != 0)
			return -1;
		rpt_sweep_finish(&st->sweep, &an->sweep);
		for (size_t k = 0; k < nn; k++)
			range_sums(res, &st->sweep, &st->extra, k, g);
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

/* The scan: storage order when it is time order, else sorted by SQL. 0, or -1 with err. */
static int scan(struct rpt_db *db, struct analysis *an, char err[RPT_ERR_MAX])
{
	if (states_init(an) != 0)
		goto oom;
	int rc = rpt_db_samples(db, an->info, an->ngroups, false, on_sample, an, err);
	if (rc == RPT_DB_UNORDERED) {
		states_free(an);
		if (states_init(an) != 0)
			goto oom;
		rc = rpt_db_samples(db, an->info, an->ngroups, true, on_sample, an, err);
	}
	if (rc == 0 && an->oom)
		goto oom;
	return rc;
oom:
	snprintf(err, RPT_ERR_MAX, "out of memory");
	return -1;
}

/* Read the host, the groups, the ranges and (for --svg) the span; 0, or -1 with err. */
static int read_tables(struct rpt_db *db, struct analysis *an, char err[RPT_ERR_MAX])
{
	struct rpt_result *res = an->res;
	int dom = rpt_db_has_domain(db, err);
	if (dom < 0)
		return -1;
	if (dom == 0) {
		snprintf(err, RPT_ERR_MAX, "no 'KvikIO NIC' NVTX domain: not recorded with "
					   "nsys profile --enable=kvikio_nic (or not an nsys export)");
		return -1;
	}
	if (rpt_db_host(db, &res->host, err) != 0 ||
	    rpt_db_groups(db, &an->info, &an->ngroups, err) != 0)
		return -1;
	if (an->cfg->ranges &&
	    rpt_db_ranges(db, an->cfg->keep_range, an->cfg->keep_ctx, &res->ranges, err) != 0)
		return -1;
	if (an->cfg->series &&
	    rpt_db_span(db, an->info, an->ngroups, &res->t_lo, &res->t_hi, err) != 0)
		return -1;
	if (rpt_sweep_init(&an->sweep, res->ranges.ranges, res->ranges.nranges, res->ranges.nnames) != 0 ||
	    (an->cfg->series &&
	     (res->series = malloc((an->ngroups ? an->ngroups : 1) * sizeof *res->series)) == NULL)) {
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
	int rc = read_tables(db, &an, err);
	if (rc == 0)
		rc = scan(db, &an, err);
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
	free(res->range_extra);
	free(res->range_cover);
	free(res->series);
	*res = (struct rpt_result){0};
}
