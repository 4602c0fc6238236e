/* SPDX-License-Identifier: Apache-2.0 */
/* cost: what reading the counters costs per tick by each way, from a model measured with
 * bench/matrix.sh (bench/README.md, "Cost model"); pure arithmetic, for auto's choice. */
#ifndef KN_COST_H
#define KN_COST_H

#include <stddef.h>

/* The ways to read the counters. */
enum cost_way {
	COST_SYSFS,  /* a pread per statistics file of each selected interface (two without -m) */
	COST_DUMP,   /* one RTM_GETSTATS dump: every listed interface */
	COST_GET,    /* one RTM_GETSTATS request per selected interface, batched */
	COST_PROCFS, /* one read of /proc/net/dev: every listed interface, formatted and parsed */
	COST_WAYS,
};

#define COST_BIT(way) (1u << (way))
#define COST_HYSTERESIS 1.25 /* a new way must be this many times cheaper before auto switches */

#define COST_SYSFS_FILES 2 /* statistics files per interface the sysfs line was measured with */

/* CPU nanoseconds per tick above the pacing, for selected of listed interfaces (sysfs reading
 * COST_SYSFS_FILES files per interface). */
double cost_ns(enum cost_way way, size_t selected, size_t listed);

/* As cost_ns(), with sysfs reading sysfs_files files per interface (-m adds some: the sysfs
 * line scales with them; the other ways read every counter anyway). */
double cost_ns_files(enum cost_way way, size_t selected, size_t listed, unsigned sysfs_files);

/* What netlink's namespace proof (one RTM_GETLINK dump of every listed interface per rescan, once
 * a second) adds to each tick of interval_us, in nanoseconds. */
double cost_proof_ns(size_t listed, double interval_us);

/* The cheapest of the ways in the mask (COST_BIT()s; not empty), for selected of listed at
 * interval_us (the netlink ways pay their proof). */
enum cost_way cost_cheapest(unsigned mask, size_t selected, size_t listed, double interval_us);

/* As cost_cheapest(), with sysfs reading sysfs_files files per interface. */
enum cost_way cost_cheapest_files(unsigned mask, size_t selected, size_t listed, double interval_us,
				  unsigned sysfs_files);

#endif
