/* SPDX-License-Identifier: Apache-2.0 */
/* netlink: every interface's byte counters from one rtnetlink RTM_GETSTATS dump. */
#include "config.h"

#include "netlink.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define NETLINK_TIMEOUT_S 1 /* a dump that does not answer within this is a failed reading */

/* The dump request: a header and the statistics filter. */
struct stats_request {
	struct nlmsghdr hdr;
	struct if_stats_msg ifsm;
};

/* Bind to a kernel-chosen address, learn it, and bound how long a receive may block; 0 or -errno. */
static int bind_socket(struct netlink_stats *nl)
{
	struct sockaddr_nl addr = {.nl_family = AF_NETLINK};
	socklen_t len = sizeof addr;
	struct timeval timeout = {.tv_sec = NETLINK_TIMEOUT_S};
	if (bind(nl->fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
	    getsockname(nl->fd, (struct sockaddr *)&addr, &len) != 0 ||
	    setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0)
		return -errno;
	nl->portid = addr.nl_pid;
	return 0;
}

/* Open the socket and prove that the kernel answers a statistics dump; 0 or -errno. */
int netlink_open(struct netlink_stats *nl)
{
	*nl = (struct netlink_stats){.fd = -1};
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nl->fd < 0)
		return -errno;
	int rc = bind_socket(nl);
	if (rc == 0) {
		nl->buf = malloc(NETLINK_BUF_SIZE);
		rc = nl->buf != NULL ? 0 : -ENOMEM;
	}
	if (rc == 0)
		rc = netlink_dump(nl, NULL, NULL);
	if (rc != 0)
		netlink_close(nl);
	return rc;
}

/* Send one RTM_GETSTATS dump request for the 64-bit link statistics; 0 or -errno. */
static int send_request(struct netlink_stats *nl)
{
	struct stats_request req = {
		.hdr = {.nlmsg_len = NLMSG_LENGTH(sizeof(struct if_stats_msg)),
			.nlmsg_type = RTM_GETSTATS,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = ++nl->seq},
		.ifsm = {.family = AF_UNSPEC, .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)},
	};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	ssize_t n;
	do
		n = sendto(nl->fd, &req, req.hdr.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

/* Receive one datagram into the buffer; its length, or -errno (-EMSGSIZE if it did not fit). */
static ssize_t receive(struct netlink_stats *nl)
{
	ssize_t n;
	do
		n = recv(nl->fd, nl->buf, NETLINK_BUF_SIZE, MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n > NETLINK_BUF_SIZE ? -EMSGSIZE : n;
}

/* Find IFLA_STATS_LINK_64 in an RTM_NEWSTATS message and copy rx/tx bytes; 0, or -1 if absent. */
static int parse_stats(const struct nlmsghdr *hdr, struct counter_pair *out)
{
	const size_t head = NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct if_stats_msg)));
	const unsigned char *base = (const unsigned char *)hdr;
	for (size_t off = head; hdr->nlmsg_len >= off + sizeof(struct rtattr);) {
		const struct rtattr *rta = (const void *)(base + off);
		if (rta->rta_len < sizeof *rta || rta->rta_len > hdr->nlmsg_len - off)
			return -1;
		size_t payload = rta->rta_len - RTA_LENGTH(0);
		if (rta->rta_type == IFLA_STATS_LINK_64 &&
		    payload >= offsetof(struct rtnl_link_stats64, tx_bytes) + sizeof(uint64_t)) {
			struct rtnl_link_stats64 stats = {0};
			memcpy(&stats, RTA_DATA(rta), payload < sizeof stats ? payload : sizeof stats);
			*out = (struct counter_pair){.rx = stats.rx_bytes, .tx = stats.tx_bytes};
			return 0;
		}
		off += RTA_ALIGN(rta->rta_len);
	}
	return -1;
}

/* Act on one reply message; 1 when the dump ended, 0 if more follow, or -errno. */
static int handle_message(const struct nlmsghdr *hdr, netlink_stats_fn *fn, void *ctx)
{
	if (hdr->nlmsg_type == NLMSG_DONE || hdr->nlmsg_type == NLMSG_ERROR) {
		int error = 0;
		if (hdr->nlmsg_len >= NLMSG_LENGTH(sizeof error))
			memcpy(&error, NLMSG_DATA(hdr), sizeof error);
		return error < 0 ? error : 1;
	}
	struct counter_pair counters;
	if (hdr->nlmsg_type == RTM_NEWSTATS && fn != NULL &&
	    hdr->nlmsg_len >= NLMSG_LENGTH(sizeof(struct if_stats_msg)) && parse_stats(hdr, &counters) == 0) {
		const struct if_stats_msg *ifsm = NLMSG_DATA(hdr);
		fn((int)ifsm->ifindex, &counters, ctx);
	}
	return 0;
}

/* Walk the messages of one datagram of len bytes; 1 when the dump ended, 0 if more follow, or -errno. */
static int walk_datagram(const struct netlink_stats *nl, size_t len, netlink_stats_fn *fn, void *ctx)
{
	for (size_t off = 0; off < len && len - off >= sizeof(struct nlmsghdr);) {
		const struct nlmsghdr *hdr = (const void *)(nl->buf + off);
		if (hdr->nlmsg_len < sizeof *hdr || hdr->nlmsg_len > len - off)
			return -EBADMSG;
		off += NLMSG_ALIGN(hdr->nlmsg_len);
		if (hdr->nlmsg_pid != nl->portid || hdr->nlmsg_seq != nl->seq)
			continue; /* the rest of an abandoned earlier dump */
		int rc = handle_message(hdr, fn, ctx);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Request one dump and call fn for every interface in it; 0 or -errno. Allocates nothing. */
int netlink_dump(struct netlink_stats *nl, netlink_stats_fn *fn, void *ctx)
{
	if (nl->fd < 0)
		return -EBADF;
	int rc = send_request(nl);
	while (rc == 0) {
		ssize_t n = receive(nl);
		if (n < 0)
			return (int)n;
		rc = walk_datagram(nl, (size_t)n, fn, ctx);
	}
	return rc < 0 ? rc : 0;
}

/* Close the socket and free the buffer (safe to call on a closed one). */
void netlink_close(struct netlink_stats *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	free(nl->buf);
	*nl = (struct netlink_stats){.fd = -1};
}
