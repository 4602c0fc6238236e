/* SPDX-License-Identifier: Apache-2.0 */
/*
 * probe: run a command for a fixed time, stop it with SIGTERM, and report what it cost.
 *
 *   probe MILLISECONDS COMMAND [ARG]...
 *
 * Prints one line of key=value pairs: start_ns (CLOCK_MONOTONIC just before fork), term_ns (when
 * SIGTERM was sent), exit_ns (when wait4 returned), user_us and sys_us (the child's CPU time),
 * sched_ns (its time on a CPU up to just before SIGTERM, from /proc/PID/schedstat: start-up
 * included, the final sample and the exit not; -1 if unreadable), maxrss_kb (its peak resident
 * set, VmHWM), rss_kb, pss_kb, uss_kb and anon_kb (from /proc/PID/smaps_rollup at that same moment:
 * resident set, proportional set, private pages (Private_Clean + Private_Dirty) and anonymous
 * pages; -1 if unreadable) and status (exit status, or 128+signal).
 * Exit status: 0 when the command ran and was stopped, 1 otherwise.
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The first field of /proc/PID/schedstat: nanoseconds the task ran on a CPU; -1 if unreadable. */
static long long sched_ns(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
	FILE *f = fopen(path, "r");
	long long ns = -1;
	if (f != NULL) {
		if (fscanf(f, "%lld", &ns) != 1)
			ns = -1;
		fclose(f);
	}
	return ns;
}

/* Memory of a process from /proc/PID/smaps_rollup, KiB; -1 where unreadable. */
struct memory {
	long long rss, pss, uss, anon;
};

/* Read the resident, proportional, private and anonymous sizes of process pid. */
static struct memory memory_of(pid_t pid)
{
	struct memory m = {-1, -1, -1, -1};
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", (long)pid);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return m;
	long long clean = -1, dirty = -1, kb;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "Rss: %lld", &kb) == 1)
			m.rss = kb;
		else if (sscanf(line, "Pss: %lld", &kb) == 1)
			m.pss = kb;
		else if (sscanf(line, "Private_Clean: %lld", &kb) == 1)
			clean = kb;
		else if (sscanf(line, "Private_Dirty: %lld", &kb) == 1)
			dirty = kb;
		else if (sscanf(line, "Anonymous: %lld", &kb) == 1)
			m.anon = kb;
	}
	fclose(f);
	if (clean >= 0 && dirty >= 0)
		m.uss = clean + dirty;
	return m;
}

/* Microseconds in a struct timeval. */
static int64_t tv_us(struct timeval tv)
{
	return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	long ms = argc >= 3 ? atol(argv[1]) : 0;
	if (ms <= 0) {
		fprintf(stderr, "usage: probe MILLISECONDS COMMAND [ARG]...\n");
		return 2;
	}
	int64_t start = now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0)
		return 1;
	struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
	nanosleep(&pause, NULL);
	long long ran = sched_ns(pid);
	struct memory mem = memory_of(pid);
	int64_t term = now_ns();
	kill(pid, SIGTERM);
	int status = 0;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid)
		return 1;
	int64_t done = now_ns();
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("start_ns=%" PRId64 " term_ns=%" PRId64 " exit_ns=%" PRId64 " user_us=%" PRId64
	       " sys_us=%" PRId64 " sched_ns=%lld maxrss_kb=%ld rss_kb=%lld pss_kb=%lld uss_kb=%lld"
	       " anon_kb=%lld status=%d\n",
	       start, term, done, tv_us(ru.ru_utime), tv_us(ru.ru_stime), ran, ru.ru_maxrss, mem.rss,
	       mem.pss, mem.uss, mem.anon, code);
	return 0;
}
