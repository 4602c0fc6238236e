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

/* The median of v[lo], v[mid], v[hi]. */
static double median_of_three(const double *v, size_t lo, size_t mid, size_t hi)
{
	double a = v[lo], b = v[mid], c = v[hi];
	if (a < b)
		return b < c ? b : (a < c ? c : a);
	return a < c ? a : (b < c ? c : b);
}

/* Hoare partition of v[lo..hi] around pivot: the last index of the part <= pivot. */
static size_t partition(double *v, size_t lo, size_t hi, double pivot)
{
	size_t i = lo, j = hi;
	for (;;) {
		while (v[i] < pivot)
			i++;
		while (pivot < v[j])
			j--;
		if (i >= j)
			return j;
		double tmp = v[i];
		v[i++] = v[j];
		v[j--] = tmp;
	}
}

void rpt_select_doubles(double *values, size_t n, size_t k)
{
	size_t lo = 0, hi = n ? n - 1 : 0, rounds = 0;
	while (hi > lo) {
		if (++rounds > 64) { /* shrinking too slowly (a hostile order): sort what is left */
			rpt_sort_doubles(values + lo, hi - lo + 1);
			return;
		}
		size_t j = partition(values, lo, hi, median_of_three(values, lo, lo + (hi - lo) / 2, hi));
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
}

/* The smallest of v[0..n) (n > 0). */
static double min_double(const double *v, size_t n)
{
	double m = v[0];
	for (size_t i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

double rpt_percentile(double *values, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1) {
		rpt_select_doubles(values, n, n - 1);
		return values[n - 1];
	}
	rpt_select_doubles(values, n, lo);
	double next = min_double(values + lo + 1, n - lo - 1); /* everything after lo is >= it */
	return values[lo] + (h - (double)lo) * (next - values[lo]);
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
