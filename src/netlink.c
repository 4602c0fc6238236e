/* SPDX-License-Identifier: Apache-2.0 */
/* netlink: statistics and link dumps over one rtnetlink socket; the I/O around nlparse. */
#include "config.h"

#include "netlink.h"

#include "iface.h"

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
#define NETLINK_REPLY_MAX 1024     /* room for one RTM_NEWSTATS reply (about 232 bytes with LINK_64) */

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

int netlink_open_links(struct netlink_stats *nl)
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
	if (rc != 0)
		netlink_close(nl);
	return rc;
}

int netlink_open(struct netlink_stats *nl)
{
	int rc = netlink_open_links(nl);
	if (rc == 0)
		rc = netlink_dump(nl, NULL, NULL);
	if (rc == -EINTR)
		rc = 0; /* an interrupted dump still answered */
	if (rc != 0)
		netlink_close(nl);
	return rc;
}

int netlink_watch_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	struct sockaddr_nl addr = {.nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK};
	if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
		int err = errno;
		close(fd);
		return -err;
	}
	return fd;
}

bool netlink_watch_heard(int fd)
{
	unsigned char buf[256]; /* only whether something came matters: MSG_TRUNC drops the rest */
	bool heard = false;
	for (int i = 0; i < NETLINK_DRAIN_MAX; i++) {
		ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC);
		if (n > 0)
			heard = true;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return heard;
		else
			return true; /* ENOBUFS: notifications were lost; anything else: cannot tell */
	}
	return true; /* still more queued: a storm of changes */
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

/* What one link dump is compared against, and what it showed. */
struct link_proof {
	netlink_ifindex_fn *ifindex_of;
	void *ctx;
	size_t links;   /* links in the dump whose names the listing would show */
	size_t matched; /* selected, present ones at the listing's ifindex (one elsewhere, or of
			 * unknown ifindex, is not: then fewer match than were selected) */
};

/* Link dump callback: count the link as the listing counts names; check a selected one's ifindex. */
static void prove_one(int ifindex, const char *name, void *ctx)
{
	struct link_proof *proof = ctx;
	if (!iface_name_valid(name))
		return; /* the listing skips it too (the kernel allows a few names we refuse) */
	proof->links++;
	if (proof->ifindex_of(name, proof->ctx) == ifindex)
		proof->matched++;
}

bool netlink_links_agree(struct netlink_stats *nl, size_t listed, size_t selected, netlink_ifindex_fn *ifindex_of,
			 void *ctx)
{
	struct link_proof proof = {.ifindex_of = ifindex_of, .ctx = ctx};
	return netlink_links(nl, prove_one, &proof) == 0 && proof.links == listed && proof.matched == selected;
}

/* One RTM_GETSTATS request for a single interface. */
struct get_request {
	struct nlmsghdr hdr;
	struct if_stats_msg ifsm;
};

int netlink_reserve(struct netlink_stats *nl, size_t n)
{
	if (n > NETLINK_BATCH_MAX)
		n = NETLINK_BATCH_MAX;
	if (n <= nl->batch)
		return 0;
	struct get_request *req = realloc(nl->requests, n * sizeof *req);
	if (req != NULL)
		nl->requests = req;
	struct mmsghdr *msgs = realloc(nl->msgs, n * sizeof *msgs);
	if (msgs != NULL)
		nl->msgs = msgs;
	struct iovec *iov = realloc(nl->iov, n * sizeof *iov);
	if (iov != NULL)
		nl->iov = iov;
	struct sockaddr_nl *from = realloc(nl->from, n * sizeof *from);
	if (from != NULL)
		nl->from = from;
	unsigned char *replies = realloc(nl->replies, n * NETLINK_REPLY_MAX);
	if (replies != NULL)
		nl->replies = replies;
	if (req == NULL || msgs == NULL || iov == NULL || from == NULL || replies == NULL)
		return -ENOMEM;
	nl->batch = n;
	return 0;
}

