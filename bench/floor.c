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
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

static unsigned char buf[FLOOR_BUF];
static char names[FLOOR_MAX_IFACES][FLOOR_NAME_MAX];
static size_t nnames;
static volatile unsigned long long sink; /* keeps the reads from being optimised away */

/* Sleep until the next multiple of interval_ns after *deadline, which it advances. */
static void wait_tick(struct timespec *deadline, long interval_ns)
{
	deadline->tv_nsec += interval_ns;
	while (deadline->tv_nsec >= 1000000000L) {
		deadline->tv_nsec -= 1000000000L;
		deadline->tv_sec++;
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

int main(int argc, char **argv)
{
	long usec = argc >= 3 ? atol(argv[2]) : 0;
	if (usec > 0 && argc == 3 && strcmp(argv[1], "netlink") == 0)
		return run_netlink(usec * 1000);
	if (usec > 0 && argc == 4 && strcmp(argv[1], "reference") == 0)
		return run_reference(usec * 1000, argv[3]);
	fprintf(stderr, "usage: floor netlink USEC | floor reference USEC PREFIX\n");
	return 2;
}
