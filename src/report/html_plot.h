/* html_plot.h - the inline SVG plots of the HTML pages (docs/design.md
 * §9.5): axes on linear, log2 or log10 scales, lines of points with marks
 * (a cache knee, plateaus) and bands of their spread, legends. Everything is drawn
 * from numbers already checked finite; text from a file goes through
 * report_html_text(). No scripts: hover text is SVG <title>. */
#ifndef MEMPATH_REPORT_HTML_PLOT_H
#define MEMPATH_REPORT_HTML_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "report/matrix.h"
#include "results/results.h"

enum plot_scale { PLOT_LINEAR, PLOT_LOG2, PLOT_LOG10 };
enum plot_ticks {
	PLOT_T_VALUE, /* report_fmt_value: 12.5, 1024.0 */
	PLOT_T_SIZE,  /* bytes as 4K, 1M, 1G */
	PLOT_T_RATIO, /* x0.5, x1, x2 */
};

/* Values lo..hi on pixels p0..p1 (p0 > p1 for a vertical axis, whose
 * values grow upwards). A log axis needs lo > 0. */
struct plot_axis {
	enum plot_scale sc;
	enum plot_ticks fmt;
	double lo, hi, p0, p1;
	double step; /* linear: between ticks */
};

/* An axis over at least lo..hi, its ends widened to ticks: a power of two
 * (log2), of ten (log10), or a multiple of 1, 2, 2.5 or 5 times a power of
 * ten (linear). 0, or -1 when lo..hi is empty, not finite, or not positive
 * on a log scale. */
int plot_axis_make(struct plot_axis *a, enum plot_scale sc, enum plot_ticks fmt, double lo,
		   double hi, double p0, double p1);
/* The pixel of v, clamped to the axis' ends. */
double plot_pos(const struct plot_axis *a, double v);
/* A horizontal axis at y (ticks, labels, title below) and a vertical one at
 * x (labels left of it, title turned, grid lines from x to grid_x1). */
void plot_axis_h(FILE *f, const struct plot_axis *a, double y, const char *title);
void plot_axis_v(FILE *f, const struct plot_axis *a, double x, double grid_x1, const char *title);
/* Should values spanning lo..hi (both > 0) go on a log scale: is one more
 * than 20 times another? */
int plot_wants_log(double lo, double hi);

/* Series colours, told apart also by those who do not see red from green
 * (Okabe-Ito first); i wraps. */
const char *plot_colour(size_t i);
/* Dash patterns for lines: "" (solid) and three others; i wraps. */
const char *plot_dash(size_t i);
/* What a legend entry shows before its name: a short line in a colour and
 * dash, a band of that colour (the p5-p95 spread), a dot of a CSS class (a
 * verdict: "v-win"), a grey band of a class ("band": the practical
 * threshold), a whisker, an arrow. */
enum plot_key_kind { KEY_LINE, KEY_SPREAD, KEY_DOT, KEY_BAND, KEY_WHISKER, KEY_ARROW };

struct plot_key {
	enum plot_key_kind kind;
	const char *name;
	int colour, dash;  /* KEY_LINE, KEY_SPREAD */
	const char *klass; /* KEY_DOT, KEY_BAND: the CSS class; KEY_ARROW: "arrow lg" */
};

/* Legend entries from (x, y) on, wrapping at width w. Draws when f, and
 * returns the rows it takes either way. Every legend of every page is drawn
 * here, so a colour on a page is always named under it. */
size_t plot_legend(FILE *f, double x, double y, double w, const struct plot_key *k, size_t n);
/* A small triangle at x pointing left (dir -1) or right (+1), of class cls. */
void plot_arrow(FILE *f, const char *cls, double x, double y, int dir);

#define PLOT_MAX_SERIES 16

/* y is the median; lo..hi its p5-p95, drawn as a band around the line
 * where hi > lo (0, 0: no band). */
struct plot_point {
	double x, y, lo, hi;
};

struct plot_series {
	char name[160];
	struct plot_point *pt; /* sorted by x when drawn */
	size_t n;
	int colour, dash; /* plot_colour() and plot_dash() indices (plot_styles) */
};

/* A mark on a line plot: a vertical line at x0 (a knee) or a horizontal
 * segment x0..x1 at y (a plateau, in series' colour; -1: grey). */
struct plot_mark {
	int vertical;
	double x0, x1, y;
	int series;
	char text[128];
};

struct plot_lines {
	const char *title; /* the <title>, and the caption above */
	const char *x_title, *y_title;
	enum plot_scale xs, ys;
	enum plot_ticks x_fmt;
	struct plot_series *s;
	size_t n;
	const struct plot_mark *marks;
	size_t n_marks;
	/* 0: a full-width plot with its caption; else a panel of small
	 * multiples this wide (its title inside, no caption). */
	double panel_w;
	/* y_hi > y_lo: the y range of every panel of a set, so they compare;
	 * else from the data */
	double y_lo, y_hi;
	/* x from 0 on a linear axis (bandwidth: the unloaded end is 0) */
	int x_from_0;
	/* what the marks are, for the caption; NULL: "what the probe found" */
	const char *marks_are;
};

/* Styles series named "k=v,k=v" so they read at a glance: when two or more
 * labels vary, the dash from the last one that takes at most 4 values and
 * the colour from the others (at most 8: cpu.latency a colour per page
 * size, solid random, dashed local; cpu.stream a colour per kernel and
 * stores, dashed for THP); else a colour each. */
struct plot_series;
void plot_styles(struct plot_series *s, size_t n);
/* One line per series through its points (y may be on a log scale where
 * plot_wants_log), its p5-p95 as a band of its colour, each point with its
 * value as hover text, the marks, and a legend naming the lines and the
 * band. Nothing when no point is finite; 1 when drawn. */
int plot_lines(FILE *f, const struct plot_lines *pl);
/* Has a point of pl a p5-p95 band? */
int plot_lines_has_band(const struct plot_lines *pl);
/* The y extent of the points of pl (bands included): 0, or -1 when none. */
int plot_lines_y_extent(const struct plot_lines *pl, double *lo, double *hi);
/* Small multiples: the caption (title in bold, then how), the <div> that
 * holds the panels side by side; and its end. */
void plot_panels_begin(FILE *f, const char *title, const char *how);
void plot_panels_end(FILE *f);
/* The series of all as small multiples, one panel per value of label key
 * (bandwidth against threads per kernel: 16 lines in 8 colours are 4 plots
 * of 4), each line named and styled by its labels but key, alike in every
 * panel; on one y scale when one_scale (so panels compare), else each its
 * own (tokens/s of prefill and decode, 100 times apart). 1 when drawn; 0
 * when key does not take two values or a series lacks it. */
int plot_panels(FILE *f, const struct plot_lines *all, const char *key, int one_scale);
/* s ("pages=4k,order=random") split at label key: the key's pair
 * ("pages=4k", or "" when absent) and the rest ("order=random"). */
void plot_split_label(const char *s, const char *key, char *pair, char *rest, size_t len);
#endif
