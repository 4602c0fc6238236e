/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_sheet: rows of cells, printed as an aligned table, CSV or JSON. */
#include "config.h"

#include "rpt_sheet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rpt_cell *rpt_sheet_row(struct rpt_sheet *sh)
{
	if (sh->nrows == sh->cap) {
		size_t ncap = sh->cap ? 2 * sh->cap : 64;
		struct rpt_cell *p = realloc(sh->cells, ncap * sh->ncols * sizeof *p);
		if (p == NULL) {
			sh->oom = true;
			return NULL;
		}
		sh->cells = p;
		sh->cap = ncap;
	}
	return &sh->cells[sh->nrows++ * sh->ncols];
}

struct rpt_cell rpt_text_cell(const char *s)
{
	return (struct rpt_cell){.text = s != NULL ? s : ""};
}

struct rpt_cell rpt_num_cell(double v)
{
	return (struct rpt_cell){.num = v};
}

struct rpt_cell rpt_int_cell(uint64_t v)
{
	return (struct rpt_cell){.num = (double)v, .integer = true};
}

/* Format a cell for the format into buf: "" for no number in CSV, "null" in JSON, "-" in tables. */
static const char *cell_format(const struct rpt_cell *c, enum rpt_format format, char *buf, size_t size)
{
	if (c->text != NULL)
		return c->text;
	if (isnan(c->num))
		return format == RPT_JSON ? "null" : format == RPT_CSV ? "" : "-";
	if (c->integer)
		snprintf(buf, size, "%.0f", c->num);
	else
		snprintf(buf, size, format == RPT_TABLE ? "%.3f" : "%.15g", c->num);
	return buf;
}

/* Print text as a JSON string. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Print text as a CSV field (quoted when it holds a comma, quote or line break). */
static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Print the sheet as CSV with one header line. */
static void print_csv(FILE *f, const struct rpt_sheet *sh)
{
	char buf[64];
	for (size_t c = 0; c < sh->ncols; c++)
		fprintf(f, "%s%s", c ? "," : "", sh->columns[c]);
	fputc('\n', f);
	for (size_t r = 0; r < sh->nrows; r++) {
		for (size_t c = 0; c < sh->ncols; c++) {
			if (c)
				fputc(',', f);
			csv_field(f, cell_format(&sh->cells[r * sh->ncols + c], RPT_CSV, buf, sizeof buf));
		}
		fputc('\n', f);
	}
}

/* Print the sheet as a JSON array of objects, one per line. */
static void print_json(FILE *f, const struct rpt_sheet *sh)
{
	char buf[64];
	fputs("[", f);
	for (size_t r = 0; r < sh->nrows; r++) {
		fputs(r ? ",\n  {" : "\n  {", f);
		for (size_t c = 0; c < sh->ncols; c++) {
			const struct rpt_cell *cell = &sh->cells[r * sh->ncols + c];
			fprintf(f, "%s\"%s\": ", c ? ", " : "", sh->columns[c]);
			if (cell->text != NULL)
				json_string(f, cell->text);
			else
				fputs(cell_format(cell, RPT_JSON, buf, sizeof buf), f);
		}
		fputs("}", f);
	}
	fputs(sh->nrows ? "\n]\n" : "]\n", f);
}

/* Whether the column holds text (left-aligned in a table). */
static bool text_column(const char *name)
{
	return strcmp(name, "report") == 0 || strcmp(name, "host") == 0 || strcmp(name, "group") == 0 ||
	       strcmp(name, "range") == 0;
}

/* Print the sheet as an aligned table: text left, numbers right, two spaces apart. */
static int print_table(FILE *f, const struct rpt_sheet *sh)
{
	char buf[64];
	if (sh->nrows == 0)
		return 0; /* nothing read: no header either */
	size_t *width = calloc(sh->ncols, sizeof *width);
	if (width == NULL)
		return -1;
	for (size_t c = 0; c < sh->ncols; c++)
		width[c] = strlen(sh->columns[c]);
	for (size_t r = 0; r < sh->nrows; r++)
		for (size_t c = 0; c < sh->ncols; c++) {
			size_t w = strlen(cell_format(&sh->cells[r * sh->ncols + c], RPT_TABLE, buf, sizeof buf));
			width[c] = w > width[c] ? w : width[c];
		}
	for (size_t r = 0; r <= sh->nrows; r++) {
		for (size_t c = 0; c < sh->ncols; c++) {
			const struct rpt_cell *cell = r ? &sh->cells[(r - 1) * sh->ncols + c] : NULL;
			const char *s = cell ? cell_format(cell, RPT_TABLE, buf, sizeof buf) : sh->columns[c];
			bool left = text_column(sh->columns[c]);
			const char *sep = c + 1 < sh->ncols ? "  " : "";
			if (left)
				fprintf(f, "%-*s%s", c + 1 < sh->ncols ? (int)width[c] : 0, s, sep);
			else
				fprintf(f, "%*s%s", (int)width[c], s, sep);
		}
		fputc('\n', f);
	}
	free(width);
	return 0;
}

int rpt_sheet_print(FILE *f, const struct rpt_sheet *sh, enum rpt_format format)
{
	if (format == RPT_CSV)
		print_csv(f, sh);
	else if (format == RPT_JSON)
		print_json(f, sh);
	else
		return print_table(f, sh);
	return 0;
}
