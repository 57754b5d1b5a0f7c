/* test_um.c - CUPTI's unified-memory counter records summed (gpu/um.h,
 * docs/design.md §4.20), on synthetic records laid out as CUPTI writes them
 * (CUpti_ActivityUnifiedMemoryCounter3: the 64-byte head um.h declares, then
 * the processors' bitmask): bytes each way and GPU fault groups add their
 * values, CPU faults, thrashing, throttling and remote maps one a record,
 * records of another kind or an unknown counter kind are ignored; a
 * completed buffer walked record by record as cuptiActivityGetNextRecord
 * does; totals only grow, so a window's counts are the difference of two readings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "gpu/um.h"

/* CUPTI's record as CUDA 13 hands it back: the head and 5 words more */
struct um_record3 {
	struct gpu_um_record head;
	uint64_t processors[5];
};

static struct um_record3 rec(uint32_t counter_kind, uint64_t value)
{
	struct um_record3 r;
	memset(&r, 0, sizeof(r));
	r.head.kind = GPU_UM_ACTIVITY_KIND;
	r.head.counter_kind = counter_kind;
	r.head.value = value;
	r.head.start = 1000;
	r.head.end = 2000;
	r.head.address = 0x7f0000000000ull;
	return r;
}

static void test_layout(void **state)
{
	assert_int_equal(sizeof(struct gpu_um_record), 64);
	assert_int_equal(offsetof(struct gpu_um_record, value), 8);
	assert_int_equal(offsetof(struct gpu_um_record, address), 32);
	assert_int_equal(offsetof(struct gpu_um_record, flags), 56);
	assert_int_equal(sizeof(struct um_record3), 104);
}

static void test_names(void **state)
{
	assert_string_equal(gpu_um_name(GPU_UM_GPU_PAGE_FAULTS), "gpu_page_faults");
	assert_string_equal(gpu_um_name(GPU_UM_CPU_PAGE_FAULTS), "cpu_page_faults");
	assert_string_equal(gpu_um_name(GPU_UM_HTOD_BYTES), "htod_bytes");
	assert_string_equal(gpu_um_name(GPU_UM_DTOH_BYTES), "dtoh_bytes");
	assert_string_equal(gpu_um_name(GPU_UM_THRASHING), "thrashing");
	for (unsigned k = 0; k < GPU_UM_N; k++)
		assert_non_null(gpu_um_name(k));
	assert_null(gpu_um_name(GPU_UM_N));
	/* the total each counter kind adds to: what a configured kind counts */
	assert_int_equal(gpu_um_total(GPU_UM_KIND_GPU_PAGE_FAULT), GPU_UM_GPU_PAGE_FAULTS);
	assert_int_equal(gpu_um_total(GPU_UM_KIND_HTOD), GPU_UM_HTOD_BYTES);
	assert_int_equal(gpu_um_total(GPU_UM_KIND_DTOD), GPU_UM_DTOD_BYTES);
	assert_int_equal(gpu_um_total(0), -1);
	assert_int_equal(gpu_um_total(GPU_UM_KIND_N), -1);
	for (unsigned k = 1; k < GPU_UM_KIND_N; k++)
		assert_true(gpu_um_total(k) >= 0 && gpu_um_total(k) < GPU_UM_N);
}

/* A 2 MiB managed buffer touched by the GPU then read back by the CPU, as
 * the driver reports it: fault groups, 64 KiB migrations each way. */
static void test_sum(void **state)
{
	struct um_record3 buf[16];
	struct gpu_um_totals t;
	size_t n = 0;

	memset(&t, 0, sizeof(t));
	buf[n++] = rec(GPU_UM_KIND_GPU_PAGE_FAULT, 3);
	buf[n++] = rec(GPU_UM_KIND_GPU_PAGE_FAULT, 1);
	for (int i = 0; i < 4; i++)
		buf[n++] = rec(GPU_UM_KIND_HTOD, 64 << 10);
	buf[n++] = rec(GPU_UM_KIND_DTOH, 2 << 20);
	buf[n++] = rec(GPU_UM_KIND_CPU_PAGE_FAULT, 0x401234); /* the value is a PC */
	buf[n++] = rec(GPU_UM_KIND_CPU_PAGE_FAULT, 0x401234);
	buf[n++] = rec(GPU_UM_KIND_THRASHING, 2 << 20); /* the region's size */
	buf[n++] = rec(GPU_UM_KIND_THROTTLING, 0);
	buf[n++] = rec(GPU_UM_KIND_REMOTE_MAP, 2 << 20);
	buf[n++] = rec(GPU_UM_KIND_DTOD, 4096);
	buf[n++] = rec(0, 99);	/* unknown counter kind */
	buf[n++] = rec(42, 99); /* one a later CUPTI may add */
	buf[n] = rec(GPU_UM_KIND_HTOD, 1 << 30);
	buf[n++].head.kind = 10; /* another activity kind: not ours */
	for (size_t i = 0; i < n; i++)
		gpu_um_add(&t, &buf[i].head);
	assert_int_equal(t.v[GPU_UM_GPU_PAGE_FAULTS], 4);
	assert_int_equal(t.v[GPU_UM_HTOD_BYTES], 4 * (64 << 10));
	assert_int_equal(t.v[GPU_UM_DTOH_BYTES], 2 << 20);
	assert_int_equal(t.v[GPU_UM_CPU_PAGE_FAULTS], 2);
	assert_int_equal(t.v[GPU_UM_THRASHING], 1);
	assert_int_equal(t.v[GPU_UM_THROTTLING], 1);
	assert_int_equal(t.v[GPU_UM_REMOTE_MAP], 1);
	assert_int_equal(t.v[GPU_UM_DTOD_BYTES], 4096);
	assert_int_equal(t.records, 13);
	assert_int_equal(t.ignored, 3);
	assert_int_equal(t.dropped, 0);
}

