/* test_compare.c - verdict rules (docs/design.md section 5) on the fixture files and on
 * runs built in memory, and the property that random A/A splits of one
 * sample set give no more false WIN/LOSS than alpha after correction (legs
 * that differ between processes: test_compare_legs.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/compare_json.h"
#include "verdict/sequential.h"

#include "compare_runs.h"

/* ---- helpers ---- */

/* One probe "t.probe" with latency (lower) and rate (higher) for pages=4k
 * and pages=thp, and thp_backed facts. eff scales the 4k latency. */
static struct run *mk_leg(const char *label, double lat4k, double rate_thp, double thp_mib,
			  size_t n)
{
	struct run *r = mk_run(label, "madvise");
	struct probe_result *p = run_add_probe(r, "t.probe");
	mk_metric(p, "latency", BETTER_LOWER, "4k", lat4k, 0.01, n);
	mk_metric(p, "rate", BETTER_HIGHER, "thp", rate_thp, 0.01, n);
	mk_metric(p, "thp_backed", BETTER_NONE, "thp", thp_mib, 0, n);
	return r;
}

static struct comparison *cmp3(struct run *a, struct run *b, struct run *a2,
			       const struct compare_opts *o)
{
	const struct run *runs[] = {a, b, a2};
	const char *files[] = {"a", "b", "a2"};
	return compare_runs(runs, files, a2 ? 3 : 2, o);
}

/* Four legs a side, ABABABAB, each its own run: enough legs for the
 * leg-level test a verdict without rounds needs (§5.4). */
static struct comparison *cmp8(struct run **r, const struct compare_opts *o)
{
	const char *files[] = {"a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"};
	return compare_runs((const struct run *const *)r, files, 8, o);
}

static void mk8(struct run **r, const char *la, const char *lb, double lat_a, double lat_b,
		double rate_a, double rate_b, size_t n)
{
	for (int i = 0; i < 4; i++) {
		r[2 * i] = mk_leg(la, lat_a, rate_a, 16, n);
		r[2 * i + 1] = mk_leg(lb, lat_b, rate_b, 16, n);
	}
}

static void free8(struct comparison *c, struct run **r)
{
	comparison_free(c);
	for (int i = 0; i < 8; i++)
		run_free(r[i]);
}

static const struct compare_row *row(const struct comparison *c, const char *key)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (strcmp(c->rows[i].key, key) == 0)
			return &c->rows[i];
	fail_msg("no row '%s'", key);
	return NULL;
}

static void free_all(struct comparison *c, struct run *a, struct run *b, struct run *a2)
{
	comparison_free(c);
	run_free(a);
	run_free(b);
	run_free(a2);
}

/* ---- fixtures (tests/data, made by gen_fixtures.sh) ---- */

static struct comparison *cmp_files(const char *fa, const char *fb, const char *fa2, struct run **r)
{
	struct compare_opts o;
	const char *files[] = {fa, fb, fa2};
	compare_opts_default(&o);
	for (int i = 0; i < 3; i++) {
		r[i] = run_read_file(files[i]);
		assert_non_null(r[i]);
	}
	return compare_runs((const struct run *const *)r, files, 3, &o);
}

static void test_fixture_aa(void **state)
{
	struct run *r[3];
	struct comparison *c = cmp_files("tests/data/cmp-aa-1.json", "tests/data/cmp-aa-2.json",
					 "tests/data/cmp-aa-3.json", r);
	assert_non_null(c);
	assert_int_equal(c->summary.count[VERDICT_WIN] + c->summary.count[VERDICT_LOSS], 0);
	assert_int_equal(c->summary.count[VERDICT_UNSTABLE], 0);
	/* one process a side: no verdict, whatever the samples say (§5.4) */
	assert_int_equal(c->summary.count[VERDICT_FEW], 6);
	assert_non_null(strstr(c->rows[0].reason, "not enough legs to judge"));
	assert_int_equal(c->summary.count[VERDICT_FACT], 2);
	free_all(c, r[0], r[1], r[2]);
}

