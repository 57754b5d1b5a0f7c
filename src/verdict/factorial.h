/* factorial.h - a study's variants as the product of factors: each factor's
 * main effect and each pair's interaction, per metric (docs/design.md
 * §5.22).
 *
 * Variants named "f1=l1,f2=l2,..." (ab --factor makes them) with every
 * combination of levels present are a full factorial; the first level of
 * every factor is the baseline. Per round and metric the log of each
 * variant's median is y; the main effect of level l of factor f is the mean
 * over the other factors' levels of y(f=l) - y(f=base), the interaction of
 * levels l of f and h of g the mean of y(l,h) - y(l,g0) - y(f0,h) + y(f0,g0):
 * each round gives one value, so load and drift between rounds cancel, and
 * the t interval over the rounds is the CI (Bonferroni over the effects,
 * which are few). Effects are shown as ratios: 1.30x is +30%.
 */
#ifndef MEMPATH_VERDICT_FACTORIAL_H
#define MEMPATH_VERDICT_FACTORIAL_H

#include <stddef.h>

struct study;

#define FACTORIAL_MAX	     4
#define FACTORIAL_MAX_LEVELS 8

struct factor {
	char *name;
	char *levels[FACTORIAL_MAX_LEVELS];
	size_t n_levels;
};

struct factorial {
	struct factor f[FACTORIAL_MAX];
	size_t n;
	/* the variant of each cell: level indices as digits in base
	 * FACTORIAL_MAX_LEVELS, f[0] the most significant */
	size_t cell[1 << (3 * FACTORIAL_MAX)];
	size_t n_effects; /* main effects and two-way interactions */
};

/* One effect of one metric. */
struct fact_effect {
	char what[128];	      /* "nb=2" or "kernel=pghot x nb=2" */
	int interaction;      /* 0: a main effect */
	double ratio, lo, hi; /* exp of the mean and CI of the log contrast */
	size_t rounds;	      /* the rounds it rests on */
	const char *word;     /* "effect", "no effect", "not decided"; "interaction",
			       * "no interaction", "interaction not ruled out";
			       * "needs rounds" */
};

/* The factors the variants' names spell, or NULL when they are not a full
 * factorial (any name without '=', a level missing). */
struct factorial *factorial_from_names(const struct study *s);
void factorial_free(struct factorial *f);
/* The effects of the metric ident: main effects of every non-base level,
 * then the interactions of every pair of factors' non-base levels; into
 * out (at least f->n_effects long). Returns how many. The margin within
 * which a CI reads "no effect" or "no interaction": the study's --margin,
 * else FACTORIAL_MARGIN. */
#define FACTORIAL_MARGIN 0.05
size_t factorial_effects(const struct study *s, const struct factorial *f, const char *ident,
			 struct fact_effect *out);

#endif
