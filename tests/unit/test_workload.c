/* test_workload.c - what a wrapped workload says about itself (llama-bench
 * JSON and JSONL, JSON lines, name value lines) and the vmstat deltas around
 * it, on fixtures; one iteration recorded into a probe result. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "workload/workload.h"

/* The value with this name, test label (NULL: any) and, when given, the
 * label "k=v" among its others. */
static const struct workload_value *find(const struct workload_values *v, const char *name,
					 const char *test, const char *kv)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct workload_value *x = &v->items[i];
		const char *t = NULL;
		int has_kv = kv == NULL;
		for (size_t k = 0; k < x->n_labels; k++) {
			char buf[256];
			if (!strcmp(x->labels[k].key, "test"))
				t = x->labels[k].value;
			snprintf(buf, sizeof(buf), "%s=%s", x->labels[k].key, x->labels[k].value);
			has_kv |= kv && !strcmp(buf, kv);
		}
		if (!strcmp(x->name, name) && (!test || (t && !strcmp(t, test))) && has_kv)
			return x;
	}
	return NULL;
}

static void test_llama_json(void **state)
{
	char *text = read_file_str("tests/data/llama-bench.json", NULL);
	struct workload_values v = {0};
	const struct workload_value *x;
	assert_non_null(text);
	assert_int_equal(workload_parse_llama(text, &v), 0);
	/* 4 tests; ms_per_token for the 2 that have avg_ns */
	assert_int_equal(v.n, 6);
	/* pp512 twice, n_threads 64 and 32: labelled by llama-bench's column */
	x = find(&v, "tokens_per_s", "pp512", "threads=64");
	assert_non_null(x);
	assert_true(fabs(x->value - 69.31) < 1e-9);
	assert_true(fabs(x->spread - 2.70) < 1e-9);
	assert_int_equal(x->unit, UNIT_TOKENS_S);
	assert_int_equal(x->better, BETTER_HIGHER);
	assert_int_equal(json_array_size(x->reps), 2);
	x = find(&v, "tokens_per_s", "pp512", "threads=32");
	assert_non_null(x);
	assert_true(fabs(x->value - 51.49) < 1e-9);
	assert_null(find(&v, "tokens_per_s", "pp512", "config=1"));
	x = find(&v, "tokens_per_s", "tg128", NULL);
	assert_non_null(x);
	assert_true(fabs(x->value - 4.262) < 1e-9);
	/* avg_ns / n_gen: 30032844000 ns / 128 tokens */
	x = find(&v, "ms_per_token", "tg128", NULL);
	assert_non_null(x);
	assert_true(fabs(x->value - 30032.844 / 128) < 1e-9);
	assert_int_equal(x->better, BETTER_LOWER);
	/* n_prompt and n_gen both set, with a depth. */
	assert_non_null(find(&v, "tokens_per_s", "pp512+tg128@d4096", NULL));
	/* its settings: the same in every test, or the values in order */
	assert_string_equal(json_string_value(json_object_get(v.facts, "build_commit")),
			    "8cf427ff");
	assert_string_equal(json_string_value(json_object_get(v.facts, "n_threads")), "64,32");
	assert_string_equal(json_string_value(json_object_get(v.facts, "use_mmap")), "0");
	assert_string_equal(v.format, "json");
	workload_values_free(&v);
	assert_int_equal(v.n, 0);
	assert_null(v.facts);
	/* auto finds llama-bench first */
	assert_int_equal(workload_parse_output(text, WORKLOAD_PARSE_AUTO, &v),
			 WORKLOAD_PARSE_LLAMA);
	assert_int_equal(v.n, 6);
	workload_values_free(&v);
	free(text);
}

static void test_llama_jsonl(void **state)
{
	char *text = read_file_str("tests/data/llama-bench.jsonl", NULL);
	struct workload_values v = {0};
	const struct workload_value *x;
	assert_non_null(text);
	/* Noise lines and a truncated last object are skipped. */
	assert_int_equal(workload_parse_output(text, WORKLOAD_PARSE_AUTO, &v),
			 WORKLOAD_PARSE_LLAMA);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.format, "jsonl");
	x = find(&v, "tokens_per_s", "tg128", NULL);
	assert_non_null(x);
	assert_true(fabs(x->value - 4.625) < 1e-9);
	workload_values_free(&v);
	/* Not llama-bench output at all. */
	assert_int_equal(workload_parse_llama("hello 1\n[1, 2]\n{\"a\": 1}\n", &v), -1);
	assert_int_equal(workload_parse_llama("", &v), -1);
	assert_int_equal(v.n, 0);
	free(text);
}

