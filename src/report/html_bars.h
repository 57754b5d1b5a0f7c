/* html_bars.h - bar charts in inline SVG: one bar per row at its median with
 * a p5-p95 whisker, its number at the right; on a linear scale from 0, a log
 * scale where one value is over 20 times another, a cut scale where zero
 * rules a log scale out (docs/design.md §9.5). The results page draws a
 * quantity under several label sets so, a workload's figure per
 * configuration likewise (§9.11). */
#ifndef MEMPATH_REPORT_HTML_BARS_H
#define MEMPATH_REPORT_HTML_BARS_H

#include <stddef.h>
#include <stdio.h>

struct plot_bar {
	const char *label; /* "" reads "(no labels)" */
	double median, p5, p95;
	size_t n; /* samples; 0: "no samples"; a median not finite: "-" */
};

/* The caption (name in bold, the unit, how the scale reads) and the chart;
 * nothing when fewer than two rows or no scale holds them. */
void plot_bars(FILE *f, const char *name, const char *unit, const struct plot_bar *b, size_t n);
/* The same with the caption's words given: "per variant", what the bar and
 * its whiskers are ("ratio to never, whiskers its CI"). */
void plot_bars_as(FILE *f, const char *name, const char *per, const char *unit, const char *what,
		  const struct plot_bar *b, size_t n);

#endif
