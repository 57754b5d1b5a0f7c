/* hetero.h - effect heterogeneity over rounds (docs/design.md §5.10): do
 * the rounds' log ratios of medians differ more than their own
 * within-round noise explains? Cochran's Q over the rounds' log ratios,
 * each weighted by the inverse of its within-round variance (the variance
 * of a median's log, pi / 2 times the variance of the log samples over n,
 * of A plus of B); rounds with zero variance are skipped; Q against
 * chi-square with rounds - 1 degrees of freedom. When p < HETERO_ALPHA the
 * verdict says the change depends on load, each round's change beside its
 * load (the other CPUs busy during its legs).
 */
#ifndef MEMPATH_VERDICT_HETERO_H
#define MEMPATH_VERDICT_HETERO_H

#include <jansson.h>

#include "verdict/comparison.h"

#define HETERO_ALPHA 0.05

/* One round's log ratio of medians (log B / A), its within-round variance
 * and its load. */
struct hetero_round {
	unsigned round;
	double log_ratio, var, busy;
};

/* Cochran's Q over the rounds with var > 0 and finite log ratios: Q, its
 * degrees of freedom (*df, rounds used - 1) and p (upper tail of
 * chi-square); -1 when fewer than 2 rounds are left. */
int hetero_q(const struct hetero_round *r, size_t n, double *q, size_t *df, double *p);
/* P(X > x) for X chi-square with df degrees of freedom. */
double hetero_chi2_upper(double x, size_t df);
/* The within-round variance of log median (m's samples): pi / 2 times the
 * variance of the log samples over n; NAN when any sample is not > 0 or
 * n < 2. */
double hetero_log_median_var(const struct metric *m);
/* {"q", "df", "p", "depends_on_load", "rounds": [{"round", "change",
 * "busy", "skipped"?}]} of the rounds a verdict used, or NULL when it could
 * not be tested. */
json_t *hetero_json(const struct hetero_round *r, size_t n);
/* "+36% to +125% depending on load (round 1: +36% at 0.1 other CPUs busy,
 * ...)" from what hetero_row recorded, or NULL when it does not depend on
 * load; a new string. */
char *hetero_words(json_t *h);

#endif
