/* SPDX-License-Identifier: Apache-2.0 */
/* monitor: the set of monitored interfaces; rescans pick up newcomers, ticks turn readings into rates. */
#include "config.h"

#include "monitor.h"

#include "message.h"
#include "sysfs.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MONITOR_PROVE_LISTINGS 5 /* the start-up listing and four rescans: then prove the watch */

int monitor_init(struct monitor *mon, const char *sysfs_root, const struct iface_selector *sel,
		 char err[IFACE_ERR_MAX])
{
	*mon = (struct monitor){.sel = sel};
	linkwatch_init(&mon->watch);
	return iface_dir_open(&mon->dir, sysfs_root, err);
}

int monitor_use_source(struct monitor *mon, enum source_kind kind, bool fake_tree, const char *proc_net_dev)
{
	if (mon->src_open)
		source_close(&mon->src);
	struct source_env env = {mon->dir.fd, proc_net_dev != NULL ? proc_net_dev : SOURCE_PROC_NET_DEV, fake_tree,
				 mon->interval_us, mon->counters | COUNTER_BYTES};
	int rc = source_open(&mon->src, kind, &env);
	mon->src_open = rc == 0;
	mon->fake_tree = fake_tree;
	mon->src_generation = mon->src.generation;
	for (size_t i = 0; i < mon->count; i++)
		mon->ifaces[i].have_prev = false;
	return rc;
}

void monitor_set_interval(struct monitor *mon, uint64_t interval_us)
{
	mon->interval_us = interval_us;
}

void monitor_set_counters(struct monitor *mon, unsigned counters, bool speed)
{
	mon->counters = counters & COUNTER_ALL;
	mon->speed = speed;
}

enum source_kind monitor_source(const struct monitor *mon)
{
	return mon->src_open ? source_kind(&mon->src) : SOURCE_AUTO;
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

#define MONITOR_SPEED_MAX_MBPS 1000000000ULL /* a petabit per second: anything above is garbage */

/* The interface's <name>/speed in Mb/s, or 0 when unknown: -1 (what the kernel says when it does
 * not know), absent (virtual interfaces), unreadable (EINVAL on a link that is down), 0 or garbage. */
static double read_speed(const struct monitor *mon, const char *name)
{
	char buf[SYSFS_VALUE_MAX];
	uint64_t value;
	ssize_t n = iface_read_attr(&mon->dir, name, "speed", buf, sizeof buf);
	if (n < 0 || sysfs_parse_u64(buf, (size_t)n, &value) != 0 || value > MONITOR_SPEED_MAX_MBPS)
		return 0.0;
	return (double)value;
}

/* Keep following the name, not the device: when the name now belongs to another device
 * (renamed away and re-created), drop the baseline; the source hears of the new ifindex. The
 * speed, when asked for, is read again (a link renegotiates). */
static void follow_name(struct monitor *mon, struct monitored_iface *entry)
{
	if (mon->speed)
		entry->speed_mbps = read_speed(mon, entry->name);
	int ifindex = read_ifindex(mon, entry->name);
	if (ifindex == entry->ifindex)
		return;
	entry->have_prev = false;
	entry->ifindex = ifindex;
}

/* Note a listed name as present, adding it if newly selected (selected: already known to be). */
static void note_listed(struct monitor *mon, const char *name, bool selected)
{
	bool found;
	size_t slot = find_slot(mon, name, &found);
	struct monitored_iface *entry = found ? &mon->ifaces[slot] : NULL;
	if (entry == NULL) {
		if (!selected && !iface_selected(mon->sel, &mon->dir, name))
			return;
		entry = insert_at(mon, slot, name);
		if (entry == NULL)
			return;
	}
	entry->seen_scan = mon->scans;
	follow_name(mon, entry);
}

/* Rescan callback: count the name and note it. */
static void rescan_one(const char *name, void *ctx)
{
	struct monitor *mon = ctx;
	mon->listed++;
	note_listed(mon, name, false);
}

/* First-listing filter: count the name; keep it if selected. */
static bool first_keeps(const char *name, void *ctx)
{
	struct monitor *mon = ctx;
	mon->listed++;
	return iface_selected(mon->sel, &mon->dir, name);
}

/* Whether this rescan may look the selected names up rather than list the folder: after the
 * first listing, when the selection is plain names, unless the netlink source reads (its check
 * compares a link dump with the count of a fresh listing). A listing costs about 1 µs for every
 * interface of every namespace (kernfs walks them all and filters by namespace): 0.2 to 0.5 ms a
 * second for one name among 256 on the 2-vCPU VM; a lookup costs what the names do. */
static bool looks_up(const struct monitor *mon)
{
	return mon->scans > 1 && iface_selector_names_only(mon->sel) && monitor_source(mon) != SOURCE_NETLINK;
}

/* Note every selected name that the folder holds, as the scan before found them; false, noting
 * nothing, when one came or went: then a listing must count the folder again for auto's prices
 * (mon->listed otherwise keeps the last listing's count). A second scan within one rescan (a
 * check of netlink's links tried again) always lists: it finds what this scan noted. */
static bool look_up(struct monitor *mon)
{
	const struct iface_selector *sel = mon->sel;
	for (size_t i = 0; i < sel->nliterals; i++) {
		bool found;
		size_t slot = find_slot(mon, sel->literals[i], &found);
		bool was = found && mon->ifaces[slot].seen_scan == mon->scans - 1;
		if (iface_dir_has(&mon->dir, sel->literals[i]) != was)
			return false;
	}
	for (size_t i = 0; i < mon->count; i++)
		if (mon->ifaces[i].seen_scan == mon->scans - 1)
			note_listed(mon, mon->ifaces[i].name, true);
	return true;
}

/* Offer every listed name to note_listed(), or look the names up where looks_up() and look_up()
 * allow. With nothing monitored yet, only the selected names are copied and sorted, then added in
 * order, so that each insertion lands at the end of the table (no quadratic shifting with
 * thousands of names, no sorting of the unselected). */
static int scan(struct monitor *mon)
{
	if (looks_up(mon) && look_up(mon))
		return 0;
	mon->listed = 0;
	if (mon->count > 0)
		return iface_dir_scan(&mon->dir, rescan_one, mon);
	char **names = NULL;
	size_t count = 0;
	if (iface_dir_names_kept(&mon->dir, first_keeps, mon, &names, &count) != 0)
		return -1;
	for (size_t i = 0; i < count; i++)
		note_listed(mon, names[i], true);
	iface_names_free(names, count);
	return 0;
}

/* Scan, then forget the ifindex and baseline of every interface the scan lacked. */
static int list(struct monitor *mon)
{
	if (scan(mon) != 0)
		return -1;
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->seen_scan != mon->scans) {
			entry->ifindex = 0;
			entry->have_prev = false;
		}
	}
	return 0;
}

