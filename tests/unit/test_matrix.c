/* test_matrix.c - the src x dst pivot (report/matrix.c): synthetic probe
 * results for 2, 4 and 8 GPUs (missing pairs, id order, labels that split
 * tables), and the Markdown and text writers on a 2-GPU result and on the
 * 4- and 8-GPU fixtures (tests/data/p2p-*gpu.json). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/matrix.h"
#include "results/results_json.h"

#define EPS 1e-9

/* One cell: metric `name` labelled k1=v1 (if k1) and src/dst, samples x[0..n). */
static void cell(struct probe_result *p, const char *name, const char *k1, const char *v1,
		 const char *src, const char *dst, const double *x, size_t n)
{
	struct metric *m = k1 ? probe_add_metric(p, name, UNIT_GB_S, BETTER_HIGHER, NULL, k1, v1,
						 "src", src, "dst", dst, NULL)
			      : probe_add_metric(p, name, UNIT_GB_S, BETTER_HIGHER, NULL, "src",
						 src, "dst", dst, NULL);

	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, x[i]);
}

static void cell1(struct probe_result *p, const char *name, const char *src, const char *dst,
		  double v)
{
	cell(p, name, "engine", "ce", src, dst, &v, 1);
}

static char *capture_md(const struct matrix_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	matrix_write_md(t, f);
	fclose(f);
	return buf;
}

static char *capture_text(const struct matrix_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	matrix_write_text(t, "   ", f);
	fclose(f);
	return buf;
}

static void two_gpu_result(struct probe_result *p)
{
	static const double a[] = {394.0, 394.2, 394.4}, b[] = {396.1, 396.1, 396.1};
	struct metric *m;

	probe_result_init(p, "gpu.p2p");
	m = probe_add_metric(p, "sm_clock", UNIT_MHZ, BETTER_NONE, NULL, "during", "probe", NULL);
	metric_add_sample(m, 1980);
	cell(p, "p2p_bw", "mode", "write", "0", "1", a, 3);
	cell(p, "p2p_bw", "mode", "write", "1", "0", b, 3);
}

static void test_two_gpus(void **state)
{
	struct probe_result p;
	struct matrix_set s;
	const struct matrix_table *t;
	char *md, *text;

	two_gpu_result(&p);
	matrix_build(&p, &s);
	assert_int_equal(s.n, 1);
	t = &s.tables[0];
	assert_string_equal(t->name, "p2p_bw");
	assert_string_equal(t->labels, "mode=write");
	assert_int_equal(t->unit, UNIT_GB_S);
	assert_int_equal(t->n, 2);
	assert_string_equal(t->ids[0], "0");
	assert_string_equal(t->ids[1], "1");
	assert_true(isnan(t->median[0]) && isnan(t->median[3]));
	assert_float_equal(t->median[1], 394.2, EPS);
	assert_float_equal(t->median[2], 396.1, EPS);
	assert_int_equal(t->n_cells, 2);
	assert_int_equal(t->min_samples, 3);
	assert_int_equal(t->max_samples, 3);
	assert_false(matrix_is_cell(&p.metrics[0]));
	assert_true(matrix_is_cell(&p.metrics[1]));

	md = capture_md(t);
	assert_string_equal(md, "\n**p2p_bw** mode=write (GB/s; median of 3 samples, CoV max 0.1%);"
				" rows src, columns dst\n\n"
				"| D\\D | 0 | 1 |\n"
				"|---|---:|---:|\n"
				"| 0 | - | 394.2 |\n"
				"| 1 | 396.1 | - |\n");
	text = capture_text(t);
	assert_string_equal(text, "   p2p_bw mode=write (GB/s; median of 3 samples, CoV max 0.1%)\n"
				  "      D\\D      0      1\n"
				  "        0      -  394.2\n"
				  "        1  396.1      -\n");
	free(md);
	free(text);
	matrix_set_free(&s);
	probe_result_clear(&p);
}

/* 4 GPUs, 2->3 and 3->2 never measured, 1->2 recorded without samples; a
 * second table naming fewer GPUs still spans all four. */
