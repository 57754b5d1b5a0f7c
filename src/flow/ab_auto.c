/* ab_auto.c - auto rounds: when ab looks, and when it stops (ab_auto.h). */
#include "flow/ab_auto.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/sequential.h"
#include "verdict/study.h"

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

unsigned ab_auto_cap(unsigned max)
{
	unsigned cap = max + max / 2;
	return cap < COMPARE_MAX_LEGS / 2 ? cap : COMPARE_MAX_LEGS / 2;
}

/* The look after round r, u of them used: compare at the alpha this look
 * may spend (the information fraction counts the rounds used). */
static void auto_look_opts(struct ab_auto *a, unsigned r, unsigned u)
{
	a->alpha = seq_alpha(a->alpha0, a->prev, u, a->max);
	a->co.alpha = a->alpha;
	a->co.ci_level = 1 - a->alpha;
	free(a->legs);
	a->legs = xasprintf("%.*s", (int)(a->per_round * r), a->schedule);
	a->co.legs = a->legs;
}

/* How many of the metrics that matter (the --primary ones, else every
 * judged metric that is not a control) are not decided yet: ~ or UNSTABLE
 * (another round may settle them; missing, void, facts and a change with
 * no ratio it cannot). */
static size_t undecided(const struct comparison *c, size_t *matter, unsigned *out)
{
	size_t n = 0;
	*matter = 0;
	*out = 0;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (row->control || (c->opts.primary && !row->primary) ||
		    row->verdict == VERDICT_FACT || row->verdict == VERDICT_MISSING ||
		    row->verdict == VERDICT_VOID || row->verdict == VERDICT_FEW ||
		    (row->verdict == VERDICT_NOWIN && !(row->median_a > 0)))
			continue; /* no round can judge it (no ratio: an A median of 0) */
		++*matter;
		n += row->verdict == VERDICT_NOWIN || row->verdict == VERDICT_UNSTABLE;
		if (row->rounds_out > *out) /* the rounds left out for load: replaced */
			*out = (unsigned)row->rounds_out;
	}
	return n;
}

/* The legs of the first r rounds of a study read and compared at the look's
 * options (verdict/study.h); NULL after an error line. */
static struct study *study_rounds(struct ab_auto *a, unsigned r, char *const *paths)
{
	size_t n = a->per_round * r, nv;
	const struct run **runs = xcalloc(n + 1, sizeof(*runs));
	char *of = xcalloc(n + 1, 1), *names[STUDY_MAX_VARIANTS];
	struct study *s = NULL;
	struct compare_opts co = a->co;
	co.legs = NULL;
	for (size_t i = 0; i < n; i++)
		if (!(runs[i] = run_read_file(paths[i])))
			goto out;
	if (!(nv = study_group(runs, n, NULL, of, names)))
		goto out;
	s = study_runs(runs, (const char *const *)paths, n, of, names, nv, &co, a->all_pairs);
	for (size_t i = 0; i < nv; i++)
		free(names[i]);
	if (s) /* the runs go with the study: it points into them */
		a->held = runs, a->n_held = n, runs = NULL;
out:
	ab_runs_free(runs, n);
	free(of);
	return s;
}

/* The legs of the first r rounds compared at the options of a look
 * (auto_look_opts): -1 when they cannot be (the final comparison will say
 * why), 1 when knobs differ (refused), else 0. *left: the metrics that
 * matter not decided yet, *out: the most rounds left out for their load. */
static int compare_rounds(struct ab_auto *a, unsigned r, char *const *paths, size_t *matter,
			  size_t *left, unsigned *out)
{
	const struct run **runs = NULL;
	struct comparison *c;
	int rc;
	*matter = *left = *out = 0;
	if (a->per_round > 2) {
		struct study *s = study_rounds(a, r, paths);
		if (!s)
			return -1;
		rc = study_refused(s);
		*left = rc ? 0 : study_undecided(s, matter, out);
		study_free(s);
		ab_runs_free(a->held, a->n_held);
		a->held = NULL;
		return rc;
	}
	c = ab_compare_files(&a->co, paths, 2 * (size_t)r, &runs);
	rc = c ? c->refused : -1;
	if (c)
		*left = c->refused ? 0 : undecided(c, matter, out);
	comparison_free(c);
	ab_runs_free(runs, 2 * (size_t)r);
	return rc;
}

