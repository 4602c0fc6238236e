/* SPDX-License-Identifier: Apache-2.0 */
/* netlink: every interface's byte counters from one rtnetlink RTM_GETSTATS dump, or chosen
 * interfaces' from one RTM_GETSTATS request each (batched in one sendmsg, replies drained with
 * recvmmsg), and every interface's name from one RTM_GETLINK dump; the socket I/O (nlparse.c
 * parses the replies); the link notifications that tell when a listing may have changed. */
#ifndef KN_NETLINK_H
#define KN_NETLINK_H

#include "nlparse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#define NETLINK_BUF_SIZE 65536 /* receive buffer, above the kernel's 32 KiB dump message cap */
#define NETLINK_BATCH_MAX 64   /* per-interface requests per sendmsg: their replies must fit the
                                * socket's receive buffer (about 1 KiB of truesize each) */

struct get_request;
struct mmsghdr;
struct iovec;
struct sockaddr_nl;

/* An open rtnetlink socket and its receive buffers, allocated once (the batch ones by
 * netlink_reserve()). */
struct netlink_stats {
	int fd;              /* NETLINK_ROUTE socket, -1 while closed */
	uint32_t portid;     /* our netlink address, to recognise replies */
	uint32_t seq;        /* sequence number of the last request */
	bool dirty;          /* a dump was abandoned: drain its leftovers before the next request */
	unsigned char *buf;  /* NETLINK_BUF_SIZE bytes */
	size_t batch;        /* per-interface requests the batch buffers below hold */
	struct get_request *requests;
	struct mmsghdr *msgs;
	struct iovec *iov;
	struct sockaddr_nl *from;
	unsigned char *replies;
};

/* The ifindex a listing of class/net gave a name: > 0 for a selected, present interface; 0 for
 * one whose ifindex is unknown; -1 for a name that is not selected (not checked). */
typedef int netlink_ifindex_fn(const char *name, void *ctx);

/* Optional, as htop's NetLinkNet.h: configure --disable-netlink, or no Linux headers (musl-gcc),
 * leaves src/netlink.c out and the #else branch below refuses every call; callers need no #ifdef.
 * Fallback chain: netlink RTM_GETSTATS dump (while RTM_GETLINK agrees with sysfs) -> sysfs
 * statistics files, held open (src/counters.h) -> the same files opened at each sample. */
#ifndef PACKAGE_VERSION
#error "include config.h before netlink.h: it says whether the netlink source is built"
#endif
#ifdef KN_HAVE_NETLINK

/* Whether this build has the netlink source (it has). */
static inline bool netlink_built(void)
{
	return true;
}

/* Open the socket and prove that the kernel answers a statistics dump; 0 or -errno
 * (-EPERM, -EACCES, -EPROTONOSUPPORT, -EOPNOTSUPP... when netlink is refused). */
int netlink_open(struct netlink_stats *nl);

/* Open the socket for link dumps alone (netlink_links()), without the statistics dump that
 * netlink_open() proves the kernel with; 0 or -errno. */
int netlink_open_links(struct netlink_stats *nl);

/* Open a socket that hears the kernel's link notifications (RTMGRP_LINK: an interface added,
 * removed, renamed, moved or changed state); its fd, or -errno. */
int netlink_watch_open(void);

/* Whether the watch socket fd heard anything since the last call (drains what it holds); true as
 * well when notifications were lost (ENOBUFS) or it cannot tell. */
bool netlink_watch_heard(int fd);

/* Request one statistics dump and call fn for every interface in it. 0 when the dump is
 * complete; -EINTR when the kernel flagged it interrupted (fn saw a possibly inconsistent
 * list); another -errno when it failed (fn may have seen a part). Allocates nothing. */
int netlink_dump(struct netlink_stats *nl, nlparse_stats_fn *fn, void *ctx);

/* Request one link dump and call fn with every interface's ifindex and name; returns as
 * netlink_dump() does. */
