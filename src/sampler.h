/* SPDX-License-Identifier: Apache-2.0 */
/* sampler: the loop. Absolute deadlines, a signal-safe wait, skip-ahead, rescans, a final sample. */
#ifndef KN_SAMPLER_H
#define KN_SAMPLER_H

#include "metric.h"
#include "monitor.h"
#include "rdma.h"

#include <stdint.h>
#include <stdio.h>

struct sampler_config {
	uint64_t interval_us; /* time between ticks */
	uint64_t count;       /* stop after this many ticks; 0 = until a stop signal */
	FILE *csv;            /* --print destination, or NULL */
	const struct metric_set *metrics; /* the fields of every sample (-m) */
	struct rdma_set *rdma; /* --rdma: the RDMA ports, groups after total; NULL without */
};

/* Make SIGTERM, SIGINT and SIGHUP end the program at once with status 0, and ignore SIGPIPE.
 * For the start-up, which can take long (regcomp() of big patterns, the netlink timeout) and
 * has nothing to finish: call it first thing in main(). */
void sampler_catch_signals(void);

/* Block SIGTERM, SIGINT and SIGHUP, and the loop's timer signal: a stop signal then stays
 * pending until the loop's wait takes it, so that the last sample is emitted. Call it before
 * anything can start a thread (emit_init(), which may load an NVTX tool), so that every thread
 * inherits the mask. */
void sampler_block_signals(void);

/* Register the NVTX groups and sample until a stop signal or the count; returns the exit status. */
int sampler_run(struct monitor *mon, const struct sampler_config *cfg);

#endif
