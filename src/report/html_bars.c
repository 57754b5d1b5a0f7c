/* html_bars.c - bar charts of medians with p5-p95 whiskers (html_bars.h). */
#include "report/html_bars.h"

#include <math.h>
#include <string.h>

#include "report/format.h"
#include "report/html_page.h"
#include "report/html_plot.h"

/* How the bars' scale reads: linear from 0; log when every median is
 * positive and one is more than 20 times another; broken when one is more
 * than 20 times the next largest and a log scale cannot hold them (zero
 * or negative values): the scale ends past the second largest and the
 * longer bars run off it, their numbers at the end (docs/design.md §9.5). */
enum bar_scale { BARS_LINEAR, BARS_LOG, BARS_BROKEN };

static enum bar_scale bars_scale(const struct plot_bar *b, size_t n, double *lo, double *hi)
{
	double min_pos = INFINITY, first_abs = 0, second_abs = 0;
	int all_pos = 1;

	*lo = 0;
	*hi = 0;
	for (size_t k = 0; k < n; k++) {
		const struct plot_bar s = b[k];

		if (s.n == 0 || !isfinite(s.median))
			continue;
		all_pos &= s.median > 0 && s.p5 > 0;
		min_pos = s.median > 0 ? fmin(min_pos, fmin(s.median, s.p5)) : min_pos;
		if (fabs(s.median) > first_abs) {
			second_abs = first_abs;
			first_abs = fabs(s.median);
		} else if (fabs(s.median) > second_abs) {
			second_abs = fabs(s.median);
		}
		for (int i = 0; i < 3; i++) {
			double v = i == 0 ? s.p5 : i == 1 ? s.median : s.p95;

			if (isfinite(v)) {
				*lo = v < *lo ? v : *lo;
				*hi = v > *hi ? v : *hi;
			}
		}
	}
	if (all_pos && plot_wants_log(min_pos, *hi)) {
		*lo = min_pos;
		return BARS_LOG;
	}
	if (second_abs > 0 && first_abs > 20 * second_abs) {
		*hi = fmin(*hi, 1.25 * second_abs);
		*lo = fmax(*lo, -1.25 * second_abs);
		return BARS_BROKEN;
	}
	if (!(*hi > *lo))
		*hi = *lo + 1; /* all zero: an axis from 0 to 1 */
	return BARS_LINEAR;
}

void plot_bars(FILE *f, const char *name, const char *unit, const struct plot_bar *b, size_t n)
{
	plot_bars_as(f, name, "per label set", unit, "median, whiskers p5-p95", b, n);
}

void plot_bars_as(FILE *f, const char *name, const char *per, const char *unit, const char *what,
		  const struct plot_bar *b, size_t n)
{
	size_t chars = 0;
	double lo, hi, y = 8, base, x0, x1 = CHART_W - 80;
	enum bar_scale bs = bars_scale(b, n, &lo, &hi);
	struct plot_axis a;

	for (size_t k = 0; k < n; k++)
		chars = strlen(b[k].label) > chars ? strlen(b[k].label) : chars;
	x0 = html_label_width(chars, 360);
	if (n < 2 || plot_axis_make(&a, bs == BARS_LOG ? PLOT_LOG10 : PLOT_LINEAR, PLOT_T_VALUE, lo,
				    hi, x0, x1) != 0)
		return;
	base = bs == BARS_LOG ? x0 : plot_pos(&a, 0);
	html_put(f, "<p><b>", name, "</b> ");
	html_put(f, "", per, " (");
	html_put(f, "", unit, "; ");
	html_put(f, "", what, "");
	fputs(bs == BARS_LOG	  ? "; log scale: one value is more than 20 times another"
	      : bs == BARS_BROKEN ? "; the scale is cut: longer bars run off it, their value "
				    "at the end"
				  : "",
	      f);
	fputs(")</p>\n", f);
	html_svg_begin(f, CHART_W, 8 + (double)n * ROW_H + AXIS_H, name);
	for (size_t k = 0; k < n; k++) {
		const struct plot_bar s = b[k];
		char val[64];
		double xm, mid = y + ROW_H / 2.0;
		int cut;

		html_svg_text(f, x0 - 6, mid + 4, "end", s.label[0] ? s.label : "(no labels)");
		if (s.n == 0 || !isfinite(s.median)) {
			html_svg_text(f, x0 + 4, mid + 4, "start", s.n ? "-" : "no samples");
			y += ROW_H;
			continue;
		}
		xm = plot_pos(&a, s.median);
		cut = bs == BARS_BROKEN && (s.median > a.hi || s.median < a.lo);
		fprintf(f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%d\"/>\n",
			xm < base ? xm : base, y + 3, fabs(xm - base), ROW_H - 6);
		if (cut) /* the break: two white strokes across the bar's end */
			for (int i = 0; i < 2; i++)
				html_svg_line(f, "cut", xm - 14 + 5 * i + (xm < base ? 20 : 0),
					      y + 1, xm - 20 + 5 * i + (xm < base ? 20 : 0),
					      y + ROW_H - 1);
		if (!cut && isfinite(s.p5) && isfinite(s.p95) && s.p95 > s.p5) {
			double pa = plot_pos(&a, s.p5), pb = plot_pos(&a, s.p95);

			html_svg_line(f, "wh", pa, mid, pb, mid);
			html_svg_line(f, "wh", pa, mid - 5, pa, mid + 5);
			html_svg_line(f, "wh", pb, mid - 5, pb, mid + 5);
		}
		report_fmt_value(s.median, val, sizeof(val));
		html_svg_text(f, x1 + 6, mid + 4, "start", val);
		y += ROW_H;
	}
	plot_axis_h(f, &a, y + 4, unit);
	fputs("</svg>\n", f);
}
