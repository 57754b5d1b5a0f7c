/* test_phantom.c - the phantom check's pure parts: levels from meminfo and
 * zoneinfo, settle analysis and the online stop rule on synthetic series,
 * kernel log records, and the default tolerance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/levels.h"
#include "workload/phantom.h"

#define GIB (INT64_C(1) << 30)
#define MIB (INT64_C(1) << 20)

static void test_zoneinfo(void **state)
{
	char *z = read_file_str("tests/data/zoneinfo.txt", NULL);
	assert_non_null(z);
	/* The fixture's pagesets count: lines (3 zones x 2 CPUs) sum to this;
	 * "count:" outside pagesets would not exist, but must not be summed. */
	assert_int_equal(levels_zoneinfo_pcp_pages(z), 64898);
	assert_int_equal(levels_zoneinfo_pcp_pages("Node 0, zone DMA\n  pages free 3\n"), -1);
	assert_int_equal(
		levels_zoneinfo_pcp_pages("Node 0, zone Normal\n  pagesets\n    cpu: 0\n"
					  "              count: 7\n  node_unreclaimable: 0\n"
					  "count: 100\n"),
		7);
	free(z);
}

static void test_levels(void **state)
{
	struct levels l, r[3], m;
	const char *mi = "MemTotal: 1000 kB\nMemFree: 400 kB\nMemAvailable: 600 kB\n"
			 "GPUActive: 20 kB\n";
	levels_parse(mi, "pagesets\n count: 3\n", 4096, &l);
	assert_int_equal(l.mem_available, 600 * 1024);
	assert_int_equal(l.mem_free, 400 * 1024);
	assert_int_equal(l.gpu_active, 20 * 1024);
	assert_int_equal(l.gpu_reclaim, -1); /* absent, never zero */
	assert_int_equal(l.pcp_bytes, 3 * 4096);
	assert_int_equal(levels_returnable(&l), 600 * 1024 + 3 * 4096);
	levels_parse(mi, NULL, 4096, &l);
	assert_int_equal(l.pcp_bytes, -1);
	assert_int_equal(levels_returnable(&l), 600 * 1024);
	/* Median per field, absent fields stay absent. */
	for (int i = 0; i < 3; i++) {
		memset(&r[i], 0xff, sizeof(r[i])); /* -1 everywhere */
		r[i].mem_available = (int64_t[]){5, 9, 7}[i];
	}
	levels_median(r, 3, &m);
	assert_int_equal(m.mem_available, 7);
	assert_int_equal(m.gpu_active, -1);
	assert_int_equal(levels_read(&l, 1), 0);
	assert_true(l.mem_available > 0);
}

/* A series returning after 0.4 s; one that never does (docs/design.md §10.2:
 * 119.2 GiB before, 55.0 GiB after). */
static void test_settle(void **state)
{
	double t[20];
	int64_t v[20], before = 119 * GIB, tol = GIB;
	struct phantom_settle st;
	for (int i = 0; i < 20; i++) {
		t[i] = 0.1 * i;
		v[i] = i < 4 ? before - 40 * GIB + i * 10 * GIB : before - 10 * MIB;
	}
	phantom_settle_analyse(t, v, 20, before, tol, &st);
	assert_true(st.returned);
	assert_int_equal(st.missing, 10 * MIB);
	assert_true(st.return_s > 0.35 && st.return_s < 0.45);
	assert_true(st.stable_s > 0.35 && st.stable_s < 0.45);
	for (int i = 0; i < 20; i++)
		v[i] = before - 64 * GIB + (i < 2 ? 0 : 9 * GIB); /* some came back, 55 stays */
	phantom_settle_analyse(t, v, 20, before, tol, &st);
	assert_false(st.returned);
	assert_true(st.return_s < 0);
	assert_int_equal(st.missing, 55 * GIB);
	assert_true(st.stable_s > 0.15 && st.stable_s < 0.25);
	/* Within tolerance from the first sample: returned at once. */
	for (int i = 0; i < 5; i++)
		v[i] = before + MIB;
	phantom_settle_analyse(t, v, 5, before, tol, &st);
	assert_true(st.returned);
	assert_true(st.return_s == 0);
	assert_true(st.missing < 0);
	phantom_settle_analyse(t, v, 0, before, tol, &st);
	assert_false(st.returned);
}

static void test_settle_done(void **state)
{
	double t[] = {0, 0.1, 0.2, 0.3, 0.4, 0.5};
	int64_t back[] = {0, 100, 100, 100, 100, 100}, dip[] = {100, 100, 100, 0, 100, 100};
	/* Within tolerance (10) of before (100) for the last 0.3 s. */
	assert_false(phantom_settle_done(t, back, 3, 100, 10, 0.3)); /* not 0.3 s in yet */
	assert_false(phantom_settle_done(t, back, 4, 100, 10, 0.3)); /* t=0 is in the window */
	assert_true(phantom_settle_done(t, back, 5, 100, 10, 0.3));
	assert_false(phantom_settle_done(t, dip, 5, 100, 10, 0.3)); /* dip inside the window */
	assert_true(phantom_settle_done(t, dip, 6, 100, 10, 0.15));
	assert_false(phantom_settle_done(t, back, 1, 100, 10, 0));
}

static void test_kmsg(void **state)
{
	int level, fac;
	const char *text;
	assert_int_equal(phantom_kmsg_parse("4,1234,5678901,-;WARNING: CPU: 3 PID: 1 at mm/x.c:1\n",
					    &level, &fac, &text),
			 0);
	assert_int_equal(level, 4);
	assert_int_equal(fac, 0);
	assert_true(phantom_klog_is_bug(text));
	assert_int_equal(phantom_kmsg_parse("14,99,1,-;user message", &level, &fac, &text), 0);
	assert_int_equal(level, 6);
	assert_int_equal(fac, 1); /* user space wrote it */
	assert_int_equal(phantom_kmsg_parse("garbage", &level, &fac, &text), -1);
	assert_int_equal(phantom_kmsg_parse("6,1,2,-no-semicolon", &level, &fac, &text), -1);
	assert_true(phantom_klog_is_bug("NVRM: GPU at PCI:0000:01:00: Xid 31"));
	assert_true(phantom_klog_is_bug("BUG: kernel NULL pointer dereference"));
	assert_false(phantom_klog_is_bug("usb 1-1: new high-speed USB device"));
}

static void test_tolerance(void **state)
{
	assert_int_equal(phantom_tolerance(0, 4 * GIB, 0), 256 * MIB);	    /* floor */
	assert_int_equal(phantom_tolerance(0, 64 * GIB, 0), 64 * GIB / 50); /* 2% */
	assert_int_equal(phantom_tolerance(0, 0, 100 * GIB), 2 * GIB);	    /* of what it used */
	assert_int_equal(phantom_tolerance(GIB, 64 * GIB, 0), GIB);	    /* given */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zoneinfo), cmocka_unit_test(test_levels),
		cmocka_unit_test(test_settle),	 cmocka_unit_test(test_settle_done),
		cmocka_unit_test(test_kmsg),	 cmocka_unit_test(test_tolerance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
