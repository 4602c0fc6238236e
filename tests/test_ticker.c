/* SPDX-License-Identifier: Apache-2.0 */
/* test_ticker: the loop's wait on the real clock, with a timer and without (each case runs
 * twice: _i = 0 untimed, _i = 1 timed). Bounds are one-sided or loose: a loaded machine only
 * makes a wait later, and a tick is never early. */
#include "config.h"

#include "ticker.h"

#include "testutil.h"

#include <check.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define MS INT64_C(1000000)

/* Block the stop signals, as the plugin does before its loop, and open a ticker on them. */
static void open_ticker(struct ticker *t, bool timed)
{
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	ck_assert(ticker_open(t, &stop, timed) == timed); /* a timer is to be had on Linux */
}

/* Open a ticker as open_ticker() does, armed to tick every millisecond from 1 ms on. */
static void open_every_ms(struct ticker *t, bool timed)
{
	open_ticker(t, timed);
	ticker_arm(t, ticker_now_ns() + MS, MS);
}

/* A time in nanoseconds as a timespec. */
static struct timespec timespec_of(int64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / (1000 * MS)), .tv_nsec = (long)(ns % (1000 * MS))};
}

/* Sleep ns on the monotonic clock, whatever signal comes. */
static void stall(int64_t ns)
{
	struct timespec until = timespec_of(ticker_now_ns() + ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) != 0)
		;
}

/* Have SIGTERM sent to the process ns from now, by a timer of the test's own. */
static void stop_later(int64_t ns)
{
	timer_t timer;
	struct sigevent event = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGTERM};
	ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, &event, &timer), 0);
	struct itimerspec spec = {.it_value = timespec_of(ns)};
	ck_assert_int_eq(timer_settime(timer, 0, &spec, NULL), 0);
}

START_TEST(ticks_never_early)
{
	struct ticker t;
	open_ticker(&t, _i);
	const int64_t first = ticker_now_ns() + 2 * MS, interval = 2 * MS;
	ticker_arm(&t, first, interval);
	int64_t prev = 0;
	for (int k = 0; k < 10; k++) {
		int64_t now;
		uint64_t missed;
		ck_assert(!ticker_wait(&t, &now, &missed));
		k += (int)missed; /* a loaded machine may skip some: they are counted, */
		ck_assert_int_ge(now, first + k * interval); /* never more than have fallen due */
		ck_assert_int_gt(now, prev);
		prev = now;
	}
	ticker_close(&t);
}
END_TEST

START_TEST(stall_counts_missed_ticks)
{
	struct ticker t;
	open_every_ms(&t, _i);
	int64_t now;
	uint64_t missed;
	ck_assert(!ticker_wait(&t, &now, &missed));
	stall(30 * MS); /* 30 deadlines pass, at least 29 after the next one */
	ck_assert(!ticker_wait(&t, &now, &missed));
	ck_assert_uint_ge(missed, 25);
	ck_assert(!ticker_wait(&t, &now, &missed)); /* and the ticks go on */
	ticker_close(&t);
}
END_TEST

START_TEST(stop_signal_ends_a_long_wait)
{
	struct ticker t;
	open_ticker(&t, _i);
	const int64_t before = ticker_now_ns();
	ticker_arm(&t, before + 600 * 1000 * MS, 600 * 1000 * MS); /* a tick in ten minutes */
	raise(SIGTERM); /* blocked: pending until the wait takes it */
	int64_t now;
	uint64_t missed;
	ck_assert(ticker_wait(&t, &now, &missed));
	ck_assert_int_lt(now - before, 60 * 1000 * MS);
	ck_assert_uint_eq(missed, 0);
	ticker_close(&t);
}
END_TEST

START_TEST(stop_signal_beats_a_due_tick)
{
	struct ticker t;
	open_every_ms(&t, _i);
	stall(5 * MS);           /* busy: a tick falls due */
	kill(getpid(), SIGHUP); /* to the process, as kill(1) and nsys send it */
	int64_t now;
	uint64_t missed;
	ck_assert(ticker_wait(&t, &now, &missed)); /* the signal, not the tick */
	ticker_close(&t);
}
END_TEST

START_TEST(stop_signal_while_always_late)
{
	struct ticker t;
	open_every_ms(&t, _i);
	int64_t now;
	uint64_t missed;
	for (int k = 0; k < 5; k++) { /* a sample that takes longer than the interval */
		ck_assert(!ticker_wait(&t, &now, &missed));
		stall(3 * MS);
	}
	kill(getpid(), SIGTERM);
	ck_assert(ticker_wait(&t, &now, &missed));
	ticker_close(&t);
}
END_TEST

START_TEST(one_shot_then_none)
{
	struct ticker t;
	open_ticker(&t, _i);
	ticker_arm(&t, ticker_now_ns() + MS, 0);
	int64_t now;
	uint64_t missed;
	ck_assert(!ticker_wait(&t, &now, &missed));
	const int64_t before = now;
	stop_later(30 * MS);
	ck_assert(ticker_wait(&t, &now, &missed)); /* no tick in 30 ms: the stop signal */
	ck_assert_int_ge(now - before, 30 * MS);
	/* re-armed on a grid, as the loop does after an early first tick */
	ticker_arm(&t, ticker_now_ns() + MS, MS);
	ck_assert(!ticker_wait(&t, &now, &missed));
	ticker_close(&t);
}
END_TEST

/* Add fn as a tcase of its own, run untimed (_i = 0) and timed (_i = 1). */
static void add(Suite *s, const char *name, const TTest *fn)
{
	TCase *tc = tcase_create(name);
	tcase_set_timeout(tc, TESTUTIL_TIMEOUT_S);
	tcase_add_loop_test(tc, fn, 0, 2);
	suite_add_tcase(s, tc);
}

/* The ticker suite. */
static Suite *ticker_suite(void)
{
	Suite *s = suite_create("ticker");
	add(s, "ticks_never_early", ticks_never_early);
	add(s, "stall_counts_missed_ticks", stall_counts_missed_ticks);
	add(s, "stop_signal_ends_a_long_wait", stop_signal_ends_a_long_wait);
	add(s, "stop_signal_beats_a_due_tick", stop_signal_beats_a_due_tick);
	add(s, "stop_signal_while_always_late", stop_signal_while_always_late);
	add(s, "one_shot_then_none", one_shot_then_none);
	return s;
}

int main(void)
{
	return testutil_run(ticker_suite());
}
