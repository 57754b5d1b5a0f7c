/* changepoint.h - where the level of a series changed (docs/design.md §3.5):
 * PELT (Killick, Fearnhead and Eckley 2012, "Optimal detection of
 * changepoints with a linear computational cost") over the logs of the
 * values with the normal cost of a change in mean, then each change tested:
 * pure statistics, no I/O.
 *
 * The steps:
 *   1. y = log(x) when every value is > 0 (a change is a ratio), else x.
 *   2. sigma: 1.4826 * MAD of the first differences / sqrt(2), which a step
 *      barely moves (one difference of n).
 *   3. Each y clipped to the median of its five neighbours (itself in the
 *      middle) +- 3 sigma: one run under a passing load is one value far
 *      out, and would otherwise buy a segment of its own.
 *   4. PELT: segments of at least `min_seg` points minimising the sum of
 *      (y - segment mean)^2 / sigma^2 plus `penalty` * ln(n) per change.
 *   5. Every change found is tested: Mann-Whitney U of the (unclipped)
 *      values of the segments either side, up to `window` points each side
 *      of the change; one with p >= alpha, or whose ratio of medians is
 *      within `min_change` of 1, is merged away (the weakest first, and its
 *      neighbours tested again), so what is left is each a change that the
 *      raw values show on their own.
 *   6. Each kept change gets its segments' medians (over the whole
 *      segments), and the change (after / before - 1) with its 95%
 *      percentile-bootstrap CI over the `window` points either side.
 */
#ifndef MEMPATH_BASE_CHANGEPOINT_H
#define MEMPATH_BASE_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct cp_opts {
	double penalty;	   /* times ln(n) a change costs; default 3 */
	size_t min_seg;	   /* fewest points a segment has; default 3 */
	double alpha;	   /* test of a change; default 0.001 */
	double min_change; /* smallest |after/before - 1| kept; default 0.01 */
	size_t window;	   /* points each side a change is tested on; default 50 */
	unsigned iters;	   /* bootstrap resamples of the CI; default 1000 */
	uint64_t seed;	   /* of the bootstrap: the same series, the same CI */
};

struct cp_change {
	size_t at;	      /* index of the first point of the new segment */
	size_t seg_start;     /* the segment before: [seg_start, at) */
	size_t seg_end;	      /* the segment after: [at, seg_end) */
	double before, after; /* medians of the two segments */
	double change;	      /* after / before - 1 */
	double ci_lo, ci_hi;  /* 95% CI of change (NAN when undefined) */
	double p;	      /* Mann-Whitney U of the points either side */
};

void changepoint_opts_default(struct cp_opts *o);
/* The changes of x[0..n) (finite values), in order; at most `max` into out.
 * Returns how many were found (which may exceed max: only max are written). */
size_t changepoint_find(const double *x, size_t n, const struct cp_opts *o, struct cp_change *out,
			size_t max);

#endif