static void test_jsonl(void **state)
{
	struct workload_values v = {0};
	const char *text = "starting\n"
			   "{\"name\": \"read_bw\", \"value\": 20.5, \"unit\": \"GB/s\"}\n"
			   "{\"metric\": \"p99\", \"value\": 1.5, \"unit\": \"ms\"}\n"
			   "{\"step\": 3, \"loss\": 0.25, \"tag\": \"x\", \"ok\": true}\n"
			   "{\"step\": 4, \"loss\": 0.20}\n"
			   "{broken\n";
	const struct workload_value *x;
	assert_int_equal(workload_parse_output(text, WORKLOAD_PARSE_AUTO, &v),
			 WORKLOAD_PARSE_JSONL);
	assert_int_equal(v.n, 4); /* read_bw, p99, step, loss: last value wins */
	x = find(&v, "read_bw", NULL, NULL);
	assert_non_null(x);
	assert_int_equal(x->unit, UNIT_GB_S);
	assert_int_equal(x->better, BETTER_HIGHER);
	x = find(&v, "p99", NULL, NULL);
	assert_int_equal(x->unit, UNIT_MS);
	assert_int_equal(x->better, BETTER_LOWER);
	x = find(&v, "loss", NULL, NULL);
	assert_true(fabs(x->value - 0.20) < 1e-12);
	assert_int_equal(x->better, BETTER_NONE);
	workload_values_free(&v);
}

static void test_lines(void **state)
{
	struct workload_values v = {0};
	const char *text = "fake workload starting (call 1)\n"
			   "bandwidth 20.10 GB/s\n"
			   "latency: 90.5 ns\n"
			   "requests=1001\n"
			   "tput 12.5 t/s\r\n"
			   "copy 3 MB/s\n"
			   "this line has too many words 1 2 3\n"
			   "1abc 5\n"
			   "name notanumber\n"
			   "nan_value nan\n"
			   "rate 1e3";
	const struct workload_value *x;
	assert_int_equal(workload_parse_output(text, WORKLOAD_PARSE_AUTO, &v),
			 WORKLOAD_PARSE_LINES);
	assert_int_equal(v.n, 6);
	x = find(&v, "bandwidth", NULL, NULL);
	assert_true(fabs(x->value - 20.1) < 1e-12);
	assert_int_equal(x->unit, UNIT_GB_S);
	x = find(&v, "latency", NULL, NULL);
	assert_non_null(x);
	assert_int_equal(x->better, BETTER_LOWER);
	x = find(&v, "requests", NULL, NULL);
	assert_true(x->value == 1001);
	assert_int_equal(x->unit, UNIT_NONE);
	assert_null(x->unit_text);
	x = find(&v, "tput", NULL, NULL);
	assert_int_equal(x->unit, UNIT_TOKENS_S);
	x = find(&v, "copy", NULL, NULL); /* MB/s is not one of ours: kept as text */
	assert_int_equal(x->unit, UNIT_NONE);
	assert_string_equal(x->unit_text, "MB/s");
	assert_int_equal(x->better, BETTER_HIGHER);
	assert_true(find(&v, "rate", NULL, NULL)->value == 1000);
	workload_values_free(&v);
	/* Forced modes find nothing in the wrong format. */
	assert_int_equal(workload_parse_output(text, WORKLOAD_PARSE_LLAMA, &v),
			 WORKLOAD_PARSE_NONE);
	assert_int_equal(workload_parse_output("no numbers here\n", WORKLOAD_PARSE_AUTO, &v),
			 WORKLOAD_PARSE_NONE);
	assert_int_equal(workload_parse_output(text, WORKLOAD_PARSE_NONE, &v), WORKLOAD_PARSE_NONE);
	assert_int_equal(v.n, 0);
}

