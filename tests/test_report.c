/* SPDX-License-Identifier: Apache-2.0 */
/* test_report: kvikio_nic_report's numbers on synthetic exports with exact expected values:
 * integrals, percentiles, range overlaps, no-value samples, unnamed groups, bad inputs, formats,
 * the extra fields of kvikio_nic -m (counts, means, util's percentiles, unknown fields). */
#include "config.h"

#include "report-export.h"
#include "rpt_analyze.h"
#include "rpt_db.h"
#include "rpt_output.h"
#include "rpt_overlap.h"
#include "rpt_stats.h"
#include "rpt_svg.h"

#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS INT64_C(1000000) /* ns */
#define TOL 1e-9

static char dir[64];
static char path[128];

/* A temporary folder and the export path in it. */
static void setup(void)
{
	snprintf(dir, sizeof dir, "%s", "/tmp/kn-test-report.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/r.sqlite", dir);
}

/* Remove the export and its folder. */
static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* Keep ranges whose name is ctx (NULL: every range). */
static bool keep_named(const char *name, void *ctx)
{
	return ctx == NULL || strcmp(name, ctx) == 0;
}

/* Analyze path (ranges on, names kept by keep_named(ctx)); the rc, the reason in err. */
static int analyze(struct rpt_result *res, const char *only, char err[RPT_ERR_MAX])
{
	struct rpt_db db;
	struct rpt_config cfg = {.ranges = true, .keep_range = keep_named, .keep_ctx = (void *)only,
				 .series = true};
	if (rpt_db_open(&db, path, err) != 0)
		return -1;
	int rc = rpt_analyze(&db, &cfg, res, err);
	rpt_db_close(&db);
	return rc;
}

/* Analyze, failing the test on an error. */
static void analyze_ok(struct rpt_result *res)
{
	char err[RPT_ERR_MAX] = "";
	int rc = analyze(res, NULL, err);
	ck_assert_msg(rc == 0, "analyze: %s", err);
}

/* The index of range name in res, failing when absent. */
static size_t range_index(const struct rpt_result *res, const char *name)
{
	for (size_t k = 0; k < res->ranges.nnames; k++)
		if (strcmp(res->ranges.names[k], name) == 0)
			return k;
	ck_abort_msg("no range named %s", name);
	return 0;
}

/* Four samples 100 ms apart at rx 10, 20, 30, 40 and tx 1, 2, 3, 4 in group eth0 from t0 ms. */
static int64_t four_samples(struct fx *fx, int64_t t0)
{
	int64_t type = fx_type(fx, "NIC bandwidth: eth0", "rx", "tx");
	for (int i = 0; i < 4; i++)
		fx_sample(fx, type, (t0 + 100 * i) * MS, 10.0 * (i + 1), i + 1.0);
	return type;
}

START_TEST(percentile_linear)
{
	double v[] = {40, 10, 30, 20};
	rpt_sort_doubles(v, 4);
	ck_assert_double_eq(rpt_percentile_sorted(v, 4, 50), 25);
	ck_assert_double_eq_tol(rpt_percentile_sorted(v, 4, 95), 38.5, 1e-12);
	ck_assert_double_eq(rpt_percentile_sorted(v, 4, 100), 40);
	ck_assert_double_eq(rpt_percentile_sorted(v, 4, 0), 10);
	ck_assert_double_eq(rpt_percentile_sorted(v, 1, 95), 10);
	ck_assert(isnan(rpt_percentile_sorted(v, 0, 50)));
	int64_t iv[] = {200, 100, 100, 200};
	ck_assert_double_eq(rpt_median_int64(iv, 4), 150);
	int64_t odd[] = {5, 1, 3};
	ck_assert_double_eq(rpt_median_int64(odd, 3), 3);
	ck_assert(!rpt_field_valid(true, 9.88e-324)); /* NoValue as nsys 2025.3.1 exports it */
	ck_assert(rpt_field_valid(true, 0.0));
	ck_assert(!rpt_field_valid(false, 1.0));
	ck_assert(!rpt_field_valid(true, NAN));
}
END_TEST