static void test_fixture_effect(void **state)
{
	struct run *r[3];
	struct comparison *c = cmp_files("tests/data/cmp-aa-1.json", "tests/data/cmp-effect-b.json",
					 "tests/data/cmp-aa-3.json", r);
	const struct compare_row *w = row(c, "cpu.first_touch touch_rate pages=4k,touch=write");
	/* the change is measured and shown, but A/B/A' cannot judge it */
	assert_int_equal(w->verdict, VERDICT_FEW);
	assert_true(w->ci_lo > 0);
	assert_non_null(strstr(w->reason, "2 processes of A, 1 of B"));
	assert_int_equal(c->summary.count[VERDICT_WIN] + c->summary.count[VERDICT_LOSS], 0);
	assert_false(comparison_has_loss(c));
	free_all(c, r[0], r[1], r[2]);
}

static void test_fixture_drift(void **state)
{
	struct run *r[3];
	struct comparison *c = cmp_files("tests/data/cmp-aa-1.json", "tests/data/cmp-effect-b.json",
					 "tests/data/cmp-drift-a2.json", r);
	const struct compare_row *w = row(c, "cpu.first_touch touch_rate pages=4k,touch=write");
	assert_int_equal(w->verdict, VERDICT_UNSTABLE); /* whatever B shows */
	assert_non_null(strstr(w->reason, "stock again vs stock"));
	free_all(c, r[0], r[1], r[2]);
}

/* ---- rules on runs built in memory ---- */

static void test_lower_is_better(void **state)
{
	struct compare_opts o;
	struct run *r[8];
	struct comparison *c;
	compare_opts_default(&o);
	rng_seed(&gen, 1);
	mk8(r, "stock", "patched", 100, 80, 50, 50, 10);
	c = cmp8(r, &o);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_WIN);
	assert_true(row(c, "t.probe latency pages=4k")->p_legs < 0.05);
	assert_int_equal(row(c, "t.probe rate pages=thp")->verdict, VERDICT_NOWIN);
	assert_int_equal(row(c, "t.probe thp_backed pages=thp")->verdict, VERDICT_FACT);
	assert_string_equal(c->legs[2].name, "stock again");
	free8(c, r);
	mk8(r, "stock", "patched", 100, 120, 50, 50, 10);
	c = cmp8(r, &o);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_LOSS);
	assert_true(comparison_has_loss(c));
	/* geomean over latency (1/1.2) and rate (~1): oriented, > 1 is better */
	assert_true(c->summary.geomean < 0.95 && c->summary.geomean > 0.85);
	free8(c, r);
}

static void test_threshold_and_two_legs(void **state)
{
	struct compare_opts o;
	struct run *a, *b, *r[8];
	struct comparison *c;
	compare_opts_default(&o);
	rng_seed(&gen, 2);
	a = mk_leg(NULL, 100, 50, 16, 12);
	b = mk_leg(NULL, 96, 50, 16, 12); /* 4% better, spread 1% */
	c = cmp3(a, b, NULL, &o);
	/* two files, one process each: clear in the samples, not judged */
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_FEW);
	assert_true(row(c, "t.probe latency pages=4k")->ci_hi < 0);
	assert_string_equal(c->legs[0].name, "A");
	assert_string_equal(c->legs[1].name, "B");
	assert_true(c->n_notes >= 1); /* drift not checked */
	free_all(c, a, b, NULL);
	mk8(r, NULL, NULL, 100, 96, 50, 50, 12);
	c = cmp8(r, &o);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_WIN);
	comparison_free(c);
	o.threshold = 0.08; /* a change of 4% does not matter to this user */
	c = cmp8(r, &o);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_NOWIN);
	free8(c, r);
}

static void test_few_samples(void **state)
{
	struct compare_opts o;
	struct run *a, *b, *a2;
	struct comparison *c;
	compare_opts_default(&o);
	rng_seed(&gen, 3);
	a = mk_leg("x", 100, 50, 16, 10);
	b = mk_leg("y", 50, 50, 16, 5);
	a2 = mk_leg("x", 100, 50, 16, 10);
	c = cmp3(a, b, a2, &o);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_FEW);
	assert_int_equal(c->summary.count[VERDICT_FEW], 2);
	free_all(c, a, b, a2);
}

/* thp_backed differs between the two A legs: metrics with the fact's labels
 * (pages=thp) are void, the 4k ones are not. */
