/* SPDX-License-Identifier: Apache-2.0 */
/* csv: the --print output, one line per group per tick. */
#ifndef KN_CSV_H
#define KN_CSV_H

#include "rate.h"

#include <stdio.h>

#define CSV_HEADER "time_s,interval_s,interface,rx_MiB_s,tx_MiB_s\n"

/* Write the header line; 0, or -1 with errno set on a write error. */
int csv_header(FILE *f);

/* Write one line; rate NULL means no value (empty rx and tx fields). 0 or -1. */
int csv_row(FILE *f, double time_s, double interval_s, const char *group, const struct rate *rate);

/* Flush f; 0, or -1 with errno set (EPIPE when the reader went away). */
int csv_flush(FILE *f);

#endif
