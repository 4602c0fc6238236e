/* SPDX-License-Identifier: Apache-2.0 */
/* test_rate: the rate arithmetic, with exact values where binary floating point allows. */
#include "config.h"

#include "rate.h"

#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stddef.h>

#define MIB UINT64_C(1048576)

#define RX(r) ((r).field[FIELD_RX])
#define TX(r) ((r).field[FIELD_TX])

/* A reading of the byte counters alone. */
static struct counter_set bytes_only(uint64_t rx, uint64_t tx)
{
	return (struct counter_set){.value = {[COUNTER_RX_BYTES] = rx, [COUNTER_TX_BYTES] = tx}, .have = COUNTER_BYTES};
}

/* rate_compute on plain byte numbers (speed unknown); the return value, the rates in *out. */
static bool compute(uint64_t rx0, uint64_t tx0, uint64_t rx1, uint64_t tx1, double dt, struct rate *out)
{
	struct counter_set prev = bytes_only(rx0, tx0), cur = bytes_only(rx1, tx1);
	for (int f = 0; f < FIELD_KINDS; f++)
		out->field[f] = -1.0;
	return rate_compute(&prev, &cur, dt, 0.0, out);
}

START_TEST(exact_values)
{
	struct rate r;
	ck_assert(compute(0, 0, MIB, 0, 0.5, &r));
	ck_assert_double_eq(RX(r), 2.0);
	ck_assert_double_eq(TX(r), 0.0);
	ck_assert(compute(100, 200, 100 + 3 * MIB, 200 + MIB / 4, 1.5, &r));
	ck_assert_double_eq(RX(r), 2.0);
	ck_assert_double_eq_tol(TX(r), 1.0 / 6.0, 1e-15);
	ck_assert(compute(0, 0, 1, 1, 1.0, &r));
	ck_assert_double_eq(RX(r), 1.0 / 1048576.0); /* one byte per second */
	ck_assert(compute(5, 5, 5 + 20 * MIB, 5 + 10 * MIB, 0.02, &r));
	ck_assert_double_eq_tol(RX(r), 1000.0, 1e-9);
	ck_assert_double_eq_tol(TX(r), 500.0, 1e-9);
}
END_TEST

START_TEST(unchanged_is_zero)
{
	struct rate r;
	ck_assert(compute(42, 43, 42, 43, 0.02, &r));
	ck_assert_double_eq(RX(r), 0.0);
	ck_assert_double_eq(TX(r), 0.0);
	ck_assert(!signbit(RX(r)) && !signbit(TX(r)));
}
END_TEST

START_TEST(reset_is_no_value)
{
	struct rate r;
	ck_assert(!compute(1000, 1000, 999, 2000, 1.0, &r)); /* rx went backwards */
	ck_assert(!compute(1000, 1000, 2000, 999, 1.0, &r)); /* tx went backwards */
	ck_assert(!compute(1000, 1000, 0, 0, 1.0, &r));      /* re-created interface */
	ck_assert(!compute(UINT64_MAX, 0, 0, 0, 1.0, &r));   /* no modular "wrap" guessing */
}
END_TEST

START_TEST(bad_dt_is_no_value)
{
	struct rate r;
	ck_assert(!compute(0, 0, MIB, MIB, 0.0, &r));
	ck_assert(!compute(0, 0, MIB, MIB, -0.0, &r));
	ck_assert(!compute(0, 0, MIB, MIB, -0.02, &r));
	ck_assert(!compute(0, 0, MIB, MIB, NAN, &r));
	ck_assert(!compute(0, 0, 0, 0, 0.0, &r));
	ck_assert(compute(0, 0, MIB, MIB, 1e-9, &r)); /* tiny but positive is fine */
	ck_assert_double_eq_tol(RX(r), 1e9, 1e-3);
}
END_TEST

