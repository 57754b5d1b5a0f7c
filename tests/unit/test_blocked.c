/* test_blocked.c - the statistics of rounds (base/blocked.h) against values
 * computed independently with scipy 1.10.1 by tools/ref-blocked.py: van
 * Elteren's test exact (full enumeration of each stratum's arrangements) and
 * normal (scipy.stats.rankdata), Student t quantiles (scipy.stats.t.ppf), the
 * t interval of log ratios, and the order-statistic CI of a median
 * (scipy.stats.binom); plus the property rounds exist for: a shift that
 * moves both sides of one round does not move the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "base/blocked.h"
#include "base/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* One stratum is the Mann-Whitney U test of stats.h (scipy's mannwhitneyu). */
static void test_one_stratum(void **state)
{
	const double a1[] = {1.1, 2.2, 3.3, 4.4}, b1[] = {5.5, 6.6, 7.7, 8.8, 9.9};
	const double a2[] = {1, 2, 2, 3, 4}, b2[] = {2, 3, 3, 5, 6, 7};
	const double a3[] = {10.1, 10.4, 9.8, 10.9, 11.2, 10.0, 10.3, 9.7, 10.6, 10.8};
	const double b3[] = {11.0, 11.5, 10.9, 12.1, 11.8, 11.3, 10.7, 12.4, 11.9, 11.1, 11.6};
	struct stratum s1 = {a1, b1, N(a1), N(b1)}, s2 = {a2, b2, N(a2), N(b2)};
	struct stratum s3 = {a3, b3, N(a3), N(b3)};
	double p, pm, z;
	z = stats_van_elteren(&s1, 1, &p);
	assert_float_equal(p, 0.015873015873015872, 1e-12);
	assert_true(z > 0);
	stats_van_elteren(&s2, 1, &p);
	assert_float_equal(p, 0.11390314458853068, 1e-12);
	stats_van_elteren(&s3, 1, &p);
	stats_mann_whitney_u(a3, N(a3), b3, N(b3), &pm);
	assert_float_equal(p, pm, 1e-12);
}

/* Three rounds of 4 + 4 without ties: exact, by enumeration p = 0.0351836...;
 * z = 2.1666... */
static void test_exact_strata(void **state)
{
	const double a1[] = {10.1, 10.4, 9.8, 10.9}, b1[] = {10.6, 11.2, 10.3, 11.5};
	const double a2[] = {20.3, 19.7, 20.9, 20.1}, b2[] = {21.4, 20.5, 21.0, 19.9};
	const double a3[] = {15.2, 15.9, 14.8, 15.5}, b3[] = {15.1, 16.3, 16.0, 15.7};
	struct stratum s[] = {{a1, b1, 4, 4}, {a2, b2, 4, 4}, {a3, b3, 4, 4}};
	double p, z = stats_van_elteren(s, 3, &p);
	assert_float_equal(p, 0.035183673469387756, 1e-12);
	assert_float_equal(z, 2.166666666666667, 1e-12);
	/* B against A is A against B mirrored */
	struct stratum r[] = {{b1, a1, 4, 4}, {b2, a2, 4, 4}, {b3, a3, 4, 4}};
	double pr, zr = stats_van_elteren(r, 3, &pr);
	assert_float_equal(pr, p, 1e-12);
	assert_float_equal(zr, -z, 1e-12);
}

/* Normal approximation: ties, strata of different sizes (no continuity
 * correction) and of equal sizes (half a step). */
static void test_normal_strata(void **state)
{
	const double a1[] = {5, 6, 6, 7, 8}, b1[] = {6, 7, 8, 8, 9, 10};
	const double a2[] = {50, 52, 51, 53}, b2[] = {52, 54, 55};
	const double a3[] = {105, 101, 103, 102, 104, 100, 106}, b3[] = {103, 107, 108, 105, 109};
	const double c1[] = {3, 4, 4, 5, 6}, d1[] = {5, 6, 6, 7, 8};
	const double c2[] = {30, 31, 33, 33, 34}, d2[] = {32, 33, 35, 36, 36};
	struct stratum s[] = {
		{a1, b1, N(a1), N(b1)}, {a2, b2, N(a2), N(b2)}, {a3, b3, N(a3), N(b3)}};
	struct stratum e[] = {{c1, d1, 5, 5}, {c2, d2, 5, 5}};
	double p, z = stats_van_elteren(s, 3, &p);
	assert_float_equal(z, 3.1357269242588997, 1e-12);
	assert_float_equal(p, 0.0017142874584205442, 1e-12);
	z = stats_van_elteren(e, 2, &p);
	assert_float_equal(z, 2.629111200639706, 1e-12);
	assert_float_equal(p, 0.01064951718510552, 1e-12);
}

/* What rounds are for: a round measured while the machine ran 100 slower on
 * both sides moves neither z nor p; pooled, the same samples do not show
 * at 0.05 the effect B has in every round. And the empty and flat cases. */
