/* html_curves.h - a quantity of a probe as lines against its sweep label
 * (size, span, threads) on the results page, with what the probe found
 * marked: the cache knee and the plateaus of a latency curve. */
#ifndef MEMPATH_REPORT_HTML_CURVES_H
#define MEMPATH_REPORT_HTML_CURVES_H

#include <stddef.h>
#include <stdio.h>

#include "report/matrix.h"
#include "results/results.h"

/* Draws the metrics of p like p->metrics[first] as lines when one of their
 * labels is a sweep; 1 when drawn, 0 when they are bars instead. */
int html_curve(FILE *f, const struct probe_result *p, size_t first);

#endif
