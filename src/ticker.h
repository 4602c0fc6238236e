/* SPDX-License-Identifier: Apache-2.0 */
/* ticker: the loop's wait. A periodic timer whose expiries, and the stop signals, come to one
 * sigwaitinfo(); where no timer can be had, a sigtimedwait() for the time left. Every thread
 * must block the timer's signal (ticker_add_signal()) as it blocks the stop signals. */
#ifndef KN_TICKER_H
#define KN_TICKER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct ticker {
	sigset_t stop;       /* the signals that end a wait */
	sigset_t wake;       /* stop, and the timer's signal */
	bool timed;          /* a timer was created; else the waits are sigtimedwait() */
	timer_t timer;       /* (timed) its expiries: a signal to the process, which it blocks */
	int64_t deadline_ns; /* (untimed) the next tick; INT64_MAX: none until ticker_arm() */
	int64_t interval_ns; /* the time between ticks; 0: one tick, then none */
};

#define TICKER_NS_PER_S INT64_C(1000000000) /* nanoseconds a second, of ticker_now_ns()'s clock */

/* CLOCK_MONOTONIC in nanoseconds, the clock of every deadline. */
int64_t ticker_now_ns(void);

/* Add the timer's signal to set: block it with the stop signals before any thread starts. */
void ticker_add_signal(sigset_t *set);

/* Set up the ticker for the calling thread, unarmed: with a timer if want_timer and one can be
 * created, else untimed (the fallback, which tests also ask for by name). The timer's signal is
 * blocked in this thread; the stop signals must already be. Returns t->timed. */
bool ticker_open(struct ticker *t, const sigset_t *stop, bool want_timer);

/* The next tick at at_ns (absolute), then one every interval_ns (0: that one only). */
void ticker_arm(struct ticker *t, int64_t at_ns, int64_t interval_ns);

/* Wait for the next tick or a stop signal, whichever comes first; true on a stop signal. A stop
 * signal that came while the thread was busy wins over a tick that fell due then too. *now_ns
 * gets the clock after the wait; *missed the ticks that fell due while this thread was late
 * (0 if it was on time), which are not delivered. */
bool ticker_wait(struct ticker *t, int64_t *now_ns, uint64_t *missed);

/* Delete the timer, if any. */
void ticker_close(struct ticker *t);

#endif
