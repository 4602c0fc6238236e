/* SPDX-License-Identifier: Apache-2.0 */
/*
 * recorder-selftest.c - drives NVTX through tests/nvtx-recorder.c and checks the log
 * with tests/recorder-log.c.
 *
 * Usage: recorder-selftest [RECORDER.so LOG]
 * Without arguments NVTX_INJECTION64_PATH and KN_NVTX_LOG must already be set.
 * The log is removed first.  Exit status: 0 all checks passed, 1 a check failed,
 * 2 usage or setup error.
 */
#if defined(HAVE_CONFIG_H)
#include <config.h>
#endif
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>

#include "recorder-log.h"

/* Static counter id used to check that caller-supplied ids are kept. */
#define STATIC_COUNTER_ID ((uint64_t)NVTX_COUNTER_ID_STATIC_START + 5)

/* Ids returned by NVTX during the run, checked against the log. */
struct run_ids {
    uint64_t schema;
    uint64_t eth0;
    uint64_t total;
    uint64_t weird;
    uint64_t i64;
    uint64_t f64;
};

static int failures;

/* Records a failed check and prints it. */
static void fail(const char *what, const struct reclog_rec *rec)
{
    char buf[1024];

    failures++;
    printf("FAIL: %s\n      %s\n", what, rec ? reclog_format(rec, buf, sizeof buf) : "(no record)");
}

/* Checks that field key of rec equals want. */
static void expect_str(const struct reclog_rec *rec, const char *key, const char *want)
{
    const char *v = reclog_get(rec, key);
    char what[256];

    if (rec && v && !strcmp(v, want))
        return;
    snprintf(what, sizeof what, "%s: %s should be \"%s\", is %s%s%s", rec ? rec->kind : "?", key, want,
             v ? "\"" : "", v ? v : "missing", v ? "\"" : "");
    fail(what, rec);
}

/* Checks that field key of rec is the unsigned integer want. */
static void expect_u64(const struct reclog_rec *rec, const char *key, uint64_t want)
{
    uint64_t v = 0;
    enum reclog_status st = reclog_get_u64(rec, key, &v);
    char what[256];

    if (rec && st == RECLOG_OK && v == want)
        return;
    snprintf(what, sizeof what, "%s: %s should be %" PRIu64 " (%s, got %" PRIu64 ")", rec ? rec->kind : "?",
             key, want, reclog_status_str(st), v);
    fail(what, rec);
}

/* Checks that field key of rec is exactly the double want. */
static void expect_double(const struct reclog_rec *rec, const char *key, double want)
{
    double v = 0;
    enum reclog_status st = reclog_get_double(rec, key, &v);
    char what[256];

    if (rec && st == RECLOG_OK && v == want)
        return;
    snprintf(what, sizeof what, "%s: %s should be %.17g (%s, got %.17g)", rec ? rec->kind : "?", key, want,
             reclog_status_str(st), v);
    fail(what, rec);
}

/* Checks that rec exists; prints what was looked for otherwise. */
static bool expect_rec(const struct reclog_rec *rec, const char *what)
{
    if (rec)
        return true;
    fail(what, NULL);
    return false;
}

/* Registers the plugin's schema: rx/tx doubles, counter group, static size 16; tx carries
 * counter semantics of its own (as the plugin's entries do with -m), rx none. */
static uint64_t register_schema(nvtxDomainHandle_t dom)
{
    static const nvtxSemanticsCounter_t tx_unit = {
        .header = { .structSize = sizeof(nvtxSemanticsCounter_t), .semanticId = NVTX_SEMANTIC_ID_COUNTERS_V1,
                    .version = NVTX_COUNTER_SEMANTIC_VERSION },
        .unit = "packets/s",
        .unitScaleNumerator = 1,
        .unitScaleDenominator = 1,
    };
    static const nvtxPayloadSchemaEntry_t entries[] = {
        { 0, NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, "rx", "Receive rate", 0, 0, NULL, NULL },
        { 0, NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, "tx", "Transmit rate", 0, 8, &tx_unit.header, NULL },
    };
    nvtxPayloadSchemaAttr_t attr = {
        .fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE
                     | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES
                     | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE,
        .name = "NIC bandwidth",
        .type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
        .flags = NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP,
        .entries = entries,
        .numEntries = 2,
        .payloadStaticSize = 16,
    };

    return nvtxPayloadSchemaRegister(dom, &attr);
}

