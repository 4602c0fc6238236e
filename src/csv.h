/* SPDX-License-Identifier: Apache-2.0 */
/* csv: the --print output, one line per group per tick. */
#ifndef KN_CSV_H
#define KN_CSV_H

#include "metric.h"
#include "rate.h"

#include <stdio.h>

#define CSV_HEADER "time_s,interval_s,interface,rx_MiB_s,tx_MiB_s\n" /* without -m */

/* Write the header line: CSV_HEADER, with a column per field of set after rx and tx (each
 * field's metric_field_column()); 0, or -1 with errno set on a write error. */
int csv_header(FILE *f, const struct metric_set *set);

/* Write one line of set's fields of rate; rate NULL means no value (every field empty), as is a
 * NaN field. 0 or -1. */
int csv_row(FILE *f, double time_s, double interval_s, const char *group, const struct rate *rate,
	    const struct metric_set *set);

/* Flush f; 0, or -1 with errno set (EPIPE when the reader went away). */
int csv_flush(FILE *f);

#endif
