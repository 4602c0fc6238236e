/* SPDX-License-Identifier: Apache-2.0 */
/* metric: the -m names, the fields each adds (names, units, descriptions) and the sample layout
 * they make: rx, tx, then each chosen metric's pair in the order given. Chosen once at start-up. */
#ifndef KN_METRIC_H
#define KN_METRIC_H

#include "rate.h"

#include <stdbool.h>
#include <stddef.h>

/* The metrics -m can add. */
enum metric_kind {
	METRIC_PACKETS, /* rx_packets, tx_packets: packets/s */
	METRIC_ERRORS,  /* rx_errors, tx_errors: errors/s */
	METRIC_DROPS,   /* rx_dropped, tx_dropped: drops/s */
	METRIC_UTIL,    /* rx_util, tx_util: % of <if>/speed */
	METRIC_KINDS,
};

#define METRIC_FIELDS_MAX (2 + 2 * METRIC_KINDS)
#define METRIC_NAMES "packets, errors, drops or util" /* for messages */

/* The chosen metrics and what they make. */
struct metric_set {
	enum metric_kind chosen[METRIC_KINDS]; /* in the order given */
	size_t nchosen;
	enum field_kind fields[METRIC_FIELDS_MAX]; /* the sample's fields in payload order */
	size_t nfields;
	unsigned counters; /* COUNTER_BIT()s the sources must read */
	bool speed;        /* util: read <if>/speed at each rescan */
};

/* The default set: rx and tx alone, from the byte counters. */
void metric_set_init(struct metric_set *set);

/* Add the metric named name; 0, -EINVAL for an unknown name, -EEXIST for one given already. */
int metric_set_add(struct metric_set *set, const char *name);

/* Whether any metric was chosen (the output then differs from the default's). */
bool metric_set_extended(const struct metric_set *set);

/* A field's name in the NVTX schema ("rx", "rx_packets", ...). */
const char *metric_field_name(enum field_kind field);

/* A field's unit ("MiB/s", "packets/s", "errors/s", "drops/s", "%"). */
const char *metric_field_unit(enum field_kind field);

/* A field's description in the NVTX schema ("Receive rate", ...). */
const char *metric_field_description(enum field_kind field);

/* A field's --print column name ("rx_MiB_s", "rx_packets_s", "rx_util_pct", ...). */
const char *metric_field_column(enum field_kind field);

#endif
