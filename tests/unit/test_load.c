/* test_load.c - the steps of the loaded-latency sweeps (cpu.loaded,
 * gpu.loaded), the paced traffic's byte rule, and the page pass before a
 * chase. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kit/cpu_kernels.h"
#include "kit/load.h"

static void test_delays(void **state)
{
	uint32_t d[LOAD_MAX_STEPS];
	size_t n = 0;
	(void)state;
	/* auto: full speed first, doubling delays, idle last */
	assert_int_equal(load_parse_delays("auto", d, &n), 0);
	assert_int_equal(n, 10);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 25);
	assert_int_equal(d[8], 3200);
	assert_int_equal(d[9], LOAD_IDLE);
	/* a list: sorted, unique, idle last wherever it was written */
	assert_int_equal(load_parse_delays("idle,400,0,400", d, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 400);
	assert_int_equal(d[2], LOAD_IDLE);
	assert_int_equal(load_parse_delays("idle", d, &n), 0);
	assert_int_equal(n, 1);
}

static void test_delays_bad(void **state)
{
	static const char *const bad[] = {"",
					  ",",
					  "-1",
					  "x",
					  "1x",
					  "10000001",
					  ("auto,auto,1,2,3,4,5,6,"
					   "7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24")};
	uint32_t d[LOAD_MAX_STEPS];
	size_t n = 0;
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (load_parse_delays(bad[i], d, &n) == 0)
			fail_msg("'%s' accepted", bad[i]);
}

static void test_sms(void **state)
{
	unsigned s[LOAD_MAX_STEPS], dropped = 9;
	size_t n = 0;
	(void)state;
	/* 132 SMs (H100/H200): one chases, at most 131 stream */
	assert_int_equal(load_parse_sms("auto", 132, s, &n, &dropped), 0);
	assert_int_equal(n, 6);
	assert_int_equal(s[0], 0);
	assert_int_equal(s[1], 16);
	assert_int_equal(s[2], 33);
	assert_int_equal(s[3], 66);
	assert_int_equal(s[4], 99);
	assert_int_equal(s[5], 131);
	assert_int_equal(dropped, 0);
	assert_int_equal(load_parse_sms("max,0,200,8", 132, s, &n, &dropped), 0);
	assert_int_equal(n, 3);
	assert_int_equal(s[0], 0);
	assert_int_equal(s[1], 8);
	assert_int_equal(s[2], 131);
	assert_int_equal(dropped, 1);
	/* a tiny GPU: auto collapses onto the few counts there are */
	assert_int_equal(load_parse_sms("auto", 2, s, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_int_equal(s[1], 1);
	assert_int_equal(load_parse_sms("auto", 1, s, &n, NULL), -1);
	assert_int_equal(load_parse_sms("x", 132, s, &n, NULL), -1);
	assert_int_equal(load_parse_sms("", 132, s, &n, NULL), -1);
}

static void test_mix_bytes(void **state)
{
	(void)state;
	/* lines read + lines written, 64 B each, per line stepped */
	assert_true(cpu_mix_bytes_per_line(CPU_MIX_READ) == 64);
	assert_true(cpu_mix_bytes_per_line(CPU_MIX_R2W1) == 96);
	assert_true(cpu_mix_bytes_per_line(CPU_MIX_R1W1) == 128);
	assert_string_equal(cpu_mix_name(CPU_MIX_R2W1), "r2w1");
}

static void test_paced_kernels(void **state)
{
	uint64_t *p = aligned_alloc(64, 64 * 8);
	(void)state;
	/* 8 lines: r1w1 adds one to every word, r2w1 adds line i into i+1 */
	for (int i = 0; i < 64; i++)
		p[i] = (uint64_t)i;
	cpu_kern_paced(p, 8, CPU_MIX_R1W1, 3);
	for (int i = 0; i < 64; i++)
		assert_int_equal(p[i], (uint64_t)i + 1);
	cpu_kern_paced(p, 8, CPU_MIX_R2W1, 0);
	for (int l = 0; l < 8; l += 2)
		for (int w = 0; w < 8; w++)
			assert_int_equal(p[(l + 1) * 8 + w], (uint64_t)((l + 1) * 8 + w + 1) +
								     (uint64_t)(l * 8 + w + 1));
	/* read changes nothing */
	memset(p, 7, 64 * 8);
	cpu_kern_paced(p, 8, CPU_MIX_READ, 1);
	for (int i = 0; i < 64; i++)
		assert_int_equal(p[i], 0x0707070707070707ull);
	free(p);
}

/* One byte read per 4 KiB page, from the first, and none past the end. */
static void test_page_pass(void **state)
{
	unsigned char *p = aligned_alloc(4096, 5 * 4096);
	(void)state;
	memset(p, 0, 5 * 4096);
	for (int k = 0; k < 5; k++)
		p[k * 4096] = (unsigned char)(k + 1); /* the bytes a pass reads */
	p[1] = p[4095] = p[4096 + 100] = 50;	      /* bytes it must not */
	assert_int_equal(cpu_kern_page_pass(p, 5 * 4096), 1 + 2 + 3 + 4 + 5);
	assert_int_equal(cpu_kern_page_pass(p, 4 * 4096 + 1), 1 + 2 + 3 + 4 + 5);
	assert_int_equal(cpu_kern_page_pass(p, 4 * 4096), 1 + 2 + 3 + 4);
	assert_int_equal(cpu_kern_page_pass(p, 0), 0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delays),	      cmocka_unit_test(test_delays_bad),
		cmocka_unit_test(test_sms),	      cmocka_unit_test(test_mix_bytes),
		cmocka_unit_test(test_paced_kernels), cmocka_unit_test(test_page_pass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
