/* SPDX-License-Identifier: Apache-2.0 */
/* netlink: statistics and link dumps over one rtnetlink socket; the I/O around nlparse. */
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

#define NETLINK_TIMEOUT_S 1        /* a dump that does not answer within this is a failed reading */
#define NETLINK_DRAIN_MAX 65536    /* datagrams a drain reads at most before giving up for now */

#ifndef RTEXT_FILTER_SKIP_STATS
#define RTEXT_FILTER_SKIP_STATS (1 << 3) /* Linux 4.19; older kernels ignore the bit */
#endif

/* A dump request: a header and the family message of its type; a link dump also carries
 * IFLA_EXT_MASK, so that the kernel leaves out what the name check does not need. */
struct dump_request {
	struct nlmsghdr hdr;
	union {
		struct if_stats_msg ifsm;
		struct {
			struct ifinfomsg ifi;
			struct rtattr ext_attr;
			uint32_t ext_mask;
		} link;
	} body;
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
	if (rc == -EINTR)
		rc = 0; /* an interrupted dump still answered */
	if (rc != 0)
		netlink_close(nl);
	return rc;
}

/* Receive one datagram into the buffer (flags: 0 or MSG_DONTWAIT); its length and sender, or
 * -errno (-EMSGSIZE if it did not fit, -ENODATA at end of file). */
static ssize_t receive(struct netlink_stats *nl, int flags, uint32_t *sender)
{
	struct sockaddr_nl from = {0};
	socklen_t fromlen = sizeof from;
	ssize_t n;
	do
		n = recvfrom(nl->fd, nl->buf, NETLINK_BUF_SIZE, MSG_TRUNC | flags, (struct sockaddr *)&from,
			     &fromlen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENODATA;
	*sender = from.nl_pid;
	return n > NETLINK_BUF_SIZE ? -EMSGSIZE : n;
}

/* Read and drop what an abandoned dump left queued, without blocking (each read lets the kernel
 * go on with that dump until it ends); the socket is clean again unless the bound was hit. */
static void drain(struct netlink_stats *nl)
{
	uint32_t sender;
	for (int i = 0; i < NETLINK_DRAIN_MAX; i++) {
		ssize_t n = receive(nl, MSG_DONTWAIT, &sender);
		if (n == -EAGAIN || n == -EWOULDBLOCK) {
			nl->dirty = false;
			return;
		}
		if (n < 0 && n != -EMSGSIZE && n != -ENOBUFS)
			return; /* a real error: the next request will meet it */
	}
}

/* Send one dump request of type with its family message; 0 or -errno. */
static int send_request(struct netlink_stats *nl, uint16_t type)
{
	struct dump_request req = {
		.hdr = {.nlmsg_type = type, .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = ++nl->seq},
	};
	if (type == RTM_GETSTATS) {
		req.hdr.nlmsg_len = NLMSG_LENGTH(sizeof(struct if_stats_msg));
		req.body.ifsm = (struct if_stats_msg){.family = AF_UNSPEC,
						      .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)};
	} else {
		req.hdr.nlmsg_len = NLMSG_LENGTH(sizeof req.body.link);
		req.body.link.ifi = (struct ifinfomsg){.ifi_family = AF_UNSPEC};
		req.body.link.ext_attr = (struct rtattr){.rta_len = RTA_LENGTH(sizeof(uint32_t)), .rta_type = IFLA_EXT_MASK};
		req.body.link.ext_mask = RTEXT_FILTER_SKIP_STATS;
	}
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	ssize_t n;
	do
		n = sendto(nl->fd, &req, req.hdr.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

/* Request one dump of type and hand every reply to dump's callbacks; 0 complete, -EINTR
 * interrupted, or -errno. A dump left before its end marks the socket for draining. */
static int run_dump(struct netlink_stats *nl, uint16_t type, struct nlparse_dump *dump)
{
	if (nl->fd < 0)
		return -EBADF;
	if (nl->dirty)
		drain(nl);
	int rc = send_request(nl, type);
	dump->portid = nl->portid;
	dump->seq = nl->seq;
	while (rc == NLPARSE_MORE) {
		uint32_t sender = 0;
		ssize_t n = receive(nl, 0, &sender);
		rc = n < 0 ? (int)n : nlparse_walk(dump, nl->buf, (size_t)n, sender);
	}
	if (rc != NLPARSE_DONE) {
		nl->dirty = true;
		return rc;
	}
	return dump->interrupted ? -EINTR : 0;
}

int netlink_dump(struct netlink_stats *nl, nlparse_stats_fn *fn, void *ctx)
{
	struct nlparse_dump dump = {.stats = fn, .ctx = ctx};
	return run_dump(nl, RTM_GETSTATS, &dump);
}

int netlink_links(struct netlink_stats *nl, nlparse_link_fn *fn, void *ctx)
{
	struct nlparse_dump dump = {.link = fn, .ctx = ctx};
	return run_dump(nl, RTM_GETLINK, &dump);
}

void netlink_close(struct netlink_stats *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	free(nl->buf);
	*nl = (struct netlink_stats){.fd = -1};
}