static void test_void_fact_and_status(void **state)
{
	struct compare_opts o;
	struct run *a, *b, *a2;
	struct comparison *c;
	struct probe_result *p;
	compare_opts_default(&o);
	rng_seed(&gen, 4);
	a = mk_leg("s", 100, 50, 16, 10);
	b = mk_leg("p", 100, 50, 16, 10);
	a2 = mk_leg("s", 100, 50, 0, 10);
	p = run_add_probe(a, "t.other");
	mk_metric(p, "bw", BETTER_HIGHER, "4k", 10, 0.01, 10);
	p = run_add_probe(b, "t.other");
	probe_result_set_status(p, STATUS_FAIL, "crashed");
	p = run_add_probe(a2, "t.other");
	mk_metric(p, "bw", BETTER_HIGHER, "4k", 10, 0.01, 10);
	c = cmp3(a, b, a2, &o);
	assert_int_equal(row(c, "t.probe rate pages=thp")->verdict, VERDICT_VOID);
	assert_int_equal(row(c, "t.probe thp_backed pages=thp")->verdict, VERDICT_VOID);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_FEW);
	assert_int_equal(row(c, "t.other bw pages=4k")->verdict, VERDICT_VOID);
	assert_non_null(strstr(row(c, "t.other bw pages=4k")->reason, "fail in p"));
	free_all(c, a, b, a2);
}

static void test_missing(void **state)
{
	struct compare_opts o;
	struct run *a, *b;
	struct comparison *c;
	struct probe_result *p;
	compare_opts_default(&o);
	rng_seed(&gen, 5);
	a = mk_leg("s", 100, 50, 16, 10);
	b = mk_leg("p", 100, 50, 16, 10);
	p = &a->probes[0];
	mk_metric(p, "extra", BETTER_HIGHER, "4k", 10, 0.01, 10);
	c = cmp3(a, b, NULL, &o);
	assert_int_equal(row(c, "t.probe extra pages=4k")->verdict, VERDICT_MISSING);
	assert_string_equal(row(c, "t.probe extra pages=4k")->reason, "absent in p");
	free_all(c, a, b, NULL);
}

static void test_knobs(void **state)
{
	struct compare_opts o;
	const char *expect[] = {"thp_enabled"};
	struct run *r[8];
	struct comparison *c;
	compare_opts_default(&o);
	rng_seed(&gen, 6);
	mk8(r, "s", "p", 100, 80, 50, 50, 10);
	for (int i = 1; i < 8; i += 2) {
		json_object_set_new(r[i]->knobs_start, "thp_enabled", json_string("always"));
		json_object_set_new(r[i]->knobs_end, "thp_enabled", json_string("always"));
	}
	c = cmp8(r, &o);
	assert_true(c->refused);
	assert_int_equal(c->n_knob_diffs, 1);
	assert_non_null(strstr(c->knob_diffs[0], "thp_enabled: s=madvise, p=always"));
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_REFUSED);
	comparison_free(c);
	o.expect_diff = expect;
	o.n_expect_diff = 1;
	c = cmp8(r, &o);
	assert_false(c->refused);
	assert_int_equal(row(c, "t.probe latency pages=4k")->verdict, VERDICT_WIN);
	comparison_free(c);
	/* The restore did not work: the expected knob differs within A. */
	json_object_set_new(r[6]->knobs_end, "thp_enabled", json_string("always"));
	c = cmp8(r, &o);
	assert_true(c->refused);
	assert_non_null(strstr(c->knob_diffs[0], "within a variant"));
	comparison_free(c);
	o.allow_diff = 1;
	c = cmp8(r, &o);
	assert_false(c->refused);
	assert_int_equal(c->n_knob_diffs, 1);
	free8(c, r);
}

