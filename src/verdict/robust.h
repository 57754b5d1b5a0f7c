/* robust.h - outliers among peers (docs/design.md §5.9): the median and the
 * median absolute deviation (MAD) of one metric over the nodes of a group,
 * each node's modified z = 0.6745 (x - median) / MAD, and the decision. Pure:
 * no I/O, nothing kept.
 *
 * A zero MAD (more than half the nodes read the same value) cannot scale a
 * z; then the mean absolute deviation, times 1.253314 (the ratio of the two
 * for a normal distribution), stands in. When that is zero too every value
 * is the median and no node is an outlier of another.
 */
#ifndef MEMPATH_VERDICT_ROBUST_H
#define MEMPATH_VERDICT_ROBUST_H

#include <stddef.h>

#include "results/results.h"

/* Median and MAD of x[0..n) (x is not modified; n > 0). */
void robust_center(const double *x, size_t n, double *median, double *mad);
/* z[i] for every x[i]; median and MAD as robust_center gives them. */
void robust_z(const double *x, size_t n, double *z, double *median, double *mad);
/* Is x, with modified z, an outlier in the worse direction of `better`
 * (|z| > z_max) and beyond the practical threshold (|x / median - 1| >
 * threshold)? A metric with no better direction never is. */
int robust_outlier(double x, double z, double median, enum better better, double z_max,
		   double threshold);

/* Node i's leave-one-out t against the others of x[0..k) (k >= 3):
 * (x_i - mean of the others) / (their sd * sqrt(1 + 1 / (k - 1))), Student
 * t with k - 2 degrees of freedom when the k are one normal distribution;
 * +-INFINITY when the others read the same and x_i does not, 0 when all do.
 * The modified z of five nodes is far from normal (its MAD rests on two
 * deviations): |z| > 3.5 one-sided came in 2.5% of null tests, not 0.023%
 * (tests/unit/test_fleet.c), so the family-wise level is held on this t. */
double robust_loo_t(const double *x, size_t k, size_t i);
/* The one-sided cut on that t for one of n_tests tests at family-wise
 * rate alpha (Bonferroni): the 1 - alpha / n_tests quantile of t(k - 2). */
double robust_t_cut(double alpha, size_t n_tests, size_t k);
/* Does a node's distance from the group median (x - median) lie within
 * its own samples' spread, their p5-p95 half-width (half_width, in the
 * metric's unit)? Such a node is not flagged: its own samples reach the
 * group. */
int robust_within_own(double x, double median, double half_width);

#endif