START_TEST(selection_matches_sorting)
{
	enum { N = 5001 };
	static double a[N], b[N];
	unsigned seed = 12345;
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < N; i++) { /* round 1: many equal values; round 2: sorted; 3: reversed */
			seed = seed * 1103515245u + 12345u;
			a[i] = round == 1 ? (double)(seed >> 16 & 7) : round == 2 ? i : round == 3 ? N - i
										: (double)(seed >> 8);
			b[i] = a[i];
		}
		rpt_sort_doubles(b, N);
		const double ps[] = {0, 50, 95, 99.9, 100};
		for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
			ck_assert_double_eq(rpt_percentile(a, N, ps[k]), rpt_percentile_sorted(b, N, ps[k]));
	}
	int64_t iv[N];
	for (int i = 0; i < N; i++)
		iv[i] = (i * 7919) % 1000;
	ck_assert_double_eq(rpt_median_int64(iv, N), 499); /* 0 six times, the others five */
	for (int i = 0; i < N; i++)
		iv[i] = (i * 7919) % 1000;
	ck_assert_double_eq(rpt_median_int64(iv, N - 1), 499.5);
}
END_TEST

START_TEST(summary_exact)
{
	struct fx fx;
	fx_open(&fx, path, true, "node-a");
	four_samples(&fx, 1000);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_str_eq(res.host, "node-a");
	ck_assert_uint_eq(res.ngroups, 1);
	const struct rpt_group_result *g = &res.groups[0];
	ck_assert_str_eq(g->name, "eth0");
	ck_assert_uint_eq(g->samples, 4);
	ck_assert_double_eq_tol(g->seconds, 0.4, 1e-15); /* the first sample covers one interval */
	ck_assert_double_eq_tol(g->rx.mib, 10.0, TOL);   /* (10 + 20 + 30 + 40) * 0.1 */
	ck_assert_double_eq_tol(g->tx.mib, 1.0, TOL);
	ck_assert_double_eq_tol(g->rx.mean, 25.0, TOL);
	ck_assert_double_eq_tol(g->rx.p50, 25.0, TOL);
	ck_assert_double_eq_tol(g->rx.p95, 38.5, TOL);
	ck_assert_double_eq(g->rx.max, 40.0);
	ck_assert_double_eq_tol(g->tx.p95, 3.85, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(first_sample_median_interval)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t type = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	int64_t t[] = {0, 100, 300, 400, 600}; /* intervals 100, 200, 100, 200: median 150 */
	for (int i = 0; i < 5; i++)
		fx_sample(&fx, type, (1000 + t[i]) * MS, 8.0, 4.0);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_str_eq(res.host, "");
	ck_assert_double_eq_tol(res.groups[0].seconds, 0.75, 1e-12);
	ck_assert_double_eq_tol(res.groups[0].rx.mib, 6.0, TOL);
	ck_assert_double_eq_tol(res.groups[0].tx.mib, 3.0, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(first_window_from_first_intervals)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t type = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	int64_t t = 1000 * MS;
	for (int i = 0; i <= 3000; i++) { /* 1000 intervals of 10 ms, then 2000 of 20 ms */
		fx_sample(&fx, type, t, 1.0, 0.0);
		t += (i < 1000 ? 10 : 20) * MS;
	}
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	/* the first sample covers 10 ms (the median of the first 1000 intervals), not 20 ms */
	ck_assert_double_eq_tol(res.groups[0].seconds, 0.01 + 10.0 + 40.0, 1e-9);
	ck_assert_double_eq_tol(res.groups[0].rx.mib, 50.01, 1e-9);
	rpt_result_free(&res);
}
END_TEST

START_TEST(baseline_mark_gives_the_first_window)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t type = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	fx_sample(&fx, type, 1000 * MS, NAN, NAN); /* the plugin's baseline: no value */
	fx_sample(&fx, type, 1001 * MS, 100.0, 0.0); /* its first rate, 1 ms after it */
	for (int i = 1; i <= 10; i++)
		fx_sample(&fx, type, (1000 + 20 * i) * MS, 1.0, 0.0);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	/* the first rate covers the 1 ms since the baseline, not a median interval of 20 ms */
	ck_assert_uint_eq(res.groups[0].samples, 11);
	ck_assert_double_eq_tol(res.groups[0].seconds, 0.2, 1e-12);
	ck_assert_double_eq_tol(res.groups[0].rx.mib, 100.0 * 0.001 + 0.019 + 9 * 0.02, 1e-12);
	rpt_result_free(&res);
}
END_TEST

START_TEST(range_mid_sample)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	four_samples(&fx, 1000); /* windows (900,1000] 10, (1000,1100] 20, ... (1200,1300] 40 */
	fx_range(&fx, "mid", 1050 * MS, 1250 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "head", 950 * MS, 1000 * MS, FX_STARTEND, true);
	fx_range(&fx, "after", 1300 * MS, 2000 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "before", 100 * MS, 800 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	size_t mid = range_index(&res, "mid"), head = range_index(&res, "head");
	ck_assert_double_eq_tol(res.range_rx[mid], 0.05 * 20 + 0.1 * 30 + 0.05 * 40, TOL);
	ck_assert_double_eq_tol(res.range_tx[mid], 0.05 * 2 + 0.1 * 3 + 0.05 * 4, TOL);
	ck_assert_double_eq_tol(res.range_seconds[mid], 0.2, 1e-15);
	ck_assert_double_eq_tol(res.range_rx[head], 0.05 * 10, TOL); /* inside the first window */
	ck_assert_double_eq(res.range_rx[range_index(&res, "after")], 0.0);
	ck_assert_double_eq(res.range_rx[range_index(&res, "before")], 0.0);
	ck_assert_uint_eq(res.range_count[mid], 1);
	rpt_result_free(&res);
}
END_TEST

START_TEST(ranges_nested_and_repeated)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	four_samples(&fx, 1000);
	fx_range(&fx, "outer", 1000 * MS, 1300 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "inner", 1100 * MS, 1200 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "twice", 1000 * MS, 1100 * MS, FX_STARTEND, false);
	fx_range(&fx, "twice", 1200 * MS, 1300 * MS, FX_STARTEND, false);
	fx_range(&fx, "overlap", 1000 * MS, 1200 * MS, FX_STARTEND, false);
	fx_range(&fx, "overlap", 1100 * MS, 1300 * MS, FX_STARTEND, false);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_double_eq_tol(res.range_rx[range_index(&res, "outer")], 9.0, TOL);
	ck_assert_double_eq_tol(res.range_rx[range_index(&res, "inner")], 3.0, TOL);
	size_t twice = range_index(&res, "twice"), overlap = range_index(&res, "overlap");
	ck_assert_uint_eq(res.range_count[twice], 2);
	ck_assert_double_eq_tol(res.range_seconds[twice], 0.2, 1e-15);
	ck_assert_double_eq_tol(res.range_rx[twice], 2.0 + 4.0, TOL);
	ck_assert_double_eq_tol(res.range_rx[overlap], (2.0 + 3.0) + (3.0 + 4.0), TOL);
	ck_assert_double_eq_tol(res.range_seconds[overlap], 0.4, 1e-15);
	/* names are sorted */
	ck_assert_str_eq(res.ranges.names[0], "inner");
	rpt_result_free(&res);
}
END_TEST

