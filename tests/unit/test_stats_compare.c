/* test_stats_compare.c - the statistics behind `compare`: Mann-Whitney U
 * against scipy.stats.mannwhitneyu(x, y, alternative="two-sided") (scipy
 * 1.10.1, method "auto": exact for a side of <= 8 without ties, else normal
 * approximation with tie and continuity correction), Holm-Bonferroni worked
 * by hand, and the bootstrap's behaviour with a fixed seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "base/stats.h"
#include "base/util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check_mwu(const double *x, size_t nx, const double *y, size_t ny, double want_u,
		      double want_p)
{
	double p, u = stats_mann_whitney_u(x, nx, y, ny, &p);
	assert_float_equal(u, want_u, 1e-9);
	assert_float_equal(p, want_p, 1e-9);
}

/* Exact distribution (no ties, a side <= 8). */
static void test_mwu_exact(void **state)
{
	const double x1[] = {1.1, 2.2, 3.3, 4.4}, y1[] = {5.5, 6.6, 7.7, 8.8, 9.9};
	const double x2[] = {19, 22, 16, 29, 24}, y2[] = {20, 11, 17, 12};
	const double x3[] = {3.1, 4.5, 2.2, 5.9, 6.0, 1.7, 8.8, 7.3};
	const double y3[] = {9.1, 10.5, 2.9, 11.0, 12.2, 6.6, 13.4, 14.0};
	/* complete separation: p = 2 / C(9,4) = 2/126 */
	check_mwu(x1, N(x1), y1, N(y1), 0.0, 0.015873015873015872);
	check_mwu(y1, N(y1), x1, N(x1), 20.0, 0.015873015873015872);
	check_mwu(x2, N(x2), y2, N(y2), 17.0, 0.1111111111111111);
	check_mwu(x3, N(x3), y3, N(y3), 8.0, 0.010411810411810413);
}

/* Normal approximation: ties, or both sides > 8. */
static void test_mwu_asymptotic(void **state)
{
	const double x1[] = {1, 2, 2, 3, 4}, y1[] = {2, 3, 3, 5, 6, 7};
	const double x2[] = {10.1, 10.4, 9.8, 10.9, 11.2, 10.0, 10.3, 9.7, 10.6, 10.8};
	const double y2[] = {11.0, 11.5, 10.9, 12.1, 11.8, 11.3,
			     10.7, 12.4, 11.9, 11.1, 11.6, 12.0};
	const double x3[] = {5, 5, 6, 7, 7, 7, 8, 9, 9, 10},
		     y3[] = {6, 7, 8, 8, 9, 10, 10, 11, 11, 12};
	check_mwu(x1, N(x1), y1, N(y1), 6.0, 0.11390314458853068);
	check_mwu(x2, N(x2), y2, N(y2), 6.5, 0.00047281362700376487);
	check_mwu(x3, N(x3), y3, N(y3), 23.0, 0.043144487695422146);
}

static void test_mwu_degenerate(void **state)
{
	const double same[] = {3, 3, 3, 3, 3, 3};
	double p;
	check_mwu(same, N(same), same, N(same), 18.0, 1.0); /* no evidence either way */
	stats_mann_whitney_u(same, 0, same, 6, &p);
	assert_float_equal(p, 1.0, 0);
}

/* p = [0.01, 0.04, 0.03, 0.005]: sorted 0.005*4 = 0.02, 0.01*3 = 0.03,
 * 0.03*2 = 0.06, 0.04*1 = 0.04 -> max(0.06, 0.04) = 0.06 (step-down). */
static void test_holm(void **state)
{
	const double p[] = {0.01, 0.04, 0.03, 0.005}, big[] = {0.5, 0.9};
	double adj[4];
	stats_holm(p, 4, adj);
	assert_float_equal(adj[0], 0.03, 1e-12);
	assert_float_equal(adj[1], 0.06, 1e-12);
	assert_float_equal(adj[2], 0.06, 1e-12);
	assert_float_equal(adj[3], 0.02, 1e-12);
	stats_holm(big, 2, adj); /* capped at 1 */
	assert_float_equal(adj[0], 1.0, 0);
	assert_float_equal(adj[1], 1.0, 0);
	stats_holm(p, 1, adj); /* one test: unchanged */
	assert_float_equal(adj[0], 0.01, 0);
}

static void test_bootstrap(void **state)
{
	const double a[] = {100, 101, 99, 102, 98, 100.5, 99.5, 101.5};
	const double b[] = {110, 111, 109, 112, 108, 110.5, 109.5, 111.5};
	const double two[] = {2, 2, 2, 2, 2, 2}, three[] = {3, 3, 3, 3, 3, 3};
	const double zero[] = {0, 0, 0, 1, 2, 0};
	struct rng r1, r2;
	double lo, hi, lo2, hi2, lo50, hi50;
	rng_seed(&r1, 42);
	rng_seed(&r2, 42);
	assert_int_equal(stats_bootstrap_ratio_ci(a, N(a), b, N(b), 2000, 0.95, &r1, &lo, &hi), 0);
	assert_int_equal(stats_bootstrap_ratio_ci(a, N(a), b, N(b), 2000, 0.95, &r2, &lo2, &hi2),
			 0);
	assert_float_equal(lo, lo2, 0); /* same seed, same interval */
	assert_float_equal(hi, hi2, 0);
	/* The point ratio 110.25/100.25 lies inside; the interval stays in the
	 * range the data allow (108/102 .. 112/98). */
	assert_true(lo < 110.25 / 100.25 && hi > 110.25 / 100.25);
	assert_true(lo >= 108.0 / 102.0 && hi <= 112.0 / 98.0);
	rng_seed(&r1, 42);
	stats_bootstrap_ratio_ci(a, N(a), b, N(b), 2000, 0.50, &r1, &lo50, &hi50);
	assert_true(lo50 >= lo && hi50 <= hi && hi50 - lo50 < hi - lo);
	/* Constant samples: the interval is the point. */
	stats_bootstrap_ratio_ci(two, N(two), three, N(three), 500, 0.95, &r1, &lo, &hi);
	assert_float_equal(lo, 1.5, 0);
	assert_float_equal(hi, 1.5, 0);
	/* A median of 0 in the baseline: the ratio is undefined. */
	assert_int_equal(stats_bootstrap_ratio_ci(zero, N(zero), b, N(b), 500, 0.95, &r1, &lo, &hi),
			 -1);
	assert_int_equal(stats_bootstrap_ratio_ci(a, 0, b, N(b), 500, 0.95, &r1, &lo, &hi), -1);
}

