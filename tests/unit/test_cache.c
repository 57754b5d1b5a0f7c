/* test_cache.c - the last-level cache from recorded sysfs trees
 * (tests/data/sysfs-cache-32m: one 32 MiB L3 over 2 CPUs, as the EPYC dev
 * guest advertised; sysfs-cache-300m: two 150 MiB L3 instances over 4 CPUs)
 * and what cpu.stream and the knee sweep make of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "machine/cache.h"

#define MiB (1ull << 20)

static void test_llc_32m(void **state)
{
	struct cache_llc c;
	(void)state;
	assert_int_equal(cache_llc_read("tests/data/sysfs-cache-32m", &c), 0);
	assert_int_equal(c.level, 3);
	assert_int_equal(c.instance_bytes, 32 * MiB);
	assert_int_equal(c.instances, 1);
	assert_int_equal(c.total_bytes, 32 * MiB);
	/* 4 x 32 MiB is below the 256 MiB floor; the sweep's top stays 256 MiB */
	assert_int_equal(cache_stream_bytes(c.total_bytes, 0), 256 * MiB);
	assert_int_equal(cache_sweep_top(c.total_bytes), 256 * MiB);
	/* a measured knee larger than the LLC still wins */
	assert_int_equal(cache_stream_bytes(c.total_bytes, 96 * MiB), 384 * MiB);
}

static void test_llc_300m(void **state)
{
	struct cache_llc c;
	(void)state;
	assert_int_equal(cache_llc_read("tests/data/sysfs-cache-300m", &c), 0);
	assert_int_equal(c.level, 3);
	assert_int_equal(c.instance_bytes, 150 * MiB);
	assert_int_equal(c.instances, 2);
	assert_int_equal(c.total_bytes, 300 * MiB);
	/* arrays at least 4x the LLC: 1200 MiB, not the old 256 MiB default */
	assert_int_equal(cache_stream_bytes(c.total_bytes, 0), 1200 * MiB);
	assert_true(cache_stream_bytes(c.total_bytes, 0) >= 4 * c.total_bytes);
	/* the knee sweep reaches past the LLC */
	assert_true(cache_sweep_top(c.total_bytes) > c.total_bytes);
}

static void test_llc_none(void **state)
{
	struct cache_llc c;
	(void)state;
	assert_int_equal(cache_llc_read("tests/data/no-such-root", &c), -1);
	assert_int_equal(c.total_bytes, 0);
	assert_int_equal(cache_stream_bytes(0, 0), 256 * MiB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llc_32m),
		cmocka_unit_test(test_llc_300m),
		cmocka_unit_test(test_llc_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