int netlink_links(struct netlink_stats *nl, nlparse_link_fn *fn, void *ctx);

/* Whether one complete link dump on nl shows the listing's links: as many links whose names the
 * listing would show (iface_name_valid) as it listed, and each of its selected names (selected
 * of them) at the ifindex ifindex_of() gives. */
bool netlink_links_agree(struct netlink_stats *nl, size_t listed, size_t selected, netlink_ifindex_fn *ifindex_of,
			 void *ctx);

/* Make room for batches of n per-interface requests (at most NETLINK_BATCH_MAX); 0 or -ENOMEM. */
int netlink_reserve(struct netlink_stats *nl, size_t n);

/* Request the statistics of the n interfaces ifindexes[] (one RTM_GETSTATS request each, no dump;
 * batches of netlink_reserve()'s size, each in one sendmsg, replies drained with recvmmsg) and
 * call fn for each answer; errs[i] gets 0 or the error the kernel answered for ifindexes[i]
 * (-ENODEV: no such interface). 0 when every request was answered, else -errno (and errs[] of the
 * unanswered ones say it). Allocates nothing. */
int netlink_get(struct netlink_stats *nl, const int *ifindexes, size_t n, int *errs, nlparse_stats_fn *fn,
		void *ctx);

/* Close the socket and free the buffers (safe to call on a closed one). */
void netlink_close(struct netlink_stats *nl);

#else /* built without netlink: every call refuses, as a kernel without rtnetlink would */

/* Whether this build has the netlink source (it has not). */
static inline bool netlink_built(void)
{
	return false;
}

/* Leave nl closed and refuse: -EOPNOTSUPP. */
static inline int netlink_open(struct netlink_stats *nl)
{
	*nl = (struct netlink_stats){.fd = -1};
	return -EOPNOTSUPP;
}

/* Leave nl closed and refuse: -EOPNOTSUPP. */
static inline int netlink_open_links(struct netlink_stats *nl)
{
	*nl = (struct netlink_stats){.fd = -1};
	return -EOPNOTSUPP;
}

/* Refuse: no link notifications without netlink. */
static inline int netlink_watch_open(void)
{
	return -EOPNOTSUPP;
}

/* Nothing can be heard: always "maybe changed". */
static inline bool netlink_watch_heard(int fd)
{
	(void)fd;
	return true;
}

/* Refuse: there is no socket to dump from. */
static inline int netlink_dump(struct netlink_stats *nl, nlparse_stats_fn *fn, void *ctx)
{
	(void)nl, (void)fn, (void)ctx;
	return -EOPNOTSUPP;
}

/* Refuse: there is no socket to list links from. */
static inline int netlink_links(struct netlink_stats *nl, nlparse_link_fn *fn, void *ctx)
{
	(void)nl, (void)fn, (void)ctx;
	return -EOPNOTSUPP;
}

/* No dump: nothing agrees. */
static inline bool netlink_links_agree(struct netlink_stats *nl, size_t listed, size_t selected,
				       netlink_ifindex_fn *ifindex_of, void *ctx)
{
	(void)nl, (void)listed, (void)selected, (void)ifindex_of, (void)ctx;
	return false;
}

/* Refuse: there is no socket to send from. */
static inline int netlink_reserve(struct netlink_stats *nl, size_t n)
{
	(void)nl, (void)n;
	return -EOPNOTSUPP;
}

/* Refuse: there is no socket to request from. */
static inline int netlink_get(struct netlink_stats *nl, const int *ifindexes, size_t n, int *errs,
			      nlparse_stats_fn *fn, void *ctx)
{
	(void)nl, (void)ifindexes, (void)n, (void)errs, (void)fn, (void)ctx;
	return -EOPNOTSUPP;
}

/* Nothing was opened: nothing to close. */
static inline void netlink_close(struct netlink_stats *nl)
{
	(void)nl;
}

#endif /* KN_HAVE_NETLINK */

#endif
