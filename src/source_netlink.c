/* SPDX-License-Identifier: Apache-2.0 */
/* source_netlink: RTM_GETSTATS matched to the selected slots by ifindex; the namespace check. */
#include "config.h"

#include "source_netlink.h"

#include "cost.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One slot: what the rescan said of it. */
struct nl_slot {
	int ifindex; /* 0: unknown, or forgotten after a complete dump lacked it */
};

/* A slot by kernel index, for the per-tick lookup. */
struct nl_index {
	int ifindex;
	size_t id;
};

/* A present slot of known ifindex by name, for the link check. */
struct nl_name {
	char name[IFACE_NAME_MAX];
	size_t id;
	int ifindex;
};

struct nl_state {
	struct netlink_stats nl;
	struct nl_slot *slots; /* by id */
	size_t nslots, slots_capacity;
	struct nl_index *byindex; /* sorted by ifindex */
	size_t nbyindex, byindex_capacity;
	struct nl_name *names;    /* sorted by name (the selection's order) */
	size_t nnames, names_capacity;
	bool stale;               /* an ifindex changed: rebuild byindex */
	struct source_reading *readings; /* during a read: where the replies go, by slot id */
	size_t hint;              /* during a read: where in byindex the next reply likely is */
	bool per_ifindex;         /* one request per selected ifindex rather than a dump (cheaper) */
	int *get_ifindex;         /* per_ifindex: the requests, by the order of names */
	int *get_err;             /* and their answers */
	size_t get_capacity, err_capacity;
};

/* Make room for n elements of size in *array (capacity in *capacity); 0 or -ENOMEM. */
static int reserve(void **array, size_t *capacity, size_t n, size_t size)
{
	if (n <= *capacity)
		return 0;
	size_t grown_capacity = *capacity ? *capacity : 8;
	while (grown_capacity < n)
		grown_capacity *= 2;
	void *grown = realloc(*array, grown_capacity * size);
	if (grown == NULL)
		return -ENOMEM;
	*array = grown;
	*capacity = grown_capacity;
	return 0;
}

/* Grow the slot table to n slots, new ones unknown; 0 or -ENOMEM. */
static int grow_slots(struct nl_state *st, size_t n)
{
	if (reserve((void **)&st->slots, &st->slots_capacity, n, sizeof *st->slots) != 0)
		return -ENOMEM;
	for (; st->nslots < n; st->nslots++)
		st->slots[st->nslots] = (struct nl_slot){0};
	return 0;
}

/* Order of two index entries by ifindex, for qsort. */
static int index_cmp(const void *a, const void *b)
{
	int x = ((const struct nl_index *)a)->ifindex, y = ((const struct nl_index *)b)->ifindex;
	return (x > y) - (x < y);
}

/* List the slots of known ifindex, sorted by it (not in the steady state: qsort may allocate). */
static int index_rebuild(struct nl_state *st)
{
	if (reserve((void **)&st->byindex, &st->byindex_capacity, st->nslots, sizeof *st->byindex) != 0)
		return -ENOMEM;
	size_t n = 0;
	for (size_t id = 0; id < st->nslots; id++)
		if (st->slots[id].ifindex > 0)
			st->byindex[n++] = (struct nl_index){st->slots[id].ifindex, id};
	if (n > 1)
		qsort(st->byindex, n, sizeof *st->byindex, index_cmp);
	st->nbyindex = n;
	st->stale = false;
	return 0;
}

/* netlink_links_agree() lookup: a present slot's sysfs ifindex by its name, -1 for a name not
 * selected. */