/* Registers a counter with the given schema, id (0: tool-assigned) and optional semantics. */
static uint64_t register_counter(nvtxDomainHandle_t dom, const char *name, uint64_t schema, uint64_t id,
                                 const nvtxSemanticsCounter_t *sem)
{
    nvtxCounterAttr_t attr = {
        .structSize = sizeof attr,
        .schemaId = schema,
        .name = name,
        .description = sem ? "NIC bandwidth" : NULL,
        .scopeId = NVTX_SCOPE_CURRENT_VM,
        .semantics = sem ? &sem->header : NULL,
        .counterId = id,
    };

    return nvtxCounterRegister(dom, &attr);
}

/* Makes every NVTX call the plugin makes, plus a few edge cases. */
static void drive_nvtx(struct run_ids *ids)
{
    static const nvtxSemanticsCounter_t sem = {
        .header = { sizeof(nvtxSemanticsCounter_t), NVTX_SEMANTIC_ID_COUNTERS_V1, NVTX_COUNTER_SEMANTIC_VERSION, NULL },
        .flags = NVTX_COUNTER_FLAGS_NONE,
        .unit = "MiB/s",
        .unitScaleNumerator = 1,
        .unitScaleDenominator = 1,
        .limitType = NVTX_COUNTER_LIMIT_UNDEFINED,
    };
    struct { double rx, tx; } v = { 1.5, 0.1 };
    double batch[4] = { 1, 2, 3, 4 };
    nvtxCounterBatch_t b = { 0 };
    nvtxDomainHandle_t dom = nvtxDomainCreateA("KvikIO NIC");
    nvtxDomainHandle_t wdom = nvtxDomainCreateW(L"wide\u00e9");

    ids->schema = register_schema(dom);
    ids->eth0 = register_counter(dom, "eth0", ids->schema, 0, &sem);
    ids->total = register_counter(dom, "total", ids->schema, 0, &sem);
    ids->weird = register_counter(dom, "we\tird\nname\\", ids->schema, 0, NULL);
    ids->i64 = register_counter(dom, "i64", NVTX_PAYLOAD_ENTRY_TYPE_INT64, STATIC_COUNTER_ID, NULL);
    ids->f64 = register_counter(dom, "f64", NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, 0, NULL);
    nvtxCounterSample(dom, ids->eth0, &v, sizeof v);
    nvtxCounterSampleNoValue(dom, ids->total, NVTX_COUNTER_SAMPLE_UNAVAILABLE);
    nvtxCounterSample(dom, ids->total, &v, 8);
    nvtxCounterSampleInt64(dom, ids->i64, -42);
    nvtxCounterSampleFloat64(dom, ids->f64, 0.1);
    nvtxCounterSample(dom, ids->f64, &v.tx, sizeof v.tx);
    nvtxCounterSample(dom, 999, &v, sizeof v);
    b.counterId = ids->eth0;
    b.counters = batch;
    b.countersSize = sizeof batch;
    nvtxCounterBatchSubmit(dom, &b);
    nvtxDomainDestroy(wdom);
    nvtxDomainDestroy(dom);
}

