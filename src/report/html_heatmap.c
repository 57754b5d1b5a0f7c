/* html_heatmap.c - a matrix as a heatmap in inline SVG (html_heatmap.h). */
#include "report/html_heatmap.h"

#include <math.h>

#include "report/format.h"
#include "report/html_page.h"
#include "report/html_plot.h"

/* A cell's colour: light for the smallest value, dark blue for the largest. */
static double shade(const struct plot_axis *a, double v)
{
	return 96 - 60 * (plot_pos(a, v) - a->p0) / (a->p1 - a->p0);
}

void plot_heatmap(FILE *f, const struct matrix_table *t)
{
	double lo = INFINITY, hi = -INFINITY, cell, x0 = 60, y0 = 24, w;
	struct plot_axis a;
	char buf[64], title[256];

	for (size_t i = 0; i < t->n * t->n; i++)
		if (isfinite(t->median[i])) {
			lo = fmin(lo, t->median[i]);
			hi = fmax(hi, t->median[i]);
		}
	if (!(lo <= hi))
		return;
	if (plot_axis_make(&a, plot_wants_log(lo, hi) ? PLOT_LOG10 : PLOT_LINEAR, PLOT_T_VALUE, lo,
			   hi, 0, 1) != 0)
		return;
	/* The shades span the data, from 0 on a linear scale: a 3% spread
	 * stays a 3% difference in shade, and a link at half the speed of
	 * the others stands out. */
	a.lo = a.sc == PLOT_LINEAR && lo > 0 ? 0 : lo;
	a.hi = hi > a.lo ? hi : a.lo + 1;
	lo = a.lo;
	cell = fmin(64, 560.0 / (double)t->n);
	w = x0 + cell * (double)t->n + 120;
	snprintf(title, sizeof(title), "%s %s", t->name, t->labels);
	html_svg_begin(f, fmax(w, 360), y0 + cell * (double)t->n + 40, title);
	html_svg_text(f, x0 + cell * (double)t->n / 2, 12, "middle", "dst");
	html_svg_text(f, 14, y0 + cell * (double)t->n / 2, "middle", "src");
	for (size_t i = 0; i < t->n; i++) {
		if (cell >= 12) {
			html_svg_text(f, x0 + cell * ((double)i + 0.5), y0 - 4, "middle",
				      t->ids[i]);
			html_svg_text(f, x0 - 6, y0 + cell * ((double)i + 0.5) + 4, "end",
				      t->ids[i]);
		}
		for (size_t j = 0; j < t->n; j++) {
			double v = t->median[i * t->n + j], l = isfinite(v) ? shade(&a, v) : 90;
			double cx = x0 + cell * (double)j, cy = y0 + cell * (double)i;

			matrix_cell_text(t, i, j, buf, sizeof(buf));
			fprintf(f,
				"<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\"",
				cx, cy, cell - 1, cell - 1);
			if (isfinite(v))
				fprintf(f, " style=\"fill:hsl(212,70%%,%.0f%%)\"", l);
			else
				fputs(" style=\"fill:#e4e4e4\"", f);
			html_put(f, "><title>", t->ids[i], " \u2192 ");
			html_put(f, "", t->ids[j], ": ");
			html_put(f, "", buf, "</title></rect>\n");
			if (cell >= 36) {
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					"fill=\"%s\">",
					cx + cell / 2, cy + cell / 2 + 4, l < 60 ? "#fff" : "#222");
				html_put(f, "", buf, "</text>\n");
			}
		}
	}
	/* the colour bar: the scale of the shades, smallest to largest */
	for (int k = 0; k < 10; k++) {
		double v = a.sc == PLOT_LINEAR ? lo + (hi - lo) * k / 9.0
					       : lo * pow(hi / lo, (double)k / 9.0);

		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%.1f\" "
			"style=\"fill:hsl(212,70%%,%.0f%%)\"/>\n",
			x0 + cell * (double)t->n + 16, y0 + cell * (double)t->n * (9 - k) / 10.0,
			cell * (double)t->n / 10.0, shade(&a, v));
	}
	report_fmt_value(hi, buf, sizeof(buf));
	html_svg_text(f, x0 + cell * (double)t->n + 38, y0 + 10, "start", buf);
	report_fmt_value(lo, buf, sizeof(buf));
	html_svg_text(f, x0 + cell * (double)t->n + 38, y0 + cell * (double)t->n, "start", buf);
	html_svg_text(f, x0 + cell * (double)t->n + 38, y0 + cell * (double)t->n / 2, "start",
		      unit_name(t->unit));
	fputs("</svg>\n", f);
}