static void test_four_gpus_missing(void **state)
{
	struct probe_result p;
	struct matrix_set s;
	const struct matrix_table *t;

	probe_result_init(&p, "gpu.p2p");
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			char a[16], b[16];

			if (i == j || (i == 2 && j == 3) || (i == 3 && j == 2))
				continue;
			snprintf(a, sizeof(a), "%d", i);
			snprintf(b, sizeof(b), "%d", j);
			if (i == 1 && j == 2)
				cell(&p, "p2p_bw", "engine", "ce", a, b, NULL, 0);
			else
				cell1(&p, "p2p_bw", a, b, 10.0 * i + j);
		}
	cell1(&p, "p2p_lat", "0", "1", 7); /* names 0 and 1 only: still 4 x 4 */
	matrix_build(&p, &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.tables[1].n, 4);
	assert_int_equal(s.tables[1].n_cells, 1);
	assert_string_equal(s.tables[1].ids[3], "3");
	assert_float_equal(s.tables[1].median[1], 7, EPS);
	assert_true(isnan(s.tables[1].median[3 * 4 + 2]));
	t = &s.tables[0];
	assert_int_equal(t->n, 4);
	assert_int_equal(t->n_cells, 9);
	assert_true(isnan(t->median[2 * 4 + 3]));
	assert_true(isnan(t->median[3 * 4 + 2]));
	assert_true(isnan(t->median[1 * 4 + 2]));
	assert_float_equal(t->median[3 * 4 + 1], 31, EPS);
	assert_float_equal(t->median[0 * 4 + 3], 3, EPS);
	for (int i = 0; i < 4; i++)
		assert_true(isnan(t->median[i * 4 + i]));
	matrix_set_free(&s);
	probe_result_clear(&p);
}

/* 8 GPUs recorded in a shuffled order still come out 0..7, cell by cell. */
static void test_eight_gpus_order(void **state)
{
	static const int order[8] = {5, 2, 7, 0, 3, 6, 1, 4};
	struct probe_result p;
	struct matrix_set s;
	const struct matrix_table *t;

	probe_result_init(&p, "gpu.p2p");
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			char a[16], b[16];

			if (i == j)
				continue;
			snprintf(a, sizeof(a), "%d", order[i]);
			snprintf(b, sizeof(b), "%d", order[j]);
			cell1(&p, "p2p_bw", a, b, 100.0 * order[i] + order[j]);
		}
	matrix_build(&p, &s);
	assert_int_equal(s.n, 1);
	t = &s.tables[0];
	assert_int_equal(t->n, 8);
	assert_int_equal(t->n_cells, 56);
	for (int i = 0; i < 8; i++) {
		char id[16];

		snprintf(id, sizeof(id), "%d", i);
		assert_string_equal(t->ids[i], id);
		for (int j = 0; j < 8; j++)
			if (i != j)
				assert_float_equal(t->median[i * 8 + j], 100.0 * i + j, EPS);
	}
	matrix_set_free(&s);
	probe_result_clear(&p);
}

static void test_id_order(void **state)
{
	struct probe_result p;
	struct matrix_set s;
	const struct matrix_table *t;

	assert_true(matrix_id_cmp("2", "10") < 0);
	assert_true(matrix_id_cmp("10", "9") > 0);
	assert_true(matrix_id_cmp("3", "GPU-a") < 0);
	assert_true(matrix_id_cmp("GPU-a", "GPU-b") < 0);
	assert_true(matrix_id_cmp("1x", "1") > 0); /* "1x" is not numeric */
	assert_int_equal(matrix_id_cmp("7", "7"), 0);

	probe_result_init(&p, "x.y");
	cell1(&p, "bw", "GPU-b", "10", 1);
	cell1(&p, "bw", "2", "GPU-a", 2);
	cell1(&p, "bw", "10", "2", 3);
	matrix_build(&p, &s);
	t = &s.tables[0];
	assert_int_equal(t->n, 4);
	assert_string_equal(t->ids[0], "2");
	assert_string_equal(t->ids[1], "10");
	assert_string_equal(t->ids[2], "GPU-a");
	assert_string_equal(t->ids[3], "GPU-b");
	assert_float_equal(t->median[3 * 4 + 1], 1, EPS); /* GPU-b -> 10 */
	assert_float_equal(t->median[0 * 4 + 2], 2, EPS); /* 2 -> GPU-a */
	assert_float_equal(t->median[1 * 4 + 0], 3, EPS); /* 10 -> 2 */
	matrix_set_free(&s);
	probe_result_clear(&p);
}

/* Other labels split tables; their order does not; unit splits; a metric
 * with src alone stays a row; the first of two metrics for one cell counts. */
