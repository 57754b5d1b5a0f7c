/* threshold.h - the practical threshold a change must clear, where it came
 * from, and a CI too wide to say anything (docs/design.md §5.2, §5.18,
 * §5.19). One function sets every row's threshold, one tests it: the
 * pipeline's effect rule (compare.c) is their only caller besides the
 * statistics.
 *
 * The threshold is the largest of: 1% (the least change called a change),
 * --threshold, and the machine's own noise between legs: in A/B/A' the
 * largest gap between legs of one variant (A and A'), in rounds the
 * rounds' spread (the standard deviation of the rounds' log ratios of
 * medians, B over A, as a relative figure), so that an effect must exceed
 * what the change itself did from round to round. A level that moves
 * between rounds moves both legs of a round and cancels in its ratio; it
 * does not raise the threshold. */
#ifndef MEMPATH_VERDICT_THRESHOLD_H
#define MEMPATH_VERDICT_THRESHOLD_H

#include "verdict/comparison.h"

/* The least change called a change. */
#define THRESHOLD_MIN 0.01
/* How many times the rounds' spread an effect must exceed (§5.18). */
#define THRESHOLD_ROUND_NOISE_TIMES 1.0
/* A CI whose upper bound of the ratio is more than this many times its
 * lower bound says nothing a reader can use (§5.19). */
#define THRESHOLD_CI_TOO_WIDE 10.0

/* The rounds' spread (see above) from the rounds' log ratios of medians
 * (n of them, n - 1 degrees of freedom); NAN with fewer than 2. */
double threshold_round_noise(const double *log_ratio, size_t n);
/* Sets row->threshold and row->threshold_from from the options, the drift
 * (A/B/A') or the round noise (rounds). */
void threshold_set(const struct comparison *c, struct compare_row *row);
/* The one threshold test: p (Holm) below alpha and the CI of the change
 * clear of the threshold on one side. */
int threshold_cleared(const struct comparison *c, const struct compare_row *row);
/* "6.2% round noise", "1.0% min", "5.1% same-variant gap", "10.0% --threshold";
 * "-" where no threshold was set. */
void threshold_text(const struct compare_row *row, char *buf, size_t len);
/* How the CI of a change that did not clear the threshold stands to it:
 * "is within" (wholly inside +-threshold) or "reaches into" (one side
 * beyond it, the other inside). */
const char *threshold_ci_relation(const struct compare_row *row);
/* "round noise", "min", ...: what set the threshold; "?" if nothing did. */
const char *threshold_source(const struct compare_row *row);
/* Whether the CI spans more than THRESHOLD_CI_TOO_WIDE (or reaches a ratio
 * of 0): sets row->ci_wide. */
int threshold_ci_too_wide(struct compare_row *row);
/* "too wide to say: the 95% CI [-99.7, +13524]% spans a factor of 45000
 * (more than 10) over 3 rounds", a new string. */
char *threshold_too_wide_reason(const struct comparison *c, const struct compare_row *row,
				double level);

#endif
