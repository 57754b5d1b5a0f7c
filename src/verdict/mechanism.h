/* mechanism.h - for every WIN and LOSS of a comparison, the counters that
 * moved with it (docs/design.md §5.15): the per-window counters of its
 * metric (machine/counters.h, docs/design.md §4.17) in the A legs beside the
 * B legs, kept where the two sets of windows separate (every B window above
 * every A window, or below: 0-day/LKP's min/max test) and the medians differ
 * by at least MECHANISM_MIN_CHANGE; ranked by the size of the change; the
 * counters that did not move are left out.
 */
#ifndef MEMPATH_VERDICT_MECHANISM_H
#define MEMPATH_VERDICT_MECHANISM_H

#include "verdict/comparison.h"

#define MECHANISM_MIN_CHANGE 0.05 /* of the larger median */
#define MECHANISM_MAX	     8	  /* counters named a row */

/* Sets row->mechanism of each WIN and LOSS row whose legs carry counters:
 * "vmstat:thp_fault_alloc 0 -> 128; sw:page-faults 65540 -> 170 (-99.7%)",
 * or "none of N counters moved"; and row->mech, every counter that moved,
 * ranked, with its medians (the mechanism column and section). */
void mechanism_rows(struct comparison *c);

#endif