static void test_controls(void **state)
{
	struct compare_opts o;
	const char *controls[] = {"t.probe,pages=thp"};
	struct run *a, *b, *a2, *r[8];
	struct comparison *c;
	char *line;
	compare_opts_default(&o);
	o.controls = controls;
	o.n_controls = 1;
	rng_seed(&gen, 7);
	mk8(r, "s", "p", 100, 80, 50, 50, 10);
	c = cmp8(r, &o);
	assert_true(row(c, "t.probe rate pages=thp")->control);
	assert_false(row(c, "t.probe latency pages=4k")->control);
	assert_null(comparison_controls_line(c));
	assert_int_equal(c->summary.controls, 2);
	free8(c, r);
	mk8(r, "s", "p", 100, 80, 50, 40, 10); /* the THP path moved too */
	c = cmp8(r, &o);
	line = comparison_controls_line(c);
	assert_non_null(line);
	assert_true(str_starts_with(line, "controls moved - verdicts untrusted: t.probe rate"));
	assert_false(comparison_has_loss(c)); /* a control's LOSS is not a LOSS */
	free(line);
	free8(c, r);
	/* A/B/A': a control with too few legs to judge was not checked, it
	 * did not move */
	a = mk_leg("s", 100, 50, 16, 10);
	b = mk_leg("p", 80, 40, 16, 10);
	a2 = mk_leg("s", 100, 50, 16, 10);
	c = cmp3(a, b, a2, &o);
	assert_int_equal(row(c, "t.probe rate pages=thp")->verdict, VERDICT_FEW);
	assert_int_equal(c->summary.controls_moved, 0);
	free_all(c, a, b, a2);
}

static void test_patterns(void **state)
{
	const struct label labels[] = {{"pages", "thp"}, {"touch", "write"}};
	const struct label params[] = {{"size", "16M"}};
	assert_true(compare_pattern_match("cpu.first_touch", "cpu.first_touch", "touch_rate",
					  labels, 2, params, 1));
	assert_true(compare_pattern_match("cpu.*:touch_*", "cpu.first_touch", "touch_rate", labels,
					  2, params, 1));
	assert_true(compare_pattern_match("cpu.first_touch,pages=thp,size=16*", "cpu.first_touch",
					  "touch_rate", labels, 2, params, 1));
	assert_false(compare_pattern_match("cpu.first_touch,pages=4k", "cpu.first_touch",
					   "touch_rate", labels, 2, params, 1));
	assert_false(compare_pattern_match("cpu.first_touch,streams=8", "cpu.first_touch",
					   "touch_rate", labels, 2, params, 1));
	assert_false(compare_pattern_match("cpu.stream", "cpu.first_touch", "touch_rate", labels, 2,
					   params, 1));
	assert_int_equal(compare_pattern_check("cpu.x,pages=thp", "--control"), 0);
	assert_int_equal(compare_pattern_check("cpu.x,pages", "--control"), -1);
	assert_int_equal(compare_pattern_check("", "--control"), -1);
}

/* A p-value of about 0.0087 (6 vs 6, two pairs reversed): a WIN as the one
 * declared primary metric, NOWIN once Holm spreads alpha over 20. */
static void test_primary_and_holm(void **state)
{
	const double xa[] = {100, 100.1, 100.2, 100.3, 100.4, 120};
	const double xb[] = {110, 119, 130, 130.1, 130.2, 130.3};
	struct compare_opts o;
	struct run *a = mk_run("s", "madvise"), *b = mk_run("p", "madvise");
	struct probe_result *pa = run_add_probe(a, "t.p"), *pb;
	struct comparison *c;
	char name[16];
	for (int k = 0; k < 20; k++) {
		struct metric *m;
		snprintf(name, sizeof(name), "m%02d", k);
		m = probe_add_metric(pa, name, UNIT_NS, BETTER_HIGHER, "t", NULL);
		for (int i = 0; i < 6; i++)
			metric_add_sample(m, xa[i]);
	}
	pb = run_add_probe(b, "t.p");
	for (int k = 0; k < 20; k++) {
		struct metric *m;
		snprintf(name, sizeof(name), "m%02d", k);
		m = probe_add_metric(pb, name, UNIT_NS, BETTER_HIGHER, "t", NULL);
		for (int i = 0; i < 6; i++)
			metric_add_sample(m, xb[i]);
	}
	compare_opts_default(&o);
	c = cmp3(a, b, NULL, &o);
	assert_float_equal(row(c, "t.p m00")->p_effect, 8.0 / 924.0, 1e-12);
	/* Holm over the family of 20 */
	assert_true(row(c, "t.p m00")->p_effect_adj > 0.05);
	/* one process a side: no verdict whatever the p (§5.4) */
	assert_int_equal(c->summary.count[VERDICT_FEW], 20);
	comparison_free(c);
	o.primary = "t.p:m07";
	c = cmp3(a, b, NULL, &o);
	/* the primary metric is tested at alpha, uncorrected */
	assert_float_equal(row(c, "t.p m07")->p_effect_adj, 8.0 / 924.0, 1e-12);
	assert_true(row(c, "t.p m00")->p_effect_adj > 0.05);
	free_all(c, a, b, NULL);
}