static int selected_ifindex(const char *name, void *ctx)
{
	const struct nl_state *st = ctx;
	size_t lo = 0, hi = st->nnames;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(st->names[mid].name, name);
		if (cmp == 0)
			return st->names[mid].ifindex;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Read per ifindex or by a dump, whichever the cost model says is cheaper for this selection;
 * the dump when there is no memory for the requests. */
static void choose_requests(struct nl_state *st, size_t listed)
{
	st->per_ifindex = cost_ns(COST_GET, st->nnames, listed) < cost_ns(COST_DUMP, st->nnames, listed);
	if (!st->per_ifindex)
		return;
	if (reserve((void **)&st->get_ifindex, &st->get_capacity, st->nnames, sizeof *st->get_ifindex) != 0 ||
	    reserve((void **)&st->get_err, &st->err_capacity, st->nnames, sizeof *st->get_err) != 0 ||
	    netlink_reserve(&st->nl, st->nnames) != 0) {
		st->per_ifindex = false;
		return;
	}
	for (size_t i = 0; i < st->nnames; i++)
		st->get_ifindex[i] = st->names[i].ifindex;
}

/* Take the selected set: each slot's ifindex (a change rebuilds the lookup), then prove that
 * netlink speaks of the interfaces the listing has. */
static int nl_select(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	struct nl_state *st = src->state;
	st->nnames = 0;
	if (reserve((void **)&st->names, &st->names_capacity, n, sizeof *st->names) != 0)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (ifaces[i].id >= st->nslots && grow_slots(st, ifaces[i].id + 1) != 0)
			return -ENOMEM;
		struct nl_slot *slot = &st->slots[ifaces[i].id];
		int ifindex = ifaces[i].present ? ifaces[i].ifindex : 0;
		st->stale |= slot->ifindex != ifindex;
		slot->ifindex = ifindex;
		if (ifindex > 0) {
			struct nl_name *entry = &st->names[st->nnames++];
			snprintf(entry->name, sizeof entry->name, "%s", ifaces[i].name);
			entry->id = ifaces[i].id;
			entry->ifindex = ifindex;
		}
	}
	if (!netlink_links_agree(&st->nl, listed, st->nnames, selected_ifindex, st))
		return SOURCE_FOREIGN;
	if (st->stale && index_rebuild(st) != 0)
		return -ENOMEM;
	choose_requests(st, listed);
	return 0;
}

/* Where ifindex is in byindex, or would go: the first entry not below it. The kernel answers in
 * ifindex order, so the entry after the last match is tried before a binary search. */
static size_t index_lower_bound(struct nl_state *st, int ifindex)
{
	const struct nl_index *byindex = st->byindex;
	size_t lo = st->hint, hi = st->nbyindex;
	if (lo < hi && byindex[lo].ifindex >= ifindex && (lo == 0 || byindex[lo - 1].ifindex < ifindex))
		return lo;
	lo = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (byindex[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Dump callback: the counters of a selected ifindex are its slot's reading. */
static void dump_one(int ifindex, const struct counter_set *counters, void *ctx)
{
	struct nl_state *st = ctx;
	size_t at = index_lower_bound(st, ifindex);
	st->hint = at;
	if (at == st->nbyindex || st->byindex[at].ifindex != ifindex)
		return;
	st->hint = at + 1;
	size_t id = st->byindex[at].id;
	if (st->slots[id].ifindex == ifindex)
		st->readings[id] = (struct source_reading){*counters, 0};
}

/* One request per selected ifindex; an interface the kernel says is gone forgets its ifindex
 * until the next rescan. */
static void get_each(struct nl_state *st)
{
	netlink_get(&st->nl, st->get_ifindex, st->nnames, st->get_err, dump_one, st);
	for (size_t i = 0; i < st->nnames; i++) {
		struct nl_slot *slot = &st->slots[st->names[i].id];
		if (st->get_err[i] == -ENODEV && slot->ifindex == st->get_ifindex[i])
			slot->ifindex = 0;
	}
}

/* One dump for every interface, or one request per selected one, each reply straight into its
 * slot's reading. Only a complete dump (not failed, not flagged interrupted) that lacks a slot
 * forgets its ifindex until the next rescan. */
static void nl_read(struct source *src, struct source_reading *readings)
{
	struct nl_state *st = src->state;
	for (size_t id = 0; id < st->nslots; id++)
		readings[id].rc = -ENODEV;
	st->readings = readings;
	st->hint = 0;
	bool complete = false;
	if (st->per_ifindex)
		get_each(st);
	else
		complete = netlink_dump(&st->nl, dump_one, st) == 0;
	st->readings = NULL;
	for (size_t id = 0; complete && id < st->nslots; id++)
		if (readings[id].rc != 0)
			st->slots[id].ifindex = 0;
}

/* Nothing of its own to say: the dispatcher tells the namespace fallback. */
static void nl_warn(struct source *src, unsigned fresh)
{
	(void)src, (void)fresh;
}

/* Close the socket and free the state. */
static void nl_close(struct source *src)
{
	struct nl_state *st = src->state;
	netlink_close(&st->nl);
	free(st->slots);
	free(st->byindex);
	free(st->names);
	free(st->get_ifindex);
	free(st->get_err);
	free(st);
	src->state = NULL;
}

static const struct source_ops netlink_ops = {
	.kind = SOURCE_NETLINK,
	.select = nl_select,
	.read = nl_read,
	.warn = nl_warn,
	.close = nl_close,
};

int source_netlink_open(struct source *src)
{
	struct nl_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return -ENOMEM;
	int rc = netlink_open(&st->nl);
	if (rc != 0) {
		free(st);
		return rc;
	}
	src->ops = &netlink_ops;
	src->state = st;
	return 0;
}
