/* test_history.c - the history database: machine kinds, runs in and out,
 * the same run kept once, trends, baselines, and the schema's migrations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/results_json.h"
#include "store/history.h"

static char dir[] = "/tmp/mempath-test-history.XXXXXX";

static char *db_path(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static struct run *make_run(const char *label, const char *start, double v)
{
	struct run *r = run_new();
	struct probe_result *p = run_add_probe(r, "cpu.x");
	struct metric *m;

	r->label = strdup(label);
	r->start_time = strdup(start);
	r->complete = 1;
	r->host = json_pack("{s:s, s:{s:s, s:i}, s:{s:I}}", "hostname", "box", "cpu", "model",
			    "Some CPU", "logical_cpus", 8, "memory", "MemTotal",
			    (json_int_t)(31.8 * 1073741824.0));
	p->status = STATUS_OK;
	for (int k = 0; k < 2; k++) {
		m = probe_add_metric(p, "bw", UNIT_GB_S, BETTER_HIGHER, "bytes", "threads",
				     k ? "2" : "1", NULL);
		for (int i = 0; i < 10; i++)
			metric_add_sample(m, v * (k + 1) + 0.01 * i);
	}
	return r;
}

static void test_kind(void **state)
{
	json_t *host =
		json_loads("{\"cpu\": {\"model\": \"AMD EPYC\", \"logical_cpus\": 2},"
			   " \"memory\": {\"MemTotal\": 25276514304},"
			   " \"gpu\": {\"devices\": [{\"name\": \"H200\"}, {\"name\": \"H200\"},"
			   " {\"name\": \"L4\"}]}}",
			   0, NULL);
	char *k = history_kind(host);

	assert_string_equal(k, "AMD EPYC | 2 CPUs | 24 GiB | 2x H200 | 1x L4");
	free(k);
	json_decref(host);
	k = history_kind(NULL); /* nothing known: said so, never guessed */
	assert_string_equal(k, "? | ? CPUs | ? GiB");
	free(k);
}

static void test_runs(void **state)
{
	enum history_err err;
	struct history *h = history_open(db_path("a.db"), 1, &err);
	struct run *a = make_run("stock", "2026-11-30T00:00:01Z", 10);
	struct run *b = make_run("patched", "2026-11-30T00:00:02Z", 12), *back;
	struct history_point *p;
	struct history_run *v;
	char *unit, *better;
	size_t n;
	int dup;

	assert_non_null(h);
	assert_int_equal(history_add(h, a, "a.json", NULL, &dup), 1);
	assert_false(dup);
	assert_int_equal(history_add(h, b, "b.json", NULL, &dup), 2);
	assert_int_equal(history_add(h, a, "again.json", NULL, &dup), 1); /* the same run */
	assert_true(dup);
	back = history_get(h, 2);
	assert_non_null(back);
	assert_string_equal(back->label, "patched");
	assert_int_equal(back->probes[0].metrics[0].n_samples, 10);
	run_free(back);
	assert_null(history_get(h, 9));
	/* trend: one series per label set, in time order; --limit keeps the newest */
	assert_int_equal(
		history_trend(h, "cpu.x", "bw", "threads=1", NULL, NULL, 0, &p, &n, &unit, &better),
		0);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].run_id, 1);
	assert_true(p[1].median > 12 && p[1].median < 12.1);
	assert_string_equal(unit, "GB/s");
	assert_string_equal(better, "higher");
	history_points_free(p, n);
	free(unit);
	free(better);
	assert_int_equal(
		history_trend(h, "cpu.x", "bw", "threads=*", NULL, NULL, 1, &p, &n, &unit, &better),
		0);
	assert_int_equal(n, 2); /* the newest of each of two series */
	assert_int_equal(p[0].run_id, 2);
	assert_int_equal(p[1].run_id, 2);
	history_points_free(p, n);
	free(unit);
	free(better);
	/* baselines: by kind, replaced by the next bless */
	assert_int_equal(history_baseline(h, "Some CPU | 8 CPUs | 32 GiB"), 0);
	assert_int_equal(history_bless(h, 1, NULL), 0);
	assert_int_equal(history_baseline(h, "Some CPU | 8 CPUs | 32 GiB"), 1);
	assert_int_equal(history_bless(h, 2, NULL), 0);
	assert_int_equal(history_baseline(h, "Some CPU | 8 CPUs | 32 GiB"), 2);
	assert_int_equal(history_bless(h, 7, NULL), -1);
	assert_int_equal(history_list(h, NULL, NULL, 1, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, 2); /* the newest */
	assert_true(v[0].blessed);
	history_runs_free(v, n);
	history_close(h);
	run_free(a);
	run_free(b);
}

/* A history of version 1 (before kinds and baselines) with a run in it is
 * migrated on open: the kind computed from the kept fingerprint. */
static void test_migration(void **state)
{
	sqlite3 *db;
	enum history_err err;
	struct history *h;
	struct history_run *v;
	size_t n;
	char sql[512];

	assert_int_equal(sqlite3_open(db_path("v1.db"), &db), SQLITE_OK);
	assert_int_equal(history_migrate_to(db, 1, "v1.db"), 0);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO runs (digest, added, start_time, host, complete, n_probes,"
		 " n_metrics, doc) VALUES ('d1', 'now', '2026-01-01T00:00:00Z', 'old', 1, 0, 0,"
		 " '{\"host\": {\"cpu\": {\"model\": \"Old CPU\", \"logical_cpus\": 4}}}')");
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	h = history_open(db_path("v1.db"), 1, &err);
	assert_non_null(h);
	assert_int_equal(history_list(h, "Old CPU | 4 CPUs | ? GiB", NULL, 0, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].host, "old");
	history_runs_free(v, n);
	assert_int_equal(history_bless(h, 1, NULL), 0); /* the baselines table is there */
	history_close(h);
	/* a newer schema than this build knows is refused, not touched */
	assert_int_equal(sqlite3_open(db_path("v1.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_null(history_open(db_path("v1.db"), 1, &err));
	assert_int_equal(err, HISTORY_BAD_FILE);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_migration),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