/* ---- the drift rule (docs/design.md section 5.3) ---- */

/* Legs with one metric "rate" (higher is better) at the given medians, in
 * the order given by `legs` ("ABA", "ABAB"), 15 samples each at 0.3% spread:
 * every gap below is significant. */
static struct comparison *drift_case_opts(const char *legs, const double *mu, struct run **r,
					  int rounds)
{
	struct compare_opts o;
	const char *files[] = {"l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8"};
	size_t n = strlen(legs);
	compare_opts_default(&o);
	o.legs = legs;
	o.rounds = rounds;
	for (size_t i = 0; i < n; i++) {
		struct probe_result *p;
		r[i] = mk_run(NULL, "madvise");
		p = run_add_probe(r[i], "t.drift");
		mk_metric(p, "rate", BETTER_HIGHER, "4k", mu[i], 0.003, 15);
	}
	return compare_runs((const struct run *const *)r, files, n, &o);
}

static struct comparison *drift_case(const char *legs, const double *mu, struct run **r)
{
	return drift_case_opts(legs, mu, r, 0);
}

static void drift_free(struct comparison *c, struct run **r, size_t n)
{
	comparison_free(c);
	for (size_t i = 0; i < n; i++)
		run_free(r[i]);
}

static const struct compare_row *drift_row(const struct comparison *c)
{
	const struct compare_row *w = row(c, "t.drift rate pages=4k");
	print_message("%s: %s\n", verdict_name(w->verdict), w->reason ? w->reason : "-");
	return w;
}

/* +210% against a significant 1.8% drift: the drift cannot explain it; the
 * verdict stands and the drift is shown beside it. */
static void test_drift_large_effect(void **state)
{
	const double mu[] = {100, 310, 100.6, 310, 101.2, 310, 101.8, 310};
	struct run *r[8];
	struct comparison *c = drift_case("ABABABAB", mu, r);
	const struct compare_row *w = drift_row(c);
	assert_int_equal(w->verdict, VERDICT_WIN);
	assert_non_null(w->reason);
	assert_non_null(strstr(w->reason, "drift A''' vs A +1."));
	assert_true(w->drift > 0.015 && w->threshold == w->drift); /* widened by the drift */
	drift_free(c, r, 8);
	/* The same the other way round is a LOSS. */
	{
		const double mu2[] = {310, 100, 308, 100, 306, 100, 304.4, 100};
		c = drift_case("ABABABAB", mu2, r);
		w = drift_row(c);
		assert_int_equal(w->verdict, VERDICT_LOSS);
		assert_non_null(strstr(w->reason, "drift"));
		drift_free(c, r, 8);
	}
	/* A/B/A': the drift is read, the effect not judged */
	{
		const double mu3[] = {100, 310, 101.8};
		c = drift_case("ABA", mu3, r);
		w = drift_row(c);
		assert_int_equal(w->verdict, VERDICT_FEW);
		drift_free(c, r, 3);
	}
}

/* +7% change against a 4% drift, B outside the A legs: within 2x. */
static void test_drift_as_large_as_effect(void **state)
{
	const double mu[] = {100, 109.5, 104};
	struct run *r[3];
	struct comparison *c = drift_case("ABA", mu, r);
	const struct compare_row *w = drift_row(c);
	assert_int_equal(w->verdict, VERDICT_UNSTABLE);
	assert_non_null(strstr(w->reason, "A' vs A +"));
	assert_non_null(strstr(w->reason, "within 2x"));
	drift_free(c, r, 3);
}

/* The drift rule in rounds (design.md §5.10): each round's B is judged
 * against its own A, in the order ABBA..., so a steady drift of 2% a leg
 * pushes B up in one round and down in the next: no verdict. The same drift
 * beside a real +20% leaves it a WIN. */
