/* SPDX-License-Identifier: Apache-2.0 */
/* test_rate: the rate arithmetic, with exact values where binary floating point allows. */
#include "config.h"

#include "rate.h"

#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stddef.h>

#define MIB UINT64_C(1048576)

/* rate_compute on plain numbers; the return value, the rates in *out. */
static bool compute(uint64_t rx0, uint64_t tx0, uint64_t rx1, uint64_t tx1, double dt, struct rate *out)
{
	struct counter_pair prev = {rx0, tx0}, cur = {rx1, tx1};
	*out = (struct rate){-1.0, -1.0};
	return rate_compute(&prev, &cur, dt, out);
}

START_TEST(exact_values)
{
	struct rate r;
	ck_assert(compute(0, 0, MIB, 0, 0.5, &r));
	ck_assert_double_eq(r.rx, 2.0);
	ck_assert_double_eq(r.tx, 0.0);
	ck_assert(compute(100, 200, 100 + 3 * MIB, 200 + MIB / 4, 1.5, &r));
	ck_assert_double_eq(r.rx, 2.0);
	ck_assert_double_eq_tol(r.tx, 1.0 / 6.0, 1e-15);
	ck_assert(compute(0, 0, 1, 1, 1.0, &r));
	ck_assert_double_eq(r.rx, 1.0 / 1048576.0); /* one byte per second */
	ck_assert(compute(5, 5, 5 + 20 * MIB, 5 + 10 * MIB, 0.02, &r));
	ck_assert_double_eq_tol(r.rx, 1000.0, 1e-9);
	ck_assert_double_eq_tol(r.tx, 500.0, 1e-9);
}
END_TEST

START_TEST(unchanged_is_zero)
{
	struct rate r;
	ck_assert(compute(42, 43, 42, 43, 0.02, &r));
	ck_assert_double_eq(r.rx, 0.0);
	ck_assert_double_eq(r.tx, 0.0);
	ck_assert(!signbit(r.rx) && !signbit(r.tx));
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
	ck_assert_double_eq_tol(r.rx, 1e9, 1e-3);
}
END_TEST

START_TEST(counters_at_max)
{
	struct rate r;
	ck_assert(compute(UINT64_MAX - MIB, UINT64_MAX, UINT64_MAX, UINT64_MAX, 1.0, &r));
	ck_assert_double_eq(r.rx, 1.0);
	ck_assert_double_eq(r.tx, 0.0);
	ck_assert(compute(0, 0, UINT64_MAX, UINT64_MAX, 1.0, &r));
	ck_assert_double_eq(r.rx, 17592186044416.0); /* (2^64 - 1) / 2^20, rounded to 2^44 */
	ck_assert_double_eq(r.tx, 17592186044416.0);
	ck_assert(isfinite(r.rx));
	ck_assert(compute(UINT64_MAX - 1, UINT64_MAX - 1, UINT64_MAX, UINT64_MAX, 2.0, &r));
	ck_assert_double_eq(r.rx, 0.5 / 1048576.0);
}
END_TEST

START_TEST(add_sums)
{
	struct rate sum = {0.0, 0.0};
	rate_add(&sum, &(struct rate){1.0, 2.0});
	ck_assert_double_eq(sum.rx, 1.0);
	ck_assert_double_eq(sum.tx, 2.0);
	rate_add(&sum, &(struct rate){0.5, 0.25});
	ck_assert_double_eq(sum.rx, 1.5);
	ck_assert_double_eq(sum.tx, 2.25);
	rate_add(&sum, &(struct rate){0.0, 0.0});
	ck_assert_double_eq(sum.rx, 1.5);
	ck_assert_double_eq(sum.tx, 2.25);
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
	return s;
}

int main(void)
{
	return testutil_run(rate_suite());
}
