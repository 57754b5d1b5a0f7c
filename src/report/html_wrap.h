/* html_wrap.h - a workload's pictures (docs/design.md §9.11): its primary
 * figure (tokens/s where it reports one, else wall time) per configuration
 * with the spread over its runs, and per iteration, where convergence shows
 * (tiered memory promoting pages run after run, §10.8). */
#ifndef MEMPATH_REPORT_HTML_WRAP_H
#define MEMPATH_REPORT_HTML_WRAP_H

#include <stdio.h>

#include "results/results.h"
#include "verdict/comparison.h"

/* A workload probe's figure per iteration (work.decode: tokens/s per
 * sample); nothing for other probes and for work.wrap (html_wrap). */
void html_iterations(FILE *f, const struct probe_result *p);
/* A wrapped workload's result (work.wrap): per configuration, then per
 * iteration. */
void html_wrap(FILE *f, const struct probe_result *p);
/* A comparison whose every leg is a wrapped workload: per leg and
 * configuration, then per iteration, a line per leg (from the legs'
 * extra.iterations, which a comparison file keeps). */
void html_wrap_legs(FILE *f, const struct comparison *c);

#endif