static void test_drift_rounds(void **state)
{
	double mu[8], mu_b[8];
	struct run *r[8];
	const char *legs = "ABBAABBA";
	struct comparison *c;
	const struct compare_row *w;
	for (int i = 0; i < 8; i++) {
		mu[i] = 100.0 * (1 + 0.02 * i);
		mu_b[i] = mu[i] * (legs[i] == 'B' ? 1.2 : 1.0);
	}
	c = drift_case_opts(legs, mu, r, 1);
	w = drift_row(c);
	assert_int_equal(w->rounds, 4);
	assert_true(w->verdict != VERDICT_WIN && w->verdict != VERDICT_LOSS);
	drift_free(c, r, 8);
	c = drift_case_opts(legs, mu_b, r, 1);
	w = drift_row(c);
	assert_int_equal(w->verdict, VERDICT_WIN);
	assert_true(w->ci_lo > 0.15 && w->ci_hi < 0.25);
	drift_free(c, r, 8);
}

static void test_drift_b_between(void **state)
{
	const double mu[] = {100, 106, 110};
	struct run *r[3];
	struct comparison *c = drift_case("ABA", mu, r);
	const struct compare_row *w = drift_row(c);
	assert_int_equal(w->verdict, VERDICT_UNSTABLE);
	assert_non_null(strstr(w->reason, "between the A legs"));
	drift_free(c, r, 3);
}

/* A, B, A, B each higher than the last: a trend, not an effect, although
 * pooled B lies above every A leg and the change (about +65%) is over twice
 * the A legs' gap (+60% is not: the B legs' gap, +100%, is the drift). */
static void test_drift_monotone(void **state)
{
	const double mu[] = {100, 150, 160, 300};
	struct run *r[4];
	struct comparison *c = drift_case("ABAB", mu, r);
	const struct compare_row *w = drift_row(c);
	assert_int_equal(w->verdict, VERDICT_UNSTABLE);
	assert_non_null(strstr(w->reason, "one way"));
	drift_free(c, r, 4);
}

/* 200 random splits of one sample set into A, B, A' (5 metrics each, so
 * Holm has a family): false WIN/LOSS per comparison at or below alpha. The
 * same for A/B without the repeated leg, which leans on the U test alone. */
static void test_property_aa_splits(void **state)
{
	double pool[30];
	struct compare_opts o;
	int false_aba = 0, false_ab = 0;
	compare_opts_default(&o);
	o.bootstrap_iters = 500;
	rng_seed(&gen, 2026);
	fill(pool, 30, 100, 0.05);
	for (int it = 0; it < 200; it++) {
		struct run *leg[3];
		struct comparison *c;
		for (int l = 0; l < 3; l++) {
			leg[l] = mk_run(NULL, "madvise");
			run_add_probe(leg[l], "t.aa");
		}
		for (int k = 0; k < 5; k++) {
			char name[16];
			snprintf(name, sizeof(name), "m%d", k);
			for (int i = 29; i > 0; i--) {
				int j = (int)rng_below(&gen, (uint64_t)i + 1);
				double t = pool[i];
				pool[i] = pool[j];
				pool[j] = t;
			}
			for (int l = 0; l < 3; l++) {
				struct metric *m =
					probe_add_metric(&leg[l]->probes[0], name, UNIT_NS,
							 BETTER_HIGHER, "t", NULL);
				for (int i = 0; i < 10; i++)
					metric_add_sample(m, pool[10 * l + i]);
			}
		}
		c = cmp3(leg[0], leg[1], leg[2], &o);
		false_aba += c->summary.count[VERDICT_WIN] + c->summary.count[VERDICT_LOSS] > 0;
		comparison_free(c);
		c = cmp3(leg[0], leg[1], NULL, &o);
		false_ab += c->summary.count[VERDICT_WIN] + c->summary.count[VERDICT_LOSS] > 0;
		free_all(c, leg[0], leg[1], leg[2]);
	}
	print_message("false WIN/LOSS: A/B/A' %d/200, A/B %d/200 (alpha 0.05 -> at most 10)\n",
		      false_aba, false_ab);
	assert_true(false_aba <= 10);
	assert_true(false_ab <= 10);
}

