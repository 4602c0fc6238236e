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

/* Start monitoring under sysfs_root with sel; -1 with a reason in err if class/net is unreadable. */
int monitor_init(struct monitor *mon, const char *sysfs_root, const struct iface_selector *sel,
		 char err[IFACE_ERR_MAX])
{
	*mon = (struct monitor){.sel = sel};
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
		mon->truncated = true;
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
	mon->count++;
	*entry = (struct monitored_iface){0};
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

/* Keep following the name, not the device: when the name now belongs to another device
 * (renamed away and re-created), drop the old files, index and baseline. */
static void follow_name(struct monitor *mon, struct monitored_iface *entry)
{
	int ifindex = read_ifindex(mon, entry->name);
	if (ifindex == entry->ifindex)
		return;
	counters_close(&entry->files);
	entry->have_prev = false;
	entry->ifindex = ifindex;
	mon->byindex_stale = true;
}

/* Rescan callback: note name as present, adding it if newly selected. */
static void rescan_one(const char *name, void *ctx)
{
	struct monitor *mon = ctx;
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
	if (!mon->use_netlink && entry->files.rx_fd < 0 &&
	    counters_open(&entry->files, mon->dir.fd, name) != 0)
		entry->have_prev = false;
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
	if (mon->count > 0)
		return iface_dir_scan(&mon->dir, rescan_one, mon);
	char **names = NULL;
	size_t count = 0;
	if (iface_dir_names(&mon->dir, &names, &count) != 0)
		return -1;
	for (size_t i = 0; i < count; i++)
		rescan_one(names[i], mon);
	iface_names_free(names, count);
	return 0;
}

/* List the interfaces again: add newly selected ones, close the files of vanished ones. */
int monitor_rescan(struct monitor *mon)
{
	mon->scans++;
	if (scan(mon) != 0)
		return -1;
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->seen_scan != mon->scans) {
			counters_close(&entry->files);
			entry->ifindex = 0;
			entry->have_prev = false;
		}
	}
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

/* Netlink source: one dump for every interface; false if it failed as a whole. */
static bool dump_all(struct monitor *mon)
{
	for (size_t i = 0; i < mon->count; i++)
		mon->ifaces[i].dumped = false;
	return netlink_dump(&mon->nl, dump_one, mon) == 0;
}

/* This tick's counters of one interface; 0, or -errno when there is no reading. A failed sysfs read
 * closes the files and a successful dump that lacks the interface forgets its ifindex, until the
 * next rescan. */
static int read_entry(struct monitored_iface *entry, bool use_netlink, bool dump_ok,
		      struct counter_pair *now)
{
	if (!use_netlink) {
		if (entry->files.rx_fd < 0)
			return -EBADF;
		int rc = counters_read(&entry->files, now);
		if (rc != 0)
			counters_close(&entry->files);
		return rc;
	}
	if (entry->ifindex <= 0)
		return -ENODEV;
	if (!entry->dumped) {
		if (dump_ok)
			entry->ifindex = 0;
		return -ENODEV;
	}
	*now = entry->dump;
	return 0;
}

/* Read one interface and update its rate; no reading drops the baseline. */
static void tick_one(struct monitored_iface *entry, bool use_netlink, bool dump_ok, double dt_s)
{
	struct counter_pair now;
	entry->valid = false;
	if (read_entry(entry, use_netlink, dump_ok, &now) != 0) {
		entry->have_prev = false;
		return;
	}
	if (entry->have_prev)
		entry->valid = rate_compute(&entry->prev, &now, dt_s, &entry->rate);
	entry->prev = now;
	entry->have_prev = true;
}

/* Read every interface's counters; rates use dt_s, the time since the previous tick. */
void monitor_tick(struct monitor *mon, double dt_s)
{
	mon->total = (struct rate){0.0, 0.0};
	mon->total_valid = false;
	bool dump_ok = mon->use_netlink && dump_all(mon);
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		tick_one(entry, mon->use_netlink, dump_ok, dt_s);
		if (entry->valid) {
			rate_add(&mon->total, &entry->rate);
			mon->total_valid = true;
		}
	}
}

/* Read counters from one netlink dump per tick from the next rescan on; 0, or -errno if refused. */
int monitor_use_netlink(struct monitor *mon)
{
	if (mon->use_netlink)
		return 0;
	int rc = netlink_open(&mon->nl);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < mon->count; i++) {
		counters_close(&mon->ifaces[i].files);
		mon->ifaces[i].have_prev = false;
	}
	mon->use_netlink = true;
	return 0;
}

/* Say once on stderr that MONITOR_MAX_IFACES was reached, if it was. */
void monitor_warn_truncated(struct monitor *mon)
{
	if (!mon->truncated || mon->truncation_warned)
		return;
	message_print("more than %d interfaces selected; monitoring the first %d", MONITOR_MAX_IFACES,
		      MONITOR_MAX_IFACES);
	mon->truncation_warned = true;
}

/* Release everything. */
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
