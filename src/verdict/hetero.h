/* hetero.h - effect heterogeneity over rounds (docs/design.md §5.10): do
 * the rounds' log ratios of medians differ more than their own
 * within-round noise explains? Cochran's Q over the rounds' log ratios,
 * each weighted by the inverse of its within-round variance (the variance
 * of a median's log, pi / 2 times the variance of the log samples over n,
 * of A plus of B); rounds with zero variance are skipped; Q against
 * chi-square with rounds - 1 degrees of freedom. When p < HETERO_ALPHA the
 * verdict says the change differs across rounds, each round's change beside
 * its load (the other CPUs busy during its legs), and that it depends on
 * load only when the rounds' log ratios also go with their loads: the
 * weighted regression of the one on the other (hetero_load_slope) has a
 * slope with p < HETERO_ALPHA.
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
/* The weighted (1 / var) least-squares slope of the rounds' log ratios on
 * their loads (busy), over the rounds hetero_q uses that recorded a load,
 * and its two-sided p: t with rounds - 2 df, the slope's error scaled by
 * the residual dispersion (Q of the residuals over rounds - 2) where that
 * is over 1. -1 when fewer than 3 such rounds, or when their loads span
 * less than NOISE_BUSY_CPUS. */
int hetero_load_slope(const struct hetero_round *r, size_t n, double *slope, double *p);
/* P(X > x) for X chi-square with df degrees of freedom. */
double hetero_chi2_upper(double x, size_t df);
/* The within-round variance of log median (m's samples): pi / 2 times the
 * variance of the log samples over n; NAN when any sample is not > 0 or
 * n < 2. */
double hetero_log_median_var(const struct metric *m);
/* {"q", "df", "p", "heterogeneous", "depends_on_load", "load_slope"?
 * (exp(slope) - 1: the ratio's change per other CPU busy), "load_p"?,
 * "rounds": [{"round", "change", "busy", "skipped"?}]} of the rounds a
 * verdict used, or NULL when it could not be tested. */
json_t *hetero_json(const struct hetero_round *r, size_t n);
/* "+36% to +125% depending on load (Cochran's Q ...: round 1: +36% at 0.1
 * other CPUs busy, ...)", or "... across rounds, not with their load (...)"
 * / "... across rounds (...)" where the loads do not explain it or none was
 * recorded, from what hetero_json recorded; NULL when the rounds do not
 * differ; a new string. */
char *hetero_words(json_t *h);

#endif
