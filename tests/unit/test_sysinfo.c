/* test_sysinfo.c - the active choice of a sysfs multiple-choice file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bracketed),
		cmocka_unit_test(test_no_brackets),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_arc_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
