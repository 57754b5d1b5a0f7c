/* test_counters.c - the counters layer (machine/counters.h): /proc/interrupts
 * parsed on text recorded on the dev VM (tests/data/counters/interrupts-vm.txt)
 * and on a GPU host's shape written in the kernel's format
 * (interrupts-gpu.txt: device lines nvidia and nvidia-uvm); which vmstat
 * names are kept; and a window's deltas attached to its sample, or the
 * sample unmarked when its window was not read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/kv.h"
#include "base/util.h"
#include "machine/counters.h"
#include "machine/tracecount.h"

static void parse(const char *path, const char *devices, struct kv_list *l)
{
	char *text = read_file_str(path, NULL);
	assert_non_null(text);
	assert_int_equal(counters_parse_interrupts(text, devices, l), 0);
	free(text);
}

static void test_interrupts_vm(void **state)
{
	struct kv_list l;
	int found = -1;
	parse("tests/data/counters/interrupts-vm.txt", COUNTERS_IRQ_DEVICES, &l);
	assert_int_equal(kv_get(&l, "TLB", &found), 47261 + 43883);
	assert_int_equal(found, 1);
	assert_int_equal(kv_get(&l, "CAL", NULL), 262994 + 206941);
	kv_get(&l, "ERR", &found); /* one count, not one a CPU */
	assert_int_equal(found, 1);
	kv_get(&l, "24:ACPI:Ged", &found); /* a device line not named: not kept */
	assert_int_equal(found, 0);
	kv_free(&l);
	parse("tests/data/counters/interrupts-vm.txt", "virtio1", &l);
	assert_int_equal(kv_get(&l, "36:virtio1-req.0", &found), 356494);
	assert_int_equal(found, 1);
	kv_get(&l, "38:virtio2-input.0", &found);
	assert_int_equal(found, 0);
	kv_free(&l);
}

static void test_interrupts_gpu(void **state)
{
	struct kv_list l;
	int found = -1;
	parse("tests/data/counters/interrupts-gpu.txt", COUNTERS_IRQ_DEVICES, &l);
	assert_int_equal(kv_get(&l, "343:nvidia", &found), 1200 + 34 + 4095);
	assert_int_equal(found, 1);
	assert_int_equal(kv_get(&l, "344:nvidia-uvm", NULL), 7);
	assert_int_equal(kv_get(&l, "NMI", NULL), 10); /* leading blank */
	assert_int_equal(kv_get(&l, "TLB", NULL), 1000);
	kv_get(&l, "345:nvme0q0", &found);
	assert_int_equal(found, 0);
	kv_get(&l, "0:timer", &found);
	assert_int_equal(found, 0);
	kv_free(&l);
	/* no CPU header: not /proc/interrupts */
	assert_int_equal(counters_parse_interrupts("TLB: 1 2\n", "", &l), -1);
	assert_int_equal(counters_parse_interrupts(NULL, "", &l), -1);
	assert_int_equal(counters_parse_interrupts("", "", &l), -1);
}

static void test_vmstat_kept(void **state)
{
	assert_true(counters_vmstat_kept("thp_fault_alloc"));
	assert_true(counters_vmstat_kept("pgfault"));
	assert_true(counters_vmstat_kept("pgmajfault"));
	assert_true(counters_vmstat_kept("numa_hit"));
	assert_true(counters_vmstat_kept("pgmigrate_success"));
	assert_true(counters_vmstat_kept("pgdemote_kswapd"));
	assert_true(counters_vmstat_kept("compact_stall"));
	assert_false(counters_vmstat_kept("pgfault_extra")); /* a name, not a prefix */
	assert_false(counters_vmstat_kept("nr_free_pages"));
	assert_false(counters_vmstat_kept("pgfree"));
	assert_string_equal(tracecount_tlb_reason(1), "remote_shootdown");
	assert_null(tracecount_tlb_reason(5));
}

/* A live window (metric_add_sample after a warm-up) gets its deltas; a
 * window given by times the clock did not hand out is unmarked. */
static void test_attach(void **state)
{
	struct probe_result p;
	struct metric *m;
	json_t *moved, *pf;
	size_t pages = 256;
	char *buf;

	probe_result_init(&p, "t");
	counters_open(0);
	m = probe_add_metric(&p, "x", UNIT_COUNT, BETTER_NONE, "d", NULL);
	metric_add_warmup(m, 1);
	buf = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	for (size_t i = 0; i < pages; i++)
		buf[i * 4096] = 1;
	metric_add_sample(m, 2);
	metric_add_sample_at(m, 3, 1.0, 2.0); /* not the clock's */
	counters_attach(&p);
	counters_close();
	munmap(buf, pages * 4096);
	assert_non_null(p.counter_sources);
	assert_int_equal(json_array_size(p.counter_sources), 9); /* 8 and the readings */
	assert_non_null(m->counters);
	moved = json_object_get(m->counters, "moved");
	assert_non_null(moved);
	assert_int_equal(json_array_size(json_object_get(m->counters, "unmarked")), 1);
	assert_int_equal(
		json_integer_value(json_array_get(json_object_get(m->counters, "unmarked"), 0)), 1);
	pf = json_object_get(moved, "sw:page-faults");
	if (!strcmp(json_string_value(
			    json_object_get(json_array_get(p.counter_sources, 3), "state")),
		    "ok")) {
		assert_non_null(pf);
		assert_true(json_integer_value(json_array_get(pf, 0)) >= (json_int_t)pages);
		assert_true(json_is_null(json_array_get(pf, 1)));
	}
	/* the hardware source: counted, or why not, never absent */
	{
		json_t *hw = json_array_get(p.counter_sources, 5);
		assert_string_equal(json_string_value(json_object_get(hw, "source")), "hardware");
		if (strcmp(json_string_value(json_object_get(hw, "state")), "ok"))
			assert_non_null(json_object_get(hw, "why"));
	}
	{ /* not a GPU probe: neither GPU source is read, each says so */
		json_t *gpu = json_array_get(p.counter_sources, 6),
		       *cupti = json_array_get(p.counter_sources, 7);
		assert_string_equal(json_string_value(json_object_get(cupti, "source")), "cupti");
		assert_string_equal(json_string_value(json_object_get(gpu, "why")),
				    "not a GPU probe");
		assert_string_equal(json_string_value(json_object_get(cupti, "why")),
				    "not a GPU probe");
	}
	probe_result_clear(&p);
}

/* A probe of unified memory: the cupti source is read, or says why not
 * (built without CUDA, no GPU, no libcupti, CUPTI's error), never absent. */
static void test_um_source(void **state)
{
	struct probe_result p;
	struct metric *m;
	json_t *cupti;

	probe_result_init(&p, "t");
	counters_open(COUNTERS_GPU | COUNTERS_UM);
	m = probe_add_metric(&p, "x", UNIT_COUNT, BETTER_NONE, "d", NULL);
	metric_add_warmup(m, 1);
	metric_add_sample(m, 2);
	counters_attach(&p);
	counters_close();
	cupti = json_array_get(p.counter_sources, 7);
	assert_string_equal(json_string_value(json_object_get(cupti, "source")), "cupti");
	if (strcmp(json_string_value(json_object_get(cupti, "state")), "ok")) {
		const char *why = json_string_value(json_object_get(cupti, "why"));
		assert_non_null(why);
		assert_true(strlen(why) > 0);
		assert_null(strstr(why, "not a"));
	}
	probe_result_clear(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interrupts_vm), cmocka_unit_test(test_interrupts_gpu),
		cmocka_unit_test(test_vmstat_kept),   cmocka_unit_test(test_attach),
		cmocka_unit_test(test_um_source),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
