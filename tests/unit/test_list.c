/* test_list.c - thread-count and size lists in probe options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/list.h"

static void expect_threads(const char *spec, unsigned max, const unsigned *want, size_t n_want,
			   unsigned dropped_want)
{
	unsigned out[LIST_MAX], dropped = 99;
	size_t n = 999;
	if (list_parse_threads(spec, max, out, &n, &dropped) != 0)
		fail_msg("'%s' (max %u) rejected", spec, max);
	assert_int_equal(n, n_want);
	assert_memory_equal(out, want, n_want * sizeof(*want));
	assert_int_equal(dropped, dropped_want);
}

static void test_threads_good(void **state)
{
	expect_threads("1,2,8", 8, (const unsigned[]){1, 2, 8}, 3, 0);
	expect_threads("8,2,1,2", 8, (const unsigned[]){1, 2, 8}, 3, 0); /* sorted, unique */
	expect_threads("max", 6, (const unsigned[]){6}, 1, 0);
	expect_threads("all", 6, (const unsigned[]){1, 2, 4, 6}, 4, 0);
	expect_threads("all", 8, (const unsigned[]){1, 2, 4, 8}, 4, 0);
	expect_threads("all", 1, (const unsigned[]){1}, 1, 0);
	expect_threads("1,max", 2, (const unsigned[]){1, 2}, 2, 0);
	expect_threads("1,4,16", 2, (const unsigned[]){1}, 1, 2); /* above max: dropped */
	expect_threads("16", 2, (const unsigned[]){0}, 0, 1);	  /* all dropped: said so */
}

static void test_threads_bad(void **state)
{
	static const char *const bad[] = {"",	"0",   "a",    "1,b", "2x",
					  "-1", "1.5", "max2", "ALL", "99999999999"};
	unsigned out[LIST_MAX];
	size_t n;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (list_parse_threads(bad[i], 8, out, &n, NULL) != -1)
			fail_msg("'%s' accepted", bad[i]);
	assert_int_equal(list_parse_threads(NULL, 8, out, &n, NULL), -1);
	assert_int_equal(list_parse_threads(",", 8, out, &n, NULL), -1);
	assert_int_equal(list_parse_threads("1", 0, out, &n, NULL), -1);
}

static void test_sizes(void **state)
{
	static const char *const bad[] = {"", ",", "0", "1G,0", "bad", "1G,bad", "1.3k", "-1G"};
	uint64_t out[LIST_MAX];
	size_t n = 0;
	char many[LIST_MAX * 8 + 16] = "";
	assert_int_equal(list_parse_sizes("256M,1G", out, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(out[0], 256ull << 20);
	assert_int_equal(out[1], 1ull << 30);
	assert_int_equal(list_parse_sizes("4G,1G,4096M,1.5G", out, &n), 0); /* order kept */
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 4ull << 30);
	assert_int_equal(out[1], 1ull << 30);
	assert_int_equal(out[2], 3ull << 29);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (list_parse_sizes(bad[i], out, &n) != -1)
			fail_msg("'%s' accepted", bad[i]);
	assert_int_equal(list_parse_sizes(NULL, out, &n), -1);
	/* LIST_MAX distinct entries fit, one more does not. */
	for (int i = 1; i <= LIST_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%dk",
			 i > 1 ? "," : "", i);
	assert_int_equal(list_parse_sizes(many, out, &n), 0);
	assert_int_equal(n, LIST_MAX);
	strcat(many, ",999k");
	assert_int_equal(list_parse_sizes(many, out, &n), -1);
}

static void test_devices(void **state)
{
	int out[LIST_MAX];
	size_t n = 0;

	assert_int_equal(list_parse_devices("all", 4, out, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(out[3], 3);
	assert_int_equal(list_parse_devices("3,0,1", 4, out, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 3);
	assert_int_equal(out[2], 1);
	assert_int_equal(list_parse_devices("1", 2, out, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(list_parse_devices("all", 0, out, &n), -1);
	assert_int_equal(list_parse_devices("2", 2, out, &n), -1);   /* absent */
	assert_int_equal(list_parse_devices("0,0", 2, out, &n), -1); /* repeated */
	assert_int_equal(list_parse_devices("-1", 2, out, &n), -1);
	assert_int_equal(list_parse_devices("0,", 2, out, &n), -1);
	assert_int_equal(list_parse_devices("0;1", 2, out, &n), -1);
	assert_int_equal(list_parse_devices("", 2, out, &n), -1);
	assert_int_equal(list_parse_devices("x", 2, out, &n), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_good),
		cmocka_unit_test(test_threads_bad),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
