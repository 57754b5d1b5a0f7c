/* join.h - the legs of a comparison joined into rows: the legs named, knobs
 * compared, probe notes, and every metric matched on (probe, identity
 * params, metric, labels); and the patterns that pick controls and primary
 * metrics. A probe's identity is what its results file records (the options
 * as given): a cache knee measured in one leg and cached in the next does
 * not split a metric; differing found values are listed as notes. */
#ifndef MEMPATH_VERDICT_JOIN_H
#define MEMPATH_VERDICT_JOIN_H

#include "verdict/comparison.h"

/* Patterns (--control, --primary): GLOB[,KEY=GLOB...]. GLOB (fnmatch) must
 * match "probe" or "probe:metric"; each KEY=GLOB must match a label of the
 * metric or, failing that, a parameter of its probe:
 *   cpu.first_touch,pages=thp      every metric of the THP variant
 *   cpu.stream:*_bw,threads=1      bandwidth metrics of one thread
 * compare_pattern_check returns 0, or -1 with an error naming `what`. */
int compare_pattern_check(const char *pattern, const char *what);
int compare_pattern_match(const char *pattern, const char *probe, const char *metric,
			  const struct label *labels, size_t n_labels, const struct label *params,
			  size_t n_params);

/* The identity a metric is joined on (compare) and grouped by (fleet):
 * probe, its identity params, metric name and labels, canonical; caller
 * frees. */
char *join_metric_ident(const struct probe_result *pr, const struct metric *m);

/* Names the legs, checks knobs, notes probe statuses and found parameters,
 * joins the metrics into rows (verdict unset). 0, or -1 after one error
 * line (bad legs pattern). */
int compare_join(struct comparison *c, const struct run *const *runs, const char *const *files,
		 size_t n);

/* A --control or --primary pattern or an --expect-diff knob that names
 * nothing in c is a typo that would remove a safety check (a control nobody
 * checks, a knob difference nobody allowed): 0, or -1 after an error line
 * naming it. */
int compare_check_names(const struct comparison *c, const struct compare_opts *o);

#endif