/* cuptiActivityGetNextRecord over a buffer of CUDA 13's records (104 bytes
 * each, back to back): the first, then the one after *rec, until the end. */
static int next104(uint8_t *buf, size_t valid, void **rec)
{
	uint8_t *at = *rec ? (uint8_t *)*rec + sizeof(struct um_record3) : buf;
	if (at + sizeof(struct um_record3) > buf + valid)
		return 12; /* CUPTI_ERROR_MAX_LIMIT_REACHED */
	*rec = at;
	return 0;
}

/* A buffer as CUPTI completes one: every valid record walked and summed, a
 * partial record past validSize not; an empty buffer adds nothing. */
static void test_buffer(void **state)
{
	struct um_record3 buf[4];
	struct gpu_um_totals t;

	memset(&t, 0, sizeof(t));
	buf[0] = rec(GPU_UM_KIND_GPU_PAGE_FAULT, 7);
	buf[1] = rec(GPU_UM_KIND_HTOD, 2 << 20);
	buf[2] = rec(GPU_UM_KIND_DTOH, 4096);
	buf[3] = rec(GPU_UM_KIND_HTOD, 1 << 30); /* beyond validSize */
	assert_int_equal(gpu_um_add_buffer(&t, (uint8_t *)buf, 3 * sizeof(buf[0]) + 8, next104), 3);
	assert_int_equal(t.v[GPU_UM_GPU_PAGE_FAULTS], 7);
	assert_int_equal(t.v[GPU_UM_HTOD_BYTES], 2 << 20);
	assert_int_equal(t.v[GPU_UM_DTOH_BYTES], 4096);
	assert_int_equal(gpu_um_add_buffer(&t, (uint8_t *)buf, 0, next104), 0);
	assert_int_equal(gpu_um_add_buffer(&t, NULL, 100, next104), 0);
	assert_int_equal(t.records, 3);
}

/* Two windows: the totals read at each end; the second window's counts are
 * the records delivered between its readings, the first's untouched. */
static void test_windows(void **state)
{
	struct gpu_um_totals t, at0, at1, at2;
	struct um_record3 r;

	memset(&t, 0, sizeof(t));
	at0 = t;
	r = rec(GPU_UM_KIND_GPU_PAGE_FAULT, 512);
	gpu_um_add(&t, &r.head);
	r = rec(GPU_UM_KIND_HTOD, 1 << 30);
	gpu_um_add(&t, &r.head);
	at1 = t;
	r = rec(GPU_UM_KIND_GPU_PAGE_FAULT, 0); /* a record of no groups adds none */
	gpu_um_add(&t, &r.head);
	at2 = t;
	assert_int_equal(at1.v[GPU_UM_GPU_PAGE_FAULTS] - at0.v[GPU_UM_GPU_PAGE_FAULTS], 512);
	assert_int_equal(at1.v[GPU_UM_HTOD_BYTES] - at0.v[GPU_UM_HTOD_BYTES], 1 << 30);
	assert_int_equal(at2.v[GPU_UM_GPU_PAGE_FAULTS] - at1.v[GPU_UM_GPU_PAGE_FAULTS], 0);
	assert_int_equal(at2.v[GPU_UM_HTOD_BYTES] - at1.v[GPU_UM_HTOD_BYTES], 0);
	assert_int_equal(at2.records, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),	cmocka_unit_test(test_names),
		cmocka_unit_test(test_sum),	cmocka_unit_test(test_buffer),
		cmocka_unit_test(test_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
