/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floor: the two baselines of bench/run.sh, each a bare loop on absolute deadlines that does only
 * the reading, nothing else, until a signal kills it.
 *
 *   floor netlink USEC            one RTM_GETSTATS dump (IFLA_STATS_LINK_64) per tick, replies
 *                                 received and dropped unparsed: the floor of the netlink source
 *   floor reference USEC PREFIX   for every interface whose name starts with PREFIX (listed once),
 *                                 open/read/close rx_bytes and tx_bytes per tick: what the
 *                                 reference plugin does
 *
 * The floors of bench/matrix.sh (K: how many of the interfaces starting with PREFIX, in name
 * order, are read; 0 means all of them):
 *   floor sleep USEC              the pacing alone: a clock_nanosleep per tick
 *   floor pread USEC PREFIX K     rx_bytes and tx_bytes of K interfaces held open, two preads each
 *   floor dump USEC               one RTM_GETSTATS dump per tick (as floor netlink)
 *   floor get USEC PREFIX K       one RTM_GETSTATS request per interface of the K (no dump), all in
 *                                 one sendmsg, replies drained with recvmmsg
 *   floor procfs USEC             /proc/net/dev read whole per tick (one pread per page of it)
 * With KN_FLOOR_TICKS=K in the environment a floor exits after K ticks (for calibrating the cost
 * model with a tiny USEC: CPU per tick without the sleep). With KN_FLOOR_PACE=sigwait every floor
 * paces as the plugin does (SIGTERM, SIGINT and SIGHUP blocked, one clock_gettime and one
 * sigtimedwait with the time left per tick, exit on the signal) instead of clock_nanosleep: what
 * the race-free wait for a stop signal costs over a bare sleep.
 */
#include "config.h"

#include <net/if.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define FLOOR_BUF 65536
#define FLOOR_MAX_IFACES 4096
#define FLOOR_NAME_MAX 16
#define FLOOR_GET_MAX 64      /* per-interface requests per sendmsg, as the plugin batches them */
#define FLOOR_REPLY_MAX 1024

static unsigned char buf[FLOOR_BUF];
static char names[FLOOR_MAX_IFACES][FLOOR_NAME_MAX];
static size_t nnames;
static volatile unsigned long long sink; /* keeps the reads from being optimised away */

static long ticks_left = -1; /* KN_FLOOR_TICKS: exit after that many ticks (calibration runs) */
static int pace_sigwait;     /* KN_FLOOR_PACE=sigwait: pace with sigtimedwait, as the plugin */
static sigset_t stop_set;    /* the signals that sigtimedwait waits for */

/* Wait until the absolute CLOCK_MONOTONIC deadline in sigtimedwait; exit when a stop signal comes. */
static void sigwait_until(const struct timespec *deadline)
{
	for (;;) {
		struct timespec now, left;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long ns = (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL +
			       (deadline->tv_nsec - now.tv_nsec);
		if (ns < 0)
			ns = 0;
		left.tv_sec = (time_t)(ns / 1000000000LL);
		left.tv_nsec = (long)(ns % 1000000000LL);
		if (sigtimedwait(&stop_set, NULL, &left) > 0)
			exit(0);
		if (errno == EAGAIN)
			return;
	}
}

/* Sleep until the next multiple of interval_ns after *deadline, which it advances. */
static void wait_tick(struct timespec *deadline, long interval_ns)
{
	if (ticks_left >= 0 && ticks_left-- == 0)
		exit(0);
	deadline->tv_nsec += interval_ns;
	while (deadline->tv_nsec >= 1000000000L) {
		deadline->tv_nsec -= 1000000000L;
		deadline->tv_sec++;
	}
	if (pace_sigwait) {
		sigwait_until(deadline);
		return;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		continue;
}

/* Send one statistics dump request and drain its replies; -1 on error. */
static int dump_once(int fd, unsigned seq)
{
	struct {
		struct nlmsghdr hdr;
		struct if_stats_msg ifsm;
	} req = {
		.hdr = {.nlmsg_len = sizeof req, .nlmsg_type = RTM_GETSTATS,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = seq},
		.ifsm = {.filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)},
	};
	if (send(fd, &req, sizeof req, 0) < 0)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof buf, 0);
		if (n <= 0)
			return -1;
		for (size_t off = 0; off + sizeof(struct nlmsghdr) <= (size_t)n;) {
			const struct nlmsghdr *hdr = (const void *)(buf + off);
			if (hdr->nlmsg_type == NLMSG_DONE || hdr->nlmsg_type == NLMSG_ERROR)
				return 0;
			off += NLMSG_ALIGN(hdr->nlmsg_len);
		}
	}
}

