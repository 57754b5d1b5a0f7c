/* mechanism.h - for every WIN and LOSS of a comparison, the counters that
 * moved with it (docs/design.md §5.15): the per-window counters of its
 * metric (machine/counters.h, docs/design.md §4.17) in the A legs beside the
 * B legs, kept where the two sets of windows separate (every B window above
 * every A window, or below: 0-day/LKP's min/max test) and the medians differ
 * by at least MECHANISM_MIN_CHANGE; ranked first the counters that appear or
 * vanish (the smaller median within the larger side's own spread, or under
 * MECHANISM_ZERO of it: thp_fault_alloc 0 -> 32 explains a THP win better
 * than any counter that merely grew), then by the change against the
 * counter's own window-to-window noise (1.4826 MAD of each side's windows);
 * the counters that did not move are left out.
 */
#ifndef MEMPATH_VERDICT_MECHANISM_H
#define MEMPATH_VERDICT_MECHANISM_H

#include "verdict/comparison.h"

#define MECHANISM_MIN_CHANGE 0.05 /* of the larger median */
#define MECHANISM_MAX	     8	  /* counters named a row */
#define MECHANISM_ZERO	     0.01 /* of the larger median: "from ~0" */

/* Sets row->mechanism of each WIN and LOSS row whose legs carry counters:
 * "vmstat:thp_fault_alloc 0 -> 128; sw:page-faults 65540 -> 170 (-99.7%)",
 * or "none of N counters moved"; and row->mech, every counter that moved,
 * ranked, with its medians (the mechanism column and section). */
void mechanism_rows(struct comparison *c);

#endif