START_TEST(counters_at_max)
{
	struct rate r;
	ck_assert(compute(UINT64_MAX - MIB, UINT64_MAX, UINT64_MAX, UINT64_MAX, 1.0, &r));
	ck_assert_double_eq(RX(r), 1.0);
	ck_assert_double_eq(TX(r), 0.0);
	ck_assert(compute(0, 0, UINT64_MAX, UINT64_MAX, 1.0, &r));
	ck_assert_double_eq(RX(r), 17592186044416.0); /* (2^64 - 1) / 2^20, rounded to 2^44 */
	ck_assert_double_eq(TX(r), 17592186044416.0);
	ck_assert(isfinite(RX(r)));
	ck_assert(compute(UINT64_MAX - 1, UINT64_MAX - 1, UINT64_MAX, UINT64_MAX, 2.0, &r));
	ck_assert_double_eq(RX(r), 0.5 / 1048576.0);
}
END_TEST

/* A rate whose fields are all NaN but rx and tx. */
static struct rate rx_tx(double rx, double tx)
{
	struct rate r;
	for (int f = 0; f < FIELD_KINDS; f++)
		r.field[f] = NAN;
	RX(r) = rx, TX(r) = tx;
	return r;
}

START_TEST(add_sums)
{
	struct rate_total t;
	struct rate sum;
	rate_total_init(&t, COUNTER_ALL);
	struct rate a = rx_tx(1.0, 2.0), b = rx_tx(0.5, 0.25), c = rx_tx(0.0, 0.0);
	rate_total_add(&t, &a, 0.0);
	rate_total_finish(&t, &sum);
	ck_assert_double_eq(RX(sum), 1.0);
	ck_assert_double_eq(TX(sum), 2.0);
	rate_total_add(&t, &b, 0.0);
	rate_total_add(&t, &c, 0.0);
	rate_total_finish(&t, &sum);
	ck_assert_double_eq(RX(sum), 1.5);
	ck_assert_double_eq(TX(sum), 2.25);
	ck_assert(isnan(sum.field[FIELD_RX_PACKETS]) && isnan(sum.field[FIELD_RX_UTIL])); /* none had them */
}
END_TEST

/* A full reading: bytes, packets, errors, drops. */
static struct counter_set full(uint64_t bytes, uint64_t packets, uint64_t errors, uint64_t drops)
{
	struct counter_set c = {.have = COUNTER_ALL};
	c.value[COUNTER_RX_BYTES] = bytes, c.value[COUNTER_TX_BYTES] = 2 * bytes;
	c.value[COUNTER_RX_PACKETS] = packets, c.value[COUNTER_TX_PACKETS] = 2 * packets;
	c.value[COUNTER_RX_ERRORS] = errors, c.value[COUNTER_TX_ERRORS] = 2 * errors;
	c.value[COUNTER_RX_DROPPED] = drops, c.value[COUNTER_TX_DROPPED] = 2 * drops;
	return c;
}

START_TEST(metric_fields)
{
	struct counter_set prev = full(1000, 10, 1, 3), cur = full(1000 + 5 * MIB, 1010, 5, 4);
	struct rate r;
	ck_assert(rate_compute(&prev, &cur, 0.5, 0.0, &r));
	ck_assert_double_eq(RX(r), 10.0);
	ck_assert_double_eq(TX(r), 20.0);
	ck_assert_double_eq(r.field[FIELD_RX_PACKETS], 2000.0);
	ck_assert_double_eq(r.field[FIELD_TX_PACKETS], 4000.0);
	ck_assert_double_eq(r.field[FIELD_RX_ERRORS], 8.0);
	ck_assert_double_eq(r.field[FIELD_TX_ERRORS], 16.0);
	ck_assert_double_eq(r.field[FIELD_RX_DROPPED], 2.0);
	ck_assert_double_eq(r.field[FIELD_TX_DROPPED], 4.0);
	ck_assert(isnan(r.field[FIELD_RX_UTIL]) && isnan(r.field[FIELD_TX_UTIL])); /* speed unknown */
}
END_TEST

