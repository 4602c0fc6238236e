/* SPDX-License-Identifier: Apache-2.0 */
/* monitor: the set of monitored interfaces; rescans pick up newcomers, ticks turn readings into rates. */
#include "config.h"

#include "monitor.h"

#include "message.h"
#include "sysfs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MONITOR_FD_MARGIN 64  /* fds kept free beside the counter files: stdio, class/net, netlink,
                               * an NVTX tool's own, the per-tick opens */
#define MONITOR_NETNS_TRIES 3 /* listings compared before netlink is given up (a hot-plug race
                               * between the sysfs listing and the link dump is no proof) */

int monitor_init(struct monitor *mon, const char *sysfs_root, const struct iface_selector *sel,
		 char err[IFACE_ERR_MAX])
{
	*mon = (struct monitor){.sel = sel};
	if (getrlimit(RLIMIT_NOFILE, &mon->fds) != 0)
		mon->fds = (struct rlimit){RLIM_INFINITY, RLIM_INFINITY}; /* nothing to raise */
	return iface_dir_open(&mon->dir, sysfs_root, err);
}

/* Index of name in the sorted table, or of where it would go; *found says which. */
static size_t find_slot(const struct monitor *mon, const char *name, bool *found)
{
	size_t lo = 0, hi = mon->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(mon->ifaces[mid].name, name);
		if (cmp == 0) {
			*found = true;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Insert a new interface at slot; NULL when out of room or memory. */
static struct monitored_iface *insert_at(struct monitor *mon, size_t slot, const char *name)
{
	if (mon->count == MONITOR_MAX_IFACES) {
		mon->notes |= MONITOR_NOTE_TRUNCATED;
		return NULL;
	}
	if (mon->count == mon->capacity) {
		size_t capacity = mon->capacity ? mon->capacity * 2 : 8;
		struct monitored_iface *grown = realloc(mon->ifaces, capacity * sizeof *grown);
		if (grown == NULL)
			return NULL;
		mon->ifaces = grown;
		mon->capacity = capacity;
	}
	struct monitored_iface *entry = &mon->ifaces[slot];
	memmove(entry + 1, entry, (mon->count - slot) * sizeof *entry);
	*entry = (struct monitored_iface){.id = mon->count};
	mon->count++;
	memcpy(entry->name, name, strlen(name) + 1); /* iface_name_valid() bounded the length */
	counters_init(&entry->files);
	return entry;
}

/* The interface's <name>/ifindex, or 0 when it cannot be read (a fake tree may have none). */
static int read_ifindex(const struct monitor *mon, const char *name)
{
	char buf[SYSFS_VALUE_MAX];
	uint64_t value;
	ssize_t n = iface_read_attr(&mon->dir, name, "ifindex", buf, sizeof buf);
	if (n < 0 || sysfs_parse_u64(buf, (size_t)n, &value) != 0 || value > INT_MAX)
		return 0;
	return (int)value;
}

/* Close the interface's held files, if it holds them. */
static void release_files(struct monitor *mon, struct monitored_iface *entry)
{
	if (entry->files.rx_fd >= 0)
		mon->held--;
	counters_close(&entry->files);
}

/* Keep following the name, not the device: when the name now belongs to another device
 * (renamed away and re-created), drop the old files, index and baseline. */
static void follow_name(struct monitor *mon, struct monitored_iface *entry)
{
	int ifindex = read_ifindex(mon, entry->name);
	if (ifindex == entry->ifindex)
		return;
	release_files(mon, entry);
	entry->have_prev = false;
	entry->ifindex = ifindex;
	mon->byindex_stale = true;
}

/* Raise the soft open-file limit so that n interfaces' two files each fit beside the margin,
 * no further than needed and never above the hard limit. */
static void reserve_fds(struct monitor *mon, size_t n)
{
	rlim_t need = (rlim_t)n * 2 + MONITOR_FD_MARGIN;
	if (mon->fds.rlim_cur == RLIM_INFINITY || need <= mon->fds.rlim_cur ||
	    mon->fds.rlim_cur >= mon->fds.rlim_max)
		return;
	struct rlimit raised = {need < mon->fds.rlim_max ? need : mon->fds.rlim_max, mon->fds.rlim_max};
	if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
		mon->fds = raised;
	else
		mon->fds.rlim_max = mon->fds.rlim_cur; /* refused: do not ask again */
}

/* Sysfs source: hold the interface's counter files unless held already; when the fd limit
 * leaves no room (the margin stays free, for the listing's reads among others), read them per
 * tick instead (MONITOR_NOTE_FDS). */
static void hold_files(struct monitor *mon, struct monitored_iface *entry)
{
	if (entry->files.rx_fd >= 0)
		return;
	reserve_fds(mon, mon->count);
	bool room = mon->fds.rlim_cur == RLIM_INFINITY ||
		    (rlim_t)(mon->held + 1) * 2 + MONITOR_FD_MARGIN <= mon->fds.rlim_cur;
	int rc = room ? counters_open(&entry->files, mon->dir.fd, entry->name) : -EMFILE;
	if (rc == 0)
		mon->held++;
	entry->per_tick = rc == -EMFILE || rc == -ENFILE;
	if (entry->per_tick)
		mon->notes |= MONITOR_NOTE_FDS;
	else if (rc != 0)
		entry->have_prev = false;
}

/* Rescan callback: note name as present, adding it if newly selected. */
static void rescan_one(const char *name, void *ctx)
{
	struct monitor *mon = ctx;
	mon->listed++;
	bool found;
	size_t slot = find_slot(mon, name, &found);
	struct monitored_iface *entry = found ? &mon->ifaces[slot] : NULL;
	if (entry == NULL) {
		if (!iface_selected(mon->sel, &mon->dir, name))
			return;
		entry = insert_at(mon, slot, name);
		if (entry == NULL)
			return;
		mon->byindex_stale = true; /* the slots after it moved */
	}
	entry->seen_scan = mon->scans;
	follow_name(mon, entry);
	if (!mon->use_netlink)
		hold_files(mon, entry);
}

/* Order of two index entries by ifindex, for qsort. */
static int index_cmp(const void *a, const void *b)
{
	int x = ((const struct monitor_index *)a)->ifindex, y = ((const struct monitor_index *)b)->ifindex;
	return (x > y) - (x < y);
}

/* Netlink source: list the slots with a known ifindex, sorted by it; none when out of memory.
 * Forgotten ifindexes may stay listed: the lookup checks the slot's own ifindex. */
static void index_rebuild(struct monitor *mon)
{
	if (mon->byindex_capacity < mon->count) {
		struct monitor_index *grown = realloc(mon->byindex, mon->capacity * sizeof *grown);
		if (grown == NULL) {
			mon->nbyindex = 0;
			return;
		}
		mon->byindex = grown;
		mon->byindex_capacity = mon->capacity;
	}
	size_t n = 0;
	for (size_t i = 0; i < mon->count; i++)
		if (mon->ifaces[i].ifindex > 0)
			mon->byindex[n++] = (struct monitor_index){mon->ifaces[i].ifindex, i};
	if (n > 1)
		qsort(mon->byindex, n, sizeof *mon->byindex, index_cmp);
	mon->nbyindex = n;
	mon->byindex_stale = false;
}

/* Offer every listed name to rescan_one(). The first listing goes in sorted order, so that each
 * insertion lands at the end of the table (no quadratic shifting with thousands of names). */
static int scan(struct monitor *mon)
{
	mon->listed = 0;
	if (mon->count > 0)
		return iface_dir_scan(&mon->dir, rescan_one, mon);
	char **names = NULL;
	size_t count = 0;
	if (iface_dir_names(&mon->dir, &names, &count) != 0)
		return -1;
	if (!mon->use_netlink)
		reserve_fds(mon, count); /* at once, rather than two fds at a time */
	for (size_t i = 0; i < count; i++)
		rescan_one(names[i], mon);
	iface_names_free(names, count);
	return 0;
}

/* What a link dump is compared against: the monitor, and what the dump showed. */
struct link_check {
	struct monitor *mon;
	size_t links;  /* links in the dump */
	bool mismatch; /* a monitored name at another ifindex than sysfs says */
};

/* Link dump callback: count the link as the listing counts names; a monitored name must sit
 * at its sysfs ifindex. */
static void link_one(int ifindex, const char *name, void *ctx)
{
	struct link_check *check = ctx;
	struct monitor *mon = check->mon;
	if (!iface_name_valid(name))
		return; /* the listing skips it too (the kernel allows a few names we refuse) */
	check->links++;
	bool found;
	size_t slot = find_slot(mon, name, &found);
	if (!found || mon->ifaces[slot].seen_scan != mon->scans || mon->ifaces[slot].ifindex <= 0)
		return;
	if (mon->ifaces[slot].ifindex == ifindex)
		mon->ifaces[slot].linked = true;
	else
		check->mismatch = true;
}

/* Netlink source: whether one complete link dump agrees with the last listing: as many links as
 * names, and every present interface of known ifindex under its name at that ifindex. */
static bool links_agree(struct monitor *mon)
{
	for (size_t i = 0; i < mon->count; i++)
		mon->ifaces[i].linked = false;
	struct link_check check = {.mon = mon};
	if (netlink_links(&mon->nl, link_one, &check) != 0 || check.mismatch || check.links != mon->listed)
		return false;
	for (size_t i = 0; i < mon->count; i++) {
		const struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->seen_scan == mon->scans && entry->ifindex > 0 && !entry->linked)
			return false;
	}
	return true;
}

/* Netlink source: prove that netlink speaks of the interfaces sysfs lists (the process may sit
 * in another network namespace than the one the mounted sysfs describes: ifindexes collide).
 * A disagreement is listed and dumped again before it counts. */
static bool netns_proven(struct monitor *mon)
{
	for (int attempt = 0; attempt < MONITOR_NETNS_TRIES; attempt++) {
		if (attempt > 0 && scan(mon) != 0)
			return false;
		if (links_agree(mon))
			return true;
	}
	return false;
}

/* Stop using netlink: close it, drop its baselines, hold the sysfs files instead. */
static void give_up_netlink(struct monitor *mon)
{
	netlink_close(&mon->nl);
	mon->use_netlink = false;
	mon->notes |= MONITOR_NOTE_NETNS;
	reserve_fds(mon, mon->count);
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		entry->have_prev = false;
		if (entry->seen_scan == mon->scans)
			hold_files(mon, entry);
	}
}