/* The look after round r, u of them used: the legs so far compared at its
 * alpha; 1 when every metric that matters is decided (a->why says so). */
static int look(struct ab_auto *a, unsigned r, unsigned u, char *const *paths)
{
	size_t matter, left;
	unsigned out;
	char replaced[64] = "";
	int refused;
	auto_look_opts(a, r, u);
	a->prev = u;
	a->look_r = r;
	if ((refused = compare_rounds(a, r, paths, &matter, &left, &out)) < 0) {
		a->why = xstrdup("the legs so far could not be compared");
		return 1;
	}
	if (refused)
		a->why = xstrdup("knobs differ: more rounds cannot give a verdict");
	else if (!left)
		a->why = xasprintf("every metric that matters decided (%zu)", matter);
	if (out)
		snprintf(replaced, sizeof(replaced), " (%u left out for their load, replaced)",
			 out);
	progress("ab: after round %u%s: %zu of %zu metric%s decided (alpha %.2g at this look)%s", r,
		 replaced, matter - left, matter, matter == 1 ? "" : "s", a->alpha,
		 a->why ? "; done" : "; another round");
	return a->why != NULL;
}

/* The rounds end after round r: unless a look was made there, one more,
 * which spends what alpha is left (no look comes after it, §5.13). */
static void end_look(struct ab_auto *a, unsigned r)
{
	if (a->look_r != r)
		auto_look_opts(a, r, a->max);
}

int ab_auto_go_on(void *ctx, unsigned r, char *const *paths)
{
	struct ab_auto *a = ctx;
	double took = (double)time_now_ns() * 1e-9 - a->t0;
	unsigned u;
	if (r < SEQ_MIN_ROUNDS)
		return 1;
	/* the rounds used so far: a round left out for its legs' load in a
	 * metric that matters does not count, another takes its place */
	a->co.legs = NULL;
	free(a->legs);
	a->legs = xasprintf("%.*s", (int)(a->per_round * r), a->schedule);
	a->co.legs = a->legs;
	{
		size_t matter, left;
		compare_rounds(a, r, paths, &matter, &left, &a->out);
	}
	u = a->out < r ? r - a->out : 0;
	if (u > a->prev && seq_looks_at(u, a->max) && look(a, r, u, paths))
		return 0;
	if (u >= a->max) {
		end_look(a, r);
		a->why = xasprintf("--max-rounds %u reached", a->max);
		return 0;
	}
	/* the budget counts from the first look: fewer rounds cannot judge */
	if (a->budget_s > 0 && took + took / r > a->budget_s) {
		end_look(a, r);
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
	a->cap = ab_auto_cap(max);
	a->budget_s = budget_s;
	a->t0 = (double)time_now_ns() * 1e-9;
	a->schedule = co->legs;
	a->alpha0 = co->alpha;
	a->per_round = 2;
}

char *ab_auto_finish(struct ab_auto *a, unsigned rounds_run, struct compare_opts *co)
{
	char used[160];
	if (!a->why) { /* the schedule's last round: its look spends what is left */
		end_look(a, rounds_run);
		a->why = xasprintf("the most rounds run (%u: --max-rounds %u and %u to replace "
				   "rounds left out for their load)",
				   rounds_run, a->max, rounds_run - a->max);
	}
	*co = a->co;
	if (a->out)
		snprintf(used, sizeof(used),
			 " rounds, %u of them used (at most %u; %u left out for %s legs' load and "
			 "replaced)",
			 rounds_run - a->out, a->max, a->out, a->out == 1 ? "its" : "their");
	else
		snprintf(used, sizeof(used), " of at most %u rounds", a->max);
	return xasprintf("rounds auto: stopped after %u%s: %s; this look tested at alpha %.2g "
			 "(O'Brien-Fleming-type spending over the looks, docs/design.md §5.13)",
			 rounds_run, used, a->why, a->alpha);
}

void ab_auto_free(struct ab_auto *a)
{
	free(a->why);
	free(a->legs);
	a->why = a->legs = NULL;
}