/* ---- auto rounds under optional stopping (docs/design.md §5.13) ---- */

/* One trial of `ab --rounds auto` on simulated legs: each round's level
 * swings +-15% (a busy machine's load coming and going), each leg moves
 * another 3% on its own, 3 samples a leg at 2% spread; B is A times
 * effect. Looks where auto rounds look, each at its spent alpha, SAME
 * within 5%; the verdict where the rounds stopped, and the rounds run. */
static enum verdict auto_trial(double effect, unsigned *rounds_run)
{
	enum { MAX = SEQ_MAX_ROUNDS };
	struct run *r[2 * MAX];
	const char *files[2 * MAX];
	char legs[2 * MAX + 1];
	struct compare_opts o;
	enum verdict v = VERDICT_NOWIN;
	unsigned prev = 0, n = 0;
	compare_opts_default(&o);
	o.rounds = 1;
	o.margin = 0.05;
	for (unsigned k = 0; k < MAX; k++) {
		double u = (double)(rng_next(&gen) >> 11) / 9007199254740992.0;
		double level = 100 * (1 + 0.3 * (u - 0.5));
		for (int s = 0; s < 2; s++) {
			size_t j = 2 * (size_t)k + (size_t)s;
			int is_b = (k % 2 == 0) == (s == 1); /* ABBA... */
			double leg_level = level, x[1];
			struct probe_result *p;
			fill(x, 1, 1, 0.03);
			leg_level *= x[0] * (is_b ? effect : 1);
			legs[j] = is_b ? 'B' : 'A';
			files[j] = "leg";
			r[j] = mk_run(NULL, "madvise");
			p = run_add_probe(r[j], "t.auto");
			mk_metric(p, "rate", BETTER_HIGHER, "4k", leg_level, 0.02, 3);
		}
	}
	for (unsigned k = 1; k <= MAX; k++) {
		struct comparison *c;
		if (!seq_looks_at(k, MAX))
			continue;
		legs[2 * k] = '\0';
		o.legs = legs;
		o.alpha = seq_alpha(0.05, prev, k, MAX);
		o.ci_level = 1 - o.alpha;
		prev = k;
		c = compare_runs((const struct run *const *)r, files, 2 * k, &o);
		assert_non_null(c);
		v = c->rows[0].verdict;
		comparison_free(c);
		n = k;
		if (v == VERDICT_WIN || v == VERDICT_LOSS || v == VERDICT_SAME)
			break;
		legs[2 * k] = k % 2 ? 'B' : 'A';
	}
	for (size_t j = 0; j < 2 * MAX; j++)
		run_free(r[j]);
	*rounds_run = n;
	return v;
}

/* A/A: a false WIN or LOSS in at most alpha of the trials, whenever the
 * rounds stopped; a 20% effect found; A/A mostly ends SAME. */
static void test_auto_rounds_error(void **state)
{
	int false_v = 0, same = 0, found = 0;
	unsigned rounds, sum_aa = 0, sum_b = 0;
	rng_seed(&gen, 2027);
	for (int t = 0; t < 200; t++) {
		enum verdict v = auto_trial(1.0, &rounds);
		false_v += v == VERDICT_WIN || v == VERDICT_LOSS;
		same += v == VERDICT_SAME;
		sum_aa += rounds;
		found += auto_trial(1.2, &rounds) == VERDICT_WIN;
		sum_b += rounds;
	}
	print_message("auto rounds: A/A false WIN/LOSS %d/200, SAME %d/200, %.1f rounds on "
		      "average; +20%%: WIN %d/200, %.1f rounds\n",
		      false_v, same, sum_aa / 200.0, found, sum_b / 200.0);
	assert_true(false_v <= 10);
	assert_true(found >= 180);
	assert_true(same >= 100);
}

