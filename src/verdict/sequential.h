/* sequential.h - when `ab --rounds auto` looks at its rounds, and the error
 * each look may spend (docs/design.md §5.13).
 *
 * ab adds rounds until every metric that matters is decided (WIN, LOSS, or
 * SAME within a margin) or a budget ends. Looking after every round and
 * testing each time at alpha would make a false verdict ever likelier the
 * longer it runs; instead look k tests at the share of alpha that an
 * O'Brien-Fleming-type spending function (Lan and DeMets) releases between
 * the previous look and this one, at information fraction t = rounds / the
 * most rounds. By the union bound the chance of any false verdict over all
 * the looks is at most the alpha spent, whatever the correlation between
 * looks and whenever the run stops: a test that needs no model of it.
 */
#ifndef MEMPATH_VERDICT_SEQUENTIAL_H
#define MEMPATH_VERDICT_SEQUENTIAL_H

#include <stddef.h>

/* Auto rounds start with this many before the first look: two ABBA pairs,
 * so that a steady drift cancels within them (§5.10). */
#define SEQ_MIN_ROUNDS 4
#define SEQ_MAX_ROUNDS 12 /* --max-rounds default */

/* Whether auto rounds look after round r of at most max: after the first
 * SEQ_MIN_ROUNDS, then every second round (pairs keep the order balanced),
 * and at max. */
int seq_looks_at(unsigned r, unsigned max);
/* The spending function: the share of alpha spent by information fraction
 * t (0..1): 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)). */
double seq_spent(double alpha, double t);
/* What a look after round r of at most max may spend when the look before
 * it was after round prev (0: none): seq_spent at r/max less seq_spent at
 * prev/max. A run stopped early (its time budget) looks once more where it
 * stopped, spending what lies between. */
double seq_alpha(double alpha, unsigned prev, unsigned r, unsigned max);

#endif
