/* test_strvec.c - the growing string array: copies, NULL at the end, split,
 * detach and clear; and GROW_ONE, the grow-by-one helper (base/util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/strvec.h"
#include "base/util.h"

static void test_push(void **state)
{
	struct strvec a = STRVEC_INIT;
	char word[] = "probe";

	assert_null(a.v);
	strvec_push(&a, "mempath");
	strvec_push(&a, word);
	word[0] = 'X'; /* a copy was pushed */
	strvec_pushf(&a, "--reps=%u", 12u);
	assert_int_equal(a.n, 3);
	assert_string_equal(a.v[0], "mempath");
	assert_string_equal(a.v[1], "probe");
	assert_string_equal(a.v[2], "--reps=12");
	assert_null(a.v[3]);
	for (unsigned i = 0; i < 100; i++) /* grows, stays terminated */
		strvec_pushf(&a, "%u", i);
	assert_int_equal(a.n, 103);
	assert_string_equal(a.v[102], "99");
	assert_null(a.v[103]);
	strvec_clear(&a);
	assert_null(a.v);
	assert_int_equal(a.n, 0);
	strvec_clear(&a); /* twice is harmless */
}

static void test_pushv_split(void **state)
{
	struct strvec a = STRVEC_INIT;
	char *v[] = {"a", "b", NULL, "c"};
	char **d;

	strvec_pushv(&a, v, 1);
	strvec_pushv(&a, v, SIZE_MAX); /* up to the NULL */
	assert_int_equal(a.n, 3);
	assert_string_equal(a.v[2], "b");
	strvec_split(&a, "  --mmap 1\t-p  512 ", " \t");
	assert_int_equal(a.n, 7);
	assert_string_equal(a.v[3], "--mmap");
	assert_string_equal(a.v[6], "512");
	assert_null(a.v[7]);
	strvec_split(&a, "   ", " ");
	assert_int_equal(a.n, 7);
	d = strvec_detach(&a);
	assert_null(a.v);
	assert_string_equal(d[0], "a");
	for (size_t i = 0; d[i]; i++)
		free(d[i]);
	free(d);
	d = strvec_detach(&a); /* empty: {NULL}, never NULL */
	assert_non_null(d);
	assert_null(d[0]);
	free(d);
}

struct pair {
	int a;
	double b;
};

/* each element kept through the reallocations, each new one zeroed */
static void test_grow_one(void **state)
{
	struct pair *v = NULL;
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		GROW_ONE(v, n);
		assert_int_equal(v[n].a, 0);
		assert_true(v[n].b == 0.0);
		v[n].a = i;
		v[n++].b = i / 2.0;
	}
	assert_int_equal(n, 1000);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[i].a, (int)i);
		assert_true(v[i].b == (double)i / 2.0);
	}
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_push),
					   cmocka_unit_test(test_pushv_split),
					   cmocka_unit_test(test_grow_one)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
