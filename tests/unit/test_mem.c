/* test_mem.c - smaps parsing (fixture and a real mapping), the latency knee
 * from a curve, and the random single cycle used by pointer chases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "machine/mem.h"

#define MiB (1ull << 20)

/* tests/data/smaps.txt: three VMAs
 *   7f3a10000000-7f3a10400000   4 MiB, Rss 2048 kB, no THP
 *   7f3a10600000-7f3a20600000 256 MiB, Rss and AnonHugePages 262144 kB
 *   7f3a20600000-7f3a20800000   2 MiB, Rss 1024 kB, no THP ([heap]) */
static void test_smaps_fixture(void **state)
{
	char *text = read_file_str("tests/data/smaps.txt", NULL);
	struct smaps_info si;
	assert_non_null(text);

	/* A range inside the THP VMA counts that whole VMA. */
	assert_int_equal(mem_smaps_parse(text, 0x7f3a10800000, 0x7f3a10a00000, &si), 0);
	assert_int_equal(si.n_vmas, 1);
	assert_int_equal(si.size_bytes, 256 * MiB);
	assert_int_equal(si.rss_bytes, 256 * MiB);
	assert_int_equal(si.anon_huge_bytes, 256 * MiB);

	/* Exactly the first VMA: the neighbours are outside (half-open ranges). */
	assert_int_equal(mem_smaps_parse(text, 0x7f3a10000000, 0x7f3a10400000, &si), 0);
	assert_int_equal(si.n_vmas, 1);
	assert_int_equal(si.size_bytes, 4 * MiB);
	assert_int_equal(si.rss_bytes, 2 * MiB);
	assert_int_equal(si.anon_huge_bytes, 0);

	/* Across the boundary of the THP VMA and [heap]: both summed. */
	assert_int_equal(mem_smaps_parse(text, 0x7f3a20000000, 0x7f3a20700000, &si), 0);
	assert_int_equal(si.n_vmas, 2);
	assert_int_equal(si.size_bytes, 258 * MiB);
	assert_int_equal(si.rss_bytes, 256 * MiB + 1 * MiB);
	assert_int_equal(si.anon_huge_bytes, 256 * MiB);

	/* In the gap between the first two VMAs, and past the last: none. */
	assert_int_equal(mem_smaps_parse(text, 0x7f3a10400000, 0x7f3a10600000, &si), -1);
	assert_int_equal(si.n_vmas, 0);
	assert_int_equal(mem_smaps_parse(text, 0x7f3a20800000, 0x7f3a20900000, &si), -1);
	assert_int_equal(mem_smaps_parse("", 0, UINTPTR_MAX, &si), -1);
	free(text);
}

static void test_smaps_real_mapping(void **state)
{
	struct mem_buf b;
	struct smaps_info si;
	assert_int_equal(mem_map(&b, 4 * MiB, MEM_PAGES_4K, 0), 0);
	assert_non_null(b.addr);
	assert_int_equal((uintptr_t)b.addr % MEM_HUGE_BYTES, 0);
	assert_int_equal(b.size_bytes, 4 * MiB);
	memset(b.addr, 0x5a, 4 * MiB);
	assert_int_equal(mem_smaps_range(b.addr, 4 * MiB, &si), 0);
	assert_true(si.n_vmas >= 1);
	assert_int_equal(si.anon_huge_bytes, 0); /* MADV_NOHUGEPAGE held */
	assert_int_equal(si.rss_bytes, 4 * MiB);
	mem_unmap(&b);
	assert_null(b.addr);
	assert_int_equal(mem_map(&b, 0, MEM_PAGES_4K, 0), -1);
}

static void test_knee(void **state)
{
	uint64_t sizes[8];
	double flat[8], step[8], gentle[8];
	for (int i = 0; i < 8; i++) {
		sizes[i] = MiB << i; /* 1 .. 128 MiB */
		flat[i] = 1.0 + 0.01 * i;
		step[i] = sizes[i] <= 8 * MiB ? 2.0 : 90.0;
		gentle[i] = 10.0 * (1 << i); /* no plateau: knee below the midpoint */
	}
	assert_int_equal(mem_knee_from_curve(sizes, flat, 8), 128 * MiB);
	assert_int_equal(mem_knee_from_curve(sizes, step, 8), 8 * MiB);
	/* mid = sqrt(10 * 1280) = 113: 80 is below it at 8 MiB, 160 above. */
	assert_int_equal(mem_knee_from_curve(sizes, gentle, 8), 8 * MiB);
	assert_int_equal(mem_knee_from_curve(sizes, step, 1), 1 * MiB);
	assert_int_equal(mem_knee_from_curve(sizes, step, 0), 0);
}