/* Send one request per ifindex, all in one datagram (the kernel answers each in turn); 0 or -errno. */
static int send_gets(struct netlink_stats *nl, const int *ifindexes, size_t n)
{
	struct get_request *req = nl->requests;
	nl->seq++;
	for (size_t i = 0; i < n; i++)
		req[i] = (struct get_request){
			.hdr = {.nlmsg_len = sizeof req[i], .nlmsg_type = RTM_GETSTATS, .nlmsg_flags = NLM_F_REQUEST,
				.nlmsg_seq = nl->seq},
			.ifsm = {.family = AF_UNSPEC, .ifindex = (uint32_t)ifindexes[i],
				 .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)},
		};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	struct iovec iov = {req, n * sizeof *req};
	struct msghdr msg = {.msg_name = &kernel, .msg_namelen = sizeof kernel, .msg_iov = &iov, .msg_iovlen = 1};
	ssize_t sent;
	do
		sent = sendmsg(nl->fd, &msg, 0);
	while (sent < 0 && errno == EINTR);
	return sent < 0 ? -errno : 0;
}

/* Receive the replies to n requests with recvmmsg (one call when they are all queued, as the
 * kernel answers within sendmsg); errs[i] gets the i-th reply's error (0 for statistics). 0 when
 * every request was answered, else -errno (-EBADMSG for a datagram that is no reply of ours). */
static int receive_gets(struct netlink_stats *nl, size_t n, int *errs, struct nlparse_dump *dump)
{
	for (size_t i = 0; i < n; i++) {
		nl->iov[i] = (struct iovec){nl->replies + i * NETLINK_REPLY_MAX, NETLINK_REPLY_MAX};
		nl->msgs[i] = (struct mmsghdr){.msg_hdr = {.msg_name = &nl->from[i], .msg_namelen = sizeof nl->from[i],
							   .msg_iov = &nl->iov[i], .msg_iovlen = 1}};
	}
	for (size_t got = 0; got < n;) {
		int m;
		do
			m = recvmmsg(nl->fd, nl->msgs + got, (unsigned)(n - got), MSG_WAITFORONE, NULL);
		while (m < 0 && errno == EINTR);
		if (m <= 0)
			return m < 0 ? -errno : -ENODATA;
		for (size_t i = got; i < got + (size_t)m; i++) {
			const struct msghdr *hdr = &nl->msgs[i].msg_hdr;
			size_t stale = dump->stale;
			if (hdr->msg_flags & MSG_TRUNC)
				return -EMSGSIZE;
			int rc = nlparse_walk(dump, nl->iov[i].iov_base, nl->msgs[i].msg_len, nl->from[i].nl_pid);
			if (dump->stale != stale || rc == NLPARSE_DONE)
				return -EBADMSG; /* a leftover, or the end of a dump nobody asked for */
			errs[i] = rc;
		}
		got += (size_t)m;
	}
	return 0;
}

int netlink_get(struct netlink_stats *nl, const int *ifindexes, size_t n, int *errs, nlparse_stats_fn *fn,
		void *ctx)
{
	if (nl->fd < 0)
		return -EBADF;
	if (nl->dirty)
		drain(nl);
	for (size_t done = 0; done < n;) {
		size_t batch = n - done < nl->batch ? n - done : nl->batch;
		if (batch == 0)
			return -ENOMEM; /* netlink_reserve() was not called */
		int rc = send_gets(nl, ifindexes + done, batch);
		struct nlparse_dump dump = {.portid = nl->portid, .seq = nl->seq, .stats = fn, .ctx = ctx};
		if (rc == 0)
			rc = receive_gets(nl, batch, errs + done, &dump);
		if (rc != 0) {
			for (size_t i = done; i < n; i++)
				errs[i] = rc;
			nl->dirty = true;
			return rc;
		}
		done += batch;
	}
	return 0;
}

void netlink_close(struct netlink_stats *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	free(nl->buf);
	free(nl->requests);
	free(nl->msgs);
	free(nl->iov);
	free(nl->from);
	free(nl->replies);
	*nl = (struct netlink_stats){.fd = -1};
}
