/* test_hetero.c - effect heterogeneity over rounds (verdict/hetero.h,
 * docs/design.md §5.10): Cochran's Q on its own, a planted effect that
 * grows under load reported as depending on load with each round's load,
 * and a homogeneous control that is not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "verdict/compare.h"
#include "verdict/compare_json.h"
#include "verdict/hetero.h"

static struct rng gen;

enum { ROUNDS = 6 };

static void test_q(void **state)
{
	/* chi-square's 95% points */
	assert_float_equal(hetero_chi2_upper(3.841459, 1), 0.05, 1e-5);
	assert_float_equal(hetero_chi2_upper(5.991465, 2), 0.05, 1e-5);
	assert_float_equal(hetero_chi2_upper(11.0705, 5), 0.05, 1e-5);
	/* two rounds 0.1 apart in log, each of variance 0.001: Q = 5 on 1 df;
	 * a round of zero variance is skipped */
	const struct hetero_round r[] = {{1, 0.0, 0.001, 0}, {2, 0.1, 0.001, 0}, {3, 5, 0, 0}};
	double q, p;
	size_t df;
	assert_int_equal(hetero_q(r, 3, &q, &df, &p), 0);
	assert_float_equal(q, 5, 1e-9);
	assert_int_equal(df, 1);
	assert_true(p < 0.05 && p > 0.02);
	assert_int_equal(hetero_q(r + 1, 2, &q, &df, &p), -1); /* one round left */
}

/* A round of legs: "rate" (higher is better), 15 samples at 1% around mu,
 * every window with `busy` other CPUs busy. */
static struct run *leg(double mu, double busy)
{
	struct run *r = run_new();
	struct probe_result *p = run_add_probe(r, "t.het");
	struct metric *m = probe_add_metric(p, "rate", UNIT_GIB_S, BETTER_HIGHER, "test", NULL);
	r->knobs_start = json_pack("{s:s}", "thp_enabled", "madvise");
	r->knobs_end = json_pack("{s:s}", "thp_enabled", "madvise");
	for (int i = 0; i < 15; i++) {
		double s = 0;
		for (int k = 0; k < 4; k++)
			s += (double)(rng_next(&gen) >> 11) / 9007199254740992.0;
		metric_add_sample(m, mu * (1 + 0.01 * (s - 2) * 1.732));
	}
	m->busy = xcalloc(m->cap_samples, sizeof(double));
	for (size_t i = 0; i < m->n_samples; i++)
		m->busy[i] = busy;
	return r;
}

/* Rounds of A at 100 and B at b[k], both legs of round k under load[k]. */
static struct comparison *rounds_case(const double *b, const double *load, struct run **r)
{
	struct compare_opts o;
	const char *files[2 * ROUNDS];
	compare_opts_default(&o);
	o.rounds = 1;
	for (int k = 0; k < ROUNDS; k++) {
		r[2 * k] = leg(100, load[k]);
		r[2 * k + 1] = leg(b[k], load[k]);
		files[2 * k] = "a";
		files[2 * k + 1] = "b";
	}
	return compare_runs((const struct run *const *)r, files, 2 * ROUNDS, &o);
}

static void done(struct comparison *c, struct run **r)
{
	comparison_free(c);
	for (int i = 0; i < 2 * ROUNDS; i++)
		run_free(r[i]);
}

/* The effect +36% quiet and +125% under a hog (the THP reach effect of
 * issue 46): WIN, depending on load, each round's load beside it; and in
 * compare.json. */
static void test_planted(void **state)
{
	const double b[ROUNDS] = {136, 225, 136, 225, 136, 225};
	const double load[ROUNDS] = {0.1, 1.8, 0.1, 1.8, 0.1, 1.8};
	struct run *r[2 * ROUNDS];
	struct comparison *c;
	json_t *j, *h;
	rng_seed(&gen, 46);
	c = rounds_case(b, load, r);
	assert_int_equal(c->n_rows, 1);
	print_message("%s: %s\n", verdict_name(c->rows[0].verdict),
		      c->rows[0].reason ? c->rows[0].reason : "-");
	assert_int_equal(c->rows[0].verdict, VERDICT_WIN);
	assert_non_null(c->rows[0].reason);
	assert_non_null(strstr(c->rows[0].reason, "% to +125% depending on load"));
	assert_true(strncmp(c->rows[0].reason, "+3", 2) == 0); /* +35% or +36% quiet */
	assert_non_null(strstr(c->rows[0].reason, "round 2: +125% at 1.8 other CPUs busy"));
	assert_non_null(strstr(c->rows[0].reason, "round 1: +36% at 0.1 other CPUs busy"));
	j = comparison_to_json(c);
	h = json_object_get(json_array_get(json_object_get(j, "metrics"), 0), "heterogeneity");
	assert_true(json_is_true(json_object_get(h, "depends_on_load")));
	assert_int_equal(json_integer_value(json_object_get(h, "df")), ROUNDS - 1);
	assert_int_equal(json_array_size(json_object_get(h, "rounds")), ROUNDS);
	assert_true(json_number_value(json_object_get(h, "p")) < 0.05);
	json_decref(j);
	done(c, r);
}

/* The same loads, the effect +50% in every round: WIN, not depending on
 * load; Q tested and recorded. */
static void test_homogeneous(void **state)
{
	const double b[ROUNDS] = {150, 150, 150, 150, 150, 150};
	const double load[ROUNDS] = {0.1, 1.8, 0.1, 1.8, 0.1, 1.8};
	struct run *r[2 * ROUNDS];
	struct comparison *c;
	int depends = 0;
	rng_seed(&gen, 47);
	for (int t = 0; t < 20; t++) { /* p < 0.05 by chance in about 1 of 20 */
		c = rounds_case(b, load, r);
		assert_int_equal(c->rows[0].verdict, VERDICT_WIN);
		assert_non_null(c->rows[0].heterogeneity);
		depends +=
			json_is_true(json_object_get(c->rows[0].heterogeneity, "depends_on_load"));
		assert_true(
			!c->rows[0].reason || !strstr(c->rows[0].reason, "depending on load") ||
			json_is_true(json_object_get(c->rows[0].heterogeneity, "depends_on_load")));
		done(c, r);
	}
	print_message("homogeneous: %d of 20 read as depending on load\n", depends);
	assert_true(depends <= 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_q),
		cmocka_unit_test(test_planted),
		cmocka_unit_test(test_homogeneous),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