static void test_modes(void **state)
{
	enum workload_parse m;
	assert_int_equal(workload_parse_mode("llama-bench", &m), 0);
	assert_int_equal(m, WORKLOAD_PARSE_LLAMA);
	assert_string_equal(workload_parse_name(m), "llama-bench");
	assert_int_equal(workload_parse_mode("lines", &m), 0);
	assert_int_equal(workload_parse_mode("json", &m), -1);
	assert_int_equal(workload_parse_mode("", &m), -1);
}

static void read_kv(const char *path, struct kv_list *l)
{
	char *text = read_file_str(path, NULL);
	assert_non_null(text);
	assert_int_equal(kv_parse_vmstat(text, l), 0);
	free(text);
}

static void test_vmstat_delta(void **state)
{
	struct kv_list b, a, d;
	int found;
	read_kv("tests/data/vmstat-tier-before.txt", &b);
	read_kv("tests/data/vmstat-tier-after.txt", &a);
	vmstat_delta(&b, &a, &d);
	/* The deltas of docs/design.md §10.8's second mode. */
	assert_int_equal(kv_get(&d, "pgpromote_success", &found), 3050000);
	assert_int_equal(kv_get(&d, "pgdemote_kswapd", NULL), 5020000);
	assert_int_equal(kv_get(&d, "numa_hint_faults", NULL), 27770000);
	assert_int_equal(kv_get(&d, "hwhint_total_events", NULL), 34030000);
	assert_int_equal(kv_get(&d, "pghot_recorded_accesses", &found), 0);
	assert_int_equal(found, 1); /* present and unchanged: zero, not absent */
	/* Absent on one side: absent, never zero. */
	kv_get(&d, "pghot_recorded_hwhints", &found);
	assert_int_equal(found, 0);
	kv_get(&d, "pgpromote_new_counter", &found);
	assert_int_equal(found, 0);
	/* Levels are not counters mempath records. */
	kv_get(&d, "nr_free_pages", &found);
	assert_int_equal(found, 0);
	kv_get(&d, "nr_anon_pages", &found);
	assert_int_equal(found, 0);
	assert_true(workload_counter_is_key("pgpromote_success"));
	assert_true(workload_counter_is_key("pghot_recorded_hwhints"));
	assert_true(workload_counter_is_key("hwhint_dram_accesses"));
	assert_false(workload_counter_is_key("pgfault"));
	kv_free(&b);
	kv_free(&a);
	kv_free(&d);
}

static void test_numastat_delta(void **state)
{
	json_t *b = workload_numastat_read("tests/data/sysfs-2socket");
	json_t *a = json_deep_copy(b), *d;
	json_object_set_new(json_object_get(a, "node1"), "numa_hit", json_integer(2500));
	d = workload_numastat_delta(b, a);
	assert_int_equal(json_object_size(b), 2);
	assert_int_equal(
		json_integer_value(json_object_get(json_object_get(d, "node1"), "numa_hit")), 500);
	assert_int_equal(
		json_integer_value(json_object_get(json_object_get(d, "node0"), "numa_hit")), 0);
	json_decref(a);
	json_decref(b);
	json_decref(d);
	b = workload_numastat_read("tests/data/no-such-root");
	assert_int_equal(json_object_size(b), 0);
	json_decref(b);
}

/* One ok iteration and one failed one: samples line up, the failure adds no
 * workload value and keeps its stderr tail. */
