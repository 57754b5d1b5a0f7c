/* test_numa.c - NUMA topology read from fixture sysfs trees (one node, two
 * sockets, the DRAM+DRAM+CXL box of docs/design.md §10.8, malformed files), node lists,
 * numa_maps parsing, and placement requests on this machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/numa.h"

static void test_cpulist(void **state)
{
	int *v;
	size_t n;
	assert_int_equal(numa_cpulist_parse("0-3,8,10-11\n", &v, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[3], 3);
	assert_int_equal(v[4], 8);
	assert_int_equal(v[6], 11);
	free(v);
	assert_int_equal(numa_cpulist_parse("\n", &v, &n), 0); /* memory-only node */
	assert_int_equal(n, 0);
	free(v);
	assert_int_equal(numa_cpulist_parse("5,1", &v, &n), 0); /* sorted */
	assert_int_equal(v[0], 1);
	free(v);
	assert_int_equal(numa_cpulist_parse("0-x", &v, &n), -1);
	assert_int_equal(numa_cpulist_parse("3-1", &v, &n), -1);
	assert_int_equal(numa_cpulist_parse("a", &v, &n), -1);
}

static void test_one_node(void **state)
{
	struct numa_topology t;
	assert_int_equal(numa_topology_read("tests/data/sysfs-1node", &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.nodes[0].id, 0);
	assert_int_equal(t.nodes[0].n_cpus, 2);
	assert_int_equal(t.nodes[0].mem_total_bytes, UINT64_C(24684096) * 1024);
	assert_int_equal(t.nodes[0].distance[0], 10);
	assert_string_equal(numa_node_kind(&t.nodes[0]), "cpu+memory");
	assert_int_equal(numa_topology_mem_nodes(&t), 1);
	numa_topology_free(&t);
	assert_int_equal(numa_topology_read("tests/data/no-such-root", &t), -1);
	assert_int_equal(t.n, 0);
}

static void test_two_sockets(void **state)
{
	struct numa_topology t;
	const struct numa_node *n1;
	assert_int_equal(numa_topology_read("tests/data/sysfs-2socket", &t), 0);
	assert_int_equal(t.n, 2);
	n1 = numa_topology_node(&t, 1);
	assert_non_null(n1);
	assert_int_equal(n1->n_cpus, 8);
	assert_int_equal(n1->cpus[4], 12);
	assert_int_equal(n1->distance[0], 21);
	assert_int_equal(n1->distance[1], 10);
	assert_null(numa_topology_node(&t, 2));
	assert_int_equal(numa_topology_cpu_nodes(&t), 2);
	numa_topology_free(&t);
}

/* docs/design.md §10.8's box: N0/N1 DRAM with CPUs, N2 CXL memory only. */
static void test_cxl(void **state)
{
	struct numa_topology t;
	uint64_t mask;
	struct kv_list ns;
	assert_int_equal(numa_topology_read("tests/data/sysfs-cxl", &t), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(numa_node_kind(&t.nodes[0]), "cpu+memory");
	assert_string_equal(numa_node_kind(&t.nodes[2]), "memory-only");
	assert_int_equal(t.nodes[2].n_cpus, 0);
	assert_int_equal(t.nodes[2].distance[0], 50);
	assert_int_equal(t.nodes[0].distance[1], 12);
	assert_int_equal(numa_topology_cpu_nodes(&t), 2);
	assert_int_equal(numa_topology_mem_nodes(&t), 3);
	assert_int_equal(numa_nodes_parse("all", &t, &mask), 0);
	assert_int_equal(mask, 7);
	assert_int_equal(numa_nodes_parse("1-2", &t, &mask), 0);
	assert_int_equal(mask, 6);
	assert_int_equal(numa_nodes_parse("", &t, &mask), -1);
	assert_int_equal(numa_nodes_parse("64", &t, &mask), -1);
	assert_int_equal(numa_nodes_parse("all", NULL, &mask), 0);
	assert_int_equal(mask, 1);
	assert_int_equal(numa_numastat_read("tests/data/sysfs-cxl", 2, &ns), 0);
	assert_int_equal(kv_get(&ns, "numa_hit", NULL), 7);
	kv_free(&ns);
	assert_int_equal(numa_numastat_read("tests/data/sysfs-cxl", 5, &ns), -1);
	numa_topology_free(&t);
}

static void test_odd_tree(void **state)
{
	struct numa_topology t;
	/* nodefoo is not a node; node3's cpulist is malformed (no CPUs) and its
	 * distance line does not match the node count (no distances). */
	assert_int_equal(numa_topology_read("tests/data/sysfs-odd", &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.nodes[0].id, 3);
	assert_int_equal(t.nodes[0].n_cpus, 0);
	assert_null(t.nodes[0].distance);
	assert_string_equal(numa_node_kind(&t.nodes[0]), "empty");
	numa_topology_free(&t);
}

static void test_numa_maps(void **state)
{
	char *text = read_file_str("tests/data/numa_maps.txt", NULL);
	struct numa_maps_info mi;
	assert_non_null(text);
	assert_int_equal(numa_maps_parse(text, 0x7f1000000000, 0x7f1000001000, &mi), 0);
	assert_string_equal(mi.policy, "bind:0");
	assert_int_equal(mi.pages[0], 262144);
	assert_int_equal(mi.page_bytes, 4096);
	/* Two entries: the first one's policy, pages summed. */
	assert_int_equal(numa_maps_parse(text, 0x7f1000000000, 0x7f1100000000, &mi), 0);
	assert_int_equal(mi.n_entries, 2);
	assert_int_equal(mi.pages[0], 262144 + 512);
	assert_int_equal(mi.pages[1], 512);
	assert_int_equal(mi.total_pages, 263168);
	/* Policies with spaces in their names. */
	assert_int_equal(numa_maps_parse(text, 0x7f2000000000, 0x7f2000000001, &mi), 0);
	assert_string_equal(mi.policy, "prefer (many):1-2");
	assert_int_equal(mi.pages[2], 128);
	assert_int_equal(mi.page_bytes, 2 << 20);
	assert_int_equal(numa_maps_parse(text, 0x7f3000000000, 0x7f3000000001, &mi), 0);
	assert_string_equal(mi.policy, "weighted interleave:0-1");
	assert_int_equal(numa_maps_parse(text, 0x7ffc00000000, 0x7ffc00000001, &mi), 0);
	assert_string_equal(mi.policy, "default");
	assert_int_equal(mi.pages[0], 33);
	assert_int_equal(numa_maps_parse(text, 0x1000, 0x2000, &mi), -1);
	free(text);
}

/* A process's bytes per node: each entry's counts times its own page size
 * (2 MiB hugetlb pages count one each). */
static void test_node_bytes(void **state)
{
	char *text = read_file_str("tests/data/numa_maps.txt", NULL);
	uint64_t b[NUMA_MAX_NODES];
	assert_non_null(text);
	numa_maps_node_bytes(text, b);
	assert_int_equal(b[0], (2 + 262144 + 512 + 4 + 33) * 4096ull);
	assert_int_equal(b[1], 512 * 4096ull + 384 * (2ull << 20) + 4 * 4096ull);
	assert_int_equal(b[2], 128 * (2ull << 20));
	assert_int_equal(b[3], 0);
	numa_maps_node_bytes("", b);
	assert_int_equal(b[0], 0);
	numa_maps_node_bytes("7f00 default anon=1 N0=x Nz=3 N70=5 kernelpagesize_kB=4\n", b);
	assert_int_equal(b[0], 0); /* malformed counts are skipped, node 70 is out of range */
	free(text);
}

/* Live: bind a fresh mapping to node 0 (every machine has one), touch it,
 * and read the placement back both ways. */
static void test_live_bind(void **state)
{
	size_t len = 8 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct numa_maps_info mi;
	uint64_t per[NUMA_MAX_NODES], n, absent;
	assert_true(p != MAP_FAILED);
	assert_int_equal(numa_policy_apply(p, len, NUMA_POLICY_BIND, 1), 0);
	assert_int_equal(numa_policy_apply(p, len, NUMA_POLICY_PREFERRED, 3), -1); /* one node */
	memset(p, 1, len);
	assert_int_equal(numa_maps_range(p, len, &mi), 0);
	assert_string_equal(mi.policy, "bind:0");
	assert_true(mi.pages[0] > 0);
	assert_int_equal(numa_pages_where(p, len, 64, per, &n, &absent), 0);
	assert_int_equal(n, 64);
	assert_int_equal(per[0], 64);
	assert_int_equal(absent, 0);
	munmap(p, len);
	assert_int_equal(numa_policy_set_task(NUMA_POLICY_PREFERRED, 1), 0);
	assert_int_equal(numa_policy_set_task(NUMA_POLICY_NONE, 0), 0);
	assert_string_equal(numa_policy_name(NUMA_POLICY_PREFERRED_MANY), "preferred-many");
	assert_string_equal(numa_policy_name(NUMA_POLICY_WEIGHTED), "weighted-interleave");
	assert_null(numa_policy_missing(NUMA_POLICY_BIND));
	/* weighted interleave: present exactly when its sysfs weights are */
	if (access("/sys/kernel/mm/mempolicy/weighted_interleave", F_OK) == 0)
		assert_null(numa_policy_missing(NUMA_POLICY_WEIGHTED));
	else
		assert_non_null(strstr(numa_policy_missing(NUMA_POLICY_WEIGHTED), "6.9"));
}

/* Pages sampled over an interleaved range find every node: a fixed stride
 * that is a multiple of the node count would find one (one node here: the
 * sample is spread over the range, all of it present). */
static void test_sample_spread(void **state)
{
	size_t len = 6 * 1024 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t per[NUMA_MAX_NODES], n, absent;
	assert_true(p != MAP_FAILED);
	/* only the odd pages touched: a stride of 6 would sample none of them */
	for (size_t i = 1; i < len / 4096; i += 2)
		p[i * 4096] = 1;
	assert_int_equal(numa_pages_where(p, len, 1024, per, &n, &absent), 0);
	assert_int_equal(n, 1024);
	assert_true(absent > 1024 / 4 && absent < 1024 * 3 / 4);
	munmap(p, len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),	      cmocka_unit_test(test_one_node),
		cmocka_unit_test(test_two_sockets),   cmocka_unit_test(test_cxl),
		cmocka_unit_test(test_odd_tree),      cmocka_unit_test(test_numa_maps),
		cmocka_unit_test(test_live_bind),     cmocka_unit_test(test_node_bytes),
		cmocka_unit_test(test_sample_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
