/* test_html.c - the HTML writer (report/html.c): the one escaping function on
 * every character that could open markup, and a page built from samples no
 * fixture has (no samples at all, values whose spread overflows a double)
 * that must still print no "nan" or "inf" where a number goes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"

static char *capture_text(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	report_html_text(f, s);
	fclose(f);
	return buf;
}

static void test_escape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&#39;f"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"&amp;", "&amp;amp;"}, /* already-escaped text is text, escaped again */
		{"plain 1.5 GiB/s \xc2\xb5s", "plain 1.5 GiB/s \xc2\xb5s"},
		{"", ""},
		{NULL, ""},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = capture_text(cases[i].in);

		assert_string_equal(got, cases[i].out);
		free(got);
	}
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* A non-finite number printed as an attribute value or as a whole text. */
static int has_nonfinite(const char *page)
{
	static const char *const bad[] = {"\"nan", "\"-nan", "\"inf", "\"-inf",
					  ">nan",  ">-nan",  ">inf",  ">-inf"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(page, bad[i]))
			return 1;
	return 0;
}

static void add(struct probe_result *p, const char *name, const char *k, const char *v,
		const double *x, size_t n)
{
	struct metric *m = probe_add_metric(p, name, UNIT_GB_S, BETTER_HIGHER, NULL, k, v, NULL);

	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, x[i]);
}

static void test_nonfinite(void **state)
{
	static const double huge[] = {-1.7e308, 1.7e308}, big[] = {1e308, 1.5e308}, one[] = {2.5};
	struct run *r = run_new();
	struct probe_result *p = run_add_probe(r, "x.probe");
	struct metric *m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	add(p, "bw", "k", "a", huge, 2); /* p5 and p95 overflow */
	add(p, "bw", "k", "b", big, 2);
	add(p, "lat", "k", "a", NULL, 0); /* no samples */
	add(p, "lat", "k", "b", one, 1);
	m = probe_add_metric(p, "cell", UNIT_GB_S, BETTER_HIGHER, NULL, "src", "0", "dst", "1",
			     NULL);
	metric_add_sample(m, 1.7e308);
	m = probe_add_metric(p, "cell", UNIT_GB_S, BETTER_HIGHER, NULL, "src", "1", "dst", "0",
			     NULL);
	metric_add_sample(m, -1.7e308);
	assert_int_equal(report_html(r, f), 0);
	fclose(f);
	assert_false(has_nonfinite(buf));
	assert_int_equal(count(buf, "<svg "), count(buf, "</svg>"));
	/* the chart of lat still draws, its empty row says so */
	assert_non_null(strstr(buf, "<title>lat</title>"));
	assert_non_null(strstr(buf, ">no samples</text>"));
	/* the empty metric's numbers are "-", not zeros */
	assert_non_null(strstr(buf, "<td>lat</td><td>k=a</td><td class=\"n\">-</td>"));
	assert_non_null(strstr(buf, "<tr><th>0</th><td class=\"n\">-</td>"));
	assert_string_equal(buf + len - 8, "</html>\n");
	free(buf);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_nonfinite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