static void test_bad_legs_and_json(void **state)
{
	struct compare_opts o;
	struct run *a, *b;
	struct comparison *c;
	json_t *j;
	compare_opts_default(&o);
	rng_seed(&gen, 8);
	a = mk_leg("s", 100, 50, 16, 10);
	b = mk_leg("p", 80, 50, 16, 10);
	o.legs = "AA";
	assert_null(cmp3(a, b, NULL, &o));
	o.legs = "ABA";
	assert_null(cmp3(a, b, NULL, &o));
	o.legs = "AX";
	assert_null(cmp3(a, b, NULL, &o));
	o.legs = "BA"; /* the baseline need not come first */
	c = cmp3(a, b, NULL, &o);
	assert_non_null(c);
	assert_true(row(c, "t.probe latency pages=4k")->change > 0.1); /* a is "B" */
	j = comparison_to_json(c);
	assert_string_equal(json_string_value(json_object_get(j, "schema")), COMPARE_SCHEMA);
	assert_int_equal(json_array_size(json_object_get(j, "metrics")), 3);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(j, "metrics"), 0), "verdict")),
			    "few");
	json_decref(j);
	free_all(c, a, b, NULL);
}

/* A comparison read back from its JSON is the one written: the same JSON
 * again, undefined numbers NAN, an infinite drift infinite (both are null in
 * the file), the legs that lacked a metric still lacking it. */
static void test_json_read_back(void **state)
{
	static const char *const ctl[] = {"t.probe,pages=thp"};
	struct compare_opts o;
	struct run *a, *b, *a2;
	struct comparison *c, *back;
	const struct compare_row *lat;
	json_t *j, *j2;
	compare_opts_default(&o);
	o.controls = ctl;
	o.n_controls = 1;
	rng_seed(&gen, 9);
	a = mk_leg("s", 0, 50, 16, 10); /* a zero first median: drift infinite */
	b = mk_leg("p", 80, 50, 16, 10);
	a2 = mk_leg(NULL, 100, 50, 16, 10);
	probe_add_metric(&b->probes[0], "only_b", UNIT_NS, BETTER_LOWER, "t", NULL);
	c = cmp3(a, b, a2, &o);
	j = comparison_to_json(c);
	back = comparison_from_json(j, "test");
	assert_non_null(back);
	j2 = comparison_to_json(back);
	assert_true(json_equal(j, j2));
	json_decref(j2);
	assert_int_equal(back->n_legs, 3);
	assert_int_equal(back->n_rows, c->n_rows);
	assert_string_equal(back->legs[2].name, c->legs[2].name);
	assert_int_equal(back->opts.n_controls, 1);
	lat = row(back, "t.probe latency pages=4k");
	assert_true(lat->change == row(c, "t.probe latency pages=4k")->change);
	assert_true(isnan(row(back, "t.probe thp_backed pages=thp")->change)); /* a fact */
	assert_true(isinf(lat->drift) && isinf(lat->threshold));
	assert_int_equal(lat->verdict, row(c, "t.probe latency pages=4k")->verdict);
	assert_null(row(back, "t.probe only_b")->m[0]);
	assert_non_null(row(back, "t.probe only_b")->m[1]);
	assert_int_equal(row(back, "t.probe rate pages=thp")->control, 1);
	assert_int_equal(back->summary.count[VERDICT_MISSING], 1);
	comparison_free(back);
	/* strict: a negative count, or another schema, is refused */
	json_object_set_new(
		json_array_get(
			json_object_get(json_array_get(json_object_get(j, "metrics"), 0), "legs"),
			0),
		"n", json_integer(-1));
	assert_null(comparison_from_json(j, "test"));
	json_object_set_new(j, "schema", json_string(RESULTS_SCHEMA));
	assert_null(comparison_from_json(j, "test"));
	json_decref(j);
	free_all(c, a, b, a2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_aa),
		cmocka_unit_test(test_fixture_effect),
		cmocka_unit_test(test_fixture_drift),
		cmocka_unit_test(test_lower_is_better),
		cmocka_unit_test(test_threshold_and_two_legs),
		cmocka_unit_test(test_few_samples),
		cmocka_unit_test(test_void_fact_and_status),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_primary_and_holm),
		cmocka_unit_test(test_drift_large_effect),
		cmocka_unit_test(test_drift_as_large_as_effect),
		cmocka_unit_test(test_drift_b_between),
		cmocka_unit_test(test_drift_rounds),
		cmocka_unit_test(test_drift_monotone),
		cmocka_unit_test(test_property_aa_splits),
		cmocka_unit_test(test_auto_rounds_error),
		cmocka_unit_test(test_bad_legs_and_json),
		cmocka_unit_test(test_json_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
