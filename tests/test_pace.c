/* SPDX-License-Identifier: Apache-2.0 */
/* test_pace: the deadline arithmetic, driven by a simulated clock. */
#include "config.h"

#include "pace.h"

#include "testutil.h"

#include <check.h>

#define MS INT64_C(1000000)
#define SEC (1000 * MS)

/* A small deterministic pseudo-random generator (LCG), so runs are repeatable. */
static uint64_t lcg_state = 12345;

/* The next pseudo-random number in [0, bound). */
static int64_t lcg_below(int64_t bound)
{
	lcg_state = lcg_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return (int64_t)((lcg_state >> 33) % (uint64_t)bound);
}

START_TEST(normal_step)
{
	uint64_t skipped = 99;
	ck_assert_int_eq(pace_next(1000, 1100, 1000, &skipped), 2000);
	ck_assert_uint_eq(skipped, 0);
	ck_assert_int_eq(pace_next(5 * SEC, 5 * SEC + 3 * MS, 20 * MS, &skipped), 5 * SEC + 20 * MS);
	ck_assert_uint_eq(skipped, 0);
	ck_assert_int_eq(pace_next(1000, 1100, 1000, NULL), 2000); /* skipped may be NULL */
	ck_assert_int_eq(pace_next(1000, 900, 1000, &skipped), 2000); /* ran early: still absolute */
	ck_assert_uint_eq(skipped, 0);
}
END_TEST

START_TEST(exactly_on_deadline)
{
	uint64_t skipped = 99;
	const int64_t d = 7 * SEC, i = 20 * MS;
	ck_assert_int_eq(pace_next(d, d, i, &skipped), d + i); /* ran exactly on time */
	ck_assert_uint_eq(skipped, 0);
	ck_assert_int_eq(pace_next(d, d + i - 1, i, &skipped), d + i); /* 1 ns before the next one */
	ck_assert_uint_eq(skipped, 0);
	/* ran exactly at the next deadline: that tick is dropped rather than run back to back */
	ck_assert_int_eq(pace_next(d, d + i, i, &skipped), d + 2 * i);
	ck_assert_uint_eq(skipped, 1);
	ck_assert_int_eq(pace_next(d, d + i + 1, i, &skipped), d + 2 * i + 1);
	ck_assert_uint_eq(skipped, 1);
}
END_TEST

START_TEST(no_drift_500_steps)
{
	const int64_t start = 123456789, i = 20 * MS;
	int64_t d = start;
	for (int k = 0; k < 500; k++) {
		uint64_t skipped = 99;
		int64_t now = d + lcg_below(i / 2); /* woken late by up to half an interval */
		d = pace_next(d, now, i, &skipped);
		ck_assert_uint_eq(skipped, 0);
	}
	ck_assert_int_eq(d, start + 500 * i); /* the lateness never accumulates */
}
END_TEST

START_TEST(ten_seconds_at_50hz)
{
	/* the sampler's loop against a simulated clock: sleep to the deadline, wake a bit late,
	 * work a bit, compute the next deadline; count ticks in 10 s */
	const int64_t start = 42 * SEC, i = 20 * MS;
	int64_t now = start, d = start + i;
	int ticks = 0;
	uint64_t total_skipped = 0;
	for (;;) {
		now = (now > d ? now : d) + lcg_below(3 * MS); /* wake-up latency */
		if (now - start > 10 * SEC)
			break;
		ticks++;
		now += 200000; /* 0.2 ms of work */
		uint64_t skipped;
		d = pace_next(d, now, i, &skipped);
		total_skipped += skipped;
	}
	ck_assert_msg(ticks >= 499 && ticks <= 501, "%d ticks in 10 s at 50 Hz", ticks);
	ck_assert_uint_eq(total_skipped, 0);
}
END_TEST

