/* test_verdict_threshold.c - the practical threshold from the machine's own
 * noise and a CI too wide to say (docs/design.md §5.18, §5.19), on rounds
 * and A/B/A' legs built in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "report/compare_cells.h"
#include "verdict/compare.h"
#include "verdict/compare_json.h"
#include "verdict/threshold.h"

#define MAX_LEGS 16

struct legs {
	struct run *r[MAX_LEGS];
	const char *files[MAX_LEGS];
	char pattern[MAX_LEGS + 1];
	size_t n;
};

/* A leg of variant v whose metric "rate" (higher is better) has the given
 * samples. */
static void add_leg(struct legs *l, char v, const double *x, size_t n)
{
	struct run *r = run_new();
	struct probe_result *p = run_add_probe(r, "t.thr");
	struct metric *m = probe_add_metric(p, "rate", UNIT_GB_S, BETTER_HIGHER, "test", NULL);
	r->knobs_start = json_pack("{s:s}", "thp_enabled", "madvise");
	r->knobs_end = json_pack("{s:s}", "thp_enabled", "madvise");
	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, x[i]);
	l->files[l->n] = v == 'A' ? "a" : "b";
	l->pattern[l->n] = v;
	l->r[l->n++] = r;
	l->pattern[l->n] = '\0';
}

/* The last leg added ran with `busy` other CPUs busy and the probe
 * waiting for a CPU `wait` of the time, in every sample. */
static void set_load(struct legs *l, double busy, double wait)
{
	struct metric *m = &l->r[l->n - 1]->probes[0].metrics[0];
	m->busy = xcalloc(m->cap_samples, sizeof(*m->busy));
	m->wait = xcalloc(m->cap_samples, sizeof(*m->wait));
	for (size_t i = 0; i < m->n_samples; i++) {
		m->busy[i] = busy;
		m->wait[i] = wait;
	}
}

/* Rounds in the order ABBA...: round k's A leg at level[k], its B leg at
 * level[k] * effect[k]; 4 samples a leg spread +-0.1%. */
static struct comparison *rounds_case(struct legs *l, const double *level, const double *effect,
				      size_t rounds)
{
	struct compare_opts o;
	memset(l, 0, sizeof(*l));
	for (size_t k = 0; k < rounds; k++)
		for (int s = 0; s < 2; s++) {
			int is_b = (k % 2 == 0) == (s == 1);
			double mu = level[k] * (is_b ? effect[k] : 1), x[4];
			for (int i = 0; i < 4; i++)
				x[i] = mu * (1 + 0.001 * (i - 1.5));
			add_leg(l, is_b ? 'B' : 'A', x, 4);
		}
	compare_opts_default(&o);
	o.rounds = 1;
	o.legs = l->pattern;
	return compare_runs((const struct run *const *)l->r, l->files, l->n, &o);
}

static void legs_free(struct comparison *c, struct legs *l)
{
	comparison_free(c);
	for (size_t i = 0; i < l->n; i++)
		run_free(l->r[i]);
}

/* The spread: the standard deviation of the rounds' log ratios, as a
 * relative figure. */
static void test_round_noise_value(void **state)
{
	const double r[] = {0.1, 0.2, 0.3};
	/* squares: 2 x 0.1^2 over 2 degrees of freedom */
	assert_true(fabs(threshold_round_noise(r, 3) - (exp(0.1) - 1)) < 1e-12);
	assert_true(fabs(threshold_round_noise(r, 2) - (exp(sqrt(0.005)) - 1)) < 1e-12);
	assert_true(isnan(threshold_round_noise(r, 1)));
	assert_true(isnan(threshold_round_noise(r, 0)));
}

/* A steady +5% in every round: a WIN on a quiet machine and as well when
 * the rounds' level swings by +-10% (each round's ratio cancels it: the 1%
 * minimum applies); a change whose rounds disagree (+8.5% and +1.5% by
 * turns, B above A in every round) has a CI clear of 1%: a WIN, its
 * rounds' spread (3.6%) reported but no longer a second threshold
 * (docs/design.md §5.18). */
