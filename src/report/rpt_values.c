/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_values: a list of doubles that grows in fixed blocks. */
#include "config.h"

#include "rpt_values.h"
#include "rpt_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rpt_values_push(struct rpt_values *vs, double v)
{
	size_t at = vs->n % RPT_VALUES_BLOCK;
	if (at == 0) {
		if (vs->nblocks == vs->cap) {
			size_t ncap = vs->cap ? 2 * vs->cap : 16;
			double **p = realloc(vs->blocks, ncap * sizeof *p);
			if (p == NULL)
				return -1;
			vs->blocks = p;
			vs->cap = ncap;
		}
		if ((vs->blocks[vs->nblocks] = malloc(RPT_VALUES_BLOCK * sizeof(double))) == NULL)
			return -1;
		vs->nblocks++;
	}
	vs->blocks[vs->nblocks - 1][at] = v;
	vs->n++;
	return 0;
}

double *rpt_values_take(struct rpt_values *vs, size_t *n)
{
	*n = vs->n;
	double *all = vs->n ? malloc(vs->n * sizeof *all) : NULL;
	for (size_t b = 0; all != NULL && b < vs->nblocks; b++) {
		size_t k = b + 1 < vs->nblocks ? RPT_VALUES_BLOCK : vs->n - b * RPT_VALUES_BLOCK;
		memcpy(all + b * RPT_VALUES_BLOCK, vs->blocks[b], k * sizeof *all);
		free(vs->blocks[b]);
		vs->blocks[b] = NULL;
	}
	if (all == NULL)
		*n = 0;
	rpt_values_free(vs);
	return all;
}

int rpt_values_spread(struct rpt_values *vs, double *p50, double *p95, double *max)
{
	*p50 = *p95 = *max = NAN;
	size_t want = vs->n, n;
	double *values = rpt_values_take(vs, &n);
	if (want > 0 && values == NULL)
		return -1;
	if (n > 0) {
		*max = rpt_percentile(values, n, 100);
		*p95 = rpt_percentile(values, n, 95);
		*p50 = rpt_percentile(values, n, 50);
	}
	free(values);
	return 0;
}

void rpt_values_free(struct rpt_values *vs)
{
	for (size_t b = 0; b < vs->nblocks; b++)
		free(vs->blocks[b]);
	free(vs->blocks);
	*vs = (struct rpt_values){0};
}