/* Make room for a reading per id; new ones say "no reading". 0 or -ENOMEM. */
static int reserve_readings(struct monitor *mon)
{
	if (mon->count <= mon->readings_capacity && mon->count <= mon->told_capacity)
		return 0;
	struct source_iface *told = realloc(mon->told, mon->capacity * sizeof *told);
	if (told == NULL)
		return -ENOMEM;
	mon->told = told;
	mon->told_capacity = mon->capacity;
	struct source_reading *grown = realloc(mon->readings, mon->capacity * sizeof *grown);
	if (grown == NULL)
		return -ENOMEM;
	for (size_t id = mon->readings_capacity; id < mon->capacity; id++)
		grown[id] = (struct source_reading){.rc = -ENODEV};
	mon->readings = grown;
	mon->readings_capacity = mon->capacity;
	return 0;
}

/* The listing's ifindex of a selected, present name (0: unknown), or -1 (for linkwatch_prove()). */
static int listed_ifindex(const char *name, void *ctx)
{
	const struct monitor *mon = ctx;
	bool found;
	size_t slot = find_slot(mon, name, &found);
	if (!found || mon->ifaces[slot].seen_scan != mon->scans)
		return -1;
	return mon->ifaces[slot].ifindex;
}

/* Trust the watch: a netlink source has just proven at no cost of its own that its links are
 * the listing's. Any other source has the watch prove it with one link dump, which costs about
 * as much as four or five listings of the same folder (1024 links, one selected: 3.5 ms against
 * 0.8 ms; bench/README.md): so it lists every second until it has listed MONITOR_PROVE_LISTINGS
 * times, and only then pays for the proof. As in ski rental, a run too short to earn the proof
 * back never pays more than about twice what the cheaper way would have cost. */
static void prove_watch(struct monitor *mon)
{
	if (monitor_source(mon) == SOURCE_NETLINK) {
		linkwatch_trust(&mon->watch);
		return;
	}
	if (mon->scans < MONITOR_PROVE_LISTINGS)
		return;
	size_t selected = 0;
	for (size_t i = 0; i < mon->count; i++)
		selected += mon->ifaces[i].seen_scan == mon->scans;
	linkwatch_prove(&mon->watch, mon->listed, selected, listed_ifindex, mon);
}

