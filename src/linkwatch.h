/* SPDX-License-Identifier: Apache-2.0 */
/* linkwatch: whether a listing of class/net may have changed since the last one, from the
 * kernel's link notifications, so that rescans that would find nothing new are skipped. */
#ifndef KN_LINKWATCH_H
#define KN_LINKWATCH_H

#include <stdbool.h>
#include <stddef.h>

/* A subscription to RTMGRP_LINK, and whether it speaks for the listed folder. */
struct linkwatch {
	int fd;       /* the notification socket, -1 when there is none (every rescan lists) */
	bool trusted; /* netlink's links were proven to be the listing's: its silence means no change */
};

/* The ifindex the listing gave a name: > 0 for a selected, present interface; 0 for one whose
 * ifindex is unknown; -1 for a name that is not selected (not checked). The same function type
 * as netlink_ifindex_fn, which checks it. */
typedef int linkwatch_ifindex_fn(const char *name, void *ctx);

/* Start without a watch. */
void linkwatch_init(struct linkwatch *w);

/* Subscribe (before the first listing, so that no change after it goes unheard); 0 or -errno,
 * and then no watch. */
int linkwatch_open(struct linkwatch *w);

/* Trust the watch from now on if one RTM_GETLINK dump shows the listing's links: as many as the
 * listing had (listed), each of the present selected ones (selected of them) at the ifindex
 * ifindex_of() gives. Otherwise (another network namespace's /sys, a hot-plug race, no netlink)
 * close it: every rescan lists, as without a watch. Whether it is trusted. */
bool linkwatch_prove(struct linkwatch *w, size_t listed, size_t selected, linkwatch_ifindex_fn *ifindex_of,
		     void *ctx);

/* Trust the watch without a dump of its own: a netlink source proved the same just now. */
void linkwatch_trust(struct linkwatch *w);

/* Whether the next rescan may find something new: true unless a trusted watch heard nothing
 * since the last call (each call drains what it heard). */
bool linkwatch_changed(struct linkwatch *w);

/* Whether a watch is open and awaits its proof. */
bool linkwatch_unproven(const struct linkwatch *w);

/* Close the watch (safe to call on a closed one). */
void linkwatch_close(struct linkwatch *w);

#endif
