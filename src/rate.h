/* SPDX-License-Identifier: Apache-2.0 */
/* rate: pure arithmetic from two counter readings to per-second fields; no I/O. */
#ifndef KN_RATE_H
#define KN_RATE_H

#include <stdbool.h>
#include <stdint.h>

#define RATE_BYTES_PER_MIB 1048576.0 /* 2^20 */

/* The kernel counters of one interface that a source can read, by index. */
enum counter_kind {
	COUNTER_RX_BYTES,
	COUNTER_TX_BYTES,
	COUNTER_RX_PACKETS,
	COUNTER_TX_PACKETS,
	COUNTER_RX_ERRORS,
	COUNTER_TX_ERRORS,
	COUNTER_RX_DROPPED, /* rx_dropped + rx_missed_errors, as /proc/net/dev's "drop" column */
	COUNTER_TX_DROPPED,
	COUNTER_KINDS,
};

#define COUNTER_BIT(kind) (1u << (kind))
#define COUNTER_BYTES (COUNTER_BIT(COUNTER_RX_BYTES) | COUNTER_BIT(COUNTER_TX_BYTES))
#define COUNTER_ALL ((1u << COUNTER_KINDS) - 1)

/* One reading of an interface's counters: value[k] is meaningful where have has COUNTER_BIT(k). */
struct counter_set {
	uint64_t value[COUNTER_KINDS];
	unsigned have;
};

/* The fields a sample can carry, by index; the first COUNTER_KINDS follow the counters. */
enum field_kind {
	FIELD_RX, /* MiB/s */
	FIELD_TX,
	FIELD_RX_PACKETS, /* per second */
	FIELD_TX_PACKETS,
	FIELD_RX_ERRORS,
	FIELD_TX_ERRORS,
	FIELD_RX_DROPPED,
	FIELD_TX_DROPPED,
	FIELD_RX_UTIL, /* percent of the link speed */
	FIELD_TX_UTIL,
	FIELD_KINDS,
};

/* Every field of one interface's sample; NaN where there is no honest value. */
struct rate {
	double field[FIELD_KINDS];
};

/* Rates between two readings dt_s seconds apart on a link of speed_mbps Mb/s (0: unknown);
 * false when there is no honest value at all (dt_s not positive, a byte counter missing or gone
 * backwards: reset or re-created interface). Otherwise every field is set: NaN where its counter
 * is missing from either reading or went backwards, or (util) where the speed is unknown. */
bool rate_compute(const struct counter_set *prev, const struct counter_set *cur, double dt_s,
		  double speed_mbps, struct rate *out);

/* Percent of a speed_mbps link that bytes_per_s fills (NaN when the speed is not positive). */
double rate_util(double bytes_per_s, double speed_mbps);

/* The sum of one tick's rates, field by field, and what total util needs. */
struct rate_total {
	unsigned counters;  /* COUNTER_BIT()s whose fields are summed (the others stay NaN) */
	struct rate sum;    /* field sums over the rates that have the field */
	unsigned have;      /* bit f: some rate had field f */
	double util_rx, util_tx; /* bytes/s of the rates whose link speed is known */
	double speed_mbps;  /* the sum of those speeds */
};

/* Start an empty sum of the fields of the counters in mask (COUNTER_BIT()s; util is always
 * derived); the fields of the others stay NaN, so the cost of a sum follows what is read. */
void rate_total_init(struct rate_total *total, unsigned counters);

/* Add one interface's rate (on a link of speed_mbps, 0: unknown) to the sum. */
void rate_total_add(struct rate_total *total, const struct rate *r, double speed_mbps);

/* The total's fields: the sums, NaN where no rate had the field; util = the summed bytes of
 * the links of known speed over the sum of their speeds (NaN when none is known). */
void rate_total_finish(const struct rate_total *total, struct rate *out);

#endif
