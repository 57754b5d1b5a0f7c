/* test_doctor.c - the known-trap rules on fingerprints: each rule fires on the
 * fact it names, stays quiet when the fact is fine, says n/a or unknown when
 * it does not apply or the fact is missing; the RAM accounting adds up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/doctor.h"
#include "results/results.h"

#define GIB 1073741824LL

static json_t *load(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	assert_non_null(j);
	return j;
}

static const struct doctor_finding *find(const struct doctor_report *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->items[i].id, id) == 0)
			return &r->items[i];
	fail_msg("no finding '%s'", id);
	return NULL;
}

/* Runs the rules on host and returns the level of one of them; *ev gets a copy
 * of its evidence when ev is not NULL. */
static enum doctor_level level_of(json_t *host, const char *id, char **ev)
{
	struct doctor_report r;
	const struct doctor_finding *f;
	enum doctor_level l;
	size_t total = 0;

	assert_int_equal(doctor_check(host, &r), 0);
	for (int i = 0; i < DOCTOR_LEVELS; i++)
		total += r.count[i];
	assert_int_equal(total, r.n);
	f = find(&r, id);
	l = f->level;
	/* a fix is offered exactly when something is to be done */
	if (l == DOCTOR_WARN || l == DOCTOR_INFO)
		assert_non_null(f->fix);
	else
		assert_null(f->fix);
	if (ev)
		*ev = xstrdup(f->evidence);
	doctor_report_free(&r);
	return l;
}

static void set_path(json_t *host, const char *obj, const char *key, json_t *v)
{
	json_t *o = json_object_get(host, obj);
	if (!o) {
		o = json_object();
		json_object_set_new(host, obj, o);
	}
	json_object_set_new(o, key, v);
}

static void test_traps_fixture_fires(void **state)
{
	static const struct {
		const char *id;
		enum doctor_level level;
		const char *evidence; /* a fact the finding must name; NULL: any */
	} want[] = {
		{"thp_mode", DOCTOR_WARN, "enabled=madvise"},
		{"deep_idle", DOCTOR_WARN, "433 us"},
		{"unaccounted_memory", DOCTOR_WARN, "55.00 GiB"},
		{"zone_reclaim", DOCTOR_WARN, "vm.zone_reclaim_mode=1 on 2 nodes"},
		{"cpufreq", DOCTOR_WARN, "acpi-cpufreq"},
		{"gpu_persistence", DOCTOR_WARN, "GPU 0"},
		{"gpu_pcie", DOCTOR_WARN, "x8 of x16"},
		{"thp_defrag", DOCTOR_INFO, "defrag=never"},
		{"numa_balancing", DOCTOR_INFO, NULL},
		{"pcp_free", DOCTOR_INFO, "6.00 GiB"},
		{"gpu_system_memory", DOCTOR_INFO, "uvm_disable_hmm=N"},
		{"busy", DOCTOR_WARN,
		 "1.9 other CPUs busy (cc1plus 1.2, make 0.4) over 0.25 s, of 2"},
		{"virt", DOCTOR_WARN,
		 "under an emulator (QEMU TCG: CPUID 0x40000000 'TCGTCGTCGTCG')"},
	};
	json_t *h = load("tests/data/doctor-traps.json");

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		char *ev = NULL;
		assert_int_equal(level_of(h, want[i].id, &ev), want[i].level);
		if (want[i].evidence && !strstr(ev, want[i].evidence))
			fail_msg("%s: '%s' lacks '%s'", want[i].id, ev, want[i].evidence);
		free(ev);
	}
	json_decref(h);
}

