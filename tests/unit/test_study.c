/* test_study.c - studies of N variants (verdict/study.h, factorial.h,
 * docs/design.md §5.22): the schedule of N variants, grouping legs by record
 * and by label, a verdict per variant against the baseline with the family
 * held by Holm, the A/A/A/A false rate, and a 2x2 factorial whose known main
 * effects and absent interaction are reported, and a planted interaction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "flow/ab.h"
#include "flow/ab_schedule.h"
#include "verdict/compare.h"
#include "verdict/factorial.h"
#include "verdict/study.h"

static struct rng gen;

enum { MAXV = 8, MAXR = 12 };

static double unif(void)
{
	return (double)(rng_next(&gen) >> 11) / 9007199254740992.0;
}

/* A leg of variant v (letter 'A' + v) in round r: "rate" (higher is
 * better), 6 samples at 1% noise around mu, its ab record naming both. */
static struct run *leg(size_t v, unsigned r, const char *label, double mu)
{
	struct run *run = run_new();
	struct probe_result *p = run_add_probe(run, "t.study");
	struct metric *m = probe_add_metric(p, "rate", UNIT_GIB_S, BETTER_HIGHER, "test", NULL);
	char letter[2] = {(char)('A' + v), 0};
	run->label = xstrdup(label);
	run->knobs_start = json_pack("{s:s}", "thp_enabled", "madvise");
	run->knobs_end = json_pack("{s:s}", "thp_enabled", "madvise");
	run->leg = json_pack("{s:s, s:s, s:i}", "variant", letter, "label", label, "round", (int)r);
	for (int i = 0; i < 6; i++) {
		double s = 0;
		for (int k = 0; k < 4; k++)
			s += unif();
		metric_add_sample(m, mu * (1 + 0.01 * (s - 2) * 1.732));
	}
	probe_add_counter(p, "pgpromote_success", v == 3 ? 500 + (int64_t)r : 0);
	probe_add_counter(p, "numa_hint_faults", 1000 * (int64_t)(v + 1));
	return run;
}

struct legs {
	struct run *r[MAXV * MAXR];
	const char *files[MAXV * MAXR];
	char of[MAXV * MAXR + 1];
	char *names[MAXV];
	size_t n, nv;
};

/* nv variants of mu[v] each, R rounds in the schedule's order, each round
 * with a drift common to its legs (load that comes and goes). */
static void make(struct legs *L, size_t nv, unsigned R, const double *mu, char *const *names)
{
	char *sched = ab_schedule_n(nv, R, "abba", 1);
	memset(L, 0, sizeof(*L));
	L->nv = nv;
	for (unsigned r = 0; r < R; r++) {
		double drift = 1 + 0.05 * (unif() - 0.5);
		for (size_t k = 0; k < nv; k++) {
			size_t v = (size_t)(sched[r * nv + k] - 'A');
			L->r[L->n] = leg(v, r + 1, names[v], mu[v] * drift);
			L->files[L->n] = names[v];
			L->n++;
		}
	}
	free(sched);
}

static void drop(struct legs *L)
{
	for (size_t i = 0; i < L->n; i++)
		run_free(L->r[i]);
	for (size_t i = 0; i < L->nv; i++)
		free(L->names[i]);
}

static struct study *study_of(struct legs *L, int all_pairs)
{
	struct compare_opts o;
	size_t nv;
	compare_opts_default(&o);
	nv = study_group((const struct run *const *)L->r, L->n, NULL, L->of, L->names);
	assert_int_equal(nv, L->nv);
	return study_runs((const struct run *const *)L->r, L->files, L->n, L->of, L->names, nv, &o,
			  all_pairs);
}

static void test_schedule(void **state)
{
	char *two = ab_schedule_n(2, 6, "abba", 1), *one = ab_schedule(6, "abba", 1);
	char *four = ab_schedule_n(4, 8, "abba", 1), *rnd = ab_schedule_n(5, 7, "random", 9);
	int place[4][4] = {{0}};
	assert_string_equal(two, one); /* two variants: today's schedule */
	assert_string_equal(four, "ABCDDCBABCDAADCBCDABBADCDABCCBAD");
	for (unsigned r = 0; r < 8; r++) /* every variant once a round, in every place */
		for (size_t k = 0; k < 4; k++)
			place[four[4 * r + k] - 'A'][k]++;
	for (size_t v = 0; v < 4; v++)
		for (size_t k = 0; k < 4; k++)
			assert_int_equal(place[v][k], 2);
	for (unsigned r = 0; r < 7; r++)
		for (char c = 'A'; c < 'F'; c++)
			assert_non_null(memchr(rnd + 5 * r, c, 5));
	free(two);
	free(one);
	free(four);
	free(rnd);
}

/* Baseline, +0%, +10%, -10%: ~ or SAME, WIN, LOSS, each at its Holm level
 * with its CI; the family is 3. */