/* Tell the source the selected set, in name order; what source_select() returns. */
static int tell_source(struct monitor *mon)
{
	if (reserve_readings(mon) != 0)
		return -ENOMEM;
	for (size_t i = 0; i < mon->count; i++) {
		const struct monitored_iface *entry = &mon->ifaces[i];
		mon->told[i] = (struct source_iface){entry->name, entry->id, entry->ifindex,
						     entry->seen_scan == mon->scans};
	}
	return source_select(&mon->src, mon->told, mon->count, mon->listed);
}

int monitor_rescan(struct monitor *mon)
{
	if (!mon->src_open && monitor_use_source(mon, SOURCE_SYSFS, false, NULL) != 0)
		return -1;
	mon->scans++;
	mon->list_failed = list(mon) != 0;
	if (mon->list_failed)
		return -1;
	int rc = tell_source(mon);
	for (int tries = 1; rc == SOURCE_FOREIGN && tries < SOURCE_FOREIGN_TRIES; tries++)
		rc = list(mon) == 0 ? tell_source(mon) : rc; /* a hot-plug race is no proof */
	if (rc == SOURCE_FOREIGN) {
		source_fall_back(&mon->src);
		tell_source(mon);
	}
	if (mon->src.generation != mon->src_generation) { /* another source: its counters are new */
		for (size_t i = 0; i < mon->count; i++)
			mon->ifaces[i].have_prev = false;
		mon->src_generation = mon->src.generation;
	}
	if (linkwatch_unproven(&mon->watch) && !looks_up(mon))
		prove_watch(mon); /* a lookup a second costs less than the proof would save */
	return 0;
}

void monitor_watch_links(struct monitor *mon)
{
	if (!mon->fake_tree && !mon->speed)
		linkwatch_open(&mon->watch); /* refused: no watch, every rescan lists */
}

bool monitor_links_changed(struct monitor *mon)
{
	bool heard = linkwatch_changed(&mon->watch); /* drain it either way */
	return heard || mon->list_failed;
}

/* Turn one interface's reading into its rate; no reading drops the baseline. The baseline keeps
 * only the counters in want (a source may give more), so the rate computes only those. */
static void tick_one(struct monitored_iface *entry, const struct source_reading *reading, unsigned want,
		     double dt_s)
{
	entry->valid = false;
	if (reading == NULL || reading->rc != 0) {
		entry->have_prev = false;
		return;
	}
	if (entry->have_prev)
		entry->valid = rate_compute(&entry->prev, &reading->counters, dt_s, entry->speed_mbps, &entry->rate);
	entry->prev = reading->counters;
	entry->prev.have &= want;
	entry->have_prev = true;
}

void monitor_tick(struct monitor *mon, double dt_s)
{
	const unsigned want = mon->counters | COUNTER_BYTES;
	struct rate_total total;
	rate_total_init(&total, want);
	mon->total_valid = false;
	bool read = mon->src_open && source_read(&mon->src, mon->readings) == 0;
	for (size_t i = 0; i < mon->count; i++) {
		struct monitored_iface *entry = &mon->ifaces[i];
		bool have = read && entry->id < mon->readings_capacity;
		tick_one(entry, have ? &mon->readings[entry->id] : NULL, want, dt_s);
		if (entry->valid) {
			rate_total_add(&total, &entry->rate, entry->speed_mbps);
			mon->total_valid = true;
		}
	}
	rate_total_finish(&total, &mon->total);
}

size_t monitor_count(const struct monitor *mon)
{
	return mon->count;
}

const char *monitor_name(const struct monitor *mon, size_t i)
{
	return mon->ifaces[i].name;
}

double monitor_speed(const struct monitor *mon, size_t i)
{
	return mon->ifaces[i].speed_mbps;
}

int monitor_names_present(struct monitor *mon, char ***names, size_t *count)
{
	return iface_dir_names(&mon->dir, names, count);
}

void monitor_warn(struct monitor *mon)
{
	unsigned fresh = mon->notes & ~mon->noted;
	if (fresh & MONITOR_NOTE_TRUNCATED)
		message_print("more than %d interfaces selected; monitoring the first %d", MONITOR_MAX_IFACES,
			      MONITOR_MAX_IFACES);
	mon->noted |= fresh;
	if (mon->src_open)
		source_warn(&mon->src);
}

void monitor_free(struct monitor *mon)
{
	if (mon->src_open)
		source_close(&mon->src);
	free(mon->told);
	free(mon->readings);
	free(mon->ifaces);
	iface_dir_close(&mon->dir);
	linkwatch_close(&mon->watch);
	*mon = (struct monitor){0};
	mon->dir.fd = -1;
	linkwatch_init(&mon->watch);
}
