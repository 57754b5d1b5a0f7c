/* html.h - a run as one self-contained HTML5 page: the Markdown facts,
 * matrices shaded by value, bar charts of medians with p5-p95 whiskers where
 * a metric has several label sets. */
#ifndef MEMPATH_REPORT_HTML_H
#define MEMPATH_REPORT_HTML_H

#include "results/results.h"
#include <stdio.h>

int report_html(const struct run *r, FILE *f);

#endif