static void test_clean_fixture_quiet(void **state)
{
	json_t *h = load("tests/data/doctor-clean.json");
	struct doctor_report r;
	assert_int_equal(doctor_check(h, &r), 0);
	assert_int_equal(r.count[DOCTOR_WARN], 0);
	assert_int_equal(r.count[DOCTOR_INFO], 0);
	assert_int_equal(r.count[DOCTOR_UNKNOWN], 0);
	doctor_report_free(&r);
	/* the disabled 170 us state does not count, but enabled it does */
	json_integer_set(json_object_get(json_array_get(json_object_get(json_object_get(h, "cpu"),
									"cpuidle_states_cpu0"),
							2),
					 "disabled"),
			 0);
	assert_int_equal(level_of(h, "deep_idle", NULL), DOCTOR_WARN);
	/* powersave is intel_pstate's normal mode, acpi-cpufreq's lowest clock */
	assert_int_equal(level_of(h, "cpufreq", NULL), DOCTOR_OK);
	set_path(h, "cpu", "scaling_driver", json_string("acpi-cpufreq"));
	assert_int_equal(level_of(h, "cpufreq", NULL), DOCTOR_WARN);
	json_decref(h);
}

static void test_mthp_sizes(void **state)
{
	json_t *h = json_object();
	assert_int_equal(level_of(h, "mthp_sizes", NULL), DOCTOR_NA);
	set_path(h, "knobs", "mthp_2048kB_enabled", json_string("inherit"));
	assert_int_equal(level_of(h, "mthp_sizes", NULL), DOCTOR_OK);
	set_path(h, "knobs", "mthp_64kB_enabled", json_string("never"));
	assert_int_equal(level_of(h, "mthp_sizes", NULL), DOCTOR_INFO);
	json_decref(h);
	(void)state;
}

static void test_thp_modes(void **state)
{
	json_t *h = json_object();
	assert_int_equal(level_of(h, "thp_mode", NULL), DOCTOR_UNKNOWN);
	set_path(h, "knobs", "thp_enabled", json_string("always"));
	assert_int_equal(level_of(h, "thp_mode", NULL), DOCTOR_OK);
	set_path(h, "knobs", "thp_enabled", json_string("never"));
	assert_int_equal(level_of(h, "thp_mode", NULL), DOCTOR_WARN);
	set_path(h, "knobs", "thp_defrag", json_string("never"));
	assert_int_equal(level_of(h, "thp_defrag", NULL), DOCTOR_NA); /* THP off */
	set_path(h, "knobs", "thp_enabled", json_string("madvise"));
	assert_int_equal(level_of(h, "thp_defrag", NULL), DOCTOR_INFO);
	set_path(h, "knobs", "thp_defrag", json_string("defer+madvise"));
	assert_int_equal(level_of(h, "thp_defrag", NULL), DOCTOR_OK);
	/* A value no kernel writes (a hostile or damaged file) is not a mode. */
	set_path(h, "knobs", "thp_defrag", json_string(""));
	assert_int_equal(level_of(h, "thp_defrag", NULL), DOCTOR_UNKNOWN);
	set_path(h, "knobs", "thp_enabled", json_string("bogus"));
	assert_int_equal(level_of(h, "thp_mode", NULL), DOCTOR_UNKNOWN);
	set_path(h, "knobs", "thp_enabled", json_string(""));
	assert_int_equal(level_of(h, "thp_mode", NULL), DOCTOR_UNKNOWN);
	json_decref(h);
}