static void test_labels_split(void **state)
{
	static const double one = 1, two = 2;
	struct probe_result p;
	struct matrix_set s;
	struct metric *m;

	probe_result_init(&p, "gpu.p2p");
	cell(&p, "p2p_bw", "engine", "ce", "0", "1", &one, 1);
	cell(&p, "p2p_bw", "engine", "sm", "0", "1", &two, 1);
	m = probe_add_metric(&p, "p2p_bw", UNIT_GB_S, BETTER_HIGHER, NULL, "engine", "ce", "part",
			     "sum", "src", "1", "dst", "0", NULL);
	metric_add_sample(m, 3);
	m = probe_add_metric(&p, "p2p_bw", UNIT_GB_S, BETTER_HIGHER, NULL, "dst", "1", "part",
			     "sum", "src", "0", "engine", "ce", NULL);
	metric_add_sample(m, 4);
	m = probe_add_metric(&p, "p2p_bw", UNIT_GIB_S, BETTER_HIGHER, NULL, "engine", "ce", "src",
			     "0", "dst", "1", NULL);
	metric_add_sample(m, 5);
	m = probe_add_metric(&p, "p2p_bw", UNIT_GB_S, BETTER_HIGHER, NULL, "engine", "ce", "src",
			     "0", NULL);
	metric_add_sample(m, 6);
	cell(&p, "p2p_bw", "engine", "ce", "0", "1", &two, 1); /* duplicate of the first */
	matrix_build(&p, &s);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.tables[0].labels, "engine=ce");
	assert_float_equal(s.tables[0].median[1], 1, EPS);
	assert_int_equal(s.tables[0].n_cells, 1);
	assert_string_equal(s.tables[1].labels, "engine=sm");
	assert_string_equal(s.tables[2].labels, "engine=ce,part=sum");
	assert_int_equal(s.tables[2].n_cells, 2);
	assert_float_equal(s.tables[2].median[1 * 2 + 0], 3, EPS);
	assert_float_equal(s.tables[2].median[0 * 2 + 1], 4, EPS);
	assert_int_equal(s.tables[3].unit, UNIT_GIB_S);
	assert_false(matrix_is_cell(&p.metrics[5]));
	matrix_set_free(&s);
	probe_result_clear(&p);

	probe_result_init(&p, "cpu.stream"); /* no cells: no tables */
	m = probe_add_metric(&p, "copy_bw", UNIT_GB_S, BETTER_HIGHER, NULL, "threads", "1", NULL);
	metric_add_sample(m, 20);
	matrix_build(&p, &s);
	assert_int_equal(s.n, 0);
	matrix_set_free(&s);
	probe_result_clear(&p);
}

static const struct probe_result *probe_of(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->n_probes; i++)
		if (strcmp(r->probes[i].name, name) == 0)
			return &r->probes[i];
	return NULL;
}

static void test_fixture_4gpu_md(void **state)
{
	struct run *r = run_read_file("tests/data/p2p-4gpu.json");
	const struct probe_result *p;
	struct matrix_set s;
	char *md;

	assert_non_null(r);
	p = probe_of(r, "gpu.p2p");
	assert_non_null(p);
	matrix_build(p, &s);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.tables[0].name, "can_access_peer");
	md = capture_md(&s.tables[1]);
	assert_string_equal(md, "\n**p2p_bw** engine=ce,peer=enabled,mode=write (GB/s; median of 3 "
				"samples, CoV max 0.2%); rows src, columns dst\n\n"
				"| D\\D | 0 | 1 | 2 | 3 |\n"
				"|---|---:|---:|---:|---:|\n"
				"| 0 | - | 24.61 | 11.92 | 11.88 |\n"
				"| 1 | 24.57 | - | 11.90 | 11.87 |\n"
				"| 2 | 11.93 | 11.89 | - | 24.64 |\n"
				"| 3 | 11.90 | 11.86 | 24.60 | - |\n");
	free(md);
	md = capture_md(&s.tables[2]); /* staged: 2->3, 3->2 not measured */
	assert_non_null(strstr(md, "| 2 | 6.04 | 6.01 | - | - |\n| 3 | 6.02 | 6.01 | - | - |\n"));
	assert_int_equal(s.tables[2].n_cells, 10);
	free(md);
	md = capture_md(&s.tables[0]);
	assert_non_null(strstr(md, "(count; one sample each)"));
	assert_non_null(strstr(md, "| 2 | 1 | 1 | - | 1 |\n"));
	free(md);
	matrix_set_free(&s);
	run_free(r);
}

static void test_fixture_8gpu(void **state)
{
	struct run *r = run_read_file("tests/data/p2p-8gpu.json");
	const struct probe_result *p;
	struct matrix_set s;
	char *text;

	assert_non_null(r);
	p = probe_of(r, "gpu.p2p");
	assert_non_null(p);
	matrix_build(p, &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.tables[0].n, 8);
	assert_int_equal(s.tables[0].n_cells, 55);
	assert_true(isnan(s.tables[0].median[7 * 8 + 0]));
	assert_float_equal(s.tables[0].median[6 * 8 + 5], 396.5, 1e-6);
	assert_string_equal(s.tables[1].name, "p2p_copy_latency");
	assert_int_equal(s.tables[1].unit, UNIT_US);
	assert_true(isnan(s.tables[1].median[3 * 8 + 5]));
	text = capture_text(&s.tables[1]);
	assert_non_null(strstr(
		text, "      D\\D      0      1      2      3      4      5      6      7\n"));
	assert_non_null(strstr(
		text, "        3   1.83   1.83   1.83      -   1.83      -   1.84   1.84\n"));
	free(text);
	matrix_set_free(&s);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_gpus),	 cmocka_unit_test(test_four_gpus_missing),
		cmocka_unit_test(test_eight_gpus_order), cmocka_unit_test(test_id_order),
		cmocka_unit_test(test_labels_split),	 cmocka_unit_test(test_fixture_4gpu_md),
		cmocka_unit_test(test_fixture_8gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