static void test_record(void **state)
{
	struct probe_result p;
	struct workload_iter it;
	json_t *iters;
	probe_result_init(&p, "work.wrap");
	memset(&it, 0, sizeof(it));
	it.index = 1;
	it.run.started = 1;
	it.run.status = 0; /* exit 0 */
	it.run.wall_s = 2.0;
	it.run.max_rss_kib = 2048;
	it.parsed_as = workload_parse_output("bandwidth 20 GB/s\n", WORKLOAD_PARSE_AUTO, &it.vals);
	workload_record_iter(&p, &it);
	workload_values_free(&it.vals);
	it.index = 2;
	it.run.status = 3 << 8; /* exit 3 */
	it.run.err_tail = "cannot open model\n";
	workload_record_iter(&p, &it);
	assert_non_null(probe_find_metric(&p, "wall_time", NULL));
	assert_int_equal(probe_find_metric(&p, "wall_time", NULL)->n_samples, 2);
	assert_int_equal(probe_find_metric(&p, "bandwidth", NULL)->n_samples, 1);
	assert_true(probe_find_metric(&p, "max_rss", NULL)->samples[0] == 2.0);
	iters = json_object_get(p.extra, "iterations");
	assert_int_equal(json_array_size(iters), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(iters, 1), "status")),
			    "exit 3");
	assert_string_equal(
		json_string_value(json_object_get(json_array_get(iters, 1), "stderr_tail")),
		"cannot open model\n");
	probe_result_clear(&p);
}

/* GPU memory as the sampler kept it (the readings of the H200 machine's
 * 3 GiB cudaMalloc, issue 31): the command's peak per device, the device's
 * peak and what the run left; where NVML could not say, the reason once. */
static void test_record_gpu(void **state)
{
	struct probe_result p;
	struct workload_iter it;
	struct metric *m;
	probe_result_init(&p, "work.wrap");
	memset(&it, 0, sizeof(it));
	it.index = 1;
	it.run.started = 1;
	it.smp.gpu_why = "NVML not loadable: libnvidia-ml.so.1";
	workload_record_iter(&p, &it);
	it.smp.gpu_why = "another reason";
	workload_record_iter(&p, &it);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(p.extra, "gpu"), "unavailable")),
		"NVML not loadable: libnvidia-ml.so.1"); /* the first, once */
	assert_null(probe_find_metric(&p, "gpu_mem_peak", "device", "0", NULL));
	probe_result_clear(&p);
	probe_result_init(&p, "work.wrap");
	it.smp.gpu_why = NULL;
	it.smp.gpu = json_pack("{s:{s:s, s:I, s:I, s:I, s:I}}", "0", "name", "NVIDIA H200",
			       "procs_peak_bytes", (json_int_t)3590 << 20, "used_peak_bytes",
			       (json_int_t)3599 << 20, "used_before_bytes", (json_int_t)0,
			       "used_after_bytes", (json_int_t)2 << 20);
	it.smp.gpu_n = 9;
	workload_record_iter(&p, &it);
	assert_non_null(m = probe_find_metric(&p, "gpu_mem_peak", "device", "0", NULL));
	assert_true(m->samples[0] == 3590.0);
	assert_non_null(m = probe_find_metric(&p, "gpu_used_peak", "device", "0", NULL));
	assert_true(m->samples[0] == 3599.0);
	assert_non_null(m = probe_find_metric(&p, "gpu_mem_left", "device", "0", NULL));
	assert_true(m->samples[0] == 2.0);
	assert_null(json_object_get(p.extra, "gpu"));
	assert_int_equal(
		json_integer_value(json_object_get(
			json_array_get(json_object_get(p.extra, "iterations"), 0), "gpu_samples")),
		9);
	json_decref(it.smp.gpu);
	probe_result_clear(&p);
}

/* What a hostile or broken workload prints is refused, never cast or kept:
 * a token count of 1e300 (casting it to an integer is undefined) is not a
 * llama-bench test; a field with no name joins nothing. */
static void test_hostile_output(void **state)
{
	struct workload_values v = {0};
	assert_int_equal(
		workload_parse_llama("[{\"avg_ts\":5,\"n_prompt\":1e300,\"n_gen\":0}]", &v), -1);
	assert_int_equal(v.n, 0);
	assert_int_equal(workload_parse_jsonl("{\"a\": 1, \"\": 2.5}\n", &v), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.items[0].name, "a");
	workload_values_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llama_json),     cmocka_unit_test(test_llama_jsonl),
		cmocka_unit_test(test_jsonl),	       cmocka_unit_test(test_lines),
		cmocka_unit_test(test_modes),	       cmocka_unit_test(test_vmstat_delta),
		cmocka_unit_test(test_numastat_delta), cmocka_unit_test(test_record),
		cmocka_unit_test(test_hostile_output), cmocka_unit_test(test_record_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
