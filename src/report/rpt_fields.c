/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_fields: the payload fields kvikio_nic writes, and their columns. */
#include "config.h"

#include "rpt_fields.h"

#include <string.h>

static const char *const names[RPT_NFIELDS] = {"rx", "tx", "rx_packets", "tx_packets",
	"rx_errors", "tx_errors", "rx_dropped", "tx_dropped", "rx_util", "tx_util"};

/* Summary columns per metric: the counts, then the mean rates; util: its four figures. */
static const char *const summary_columns[RPT_NMETRICS][RPT_MAX_METRIC_COLUMNS] = {
	{"rx_packets", "tx_packets", "rx_packets_mean", "tx_packets_mean"},
	{"rx_errors", "tx_errors", "rx_errors_mean", "tx_errors_mean"},
	{"rx_dropped", "tx_dropped", "rx_dropped_mean", "tx_dropped_mean"},
	{"rx_util_mean", "rx_util_p50", "rx_util_p95", "rx_util_max", "tx_util_mean", "tx_util_p50",
	 "tx_util_p95", "tx_util_max"},
};

/* --ranges columns per metric: the counts and mean rates; util: its mean. */
static const char *const range_columns[RPT_NMETRICS][RPT_MAX_METRIC_COLUMNS] = {
	{"rx_packets", "tx_packets", "rx_packets_mean", "tx_packets_mean"},
	{"rx_errors", "tx_errors", "rx_errors_mean", "tx_errors_mean"},
	{"rx_dropped", "tx_dropped", "rx_dropped_mean", "tx_dropped_mean"},
	{"rx_util_mean", "tx_util_mean"},
};

int rpt_field_find(const char *name)
{
	for (int f = 0; f < RPT_NFIELDS; f++)
		if (strcmp(names[f], name) == 0)
			return f;
	return -1;
}

const char *rpt_field_name(enum rpt_field f)
{
	return names[f];
}

bool rpt_metric_is_util(enum rpt_metric m)
{
	return m == RPT_UTIL;
}

const char *const *rpt_metric_columns(enum rpt_metric m, bool ranges, size_t *n)
{
	*n = rpt_metric_is_util(m) ? (ranges ? 2 : 8) : 4;
	return ranges ? range_columns[m] : summary_columns[m];
}
