/* test_html_plot.c - the plots' scales, ticks and line styles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_plot.h"

static void test_wants_log(void **state)
{
	assert_true(plot_wants_log(1.1, 313));	/* L1 to DRAM */
	assert_true(plot_wants_log(2.26, 749)); /* the THP zero-page read */
	assert_false(plot_wants_log(2, 40));	/* exactly 20x: not more */
	assert_false(plot_wants_log(0, 100));	/* zero: no log scale */
	assert_false(plot_wants_log(-1, 100));
	assert_false(plot_wants_log(1, INFINITY));
}

static void test_axes(void **state)
{
	struct plot_axis a;

	/* sizes: powers of two around the data */
	assert_int_equal(plot_axis_make(&a, PLOT_LOG2, PLOT_T_SIZE, 4096, 3 << 20, 0, 100), 0);
	assert_true(a.lo == 4096 && a.hi == 4 << 20);
	assert_true(fabs(plot_pos(&a, 64 << 10) - 40) < 1e-9); /* 4 of 10 doublings */
	/* decades */
	assert_int_equal(plot_axis_make(&a, PLOT_LOG10, PLOT_T_VALUE, 1.1, 313, 300, 0), 0);
	assert_true(a.lo == 1 && a.hi == 1000);
	assert_true(fabs(plot_pos(&a, 10) - 200) < 1e-9); /* upwards: p0 is the bottom */
	/* clamped, and never a NaN coordinate */
	assert_true(plot_pos(&a, 1e9) == 0 && plot_pos(&a, 0.001) == 300);
	assert_true(plot_pos(&a, NAN) == 300 && plot_pos(&a, -5) == 300);
	/* a log scale needs positive values; empty and absurd ranges fail */
	assert_int_equal(plot_axis_make(&a, PLOT_LOG10, PLOT_T_VALUE, 0, 10, 0, 1), -1);
	assert_int_equal(plot_axis_make(&a, PLOT_LINEAR, PLOT_T_VALUE, 5, 1, 0, 1), -1);
	assert_int_equal(plot_axis_make(&a, PLOT_LINEAR, PLOT_T_VALUE, 0, INFINITY, 0, 1), -1);
	/* linear from a nice number to a nice number */
	assert_int_equal(plot_axis_make(&a, PLOT_LINEAR, PLOT_T_VALUE, 0, 48.4, 0, 1), 0);
	assert_true(a.lo == 0 && a.hi == 50 && a.step == 10);
	/* one value: an axis of some width all the same */
	assert_int_equal(plot_axis_make(&a, PLOT_LINEAR, PLOT_T_VALUE, 7, 7, 0, 1), 0);
	assert_true(a.hi > a.lo);
}

static void name(struct plot_series *s, const char *n)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", n);
}

static void test_styles(void **state)
{
	struct plot_series s[4];

	/* cpu.latency: a colour per page size, a dash per order */
	name(&s[0], "pages=4k,order=random");
	name(&s[1], "pages=4k,order=local");
	name(&s[2], "pages=thp,order=random");
	name(&s[3], "pages=thp,order=local");
	plot_styles(s, 4);
	assert_int_equal(s[0].colour, s[1].colour);
	assert_int_equal(s[2].colour, s[3].colour);
	assert_int_not_equal(s[0].colour, s[2].colour);
	assert_int_equal(s[0].dash, s[2].dash);
	assert_int_equal(s[1].dash, s[3].dash);
	assert_int_not_equal(s[0].dash, s[1].dash);
	/* one label that varies: a colour each, solid */
	name(&s[0], "order=random");
	name(&s[1], "order=local");
	plot_styles(s, 2);
	assert_int_not_equal(s[0].colour, s[1].colour);
	assert_int_equal(s[0].dash, 0);
	assert_int_equal(s[1].dash, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wants_log),
		cmocka_unit_test(test_axes),
		cmocka_unit_test(test_styles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
