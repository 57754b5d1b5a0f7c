/* test_order.c - chase orders (CPU and GPU latency probes share them) and the
 * GPU data pattern: pure logic checked without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/backend.h"
#include "gpu/kernels/pattern.h"
#include "machine/mem.h"

static void assert_permutation(const uint64_t *seq, size_t n)
{
	char *seen = calloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		assert_true(seq[i] < n);
		assert_false(seen[seq[i]]);
		seen[seq[i]] = 1;
	}
	free(seen);
}

static void test_random_order_is_permutation(void **state)
{
	size_t n = 10007;
	uint64_t *seq = malloc(n * sizeof(*seq));
	size_t in_place = 0;
	(void)state;
	mem_visit_order(seq, n, n, 42);
	assert_permutation(seq, n);
	for (size_t i = 0; i < n; i++)
		in_place += seq[i] == i;
	assert_true(in_place < 10); /* shuffled, not the identity */
	free(seq);
}

/* The random order is mem_random_cycle's cycle walked from slot 0 (read off
 * the permutation rather than walked: the same order, one seed the same
 * chain before and after), and the local order each group's own cycle so. */
static void test_order_is_the_cycle_walked(void **state)
{
	size_t n = 5003, group = 256;
	uint64_t *seq = malloc(n * sizeof(*seq)), *next = malloc(n * sizeof(*next));
	(void)state;
	mem_visit_order(seq, n, n, 99);
	mem_random_cycle(next, n, 99 ^ 0x9e3779b97f4a7c15ull); /* group 0's seed */
	assert_int_equal(seq[0], 0);
	for (size_t i = 0; i + 1 < n; i++)
		assert_int_equal(seq[i + 1], next[seq[i]]);
	assert_int_equal(next[seq[n - 1]], 0);
	mem_visit_order(seq, n, group, 5);
	for (size_t i = 0; i < n;) {
		uint64_t g = seq[i] / group, start = g * group;
		size_t m = n - start < group ? n - start : group;
		if (m > 1) {
			mem_random_cycle(next, m, 5 ^ (0x9e3779b97f4a7c15ull * (g + 1)));
			assert_int_equal(seq[i], start);
			for (size_t k = 0; k + 1 < m; k++)
				assert_int_equal(seq[i + k + 1] - start, next[seq[i + k] - start]);
		}
		i += m;
	}
	free(next);
	free(seq);
}

static void test_local_order_stays_in_groups(void **state)
{
	size_t n = 4096 + 100, group = 512; /* a partial last group too */
	uint64_t *seq = malloc(n * sizeof(*seq));
	int groups_in_order = 1;
	(void)state;
	mem_visit_order(seq, n, group, 7);
	assert_permutation(seq, n);
	/* Each run of visits covers one whole group before the next starts. */
	for (size_t i = 0; i < n;) {
		uint64_t g = seq[i] / group;
		size_t m = (g + 1) * group <= n ? group : n - g * group;
		for (size_t k = 0; k < m; k++)
			assert_int_equal(seq[i + k] / group, g);
		if (i > 0 && g != seq[i - 1] / group + 1)
			groups_in_order = 0;
		i += m;
	}
	assert_false(groups_in_order); /* groups are visited in random order */
	free(seq);
}

static void test_order_edge_sizes(void **state)
{
	uint64_t seq[2] = {9, 9};
	(void)state;
	mem_visit_order(seq, 0, 1, 1); /* nothing to do, nothing touched */
	assert_int_equal(seq[0], 9);
	mem_visit_order(seq, 1, 256, 1);
	assert_int_equal(seq[0], 0);
	mem_visit_order(seq, 2, 0, 1); /* group 0 means fully random */
	assert_permutation(seq, 2);
}

static void test_chase_orders(void **state)
{
	size_t n = 5000;
	uint64_t *seq = malloc(n * sizeof(*seq));
	(void)state;
	/* stride: node i then i + 1, the fixed-stride chain */
	mem_chase_order(seq, n, MEM_ORDER_STRIDE, 0, 1);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(seq[i], i);
	/* random and local are mem_visit_order's, group read by local only */
	mem_chase_order(seq, n, MEM_ORDER_RANDOM, 100, 3);
	assert_permutation(seq, n);
	mem_chase_order(seq, n, MEM_ORDER_LOCAL, 100, 3);
	assert_permutation(seq, n);
	for (size_t i = 0; i < n; i += 100)
		for (size_t k = 1; k < 100; k++)
			assert_int_equal(seq[i + k] / 100, seq[i] / 100);
	free(seq);
}

static void test_node_offsets(void **state)
{
	unsigned used[64] = {0};
	(void)state;
	/* one line per 64 B: the line itself */
	for (uint64_t k = 0; k < 1000; k++)
		assert_int_equal(mem_node_offset(k, 64, 9), k * 64);
	for (uint64_t stride = 128; stride <= 4096; stride *= 2) {
		uint64_t lines = stride / 64;
		memset(used, 0, sizeof(used));
		for (uint64_t k = 0; k < 4096; k++) {
			uint64_t off = mem_node_offset(k, stride, 9);
			/* a whole line inside node k's own stride, the same every call */
			assert_int_equal(off % 64, 0);
			assert_true(off >= k * stride && off < (k + 1) * stride);
			assert_int_equal(off, mem_node_offset(k, stride, 9));
			used[(off - k * stride) / 64]++;
		}
		/* every line position in use (every cache set), none dominant */
		for (uint64_t l = 0; l < lines; l++) {
			assert_true(used[l] > 0);
			assert_true(used[l] < 3 * 4096 / lines);
		}
	}
}

static void test_pattern_words(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < 100000; i++) {
		uint64_t w = gpu_pattern_word(3, i);
		assert_true(w != 0);
		assert_true(w != gpu_pattern_word(3, i + 1));
		assert_true(w != gpu_pattern_word(4, i)); /* seeds give other data */
	}
	assert_true(gpu_pattern_word(3, 5) == gpu_pattern_word(3, 5)); /* checkable anywhere */
}

static void test_addressing_mode(void **state)
{
	struct gpu_props p;
	(void)state;
	memset(&p, 0, sizeof(p));
	assert_string_equal(gpu_addressing_mode(&p), "none");
	p.pageable_access = 1;
	assert_string_equal(gpu_addressing_mode(&p), "HMM");
	p.pageable_host_pt = 1;
	assert_string_equal(gpu_addressing_mode(&p), "ATS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_order_is_permutation),
		cmocka_unit_test(test_local_order_stays_in_groups),
		cmocka_unit_test(test_order_is_the_cycle_walked),
		cmocka_unit_test(test_order_edge_sizes),
		cmocka_unit_test(test_chase_orders),
		cmocka_unit_test(test_node_offsets),
		cmocka_unit_test(test_pattern_words),
		cmocka_unit_test(test_addressing_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