static void test_four(void **state)
{
	const double mu[] = {100, 100, 110, 90};
	char *names[] = {"base", "same", "up", "down"};
	struct legs L;
	struct study *s;
	size_t k;
	rng_seed(&gen, 38);
	make(&L, 4, 6, mu, names);
	assert_non_null(s = study_of(&L, 0));
	assert_int_equal(s->n_rounds, 6);
	assert_int_equal(s->m, 3);
	assert_string_equal(s->names[2], "up");
	const struct compare_row *same = &s->pairs[0].c->rows[0], *up = &s->pairs[1].c->rows[0],
				 *down = &s->pairs[2].c->rows[0];
	assert_true(same->verdict == VERDICT_NOWIN || same->verdict == VERDICT_SAME);
	assert_int_equal(up->verdict, VERDICT_WIN);
	assert_int_equal(down->verdict, VERDICT_LOSS);
	assert_true(up->ci_lo > 0.05 && up->ci_hi < 0.15);
	for (k = 0; k < 3; k++) /* no level looser than alpha / (m - 2) */
		assert_true(s->pairs[k].alpha[0] >= 0.05 / 3 - 1e-12 &&
			    s->pairs[k].alpha[0] <= 0.05 + 1e-12);
	assert_null(factorial_from_names(s)); /* names are no factors */
	study_free(s);
	/* every pair on request: 6 comparisons (grouped again: the names of
	 * the first grouping go first) */
	for (k = 0; k < L.nv; k++) {
		free(L.names[k]);
		L.names[k] = NULL;
	}
	assert_non_null(s = study_of(&L, 1));
	assert_int_equal(s->m, 6);
	assert_int_equal(s->pairs[5].a, 2);
	assert_int_equal(s->pairs[5].b, 3);
	assert_int_equal(s->pairs[5].c->rows[0].verdict, VERDICT_LOSS); /* 90 against 110 */
	study_free(s);
	drop(&L);
}

/* Grouped by label when the files have no records, baseline named. */
static void test_group_labels(void **state)
{
	const double mu[] = {100, 120, 100};
	char *names[] = {"x", "y", "z"}, of[32], *got[MAXV];
	struct legs L;
	rng_seed(&gen, 5);
	make(&L, 3, 4, mu, names);
	for (size_t i = 0; i < L.n; i++) {
		json_decref(L.r[i]->leg);
		L.r[i]->leg = NULL;
	}
	assert_int_equal(study_group((const struct run *const *)L.r, L.n, "z", of, got), 3);
	assert_string_equal(got[0], "z");
	for (size_t i = 0; i < L.n; i++)
		assert_string_equal(got[of[i] - 'A'], L.r[i]->label);
	for (size_t i = 0; i < 3; i++)
		free(got[i]);
	assert_int_equal(study_group((const struct run *const *)L.r, L.n, "nope", of, got), 0);
	drop(&L);
}

/* A/A/A/A: four variants alike, many studies: WIN or LOSS at most 1 in 100
 * judged comparisons with the family held. */
static void test_aaaa(void **state)
{
	const double mu[] = {100, 100, 100, 100};
	char *names[] = {"a1", "a2", "a3", "a4"};
	size_t judged = 0, wrong = 0;
	rng_seed(&gen, 4444);
	for (int t = 0; t < 400; t++) {
		struct legs L;
		struct study *s;
		make(&L, 4, 4, mu, names);
		assert_non_null(s = study_of(&L, 0));
		for (size_t k = 0; k < s->n_pairs; k++) {
			enum verdict v = s->pairs[k].c->rows[0].verdict;
			judged += v == VERDICT_NOWIN || v == VERDICT_SAME || v == VERDICT_WIN ||
				  v == VERDICT_LOSS;
			wrong += v == VERDICT_WIN || v == VERDICT_LOSS;
		}
		study_free(s);
		drop(&L);
	}
	print_message("A/A/A/A: %zu false WIN/LOSS of %zu judged comparisons\n", wrong, judged);
	assert_true(judged >= 1000);
	assert_true(wrong * 100 <= judged);
}

/* kernel x nb, 2x2: kernel=pghot x1.2, nb=2 x1.1, multiplicative (no
 * interaction): both effects, "no interaction"; planted x1.3 in (pghot, 2):
 * "interaction". */
static void factorial_case(double planted, struct fact_effect *e, size_t *n)
{
	const double mu[] = {100, 110, 120, 132 * planted};
	char *names[] = {"kernel=base,nb=0", "kernel=base,nb=2", "kernel=pghot,nb=0",
			 "kernel=pghot,nb=2"};
	struct legs L;
	struct study *s;
	struct factorial *f;
	make(&L, 4, 6, mu, names);
	assert_non_null(s = study_of(&L, 0));
	assert_non_null(f = factorial_from_names(s));
	assert_int_equal(f->n, 2);
	assert_int_equal(f->n_effects, 3);
	*n = factorial_effects(s, f, s->pairs[0].c->rows[0].ident, e);
	factorial_free(f);
	study_free(s);
	drop(&L);
}

static void test_factorial(void **state)
{
	struct fact_effect e[8];
	size_t n;
	rng_seed(&gen, 22);
	factorial_case(1, e, &n);
	assert_int_equal(n, 3);
	assert_string_equal(e[0].what, "kernel=pghot");
	assert_string_equal(e[1].what, "nb=2");
	assert_string_equal(e[2].what, "kernel=pghot x nb=2");
	print_message("kernel %.3fx [%.3f, %.3f] %s; nb %.3fx %s; %.3fx [%.3f, %.3f] %s\n",
		      e[0].ratio, e[0].lo, e[0].hi, e[0].word, e[1].ratio, e[1].word, e[2].ratio,
		      e[2].lo, e[2].hi, e[2].word);
	assert_true(fabs(e[0].ratio - 1.2) < 0.02 && e[0].lo > 1);
	assert_string_equal(e[0].word, "effect");
	assert_true(fabs(e[1].ratio - 1.1) < 0.02);
	assert_string_equal(e[1].word, "effect");
	assert_string_equal(e[2].word, "no interaction");
	factorial_case(1.3, e, &n);
	print_message("planted: %.3fx [%.3f, %.3f] %s\n", e[2].ratio, e[2].lo, e[2].hi, e[2].word);
	assert_string_equal(e[2].word, "interaction");
	assert_true(fabs(e[2].ratio - 1.3) < 0.03);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),     cmocka_unit_test(test_four),
		cmocka_unit_test(test_group_labels), cmocka_unit_test(test_aaaa),
		cmocka_unit_test(test_factorial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
