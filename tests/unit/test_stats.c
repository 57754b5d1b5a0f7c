/* test_stats.c - percentiles (type 7), median, CoV, edge sizes. Reference
 * values are numpy.percentile's defaults, worked by hand in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "base/stats.h"

#define EPS 1e-12

static void test_four_values(void **state)
{
	const double x[] = {4, 1, 3, 2};
	struct summary s;
	stats_summarize(x, 4, &s);
	assert_int_equal(s.n, 4);
	assert_float_equal(s.median, 2.5, EPS);
	assert_float_equal(s.p5, 1.15, EPS);  /* h = 3 * 0.05 = 0.15 -> 1 + 0.15 */
	assert_float_equal(s.p95, 3.85, EPS); /* h = 2.85 -> 3 + 0.85 */
	assert_float_equal(s.min, 1, EPS);
	assert_float_equal(s.max, 4, EPS);
	assert_float_equal(s.mean, 2.5, EPS);
	/* sample stddev: sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3) = sqrt(5/3) */
	assert_float_equal(s.stddev, 1.2909944487358056, 1e-12);
	assert_float_equal(s.cov, 1.2909944487358056 / 2.5, 1e-12);
}

static void test_percentile_sorted(void **state)
{
	const double a[] = {10, 20, 30, 40, 50};
	assert_float_equal(stats_percentile_sorted(a, 5, 0), 10, EPS);
	assert_float_equal(stats_percentile_sorted(a, 5, 5), 12, EPS);	/* h = 0.2 */
	assert_float_equal(stats_percentile_sorted(a, 5, 25), 20, EPS); /* h = 1 */
	assert_float_equal(stats_percentile_sorted(a, 5, 50), 30, EPS);
	assert_float_equal(stats_percentile_sorted(a, 5, 90), 46, EPS); /* h = 3.6 */
	assert_float_equal(stats_percentile_sorted(a, 5, 95), 48, EPS); /* h = 3.8 */
	assert_float_equal(stats_percentile_sorted(a, 5, 100), 50, EPS);
	assert_float_equal(stats_percentile_sorted(a, 5, 150), 50, EPS);
	assert_float_equal(stats_percentile_sorted(a, 5, -1), 10, EPS);
}

static void test_median_odd_and_even(void **state)
{
	const double odd[] = {7, 1, 5};
	const double even[] = {8, 2, 6, 100, 4, 0};
	assert_float_equal(stats_median(odd, 3), 5, EPS);
	assert_float_equal(stats_median(even, 6), 5, EPS); /* (4 + 6) / 2 */
}

static void test_cov(void **state)
{
	const double same[] = {3, 3, 3, 3};
	const double neg[] = {-1, -2, -3};
	const double zero_mean[] = {-1, 1};
	struct summary s;
	stats_summarize(same, 4, &s);
	assert_float_equal(s.cov, 0, EPS);
	assert_float_equal(s.stddev, 0, EPS);
	stats_summarize(neg, 3, &s); /* mean -2, sd 1: CoV is relative to |mean| */
	assert_float_equal(s.stddev, 1, EPS);
	assert_float_equal(s.cov, 0.5, EPS);
	stats_summarize(zero_mean, 2, &s); /* undefined: reported as 0, not inf */
	assert_float_equal(s.cov, 0, EPS);
}

static void test_empty(void **state)
{
	struct summary s;
	memset(&s, 0x5a, sizeof(s));
	stats_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_float_equal(s.median, 0, EPS);
	assert_float_equal(s.min, 0, EPS);
	assert_float_equal(s.max, 0, EPS);
	assert_float_equal(s.p95, 0, EPS);
	assert_float_equal(s.cov, 0, EPS);
	assert_float_equal(stats_median(NULL, 0), 0, EPS);
	assert_float_equal(stats_percentile_sorted(NULL, 0, 50), 0, EPS);
}

static void test_single(void **state)
{
	const double x[] = {42.5};
	struct summary s;
	stats_summarize(x, 1, &s);
	assert_int_equal(s.n, 1);
	assert_float_equal(s.median, 42.5, EPS);
	assert_float_equal(s.min, 42.5, EPS);
	assert_float_equal(s.max, 42.5, EPS);
	assert_float_equal(s.p5, 42.5, EPS);
	assert_float_equal(s.p95, 42.5, EPS);
	assert_float_equal(s.mean, 42.5, EPS);
	assert_float_equal(s.stddev, 0, EPS);
	assert_float_equal(s.cov, 0, EPS);
}

static void test_input_not_modified(void **state)
{
	double x[] = {9, 3, 7, 1, 8, 2};
	double copy[6];
	struct summary s;
	memcpy(copy, x, sizeof(x));
	stats_summarize(x, 6, &s);
	assert_memory_equal(x, copy, sizeof(x));
	assert_float_equal(stats_median(x, 6), 5, EPS); /* (3 + 7) / 2 */
	assert_memory_equal(x, copy, sizeof(x));
	assert_float_equal(s.min, 1, EPS);
	assert_float_equal(s.max, 9, EPS);
}

/* samples near 1e308: the median of two of opposite sign is theirs (0),
 * not the overflow of their gap; a mean or spread that overflows is said */
static void test_overflow(void **state)
{
	const double big[] = {-1.7e308, 1.7e308}, huge[] = {1.7e308, 1.7e308, 1.6e308},
		     fine[] = {1, 2, 3}, odd[] = {1, INFINITY};
	struct summary s;
	stats_summarize(big, 2, &s);
	assert_float_equal(s.median, 0, EPS);
	assert_true(stats_summary_overflows(&s)); /* their spread */
	stats_summarize(huge, 3, &s);
	assert_float_equal(s.median, 1.7e308, 1e294);
	assert_true(stats_summary_overflows(&s)); /* their sum */
	stats_summarize(fine, 3, &s);
	assert_false(stats_summary_overflows(&s));
	stats_summarize(odd, 2, &s);
	assert_true(stats_summary_overflows(&s));
	stats_summarize(fine, 0, &s);
	assert_false(stats_summary_overflows(&s)); /* no sample: absent, not overflowed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_values),
		cmocka_unit_test(test_percentile_sorted),
		cmocka_unit_test(test_median_odd_and_even),
		cmocka_unit_test(test_cov),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_input_not_modified),
		cmocka_unit_test(test_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