int monitor_rescan(struct monitor *mon)
{
	mon->scans++;
	if (scan(mon) != 0)
		return -1;
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->seen_scan != mon->scans) {
			release_files(mon, entry);
			entry->per_tick = false;
			entry->ifindex = 0;
			entry->have_prev = false;
		}
	}
	if (mon->use_netlink && !netns_proven(mon))
		give_up_netlink(mon);
	if (mon->use_netlink && mon->byindex_stale)
		index_rebuild(mon); /* not in the steady state: qsort may allocate */
	return 0;
}

/* Netlink dump callback: keep the counters of a monitored ifindex. */
static void dump_one(int ifindex, const struct counter_pair *counters, void *ctx)
{
	struct monitor *mon = ctx;
	size_t lo = 0, hi = mon->nbyindex;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mon->byindex[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == mon->nbyindex || mon->byindex[lo].ifindex != ifindex)
		return;
	struct monitored_iface *entry = &mon->ifaces[mon->byindex[lo].slot];
	if (entry->ifindex == ifindex) {
		entry->dump = *counters;
		entry->dumped = true;
	}
}

/* Netlink source: one dump for every interface; true only if it is complete (not failed, not
 * flagged interrupted). Either way the interfaces it listed have their counters. */
static bool dump_all(struct monitor *mon)
{
	for (size_t i = 0; i < mon->count; i++)
		mon->ifaces[i].dumped = false;
	return netlink_dump(&mon->nl, dump_one, mon) == 0;
}

