/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_options: kvikio_nic_report's command line, validated, or a one-line error. */
#ifndef KN_RPT_OPTIONS_H
#define KN_RPT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RPT_JOBS_MAX 64

enum rpt_format { RPT_TABLE, RPT_CSV, RPT_JSON };

/* What the command line asks for. */
struct rpt_options {
	bool ranges;           /* --ranges */
	const char *regex;     /* --ranges=REGEX (NULL: every range) */
	enum rpt_format format;
	bool sum;              /* --sum */
	unsigned jobs;         /* -j */
	const char *svg;       /* --svg=FILE */
	const char *nsys;      /* --nsys=PATH */
	bool help, version;
	char **reports;        /* the operands */
	size_t nreports;
};

/* Parse argv; 0, or -1 with a one-line reason in err (exit status 2). */
int rpt_options_parse(int argc, char **argv, struct rpt_options *opts, char *err, size_t errsize);

/* Write --help to f. */
void rpt_options_help(FILE *f);

#endif