static void check_cycle(size_t n, uint64_t seed)
{
	uint64_t *next = malloc(n * sizeof(*next));
	char *seen = calloc(n, 1);
	size_t cur = 0;
	assert_non_null(next);
	assert_non_null(seen);
	memset(next, 0xff, n * sizeof(*next));
	mem_random_cycle(next, n, seed);
	for (size_t step = 0; step < n; step++) {
		assert_true(next[cur] < n);
		if (seen[cur])
			fail_msg("n=%zu: slot %zu revisited after %zu steps", n, cur, step);
		seen[cur] = 1;
		cur = (size_t)next[cur];
	}
	assert_int_equal(cur, 0); /* back at the start after exactly n steps */
	if (n > 1)
		for (size_t i = 0; i < n; i++)
			assert_true(next[i] != i);
	free(seen);
	free(next);
}

static void test_random_cycle(void **state)
{
	uint64_t a[1000], b[1000];
	size_t same = 0;
	check_cycle(1, 1);
	check_cycle(2, 1);
	check_cycle(3, 7);
	check_cycle(1000, 42);
	check_cycle(1000, 43);
	/* Deterministic per seed, different across seeds. */
	mem_random_cycle(a, 1000, 42);
	mem_random_cycle(b, 1000, 42);
	assert_memory_equal(a, b, sizeof(a));
	mem_random_cycle(b, 1000, 43);
	for (size_t i = 0; i < 1000; i++)
		same += a[i] == b[i];
	assert_true(same < 100);
}

static void put(const char *dir, const char *file, const char *text)
{
	char *path = xasprintf("%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

/* The room under cgroup limits: v2 walks up to the root and keeps the
 * smallest limit - usage; "max" and v1's huge number mean no limit. */
static void test_cgroup_room(void **state)
{
	char root[] = "/tmp/mempath-cg-XXXXXX", *a, *b, *v1, *m, *rm;
	assert_non_null(mkdtemp(root));
	a = xasprintf("%s/a", root);
	b = xasprintf("%s/a/b", root);
	v1 = xasprintf("%s/memory/x", root);
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(mkdir(b, 0755), 0);
	put(a, "memory.max", "1000\n");
	put(a, "memory.current", "300\n");
	put(b, "memory.max", "max\n");
	put(b, "memory.current", "100\n");
	assert_int_equal(mem_cgroup_room(root, "0::/a/b\n"), 700);
	put(b, "memory.max", "500\n");
	assert_int_equal(mem_cgroup_room(root, "0::/a/b\n"), 400);
	assert_int_equal(mem_cgroup_room(root, "0::/\n"), 0);
	assert_int_equal(mem_cgroup_room(root, "0::/nowhere\n"), 0);
	m = xasprintf("%s/memory", root);
	assert_int_equal(mkdir(m, 0755), 0);
	assert_int_equal(mkdir(v1, 0755), 0);
	put(v1, "memory.limit_in_bytes", "9223372036854771712\n");
	put(v1, "memory.usage_in_bytes", "200\n");
	assert_int_equal(mem_cgroup_room(root, "4:memory:/x\n0::/\n"), 0);
	put(v1, "memory.limit_in_bytes", "629145600\n");
	assert_int_equal(mem_cgroup_room(root, "4:memory:/x\n0::/\n"), 629145600 - 200);
	free(a);
	free(b);
	free(v1);
	free(m);
	rm = xasprintf("rm -rf '%s'", root);
	assert_int_equal(system(rm), 0);
	free(rm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_room),	   cmocka_unit_test(test_smaps_fixture),
		cmocka_unit_test(test_smaps_real_mapping), cmocka_unit_test(test_knee),
		cmocka_unit_test(test_random_cycle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
