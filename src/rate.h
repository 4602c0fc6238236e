/* SPDX-License-Identifier: Apache-2.0 */
/* rate: pure arithmetic from two counter readings to MiB/s; no I/O. */
#ifndef KN_RATE_H
#define KN_RATE_H

#include <stdbool.h>
#include <stdint.h>

#define RATE_BYTES_PER_MIB 1048576.0 /* 2^20 */

/* One reading of an interface's byte counters. */
struct counter_pair {
	uint64_t rx; /* rx_bytes */
	uint64_t tx; /* tx_bytes */
};

/* Receive and transmit rates in MiB/s; laid out as the NVTX payload (rx at 0, tx at 8). */
struct rate {
	double rx;
	double tx;
};

/* Rates between two readings dt_s seconds apart; false when there is no honest value
 * (dt_s not positive, or a counter went backwards: reset or re-created interface). */
bool rate_compute(const struct counter_pair *prev, const struct counter_pair *cur, double dt_s,
		  struct rate *out);

/* Add r to sum, field by field. */
void rate_add(struct rate *sum, const struct rate *r);

#endif
