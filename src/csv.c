/* SPDX-License-Identifier: Apache-2.0 */
/* csv: the --print output, one line per group per tick. */
#include "config.h"

#include "csv.h"

#include <math.h>
#include <string.h>

int csv_header(FILE *f, const struct metric_set *set)
{
	if (fputs("time_s,interval_s,interface", f) < 0)
		return -1;
	for (size_t i = 0; i < set->nfields; i++)
		if (fprintf(f, ",%s", metric_field_column(set->fields[i])) < 0)
			return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

/* Write a text field, quoted as RFC 4180 says when it holds a comma or a quote (the kernel
 * allows both in interface names); 0 or -1. */
static int write_field(FILE *f, const char *text)
{
	if (strpbrk(text, ",\"") == NULL)
		return fputs(text, f) < 0 ? -1 : 0;
	if (fputc('"', f) == EOF)
		return -1;
	for (const char *p = text; *p != '\0'; p++)
		if ((*p == '"' && fputc('"', f) == EOF) || fputc(*p, f) == EOF)
			return -1;
	return fputc('"', f) == EOF ? -1 : 0;
}

int csv_row(FILE *f, double time_s, double interval_s, const char *group, const struct rate *rate,
	    const struct metric_set *set)
{
	if (fprintf(f, "%.9f,%.9f,", time_s, interval_s) < 0 || write_field(f, group) != 0)
		return -1;
	for (size_t i = 0; i < set->nfields; i++) {
		double v = rate != NULL ? rate->field[set->fields[i]] : NAN;
		int n = isnan(v) ? fputc(',', f) : fprintf(f, ",%.17g", v);
		if (n < 0)
			return -1;
	}
	return fputc('\n', f) == EOF ? -1 : 0;
}

int csv_flush(FILE *f)
{
	return (fflush(f) != 0 || ferror(f)) ? -1 : 0;
}
