/* test_writers.c - the writer table: a row for every format, names found
 * both ways, the choices a set of documents gives, and which formats escape
 * before their writers see a file's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "report/report.h"

static void test_rows(void **state)
{
	for (int f = REPORT_TERM; f <= REPORT_OPENMETRICS; f++) {
		const struct report_writer *w = report_writer_of((enum report_format)f);

		assert_int_equal(w->fmt, f);
		assert_ptr_equal(report_writer_find(w->name), w);
		assert_non_null(w->run); /* every format writes a results file */
	}
	assert_int_equal(report_writers_len, REPORT_OPENMETRICS + 1);
	assert_null(report_writer_find("xml"));
	assert_null(report_writer_find(NULL));
	/* the text formats escape a copy first; the others as they write */
	assert_non_null(report_writer_of(REPORT_TERM)->escapes);
	assert_non_null(report_writer_of(REPORT_MD)->escapes);
	assert_null(report_writer_of(REPORT_HTML)->escapes);
}

static void test_names(void **state)
{
	assert_string_equal(report_format_names(REPORT_DOC_RUN, "|"),
			    "term|md|json|csv|html|openmetrics");
	assert_string_equal(report_format_names(REPORT_DOC_HISTORY, " or "), "term or csv");
	assert_string_equal(report_format_names(REPORT_DOC_DOCTOR, "|"), "term|md|json");
	assert_string_equal(report_format_names(REPORT_DOC_FINDINGS, "|"), "md|html");
	assert_string_equal(report_format_names(REPORT_DOC_HISTORY | REPORT_DOC_FINDINGS, ","),
			    "term,md,csv,html");
	/* asked again: the same list */
	assert_string_equal(report_format_names(REPORT_DOC_HISTORY, "|"), "term|csv");
	assert_string_equal(report_format_names(REPORT_DOC_HISTORY, " or "), "term or csv");
	assert_string_equal(report_format_names(0, "|"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_rows),
					   cmocka_unit_test(test_names)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
