/* stats.h - pure statistics over samples: no I/O, no allocation visible to callers.
 *
 * Percentiles use linear interpolation between closest ranks (R type 7, numpy's
 * default), so p50 equals the usual median. CoV is stddev/mean with the sample
 * (n-1) standard deviation; 0 for fewer than two samples.
 */
#ifndef MEMPATH_STATS_H
#define MEMPATH_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double median, min, max, p5, p95, mean, stddev, cov;
};

/* Percentile p in [0,100] of an ascending-sorted array of n > 0 values. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);
/* Summary of n samples (not modified). n == 0 gives all-zero with n = 0. */
void stats_summarize(const double *x, size_t n, struct summary *out);
double stats_median(const double *x, size_t n);

#endif
