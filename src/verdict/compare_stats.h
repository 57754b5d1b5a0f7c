/* compare_stats.h - the statistics of legs without rounds, and Holm's
 * correction over the families of metrics (docs/design.md §5.1-§5.4, §5.7):
 * the pipeline (compare.c) runs them between its two halves of rules. */
#ifndef MEMPATH_VERDICT_COMPARE_STATS_H
#define MEMPATH_VERDICT_COMPARE_STATS_H

#include "verdict/comparison.h"

/* A row no rule has settled yet (compare.c's pipeline). */
#define COMPARE_PENDING VERDICT__COUNT

/* The legs of one variant, first and last: the pair whose gap is the drift;
 * 0 when the variant has fewer than two legs. */
int compare_drift_pair(const struct comparison *c, char variant, size_t *first, size_t *last);
/* |to / from - 1|; 0 when equal, infinite from 0. */
double compare_gap(double from, double to);
/* Medians of each variant's samples over every leg that has the metric. */
void compare_pooled_medians(const struct comparison *c, struct compare_row *row);
/* Legs without rounds: pooled medians, the bootstrap CI of their ratio, B
 * against every A leg (U test), the drift within a variant, and the legs'
 * own test (legs.h). */
void compare_stats(const struct comparison *c, struct compare_row *row);
/* Holm-adjusted p of effect and drift within each family (primary,
 * controls, the rest) of the metrics still to be judged. */
void compare_holm(struct comparison *c);

#endif
