/* threshold.h - the practical threshold a change must clear, where it came
 * from, and a CI too wide to say anything (docs/design.md §5.2, §5.18,
 * §5.19). One function sets every row's threshold, one tests it: the
 * pipeline's effect rule (compare.c) is their only caller besides the
 * statistics.
 *
 * The threshold is what matters to the user: the largest of 1% (the least
 * change called a change) and --threshold; in legs without rounds also the
 * largest gap between legs of one variant (A and A'). In rounds the
 * rounds' own spread is already in the CI (a t interval of the rounds'
 * ratios): it is reported (round_noise), but it no longer raises the
 * threshold, which held real effects back a second time by the noise
 * their CI had carried (§5.18). */
#ifndef MEMPATH_VERDICT_THRESHOLD_H
#define MEMPATH_VERDICT_THRESHOLD_H

#include "verdict/comparison.h"

/* The least change called a change. */
#define THRESHOLD_MIN 0.01
/* A CI whose upper bound of the ratio is more than this many times its
 * lower bound says nothing a reader can use (§5.19). */
#define THRESHOLD_CI_TOO_WIDE 10.0

/* The rounds' spread (see above) from the rounds' log ratios of medians
 * (n of them, n - 1 degrees of freedom); NAN with fewer than 2. */
double threshold_round_noise(const double *log_ratio, size_t n);
/* Sets row->threshold and row->threshold_from from the options and the
 * drift (legs without rounds). */
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
