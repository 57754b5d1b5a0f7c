/* test_html_plot.c - the plots' scales, ticks and line styles, the bands,
 * legends and small multiples. */
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

/* What f wrote, as a string (free it): open_memstream sets *buf at fclose. */
static char *drawn(FILE *f, char **buf)
{
	fclose(f);
	return *buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static void test_bands(void **state)
{
	struct plot_point a[3] = {{4096, 1, 0.9, 1.2}, {65536, 4, 3.5, 4.5}, {1 << 20, 10, 8, 13}};
	/* no band (0, 0), and a p5 at 0 that a log axis cannot hold */
	struct plot_point b[2] = {{4096, 2, 0, 0}, {65536, 200, 0, 260}};
	struct plot_series s[2];
	struct plot_lines pl = {.title = "t",
				.x_title = "x",
				.y_title = "y",
				.xs = PLOT_LOG2,
				.ys = PLOT_LOG10,
				.x_fmt = PLOT_T_SIZE,
				.s = s,
				.n = 2};
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f;

	name(&s[0], "k=a");
	name(&s[1], "k=b");
	s[0].pt = a;
	s[0].n = 3;
	s[1].pt = b;
	s[1].n = 2;
	plot_styles(s, 2);
	f = open_memstream(&buf, &len);
	assert_int_equal(plot_lines(f, &pl), 1);
	out = drawn(f, &buf);
	assert_int_equal(count(out, "<polyline class=\"ln\""), 2);
	/* a's band; b's one point with a band is a whisker, cut at the axis */
	assert_int_equal(count(out, "<polygon class=\"spread\""), 1);
	assert_int_equal(count(out, "<line class=\"spread\""), 1);
	assert_non_null(strstr(out, ">p5-p95 of the samples</text>"));
	assert_int_equal(count(out, "class=\"key\""), 3); /* two lines and the band */
	assert_null(strstr(out, "nan"));
	assert_non_null(strstr(out, "(log scale; one line per label set, the median with its "
				    "p5-p95 band)"));
	free(out);
}

static void test_panels(void **state)
{
	struct plot_point pt[4][2] = {{{1, 10, 0, 0}, {2, 20, 0, 0}},
				      {{1, 11, 0, 0}, {2, 21, 0, 0}},
				      {{1, 30, 0, 0}, {2, 60, 0, 0}},
				      {{1, 31, 0, 0}, {2, 61, 0, 0}}};
	static const char *const names[] = {"kernel=read,pages=4k", "kernel=read,pages=thp",
					    "kernel=copy,pages=4k", "kernel=copy,pages=thp"};
	struct plot_series s[4];
	struct plot_lines pl = {.title = "bw against threads",
				.x_title = "threads",
				.y_title = "bw",
				.xs = PLOT_LOG2,
				.ys = PLOT_LOG10,
				.x_fmt = PLOT_T_VALUE,
				.s = s,
				.n = 4};
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f;

	for (size_t i = 0; i < 4; i++) {
		name(&s[i], names[i]);
		s[i].pt = pt[i];
		s[i].n = 2;
	}
	plot_styles(s, 4);
	f = open_memstream(&buf, &len);
	assert_int_equal(plot_panels(f, &pl, "kernel", 1), 1);
	out = drawn(f, &buf);
	assert_int_equal(count(out, "<svg "), 2);
	assert_non_null(strstr(out, ">kernel=read</text>"));
	assert_non_null(strstr(out, ">kernel=copy</text>"));
	/* the legends name pages only, in the same colours in both panels */
	assert_int_equal(count(out, ">pages=4k</text>"), 2);
	assert_null(strstr(out, "class=\"key\" x=\"0\">kernel"));
	assert_int_equal(count(out, "stroke=\"#0072b2\" stroke-width=\"1.8\""), 2);
	assert_int_equal(count(out, "stroke=\"#d55e00\" stroke-width=\"1.8\""), 2);
	/* one scale: both panels' y axes end at the largest value's tick */
	assert_int_equal(count(out, ">80</text>"), 2); /* 0..80 for 10..61 */
	free(out);
	/* a series without the label: no panels */
	name(&s[3], "pages=thp");
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(plot_panels(f, &pl, "kernel", 1), 0);
	free(drawn(f, &buf));
}

static void test_legend(void **state)
{
	struct plot_key k[] = {{KEY_LINE, "a rather long series name here", 0, 0, NULL},
			       {KEY_LINE, "another rather long series name", 1, 0, NULL},
			       {KEY_SPREAD, "p5-p95 of the samples", 7, 0, NULL},
			       {KEY_DOT, "WIN", 0, 0, "v-win"},
			       {KEY_BAND, "practical threshold", 0, 0, "band"}};
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f;

	/* rows: it wraps where the next entry would not fit */
	assert_int_equal(plot_legend(NULL, 0, 0, 2000, k, 5), 1);
	assert_int_equal(plot_legend(NULL, 0, 0, 300, k, 5), 4);
	f = open_memstream(&buf, &len);
	assert_int_equal(plot_legend(f, 0, 20, 2000, k, 5), 1);
	out = drawn(f, &buf);
	assert_int_equal(count(out, "class=\"key\""), 5);
	assert_non_null(strstr(out, "<circle class=\"lg v-win\""));
	assert_non_null(strstr(out, "<rect class=\"band lg\""));
	assert_non_null(strstr(out, "<rect class=\"spread lg\""));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wants_log), cmocka_unit_test(test_axes),
		cmocka_unit_test(test_styles),	  cmocka_unit_test(test_bands),
		cmocka_unit_test(test_panels),	  cmocka_unit_test(test_legend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