START_TEST(metric_counter_backwards_is_nan_alone)
{
	struct counter_set prev = full(1000, 10, 7, 3), cur = full(2000, 20, 6, 3);
	struct rate r;
	ck_assert(rate_compute(&prev, &cur, 1.0, 0.0, &r)); /* the bytes are honest */
	ck_assert_double_eq(RX(r), 1000.0 / 1048576.0);
	ck_assert_double_eq(r.field[FIELD_RX_PACKETS], 10.0);
	ck_assert(isnan(r.field[FIELD_RX_ERRORS]) && isnan(r.field[FIELD_TX_ERRORS])); /* 7 -> 6, 14 -> 12 */
	ck_assert_double_eq(r.field[FIELD_RX_DROPPED], 0.0);
	cur.have &= ~COUNTER_BIT(COUNTER_TX_PACKETS); /* a file that could not be read */
	ck_assert(rate_compute(&prev, &cur, 1.0, 0.0, &r));
	ck_assert(isnan(r.field[FIELD_TX_PACKETS]));
	ck_assert_double_eq(r.field[FIELD_RX_PACKETS], 10.0);
	prev.have = COUNTER_BYTES; /* the baseline lacked them */
	cur = full(3000, 30, 8, 4);
	ck_assert(rate_compute(&prev, &cur, 1.0, 0.0, &r));
	ck_assert(isnan(r.field[FIELD_RX_PACKETS]));
	cur = full(500, 30, 8, 4); /* bytes backwards: no value at all */
	ck_assert(!rate_compute(&prev, &cur, 1.0, 0.0, &r));
	prev = full(0, 0, 0, 0);
	cur.have = COUNTER_ALL & ~COUNTER_BIT(COUNTER_TX_BYTES);
	ck_assert(!rate_compute(&prev, &cur, 1.0, 0.0, &r));
}
END_TEST

START_TEST(util_of_speed)
{
	/* 100 Gb/s = 12.5e9 bytes/s: 1.25e9 bytes in 1 s is 10 %. */
	struct counter_set prev = bytes_only(0, 0), cur = bytes_only(1250000000, 12500000000);
	struct rate r;
	ck_assert(rate_compute(&prev, &cur, 1.0, 100000.0, &r));
	ck_assert_double_eq_tol(r.field[FIELD_RX_UTIL], 10.0, 1e-12);
	ck_assert_double_eq_tol(r.field[FIELD_TX_UTIL], 100.0, 1e-12);
	ck_assert_double_eq(r.field[FIELD_RX_UTIL], rate_util(RX(r) * 1048576.0, 100000.0));
	ck_assert(rate_compute(&prev, &cur, 2.0, 1000.0, &r)); /* 1 Gb/s over 2 s: 500 %, not clamped */
	ck_assert_double_eq_tol(r.field[FIELD_RX_UTIL], 500.0, 1e-12);
	ck_assert(isnan(rate_util(1.0, 0.0)) && isnan(rate_util(1.0, -1.0)) && isnan(rate_util(1.0, NAN)));
	ck_assert_double_eq(rate_util(0.0, 10.0), 0.0);
}
END_TEST