/* This tick's counters of one interface; 0, or -errno when there is no reading. A failed read of
 * held files closes them until the next rescan; only a complete dump that lacks the interface
 * forgets its ifindex (an interrupted or failed one may have missed it). */
static int read_entry(struct monitor *mon, struct monitored_iface *entry, bool dump_complete,
		      struct counter_pair *now)
{
	if (!mon->use_netlink) {
		if (entry->files.rx_fd < 0)
			return entry->per_tick ? counters_read_at(mon->dir.fd, entry->name, now) : -EBADF;
		int rc = counters_read(&entry->files, now);
		if (rc != 0)
			release_files(mon, entry);
		return rc;
	}
	if (entry->ifindex <= 0)
		return -ENODEV;
	if (!entry->dumped) {
		if (dump_complete)
			entry->ifindex = 0;
		return -ENODEV;
	}
	*now = entry->dump;
	return 0;
}

/* Read one interface and update its rate; no reading drops the baseline. */
static void tick_one(struct monitor *mon, struct monitored_iface *entry, bool dump_complete,
		     double dt_s)
{
	struct counter_pair now;
	entry->valid = false;
	if (read_entry(mon, entry, dump_complete, &now) != 0) {
		entry->have_prev = false;
		return;
	}
	if (entry->have_prev)
		entry->valid = rate_compute(&entry->prev, &now, dt_s, &entry->rate);
	entry->prev = now;
	entry->have_prev = true;
}

