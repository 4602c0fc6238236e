/* SPDX-License-Identifier: Apache-2.0 */
/* csv: the --print output, one line per group per tick. */
#include "config.h"

#include "csv.h"

/* Write the header line; 0, or -1 with errno set on a write error. */
int csv_header(FILE *f)
{
	return fputs(CSV_HEADER, f) < 0 ? -1 : 0;
}

/* Write one line; rate NULL means no value (empty rx and tx fields). 0 or -1. */
int csv_row(FILE *f, double time_s, double interval_s, const char *group, const struct rate *rate)
{
	int n = rate != NULL
			? fprintf(f, "%.9f,%.9f,%s,%.17g,%.17g\n", time_s, interval_s, group, rate->rx, rate->tx)
			: fprintf(f, "%.9f,%.9f,%s,,\n", time_s, interval_s, group);
	return n < 0 ? -1 : 0;
}

/* Flush f; 0, or -1 with errno set (EPIPE when the reader went away). */
int csv_flush(FILE *f)
{
	return (fflush(f) != 0 || ferror(f)) ? -1 : 0;
}