START_TEST(total_util_over_known_speeds)
{
	struct rate_total t;
	struct rate sum;
	struct rate a = rx_tx(1000.0 / 1048576.0, 0.0), b = rx_tx(3000.0 / 1048576.0, 0.0),
		    c = rx_tx(5000.0 / 1048576.0, 1.0);
	rate_total_init(&t, COUNTER_ALL);
	rate_total_add(&t, &a, 0.0); /* unknown speed: in rx, not in util */
	rate_total_finish(&t, &sum);
	ck_assert(isnan(sum.field[FIELD_RX_UTIL]) && isnan(sum.field[FIELD_TX_UTIL]));
	rate_total_add(&t, &b, 0.008); /* 8000 b/s = 1000 bytes/s */
	rate_total_add(&t, &c, 0.032); /* 4000 bytes/s */
	rate_total_finish(&t, &sum);
	ck_assert_double_eq(RX(sum), 9000.0 / 1048576.0);
	/* (3000 + 5000) bytes/s over 5000 bytes/s of known speed: 160 % */
	ck_assert_double_eq_tol(sum.field[FIELD_RX_UTIL], 160.0, 1e-9);
	ck_assert_double_eq_tol(sum.field[FIELD_TX_UTIL], 1048576.0 * 100.0 / 5000.0, 1e-6);
}
END_TEST

START_TEST(total_sums_only_its_counters)
{
	struct counter_set prev = full(1000, 10, 1, 3), cur = full(1000 + 5 * MIB, 1010, 5, 4);
	struct rate r, sum;
	ck_assert(rate_compute(&prev, &cur, 0.5, 1000.0, &r));
	struct rate_total t;
	rate_total_init(&t, COUNTER_BYTES); /* the packets are in r, but not asked for */
	rate_total_add(&t, &r, 1000.0);
	rate_total_add(&t, &r, 1000.0);
	rate_total_finish(&t, &sum);
	ck_assert_double_eq(RX(sum), 20.0);
	ck_assert_double_eq(TX(sum), 40.0);
	for (int f = FIELD_RX_PACKETS; f <= FIELD_TX_DROPPED; f++)
		ck_assert(isnan(sum.field[f]));
	ck_assert_double_eq_tol(sum.field[FIELD_RX_UTIL], r.field[FIELD_RX_UTIL], 1e-12); /* util is derived */
	rate_total_init(&t, COUNTER_ALL);
	rate_total_add(&t, &r, 1000.0);
	rate_total_finish(&t, &sum);
	ck_assert_double_eq(sum.field[FIELD_RX_PACKETS], 2000.0);
	ck_assert_double_eq(sum.field[FIELD_TX_DROPPED], 4.0);
}
END_TEST

START_TEST(rates_only_counters_both_have)
{
	struct counter_set prev = full(1000, 10, 1, 3), cur = full(1000 + 5 * MIB, 1010, 5, 4);
	prev.have = COUNTER_BYTES | COUNTER_BIT(COUNTER_RX_PACKETS); /* a baseline kept what was asked */
	struct rate r;
	ck_assert(rate_compute(&prev, &cur, 0.5, 0.0, &r));
	ck_assert_double_eq(RX(r), 10.0);
	ck_assert_double_eq(r.field[FIELD_RX_PACKETS], 2000.0);
	for (int f = FIELD_TX_PACKETS; f <= FIELD_TX_DROPPED; f++)
		ck_assert(isnan(r.field[f]));
}
END_TEST

/* Add fn as a tcase of its own. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, NULL, NULL);
}

/* The rate suite. */
static Suite *rate_suite(void)
{
	Suite *s = suite_create("rate");
	add(s, "exact_values", exact_values);
	add(s, "unchanged_is_zero", unchanged_is_zero);
	add(s, "reset_is_no_value", reset_is_no_value);
	add(s, "bad_dt_is_no_value", bad_dt_is_no_value);
	add(s, "counters_at_max", counters_at_max);
	add(s, "add_sums", add_sums);
	add(s, "metric_fields", metric_fields);
	add(s, "metric_counter_backwards_is_nan_alone", metric_counter_backwards_is_nan_alone);
	add(s, "util_of_speed", util_of_speed);
	add(s, "total_util_over_known_speeds", total_util_over_known_speeds);
	add(s, "total_sums_only_its_counters", total_sums_only_its_counters);
	add(s, "rates_only_counters_both_have", rates_only_counters_both_have);
	return s;
}

int main(void)
{
	return testutil_run(rate_suite());
}