/* Random splits of one sample set: under the null the p-values must be
 * calibrated, about alpha of them below alpha (the exact permutation
 * distribution is what the U test assumes). */
static void test_mwu_calibrated(void **state)
{
	double pool[20], x[10], y[10];
	struct rng r;
	int below = 0;
	rng_seed(&r, 7);
	for (int i = 0; i < 20; i++)
		pool[i] = 100.0 + (double)(rng_next(&r) % 1000) / 100.0;
	for (int it = 0; it < 400; it++) {
		double p;
		for (int i = 19; i > 0; i--) { /* Fisher-Yates */
			int j = (int)rng_below(&r, (uint64_t)i + 1);
			double t = pool[i];
			pool[i] = pool[j];
			pool[j] = t;
		}
		for (int i = 0; i < 10; i++) {
			x[i] = pool[i];
			y[i] = pool[10 + i];
		}
		stats_mann_whitney_u(x, 10, y, 10, &p);
		below += p < 0.05;
	}
	/* 400 * 0.05 = 20 expected; binomial sd 4.4 */
	assert_in_range(below, 5, 35);
}

/* Normal samples (Box-Muller on the project's rng). */
static void normal_fill(double *x, size_t n, double mu, double sd, struct rng *r)
{
	for (size_t i = 0; i < n; i++) {
		double u1 = ((double)(rng_next(r) >> 11) + 1) * 0x1.0p-53;
		double u2 = (double)(rng_next(r) >> 11) * 0x1.0p-53;
		x[i] = mu + sd * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Past 5,000 samples a side the bootstrap draws each median from its order
 * statistics instead of resampling. Checked against references computed
 * here: the literal percentile bootstrap at n = 6000, and at n = 200,000
 * the normal theory of a median (standard error 1.2533 sd / sqrt(n)), the CI
 * of the ratio being about +-1.96 sqrt(2) of that relative error. */
static void test_bootstrap_large(void **state)
{
	enum { N = 6000, ITERS = 2000, BIG = 200000 };
	double *a = malloc(BIG * sizeof(double)), *b = malloc(BIG * sizeof(double));
	double *res = malloc(N * sizeof(double)), ratios[ITERS], lo, hi, rlo, rhi, half, want;
	struct rng r, g;
	rng_seed(&g, 7);
	normal_fill(a, N, 100, 5, &g);
	normal_fill(b, N, 101, 5, &g);
	rng_seed(&r, 11);
	assert_int_equal(stats_bootstrap_ratio_ci(a, N, b, N, ITERS, 0.95, &r, &lo, &hi), 0);
	for (int i = 0; i < ITERS; i++) { /* the literal bootstrap */
		double m[2];
		for (int side = 0; side < 2; side++) {
			const double *x = side ? b : a;
			for (int k = 0; k < N; k++)
				res[k] = x[rng_below(&g, N)];
			qsort(res, N, sizeof(double), cmp_d);
			m[side] = 0.5 * (res[N / 2 - 1] + res[N / 2]);
		}
		ratios[i] = m[1] / m[0];
	}
	qsort(ratios, ITERS, sizeof(double), cmp_d);
	rlo = stats_percentile_sorted(ratios, ITERS, 2.5);
	rhi = stats_percentile_sorted(ratios, ITERS, 97.5);
	half = (rhi - rlo) / 2;
	print_message("n=%d: order statistics [%.5f, %.5f], literal [%.5f, %.5f]\n", N, lo, hi, rlo,
		      rhi);
	assert_true(fabs(lo - rlo) < 0.25 * half && fabs(hi - rhi) < 0.25 * half);

	normal_fill(a, BIG, 100, 5, &g);
	normal_fill(b, BIG, 101, 5, &g);
	assert_int_equal(stats_bootstrap_ratio_ci(a, BIG, b, BIG, ITERS, 0.95, &r, &lo, &hi), 0);
	want = 1.96 * sqrt(2.0) * 1.2533 * 5 / sqrt((double)BIG) / 100;
	print_message("n=%d: half-width %.3g, normal theory %.3g\n", BIG, (hi - lo) / 2, want);
	assert_true((hi - lo) / 2 > 0.8 * want && (hi - lo) / 2 < 1.2 * want);
	assert_true(lo < 1.01 + 2 * want && hi > 1.01 - 2 * want);
	free(a);
	free(b);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_exact),      cmocka_unit_test(test_mwu_asymptotic),
		cmocka_unit_test(test_mwu_degenerate), cmocka_unit_test(test_holm),
		cmocka_unit_test(test_bootstrap),      cmocka_unit_test(test_bootstrap_large),
		cmocka_unit_test(test_mwu_calibrated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
