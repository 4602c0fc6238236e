/* SPDX-License-Identifier: Apache-2.0 */
/* cost: what reading the counters costs per tick by each way, from a model measured with
 * bench/matrix.sh (bench/README.md, "Cost model"); pure arithmetic, for auto's choice. */
#ifndef KN_COST_H
#define KN_COST_H

#include <stddef.h>

/* The ways to read the counters. */
enum cost_way {
	COST_SYSFS,  /* two preads per selected interface */
	COST_DUMP,   /* one RTM_GETSTATS dump: every listed interface */
	COST_GET,    /* one RTM_GETSTATS request per selected interface, batched */
	COST_PROCFS, /* one read of /proc/net/dev: every listed interface, formatted and parsed */
	COST_WAYS,
};

#define COST_BIT(way) (1u << (way))
#define COST_HYSTERESIS 1.25 /* a new way must be this many times cheaper before auto switches */

/* CPU nanoseconds per tick above the pacing, for selected of listed interfaces. */
double cost_ns(enum cost_way way, size_t selected, size_t listed);

/* What netlink's namespace proof (one RTM_GETLINK dump of every listed interface per rescan, once
 * a second) adds to each tick of interval_us, in nanoseconds. */
double cost_proof_ns(size_t listed, double interval_us);

/* The cheapest of the ways in the mask (COST_BIT()s; not empty), for selected of listed at
 * interval_us (the netlink ways pay their proof). */
enum cost_way cost_cheapest(unsigned mask, size_t selected, size_t listed, double interval_us);

#endif