static void test_round_shift_cancels(void **state)
{
	double a1[] = {10.0, 10.2, 10.1, 10.3, 9.9}, b1[] = {10.5, 10.7, 10.6, 10.8, 10.4};
	double a2[5], b2[5], pooled_a[10], pooled_b[10], p, p_shift, pm;
	const double same[] = {4, 4, 4};
	struct stratum s[2] = {{a1, b1, 5, 5}, {a2, b2, 5, 5}}, flat = {same, same, 3, 3};
	double z, z_shift;
	for (int i = 0; i < 5; i++) {
		a2[i] = a1[i] + 0.05;
		b2[i] = b1[i] + 0.05;
	}
	z = stats_van_elteren(s, 2, &p);
	for (int i = 0; i < 5; i++) {
		a2[i] += 100;
		b2[i] += 100;
	}
	z_shift = stats_van_elteren(s, 2, &p_shift);
	assert_float_equal(z, z_shift, 1e-12);
	assert_float_equal(p, p_shift, 1e-12);
	assert_true(p < 0.01);
	for (int i = 0; i < 5; i++) {
		pooled_a[i] = a1[i], pooled_a[5 + i] = a2[i];
		pooled_b[i] = b1[i], pooled_b[5 + i] = b2[i];
	}
	stats_mann_whitney_u(pooled_b, 10, pooled_a, 10, &pm);
	assert_true(pm > 0.05); /* pooled: U = 75 of 100, p = 0.064 */
	assert_float_equal(stats_van_elteren(s, 0, &p), 0, 0);
	assert_float_equal(p, 1, 0);
	assert_float_equal(stats_van_elteren(&flat, 1, &p), 0, 0);
	assert_float_equal(p, 1, 0);
}

static void test_t_quantile(void **state)
{
	assert_float_equal(stats_t_quantile(0.975, 1), 12.706204736432095, 1e-8);
	assert_float_equal(stats_t_quantile(0.975, 2), 4.302652729911275, 1e-8);
	assert_float_equal(stats_t_quantile(0.975, 4), 2.7764451051977987, 1e-8);
	assert_float_equal(stats_t_quantile(0.975, 9), 2.2621571627409915, 1e-8);
	assert_float_equal(stats_t_quantile(0.975, 29), 2.045229642132703, 1e-8);
	assert_float_equal(stats_t_quantile(0.995, 5), 4.032142983557536, 1e-8);
	assert_float_equal(stats_t_quantile(0.9, 3), 1.637744357215907, 1e-8);
	assert_float_equal(stats_t_quantile(0.025, 4), -2.7764451051977987, 1e-8);
	assert_float_equal(stats_t_quantile(0.5, 7), 0, 0);
}

/* scipy.stats.t.sf(|t|, df) * 2 and scipy.stats.ttest_1samp(log r, 0). */
static void test_t_p(void **state)
{
	const double r[] = {1.21, 1.18, 1.25, 1.19}, same[] = {2, 2, 2}, one[] = {1, 1};
	assert_float_equal(stats_t_p2(3.3, 5), 0.021475500299997976, 1e-9);
	assert_float_equal(stats_t_p2(0.5, 3), 0.651447964848151, 1e-9);
	assert_float_equal(stats_t_p2(12.0, 1), 0.05292935211917974, 1e-9);
	assert_float_equal(stats_t_p2(2.0, 29), 0.05494363718296719, 1e-9);
	assert_float_equal(stats_t_p2(-2.5, 4), 0.06676654481198813, 1e-9);
	assert_float_equal(stats_ratio_t_p(r, 4), 0.0006701856198963668, 1e-9);
	assert_float_equal(stats_ratio_t_p(same, 3), 0, 0);
	assert_float_equal(stats_ratio_t_p(one, 2), 1, 0);
	assert_true(isnan(stats_ratio_t_p(r, 1)));
}

static void test_ratio_ci(void **state)
{
	const double r[] = {1.21, 1.18, 1.25, 1.19}, bad[] = {1.1, 0};
	double est, lo, hi;
	assert_int_equal(stats_ratio_t_ci(r, 4, 0.95, &est, &lo, &hi), 0);
	assert_float_equal(est, 1.207205173659193, 1e-9);
	assert_float_equal(lo, 1.1592776874238917, 1e-9);
	assert_float_equal(hi, 1.2571141039969334, 1e-9);
	assert_int_equal(stats_ratio_t_ci(r, 1, 0.95, &est, &lo, &hi), -1);
	assert_float_equal(est, 1.21, 0);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(stats_ratio_t_ci(bad, 2, 0.95, &est, &lo, &hi), -1);
	assert_true(isnan(est));
}

/* The lower bound is the k-th smallest (1-based) with k from scipy's
 * binomial: n = 6: 1; 10: 2; 11: 2; 40: 14; 1000: 469; n = 5: none. */
static void test_median_ci(void **state)
{
	static const size_t ns[] = {6, 10, 11, 40, 1000}, ks[] = {1, 2, 2, 14, 469};
	double *x = malloc(1000 * sizeof(*x)), lo, hi;
	for (size_t t = 0; t < N(ns); t++) {
		size_t n = ns[t];
		/* values 1..n, shuffled: x_(k) = k */
		for (size_t i = 0; i < n; i++)
			x[i] = (double)((i * 7919) % n + 1);
		assert_int_equal(stats_median_ci(x, n, 0.95, &lo, &hi), 0);
		assert_float_equal(lo, (double)ks[t], 0);
		assert_float_equal(hi, (double)(n + 1 - ks[t]), 0);
	}
	assert_int_equal(stats_median_ci(x, 5, 0.95, &lo, &hi), -1);
	assert_true(isnan(lo));
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_stratum),   cmocka_unit_test(test_exact_strata),
		cmocka_unit_test(test_normal_strata), cmocka_unit_test(test_round_shift_cancels),
		cmocka_unit_test(test_t_quantile),    cmocka_unit_test(test_t_p),
		cmocka_unit_test(test_ratio_ci),      cmocka_unit_test(test_median_ci),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
