/* study_data.h - what the writers of a study show (docs/design.md §5.22,
 * the four tables of a tiering study's report): per metric that matters, each variant's
 * median and standard deviation over its legs' samples and its ratio to the
 * baseline with the CI and verdict of its comparison; the per-iteration
 * medians of a workload's repetitions; the counters' deltas per variant,
 * ranked; the factors' effects. Every format reads these, so all say the
 * same. */
#ifndef MEMPATH_REPORT_STUDY_DATA_H
#define MEMPATH_REPORT_STUDY_DATA_H

#include <stddef.h>

#include "verdict/factorial.h"
#include "verdict/study.h"

/* Iterations shown at most (the seed's table: five). */
#define STUDY_MAX_ITER 16

struct study_cell {
	double median, sd; /* over the variant's legs' samples; NAN: none */
	size_t n;
	/* against the baseline (NULL for the baseline itself) */
	const struct compare_row *vs;
	double level; /* the level the verdict was judged at */
	/* the median of sample i over the variant's legs: its i-th repetition */
	double iter[STUDY_MAX_ITER];
	size_t n_iter;
	/* the median of each round's leg, round r at [r - 1] (NAN: none) */
	double round[COMPARE_MAX_LEGS];
};

struct study_metric {
	const struct compare_row *row; /* the first pair's row: key, unit, better */
	struct study_cell cell[STUDY_MAX_VARIANTS];
	struct fact_effect *effects; /* factors' effects; n_effects */
	size_t n_effects;
};

struct study_counter {
	char *name;
	double median[STUDY_MAX_VARIANTS]; /* of the legs' deltas (summed over probes) */
	int from_zero;			   /* 0 in the baseline, above 0 in some variant */
	double size;			   /* the largest |log ratio| to the baseline */
};

struct study_data {
	const struct study *s;
	struct factorial *fac; /* NULL: not factors */
	struct study_metric *metrics;
	size_t n_metrics;
	int iterations; /* a variant's legs repeat their samples (a wrapped workload) */
	struct study_counter *counters; /* ranked: from zero first, then by size */
	size_t n_counters;
};

void study_data_make(struct study_data *d, const struct study *s);
void study_data_free(struct study_data *d);
/* A ratio as hyperfine writes it: "1.61" (three digits beyond 0.1..100). */
void study_fmt_ratio(double r, char *buf, size_t len);
/* "1.61x" / "[1.48, 1.75]" of a cell against the baseline, "-" when none. */
void study_ratio(const struct study_cell *c, char *buf, size_t len);
void study_ratio_ci(const struct study_cell *c, char *buf, size_t len);
/* The hyperfine-style line of variant v for metric k: "r5: tg128 1.61x r1
 * [1.48, 1.75] WIN"; a new string. */
char *study_line(const struct study_data *d, size_t k, size_t v);
/* The metric that answers for variant v: its largest WIN or LOSS, else
 * the first. */
size_t study_headline(const struct study_data *d, size_t v);
/* The head lines: variants, baseline, rounds, the family and its
 * procedure; a new string (lines ending in newlines). */
char *study_head(const struct study *s);

#endif
