/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_output: the rows of kvikio_nic_report (printed by rpt_sheet) as a table, CSV or JSON.
 * Summary columns: report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,rx_p50,rx_p95,
 * rx_max,tx_mean,tx_p50,tx_p95,tx_max. Ranges columns: report,host,range,count,seconds,group,
 * rx_MiB,tx_MiB,rx_mean,tx_mean. Then, per extra metric (rpt_fields.h) that some group of the
 * inputs has, in the order packets, errors, drops, util, the columns of rpt_metric_columns()
 * (empty cells for a group without it). --sum rows have report "(sum)" and an empty host. */
#ifndef KN_RPT_OUTPUT_H
#define KN_RPT_OUTPUT_H

#include "rpt_analyze.h"
#include "rpt_options.h"

#include <stdbool.h>
#include <stdio.h>

#define RPT_SUM_REPORT "(sum)"

/* The reports to print: name as given, result, and whether it was read (failed ones are left out). */
struct rpt_input {
	const char *name;
	struct rpt_result res;
	bool ok;
};

/* Print the summary (or, with ranges, the per-range rows) of n inputs to f; -1 when out of memory. */
int rpt_output_print(FILE *f, enum rpt_format format, bool ranges, bool sum,
		     const struct rpt_input *in, size_t n);

#endif
