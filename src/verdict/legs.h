/* legs.h - what legs without rounds can show (docs/design.md §5.4): each leg
 * is one process, and what differs between processes is not in its samples,
 * so a verdict needs the legs themselves to show the change. The
 * pipeline's "legs" rule (compare.c) asks legs_too_few(); the statistics
 * add legs_test()'s p, which the effect rule needs below alpha too. */
#ifndef MEMPATH_VERDICT_LEGS_H
#define MEMPATH_VERDICT_LEGS_H

#include "verdict/comparison.h"

/* One leg against this many or more of the other variant (a run checked
 * against a blessed set of runs) is judged by where it falls among them. */
#define LEGS_PREDICT 4

/* The comparison's alpha (0.05 when unset). */
double legs_alpha(const struct comparison *c);
/* The smallest two-sided p a rank test over na against nb legs can give
 * (every B leg beyond every A leg): 2 / C(na + nb, nb). */
double legs_min_p(size_t na, size_t nb);
/* Whether the row's legs can judge it: 4 or more a side (a rank test that
 * can reach alpha) or one against LEGS_PREDICT or more. */
int legs_enough(const struct comparison *c, const struct compare_row *row);
/* NULL when the row's legs can judge it; else why not, with the change seen
 * within the legs (a new string). */
char *legs_too_few(const struct comparison *c, const struct compare_row *row);
/* Sets row->p_legs: B's leg medians against A's by the rank test, or one
 * leg against LEGS_PREDICT or more by the prediction interval of their log
 * medians (Student's t, k - 1 degrees of freedom); NAN if neither. */
void legs_test(const struct comparison *c, struct compare_row *row);
/* Legs enough a side (2 or more each): the change's CI widened to hold what
 * differs between processes, the union of the pooled samples' bootstrap CI
 * and the change times exp(+-t se), se from the legs' log medians (Welch's
 * t, df by Welch-Satterthwaite). The CI alone of the pooled samples is the
 * within-process noise (§5.4). */
void legs_ci(const struct comparison *c, struct compare_row *row);

#endif