/* The arithmetic on a hand-made /proc/meminfo: every owner subtracted once. */
static void test_unaccounted_sum(void **state)
{
	json_t *m = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "MemTotal", 100 * GIB,
			      "MemFree", 10 * GIB, "Active", 20 * GIB, "Inactive", 5 * GIB, "Slab",
			      2 * GIB, "KernelStack", GIB, "PageTables", GIB);
	int have = -1;
	assert_int_equal(doctor_unaccounted_bytes(m, &have), 61 * GIB);
	assert_int_equal(have, 1);
	/* optional owners, hugetlb from the pool size when Hugetlb is absent,
	 * reclaimable kernel memory beyond slab */
	json_object_set_new(m, "VmallocUsed", json_integer(GIB));
	json_object_set_new(m, "GPUActive", json_integer(30 * GIB));
	json_object_set_new(m, "HugePages_Total", json_integer(1024));
	json_object_set_new(m, "Hugepagesize", json_integer(2 * 1024 * 1024));
	json_object_set_new(m, "SReclaimable", json_integer(GIB));
	json_object_set_new(m, "KReclaimable", json_integer(4 * GIB));
	assert_int_equal(doctor_unaccounted_bytes(m, &have), (61 - 1 - 30 - 2 - 3) * GIB);
	json_object_set_new(m, "Hugetlb", json_integer(4 * GIB)); /* all sizes: preferred */
	assert_int_equal(doctor_unaccounted_bytes(m, &have), (61 - 1 - 30 - 4 - 3) * GIB);
	json_object_set_new(m, "pcp_free_bytes", json_integer(GIB)); /* free, on per-CPU lists */
	assert_int_equal(doctor_unaccounted_bytes(m, &have), (61 - 1 - 30 - 4 - 3 - 1) * GIB);
	json_object_set_new(m, "zfs_arc_bytes", json_integer(8 * GIB)); /* outside meminfo */
	assert_int_equal(doctor_unaccounted_bytes(m, &have), (61 - 1 - 30 - 4 - 3 - 1 - 8) * GIB);
	/* a needed counter missing: no answer rather than a wrong one */
	json_object_del(m, "Active");
	assert_int_equal(doctor_unaccounted_bytes(m, &have), 0);
	assert_int_equal(have, 0);
	json_decref(m);
}

static void test_unaccounted_limits(void **state)
{
	json_t *h = load("tests/data/doctor-clean.json");
	json_t *mem = json_object_get(h, "memory");
	long long free0 = json_integer_value(json_object_get(mem, "MemFree"));
	/* 0.58 GiB unexplained on 64 GiB: fine; 3.58 GiB (5.6%): warn */
	assert_int_equal(level_of(h, "unaccounted_memory", NULL), DOCTOR_OK);
	json_object_set_new(mem, "MemFree", json_integer(free0 - 3 * GIB));
	assert_int_equal(level_of(h, "unaccounted_memory", NULL), DOCTOR_WARN);
	/* 2.08 GiB (3.2%) is over 1 GiB but under 4%: fine */
	json_object_set_new(mem, "MemFree", json_integer(free0 - 3 * GIB / 2));
	assert_int_equal(level_of(h, "unaccounted_memory", NULL), DOCTOR_OK);
	json_object_del(mem, "Slab");
	assert_int_equal(level_of(h, "unaccounted_memory", NULL), DOCTOR_UNKNOWN);
	json_decref(h);
}

static void test_numa_and_gpu_not_applicable(void **state)
{
	json_t *h = json_pack("{s:{s:i}, s:{s:i, s:i}, s:{s:s}}", "numa", "nodes", 1, "knobs",
			      "zone_reclaim_mode", 1, "numa_balancing", 1, "gpu", "unsupported",
			      "no usable CUDA device");
	char *ev = NULL;
	assert_int_equal(level_of(h, "zone_reclaim", NULL), DOCTOR_NA);
	assert_int_equal(level_of(h, "numa_balancing", NULL), DOCTOR_NA);
	assert_int_equal(level_of(h, "gpu_persistence", &ev), DOCTOR_NA);
	assert_non_null(strstr(ev, "no usable CUDA device"));
	free(ev);
	json_object_del(h, "gpu"); /* an older file: the GPU part was never read */
	assert_int_equal(level_of(h, "gpu_pcie", NULL), DOCTOR_UNKNOWN);
	json_decref(h);
}

static void test_gpu_link_generation_only(void **state)
{
	json_t *h = load("tests/data/doctor-clean.json");
	json_t *dev = json_array_get(json_object_get(json_object_get(h, "gpu"), "devices"), 0);
	json_object_set_new(dev, "pcie_link_gen", json_integer(1));
	assert_int_equal(level_of(h, "gpu_pcie", NULL), DOCTOR_INFO); /* may be idle power saving */
	json_object_del(dev, "persistence_mode");
	assert_int_equal(level_of(h, "gpu_persistence", NULL), DOCTOR_UNKNOWN);
	json_decref(h);
}