/* The netlink floor loop. */
static int run_netlink(long interval_ns)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		perror("floor: socket");
		return 1;
	}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (unsigned seq = 1;; seq++) {
		if (dump_once(fd, seq) != 0) {
			perror("floor: dump");
			return 1;
		}
		wait_tick(&deadline, interval_ns);
	}
}

/* List the interfaces whose name starts with prefix, once. */
static void list_names(const char *prefix)
{
	DIR *dir = opendir("/sys/class/net");
	struct dirent *entry;
	while (dir != NULL && (entry = readdir(dir)) != NULL && nnames < FLOOR_MAX_IFACES)
		if (strncmp(entry->d_name, prefix, strlen(prefix)) == 0 && strlen(entry->d_name) < FLOOR_NAME_MAX)
			strcpy(names[nnames++], entry->d_name);
	if (dir != NULL)
		closedir(dir);
}

/* Open, read and close one counter file, as the reference plugin does; the value. */
static unsigned long long read_counter(const char *name, const char *counter)
{
	char path[96], text[32];
	snprintf(path, sizeof path, "/sys/class/net/%s/statistics/%s", name, counter);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, text, sizeof text - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return strtoull(text, NULL, 10);
}

/* The reference floor loop. */
static int run_reference(long interval_ns, const char *prefix)
{
	list_names(prefix);
	if (nnames == 0) {
		fprintf(stderr, "floor: no interface starts with %s\n", prefix);
		return 1;
	}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (;;) {
		for (size_t i = 0; i < nnames; i++)
			sink += read_counter(names[i], "rx_bytes") + read_counter(names[i], "tx_bytes");
		wait_tick(&deadline, interval_ns);
	}
}

/* Order of two names, for qsort. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* List the interfaces starting with prefix, sorted, and keep the first k (0: all). */
static void list_first(const char *prefix, size_t k)
{
	list_names(prefix);
	qsort(names, nnames, sizeof names[0], name_cmp);
	if (k > 0 && k < nnames)
		nnames = k;
}

/* The sleep floor: pacing only. */
static int run_sleep(long interval_ns)
{
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (;;)
		wait_tick(&deadline, interval_ns);
	return 0;
}

static int fds[FLOOR_MAX_IFACES][2];

/* The pread floor: two held files per interface, pread each tick. */
static int run_pread(long interval_ns)
{
	char path[96], text[32];
	for (size_t i = 0; i < nnames; i++)
		for (int j = 0; j < 2; j++) {
			snprintf(path, sizeof path, "/sys/class/net/%s/statistics/%s", names[i], j ? "tx_bytes" : "rx_bytes");
			fds[i][j] = open(path, O_RDONLY | O_CLOEXEC);
		}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (;;) {
		for (size_t i = 0; i < nnames; i++)
			for (int j = 0; j < 2; j++) {
				ssize_t n = pread(fds[i][j], text, sizeof text - 1, 0);
				text[n > 0 ? n : 0] = '\0';
				sink += strtoull(text, NULL, 10);
			}
		wait_tick(&deadline, interval_ns);
	}
	return 0;
}

/* One RTM_GETSTATS request for one interface. */
struct get_req {
	struct nlmsghdr hdr;
	struct if_stats_msg ifsm;
};

static struct get_req reqs[FLOOR_GET_MAX];
static unsigned char replies[FLOOR_GET_MAX][FLOOR_REPLY_MAX];
static struct iovec iovs[FLOOR_GET_MAX];
static struct mmsghdr msgs[FLOOR_GET_MAX];

