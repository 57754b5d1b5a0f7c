/* study.h - N variants compared against a baseline, and on request every
 * pair, as one family (docs/design.md §5.22).
 *
 * A study is the general form of an A/B: legs of n variants (the baseline
 * first), usually in rounds of one leg per variant. Each comparison of two
 * variants is today's A/B comparison (compare.h) of their legs alone, round
 * by round, so every rule of §5 holds for it unchanged. Over the family of
 * comparisons, per metric, Holm's step-down procedure keeps the chance of any
 * false WIN or LOSS within alpha (family.c); each verdict keeps the CI of
 * the level it was judged at. Factors (factorial.h) read the same legs.
 *
 * Holm over the family: each pair compared at alpha / m, then per metric
 * step by step at alpha / (m - k) while k of its comparisons are decided.
 */
#ifndef MEMPATH_VERDICT_STUDY_H
#define MEMPATH_VERDICT_STUDY_H

#include "verdict/comparison.h"

#define STUDY_MAX_VARIANTS 16

/* One comparison of the family: variant b against variant a (a is the
 * baseline in the first n_var - 1). */
struct study_pair {
	size_t a, b;
	struct comparison *c; /* legs of a as 'A', of b as 'B' */
	double *alpha;	      /* per row of c: the level its verdict was judged at */
	/* the legs' runs and files c points into (borrowed from the study) */
	const struct run **runs;
	const char **files;
	char *legs;
};

struct study {
	struct compare_opts opts; /* as given: alpha is the family's */
	size_t n_var;
	char *names[STUDY_MAX_VARIANTS]; /* variant i's name (its legs' label) */
	size_t n_legs;
	const struct run *const *runs; /* borrowed, as given */
	const char *const *files;
	char *of;	   /* per leg its variant's index as a letter: 'A' + i */
	unsigned n_rounds; /* 0: no rounds */
	struct study_pair *pairs;
	size_t n_pairs, m; /* m: the family's size (pairs compared) */
	int all_pairs;
	const char *procedure; /* "Holm" */
	char **notes;
	size_t n_notes;
	/* the comparisons at other levels whose rows family.c moved in (the
	 * rows point into their legs' kept metrics) */
	struct comparison **held;
	size_t n_held;
};

/* The variant of each leg: of[j] 'A' + i for variant i, from the legs' ab
 * records ("variant" letters), or else by run label in the order first seen,
 * baseline first when named. names[] get the labels. The number of
 * variants, or 0 after one error line. */
size_t study_group(const struct run *const *runs, size_t n, const char *baseline, char *of,
		   char **names);
/* Compares the legs of n variants: of[j] names leg j's variant; names the
 * variants. NULL after one error line. */
struct study *study_runs(const struct run *const *runs, const char *const *files, size_t n,
			 const char *of, char *const *names, size_t n_var,
			 const struct compare_opts *o, int all_pairs);
void study_free(struct study *s);
/* The row of pair p for the metric ident, or NULL. */
const struct compare_row *study_row(const struct study_pair *p, const char *ident, size_t *k);
/* The metrics that matter in a study, in the first pair's order: its rows
 * that are not controls or facts (and --primary ones, when given). */
size_t study_metrics(const struct study *s, const struct compare_row ***rows);
/* Not decided yet over every comparison (~ or UNSTABLE, §5.13's rule), of
 * *matter that matter; *out: the most rounds left out for load. */
size_t study_undecided(const struct study *s, size_t *matter, unsigned *out);
/* Whether any comparison is refused, trusted, or has a LOSS. */
int study_refused(const struct study *s);
int study_trusted(const struct study *s);
int study_has_loss(const struct study *s);
void study_add_note(struct study *s, char *text);

#endif
