/* bisect.c - one step of `mempath bisect`: the legs of the version under
 * test, the stability gate, the verdicts against the two references
 * (bisect.h; docs/design.md §5.14). */
#include "flow/bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "flow/ab.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/join.h"

/* The legs against one reference (A) as compare's B legs: the reference
 * file first, then the legs; or, measured, each round's reference leg and
 * test leg in pairs, a comparison of rounds. */
static struct comparison *against(const struct bisect_plan *p, const struct bisect_step *s,
				  const struct run *ref, const char *ref_name, char ref_variant)
{
	const struct run *runs[BISECT_MAX_LEGS + 1];
	const char *files[BISECT_MAX_LEGS + 1];
	char legs[BISECT_MAX_LEGS + 2];
	struct compare_opts co = p->co;
	size_t n = 0;

	if (ref) {
		runs[n] = ref;
		files[n] = ref_name;
		legs[n++] = 'A';
	}
	/* rounds: the reference leg of a round before its test leg */
	for (size_t r = 0; r < s->n_legs; r += ref ? s->n_legs : 3)
		for (int want = 0; want < 2; want++)
			for (size_t i = r; i < s->n_legs && i < (ref ? s->n_legs : r + 3); i++)
				if (s->variant[i] == (want ? 'C' : ref_variant)) {
					runs[n] = s->legs[i];
					files[n] = s->leg_paths[i];
					legs[n++] = want ? 'B' : 'A';
				}
	legs[n] = '\0';
	co.legs = legs;
	co.rounds = !ref;
	return compare_runs(runs, files, n, &co);
}

static int decides(const struct bisect_plan *p, const struct compare_row *row)
{
	const struct probe_result *pr = NULL;

	for (size_t j = 0; j < COMPARE_MAX_LEGS && !pr; j++)
		pr = row->pr[j];
	if (row->better == BETTER_NONE || row->verdict == VERDICT_MISSING || !pr)
		return 0;
	return !p->metric || compare_pattern_match(p->metric, row->probe, row->metric, row->labels,
						   row->n_labels, pr->params, pr->n_params);
}

/* A sample set's scatter: 1.4826 MAD / median (a standard deviation
 * relative to the median that one run under a passing load does not
 * inflate); 0 for fewer than two samples. */
static double scatter(const struct metric *m)
{
	double *d, med, mad;

	if (m->n_samples < 2 || m->summary.median == 0)
		return 0;
	d = xcalloc(m->n_samples, sizeof(*d));
	med = m->summary.median;
	for (size_t i = 0; i < m->n_samples; i++)
		d[i] = fabs(m->samples[i] - med);
	mad = stats_median(d, m->n_samples);
	free(d);
	return 1.4826 * mad / fabs(med);
}

/* The gate: in every deciding metric, each leg of the version under test
 * scatters within `stable`, and its legs agree within `stable`: their
 * medians, or with measured references each round's ratio of the test leg
 * to the reference leg (the load a round had cancels in it). NULL when it
 * holds, else why not (a new string). */
static char *gate(const struct bisect_plan *p, const struct comparison *c)
{
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		double lo = INFINITY, hi = -INFINITY;

		if (!decides(p, row))
			continue;
		for (size_t j = 0; j < c->n_legs; j++) {
			const struct metric *m = row->m[j];
			double v;

			if (c->legs[j].variant != 'B')
				continue; /* the version under test's legs only */
			if (!m || m->summary.n < 2)
				return xasprintf("%s: leg %zu has %zu sample(s)", row->key, j + 1,
						 m ? m->summary.n : 0);
			if (scatter(m) > p->stable)
				return xasprintf(
					"%s: a leg's samples scatter by %.1f%% (1.4826 MAD / "
					"median; the gate is %.0f%%)",
					row->key, 100 * scatter(m), 100 * p->stable);
			v = m->summary.median;
			for (size_t k = 0; c->n_rounds && k < c->n_legs; k++)
				if (k != j && c->legs[k].round == c->legs[j].round)
					v = row->m[k] && row->m[k]->summary.median > 0
						    ? v / row->m[k]->summary.median
						    : NAN;
			if (!(v > 0))
				return xasprintf("%s: a round without a reference", row->key);
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		if (hi / lo - 1 > p->stable)
			return xasprintf(
				"%s: the legs' %s differ by %.1f%% (the gate is %.0f%%)", row->key,
				c->n_rounds ? "ratios to the good leg of their round" : "medians",
				100 * (hi / lo - 1), 100 * p->stable);
	}
	return NULL;
}

/* The row of key in c, or NULL. */
static const struct compare_row *row_of(const struct comparison *c, const char *ident)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (strcmp(c->rows[i].ident, ident) == 0)
			return &c->rows[i];
	return NULL;
}

/* Does the row say, significantly, that the legs are better (want_better)
 * or worse than the reference? WIN or LOSS; or UNSTABLE for the drift
 * between the legs of the version under test alone, which the gate has
 * bounded already: p (Holm) below alpha and the CI beyond the threshold. */
static int clear_of(const struct compare_row *row, int want_better, double alpha)
{
	int lower = row->better == BETTER_LOWER;
	int better = lower ? row->ci_hi < -row->threshold : row->ci_lo > row->threshold;
	int worse = lower ? row->ci_lo > row->threshold : row->ci_hi < -row->threshold;

	if (row->verdict == VERDICT_WIN || row->verdict == VERDICT_LOSS)
		return row->verdict == (want_better ? VERDICT_WIN : VERDICT_LOSS);
	return row->verdict == VERDICT_UNSTABLE && row->p_effect_adj < alpha &&
	       (want_better ? better : worse);
}

