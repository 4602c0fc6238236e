/* SPDX-License-Identifier: Apache-2.0 */
/* monitor: the set of monitored interfaces; rescans pick up newcomers, ticks turn readings into rates. */
#ifndef KN_MONITOR_H
#define KN_MONITOR_H

#include "counters.h"
#include "iface.h"
#include "netlink.h"
#include "rate.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MONITOR_MAX_IFACES 65536 /* memory bound for hostile or huge sysfs trees */

/* One monitored interface; the table is kept sorted by name. */
struct monitored_iface {
	char name[IFACE_NAME_MAX];
	uint64_t group;              /* NVTX counter group id, valid once registered */
	bool registered;             /* whether group has been registered */
	struct counter_files files;  /* held counter files, closed while absent or failing */
	struct counter_pair prev;    /* last good reading, the baseline for the next rate */
	bool have_prev;              /* whether prev is usable */
	uint64_t seen_scan;          /* number of the last rescan that listed it */
	bool valid;                  /* whether this tick produced a rate */
	struct rate rate;            /* this tick's rate, when valid */
	int ifindex;                 /* <name>/ifindex at the last rescan (0: unknown); a change
	                              * means the name now belongs to another device */
	bool dumped;                 /* netlink source: whether this tick's dump listed it */
	struct counter_pair dump;    /* netlink source: its counters in this tick's dump */
};

/* Netlink source: a table slot by kernel index, for the per-tick lookup. */
struct monitor_index {
	int ifindex;
	size_t slot;
};

struct monitor {
	struct iface_dir dir;                 /* <sysfs>/class/net */
	const struct iface_selector *sel;     /* the selection rule */
	struct monitored_iface *ifaces;       /* sorted by name */
	size_t count, capacity;
	uint64_t scans;                       /* rescans done */
	bool truncated;                       /* MONITOR_MAX_IFACES was reached */
	bool truncation_warned;               /* and stderr was told so */
	bool total_valid;                     /* whether any interface had a rate this tick */
	struct rate total;                    /* exact sum of this tick's valid rates */
	bool use_netlink;                     /* read counters with one netlink dump per tick */
	struct netlink_stats nl;              /* the dump socket, when use_netlink */
	struct monitor_index *byindex;        /* netlink source: slots sorted by ifindex */
	size_t nbyindex, byindex_capacity;
	bool byindex_stale;                   /* a slot moved or an ifindex was read: rebuild */
};

/* Start monitoring under sysfs_root with sel; -1 with a reason in err if class/net is unreadable. */
int monitor_init(struct monitor *mon, const char *sysfs_root, const struct iface_selector *sel,
		 char err[IFACE_ERR_MAX]);

/* List the interfaces again: add newly selected ones, close the files of vanished ones,
 * re-open the files of returning or failing ones. Returns -1 if the folder cannot be read. */
int monitor_rescan(struct monitor *mon);

/* Read every interface's counters; rates use dt_s, the time since the previous tick. */
void monitor_tick(struct monitor *mon, double dt_s);

/* Read counters from one netlink RTM_GETSTATS dump per tick instead of sysfs files, from the
 * next monitor_rescan() on (call it before the first); 0, or -errno if netlink is refused. */
int monitor_use_netlink(struct monitor *mon);

/* Say once on stderr that MONITOR_MAX_IFACES was reached, if it was. */
void monitor_warn_truncated(struct monitor *mon);

/* Release everything. */
void monitor_free(struct monitor *mon);

#endif
