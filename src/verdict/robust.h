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

#endif
