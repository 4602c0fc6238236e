/* SPDX-License-Identifier: Apache-2.0 */
/* nlparse: parse the datagrams of an rtnetlink dump (statistics or links); pure, no I/O. */
#ifndef KN_NLPARSE_H
#define KN_NLPARSE_H

#include "rate.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NLPARSE_MORE 0 /* the dump goes on in a later datagram */
#define NLPARSE_DONE 1 /* NLMSG_DONE ended the dump without error */

/* Called for each RTM_NEWSTATS message with its ifindex and its counters (the bytes, and the
 * packets, errors and drops where the message's rtnl_link_stats64 is long enough to hold them). */
typedef void nlparse_stats_fn(int ifindex, const struct counter_set *counters, void *ctx);

/* Called for each RTM_NEWLINK message with its ifindex and its name (1..15 bytes, NUL-terminated). */
typedef void nlparse_link_fn(int ifindex, const char *name, void *ctx);

/* One dump being read: which replies are ours, what to do with them, what was seen. */
struct nlparse_dump {
	uint32_t portid;        /* our socket's netlink address: replies carry it */
	uint32_t seq;           /* the request's sequence number: replies carry it */
	nlparse_stats_fn *stats;  /* for RTM_NEWSTATS, or NULL to ignore them */
	nlparse_link_fn *link;    /* for RTM_NEWLINK, or NULL to ignore them */
	void *ctx;
	bool interrupted;       /* a reply carried NLM_F_DUMP_INTR: the list may be inconsistent */
	size_t stale;           /* messages skipped as another request's (a leftover dump) */
};

/* Walk one datagram of len bytes from the kernel (sender_pid is the sender's netlink address:
 * 0 for the kernel, anything else is ignored). NLPARSE_DONE when the dump ended,
 * NLPARSE_MORE if more follow, or -errno: the error a reply carried, -EBADMSG for a malformed
 * or truncated message. The buffer needs no alignment. */
int nlparse_walk(struct nlparse_dump *dump, const void *buf, size_t len, uint32_t sender_pid);

#endif
