/* src/verdict/ref_rest.h - every figure of a run that no reference path
 * of its kind names, judged against its physical limit or INCONCLUSIVE
 * with the reason (docs/design.md §5.17, issue 41: no unjudged figure). */
#ifndef MEMPATH_VERDICT_REF_REST_H
#define MEMPATH_VERDICT_REF_REST_H

#include "results/fleet.h"
#include "verdict/reference.h"

/* Appends to *v one check (rest = 1) per figure of r (a metric with a
 * better direction, or a bandwidth) that no check of *v names: FAIL where
 * it is beyond its physical limit (no path carries more), else
 * INCONCLUSIVE with its share of the limit and why no band judges it, or
 * why no limit holds (the limit table's reason, or the limit unknown and
 * what was measured nearest to one). refs and match (the kinds that
 * matched r) say where the kind's reference for the metric is measured at
 * other labels. */
void ref_check_rest(const struct ref_set *refs, const int *match, const struct run *r,
		    struct fleet_check **v, size_t *n);

#endif