START_TEST(gap_in_samples)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t type = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	int64_t t[] = {1000, 1100, 2100, 2200}; /* the sample at 2100 covers the whole second */
	double rx[] = {10, 20, 5, 40};
	for (int i = 0; i < 4; i++)
		fx_sample(&fx, type, t[i] * MS, rx[i], 0.0);
	fx_range(&fx, "gap", 1600 * MS, 2150 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_double_eq_tol(res.groups[0].seconds, 1.3, 1e-12);
	ck_assert_double_eq_tol(res.groups[0].rx.mib, 1.0 + 2.0 + 5.0 + 4.0, TOL);
	ck_assert_double_eq_tol(res.range_rx[0], 0.5 * 5 + 0.05 * 40, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(no_value_samples_excluded)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t type = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	fx_sample(&fx, type, 1000 * MS, 10, 1);
	fx_sample(&fx, type, 1100 * MS, NAN, NAN);      /* NaN: NULL in the export */
	fx_sample(&fx, type, 1200 * MS, 9.88e-324, 0.0); /* NoValue of older reports */
	fx_sample(&fx, type, 1300 * MS, 30, NAN);       /* half a sample: no value either */
	fx_sample(&fx, type, 1400 * MS, 40, 4);
	fx_range(&fx, "all", 900 * MS, 1400 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	const struct rpt_group_result *g = &res.groups[0];
	ck_assert_uint_eq(g->samples, 2);
	ck_assert_double_eq_tol(g->seconds, 0.2, 1e-12);
	ck_assert_double_eq_tol(g->rx.mib, 1.0 + 4.0, TOL);
	ck_assert_double_eq_tol(g->rx.mean, 25.0, TOL);
	ck_assert_double_eq_tol(g->rx.p50, 25.0, TOL);
	ck_assert_double_eq(g->rx.max, 40.0);
	ck_assert_double_eq_tol(res.range_rx[0], 5.0, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(zero_samples)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	int64_t one = fx_type(&fx, "NIC bandwidth: one", "rx", "tx");
	fx_sample(&fx, one, 1000 * MS, 7, 7); /* a single sample: no interval, covers nothing */
	fx_range(&fx, "r", 0, 2000 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_uint_eq(res.ngroups, 2);
	ck_assert_uint_eq(res.groups[0].samples, 0);
	ck_assert_double_eq(res.groups[0].seconds, 0);
	ck_assert_double_eq(res.groups[0].rx.mib, 0);
	ck_assert(isnan(res.groups[0].rx.mean) && isnan(res.groups[0].rx.p50));
	ck_assert(isnan(res.groups[0].tx.max));
	ck_assert_uint_eq(res.groups[1].samples, 1);
	ck_assert_double_eq(res.groups[1].rx.mib, 0);
	ck_assert(isnan(res.groups[1].rx.mean));
	ck_assert_double_eq(res.groups[1].rx.max, 7);
	ck_assert_double_eq(res.range_rx[0], 0);
	rpt_result_free(&res);
}
END_TEST

START_TEST(unnamed_and_foreign_groups)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t a = fx_type(&fx, "NIC bandwidth", "rx", "tx");
	fx_type(&fx, "GPU power", "rx", "tx");                   /* another plugin's schema */
	int64_t b = fx_type(&fx, "NIC bandwidth", "rx", "tx");
	fx_type(&fx, "NIC bandwidth: fake", "watts", "volts"); /* not our fields */
	fx_sample(&fx, a, 1000 * MS, 1, 1);
	fx_sample(&fx, b, 1000 * MS, 2, 2);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_uint_eq(res.ngroups, 2);
	ck_assert_str_eq(res.groups[0].name, "#1");
	ck_assert_str_eq(res.groups[1].name, "#2");
	ck_assert_double_eq(res.groups[1].rx.max, 2);
	rpt_result_free(&res);
}
END_TEST

START_TEST(storage_order_does_not_matter)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	int64_t type = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	for (int i = 3; i >= 0; i--) /* newest first: the fast scan must give up, the sorted one not */
		fx_sample(&fx, type, (1000 + 100 * i) * MS, 10.0 * (i + 1), i + 1.0);
	fx_range(&fx, "mid", 1050 * MS, 1250 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_double_eq_tol(res.groups[0].rx.mib, 10.0, TOL);
	ck_assert_double_eq_tol(res.range_rx[0], 6.0, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(missing_domain_fails)
{
	struct fx fx;
	fx_open(&fx, path, false, NULL);
	four_samples(&fx, 1000);
	fx_range(&fx, "KvikIO NIC", 0, 10, FX_PUSHPOP, false); /* a range of that name is no domain */
	fx_close(&fx);
	struct rpt_result res;
	char err[RPT_ERR_MAX] = "";
	ck_assert_int_eq(analyze(&res, NULL, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "KvikIO NIC"));
}
END_TEST

START_TEST(not_sqlite_fails)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("this is not a database, it is long enough to have a header though......\n", f);
	fclose(f);
	struct rpt_result res;
	char err[RPT_ERR_MAX] = "";
	ck_assert_int_eq(analyze(&res, NULL, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a database"));
}
END_TEST

START_TEST(range_filter)
{
	struct fx fx;
	fx_open(&fx, path, true, NULL);
	four_samples(&fx, 1000);
	fx_range(&fx, "load", 1000 * MS, 1100 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "load batch", 1000 * MS, 1100 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_result res;
	char err[RPT_ERR_MAX];
	ck_assert_int_eq(analyze(&res, "load", err), 0);
	ck_assert_uint_eq(res.ranges.nnames, 1);
	ck_assert_str_eq(res.ranges.names[0], "load");
	rpt_result_free(&res);
}
END_TEST

/* Print res as format into a string (caller frees). */
static char *print_to_string(struct rpt_input *in, size_t n, enum rpt_format format, bool ranges,
			     bool sum)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(rpt_output_print(f, format, ranges, sum, in, n), 0);
	fclose(f);
	return buf;
}

START_TEST(formats)
{
	struct fx fx;
	fx_open(&fx, path, true, "node,a");
	four_samples(&fx, 1000);
	fx_type(&fx, "NIC bandwidth: empty", "rx", "tx");
	fx_range(&fx, "mid", 1050 * MS, 1250 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
	struct rpt_input in[2] = {{.name = "a.sqlite", .ok = true}, {.name = "b.sqlite", .ok = true}};
	analyze_ok(&in[0].res);
	analyze_ok(&in[1].res);
	char *csv = print_to_string(in, 2, RPT_CSV, false, true);
	ck_assert_str_eq(csv,
		"report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,rx_p50,rx_p95,rx_max,tx_mean,"
		"tx_p50,tx_p95,tx_max\n"
		"a.sqlite,\"node,a\",eth0,4,0.4,10,1,25,25,38.5,40,2.5,2.5,3.85,4\n"
		"a.sqlite,\"node,a\",empty,0,0,0,0,,,,,,,,\n"
		"b.sqlite,\"node,a\",eth0,4,0.4,10,1,25,25,38.5,40,2.5,2.5,3.85,4\n"
		"b.sqlite,\"node,a\",empty,0,0,0,0,,,,,,,,\n"
		"(sum),,eth0,8,0.8,20,2,50,,,,5,,,\n"
		"(sum),,empty,0,0,0,0,,,,,,,,\n");
	free(csv);
	char *ranges = print_to_string(in, 1, RPT_CSV, true, false);
	ck_assert_str_eq(ranges, "report,host,range,count,seconds,group,rx_MiB,tx_MiB,rx_mean,tx_mean\n"
				 "a.sqlite,\"node,a\",mid,1,0.2,eth0,6,0.6,30,3\n"
				 "a.sqlite,\"node,a\",mid,1,0.2,empty,0,0,0,0\n");
	free(ranges);
	char *json = print_to_string(in, 1, RPT_JSON, true, false);
	ck_assert_ptr_nonnull(strstr(json, "[\n  {\"report\": \"a.sqlite\", \"host\": \"node,a\", "
					   "\"range\": \"mid\", \"count\": 1, \"seconds\": 0.2,"));
	free(json);
	char *table = print_to_string(in, 1, RPT_TABLE, false, false);
	ck_assert_ptr_nonnull(strstr(table, "report    host    group  samples"));
	ck_assert_ptr_nonnull(strstr(table, "  -\n")); /* no tx_max of the empty group */
	free(table);
	char *svg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&svg, &len);
	rpt_svg_print(f, in, 1);
	fclose(f);
	size_t curves = 0;
	for (const char *p = svg; (p = strstr(p, "class=\"curve\"")) != NULL; p++)
		curves++;
	ck_assert_uint_eq(curves, 4); /* two groups, rx and tx */
	free(svg);
	rpt_result_free(&in[0].res);
	rpt_result_free(&in[1].res);
}
END_TEST

/* kvikio_nic -m packets -m util in group eth0, with an unknown field among them: 5 samples
 * 100 ms apart from 1000 ms (the first covers 100 ms too); rx is NULL at 1300 ms, rx_packets at
 * 1200, rx_util at 1400. rx_util is util throughout when util is not 0; newest_first: stored
 * newest first (the fast scan gives up). */
static void extra_eth0(struct fx *fx, double util, bool newest_first)
{
	static const char *const names[] = {"rx", "tx", "rx_packets", "tx_packets", "rx_frobs",
		"rx_util", "tx_util"};
	int64_t type = fx_type_fields(fx, "NIC bandwidth: eth0", names, 7);
	for (int k = 0; k < 5; k++) {
		int i = newest_first ? 4 - k : k;
		double v[7] = {i == 3 ? NAN : 10, 5, i == 2 ? NAN : 100.0 * (i + 1), 10, 7,
			util != 0 ? util : i == 4 ? NAN : 10.0 * (i + 1), i + 1.0};
		fx_sample_fields(fx, type, (1000 + 100 * i) * MS, v, 7);
	}
}

/* The extra export: eth0 (extra_eth0), lo (util unknown: NULL throughout), mlx5_0:1 (rx, tx
 * only), a type without rx and tx, one whose rx_errors is named twice. */
static void extra_export(double util, bool newest_first)
{
	static const char *const lo_names[] = {"rx", "tx", "rx_util", "tx_util"};
	static const char *const no_rx[] = {"rx_packets", "tx_packets"};
	static const char *const dup[] = {"rx", "tx", "rx_errors", "rx_errors", "tx_errors"};
	struct fx fx;
	fx_open(&fx, path, true, "node-x");
	extra_eth0(&fx, util, newest_first);
	int64_t lo = fx_type_fields(&fx, "NIC bandwidth: lo", lo_names, 4);
	int64_t rdma = fx_type(&fx, "NIC bandwidth: mlx5_0:1", "rx", "tx");
	fx_type_fields(&fx, "NIC bandwidth: bad", no_rx, 2);
	int64_t twice = fx_type_fields(&fx, "NIC bandwidth: dup", dup, 5);
	for (int i = 0; i < 5; i++) {
		double l[4] = {1, 1, NAN, NAN}, d[5] = {1, 1, 3, 3, 4};
		fx_sample_fields(&fx, lo, (1000 + 100 * i) * MS, l, 4);
		fx_sample(&fx, rdma, (1000 + 100 * i) * MS, 100, 200);
		fx_sample_fields(&fx, twice, (1000 + 100 * i) * MS, d, 5);
	}
	fx_range(&fx, "ckpt", 1150 * MS, 1350 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "head", 950 * MS, 1000 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
}

START_TEST(extra_fields_summary)
{
	extra_export(0, false);
	struct rpt_result res;
	analyze_ok(&res);
	ck_assert_uint_eq(res.ngroups, 4); /* "bad" has no rx and tx */
	const struct rpt_group_result *e = &res.groups[0], *lo = &res.groups[1], *r = &res.groups[2];
	ck_assert_str_eq(r->name, "mlx5_0:1");
	ck_assert_str_eq(res.groups[3].name, "dup");
	ck_assert_uint_eq(e->samples, 4); /* rx is NULL once: the extra fields count on their own */
	ck_assert_double_eq_tol(e->rx.mib, 4.0, TOL);
	const struct rpt_extra_stats *rxp = &e->extra[RPT_RX_PACKETS], *txp = &e->extra[RPT_TX_PACKETS];
	ck_assert_double_eq_tol(rxp->count, 0.1 * (100 + 200 + 400 + 500), TOL);
	ck_assert_double_eq_tol(rxp->seconds, 0.4, TOL);
	ck_assert_double_eq_tol(rxp->mean, 300, TOL);
	ck_assert_double_eq_tol(txp->count, 5, TOL);
	ck_assert_double_eq_tol(txp->mean, 10, TOL);
	const struct rpt_extra_stats *rxu = &e->extra[RPT_RX_UTIL], *txu = &e->extra[RPT_TX_UTIL];
	ck_assert_double_eq_tol(rxu->mean, 25, TOL);
	ck_assert_double_eq_tol(rxu->p50, 25, TOL);
	ck_assert_double_eq_tol(rxu->p95, 38.5, TOL);
	ck_assert_double_eq(rxu->max, 40);
	ck_assert_double_eq_tol(txu->mean, 3, TOL);
	ck_assert_double_eq_tol(txu->p95, 4.8, TOL);
	ck_assert(e->has[RPT_RX_UTIL] && !e->has[RPT_RX_ERRORS] && isnan(e->extra[RPT_RX_ERRORS].count));
	ck_assert(lo->has[RPT_RX_UTIL] && !lo->has[RPT_RX_PACKETS]);
	ck_assert_double_eq(lo->extra[RPT_RX_UTIL].count, 0); /* the speed is unknown: no value */
	ck_assert(isnan(lo->extra[RPT_RX_UTIL].mean) && isnan(lo->extra[RPT_RX_UTIL].p50) &&
		  isnan(lo->extra[RPT_TX_UTIL].max));
	for (int f = RPT_RX_PACKETS; f < RPT_NFIELDS; f++)
		ck_assert(!r->has[f] && isnan(r->extra[f].count) && isnan(r->extra[f].mean));
	ck_assert(!res.groups[3].has[RPT_RX_ERRORS] && res.groups[3].has[RPT_TX_ERRORS]);
	ck_assert_double_eq_tol(res.groups[3].extra[RPT_TX_ERRORS].count, 2, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(extra_fields_storage_order)
{
	extra_export(0, true);
	struct rpt_result res;
	analyze_ok(&res);
	const struct rpt_group_result *e = &res.groups[0];
	ck_assert_double_eq_tol(e->extra[RPT_RX_PACKETS].count, 120, TOL);
	ck_assert_double_eq_tol(e->extra[RPT_RX_UTIL].p95, 38.5, TOL);
	ck_assert_double_eq_tol(e->extra[RPT_TX_UTIL].mean, 3, TOL);
	size_t ckpt = range_index(&res, "ckpt") * res.ngroups;
	ck_assert_double_eq_tol(res.range_extra[ckpt * RPT_NFIELDS + RPT_RX_PACKETS], 65, TOL);
	rpt_result_free(&res);
}
END_TEST

START_TEST(extra_fields_ranges)
{
	extra_export(0, false);
	struct rpt_result res;
	analyze_ok(&res);
	size_t ckpt = range_index(&res, "ckpt") * res.ngroups, head = range_index(&res, "head") * res.ngroups;
	const double *x = res.range_extra, *cover = res.range_cover;
	/* ckpt [1150, 1350]: 50 ms of the 1200 sample, 100 of 1300, 50 of 1400 */
	ck_assert_double_eq_tol(x[ckpt * RPT_NFIELDS + RPT_RX_PACKETS], 0.1 * 400 + 0.05 * 500, TOL);
	ck_assert_double_eq_tol(x[ckpt * RPT_NFIELDS + RPT_TX_PACKETS], 0.2 * 10, TOL);
	ck_assert_double_eq_tol(x[ckpt * RPT_NFIELDS + RPT_RX_UTIL], 0.05 * 30 + 0.1 * 40, TOL);
	ck_assert_double_eq_tol(cover[ckpt * RPT_NFIELDS + RPT_RX_UTIL], 0.15, TOL);
	ck_assert_double_eq_tol(cover[ckpt * RPT_NFIELDS + RPT_TX_UTIL], 0.2, TOL);
	ck_assert_double_eq_tol(res.range_rx[ckpt], 0.05 * 10 + 0.05 * 10, TOL);
	/* head [950, 1000]: inside the first sample's window (900, 1000] */
	ck_assert_double_eq_tol(x[head * RPT_NFIELDS + RPT_RX_PACKETS], 0.05 * 100, TOL);
	ck_assert_double_eq_tol(cover[head * RPT_NFIELDS + RPT_RX_UTIL], 0.05, TOL);
	ck_assert_double_eq(cover[(head + 1) * RPT_NFIELDS + RPT_RX_UTIL], 0); /* lo */
	rpt_result_free(&res);
}
END_TEST

START_TEST(extra_fields_formats)
{
	struct rpt_input in[2] = {{.name = "a.sqlite", .ok = true}, {.name = "b.sqlite", .ok = true}};
	extra_export(0, false);
	analyze_ok(&in[0].res);
	extra_export(70, false); /* rx_util 70 over 0.5 s: the --sum row's mean is (10 + 35) / 0.9 */
	analyze_ok(&in[1].res);
	char *csv = print_to_string(in, 2, RPT_CSV, false, true);
	ck_assert_str_eq(csv,
		"report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,rx_p50,rx_p95,rx_max,tx_mean,"
		"tx_p50,tx_p95,tx_max,rx_packets,tx_packets,rx_packets_mean,tx_packets_mean,rx_errors,"
		"tx_errors,rx_errors_mean,tx_errors_mean,rx_util_mean,rx_util_p50,rx_util_p95,"
		"rx_util_max,tx_util_mean,tx_util_p50,tx_util_p95,tx_util_max\n"
		"a.sqlite,node-x,eth0,4,0.4,4,2,10,10,10,10,5,5,5,5,120,5,300,10,,,,,25,25,38.5,40,3,3,4.8,5\n"
		"a.sqlite,node-x,lo,5,0.5,0.5,0.5,1,1,1,1,1,1,1,1,,,,,,,,,,,,,,,,\n"
		"a.sqlite,node-x,mlx5_0:1,5,0.5,50,100,100,100,100,100,200,200,200,200,,,,,,,,,,,,,,,,\n"
		"a.sqlite,node-x,dup,5,0.5,0.5,0.5,1,1,1,1,1,1,1,1,,,,,,2,,4,,,,,,,,\n"
		"b.sqlite,node-x,eth0,4,0.4,4,2,10,10,10,10,5,5,5,5,120,5,300,10,,,,,70,70,70,70,3,3,4.8,5\n"
		"b.sqlite,node-x,lo,5,0.5,0.5,0.5,1,1,1,1,1,1,1,1,,,,,,,,,,,,,,,,\n"
		"b.sqlite,node-x,mlx5_0:1,5,0.5,50,100,100,100,100,100,200,200,200,200,,,,,,,,,,,,,,,,\n"
		"b.sqlite,node-x,dup,5,0.5,0.5,0.5,1,1,1,1,1,1,1,1,,,,,,2,,4,,,,,,,,\n"
		"(sum),,eth0,8,0.8,8,4,20,,,,10,,,,240,10,600,20,,,,,50,,,,3,,,\n"
		"(sum),,lo,10,1,1,1,2,,,,2,,,,,,,,,,,,,,,,,,,\n"
		"(sum),,mlx5_0:1,10,1,100,200,200,,,,400,,,,,,,,,,,,,,,,,,,\n"
		"(sum),,dup,10,1,1,1,2,,,,2,,,,,,,,,4,,8,,,,,,,,\n");
	free(csv);
	char *ranges = print_to_string(in, 1, RPT_CSV, true, false);
	ck_assert_str_eq(ranges,
		"report,host,range,count,seconds,group,rx_MiB,tx_MiB,rx_mean,tx_mean,rx_packets,"
		"tx_packets,rx_packets_mean,tx_packets_mean,rx_errors,tx_errors,rx_errors_mean,"
		"tx_errors_mean,rx_util_mean,tx_util_mean\n"
		"a.sqlite,node-x,ckpt,1,0.2,eth0,1,0.5,5,2.5,65,2,325,10,,,,,36.6666666666667,4\n"
		"a.sqlite,node-x,ckpt,1,0.2,lo,0.2,0.2,1,1,,,,,,,,,,\n"
		"a.sqlite,node-x,ckpt,1,0.2,mlx5_0:1,20,40,100,200,,,,,,,,,,\n"
		"a.sqlite,node-x,ckpt,1,0.2,dup,0.2,0.2,1,1,,,,,,0.8,,4,,\n"
		"a.sqlite,node-x,head,1,0.05,eth0,0.5,0.25,10,5,5,0.5,100,10,,,,,10,1\n"
		"a.sqlite,node-x,head,1,0.05,lo,0.05,0.05,1,1,,,,,,,,,,\n"
		"a.sqlite,node-x,head,1,0.05,mlx5_0:1,5,10,100,200,,,,,,,,,,\n"
		"a.sqlite,node-x,head,1,0.05,dup,0.05,0.05,1,1,,,,,,0.2,,4,,\n");
	free(ranges);
	char *json = print_to_string(in, 2, RPT_JSON, false, true);
	ck_assert_ptr_nonnull(strstr(json, "\"group\": \"lo\", \"samples\": 5, \"seconds\": 0.5, "));
	ck_assert_ptr_nonnull(strstr(json, "\"rx_packets\": null, \"tx_packets\": null, "));
	ck_assert_ptr_nonnull(strstr(json, "\"rx_util_mean\": 50, \"rx_util_p50\": null, "));
	ck_assert_ptr_nonnull(strstr(json, "\"rx_util_mean\": 25, \"rx_util_p50\": 25, "
					   "\"rx_util_p95\": 38.5, \"rx_util_max\": 40, "));
	free(json);
	char *table = print_to_string(in, 1, RPT_TABLE, false, false);
	ck_assert_ptr_nonnull(strstr(table, "  rx_packets  tx_packets  rx_packets_mean"));
	ck_assert_ptr_nonnull(strstr(table, "     120.000       5.000          300.000"));
	free(table);
	rpt_result_free(&in[0].res);
	rpt_result_free(&in[1].res);
}
END_TEST

/* Add a case with the temporary-folder fixture. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, setup, teardown);
}

/* The report suite. */
static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	add(s, "percentile_linear", percentile_linear);
	add(s, "selection_matches_sorting", selection_matches_sorting);
	add(s, "summary_exact", summary_exact);
	add(s, "first_sample_median_interval", first_sample_median_interval);
	add(s, "first_window_from_first_intervals", first_window_from_first_intervals);
	add(s, "baseline_mark_gives_the_first_window", baseline_mark_gives_the_first_window);
	add(s, "range_mid_sample", range_mid_sample);
	add(s, "ranges_nested_and_repeated", ranges_nested_and_repeated);
	add(s, "gap_in_samples", gap_in_samples);
	add(s, "no_value_samples_excluded", no_value_samples_excluded);
	add(s, "zero_samples", zero_samples);
	add(s, "unnamed_and_foreign_groups", unnamed_and_foreign_groups);
	add(s, "storage_order_does_not_matter", storage_order_does_not_matter);
	add(s, "missing_domain_fails", missing_domain_fails);
	add(s, "not_sqlite_fails", not_sqlite_fails);
	add(s, "range_filter", range_filter);
	add(s, "formats", formats);
	add(s, "extra_fields_summary", extra_fields_summary);
	add(s, "extra_fields_ranges", extra_fields_ranges);
	add(s, "extra_fields_storage_order", extra_fields_storage_order);
	add(s, "extra_fields_formats", extra_fields_formats);
	return s;
}

int main(void)
{
	return testutil_run(report_suite());
}