void monitor_tick(struct monitor *mon, double dt_s)
{
	mon->total = (struct rate){0.0, 0.0};
	mon->total_valid = false;
	bool dump_complete = mon->use_netlink && dump_all(mon);
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		tick_one(mon, entry, dump_complete, dt_s);
		if (entry->valid) {
			rate_add(&mon->total, &entry->rate);
			mon->total_valid = true;
		}
	}
}

int monitor_use_netlink(struct monitor *mon)
{
	if (mon->use_netlink)
		return 0;
	int rc = netlink_open(&mon->nl);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < mon->count; i++) {
		release_files(mon, &mon->ifaces[i]);
		mon->ifaces[i].per_tick = false;
		mon->ifaces[i].have_prev = false;
	}
	mon->use_netlink = true;
	mon->byindex_stale = true;
	return 0;
}

bool monitor_uses_netlink(const struct monitor *mon)
{
	return mon->use_netlink;
}

size_t monitor_count(const struct monitor *mon)
{
	return mon->count;
}

const char *monitor_name(const struct monitor *mon, size_t i)
{
	return mon->ifaces[i].name;
}

int monitor_names_present(struct monitor *mon, char ***names, size_t *count)
{
	return iface_dir_names(&mon->dir, names, count);
}

/* Print the soft and hard open-file limits into buf ("unlimited" for infinity). */
static void format_limit(char *buf, size_t size, rlim_t limit)
{
	if (limit == RLIM_INFINITY)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", (unsigned long long)limit);
}

/* Say that some interfaces are read per tick, and why. */
static void warn_fds(const struct monitor *mon)
{
	size_t n = 0;
	for (size_t i = 0; i < mon->count; i++)
		n += mon->ifaces[i].per_tick;
	char soft[32], hard[32];
	format_limit(soft, sizeof soft, mon->fds.rlim_cur);
	format_limit(hard, sizeof hard, mon->fds.rlim_max);
	message_print("open file limit %s (hard %s) too low to hold 2 files per interface: %zu of %zu "
		      "interfaces are read by opening their files at each sample (slower)",
		      soft, hard, n, mon->count);
}

void monitor_warn(struct monitor *mon)
{
	unsigned fresh = mon->notes & ~mon->noted;
	if (fresh & MONITOR_NOTE_TRUNCATED)
		message_print("more than %d interfaces selected; monitoring the first %d", MONITOR_MAX_IFACES,
			      MONITOR_MAX_IFACES);
	if (fresh & MONITOR_NOTE_NETNS)
		message_print("netlink lists other interfaces than sysfs (another network namespace?): "
			      "reading sysfs");
	if (fresh & MONITOR_NOTE_FDS)
		warn_fds(mon);
	mon->noted |= fresh;
}

void monitor_free(struct monitor *mon)
{
	for (size_t i = 0; i < mon->count; i++)
		counters_close(&mon->ifaces[i].files);
	if (mon->use_netlink)
		netlink_close(&mon->nl);
	free(mon->byindex);
	free(mon->ifaces);
	iface_dir_close(&mon->dir);
	*mon = (struct monitor){0};
	mon->dir.fd = -1;
}
