/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_values: a list of doubles that grows in fixed blocks (no copy, no slack beyond one block),
 * turned into one array at the end, block by block, so that memory peaks at the values plus
 * one list's array. */
#ifndef KN_RPT_VALUES_H
#define KN_RPT_VALUES_H

#include <stddef.h>

#define RPT_VALUES_BLOCK 65536 /* doubles per block (512 KiB) */

/* The list: blocks of RPT_VALUES_BLOCK values, n in all. */
struct rpt_values {
	double **blocks;
	size_t nblocks, cap, n;
};

/* Append v; -1 when out of memory. */
int rpt_values_push(struct rpt_values *vs, double v);

/* Move the values into one malloc'ed array (NULL when out of memory or empty; *n their count);
 * the list is empty afterwards. */
double *rpt_values_take(struct rpt_values *vs, size_t *n);

/* The median, 95th percentile and peak of the values (NaN when there are none), emptying the
 * list; -1 when out of memory. */
int rpt_values_spread(struct rpt_values *vs, double *p50, double *p95, double *max);

/* Free the list. */
void rpt_values_free(struct rpt_values *vs);

#endif
