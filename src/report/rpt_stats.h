/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_stats: the pure statistics of kvikio_nic_report (percentiles, medians, sample values).
 * Definitions (also in kvikio_nic_report(1), which scripts and the nsys recipe copy):
 *  - percentile p of n values: sort them, x[0] <= ... <= x[n-1]; h = (n-1)*p/100;
 *    x[floor(h)] + (h - floor(h)) * (x[floor(h)+1] - x[floor(h)]) (linear interpolation between
 *    the closest ranks: numpy's default method, R's type 7); the median is percentile 50;
 *  - a sample has a value when both rx and tx are present (not SQL NULL), finite and not
 *    subnormal (nsys 2025.3.1 exports nvtxCounterSampleNoValue as rx = 9.9e-324, tx = 0). */
#ifndef KN_RPT_STATS_H
#define KN_RPT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sort values (n of them) ascending in place. */
void rpt_sort_doubles(double *values, size_t n);

/* Percentile p (0..100) of n sorted values, linear interpolation; NaN when n is 0. */
double rpt_percentile_sorted(const double *sorted, size_t n, double p);

/* Put the k-th smallest (from 0) of n values at values[k]: smaller ones before, larger after. */
void rpt_select_doubles(double *values, size_t n, size_t k);

/* Percentile p (0..100) of n values in any order (reordered), linear interpolation; NaN if n is 0. */
double rpt_percentile(double *values, size_t n, double p);

/* Median of n int64 values (reordered), linear interpolation; 0 when n is 0. */
double rpt_median_int64(int64_t *values, size_t n);

/* Whether a sample field read from the export is a real value (present, finite, not subnormal). */
bool rpt_field_valid(bool present, double value);

#endif
