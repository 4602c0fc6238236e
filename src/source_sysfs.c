/* SPDX-License-Identifier: Apache-2.0 */
/* source_sysfs: held statistics files, pread per tick; per-tick opens past the fd limit. */
#include "config.h"

#include "source_sysfs.h"

#include "message.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define SYSFS_FD_MARGIN 64 /* fds kept free beside the counter files: stdio, class/net, netlink,
                            * an NVTX tool's own, the per-tick opens */

/* One slot: the interface's name and files. */
struct sysfs_slot {
	char name[IFACE_NAME_MAX];
	struct counter_files files; /* held counter files, closed while absent or failing */
	bool present;               /* listed by the last rescan */
	bool per_tick;              /* no held files (the fd limit was reached): open them per tick */
	int ifindex;                /* at the last rescan: a change means another device */
};

struct sysfs_state {
	struct sysfs_slot *slots; /* by id */
	size_t nslots, capacity;
	size_t held;              /* slots holding their files */
	unsigned per_slot;        /* files each slot holds: 2 for the byte counters, more for metrics */
	struct rlimit fds;        /* RLIMIT_NOFILE as it stands (soft raised as needed) */
};

/* Grow the slot table to n slots (new ones closed and absent); 0 or -ENOMEM. */
static int grow(struct sysfs_state *st, size_t n)
{
	if (n > st->capacity) {
		size_t capacity = st->capacity ? st->capacity : 8;
		while (capacity < n)
			capacity *= 2;
		struct sysfs_slot *grown = realloc(st->slots, capacity * sizeof *grown);
		if (grown == NULL)
			return -ENOMEM;
		st->slots = grown;
		st->capacity = capacity;
	}
	for (; st->nslots < n; st->nslots++) {
		st->slots[st->nslots] = (struct sysfs_slot){.present = false};
		counters_init(&st->slots[st->nslots].files);
	}
	return 0;
}

/* Close the slot's held files, if it holds them. */
static void release(struct sysfs_state *st, struct sysfs_slot *slot)
{
	if (counters_held(&slot->files))
		st->held--;
	counters_close(&slot->files);
}

/* Raise the soft open-file limit so that n interfaces' files each fit beside the margin, no
 * further than needed and never above the hard limit. */
static void reserve_fds(struct sysfs_state *st, size_t n)
{
	rlim_t need = (rlim_t)n * st->per_slot + SYSFS_FD_MARGIN;
	if (st->fds.rlim_cur == RLIM_INFINITY || need <= st->fds.rlim_cur || st->fds.rlim_cur >= st->fds.rlim_max)
		return;
	struct rlimit raised = {need < st->fds.rlim_max ? need : st->fds.rlim_max, st->fds.rlim_max};
	if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
		st->fds = raised;
	else
		st->fds.rlim_max = st->fds.rlim_cur; /* refused: do not ask again */
}

/* Hold the slot's counter files unless held already; when the fd limit leaves no room (the
 * margin stays free), read them per tick instead (SOURCE_NOTE_FDS). */
static void hold_files(struct source *src, struct sysfs_state *st, struct sysfs_slot *slot)
{
	if (counters_held(&slot->files))
		return;
	bool room = st->fds.rlim_cur == RLIM_INFINITY ||
		    (rlim_t)(st->held + 1) * st->per_slot + SYSFS_FD_MARGIN <= st->fds.rlim_cur;
	int rc = room ? counters_open(&slot->files, src->env.classnet_fd, slot->name, src->env.counters) : -EMFILE;
	if (rc == 0)
		st->held++;
	slot->per_tick = rc == -EMFILE || rc == -ENFILE;
	if (slot->per_tick)
		src->notes |= SOURCE_NOTE_FDS;
}

/* Take the selected set: close the files of vanished slots and of names now on another device,
 * hold those of present ones. */
