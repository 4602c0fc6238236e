/* SPDX-License-Identifier: Apache-2.0 */
/* monitor: the set of monitored interfaces; rescans pick up newcomers, ticks turn readings into rates. */
#ifndef KN_MONITOR_H
#define KN_MONITOR_H

#include "iface.h"
#include "linkwatch.h"
#include "rate.h"
#include "source.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MONITOR_MAX_IFACES 65536 /* memory bound for hostile or huge sysfs trees */

/* One monitored interface; the table is kept sorted by name. */
struct monitored_iface {
	char name[IFACE_NAME_MAX];
	size_t id;                   /* 0, 1, 2...: in order of first sight, never reused (entries stay);
	                              * its slot in the source's readings */
	struct counter_set prev;     /* last good reading, the baseline for the next rate */
	bool have_prev;              /* whether prev is usable */
	uint64_t seen_scan;          /* number of the last rescan that listed it */
	bool valid;                  /* whether this tick produced a rate */
	struct rate rate;            /* this tick's rate, when valid */
	int ifindex;                 /* <name>/ifindex at the last rescan (0: unknown); a change
	                              * means the name now belongs to another device */
	double speed_mbps;           /* <name>/speed in Mb/s at the last rescan, when asked for
	                              * (monitor_set_counters()); 0: unknown (-1, absent, EINVAL) */
};

/* Things to tell the user once (bits of monitor.notes; the source has its own). */
enum monitor_note {
	MONITOR_NOTE_TRUNCATED = 1, /* MONITOR_MAX_IFACES was reached */
};

struct monitor {
	struct iface_dir dir;                 /* <sysfs>/class/net */
	const struct iface_selector *sel;     /* the selection rule */
	struct monitored_iface *ifaces;       /* sorted by name */
	size_t count, capacity;
	uint64_t scans;                       /* rescans done */
	size_t listed;                        /* names the last listing had, selected or not */
	unsigned notes, noted;                /* monitor_note bits raised, and already told */
	bool total_valid;                     /* whether any interface had a rate this tick */
	struct rate total;                    /* exact sum of this tick's valid rates (rate_total) */
	struct source src;                    /* where the counters come from */
	bool src_open;                        /* whether src is open */
	unsigned src_generation;              /* src.generation the baselines belong to */
	struct source_iface *told;            /* the selection as the last rescan told it */
	size_t told_capacity;
	struct source_reading *readings;      /* this tick's, by id */
	size_t readings_capacity;
	uint64_t interval_us;                 /* the sampling interval, for auto (0: unknown) */
	unsigned counters;                    /* COUNTER_BIT()s to read (the bytes always) */
	bool speed;                           /* read each interface's speed at each rescan */
	bool fake_tree;                       /* the sysfs root is not the kernel's */
	struct linkwatch watch;               /* link notifications: skip rescans that find nothing */
	bool list_failed;                     /* the last listing failed: the next rescan lists anyway */
};

/* Start monitoring under sysfs_root with sel; -1 with a reason in err if class/net is unreadable. */
int monitor_init(struct monitor *mon, const char *sysfs_root, const struct iface_selector *sel,
		 char err[IFACE_ERR_MAX]);

/* Read the counters from the source kind (call it before the first monitor_rescan(); without
 * it, sysfs); fake_tree: the sysfs root is not the kernel's (auto then never takes netlink);
 * proc_net_dev: the file procfs reads (NULL: /proc/net/dev). 0, or -errno if it is refused. */
int monitor_use_source(struct monitor *mon, enum source_kind kind, bool fake_tree, const char *proc_net_dev);

/* Tell the monitor the sampling interval (before monitor_use_source()): auto weighs what a
 * rescan costs against what a tick costs. */
void monitor_set_interval(struct monitor *mon, uint64_t interval_us);

/* Tell the monitor which counters to read besides the bytes (COUNTER_BIT()s) and whether to read
 * each interface's <name>/speed at each rescan (for util); before monitor_use_source(). Without
 * it: the bytes alone, no speed. */
void monitor_set_counters(struct monitor *mon, unsigned counters, bool speed);

/* The source in use. */
enum source_kind monitor_source(const struct monitor *mon);

/* List the interfaces again: add newly selected ones, and tell the source the selected set
 * (it opens, closes or re-opens what it holds). A source that finds the listing is not of its
 * interfaces (another network namespace) gets SOURCE_FOREIGN_TRIES listings before it is given
 * up for the files (SOURCE_NOTE_FOREIGN). Returns -1 if the folder cannot be read. */
int monitor_rescan(struct monitor *mon);

/* Rescan only when something may have changed: subscribe to the kernel's link notifications
 * (before the first monitor_rescan()), which a rescan then proves to speak for the listed folder
 * (netlink lists the same links at the same ifindexes): the first one with the netlink source,
 * which checks that anyway, else the fifth, when the listings have cost what the proof costs
 * (until then every rescan lists). Not for a fake tree, nor
 * with the speed asked for (monitor_set_counters(): it is re-read at every rescan); where the
 * proof fails, or netlink is refused, every rescan lists, as without it. */
void monitor_watch_links(struct monitor *mon);

/* Whether a rescan may find something new: an interface added, removed, renamed, moved or
 * changed state since the last call, or no proven watch (monitor_watch_links()). */
bool monitor_links_changed(struct monitor *mon);

/* Read every interface's counters; rates use dt_s, the time since the previous tick. */
void monitor_tick(struct monitor *mon, double dt_s);

/* Number of monitored interfaces (the table only grows). */
size_t monitor_count(const struct monitor *mon);

/* Name of the i-th monitored interface, in name order (i < monitor_count()). */
const char *monitor_name(const struct monitor *mon, size_t i);

/* Link speed of the i-th monitored interface in Mb/s as the last rescan read it; 0 when unknown
 * or not asked for (monitor_set_counters()). */
double monitor_speed(const struct monitor *mon, size_t i);

/* Every interface name present under class/net, selected or not, sorted; free them with
 * iface_names_free(); -1 on error. */
int monitor_names_present(struct monitor *mon, char ***names, size_t *count);

/* Say once on stderr each note raised and not yet told (one line each). */
void monitor_warn(struct monitor *mon);

/* Release everything. */
void monitor_free(struct monitor *mon);

#endif
