/* SPDX-License-Identifier: Apache-2.0 */
/* test_emit: the NVTX emitter on its own, under the recorder ($KN_RECORDER): the -m layout, and
 * groups that carry rx and tx alone whatever -m says (emit_register_bytes_group(), for RDMA
 * ports), with release 0.1's schema. Each case runs in a process of its own (check forks), so
 * each loads the recorder afresh with a log of its own. */
#include "config.h"

#include "emit.h"
#include "metric.h"
#include "recorder-log.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char log_path[512];

/* Point NVTX at the recorder with a fresh log; call before the first NVTX call. */
static void inject(void)
{
	const char *rec = getenv("KN_RECORDER"), *tmp = getenv("TMPDIR");
	ck_assert_msg(rec != NULL, "KN_RECORDER must be set");
	snprintf(log_path, sizeof log_path, "%s/kn-emit-%ld.log", tmp && *tmp ? tmp : "/tmp", (long)getpid());
	unlink(log_path);
	setenv("NVTX_INJECTION64_PATH", rec, 1);
	setenv("KN_NVTX_LOG", log_path, 1);
}

/* The log so far (removed from disk). */
static struct reclog *load(void)
{
	char err[256];
	struct reclog *log = reclog_load(log_path, err, sizeof err);
	ck_assert_msg(log != NULL, "%s", err);
	unlink(log_path);
	return log;
}

/* The value of key in rec, "" when absent. */
static const char *get(const struct reclog_rec *rec, const char *key)
{
	const char *v = reclog_get(rec, key);
	return v != NULL ? v : "";
}

/* The schema_entry lines of schema id as "name/unit" words, blank-separated (static buffer). */
static const char *entries_of(const struct reclog *log, const char *id)
{
	static char text[512];
	text[0] = '\0';
	size_t pos = 0;
	for (const struct reclog_rec *e; (e = reclog_next(log, "schema_entry", &pos)) != NULL;)
		if (strcmp(get(e, "schema"), id) == 0)
			snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s/%s", text[0] ? " " : "",
				 get(e, "name"), get(e, "unit"));
	return text;
}

/* A rate whose field f is f + 1. */
static struct rate counting(void)
{
	struct rate r;
	for (int f = 0; f < FIELD_KINDS; f++)
		r.field[f] = f + 1;
	return r;
}

START_TEST(bytes_group_under_metrics)
{
	inject();
	struct metric_set set;
	metric_set_init(&set);
	ck_assert_int_eq(metric_set_add(&set, "packets"), 0);
	emit_init();
	emit_configure(&set);
	uint64_t eth0 = emit_register_group("eth0"), port = emit_register_bytes_group("mlx5_0:1");
	struct rate r = counting();
	emit_sample(eth0, &r);
	emit_bytes_sample(port, &r);
	emit_bytes_sample(port, NULL);
	struct reclog *log = load();
	const struct reclog_rec *g = reclog_find(log, "counter_register", "name", "eth0"),
				*p = reclog_find(log, "counter_register", "name", "mlx5_0:1");
	ck_assert(g != NULL && p != NULL);
	ck_assert_str_eq(get(g, "unit"), ""); /* the units are on the entries */
	ck_assert_str_eq(entries_of(log, get(g, "schema")), "rx/MiB/s tx/MiB/s rx_packets/packets/s tx_packets/packets/s");
	ck_assert_str_eq(get(p, "unit"), "MiB/s"); /* release 0.1's: the group's unit, bare entries */
	ck_assert_str_eq(entries_of(log, get(p, "schema")), "rx/ tx/");
	ck_assert_str_eq(get(reclog_find(log, "schema", "id", get(p, "schema")), "name"), "NIC bandwidth: mlx5_0:1");
	ck_assert_str_eq(get(reclog_find(log, "schema", "id", get(p, "schema")), "size"), "16");
	size_t pos = 0;
	const struct reclog_rec *s1 = reclog_next(log, "sample", &pos), *s2 = reclog_next(log, "sample", &pos),
				*s3 = reclog_next(log, "sample", &pos);
	ck_assert(s1 != NULL && s2 != NULL && s3 != NULL);
	ck_assert_str_eq(get(s1, "size"), "32");
	ck_assert_str_eq(get(s1, "rx_packets"), "3");
	ck_assert_str_eq(get(s2, "size"), "16");
	ck_assert_str_eq(get(s2, "rx"), "1");
	ck_assert_str_eq(get(s2, "tx"), "2");
	ck_assert_str_eq(get(s2, "rx_packets"), "");
	ck_assert_str_eq(get(s3, "rx"), "nan");
	ck_assert_str_eq(get(s3, "tx"), "nan");
	reclog_free(log);
}
END_TEST

START_TEST(default_group_is_a_bytes_group)
{
	inject();
	emit_init();
	uint64_t a = emit_register_group("eth0"), b = emit_register_bytes_group("ib0:1");
	struct rate r = counting();
	emit_sample(a, &r);
	emit_bytes_sample(b, &r);
	emit_no_value(a);
	struct reclog *log = load();
	const struct reclog_rec *ga = reclog_find(log, "counter_register", "name", "eth0"),
				*gb = reclog_find(log, "counter_register", "name", "ib0:1");
	ck_assert(ga != NULL && gb != NULL);
	ck_assert_str_eq(get(ga, "unit"), "MiB/s");
	ck_assert_str_eq(get(gb, "unit"), "MiB/s");
	ck_assert_str_eq(entries_of(log, get(ga, "schema")), "rx/ tx/");
	ck_assert_str_eq(entries_of(log, get(gb, "schema")), "rx/ tx/");
	size_t pos = 0;
	const struct reclog_rec *s1 = reclog_next(log, "sample", &pos), *s2 = reclog_next(log, "sample", &pos),
				*s3 = reclog_next(log, "sample", &pos);
	ck_assert(s1 != NULL && s2 != NULL && s3 != NULL);
	ck_assert_str_eq(get(s1, "size"), "16");
	ck_assert_str_eq(get(s1, "rx"), get(s2, "rx"));
	ck_assert_str_eq(get(s1, "tx"), get(s2, "tx"));
	ck_assert_str_eq(get(s3, "size"), "16");
	ck_assert_str_eq(get(s3, "rx"), "nan");
	reclog_free(log);
}
END_TEST

/* The emit suite. */
static Suite *emit_suite(void)
{
	Suite *s = suite_create("emit");
	testutil_add(s, "bytes_group_under_metrics", bytes_group_under_metrics, NULL, NULL);
	testutil_add(s, "default_group_is_a_bytes_group", default_group_is_a_bytes_group, NULL, NULL);
	return s;
}

int main(void)
{
	return testutil_run(emit_suite());
}