/* The cost sentence from a probe's result: both medians, the factor the trap
 * costs whichever way is better; a skipped probe or a missing cell says so. */
static void test_cost_read(void **state)
{
	const struct doctor_cost *thp = doctor_cost_of("thp_mode"), *idle;
	struct doctor_finding f = {0};
	struct probe_result res;

	assert_non_null(thp);
	assert_null(doctor_cost_of("hugetlb_reserved"));
	probe_result_init(&res, "cpu.first_touch");
	/* pages=default, pages=thp, and another touch kind that must not be
	 * taken for the write cells */
	for (int k = 0; k < 3; k++) {
		struct metric *m = probe_add_metric(&res, "touch_rate", UNIT_GIB_S, BETTER_HIGHER,
						    "", "pages", k == 0 ? "default" : "thp",
						    "touch", k == 2 ? "read" : "write", NULL);
		for (int i = 0; i < 5; i++)
			metric_add_sample(m, (k == 0 ? 2.0 : k == 1 ? 9.0 : 1.0) + 0.01 * i);
	}
	assert_int_equal(doctor_cost_read(thp, &res, &f), 0);
	if (!strstr(f.measured, "2.02 vs 9.02 GiB/s, 4.5x"))
		fail_msg("thp cost: %s", f.measured);
	probe_result_clear(&res);

	idle = doctor_cost_of("deep_idle");
	assert_non_null(idle);
	probe_result_init(&res, "cpu.wake");
	metric_add_sample(probe_add_metric(&res, "wake_latency", UNIT_NS, BETTER_LOWER, "", "mode",
					   "futex", NULL),
			  30000);
	assert_int_equal(doctor_cost_read(idle, &res, &f), -1); /* no spin cell */
	assert_non_null(strstr(f.measured, "gave no wake_latency"));
	metric_add_sample(probe_add_metric(&res, "wake_latency", UNIT_NS, BETTER_LOWER, "", "mode",
					   "spin", NULL),
			  100);
	assert_int_equal(doctor_cost_read(idle, &res, &f), 0);
	if (!strstr(f.measured, "3e+04 vs 100 ns, 300.0x")) /* lower is better: futex / spin */
		fail_msg("idle cost: %s", f.measured);
	probe_result_set_status(&res, STATUS_SKIP, "needs 2 CPUs, found 1");
	assert_int_equal(doctor_cost_read(idle, &res, &f), -1);
	assert_non_null(strstr(f.measured, "cpu.wake skip: needs 2 CPUs"));
	probe_result_clear(&res);
	free(f.measured);
}

static void test_levels_and_bad_input(void **state)
{
	enum doctor_level l;
	struct doctor_report r;
	json_t *a = json_array();
	for (int i = 0; i < DOCTOR_LEVELS; i++) {
		assert_int_equal(doctor_level_parse(doctor_level_name((enum doctor_level)i), &l),
				 0);
		assert_int_equal(l, i);
	}
	assert_int_equal(doctor_level_parse("fine", &l), -1);
	util_set_quiet(1);
	assert_int_equal(doctor_check(a, &r), -1);
	assert_int_equal(r.n, 0);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_traps_fixture_fires),
		cmocka_unit_test(test_clean_fixture_quiet),
		cmocka_unit_test(test_thp_modes),
		cmocka_unit_test(test_mthp_sizes),
		cmocka_unit_test(test_unaccounted_sum),
		cmocka_unit_test(test_unaccounted_limits),
		cmocka_unit_test(test_numa_and_gpu_not_applicable),
		cmocka_unit_test(test_gpu_link_generation_only),
		cmocka_unit_test(test_cost_read),
		cmocka_unit_test(test_levels_and_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
