/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_analyze: one report's numbers: per group the summary, per range name the bytes inside its
 * ranges, and (for --svg) the curves reduced to a fixed number of time buckets.
 * One scan of the samples (--svg adds one for the time span); memory is the values of one
 * report (16 bytes per sample, 16 more with util). The extra fields: rpt_extra.h. The first
 * sample's window, one median interval, is known only once RPT_HEAD_INTERVALS intervals are
 * seen: its bytes are added at the end. */
#ifndef KN_RPT_ANALYZE_H
#define KN_RPT_ANALYZE_H

#include "rpt_db.h"
#include "rpt_extra.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPT_BUCKETS 1000 /* time buckets of an --svg curve */
#define RPT_HEAD_INTERVALS 1000 /* the first sample's window: median of this many first intervals */

/* One field's (rx or tx) numbers; mean, p50, p95, max are NaN without a sample with a value. */
struct rpt_field_stats {
	double mib, mean, p50, p95, max;
};

/* One group's summary. */
struct rpt_group_result {
	char *name;
	uint64_t samples; /* samples with a value */
	double seconds;   /* the time they cover */
	struct rpt_field_stats rx, tx;
	bool has[RPT_NFIELDS];                    /* the fields the group has */
	struct rpt_extra_stats extra[RPT_NFIELDS]; /* per extra field (rx, tx: unused) */
};

/* One group's curve for --svg: per bucket the sum and count of valued samples, and the count of
 * samples without a value (the curve breaks where a bucket has only those). */
struct rpt_series {
	double sum_rx[RPT_BUCKETS], sum_tx[RPT_BUCKETS];
	uint32_t nval[RPT_BUCKETS], nnone[RPT_BUCKETS];
};

/* What one report gives. */
struct rpt_result {
	char *host;
	size_t ngroups;
	struct rpt_group_result *groups;
	struct rpt_range_set ranges; /* the selected ranges (empty without --ranges) */
	uint64_t *range_count;       /* per name */
	double *range_seconds;       /* per name: sum of the durations */
	double *range_rx, *range_tx; /* MiB, [name * ngroups + group] */
	double *range_extra;         /* extra counts (util: % * s) inside the ranges, and the seconds */
	double *range_cover;         /* util has a value inside them: [(name * ngroups + group) *
				      * RPT_NFIELDS + field]; both NULL when no group has an extra field */
	struct rpt_series *series;   /* per group, only when asked for */
	int64_t t_lo, t_hi;          /* the time the samples cover (ns), for the curves */
};

/* What to compute. */
struct rpt_config {
	bool ranges;                                  /* read the NVTX ranges */
	bool (*keep_range)(const char *name, void *ctx); /* which names (whole-name regex) */
	void *keep_ctx;
	bool series; /* the curves for --svg */
};

/* Analyze the open export; -1 with the reason in err (the result is then empty). */
int rpt_analyze(struct rpt_db *db, const struct rpt_config *cfg, struct rpt_result *res,
		char err[RPT_ERR_MAX]);

/* Free a result. */
void rpt_result_free(struct rpt_result *res);

#endif
