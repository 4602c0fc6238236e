/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_sheet: the rows of kvikio_nic_report, kept until printed (a table needs every width), as
 * an aligned table (text left, numbers right, three decimals, "-" for none), CSV (15 significant
 * digits, empty for none, quoted where needed) or JSON (an array of objects, null for none). */
#ifndef KN_RPT_SHEET_H
#define KN_RPT_SHEET_H

#include "rpt_options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RPT_SHEET_MAX_COLUMNS 64

/* One cell: text, or a number (NaN: none) printed per format. */
struct rpt_cell {
	const char *text; /* NULL for a number */
	double num;
	bool integer;
};

/* All rows: ncols cells each, named by columns. */
struct rpt_sheet {
	const char *columns[RPT_SHEET_MAX_COLUMNS];
	size_t ncols, nrows, cap;
	struct rpt_cell *cells; /* nrows * ncols */
	bool oom;
};

/* A new row of ncols cells, or NULL when out of memory (then sh->oom). */
struct rpt_cell *rpt_sheet_row(struct rpt_sheet *sh);

/* A text cell (NULL: empty). */
struct rpt_cell rpt_text_cell(const char *s);

/* A number cell (NaN: none). */
struct rpt_cell rpt_num_cell(double v);

/* A count cell. */
struct rpt_cell rpt_int_cell(uint64_t v);

/* Print the sheet to f in format; -1 when out of memory. */
int rpt_sheet_print(FILE *f, const struct rpt_sheet *sh, enum rpt_format format);

#endif
