/* test_noise_chase.c - the noise meter's chase (machine/noise_chase.h):
 * one cycle through every line of its buffer, and a time a hop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "machine/noise.h"
#include "machine/noise_chase.h"

/* Every line is visited once before the chase comes back to the first: a
 * hop never lands on a line the last few thousand readings touched. */
static void test_one_cycle(void **state)
{
	size_t *c = noise_chase_new(), lines = NOISE_CHASE_BYTES / 64, at = 0, n = 0;
	assert_non_null(c);
	do {
		assert_true(at % (64 / sizeof(size_t)) == 0);
		assert_true(at < NOISE_CHASE_BYTES / sizeof(size_t));
		at = c[at];
		n++;
	} while (at != 0 && n <= lines);
	assert_int_equal(n, lines);
	free(c);
}

/* A reading is a positive time a hop, and moves the position on. */
static void test_reading(void **state)
{
	size_t *c = noise_chase_new(), pos = 0;
	double ns = noise_chase_ns(c, &pos);
	assert_true(isfinite(ns) && ns > 0);
	assert_true(pos != 0);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cycle),
		cmocka_unit_test(test_reading),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