/* Where the legs lie between the references, per deciding metric: f =
 * log(test / good) / log(bad / good) from the changes, 0 at the good
 * level, 1 at the bad. Good: f <= 1/3 and significantly better than the
 * bad one (clear_of); bad: f >= 2/3 and significantly worse than the good
 * one; else cannot tell (in between, the references too close, a verdict
 * withheld). Every deciding metric must agree. */
static void judge(const struct bisect_plan *p, struct bisect_step *s)
{
	size_t n_good = 0, n_bad = 0, n = 0;
	char *why = NULL;

	for (size_t i = 0; i < s->vs_good->n_rows; i++) {
		const struct compare_row *g = &s->vs_good->rows[i], *b;
		double f = NAN;

		if (!decides(p, g) || g->control)
			continue;
		b = row_of(s->vs_bad, g->ident);
		n++;
		/* log(bad / good) = log(test / good) - log(test / bad), from each
		 * comparison's change (per round, with measured references) */
		if (b && g->change > -1 && b->change > -1 &&
		    fabs(log1p(g->change) - log1p(b->change)) > log(1.02))
			f = log1p(g->change) / (log1p(g->change) - log1p(b->change));
		if (isfinite(f) && f <= 1.0 / 3 && clear_of(b, 1, p->co.alpha))
			n_good++;
		else if (isfinite(f) && f >= 2.0 / 3 && clear_of(g, 0, p->co.alpha))
			n_bad++;
		else if (!why && !b)
			why = xasprintf("%s: not in the bad reference", g->key);
		else if (!why && !isfinite(f))
			why = xasprintf("%s: the references differ by under 2%%", g->key);
		else if (!why)
			why = xasprintf(
				"%s: %.0f%% of the way from good to bad (%s against the good "
				"reference, %s against the bad one)",
				g->key, 100 * f, verdict_name(g->verdict),
				verdict_name(b->verdict));
	}
	if (n == 0) {
		s->verdict = BISECT_SKIP;
		s->why = xstrdup(p->metric ? "no metric matches --metric in both the legs and "
					     "the references"
					   : "no metric with a better direction in both the legs "
					     "and the references");
	} else if (n_good == n || n_bad == n) {
		s->verdict = n_good == n ? BISECT_GOOD : BISECT_BAD;
		s->why = xasprintf("%zu metric(s) like the %s reference", n,
				   n_good == n ? "good" : "bad");
	} else {
		s->verdict = BISECT_SKIP;
		s->why = why ? why
			     : xasprintf("%zu metric(s) like the good reference, %zu like the bad, "
					 "of %zu",
					 n_good, n_bad, n);
		why = NULL;
	}
	free(why);
}

/* The legs: the version under test alone (C...), or with measured
 * references, rounds of GTB and BTG (A good, B bad, C under test). */
static void schedule(const struct bisect_plan *p, char *legs)
{
	size_t n = 0;

	for (unsigned r = 0; r < p->legs; r++)
		if (!p->good_args)
			legs[n++] = 'C';
		else
			n += (size_t)sprintf(legs + n, "%s", r % 2 ? "BCA" : "ACB");
	legs[n] = '\0';
}

void bisect_step_run(const struct bisect_plan *p, struct bisect_step *s)
{
	char legs[BISECT_MAX_LEGS + 1], **paths = NULL, *reason;
	struct ab_plan plan = {.a = {.label = "good", .setup = p->good_setup, .args = p->good_args},
			       .b = {.label = "bad", .setup = p->bad_setup, .args = p->bad_args},
			       .c = {.label = "test", .setup = p->setup, .args = p->test_args},
			       .legs = legs,
			       .dir = p->dir,
			       /* the restore of a step is its own; none: nothing */
			       .restore = p->restore ? p->restore : ":",
			       .argv = p->argv,
			       .argc = p->argc,
			       .setup_timeout_s = p->setup_timeout_s,
			       .leg_timeout_s = p->leg_timeout_s};
	enum ab_outcome out;
	size_t n_run;

	memset(s, 0, sizeof(*s));
	s->verdict = BISECT_SKIP;
	if (p->good_args && !p->test_args)
		plan.c.args = ""; /* its {} goes, as the references' words fill theirs */
	schedule(p, legs);
	s->n_legs = strlen(legs);
	out = ab_flow(&plan, &paths, &n_run);
	for (size_t i = 0; i < s->n_legs; i++) {
		s->leg_paths[i] = paths[i];
		s->variant[i] = legs[i];
		if (out == AB_DONE && !(s->legs[i] = run_read_file(paths[i])))
			out = AB_LEG_FAILED;
	}
	free(paths);
	if (out != AB_DONE) {
		s->failed = out == AB_INTERRUPTED ? 130 : 1;
		s->why =
			xstrdup(out == AB_INTERRUPTED ? "interrupted"
				: out == AB_RESTORE_FAILED
					? "the restore failed (see restore.log)"
					: "a setup or leg failed: this version cannot be measured");
		return;
	}
	s->vs_good = against(p, s, p->good, p->good_name, 'A');
	s->vs_bad = against(p, s, p->bad, p->bad_name, 'B');
	if (!s->vs_good || !s->vs_bad) {
		s->failed = 1;
		s->why = xstrdup("the legs could not be compared with the references");
		return;
	}
	if ((reason = gate(p, s->vs_good))) {
		s->why = xasprintf("unstable: %s", reason);
		free(reason);
		return;
	}
	judge(p, s);
}

void bisect_step_free(struct bisect_step *s)
{
	for (size_t i = 0; i < s->n_legs; i++) {
		run_free(s->legs[i]);
		free(s->leg_paths[i]);
	}
	comparison_free(s->vs_good);
	comparison_free(s->vs_bad);
	free(s->why);
}