/* Request n interfaces' statistics in one sendmsg and drain the n replies; -1 on error. */
static int get_batch(int fd, const int *ifindexes, size_t n, unsigned seq)
{
	for (size_t i = 0; i < n; i++) {
		reqs[i] = (struct get_req){
			.hdr = {.nlmsg_len = sizeof reqs[i], .nlmsg_type = RTM_GETSTATS, .nlmsg_flags = NLM_F_REQUEST,
				.nlmsg_seq = seq},
			.ifsm = {.ifindex = (uint32_t)ifindexes[i], .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)},
		};
		iovs[i] = (struct iovec){replies[i], FLOOR_REPLY_MAX};
		msgs[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iovs[i], .msg_iovlen = 1}};
	}
	if (send(fd, reqs, n * sizeof reqs[0], 0) < 0)
		return -1;
	for (size_t got = 0; got < n;) {
		int m = recvmmsg(fd, msgs + got, (unsigned)(n - got), MSG_WAITFORONE, NULL);
		if (m <= 0)
			return -1;
		got += (size_t)m;
	}
	return 0;
}

/* The per-interface netlink floor. */
static int run_get(long interval_ns)
{
	static int ifindexes[FLOOR_MAX_IFACES];
	for (size_t i = 0; i < nnames; i++)
		ifindexes[i] = (int)if_nametoindex(names[i]);
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		perror("floor: socket");
		return 1;
	}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (unsigned seq = 1;; seq++) {
		for (size_t done = 0; done < nnames; done += FLOOR_GET_MAX) {
			size_t n = nnames - done < FLOOR_GET_MAX ? nnames - done : FLOOR_GET_MAX;
			if (get_batch(fd, ifindexes + done, n, seq) != 0) {
				perror("floor: get");
				return 1;
			}
		}
		wait_tick(&deadline, interval_ns);
	}
}

/* The /proc/net/dev floor: one pread of the whole file per tick. */
static int run_procfs(long interval_ns)
{
	static char text[1 << 20];
	int fd = open("/proc/net/dev", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("floor: /proc/net/dev");
		return 1;
	}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (;;) {
		size_t len = 0;
		ssize_t n;
		/* seq_file gives one page of lines per read: read on until one comes back short */
		while ((n = pread(fd, text + len, sizeof text - len, (off_t)len)) > 0) {
			len += (size_t)n;
			if ((size_t)n + 512 < 4096)
				break;
		}
		sink += len;
		wait_tick(&deadline, interval_ns);
	}
}

int main(int argc, char **argv)
{
	long usec = argc >= 3 ? atol(argv[2]) : 0;
	if (getenv("KN_FLOOR_TICKS") != NULL)
		ticks_left = atol(getenv("KN_FLOOR_TICKS"));
	if (getenv("KN_FLOOR_PACE") != NULL && strcmp(getenv("KN_FLOOR_PACE"), "sigwait") == 0) {
		pace_sigwait = 1;
		sigemptyset(&stop_set);
		sigaddset(&stop_set, SIGTERM);
		sigaddset(&stop_set, SIGINT);
		sigaddset(&stop_set, SIGHUP);
		sigprocmask(SIG_BLOCK, &stop_set, NULL);
	}
	const char *mode = argc >= 2 ? argv[1] : "";
	if (usec > 0 && argc == 3 && (strcmp(mode, "netlink") == 0 || strcmp(mode, "dump") == 0))
		return run_netlink(usec * 1000);
	if (usec > 0 && argc == 3 && strcmp(mode, "sleep") == 0)
		return run_sleep(usec * 1000);
	if (usec > 0 && argc == 3 && strcmp(mode, "procfs") == 0)
		return run_procfs(usec * 1000);
	if (usec > 0 && argc == 4 && strcmp(mode, "reference") == 0)
		return run_reference(usec * 1000, argv[3]);
	if (usec > 0 && argc == 5 && (strcmp(mode, "pread") == 0 || strcmp(mode, "get") == 0)) {
		list_first(argv[3], (size_t)atol(argv[4]));
		if (nnames == 0) {
			fprintf(stderr, "floor: no interface starts with %s\n", argv[3]);
			return 1;
		}
		return mode[0] == 'p' ? run_pread(usec * 1000) : run_get(usec * 1000);
	}
	fprintf(stderr, "usage: floor netlink|dump|sleep|procfs USEC | floor reference USEC PREFIX |"
			" floor pread|get USEC PREFIX K\n");
	return 2;
}