static void test_threshold_from_round_noise(void **state)
{
	const double quiet[] = {100, 100.2, 99.9, 100.1, 100, 99.8, 100, 100.1};
	const double busy[] = {100, 120, 90, 112, 95, 118, 92, 108};
	const double eff[] = {1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05};
	const double turns[] = {1.085, 1.015, 1.085, 1.015, 1.085, 1.015, 1.085, 1.015};
	struct legs l;
	struct comparison *c = rounds_case(&l, quiet, eff, 6);
	const struct compare_row *row = &c->rows[0];
	char buf[64];
	assert_int_equal(row->verdict, VERDICT_WIN);
	assert_int_equal(row->threshold_from, THRESHOLD_FROM_MIN);
	assert_true(row->threshold == THRESHOLD_MIN);
	assert_true(row->round_noise < 0.005);
	legs_free(c, &l);

	c = rounds_case(&l, busy, eff, 6);
	row = &c->rows[0];
	assert_true(row->ci_lo > 0.04 && row->ci_hi < 0.06); /* the ratios agree */
	assert_int_equal(row->threshold_from, THRESHOLD_FROM_MIN);
	assert_true(row->round_noise < 0.005);
	assert_int_equal(row->verdict, VERDICT_WIN);
	legs_free(c, &l);

	c = rounds_case(&l, busy, turns, 8);
	row = &c->rows[0];
	assert_true(row->ci_lo > 0.01 && row->ci_lo < row->round_noise);
	assert_int_equal(row->threshold_from, THRESHOLD_FROM_MIN);
	assert_true(row->round_noise > 0.03 && row->round_noise < 0.04);
	assert_true(row->threshold == THRESHOLD_MIN);
	assert_int_equal(row->verdict, VERDICT_WIN);
	report_compare_threshold(row, buf, sizeof(buf));
	assert_non_null(strstr(buf, "1.0% min"));
	legs_free(c, &l);
}

/* The medians printed beside the change come from it: of rounds, B / A is
 * the change exactly, however the rounds' levels differ. */
static void test_rounds_medians_match_change(void **state)
{
	const double level[] = {10, 30, 12, 25};
	const double eff[] = {1.10, 1.30, 1.15, 1.20};
	struct legs l;
	struct comparison *c = rounds_case(&l, level, eff, 4);
	const struct compare_row *row = &c->rows[0];
	assert_true(fabs(row->median_b / row->median_a - 1 - row->change) < 1e-12);
	/* pooled medians would read 17.9 and 21.9: a +22% change, not +18.6% */
	assert_true(fabs(row->change - (pow(1.10 * 1.30 * 1.15 * 1.20, 0.25) - 1)) < 1e-3);
	assert_non_null(strstr(comparison_change_from(c), "geometric mean"));
	legs_free(c, &l);
}

/* Two rounds that disagree tenfold: a CI too wide to say, in every format
 * and back from the file; a CI a factor 8 wide is still printed. */
static void test_ci_too_wide(void **state)
{
	const double level[] = {100, 100};
	const double wild[] = {0.3, 4.0};
	const double eff[] = {1.5, 1.6, 1.55, 1.45};
	const double lv4[] = {100, 100, 100, 100};
	struct legs l;
	struct comparison *c = rounds_case(&l, level, wild, 2), *back;
	const struct compare_row *row = &c->rows[0];
	char buf[64];
	json_t *j;
	assert_true((1 + row->ci_hi) / (1 + row->ci_lo) > THRESHOLD_CI_TOO_WIDE);
	assert_int_equal(row->verdict, VERDICT_NOWIN);
	assert_true(row->ci_wide);
	assert_true(strncmp(row->reason, "too wide to say: the 95% CI [", 29) == 0);
	assert_non_null(strstr(row->reason, "over 2 rounds"));
	report_compare_ci(row, buf, sizeof(buf));
	assert_string_equal(buf, "too wide to say");
	assert_int_equal(c->summary.n_geomean, 0); /* no ratio it cannot say */
	j = comparison_to_json(c);
	assert_true(json_is_true(
		json_object_get(json_array_get(json_object_get(j, "metrics"), 0), "ci_too_wide")));
	back = comparison_from_json(j, "test");
	assert_non_null(back);
	assert_true(back->rows[0].ci_wide);
	assert_int_equal(back->rows[0].threshold_from, row->threshold_from);
	assert_true(back->rows[0].round_noise == row->round_noise);
	comparison_free(back);
	json_decref(j);
	legs_free(c, &l);

	c = rounds_case(&l, lv4, eff, 4);
	row = &c->rows[0];
	assert_false(row->ci_wide);
	report_compare_ci(row, buf, sizeof(buf));
	assert_true(buf[0] == '[');
	legs_free(c, &l);
}

