/* test_hetero.c - effect heterogeneity over rounds (verdict/hetero.h,
 * docs/design.md §5.10): Cochran's Q on its own, a planted effect that
 * grows under load reported as depending on load with each round's load,
 * a homogeneous control that is not, and rounds that differ without their
 * load saying why (all at one load, or loads the changes do not follow):
 * "across rounds, not with their load". */
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
	assert_non_null(strstr(c->rows[0].reason, "x per other CPU busy, p="));
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

/* The planted +36%/+125% with nothing in the loads to explain it: all
 * rounds at 0.1 other CPUs busy, then loads that alternate out of step with
 * the change. Heterogeneous, not depending on load, said so. */
static void test_not_load(void **state)
{
	const double b[ROUNDS] = {136, 225, 225, 136, 136, 225};
	const double flat[ROUNDS] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
	const double load[ROUNDS] = {0.1, 1.8, 0.1, 1.8, 0.1, 1.8};
	const double *loads[] = {flat, load};
	struct run *r[2 * ROUNDS];
	rng_seed(&gen, 48);
	for (int k = 0; k < 2; k++) {
		struct comparison *c = rounds_case(b, loads[k], r);
		json_t *h = c->rows[0].heterogeneity;
		print_message("%s: %s\n", verdict_name(c->rows[0].verdict),
			      c->rows[0].reason ? c->rows[0].reason : "-");
		assert_int_equal(c->rows[0].verdict, VERDICT_WIN);
		assert_true(json_is_true(json_object_get(h, "heterogeneous")));
		assert_false(json_is_true(json_object_get(h, "depends_on_load")));
		/* flat loads: no slope to test (they span under 0.25 CPUs) */
		assert_int_equal(json_object_get(h, "load_p") == NULL, k == 0);
		assert_non_null(c->rows[0].reason);
		assert_non_null(strstr(c->rows[0].reason, "across rounds, not with their load"));
		assert_null(strstr(c->rows[0].reason, "depending on load"));
		done(c, r);
	}
}

/* The slope on its own: log ratios that rise 0.2 per other CPU busy, each
 * round's own noise small, against a constant and too few rounds. */
static void test_slope(void **state)
{
	struct hetero_round r[] = {
		{1, 0.0, 1e-4, 0.0}, {2, 0.2, 1e-4, 1.0}, {3, 0.4, 1e-4, 2.0}, {4, 0.1, 1e-4, 0.5}};
	double slope, p;
	assert_int_equal(hetero_load_slope(r, 4, &slope, &p), 0);
	assert_float_equal(slope, 0.2, 1e-9);
	assert_true(p < 0.01); /* t 29.6 on 2 df: p 0.0011 */
	for (int i = 0; i < 4; i++)
		r[i].log_ratio = 0.3;
	assert_int_equal(hetero_load_slope(r, 4, &slope, &p), 0);
	assert_float_equal(slope, 0, 1e-9);
	assert_true(p > 0.5);
	assert_int_equal(hetero_load_slope(r, 2, &slope, &p), -1); /* two rounds */
	r[3].busy = NAN;
	r[1].busy = r[2].busy = 0.1; /* 0.0-0.1: under the busy rule's 0.25 */
	assert_int_equal(hetero_load_slope(r, 4, &slope, &p), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_q),	    cmocka_unit_test(test_planted),
		cmocka_unit_test(test_homogeneous), cmocka_unit_test(test_not_load),
		cmocka_unit_test(test_slope),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
