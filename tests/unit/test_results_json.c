/* test_results_json.c - results model <-> JSON: a full round trip in memory
 * and through a file, corrupt files rejected (tests/data/corrupt-*.json), and
 * summaries recomputed on read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/stats.h"
#include "results/results_json.h"

static struct run *make_run(void)
{
	struct run *r = run_new();
	struct probe_result *p;
	struct metric *m;
	static const double bw[] = {10.5, 11.25, 9.75, 0.1, 12.000000000000002, 1e-300, 3e300};
	r->tool_version = strdup("0.1.0");
	r->git_hash = strdup("d8801cb8396e");
	r->argc = 2;
	r->argv = calloc(3, sizeof(char *));
	r->argv[0] = strdup("mempath");
	r->argv[1] = strdup("run");
	r->label = strdup("baseline");
	r->suite = strdup("quick");
	r->start_time = strdup("2026-11-30T03:28:12Z");
	r->end_time = strdup("2026-11-30T03:29:12Z");
	r->host = json_pack("{s:s, s:i}", "kernel", "6.18.44", "numa_nodes", 1);
	r->knobs_start = json_pack("{s:s}", "thp_enabled", "madvise");
	r->knobs_end = json_pack("{s:s}", "thp_enabled", "never");
	r->noise = json_pack("{s:f}", "load_before", 0.25);
	r->interrupted = 1;

	p = run_add_probe(r, "cpu.stream");
	probe_result_add_param(p, "size", "1G");
	probe_result_add_param(p, "pages", "4k,thp");
	m = probe_add_metric(p, "read_bw", UNIT_GB_S, BETTER_HIGHER, "bytes read once, 64 B lines",
			     "threads", "2", "span", "1G", NULL);
	for (size_t i = 0; i < sizeof(bw) / sizeof(bw[0]); i++)
		metric_add_sample(m, bw[i]);
	metric_add_warmup(m, 8.5);
	metric_add_warmup(m, 9.0);
	m = probe_add_metric(p, "latency", UNIT_NS, BETTER_LOWER, NULL, NULL);
	metric_add_sample(m, 95);
	metric_add_sample(m, 97);
	probe_add_counter(p, "thp_fault_alloc", 512);
	probe_add_counter(p, "pgfault", -3);
	probe_add_counter(p, "numa_hit", INT64_C(1) << 40);
	p->extra = json_pack("{s:I, s:[i,i]}", "knee_bytes", (json_int_t)8 << 20, "sizes", 1, 2);
	p->wall_s = 1.5;
	p->user_s = 1.25;
	p->sys_s = 0.125;
	p->max_rss_kib = 1048576;
	p->minflt = 262144;
	p->majflt = 0;

	p = run_add_probe(r, "gpu.copy");
	probe_result_set_status(p, STATUS_SKIP, "no GPU: %s", "nvidia-smi not found");
	return r;
}

static void assert_str_eq_or_null(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_json_eq(json_t *a, json_t *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_true(json_equal(a, b));
}

static void assert_same_run(const struct run *a, const struct run *b)
{
	assert_string_equal(b->schema, RESULTS_SCHEMA);
	assert_str_eq_or_null(a->tool_version, b->tool_version);
	assert_str_eq_or_null(a->git_hash, b->git_hash);
	assert_int_equal(a->argc, b->argc);
	for (size_t i = 0; i < a->argc; i++)
		assert_string_equal(a->argv[i], b->argv[i]);
	assert_str_eq_or_null(a->label, b->label);
	assert_str_eq_or_null(a->suite, b->suite);
	assert_str_eq_or_null(a->start_time, b->start_time);
	assert_str_eq_or_null(a->end_time, b->end_time);
	assert_int_equal(a->interrupted, b->interrupted);
	assert_json_eq(a->host, b->host);
	assert_json_eq(a->knobs_start, b->knobs_start);
	assert_json_eq(a->knobs_end, b->knobs_end);
	assert_json_eq(a->noise, b->noise);
	assert_int_equal(a->n_probes, b->n_probes);
	for (size_t i = 0; i < a->n_probes; i++) {
		const struct probe_result *p = &a->probes[i], *q = &b->probes[i];
		assert_string_equal(p->name, q->name);
		assert_int_equal(p->status, q->status);
		assert_str_eq_or_null(p->reason, q->reason);
		assert_int_equal(p->n_params, q->n_params);
		for (size_t k = 0; k < p->n_params; k++) {
			assert_string_equal(p->params[k].key, q->params[k].key);
			assert_string_equal(p->params[k].value, q->params[k].value);
		}
		assert_int_equal(p->n_counters, q->n_counters);
		for (size_t k = 0; k < p->n_counters; k++) {
			assert_string_equal(p->counters[k].name, q->counters[k].name);
			assert_int_equal(p->counters[k].delta, q->counters[k].delta);
		}
		assert_json_eq(p->extra, q->extra);
		assert_true(p->wall_s == q->wall_s && p->user_s == q->user_s &&
			    p->sys_s == q->sys_s);
		assert_int_equal(p->max_rss_kib, q->max_rss_kib);
		assert_int_equal(p->minflt, q->minflt);
		assert_int_equal(p->majflt, q->majflt);
		assert_int_equal(p->n_metrics, q->n_metrics);
		for (size_t k = 0; k < p->n_metrics; k++) {
			const struct metric *m = &p->metrics[k], *n = &q->metrics[k];
			assert_string_equal(m->name, n->name);
			assert_int_equal(m->unit, n->unit);
			assert_int_equal(m->better, n->better);
			assert_str_eq_or_null(m->desc, n->desc);
			assert_int_equal(m->n_labels, n->n_labels);
			for (size_t l = 0; l < m->n_labels; l++)
				assert_string_equal(metric_label(n, m->labels[l].key),
						    m->labels[l].value);
			assert_int_equal(m->n_samples, n->n_samples);
			for (size_t s = 0; s < m->n_samples; s++)
				assert_true(m->samples[s] == n->samples[s]); /* bit-exact */
			assert_int_equal(m->n_warmups, n->n_warmups);
			for (size_t s = 0; s < m->n_warmups; s++)
				assert_true(m->warmups[s] == n->warmups[s]);
			assert_int_equal(n->summary.n, m->n_samples);
			assert_true(n->summary.median == stats_median(m->samples, m->n_samples));
		}
	}
}

