/* ab_auto.c - auto rounds: when ab looks, and when it stops (ab_auto.h). */
#include "flow/ab_auto.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/sequential.h"

/* The first n legs' files read and compared; NULL after an error line. */
struct comparison *ab_compare_files(const struct compare_opts *co, char *const *leg_paths, size_t n,
				    const struct run ***runs)
{
	*runs = xcalloc(n + 1, sizeof(**runs));
	for (size_t i = 0; i < n; i++)
		if (!((*runs)[i] = run_read_file(leg_paths[i])))
			return NULL;
	return compare_runs(*runs, (const char *const *)leg_paths, n, co);
}

void ab_runs_free(const struct run **runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		run_free((struct run *)runs[i]);
	free(runs);
}

/* The look after round r: compare at the alpha this look may spend. */
static void auto_look_opts(struct ab_auto *a, unsigned r)
{
	a->alpha = seq_alpha(a->alpha0, a->prev, r, a->max);
	a->co.alpha = a->alpha;
	a->co.ci_level = 1 - a->alpha;
	free(a->legs);
	a->legs = xasprintf("%.*s", 2 * (int)r, a->schedule);
	a->co.legs = a->legs;
}

/* How many of the metrics that matter (the --primary ones, else every
 * judged metric that is not a control) are not decided yet: ~ or UNSTABLE
 * (another round may settle them; missing, void, facts and a change with
 * no ratio it cannot). */
static size_t undecided(const struct comparison *c, size_t *matter)
{
	size_t n = 0;
	*matter = 0;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (row->control || (c->opts.primary && !row->primary) ||
		    row->verdict == VERDICT_FACT || row->verdict == VERDICT_MISSING ||
		    row->verdict == VERDICT_VOID || row->verdict == VERDICT_FEW ||
		    (row->verdict == VERDICT_NOWIN && !(row->median_a > 0)))
			continue; /* no round can judge it (no ratio: an A median of 0) */
		++*matter;
		n += row->verdict == VERDICT_NOWIN || row->verdict == VERDICT_UNSTABLE;
	}
	return n;
}

/* The look after round r: the legs so far compared at its alpha; 1 when
 * every metric that matters is decided (a->why says so). */
static int look(struct ab_auto *a, unsigned r, char *const *paths)
{
	const struct run **runs = NULL;
	struct comparison *c;
	size_t matter = 0, left;
	auto_look_opts(a, r);
	a->prev = r;
	c = ab_compare_files(&a->co, paths, 2 * (size_t)r, &runs);
	if (!c) { /* the final comparison will say why */
		ab_runs_free(runs, 2 * (size_t)r);
		a->why = xstrdup("the legs so far could not be compared");
		return 1;
	}
	left = c->refused ? 0 : undecided(c, &matter);
	if (c->refused)
		a->why = xstrdup("knobs differ: more rounds cannot give a verdict");
	else if (!left)
		a->why = xasprintf("every metric that matters decided (%zu)", matter);
	progress("ab: after round %u: %zu of %zu metric%s decided (alpha %.2g at this look)%s", r,
		 matter - left, matter, matter == 1 ? "" : "s", a->alpha,
		 a->why ? "; done" : "; another round");
	comparison_free(c);
	ab_runs_free(runs, 2 * (size_t)r);
	return a->why != NULL;
}

int ab_auto_go_on(void *ctx, unsigned r, char *const *paths)
{
	struct ab_auto *a = ctx;
	double took = (double)time_now_ns() * 1e-9 - a->t0;
	if (r < SEQ_MIN_ROUNDS)
		return 1;
	if (seq_looks_at(r, a->max) && look(a, r, paths))
		return 0;
	/* the budget counts from the first look: fewer rounds cannot judge */
	if (a->budget_s > 0 && took + took / r > a->budget_s) {
		if (a->prev != r) /* end here: one more look, where it stops */
			auto_look_opts(a, r);
		a->why = xasprintf("another round would pass the budget of %g s (%.0f s so far)",
				   a->budget_s, took);
		return 0;
	}
	return 1;
}

void ab_auto_start(struct ab_auto *a, const struct compare_opts *co, unsigned max, double budget_s)
{
	memset(a, 0, sizeof(*a));
	a->co = *co;
	a->max = max;
	a->budget_s = budget_s;
	a->t0 = (double)time_now_ns() * 1e-9;
	a->schedule = co->legs;
	a->alpha0 = co->alpha;
}

char *ab_auto_finish(struct ab_auto *a, unsigned rounds_run, struct compare_opts *co)
{
	if (!a->why) { /* the plan's last round: its look */
		auto_look_opts(a, rounds_run);
		a->why = xasprintf("--max-rounds %u reached", a->max);
	}
	*co = a->co;
	return xasprintf("rounds auto: stopped after %u of at most %u rounds: %s; this look "
			 "tested at alpha %.2g (O'Brien-Fleming-type spending over the looks, "
			 "docs/design.md §5.13)",
			 rounds_run, a->max, a->why, a->alpha);
}

void ab_auto_free(struct ab_auto *a)
{
	free(a->why);
	free(a->legs);
	a->why = a->legs = NULL;
}
