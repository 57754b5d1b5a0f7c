/* blocked.h - statistics of a blocked comparison and of a median's precision:
 * pure, no I/O (docs/design.md §5.10, §4.14).
 *
 * A blocked comparison holds samples of A and of B taken in rounds (strata),
 * each round one A leg and one B leg measured close together, so that what
 * moves between rounds (a load that comes and goes, a baseline that drifts)
 * moves both sides of a round and cancels: ranks are taken within a round,
 * and the ratio of B to A is taken per round before the rounds are combined.
 */
#ifndef MEMPATH_BLOCKED_H
#define MEMPATH_BLOCKED_H

#include <stddef.h>

struct stratum {
	const double *a, *b;
	size_t na, nb;
};

/* van Elteren's stratified Wilcoxon rank-sum test of B against A. Within each
 * stratum, B's rank sum among that stratum's samples (mid-ranks for ties)
 * minus its mean under no difference, weighted 1/(n_i + 1) (n_i the
 * stratum's sample count), summed over the strata. Returns z, the sum over
 * its standard deviation (> 0: B tends larger). *p_out gets the two-sided
 * p-value: exact (the strata's exact rank-sum distributions convolved) when
 * every stratum has the same sizes, no stratum has ties and a side of a
 * stratum has at most 8 samples; else the normal approximation with the tie
 * correction, and a continuity correction of half a step when the strata
 * have the same sizes. One stratum gives what stats_mann_whitney_u() gives.
 * A stratum with an empty side is left out; none left, or no variation in
 * any: z = 0, p = 1. */
double stats_van_elteren(const struct stratum *s, size_t n, double *p_out);

/* Quantile q (0 < q < 1) of Student's t distribution with df degrees of
 * freedom (df >= 1), from its CDF through the regularised incomplete beta
 * function, inverted by bisection (|error| < 1e-9). */
double stats_t_quantile(double q, unsigned df);

/* Two-sided p-value of Student's t statistic t with df degrees of freedom
 * (an infinite t gives 0, a NAN one 1). */
double stats_t_p2(double t, unsigned df);

/* The ratios r_i = B_i / A_i of n rounds combined: the geometric mean in
 * *est and the `level` (0.95) Student-t interval of the mean log ratio,
 * exponentiated, in *lo and *hi. 0, or -1 when n < 2 or a ratio is not
 * positive (then *est, *lo, *hi are NAN, *est the ratio when n == 1). */
int stats_ratio_t_ci(const double *ratio, size_t n, double level, double *est, double *lo,
		     double *hi);
/* The one-sample t test of the rounds' log ratios against 0 (rounds as the
 * unit: what the t interval above rests on); the two-sided p, or NAN when
 * n < 2 or a ratio is not positive. */
double stats_ratio_t_p(const double *ratio, size_t n);

/* Distribution-free CI of a median: the order statistics x_(k) and
 * x_(n+1-k) (1-based) with the largest k such that P(Bin(n, 1/2) < k) <=
 * (1 - level) / 2, so the interval covers the median with probability >=
 * level. 0, or -1 (lo = hi = NAN) when n is too small for any such k (at
 * level 0.95, n < 6). */
int stats_median_ci(const double *x, size_t n, double level, double *lo, double *hi);

#endif
