/* test_sysinfo.c - the active choice of a sysfs multiple-choice file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>

#include "core/sysinfo.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bracketed),
		cmocka_unit_test(test_no_brackets),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
