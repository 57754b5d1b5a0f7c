/* test_writers.c - the writer table, iterated (a new format needs no edit
 * here): each row its format's, names found both ways, the choices a set of
 * documents gives as its columns say, and which formats escape before their
 * writers see a file's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"

/* The writer of w for the one kind of document doc, read off its column
 * (not through report_writer_has): whether it has one. */
static int has_column(const struct report_writer *w, unsigned doc)
{
	switch (doc) {
	case REPORT_DOC_RUN:
		return w->run != NULL;
	case REPORT_DOC_COMPARE:
		return w->compare != NULL;
	case REPORT_DOC_FLEET:
		return w->fleet != NULL;
	case REPORT_DOC_HISTORY:
		return w->history != NULL;
	case REPORT_DOC_CHECKS:
		return w->checks != NULL;
	case REPORT_DOC_DOCTOR:
		return w->doctor != NULL;
	case REPORT_DOC_FINDINGS:
		return w->findings != NULL;
	}
	fail_msg("kind of document %#x has no column here", doc);
	return 0;
}

/* The names of the rows with a writer for any kind in docs, in table
 * order, joined by sep: what report_format_names must give. */
static void names_of(unsigned docs, const char *sep, char *out, size_t cap)
{
	out[0] = '\0';
	for (size_t k = 0; k < report_writers_len; k++) {
		int any = 0;

		for (unsigned d = 1; d & REPORT_DOC_ALL; d <<= 1)
			any |= (docs & d) && has_column(&report_writers[k], d);
		if (any) {
			size_t n = strlen(out);

			snprintf(out + n, cap - n, "%s%s", n ? sep : "", report_writers[k].name);
		}
	}
}

/* every row of the table: its format's row, found by its name, a name and
 * a format no other row has, a writer of results files */
static void test_rows(void **state)
{
	assert_true(report_writers_len > 0);
	for (size_t k = 0; k < report_writers_len; k++) {
		const struct report_writer *w = &report_writers[k];

		assert_non_null(w->name);
		assert_ptr_equal(report_writer_of(w->fmt), w);
		assert_ptr_equal(report_writer_find(w->name), w);
		assert_non_null(w->run); /* every format writes a results file */
		for (size_t j = 0; j < k; j++) {
			assert_int_not_equal(report_writers[j].fmt, w->fmt);
			assert_string_not_equal(report_writers[j].name, w->name);
		}
		for (unsigned d = 1; d & REPORT_DOC_ALL; d <<= 1)
			assert_int_equal(!!report_writer_has(w, d), has_column(w, d));
		assert_int_equal(!!report_writer_has(w, REPORT_DOC_ALL), 1);
		assert_int_equal(report_writer_has(w, 0), 0);
	}
	assert_null(report_writer_find("xml"));
	assert_null(report_writer_find(NULL));
	/* the text formats escape a copy first; the others as they write */
	assert_non_null(report_writer_of(REPORT_TERM)->escapes);
	assert_non_null(report_writer_of(REPORT_MD)->escapes);
	assert_null(report_writer_of(REPORT_HTML)->escapes);
}

/* the lists --format, the man page and the completions give: each kind of
 * document alone and two together, with two separators, asked twice */
static void test_names(void **state)
{
	const char *seps[] = {"|", " or "};
	char want[256];

	for (unsigned d = 1; d & REPORT_DOC_ALL; d <<= 1)
		for (size_t s = 0; s < 2; s++)
			for (int again = 0; again < 2; again++) {
				unsigned docs = d | (d << 1 & REPORT_DOC_ALL);

				names_of(d, seps[s], want, sizeof(want));
				assert_true(want[0] != '\0'); /* every kind has a format */
				assert_string_equal(report_format_names(d, seps[s]), want);
				names_of(docs, seps[s], want, sizeof(want));
				assert_string_equal(report_format_names(docs, seps[s]), want);
			}
	names_of(REPORT_DOC_ALL, ",", want, sizeof(want));
	assert_string_equal(report_format_names(REPORT_DOC_ALL, ","), want);
	assert_string_equal(report_format_names(0, "|"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_rows),
					   cmocka_unit_test(test_names)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
