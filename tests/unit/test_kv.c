/* test_kv.c - /proc/vmstat and /proc/meminfo parsed by name, on fixtures
 * copied from a real machine (tests/data/vmstat.txt, meminfo.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>

#include "base/kv.h"
#include "base/util.h"

static void parse_fixture(const char *path, int meminfo, struct kv_list *l)
{
	char *text = read_file_str(path, NULL);
	assert_non_null(text);
	assert_int_equal(meminfo ? kv_parse_meminfo(text, l) : kv_parse_vmstat(text, l), 0);
	free(text);
}

static void test_vmstat(void **state)
{
	struct kv_list l;
	int found = -1;
	parse_fixture("tests/data/vmstat.txt", 0, &l);
	assert_int_equal(l.n, 24); /* one entry per line */
	assert_int_equal(kv_get(&l, "nr_free_pages", &found), 1321692);
	assert_int_equal(found, 1);
	assert_int_equal(kv_get(&l, "thp_fault_alloc", &found), 8646);
	assert_int_equal(kv_get(&l, "pgmajfault", &found), 1191);
	assert_int_equal(kv_get(&l, "thp_zero_page_alloc", &found), 1); /* last line */
	assert_int_equal(kv_get(&l, "pswpin", &found), 0);
	assert_int_equal(found, 1); /* zero is a value, present */
	found = -1;
	assert_int_equal(kv_get(&l, "thp_fault", &found), 0); /* a prefix is not a name */
	assert_int_equal(found, 0);
	kv_get(&l, "pgpromote_success", &found);
	assert_int_equal(found, 0);
	assert_int_equal(kv_get(&l, "nr_free_pages", NULL), 1321692);
	kv_free(&l);
	assert_int_equal(l.n, 0);
}

static void test_meminfo(void **state)
{
	struct kv_list l;
	int found = -1;
	parse_fixture("tests/data/meminfo.txt", 1, &l);
	assert_int_equal(l.n, 31);
	assert_int_equal(kv_get(&l, "MemTotal", &found), INT64_C(24684096) * 1024);
	assert_int_equal(found, 1);
	assert_int_equal(kv_get(&l, "MemAvailable", NULL), INT64_C(24208884) * 1024);
	assert_int_equal(kv_get(&l, "Active(anon)", NULL), INT64_C(1552) * 1024);
	assert_int_equal(kv_get(&l, "AnonHugePages", NULL), INT64_C(8192) * 1024);
	assert_int_equal(kv_get(&l, "Hugepagesize", NULL), INT64_C(2048) * 1024);
	assert_int_equal(kv_get(&l, "DirectMap1G", NULL), INT64_C(25165824) * 1024);
	assert_int_equal(kv_get(&l, "HugePages_Total", &found), 0); /* a count: no kB */
	assert_int_equal(found, 1);
	kv_get(&l, "MemTotal:", &found); /* the colon is not part of the name */
	assert_int_equal(found, 0);
	kv_get(&l, "CmaTotal", &found); /* trimmed out of the fixture: absent */
	assert_int_equal(found, 0);
	kv_free(&l);
}

static void test_odd_lines(void **state)
{
	struct kv_list l;
	int found;
	/* A line without a value is skipped, not filled from the next line; a
	 * last line without '\n' counts; vmstat values never get the kB rule. */
	assert_int_equal(kv_parse_vmstat("a 1\nb\n7 x\nneg -5\n\nc 3 kB\nlast 9", &l), 0);
	assert_int_equal(kv_get(&l, "a", &found), 1);
	kv_get(&l, "b", &found);
	assert_int_equal(found, 0);
	assert_int_equal(kv_get(&l, "neg", &found), -5);
	assert_int_equal(kv_get(&l, "c", &found), 3);
	assert_int_equal(kv_get(&l, "last", &found), 9);
	assert_int_equal(found, 1);
	kv_free(&l);
	assert_int_equal(kv_parse_meminfo("X:\t 2 kB\nY: 2 kb\nZ: 2\n", &l), 0);
	assert_int_equal(kv_get(&l, "X", NULL), 2048);
	assert_int_equal(kv_get(&l, "Z", NULL), 2);
	kv_free(&l);
	/* Values that do not fit in bytes (or at all) are absent, never wrapped. */
	assert_int_equal(
		kv_parse_meminfo("Big: 9223372036854775807 kB\nNeg: -9223372036854775807 kB\n"
				 "Edge: 9007199254740991 kB\nHuge: 99999999999999999999\n"
				 "Ok: 1 kB\n",
				 &l),
		0);
	kv_get(&l, "Big", &found);
	assert_int_equal(found, 0);
	kv_get(&l, "Neg", &found);
	assert_int_equal(found, 0);
	kv_get(&l, "Huge", &found);
	assert_int_equal(found, 0);
	assert_true(kv_get(&l, "Edge", &found) == INT64_C(9007199254740991) * 1024);
	assert_int_equal(kv_get(&l, "Ok", &found), 1024);
	kv_free(&l);
	assert_int_equal(kv_parse_vmstat("", &l), 0);
	assert_int_equal(l.n, 0);
	kv_free(&l);
	assert_int_equal(kv_parse_vmstat(NULL, &l), -1);
	kv_free(&l);
}

static void test_is_recorded(void **state)
{
	static const char *const yes[] = {
		"thp_fault_alloc",   "pgfault",		"pgmajfault",
		"compact_stall",     "numa_hit",	"pgmigrate_success",
		"pgpromote_success", "pgdemote_kswapd", "pswpin"};
	static const char *const no[] = {"nr_free_pages", "nr_anon_pages", "", "thp",
					 "workingset_refault_anon"};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!vmstat_is_recorded(yes[i]))
			fail_msg("'%s' not recorded", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (vmstat_is_recorded(no[i]))
			fail_msg("'%s' recorded", no[i]);
}

static void test_live(void **state)
{
	struct kv_list l;
	int found;
	/* The real files parse and have the names the fixtures have. */
	assert_int_equal(meminfo_read(&l), 0);
	assert_true(kv_get(&l, "MemTotal", &found) > 0);
	assert_int_equal(found, 1);
	kv_free(&l);
	assert_int_equal(vmstat_read(&l), 0);
	kv_get(&l, "pgfault", &found);
	assert_int_equal(found, 1);
	kv_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat),	  cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_odd_lines), cmocka_unit_test(test_is_recorded),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