static void test_round_trip_memory(void **state)
{
	struct run *r = make_run(), *back;
	json_t *j = run_to_json(r), *loaded;
	char *text;
	json_error_t err;
	assert_non_null(j);
	text = json_dumps(j, JSON_INDENT(1));
	json_decref(j);
	assert_non_null(text);
	loaded = json_loads(text, JSON_REJECT_DUPLICATES, &err);
	free(text);
	assert_non_null(loaded);
	back = run_from_json(loaded, "memory");
	json_decref(loaded);
	assert_non_null(back);
	assert_same_run(r, back);
	/* Spot checks that do not go through the comparison helper. */
	assert_string_equal(back->probes[0].metrics[0].name, "read_bw");
	assert_string_equal(unit_name(back->probes[0].metrics[0].unit), "GB/s");
	assert_string_equal(metric_label(&back->probes[0].metrics[0], "span"), "1G");
	assert_int_equal(back->probes[1].status, STATUS_SKIP);
	assert_string_equal(back->probes[1].reason, "no GPU: nvidia-smi not found");
	assert_int_equal(back->probes[1].n_metrics, 0);
	assert_null(back->probes[0].reason);
	run_free(r);
	run_free(back);
}

static void test_round_trip_file(void **state)
{
	char dir[] = "/tmp/mempath-test-XXXXXX", path[64];
	struct run *r = make_run(), *back;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	assert_int_equal(run_write_file(r, path), 0);
	back = run_read_file(path);
	assert_non_null(back);
	assert_same_run(r, back);
	/* Overwriting goes through a temporary file too and leaves nothing else. */
	assert_int_equal(run_write_file(back, path), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	run_free(r);
	run_free(back);
	assert_null(run_read_file("tests/data/does-not-exist.json"));
}

static void test_corrupt_files(void **state)
{
	static const char *const named[] = {
		"truncated",
		"schema",
		"status",
		"sample-string",
		"unit",
		"probes-not-array",
		"metrics-missing",
		"better",
		"label-not-string",
		"counter-not-int",
		"samples-missing",
		"name-missing",
		"metric-not-object",
		"duplicate-key",
		"top-array",
	};
	glob_t g;
	char path[128];
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		snprintf(path, sizeof(path), "tests/data/corrupt-%s.json", named[i]);
		assert_int_equal(access(path, R_OK), 0);
	}
	/* Every corrupt-* fixture, including ones added later, must be refused. */
	assert_int_equal(glob("tests/data/corrupt-*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= sizeof(named) / sizeof(named[0]));
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct run *r = run_read_file(g.gl_pathv[i]);
		if (r) {
			run_free(r);
			globfree(&g);
			fail_msg("'%s' was accepted", g.gl_pathv[i]);
		}
	}
	globfree(&g);
}

static void test_summary_recomputed(void **state)
{
	struct run *r = run_read_file("tests/data/summary-wrong.json");
	const struct metric *m;
	assert_non_null(r); /* the base of every corrupt-* fixture is itself valid */
	assert_int_equal(r->n_probes, 1);
	assert_int_equal(r->probes[0].n_metrics, 1);
	m = &r->probes[0].metrics[0];
	assert_int_equal(m->n_samples, 5);
	assert_int_equal(m->summary.n, 5);   /* the file says 2 */
	assert_true(m->summary.median == 3); /* the file says 999 */
	assert_true(m->summary.min == 1);
	assert_true(m->summary.max == 100);
	assert_true(m->summary.median == stats_median(m->samples, m->n_samples));
	assert_int_equal(m->n_warmups, 1);
	assert_int_equal(r->probes[0].counters[0].delta, 512);
	run_free(r);
}

static void test_probe_from_json_bad(void **state)
{
	struct probe_result p;
	json_t *j = json_pack("{s:s, s:s, s:[{s:s, s:s, s:[f, s]}]}", "name", "x", "status", "ok",
			      "metrics", "name", "m", "unit", "ns", "samples", 1.0, "oops");
	assert_non_null(j);
	assert_int_equal(probe_result_from_json(j, &p, "inline"), -1);
	json_decref(j);
	assert_null(run_from_json(NULL, "null"));
}

/* The samples' windows and load (docs/design.md §4.14): a probe measured in
 * a child keeps each sample's window, and its load, through the file; the
 * busy mean skips the unknown; a file whose arrays do not follow the
 * samples is refused. */
static void test_windows(void **state)
{
	struct probe_result p, q;
	struct metric *m;
	json_t *j;
	double top;
	const char *bad[] = {
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"busy\": [0.5]}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"t\": [[0, 1], [1]]}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"wait\": [0.1, \"x\"]}]}",
		/* counters: arrays follow the samples, counts whole and >= 0, unmarked
		 * indices of samples, in order; sources ok or why not */
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"counters\": {\"moved\": {\"a\": [1]}}}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"counters\": {\"moved\": {\"a\": [1, -2]}}}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"counters\": {\"moved\": {\"a\": [1, 0.5]}}}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"counters\": {\"moved\": {}, \"unmarked\": [2]}}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"counters\": {\"moved\": {}, \"unmarked\": [1, "
		"0]}}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"metrics\": [{\"name\": \"m\", \"unit\": "
		"\"ns\", \"samples\": [1, 2], \"counters\": {\"moved\": {}, \"extra\": 1}}]}",
		"{\"name\": \"x\", \"status\": \"ok\", \"counter_sources\": [{\"source\": \"hw\", "
		"\"state\": \"unavailable\"}], \"metrics\": []}",
		"{\"name\": \"x\", \"status\": \"ok\", \"counter_sources\": [{\"source\": \"hw\", "
		"\"state\": \"maybe\", \"why\": \"w\"}], \"metrics\": []}",
		"{\"name\": \"x\", \"status\": \"ok\", \"counter_sources\": {}, \"metrics\": []}",
	};
	probe_result_init(&p, "cpu.first_touch");
	p.timed = 1;
	m = probe_add_metric(&p, "touch_rate", UNIT_GIB_S, BETTER_HIGHER, "d", NULL);
	metric_add_sample(m, 1.0); /* no warm-up before it: its window has no start */
	metric_add_warmup(m, 9.0);
	metric_add_sample(m, 2.0);
	metric_add_sample(m, 3.0);
	assert_non_null(m->t1);
	assert_true(isnan(m->t0[0]));
	assert_true(m->t0[1] <= m->t1[1] && m->t0[2] == m->t1[1]);
	m->busy = calloc(m->cap_samples, sizeof(double));
	m->busy[0] = 1.5;
	m->busy[1] = NAN;
	m->busy[2] = 0.5;
	assert_float_equal(metric_busy_mean(m, &top), 1.0, 1e-12);
	assert_float_equal(top, 1.5, 0);
	m->counters = json_pack("{s:{s:[i,i,i]}}", "moved", "vmstat:thp_fault_alloc", 0, 32, 31);
	p.counter_sources =
		json_pack("[{s:s,s:s},{s:s,s:s,s:s}]", "source", "vmstat", "state", "ok", "source",
			  "hardware", "state", "unavailable", "why", "no PMU");
	j = probe_result_to_json(&p);
	assert_int_equal(probe_result_from_json(j, &q, "windows"), 0);
	assert_int_equal(q.n_metrics, 1);
	assert_true(json_equal(q.metrics[0].counters, m->counters));
	assert_true(json_equal(q.counter_sources, p.counter_sources));
	assert_true(q.timed);
	assert_true(isnan(q.metrics[0].t0[0]));
	assert_float_equal(q.metrics[0].t1[2], m->t1[2], 1e-9);
	assert_true(isnan(q.metrics[0].busy[1]));
	assert_float_equal(q.metrics[0].busy[2], 0.5, 0);
	/* a sample added after reading keeps the arrays in step */
	metric_add_sample(&q.metrics[0], 4.0);
	assert_true(isnan(q.metrics[0].busy[3]));
	assert_int_equal(q.metrics[0].n_samples, 4);
	assert_true(json_is_null(
		json_array_get(json_object_get(json_object_get(q.metrics[0].counters, "moved"),
					       "vmstat:thp_fault_alloc"),
			       3)));
	assert_int_equal(json_integer_value(json_array_get(
				 json_object_get(q.metrics[0].counters, "unmarked"), 0)),
			 3);
	probe_result_clear(&q);
	json_decref(j);
	probe_result_clear(&p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loads(bad[i], 0, NULL);
		assert_non_null(j);
		assert_int_equal(probe_result_from_json(j, &q, "bad windows"), -1);
		json_decref(j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_memory),
		cmocka_unit_test(test_round_trip_file),
		cmocka_unit_test(test_corrupt_files),
		cmocka_unit_test(test_summary_recomputed),
		cmocka_unit_test(test_probe_from_json_bad),
		cmocka_unit_test(test_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
