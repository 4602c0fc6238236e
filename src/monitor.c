/* SPDX-License-Identifier: Apache-2.0 */
/* monitor: the set of monitored interfaces; rescans pick up newcomers, ticks turn readings into rates. */
#include "config.h"

#include "monitor.h"

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
	}
	entry->seen_scan = mon->scans;
	if (entry->files.rx_fd < 0 && counters_open(&entry->files, mon->dir.fd, name) != 0)
		entry->have_prev = false;
}

/* List the interfaces again: add newly selected ones, close the files of vanished ones. */
int monitor_rescan(struct monitor *mon)
{
	mon->scans++;
	if (iface_dir_scan(&mon->dir, rescan_one, mon) != 0)
		return -1;
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->seen_scan != mon->scans) {
			counters_close(&entry->files);
			entry->have_prev = false;
		}
	}
	return 0;
}

/* Read one interface and update its rate; a failed read closes its files until the next rescan. */
static void tick_one(struct monitored_iface *entry, double dt_s)
{
	struct counter_pair now;
	entry->valid = false;
	if (entry->files.rx_fd < 0)
		return;
	if (counters_read(&entry->files, &now) != 0) {
		counters_close(&entry->files);
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
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		tick_one(entry, dt_s);
		if (entry->valid) {
			rate_add(&mon->total, &entry->rate);
			mon->total_valid = true;
		}
	}
}

/* Release everything. */
void monitor_free(struct monitor *mon)
{
	for (size_t i = 0; i < mon->count; i++)
		counters_close(&mon->ifaces[i].files);
	free(mon->ifaces);
	iface_dir_close(&mon->dir);
	*mon = (struct monitor){0};
	mon->dir.fd = -1;
}
