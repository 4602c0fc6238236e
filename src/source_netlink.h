/* SPDX-License-Identifier: Apache-2.0 */
/* source_netlink: the counters from rtnetlink RTM_GETSTATS (64-bit link statistics), matched to
 * the selected slots by ifindex. At each rescan one RTM_GETLINK dump must agree with the listing
 * (as many links as names, every selected name at its sysfs ifindex), or the selection is
 * SOURCE_FOREIGN (another network namespace than the one the mounted sysfs describes).
 * Optional, as src/netlink.h: without it, the #else branch refuses, and callers need no #ifdef. */
#ifndef KN_SOURCE_NETLINK_H
#define KN_SOURCE_NETLINK_H

#include "netlink.h"
#include "source.h"

#ifdef KN_HAVE_NETLINK

/* Make src the netlink source: open the socket and prove the kernel answers; 0 or -errno. */
int source_netlink_open(struct source *src);

#else

/* Refuse, as a kernel without rtnetlink would: -EOPNOTSUPP. */
static inline int source_netlink_open(struct source *src)
{
	(void)src;
	return -EOPNOTSUPP;
}

#endif

#endif
