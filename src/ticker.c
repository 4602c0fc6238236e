/* SPDX-License-Identifier: Apache-2.0 */
/* ticker: the loop's wait. A periodic timer whose expiries, and the stop signals, come to one
 * sigwaitinfo(); where no timer can be had, a sigtimedwait() for the time left. */
#include "config.h"

#include "ticker.h"

#include "pace.h"

#include <errno.h>

/* The timer's signal: a realtime one, so that it queues apart from every standard signal. */
static int tick_signal(void)
{
	return SIGRTMIN + 4;
}

int64_t ticker_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * TICKER_NS_PER_S + ts.tv_nsec;
}

/* A time in nanoseconds as a timespec. */
static struct timespec to_timespec(int64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / TICKER_NS_PER_S), .tv_nsec = (long)(ns % TICKER_NS_PER_S)};
}

void ticker_add_signal(sigset_t *set)
{
	sigaddset(set, tick_signal());
}

/* A timer whose expiries are tick_signal() to the process, false if none. To the process, not
 * to a thread: then a stop signal pending beside a tick is taken first (sigwaitinfo() takes a
 * thread's own signals before the process's, and of these the lowest number). */
static bool create_timer(timer_t *timer)
{
	struct sigevent event = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = tick_signal()};
	return timer_create(CLOCK_MONOTONIC, &event, timer) == 0;
}

bool ticker_open(struct ticker *t, const sigset_t *stop, bool want_timer)
{
	t->stop = *stop;
	t->wake = *stop;
	t->deadline_ns = INT64_MAX;
	t->interval_ns = 0;
	sigset_t tick;
	sigemptyset(&tick);
	ticker_add_signal(&tick);
	ticker_add_signal(&t->wake);
	/* Ignored where it is not blocked: a thread that unblocks every signal loses a tick to it,
	 * and the process is not killed by the signal's default action. Blocked, it still queues. */
	struct sigaction ignore = {.sa_handler = SIG_IGN};
	t->timed = want_timer && sigprocmask(SIG_BLOCK, &tick, NULL) == 0 &&
		   sigaction(tick_signal(), &ignore, NULL) == 0 && create_timer(&t->timer);
	return t->timed;
}

void ticker_arm(struct ticker *t, int64_t at_ns, int64_t interval_ns)
{
	t->deadline_ns = at_ns;
	t->interval_ns = interval_ns;
	if (t->timed) {
		struct itimerspec spec = {.it_interval = to_timespec(interval_ns), .it_value = to_timespec(at_ns)};
		if (timer_settime(t->timer, TIMER_ABSTIME, &spec, NULL) != 0)
			ticker_close(t); /* no tick would come: wait untimed from now on */
	}
}

/* The timed wait: one sigwaitinfo() for the timer's signal or a stop signal. */
static bool wait_timed(struct ticker *t, uint64_t *missed)
{
	for (;;) {
		siginfo_t info;
		int sig = sigwaitinfo(&t->wake, &info);
		if (sig < 0)
			continue; /* EINTR: another signal (e.g. SIGCONT after a stop) */
		if (sig != tick_signal())
			return true;
		if (info.si_code == SI_TIMER) {
			*missed = info.si_overrun > 0 ? (uint64_t)info.si_overrun : 0;
			return false;
		}
		/* the same signal number sent by someone else: not a tick */
	}
}

/* The untimed wait: sigtimedwait() for what is left until the deadline (none: until a stop). */
static bool wait_untimed(struct ticker *t)
{
	for (;;) {
		int sig;
		if (t->deadline_ns == INT64_MAX) {
			sig = sigwaitinfo(&t->stop, NULL);
		} else {
			int64_t left = t->deadline_ns - ticker_now_ns();
			if (left < 0)
				left = 0; /* still poll: a pending stop signal must win over a late tick */
			struct timespec timeout = to_timespec(left);
			sig = sigtimedwait(&t->stop, NULL, &timeout);
		}
		if (sig > 0)
			return true;
		if (errno == EAGAIN)
			return false;
		/* EINTR: another signal (e.g. SIGCONT after a stop): wait for what is left. */
	}
}

bool ticker_wait(struct ticker *t, int64_t *now_ns, uint64_t *missed)
{
	*missed = 0;
	bool stopping = t->timed ? wait_timed(t, missed) : wait_untimed(t);
	*now_ns = ticker_now_ns();
	if (!t->timed && !stopping) /* the next deadline; late, the missed ticks are skipped */
		t->deadline_ns = t->interval_ns > 0 ? pace_next(t->deadline_ns, *now_ns, t->interval_ns, missed)
						    : INT64_MAX;
	return stopping;
}

void ticker_close(struct ticker *t)
{
	if (t->timed)
		timer_delete(t->timer);
	t->timed = false;
}
