/* stats.h - pure statistics over samples: no I/O, no allocation visible to callers.
 *
 * Percentiles use linear interpolation between closest ranks (R type 7, numpy's
 * default), so p50 equals the usual median. CoV is stddev/mean with the sample
 * (n-1) standard deviation; 0 for fewer than two samples.
 */
#ifndef MEMPATH_STATS_H
#define MEMPATH_STATS_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double median, min, max, p5, p95, mean, stddev, cov;
};

/* Sorts x ascending in place (a radix sort: O(n), where qsort took most of a
 * comparison's time on millions of samples). */
void stats_sort(double *x, size_t n);
/* Percentile p in [0,100] of an ascending-sorted array of n > 0 values. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);
/* Summary of n samples (not modified). n == 0 gives all-zero with n = 0. */
void stats_summarize(const double *x, size_t n, struct summary *out);
double stats_median(const double *x, size_t n);
/* Whether a summary of n > 0 samples holds a statistic past a double's range
 * (inf or nan: samples near 1e308 whose sum or spread overflows, or a sample
 * that is itself inf or nan). Such a statistic is shown as "-" with
 * STATS_OVERFLOW_WHY and never judged (docs/design.md §5.16). */
int stats_summary_overflows(const struct summary *s);
#define STATS_OVERFLOW_WHY "past a double's range (samples near 1e308)"
/* Median of n > 0 integers (v is sorted in place); the middle two averaged,
 * rounded toward zero, when n is even. */
int64_t stats_median_i64(int64_t *v, size_t n);

/* ---- comparison statistics (used by compare.c) ---- */

struct rng;

/* Two-sided Mann-Whitney U test of x against y.
 * Returns U of x: the number of pairs (x_i, y_j) with x_i > y_j, ties counting
 * one half (scipy.stats.mannwhitneyu's statistic for x). *p_out gets the
 * two-sided p-value, by the same choice as scipy's method="auto": the exact
 * distribution when either side has at most 8 samples and there are no ties,
 * else the normal approximation with tie correction and continuity
 * correction. (Exact is also skipped when the count of arrangements would
 * not be exact in a double, which needs hundreds of samples on one side.)
 * An empty side or all-equal samples give p = 1. */
double stats_mann_whitney_u(const double *x, size_t nx, const double *y, size_t ny, double *p_out);

/* Percentile-bootstrap confidence interval of median(b) / median(a):
 * `iters` resamples of each side with replacement, `level` (0.95) central
 * interval of the ratios (type-7 percentiles). Deterministic for a given rng
 * state. Returns 0, or -1 (lo = hi = 0) when a side is empty or a resampled
 * median of a is <= 0 (the ratio is then undefined). */
int stats_bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
			     double level, struct rng *r, double *lo, double *hi);

/* Holm-Bonferroni step-down adjusted p-values: adj[i] for p[i], monotone in
 * the order of p, capped at 1. "Significant at alpha" is adj[i] < alpha. */
void stats_holm(const double *p, size_t n, double *adj);

#endif
