/* wrap.h - a wrapped workload (probe "work.wrap", from `mempath wrap`) as the
 * command prints it: every metric per iteration (warm-ups, then the counted
 * runs) with the median and CoV of the counted ones, then the counters over
 * the whole run, /proc/meminfo before and after and the numastat deltas.
 * Built from the results file alone, so `mempath report FILE` shows what
 * the command showed, in term, md and html. */
#ifndef MEMPATH_REPORT_WRAP_H
#define MEMPATH_REPORT_WRAP_H

#include <stdio.h>

#include "report/format.h"
#include "results/results.h"

/* 1 when p is a wrapped workload's result. */
int report_is_wrap(const struct probe_result *p);
/* p's tables in fmt (term, md or html; html: <table> elements). */
void report_wrap(const struct probe_result *p, enum report_format fmt, FILE *f);

#endif
