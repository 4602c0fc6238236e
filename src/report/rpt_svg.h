/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_svg: a self-contained SVG picture of the reports: per report one panel with rx and tx of
 * every group over time (seconds since the session start, MiB/s), ticks, a legend, and the
 * selected NVTX ranges shaded and labelled. Each curve is one <path class="curve"> with
 * data-group and data-field; a curve is the mean rate per time bucket (RPT_BUCKETS per panel)
 * and breaks where a bucket holds only samples without a value. */
#ifndef KN_RPT_SVG_H
#define KN_RPT_SVG_H

#include "rpt_db.h"
#include "rpt_output.h"

#include <stdio.h>

/* Write the picture of the n inputs (failed ones left out) to f. */
void rpt_svg_print(FILE *f, const struct rpt_input *in, size_t n);

/* Write it to the file path; -1 with the reason in err. */
int rpt_svg_write(const char *path, const struct rpt_input *in, size_t n, char err[RPT_ERR_MAX]);

#endif