static int sysfs_select(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	struct sysfs_state *st = src->state;
	(void)listed;
	for (size_t i = 0; i < n; i++)
		if (ifaces[i].id >= st->nslots && grow(st, ifaces[i].id + 1) != 0)
			return -ENOMEM;
	reserve_fds(st, n); /* at once, rather than two fds at a time */
	for (size_t i = 0; i < n; i++) {
		struct sysfs_slot *slot = &st->slots[ifaces[i].id];
		snprintf(slot->name, sizeof slot->name, "%s", ifaces[i].name);
		if (!ifaces[i].present || ifaces[i].ifindex != slot->ifindex) {
			release(st, slot);
			slot->per_tick = false;
		}
		slot->ifindex = ifaces[i].present ? ifaces[i].ifindex : 0;
		slot->present = ifaces[i].present;
		if (slot->present)
			hold_files(src, st, slot);
	}
	return 0;
}

/* Read every slot: pread its held files (a failure closes them), or open them per tick. */
static void sysfs_read(struct source *src, struct source_reading *readings)
{
	struct sysfs_state *st = src->state;
	for (size_t id = 0; id < st->nslots; id++) {
		struct sysfs_slot *slot = &st->slots[id];
		struct source_reading *out = &readings[id];
		if (counters_held(&slot->files)) {
			out->rc = counters_read(&slot->files, &out->counters);
			if (out->rc != 0)
				release(st, slot);
		} else if (slot->per_tick) {
			out->rc = counters_read_at(src->env.classnet_fd, slot->name, src->env.counters, &out->counters);
		} else {
			out->rc = -EBADF;
		}
	}
}

/* Print an open-file limit into buf ("unlimited" for infinity). */
static void format_limit(char *buf, size_t size, rlim_t limit)
{
	if (limit == RLIM_INFINITY)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", (unsigned long long)limit);
}

/* Say that some interfaces are read per tick, and why. */
static void sysfs_warn(struct source *src, unsigned fresh)
{
	const struct sysfs_state *st = src->state;
	if (!(fresh & SOURCE_NOTE_FDS))
		return;
	size_t n = 0;
	for (size_t i = 0; i < st->nslots; i++)
		n += st->slots[i].per_tick;
	char soft[32], hard[32];
	format_limit(soft, sizeof soft, st->fds.rlim_cur);
	format_limit(hard, sizeof hard, st->fds.rlim_max);
	message_print("open file limit %s (hard %s) too low to hold %u files per interface: %zu of %zu "
		      "interfaces are read by opening their files at each sample (slower)",
		      soft, hard, st->per_slot, n, st->nslots);
}

/* Close every held file and free the state. */
static void sysfs_close(struct source *src)
{
	struct sysfs_state *st = src->state;
	for (size_t i = 0; i < st->nslots; i++)
		counters_close(&st->slots[i].files);
	free(st->slots);
	free(st);
	src->state = NULL;
}

static const struct source_ops sysfs_ops = {
	.kind = SOURCE_SYSFS,
	.select = sysfs_select,
	.read = sysfs_read,
	.warn = sysfs_warn,
	.close = sysfs_close,
};

int source_sysfs_open(struct source *src)
{
	struct sysfs_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return -ENOMEM;
	if (getrlimit(RLIMIT_NOFILE, &st->fds) != 0)
		st->fds = (struct rlimit){RLIM_INFINITY, RLIM_INFINITY}; /* nothing to raise */
	st->per_slot = counters_files_needed(src->env.counters);
	src->ops = &sysfs_ops;
	src->state = st;
	return 0;
}

const struct counter_files *source_sysfs_files(const struct source *src, size_t id)
{
	const struct sysfs_state *st = src->ops == &sysfs_ops ? src->state : NULL;
	return st != NULL && id < st->nslots ? &st->slots[id].files : NULL;
}

bool source_sysfs_per_tick(const struct source *src, size_t id)
{
	const struct sysfs_state *st = src->ops == &sysfs_ops ? src->state : NULL;
	return st != NULL && id < st->nslots && st->slots[id].per_tick;
}
