/* findings.h - `mempath findings`: a findings document from ab directories
 * (docs/design.md §9.9), in the layout of a field report: a summary table
 * (finding, kind, impact, status with the A/B numbers), then each finding
 * with its table of metrics, their receipts and the counters that moved,
 * the machine and the exact command that reproduces it. Markdown or HTML.
 */
#ifndef MEMPATH_REPORT_FINDINGS_H
#define MEMPATH_REPORT_FINDINGS_H

#include <stdio.h>

#include "report/format.h"
#include "results/results.h"
#include "verdict/comparison.h"

/* One ab directory read: its comparison (DIR/compare.json) and its legs'
 * results files (DIR/leg-*.json, in leg order). */
struct finding {
	const char *dir;
	struct comparison *cmp;
	struct run **legs;
	size_t n_legs;
	/* A study's directory (DIR/study.json) gives one finding per
	 * comparison of its family: "madvise against never", of n_var
	 * variants; its legs are the study's, shared by them (owned by the
	 * first). NULL, 0 for an A/B. */
	char *pair;
	size_t n_var;
	int shares_legs;
};

/* The document over n findings; fmt REPORT_MD or REPORT_HTML. 0 or -1. */
int report_findings(const struct finding *fs, size_t n, enum report_format fmt, FILE *f);

#endif
