/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_stats: the pure statistics of kvikio_nic_report (percentiles, medians, sample values). */
#include "config.h"

#include "rpt_stats.h"

#include <math.h>
#include <stdlib.h>

/* qsort order of two doubles (no NaN ever reaches it). */
static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* qsort order of two int64 values. */
static int compare_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void rpt_sort_doubles(double *values, size_t n)
{
	if (n > 1)
		qsort(values, n, sizeof *values, compare_doubles);
}

double rpt_percentile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

double rpt_median_int64(int64_t *values, size_t n)
{
	if (n == 0)
		return 0.0;
	qsort(values, n, sizeof *values, compare_int64);
	if (n % 2 == 1)
		return (double)values[n / 2];
	return ((double)values[n / 2 - 1] + (double)values[n / 2]) / 2.0;
}

bool rpt_field_valid(bool present, double value)
{
	return present && isfinite(value) && fpclassify(value) != FP_SUBNORMAL;
}
