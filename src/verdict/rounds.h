/* rounds.h - the load a metric's legs were measured under, and comparisons
 * of rounds (docs/design.md §4.14, §5.10).
 *
 * Every leg's results file may record, per sample, the other CPUs busy
 * while it was taken (the noise meter). A metric whose legs ran under loads
 * that differ by more than the busy threshold gets no WIN or LOSS: the load
 * could be the difference. A comparison of rounds (ab --rounds; compare
 * --rounds) pairs an A leg and a B leg per round and judges the change within
 * each round: van Elteren's stratified rank test (base/blocked.h) and the
 * t interval of the per-round ratios of medians, over the rounds whose two
 * legs ran under the same load; a round whose legs' load differed is left
 * out, and said so.
 */
#ifndef MEMPATH_VERDICT_ROUNDS_H
#define MEMPATH_VERDICT_ROUNDS_H

#include "verdict/comparison.h"

/* Finds the rounds: every leg's ab record names its round (and, without a
 * legs pattern, its variant), or o->rounds pairs the files in order. Sets
 * c->n_rounds, each leg's round and its name ("A r1"). 0 (also when these
 * are no rounds), or -1 after one error line. */
int rounds_setup(struct comparison *c);
/* row->busy[j]: the other CPUs busy during the metric's samples in leg j. */
void rounds_busy(const struct comparison *c, struct compare_row *row);
/* Legs (not rounds) whose load differed beyond the threshold: sets
 * row->noisy and returns the reason ("1.8 other CPUs busy during B, 0.1
 * during A"), a new string; NULL when it did not. With legs enough to
 * judge (legs.h), only the variants' mean loads count ("... on average
 * during B's 4 legs, ... during A's 4"). */
char *rounds_noise_reason(const struct comparison *c, struct compare_row *row);
/* The statistics of a comparison of rounds: medians over the rounds used,
 * the change and its CI from the per-round ratios, p from the stratified
 * test, the threshold, the rounds used and left out. */
void rounds_stats(const struct comparison *c, struct compare_row *row);
/* The rules of docs/design.md §5.12 for a comparison of rounds, each a new
 * string or NULL. rounds_too_few: why the rounds left to judge are too few
 * (sets row->noisy when rounds were left out for their load), or NULL;
 * rounds_left_out: "2 of 6 rounds left out, their legs' load differed
 * (round 3: ...)", or NULL; rounds_nowin_reason: why the change does not
 * clear the threshold. */
char *rounds_too_few(const struct comparison *c, struct compare_row *row);
char *rounds_left_out(const struct comparison *c, const struct compare_row *row);
char *rounds_nowin_reason(const struct comparison *c, const struct compare_row *row);
/* WIN and LOSS of rounds whose change depends on load (Cochran's Q over
 * the rounds, verdict/hetero.h) say so first in their reason: "+36% to
 * +125% depending on load (...)". */
void rounds_heterogeneity(struct comparison *c);

#endif
