/* SPDX-License-Identifier: Apache-2.0 */
/* netlink: every interface's byte counters from one rtnetlink RTM_GETSTATS dump, and every
 * interface's name from one RTM_GETLINK dump; the socket I/O (nlparse.c parses the replies). */
#ifndef KN_NETLINK_H
#define KN_NETLINK_H

#include "nlparse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#define NETLINK_BUF_SIZE 65536 /* receive buffer, above the kernel's 32 KiB dump message cap */

/* An open rtnetlink socket and its receive buffer, both allocated once. */
struct netlink_stats {
	int fd;              /* NETLINK_ROUTE socket, -1 while closed */
	uint32_t portid;     /* our netlink address, to recognise replies */
	uint32_t seq;        /* sequence number of the last request */
	bool dirty;          /* a dump was abandoned: drain its leftovers before the next request */
	unsigned char *buf;  /* NETLINK_BUF_SIZE bytes */
};

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

/* Request one statistics dump and call fn for every interface in it. 0 when the dump is
 * complete; -EINTR when the kernel flagged it interrupted (fn saw a possibly inconsistent
 * list); another -errno when it failed (fn may have seen a part). Allocates nothing. */
int netlink_dump(struct netlink_stats *nl, nlparse_stats_fn *fn, void *ctx);

/* Request one link dump and call fn with every interface's ifindex and name; returns as
 * netlink_dump() does. */
int netlink_links(struct netlink_stats *nl, nlparse_link_fn *fn, void *ctx);

/* Close the socket and free the buffer (safe to call on a closed one). */
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
	nl->fd = -1;
	nl->buf = NULL;
	return -EOPNOTSUPP;
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

/* Nothing was opened: nothing to close. */
static inline void netlink_close(struct netlink_stats *nl)
{
	(void)nl;
}

#endif /* KN_HAVE_NETLINK */

#endif
