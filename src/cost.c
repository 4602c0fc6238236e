/* SPDX-License-Identifier: Apache-2.0 */
/* cost: the per-tick cost model of the counter sources. */
#include "config.h"

#include "cost.h"

/* Fixed and per-interface CPU nanoseconds per tick of one way (bench/README.md, "Cost model"). */
struct cost_line {
	double fixed;    /* the syscalls themselves */
	double per_sel;  /* per selected interface */
	double per_list; /* per listed interface, selected or not */
};

/* From bench/matrix.sh on a 16-core x86-64 host at 1 kHz, above the sleep-only floor (bench/README.md,
 * "The cost model"): the kernel sums per-CPU statistics for every interface it reports. */
static const struct cost_line lines[COST_WAYS] = {
	[COST_SYSFS] = {0.0, 2900.0, 0.0},     /* two preads per interface, two statistics walks */
	[COST_DUMP] = {9000.0, 0.0, 900.0},    /* sendto + recvfroms; the kernel fills 232 bytes per link */
	[COST_GET] = {7000.0, 1700.0, 0.0},    /* sendmsg + recvmmsg per batch of 64 */
	[COST_PROCFS] = {8000.0, 0.0, 1900.0}, /* the kernel formats 16 numbers per line; one read per page */
};

#define COST_PROOF_PER_LINK 2400.0 /* ns per listed link of one RTM_GETLINK dump (with its names) */
#define COST_RESCAN_US 1000000.0  /* rescans are at most once a second */
#define COST_GET_BATCH 64   /* requests per sendmsg (NETLINK_BATCH_MAX): each batch costs the fixed part */

double cost_ns_files(enum cost_way way, size_t selected, size_t listed, unsigned sysfs_files)
{
	const struct cost_line *line = &lines[way];
	double fixed = line->fixed, per_sel = line->per_sel;
	if (way == COST_GET && selected > COST_GET_BATCH)
		fixed *= (double)((selected + COST_GET_BATCH - 1) / COST_GET_BATCH);
	if (way == COST_SYSFS)
		per_sel *= (double)sysfs_files / COST_SYSFS_FILES;
	return fixed + per_sel * (double)selected + line->per_list * (double)listed;
}

double cost_ns(enum cost_way way, size_t selected, size_t listed)
{
	return cost_ns_files(way, selected, listed, COST_SYSFS_FILES);
}

double cost_proof_ns(size_t listed, double interval_us)
{
	double per_rescan = COST_PROOF_PER_LINK * (double)listed;
	return interval_us >= COST_RESCAN_US ? per_rescan : per_rescan * interval_us / COST_RESCAN_US;
}

enum cost_way cost_cheapest(unsigned mask, size_t selected, size_t listed, double interval_us)
{
	return cost_cheapest_files(mask, selected, listed, interval_us, COST_SYSFS_FILES);
}

enum cost_way cost_cheapest_files(unsigned mask, size_t selected, size_t listed, double interval_us,
				  unsigned sysfs_files)
{
	enum cost_way best = COST_WAYS;
	double best_ns = 0.0;
	for (int way = 0; way < COST_WAYS; way++) {
		if (!(mask & COST_BIT(way)))
			continue;
		double ns = cost_ns_files((enum cost_way)way, selected, listed, sysfs_files);
		if (way == COST_DUMP || way == COST_GET)
			ns += cost_proof_ns(listed, interval_us);
		if (best == COST_WAYS || ns < best_ns) {
			best = (enum cost_way)way;
			best_ns = ns;
		}
	}
	return best;
}
