/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_fields: the payload fields kvikio_nic writes per counter group, by name, and the columns
 * that kvikio_nic_report prints for them. Every group has rx and tx (MiB/s); kvikio_nic -m adds
 * pairs of extra fields, one pair per metric: packets (rx_packets, tx_packets, packets/s),
 * errors (rx_errors, tx_errors, errors/s), drops (rx_dropped, tx_dropped, drops/s) and util
 * (rx_util, tx_util, % of the link speed). A field name not listed here is ignored. */
#ifndef KN_RPT_FIELDS_H
#define KN_RPT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

/* The fields: rx, tx, then the rx and tx field of each metric (rx is 2 + 2 m, tx 3 + 2 m). */
enum rpt_field {
	RPT_RX,
	RPT_TX,
	RPT_RX_PACKETS,
	RPT_TX_PACKETS,
	RPT_RX_ERRORS,
	RPT_TX_ERRORS,
	RPT_RX_DROPPED,
	RPT_TX_DROPPED,
	RPT_RX_UTIL,
	RPT_TX_UTIL,
	RPT_NFIELDS
};

/* The metrics of the extra fields. Rates (packets, errors, drops) are reported as the count over
 * the covered time and its mean rate; util as its mean, median, 95th percentile and peak. */
enum rpt_metric { RPT_PACKETS, RPT_ERRORS, RPT_DROPS, RPT_UTIL, RPT_NMETRICS };

#define RPT_NEXTRA (RPT_NFIELDS - 2)              /* the extra fields */
#define RPT_METRIC_FIELD(m, tx) (2 + 2 * (m) + (tx)) /* metric m's rx (tx 0) or tx (1) field */
#define RPT_MAX_METRIC_COLUMNS 8                  /* columns one metric adds, at most */

/* The field named name, or -1 when it is not one of ours. */
int rpt_field_find(const char *name);

/* The name of field f, as written in the payload schema. */
const char *rpt_field_name(enum rpt_field f);

/* Whether metric m is a percentage (util) rather than a rate of events. */
bool rpt_metric_is_util(enum rpt_metric m);

/* The columns that metric m adds to the summary (ranges false) or to --ranges rows; *n of them. */
const char *const *rpt_metric_columns(enum rpt_metric m, bool ranges, size_t *n);

#endif
