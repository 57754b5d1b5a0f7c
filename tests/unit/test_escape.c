/* test_escape.c - the one escaping rule for bytes from outside
 * (base/escape.c, util_escape_controls) and each text format's rule on top
 * of it (report/format.c): controls, bidi controls and bytes that are not
 * UTF-8 shown as text, valid UTF-8 kept, Markdown's markup and '|' escaped,
 * escaping twice the same as once; numbers that overflowed shown as "-". */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"
#include "report/format.h"

static void test_rule(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"plain text", "plain text"},
		{"\033[2Jx", "\\x1b[2Jx"},
		{"a\nb\tc\rd\x7f", "a\\nb\\tc\\x0dd\\x7f"},
		{"\xc2\x9b"
		 "31m",
		 "\\u009b31m"},			 /* C1 CSI in UTF-8 */
		{"l\xe2\x80\xaer", "l\\u202er"}, /* RIGHT-TO-LEFT OVERRIDE */
		{"\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
		 "\\u202a\\u202b\\u202c\\u202d"},
		{"\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069"},	  /* isolates */
		{"\xe2\x80\x8f\xd8\x9c", "\\u200f\\u061c"},		  /* RLM, ALM */
		{"caf\xc3\xa9 5 \xc2\xb5s \xe2\x86\x92 \xf0\x9f\x98\x80", /* UTF-8 kept */
		 "caf\xc3\xa9 5 \xc2\xb5s \xe2\x86\x92 \xf0\x9f\x98\x80"},
		{"\xff\xfe bin", "\\xff\\xfe bin"}, /* not UTF-8 */
		{"\x9b"
		 "2J",
		 "\\x9b2J"},			     /* a lone C1 byte */
		{"\xc3", "\\xc3"},		     /* cut short */
		{"\xc0\xaf", "\\xc0\\xaf"},	     /* overlong '/' */
		{"\xed\xa0\x80", "\\xed\\xa0\\x80"}, /* a surrogate */
		{"\xe2\x80", "\\xe2\\x80"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = util_escape_controls(cases[i].in), *again = util_escape_controls(got);

		assert_string_equal(got, cases[i].want);
		assert_string_equal(again, got); /* its output is plain ASCII or UTF-8 */
		free(again);
		free(got);
	}
}

static void test_into(void **state)
{
	char buf[8];
	/* stops before a character that would not fit, always terminated */
	assert_int_equal(escape_into(buf, sizeof(buf), "\033\033\033"), 4);
	assert_string_equal(buf, "\\x1b");
	assert_int_equal(escape_into(buf, sizeof(buf), ""), 0);
	assert_string_equal(buf, "");
}

static char *through(void (*put)(FILE *, const char *), const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	put(f, s);
	fclose(f);
	return out;
}

static void test_formats(void **state)
{
	const char *hostile = "\033[2J|a\xe2\x80\xae<script>x</script>[l](http://e)\nb";
	char *md = through(report_md_cell, hostile), *html = through(report_html_text, hostile),
	     *csv = through(report_csv_field, hostile), *md2;

	assert_string_equal(md, "\\x1b[2J\\|a\\u202e&lt;script>x&lt;/script>[l]\\(http://e)\\nb");
	assert_string_equal(html, "\\x1b[2J|a\\u202e&lt;script&gt;x&lt;/script&gt;[l](http://"
				  "e)\\nb");
	assert_string_equal(csv, "\\x1b[2J|a\\u202e<script>x</script>[l](http://e)\\nb");
	/* a writer that escaped first (report_escape_json) and then writes a
	 * cell: the same as once */
	md2 = report_md_escape(hostile);
	free(md);
	md = through(report_md_cell, md2);
	assert_string_equal(md, "\\x1b[2J\\|a\\u202e&lt;script>x&lt;/script>[l]\\(http://e)\\nb");
	free(md2);
	free(md);
	free(html);
	free(csv);
	/* a formula stays text */
	csv = through(report_csv_field, "=1+1");
	assert_string_equal(csv, "\"'=1+1\"");
	free(csv);
}

static void test_numbers(void **state)
{
	char buf[64];
	static const struct {
		double v;
		const char *want;
	} values[] = {{0, "0"},	       {1.5, "1.5"},	 {123456, "123456"}, {1.7e308, "1.7e+308"},
		      {INFINITY, "-"}, {-INFINITY, "-"}, {NAN, "-"}};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		report_fmt_value(values[i].v, buf, sizeof(buf));
		assert_string_equal(buf, values[i].want);
	}
	report_fmt_seconds(12.34, buf, sizeof(buf));
	assert_string_equal(buf, "12.3 s");
	report_fmt_seconds(1e308, buf, sizeof(buf)); /* never 310 digits */
	assert_string_equal(buf, "- s: past a plausible wall time");
	report_fmt_seconds(INFINITY, buf, sizeof(buf));
	assert_string_equal(buf, "- s: not a duration");
	report_fmt_seconds(-1, buf, sizeof(buf));
	assert_string_equal(buf, "- s: not a duration");
	report_fmt_seconds(NAN, buf, sizeof(buf));
	assert_string_equal(buf, "- s: not a duration");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_into),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
