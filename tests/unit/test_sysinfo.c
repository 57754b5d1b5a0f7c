/* test_sysinfo.c - the active choice of a sysfs multiple-choice file, and
 * the fingerprint's text shown escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/sysinfo.h"

static void check(const char *in, const char *want)
{
	char *got = sysinfo_bracketed(in);
	if (!want) {
		if (got)
			fail_msg("'%s' gave '%s', expected NULL", in ? in : "(null)", got);
		return;
	}
	if (!got)
		fail_msg("'%s' gave NULL, expected '%s'", in, want);
	assert_string_equal(got, want);
	free(got);
}

static void test_bracketed(void **state)
{
	check("always [madvise] never", "madvise");
	check("[always] madvise never\n", "always");
	check("always defer defer+madvise [madvise] never", "madvise");
	check("always madvise [never]", "never");
	check("[]", "");
}

static void test_no_brackets(void **state)
{
	check("madvise", "madvise");
	check("  1 \n", "1");
	check("\t0", "0");
	check("", "");
}

static void test_bad(void **state)
{
	check("always [madvise never", NULL);
	check("[", NULL);
	check(NULL, NULL);
}

/* /proc/spl/kstat/zfs/arcstats: a header, then "name type data" rows; the
 * ARC's size is the row named exactly "size" (not "overhead_size"). */
static void test_arc_size(void **state)
{
	const char *arc = "13 1 0x01 123 33456 1234 5678\n"
			  "name                            type data\n"
			  "hits                            4    104825\n"
			  "overhead_size                   4    1111\n"
			  "size                            4    8589934592\n"
			  "c_max                           4    16000000000\n";
	assert_int_equal(sysinfo_arc_size(arc), 8589934592LL);
	assert_int_equal(sysinfo_arc_size("name type data\nhits 4 1\n"), -1);
	assert_int_equal(sysinfo_arc_size(""), -1);
	assert_int_equal(sysinfo_arc_size(NULL), -1);
}

/* sysinfo's text: /proc and sysfs strings (a CPU model with an escape
 * sequence and a bidi override, a key too) shown by the one rule */
static void test_print_escapes(void **state)
{
	json_t *host = json_pack("{s:{s:s,s:[s]},s:s}", "cpu", "model",
				 "EPYC \033[2J\xe2\x80\xae|x", "flags", "a\033b", "k\033ey", "v");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(host);
	sysinfo_print(host, f);
	fclose(f);
	assert_null(strchr(out, '\033'));
	assert_null(strstr(out, "\xe2\x80\xae"));
	assert_non_null(strstr(out, "model: EPYC \\x1b[2J\\u202e|x\n"));
	assert_non_null(strstr(out, "k\\x1bey: v\n"));
	free(out);
	json_decref(host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bracketed),     cmocka_unit_test(test_no_brackets),
		cmocka_unit_test(test_bad),	      cmocka_unit_test(test_arc_size),
		cmocka_unit_test(test_print_escapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
