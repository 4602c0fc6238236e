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
#include <sys/resource.h>

#define MONITOR_MAX_IFACES 65536 /* memory bound for hostile or huge sysfs trees */

/* One monitored interface; the table is kept sorted by name. */
struct monitored_iface {
	char name[IFACE_NAME_MAX];
	size_t id;                   /* 0, 1, 2...: in order of first sight, never reused (entries stay) */
	struct counter_files files;  /* held counter files, closed while absent or failing */
	bool per_tick;               /* sysfs source without held files (the fd limit was reached):
	                              * open, read and close them at each tick */
	struct counter_pair prev;    /* last good reading, the baseline for the next rate */
	bool have_prev;              /* whether prev is usable */
	uint64_t seen_scan;          /* number of the last rescan that listed it */
	bool valid;                  /* whether this tick produced a rate */
	struct rate rate;            /* this tick's rate, when valid */
	int ifindex;                 /* <name>/ifindex at the last rescan (0: unknown); a change
	                              * means the name now belongs to another device */
	bool dumped;                 /* netlink source: whether this tick's dump listed it */
	struct counter_pair dump;    /* netlink source: its counters in this tick's dump */
	bool linked;                 /* netlink source: the rescan's link dump has it at ifindex */
};

/* Things to tell the user once (bits of monitor.notes). */
enum monitor_note {
	MONITOR_NOTE_TRUNCATED = 1, /* MONITOR_MAX_IFACES was reached */
	MONITOR_NOTE_NETNS = 2,     /* netlink answered for other interfaces than sysfs: sysfs now */
	MONITOR_NOTE_FDS = 4,       /* some interfaces got no held files: read per tick */
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
	size_t listed;                        /* names the last listing had, selected or not */
	unsigned notes, noted;                /* monitor_note bits raised, and already told */
	struct rlimit fds;                    /* RLIMIT_NOFILE as it stands (soft raised as needed) */
	size_t held;                          /* interfaces holding their two counter files */
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
 * re-open the files of returning or failing ones (raising the soft open-file limit as far as
 * they need, up to the hard one; those that still do not fit are read per tick). With the
 * netlink source, prove that netlink's interfaces are sysfs's (same names at the same ifindexes,
 * as many in all), or else give netlink up for sysfs (MONITOR_NOTE_NETNS).
 * Returns -1 if the folder cannot be read. */
int monitor_rescan(struct monitor *mon);

/* Read every interface's counters; rates use dt_s, the time since the previous tick. */
void monitor_tick(struct monitor *mon, double dt_s);

/* Read counters from one netlink RTM_GETSTATS dump per tick instead of sysfs files, from the
 * next monitor_rescan() on (call it before the first); 0, or -errno if netlink is refused. */
int monitor_use_netlink(struct monitor *mon);

/* Whether the counters come from netlink (it was asked for and not given up). */
bool monitor_uses_netlink(const struct monitor *mon);

/* Number of monitored interfaces (the table only grows). */
size_t monitor_count(const struct monitor *mon);

/* Name of the i-th monitored interface, in name order (i < monitor_count()). */
const char *monitor_name(const struct monitor *mon, size_t i);

/* Every interface name present under class/net, selected or not, sorted; free them with
 * iface_names_free(); -1 on error. */
int monitor_names_present(struct monitor *mon, char ***names, size_t *count);

/* Say once on stderr each note raised and not yet told (one line each). */
void monitor_warn(struct monitor *mon);

/* Release everything. */
void monitor_free(struct monitor *mon);

#endif
