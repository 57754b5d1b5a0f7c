/* html_heatmap.h - a matrix (gpu.p2p: src x dst) as an SVG heatmap on the
 * results page (docs/design.md §9.5). */
#ifndef MEMPATH_REPORT_HTML_HEATMAP_H
#define MEMPATH_REPORT_HTML_HEATMAP_H

#include <stdio.h>

#include "report/matrix.h"

/* A matrix as a heatmap: one square per cell shaded by its median (on a log
 * scale where plot_wants_log), its value inside when the square has room,
 * "-" squares grey, and a colour bar from the smallest to the largest value. */
void plot_heatmap(FILE *f, const struct matrix_table *t);

#endif