/* Checks the domain and schema lines. */
static void check_registration(const struct reclog *log, const struct run_ids *ids)
{
    const struct reclog_rec *r;

    r = reclog_find(log, "domain_create", "name", "KvikIO NIC");
    if (expect_rec(r, "domain_create KvikIO NIC"))
        expect_u64(r, "domain", 1);
    r = reclog_find(log, "domain_create", "name", "wide\xc3\xa9");
    if (expect_rec(r, "domain_create from nvtxDomainCreateW"))
        expect_u64(r, "domain", 2);
    if (ids->schema < NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START)
        fail("schema id returned by nvtxPayloadSchemaRegister is not dynamic", NULL);
    r = reclog_find(log, "schema", "name", "NIC bandwidth");
    if (expect_rec(r, "schema NIC bandwidth")) {
        expect_u64(r, "id", ids->schema);
        expect_u64(r, "type", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC);
        expect_u64(r, "flags", NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP);
        expect_u64(r, "size", 16);
        expect_u64(r, "entries", 2);
    }
    r = reclog_find(log, "schema_entry", "name", "rx");
    if (expect_rec(r, "schema_entry rx")) {
        expect_u64(r, "schema", ids->schema);
        expect_u64(r, "index", 0);
        expect_u64(r, "type", NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE);
        expect_u64(r, "offset", 0);
        expect_str(r, "description", "Receive rate");
        if (reclog_get(r, "unit") || reclog_get(r, "semantic"))
            fail("schema_entry without semantics has unit/semantic", r);
    }
    r = reclog_find(log, "schema_entry", "name", "tx");
    if (expect_rec(r, "schema_entry tx")) {
        expect_u64(r, "index", 1);
        expect_u64(r, "offset", 8);
        expect_str(r, "description", "Transmit rate");
        expect_str(r, "unit", "packets/s");
        expect_u64(r, "semantic", NVTX_SEMANTIC_ID_COUNTERS_V1);
        expect_str(r, "scale", "1/1");
    }
}

/* Checks the counter_register lines. */
static void check_counters(const struct reclog *log, const struct run_ids *ids)
{
    const struct reclog_rec *r;

    if (ids->eth0 != 1 || ids->total != 2 || ids->i64 != STATIC_COUNTER_ID)
        fail("counter ids returned by nvtxCounterRegister are not 1, 2 and the static id", NULL);
    r = reclog_find(log, "counter_register", "name", "eth0");
    if (expect_rec(r, "counter_register eth0")) {
        expect_u64(r, "domain", 1);
        expect_u64(r, "counter", ids->eth0);
        expect_u64(r, "schema", ids->schema);
        expect_u64(r, "scope", NVTX_SCOPE_CURRENT_VM);
        expect_str(r, "description", "NIC bandwidth");
        expect_str(r, "unit", "MiB/s");
        expect_u64(r, "semantic", NVTX_SEMANTIC_ID_COUNTERS_V1);
        expect_u64(r, "cflags", 0);
        expect_str(r, "scale", "1/1");
    }
    r = reclog_find(log, "counter_register", "name", "we\tird\nname\\");
    if (expect_rec(r, "counter_register with escaped name")) {
        expect_str(r, "unit", "");
        expect_u64(r, "semantic", 0);
        expect_str(r, "description", "");
        if (reclog_get(r, "cflags") || reclog_get(r, "scale"))
            fail("counter without semantics has cflags/scale", r);
    }
    r = reclog_find(log, "counter_register", "name", "i64");
    if (expect_rec(r, "counter_register i64"))
        expect_u64(r, "counter", STATIC_COUNTER_ID);
}

