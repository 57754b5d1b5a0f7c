/* robust.c - median, MAD, modified z and the outlier rule (robust.h). */
#include "verdict/robust.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blocked.h"
#include "base/stats.h"
#include "base/util.h"

/* 0.6745 is the 75th percentile of the standard normal: it makes a MAD
 * comparable to a standard deviation, so 3.5 means what it does for z. */
#define MAD_Z	  0.6745
#define MEANAD_SD 1.253314 /* sqrt(pi / 2): mean absolute deviation to sd */

void robust_center(const double *x, size_t n, double *median, double *mad)
{
	double *d = xmalloc((n ? n : 1) * sizeof(double));
	*median = stats_median(x, n);
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - *median);
	*mad = stats_median(d, n);
	free(d);
}

void robust_z(const double *x, size_t n, double *z, double *median, double *mad)
{
	double meanad = 0;
	robust_center(x, n, median, mad);
	if (*mad > 0) {
		for (size_t i = 0; i < n; i++)
			z[i] = MAD_Z * (x[i] - *median) / *mad;
		return;
	}
	for (size_t i = 0; i < n; i++)
		meanad += fabs(x[i] - *median);
	meanad = n ? meanad / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		z[i] = meanad > 0 ? (x[i] - *median) / (MEANAD_SD * meanad) : 0;
}

int robust_outlier(double x, double z, double median, enum better better, double z_max,
		   double threshold)
{
	double rel;
	if (better == BETTER_NONE || !isfinite(x) || !isfinite(z))
		return 0;
	if (better == BETTER_HIGHER ? z >= -z_max : z <= z_max)
		return 0;
	rel = median != 0 ? fabs(x / median - 1) : (x != 0 ? INFINITY : 0);
	return rel > threshold;
}

double robust_loo_t(const double *x, size_t k, size_t i)
{
	double mean = 0, ss = 0, sd;
	for (size_t j = 0; j < k; j++)
		mean += j != i ? x[j] : 0;
	mean /= (double)(k - 1);
	for (size_t j = 0; j < k; j++)
		ss += j != i ? (x[j] - mean) * (x[j] - mean) : 0;
	sd = sqrt(ss / (double)(k - 2));
	if (!(sd > 0))
		return x[i] == mean ? 0 : x[i] > mean ? INFINITY : -INFINITY;
	return (x[i] - mean) / (sd * sqrt(1 + 1 / (double)(k - 1)));
}

double robust_t_cut(double alpha, size_t n_tests, size_t k)
{
	return stats_t_quantile(1 - alpha / (double)(n_tests ? n_tests : 1), (unsigned)(k - 2));
}

int robust_within_own(double x, double median, double half_width)
{
	return isfinite(half_width) && fabs(x - median) <= half_width;
}
