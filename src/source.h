/* SPDX-License-Identifier: Apache-2.0 */
/* source: where the counters come from, behind one small interface. The monitor lists the
 * interfaces (<sysfs>/class/net) and decides which are selected; it tells the source the selected
 * set at each rescan and asks it, at each tick, for every selected slot's counters, each slot
 * failing alone. It never asks which source it talks to. One file per source:
 *   source_sysfs.c    the two statistics files of each interface, held open, pread per tick
 *   source_netlink.c  rtnetlink RTM_GETSTATS (optional: see netlink.h)
 *   source_procfs.c   /proc/net/dev, one pread per tick, for every interface at once
 * This file's dispatcher (source.c) opens the one asked for. Auto starts on the files (sysfs, or
 * procfs where sysfs has no statistics folders, as in gVisor) and, at each rescan, prices every
 * way for the selection by the cost model (cost.h): it opens netlink only when a netlink way is the
 * cheapest, keeps it only once netlink's link check has shown that sysfs describes this namespace,
 * and stays on the files when netlink is refused or speaks of another network namespace. */
#ifndef KN_SOURCE_H
#define KN_SOURCE_H

#include "iface.h"
#include "rate.h"

#include <stdbool.h>
#include <stddef.h>

/* The sources (--source). */
enum source_kind {
	SOURCE_AUTO,    /* the cheapest by the cost model (netlink only where it proves the
	                 * namespace), else the files; never netlink on a fake tree (--sysfs) */
	SOURCE_NETLINK, /* RTM_GETSTATS */
	SOURCE_SYSFS,   /* <iface>/statistics/{rx,tx}_bytes and the files the metrics need */
	SOURCE_PROCFS,  /* /proc/net/dev */
};

/* One selected interface as a rescan tells it (the set is given in name order). */
struct source_iface {
	const char *name; /* valid during the call only: a source copies what it keeps */
	size_t id;        /* the monitor's slot number: the interface's index in the readings */
	int ifindex;      /* <name>/ifindex as the listing read it; 0 when unknown */
	bool present;     /* listed by this rescan (else it vanished: no reading until it returns) */
};

/* One slot's counters this tick. */
struct source_reading {
	struct counter_set counters; /* counters.have: those read (the byte counters at least) */
	int rc; /* 0, or -errno: no reading (the slot's baseline is dropped) */
};

/* source_select() result: the listing does not describe this source's interfaces (another network
 * namespace); list again, and after SOURCE_FOREIGN_TRIES listings call source_fall_back(). */
#define SOURCE_FOREIGN 1
#define SOURCE_FOREIGN_TRIES 3

/* Things to tell the user once (bits of source.notes). */
enum source_note {
	SOURCE_NOTE_FOREIGN = 1, /* netlink answered for other interfaces than sysfs: the files now */
	SOURCE_NOTE_FDS = 2,     /* sysfs: some interfaces got no held files, read per tick */
	SOURCE_NOTE_PROCFS = 4,  /* auto: sysfs has no statistics folders, /proc/net/dev instead */
	SOURCE_NOTE_REFUSED = 8, /* auto: netlink would be cheaper but was refused (src->refused) */
};

struct source;

/* What one source implements; every function receives the dispatcher's struct source. */
struct source_ops {
	enum source_kind kind;
	/* Take the selected set (n slots in name order; listed: names the listing had in all, selected
	 * or not); 0, SOURCE_FOREIGN, or -errno (the source then fails every read until the next). */
	int (*select)(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed);
	/* Fill readings[id] for the id of every selected slot. Allocates nothing. */
	void (*read)(struct source *src, struct source_reading *readings);
	/* Say the notes among fresh that belong to this source (one line each). */
	void (*warn)(struct source *src, unsigned fresh);
	/* Release everything the source holds. */
	void (*close)(struct source *src);
};

/* What every source may need, given once. */
struct source_env {
	int classnet_fd;          /* the open <sysfs>/class/net folder, owned by the monitor */
	const char *proc_net_dev; /* the file procfs reads: /proc/net/dev, or the test's */
	bool fake_tree;           /* --sysfs: the tree is not the kernel's; auto never takes netlink */
	unsigned long long interval_us; /* the sampling interval, for auto's cost model (0: unknown) */
	unsigned counters;        /* COUNTER_BIT()s to read (the byte counters always); sources that
	                           * get every counter at no extra cost may give more */
};

#define SOURCE_INTERVAL_DEFAULT_US 20000.0 /* what auto assumes when it is not told */

/* The dispatcher: the source in use and how it was chosen. */
struct source {
	const struct source_ops *ops; /* the source in use; NULL before source_open() */
	void *state;                  /* its own */
	struct source_env env;
	enum source_kind asked;       /* what the user asked for */
	bool files_decided;           /* auto: whether sysfs or procfs is settled */
	bool netlink_allowed;         /* auto: netlink may be tried (built, refused by nothing yet,
	                               * not a fake tree, not given up as foreign) */
	int refused;                  /* auto: the errno netlink was refused with, or 0 */
	bool proven;                  /* auto: netlink showed that this is sysfs's namespace: every
	                               * source reads the same counters, switches keep the baselines */
	bool chosen;                  /* auto: the cost model chose once */
	unsigned generation;          /* bumped at every switch: baselines of another source are void */
	unsigned notes, noted;        /* source_note bits raised, and already told */
};

/* The file procfs reads; the environment variable KN_TEST_PROC_NET_DEV (for tests only) overrides it. */
#define SOURCE_PROC_NET_DEV "/proc/net/dev"

/* Open the source asked for (auto: the files); 0, or -errno when it is refused. */
int source_open(struct source *src, enum source_kind asked, const struct source_env *env);

/* Tell the source the selected set (see struct source_ops); 0, SOURCE_FOREIGN or -errno. */
int source_select(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed);

/* After SOURCE_FOREIGN: switch to the files (sysfs or procfs) for good, with a note. */
void source_fall_back(struct source *src);

/* Fill readings[id] for every selected slot; -EBADF when no source is open (no reading at all). */
int source_read(struct source *src, struct source_reading *readings);

/* The source in use (never SOURCE_AUTO once open). */
enum source_kind source_kind(const struct source *src);

/* Its name, as --source spells it. */
const char *source_name(enum source_kind kind);

/* Say once on stderr each note raised and not yet told (one line each). */
void source_warn(struct source *src);

/* Close the source in use (safe on a closed one). */
void source_close(struct source *src);

#endif