/* A/B/A': the gap between A and A' sets the threshold, and says so. */
static void test_threshold_from_gap(void **state)
{
	double a[8], b[8], a2[8];
	struct legs l = {.n = 0};
	struct compare_opts o;
	struct comparison *c;
	for (int i = 0; i < 8; i++) {
		a[i] = 100 * (1 + 0.001 * i);
		b[i] = 104 * (1 + 0.001 * i);
		a2[i] = 106 * (1 + 0.001 * i);
	}
	add_leg(&l, 'A', a, 8);
	add_leg(&l, 'B', b, 8);
	add_leg(&l, 'A', a2, 8);
	compare_opts_default(&o);
	o.legs = "ABA";
	c = compare_runs((const struct run *const *)l.r, l.files, 3, &o);
	assert_int_equal(c->rows[0].threshold_from, THRESHOLD_FROM_GAP);
	assert_true(fabs(c->rows[0].threshold - 0.06) < 0.002);
	assert_true(isnan(c->rows[0].round_noise));
	legs_free(c, &l);
	/* --threshold above the gap: it applies (four legs a side: A/B/A' has
	 * too few legs for a verdict, §5.4) */
	memset(&l, 0, sizeof(l));
	for (int k = 0; k < 4; k++) {
		double ak[8], bk[8];
		for (int i = 0; i < 8; i++) {
			ak[i] = a[i] * (1 + 0.001 * k);
			bk[i] = b[i] * (1 - 0.001 * k);
		}
		add_leg(&l, 'A', ak, 8);
		add_leg(&l, 'B', bk, 8);
	}
	o.threshold = 0.03;
	o.legs = "ABABABAB";
	c = compare_runs((const struct run *const *)l.r, l.files, 8, &o);
	assert_int_equal(c->rows[0].threshold_from, THRESHOLD_FROM_GIVEN);
	assert_int_equal(c->rows[0].verdict, VERDICT_WIN);
	legs_free(c, &l);
	/* the same as A/B/A': the change is measured, not judged */
	memset(&l, 0, sizeof(l));
	add_leg(&l, 'A', a, 8);
	add_leg(&l, 'B', b, 8);
	add_leg(&l, 'A', a, 8);
	o.legs = "ABA";
	c = compare_runs((const struct run *const *)l.r, l.files, 3, &o);
	assert_int_equal(c->rows[0].verdict, VERDICT_FEW);
	assert_true(c->rows[0].few_legs);
	legs_free(c, &l);
}

/* A machine whose CPUs are all busy in every leg (the other CPUs busy
 * cannot move) while a neighbour takes the probe's CPU in one leg: the
 * probe's waiting tells. A/B/A': UNSTABLE; rounds: that round left out. */
static void test_wait_is_load(void **state)
{
	double a[8], b[8];
	struct legs l = {.n = 0};
	struct compare_opts o;
	struct comparison *c;
	const struct compare_row *row;
	for (int i = 0; i < 8; i++) {
		a[i] = 100 * (1 + 0.001 * i);
		b[i] = 130 * (1 + 0.001 * i);
	}
	add_leg(&l, 'A', a, 8);
	set_load(&l, 1.8, 0.1);
	add_leg(&l, 'B', b, 8);
	set_load(&l, 1.8, 0.7);
	add_leg(&l, 'A', a, 8);
	set_load(&l, 1.8, 0.1);
	compare_opts_default(&o);
	o.legs = "ABA";
	c = compare_runs((const struct run *const *)l.r, l.files, 3, &o);
	row = &c->rows[0];
	assert_int_equal(row->verdict, VERDICT_UNSTABLE);
	assert_true(row->noisy);
	assert_non_null(strstr(row->reason, "the probe waited for a CPU 0.70 of the time during "
					    "B, 0.10 during A"));
	legs_free(c, &l);

	/* rounds: round 2's B waited, and read 15% slower for it: left out
	 * (the load explains its ratio); the same wait beside a round that
	 * reads as the others do is kept (§5.10) */
	for (int slowed = 1; slowed >= 0; slowed--) {
		double b_slow[8];
		for (int i = 0; i < 8; i++)
			b_slow[i] = b[i] * (slowed ? 0.85 : 0.9996);
		memset(&l, 0, sizeof(l));
		for (unsigned k = 0; k < 4; k++)
			for (int s = 0; s < 2; s++) {
				int is_b = (k % 2 == 0) == (s == 1);
				double *x = a;
				if (is_b)
					x = k == 1 ? b_slow : b;
				for (int i = 0; i < 4 && !is_b; i++) /* each round its own A */
					x[i] = 100 * (1 + 0.001 * i) * (1 + 0.0003 * k);
				add_leg(&l, is_b ? 'B' : 'A', x, 4);
				set_load(&l, 1.8, is_b && k == 1 ? 0.8 : 0.2);
			}
		o.rounds = 1;
		o.legs = l.pattern;
		c = compare_runs((const struct run *const *)l.r, l.files, l.n, &o);
		row = &c->rows[0];
		assert_int_equal(row->verdict, VERDICT_WIN);
		if (slowed) {
			assert_int_equal(row->rounds, 3);
			assert_int_equal(row->rounds_out, 1);
			assert_non_null(
				strstr(row->reason,
				       "1 of 4 rounds left out, their legs' load differed "
				       "(round 2: the probe waited for a CPU 0.80 of the time "
				       "during B r2, 0.20 during A r2)"));
		} else {
			assert_int_equal(row->rounds, 4);
			assert_int_equal(row->rounds_out, 0);
		}
		legs_free(c, &l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_noise_value),
		cmocka_unit_test(test_threshold_from_round_noise),
		cmocka_unit_test(test_rounds_medians_match_change),
		cmocka_unit_test(test_ci_too_wide),
		cmocka_unit_test(test_threshold_from_gap),
		cmocka_unit_test(test_wait_is_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
