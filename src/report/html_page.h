/* html_page.h - what the two HTML writers share (html.c: results;
 * html_compare.c: comparisons): the page, table cells and SVG helpers. Text
 * from a file reaches a page only through report_html_text(), directly or
 * through html_put(). */
#ifndef MEMPATH_REPORT_HTML_PAGE_H
#define MEMPATH_REPORT_HTML_PAGE_H

#include <stddef.h>
#include <stdio.h>

#define CHART_W 880 /* px: a label column and a readable scale, narrower than the page */
#define ROW_H	20  /* px per bar or per metric */
#define AXIS_H	44  /* px below the rows: axis, tick labels, axis title */

/* Maps values lo..hi onto pixels x0..x1, ticks every `step` from lo; made by
 * html_scale_make, so lo < hi and every coordinate is a finite number. */
struct html_scale {
	double lo, hi, step, x0, x1;
};

/* before, then s escaped, then after: before and after are the writer's own
 * markup, s is text from the file. */
void html_put(FILE *f, const char *before, const char *s, const char *after);
/* Table cells: text, a number already formatted (right-aligned), a value as
 * report_fmt_value writes it, "-" when not finite. */
void html_cell_text(FILE *f, const char *s);
void html_cell_num(FILE *f, const char *s);
void html_cell_value(FILE *f, double v);
/* The document up to the <h1> title, with the inline style; and its end
 * (0, or -1 when the stream failed). */
void html_page_begin(FILE *f, const char *title);
int html_page_end(FILE *f);
/* A scale over at least lo..hi with ticks at 1, 2, 2.5 or 5 times a power of
 * ten; 0, or -1 when lo..hi is not a finite, non-empty range. */
int html_scale_make(struct html_scale *s, double lo, double hi, double x0, double x1);
/* <svg> with a <title>; text anchored start/middle/end; a line of a class. */
void html_svg_begin(FILE *f, double w, double h, const char *title);
void html_svg_text(FILE *f, double x, double y, const char *anchor, const char *s);
void html_svg_line(FILE *f, const char *cls, double x1, double y1, double x2, double y2);
/* Label column width for labels of up to `chars` characters, at most cap. */
double html_label_width(size_t chars, double cap);

#endif