/* Checks the sample lines. */
static void check_samples(const struct reclog *log, const struct run_ids *ids)
{
    const struct reclog_rec *r;
    size_t pos = 0;
    int64_t i = 0;

    r = reclog_next(log, "sample", &pos);
    if (expect_rec(r, "first sample")) {
        expect_u64(r, "domain", 1);
        expect_u64(r, "counter", ids->eth0);
        expect_u64(r, "size", 16);
        expect_double(r, "rx", 1.5);
        expect_double(r, "tx", 0.1);
        if (reclog_get(r, "size_mismatch"))
            fail("16-byte sample flagged size_mismatch", r);
    }
    r = reclog_next(log, "sample", &pos);
    if (expect_rec(r, "short sample")) {
        expect_u64(r, "counter", ids->total);
        expect_u64(r, "size", 8);
        expect_double(r, "rx", 1.5);
        expect_u64(r, "size_mismatch", 1);
        if (reclog_get(r, "tx"))
            fail("8-byte sample decoded tx", r);
    }
    r = reclog_next(log, "sample", &pos);
    if (expect_rec(r, "scalar-schema sample")) {
        expect_u64(r, "counter", ids->f64);
        expect_double(r, "value", 0.1);
    }
    r = reclog_next(log, "sample", &pos);
    if (expect_rec(r, "unknown-counter sample")) {
        expect_u64(r, "counter", 999);
        expect_u64(r, "unknown_counter", 1);
        expect_str(r, "raw", "000000000000f83f9a9999999999b93f");
    }
    r = reclog_find(log, "sample_novalue", NULL, NULL);
    if (expect_rec(r, "sample_novalue")) {
        expect_u64(r, "counter", ids->total);
        expect_u64(r, "reason", NVTX_COUNTER_SAMPLE_UNAVAILABLE);
    }
    r = reclog_find(log, "sample_int64", NULL, NULL);
    if (expect_rec(r, "sample_int64") && (reclog_get_i64(r, "value", &i) != RECLOG_OK || i != -42))
        fail("sample_int64 value should be -42", r);
    r = reclog_find(log, "sample_float64", NULL, NULL);
    if (expect_rec(r, "sample_float64"))
        expect_double(r, "value", 0.1);
    r = reclog_find(log, "batch", NULL, NULL);
    if (expect_rec(r, "batch")) {
        expect_u64(r, "counter", ids->eth0);
        expect_u64(r, "size", 32);
        expect_u64(r, "flags", 0);
    }
}

/* Checks record count, timestamps and domain_destroy lines. */
static void check_general(const struct reclog *log)
{
    uint64_t prev = 0;

    for (size_t i = 0; i < log->n; i++) {
        if (log->recs[i].t_ns == 0 || log->recs[i].t_ns < prev)
            fail("timestamps are not positive and non-decreasing", &log->recs[i]);
        prev = log->recs[i].t_ns;
    }
    if (reclog_count(log, "domain_destroy") != 2)
        fail("expected 2 domain_destroy lines", NULL);
    if (reclog_count(log, "sample") != 4 || reclog_count(log, "schema_entry") != 2)
        fail("expected 4 sample and 2 schema_entry lines", NULL);
    if (reclog_count(log, NULL) != 20)
        fail("expected 20 lines in all", NULL);
}

/* Prints the log so a human can read it. */
static void dump(const struct reclog *log)
{
    char buf[1024];

    for (size_t i = 0; i < log->n; i++)
        printf("  %s\n", reclog_format(&log->recs[i], buf, sizeof buf));
}

/* Sets up the environment, drives NVTX, then parses and checks the log. */
int main(int argc, char **argv)
{
    struct run_ids ids = { 0 };
    const char *path;
    struct reclog *log;
    char err[512];

    if (argc == 3) {
        setenv("NVTX_INJECTION64_PATH", argv[1], 1);
        setenv("KN_NVTX_LOG", argv[2], 1);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [RECORDER.so LOG]\n", argv[0]);
        return 2;
    }
    path = getenv("KN_NVTX_LOG");
    if (!getenv("NVTX_INJECTION64_PATH") || !path || !*path) {
        fprintf(stderr, "%s: set NVTX_INJECTION64_PATH and KN_NVTX_LOG (or pass them as arguments)\n", argv[0]);
        return 2;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
        fprintf(stderr, "%s: cannot remove %s: %s\n", argv[0], path, strerror(errno));
        return 2;
    }
    drive_nvtx(&ids);
    log = reclog_load(path, err, sizeof err);
    if (!log) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 1;
    }
    printf("%zu records:\n", log->n);
    dump(log);
    check_general(log);
    check_registration(log, &ids);
    check_counters(log, &ids);
    check_samples(log, &ids);
    reclog_free(log);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