START_TEST(stall_skips_ahead)
{
	const int64_t i = 20 * MS;
	uint64_t skipped = 0;
	/* the tick due at 0 ran 1.005 s late: the deadlines 20 ms .. 1000 ms are gone */
	int64_t d = pace_next(0, 1005 * MS, i, &skipped);
	ck_assert_uint_eq(skipped, 50);
	ck_assert_int_eq(d, 1025 * MS); /* re-anchored one interval after now */
	/* and the new schedule continues from there, without catch-up */
	d = pace_next(d, d + 1, i, &skipped);
	ck_assert_int_eq(d, 1045 * MS);
	ck_assert_uint_eq(skipped, 0);
	/* a stall of exactly 50 intervals */
	ck_assert_int_eq(pace_next(0, 1000 * MS, i, &skipped), 1020 * MS);
	ck_assert_uint_eq(skipped, 50);
	/* a suspend of an hour at the longest interval */
	const int64_t hour = 3600 * SEC;
	ck_assert_int_eq(pace_next(SEC, SEC + 10 * hour + 5, hour, &skipped), SEC + 11 * hour + 5);
	ck_assert_uint_eq(skipped, 10);
}
END_TEST

START_TEST(never_a_burst)
{
	/* whatever the lateness, the next deadline is in the future and at most one interval away */
	for (int k = 0; k < 10000; k++) {
		int64_t i = 1000 + lcg_below(100 * MS);
		int64_t d = lcg_below(1000 * SEC);
		int64_t now = d + lcg_below(50 * i);
		uint64_t skipped = 99;
		int64_t next = pace_next(d, now, i, &skipped);
		ck_assert_int_gt(next, now);
		ck_assert_int_le(next - now, i);
		if (skipped == 0) {
			ck_assert_int_eq(next, d + i);
		} else {
			ck_assert_int_eq(next, now + i);
			ck_assert_int_le(d + (int64_t)skipped * i, now);
			ck_assert_int_gt(d + ((int64_t)skipped + 1) * i, now);
		}
	}
}
END_TEST

/* The first tick comes at most 1 ms after the baseline; the grid stays one interval apart. */
START_TEST(first_tick_soon)
{
	int64_t grid = -1;
	/* 50 Hz: the first rate 1 ms after the start, the next one interval after the start */
	ck_assert_int_eq(pace_first(7 * SEC, 20 * MS, &grid), 7 * SEC + MS);
	ck_assert_int_eq(grid, 7 * SEC);
	ck_assert_int_eq(pace_next(grid, 7 * SEC + MS + 50000, 20 * MS, NULL), 7 * SEC + 20 * MS);
	/* one interval of 1 ms or less: the first tick is the grid's, the next one interval on */
	ck_assert_int_eq(pace_first(7 * SEC, MS, &grid), 7 * SEC + MS);
	ck_assert_int_eq(grid, 7 * SEC + MS);
	ck_assert_int_eq(pace_first(7 * SEC, 250000, &grid), 7 * SEC + 250000);
	ck_assert_int_eq(grid, 7 * SEC + 250000);
	ck_assert_int_eq(pace_next(grid, grid + 1000, 250000, NULL), 7 * SEC + 500000);
	/* an early first tick that ran late: the grid's first deadline is skipped, not burst */
	uint64_t skipped = 0;
	ck_assert_int_eq(pace_first(0, 20 * MS, &grid), MS);
	ck_assert_int_eq(pace_next(grid, 45 * MS, 20 * MS, &skipped), 65 * MS);
	ck_assert_uint_eq(skipped, 2);
}
END_TEST

/* Add fn as a tcase of its own. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, NULL, NULL);
}

/* The pace suite. */
static Suite *pace_suite(void)
{
	Suite *s = suite_create("pace");
	add(s, "normal_step", normal_step);
	add(s, "exactly_on_deadline", exactly_on_deadline);
	add(s, "no_drift_500_steps", no_drift_500_steps);
	add(s, "ten_seconds_at_50hz", ten_seconds_at_50hz);
	add(s, "stall_skips_ahead", stall_skips_ahead);
	add(s, "never_a_burst", never_a_burst);
	add(s, "first_tick_soon", first_tick_soon);
	return s;
}

int main(void)
{
	return testutil_run(pace_suite());
}
