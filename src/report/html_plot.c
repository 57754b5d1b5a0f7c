/* html_plot.c - axes, line plots, heatmaps and legends in inline SVG
 * (html_plot.h).
 *
 * Why log scales by rule: a working-set sweep doubles its size at every
 * step and its latency grows from about 1 ns to hundreds, so on linear axes
 * all of L1 and L2 is one corner; one value more than 20 times another
 * squashes the rest into slivers the same way (docs/design.md §9.5). */
#include "report/html_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "base/util.h"
#include "report/format.h"
#include "report/html_page.h"

int plot_wants_log(double lo, double hi)
{
	return lo > 0 && isfinite(hi) && hi > 20 * lo;
}

int plot_axis_make(struct plot_axis *a, enum plot_scale sc, enum plot_ticks fmt, double lo,
		   double hi, double p0, double p1)
{
	memset(a, 0, sizeof(*a));
	a->sc = sc;
	a->fmt = fmt;
	a->p0 = p0;
	a->p1 = p1;
	if (!isfinite(lo) || !isfinite(hi) || hi < lo)
		return -1;
	if (sc == PLOT_LINEAR) {
		struct html_scale s;

		if (hi == lo)
			hi = lo + (lo ? fabs(lo) : 1);
		if (html_scale_make(&s, lo, hi, 0, 1) != 0)
			return -1;
		a->lo = s.lo;
		a->hi = s.hi;
		a->step = s.step;
		return 0;
	}
	if (!(lo > 0))
		return -1;
	if (sc == PLOT_LOG2) {
		a->lo = exp2(floor(log2(lo) + 1e-9));
		a->hi = exp2(ceil(log2(hi) - 1e-9));
		if (a->hi <= a->lo)
			a->hi = a->lo * 2;
	} else {
		a->lo = pow(10, floor(log10(lo) + 1e-9));
		a->hi = pow(10, ceil(log10(hi) - 1e-9));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
	}
	return isfinite(a->hi) && a->lo > 0 ? 0 : -1;
}

double plot_pos(const struct plot_axis *a, double v)
{
	double t;

	if (a->sc == PLOT_LINEAR)
		t = (v - a->lo) / (a->hi - a->lo);
	else
		t = v > 0 ? log(v / a->lo) / log(a->hi / a->lo) : 0;
	if (!(t >= 0))
		t = 0; /* NaN too */
	if (t > 1)
		t = 1;
	return a->p0 + t * (a->p1 - a->p0);
}

/* Where the ticks go, at most max of them. */
static size_t ticks(const struct plot_axis *a, double *t, size_t max)
{
	size_t n = 0;

	if (a->fmt == PLOT_T_RATIO) {
		static const double r[] = {0.1,	 0.2, 0.25, 0.5, 0.67, 0.8, 1,
					   1.25, 1.5, 2,    4,	 5,    10};
		int wide = a->hi > 2.01;

		for (size_t i = 0; i < ARRAY_SIZE(r) && n < max; i++)
			if (r[i] >= a->lo * 0.999 && r[i] <= a->hi * 1.001 &&
			    (!wide ||
			     (r[i] != 0.67 && r[i] != 0.8 && r[i] != 1.25 && r[i] != 1.5)) &&
			    (a->hi < 9 || (r[i] != 0.25 && r[i] != 4)))
				t[n++] = r[i];
		return n;
	}
	if (a->sc == PLOT_LINEAR) {
		for (int k = 0; k <= 16 && n < max && a->lo + k * a->step <= a->hi + a->step / 2;
		     k++)
			t[n++] =
				fabs(a->lo + k * a->step) < a->step / 1e6 ? 0 : a->lo + k * a->step;
		return n;
	}
	if (a->sc == PLOT_LOG2) {
		double span = log2(a->hi / a->lo);
		int every = span > 20 ? 4 : span > 10 ? 2 : 1;

		for (double v = a->lo; v <= a->hi * 1.0001 && n < max; v *= exp2(every))
			t[n++] = v;
		return n;
	}
	for (double d = a->lo; d <= a->hi * 1.0001 && n < max; d *= 10) {
		t[n++] = d;
		/* 2 and 5 between the decades while there are few of them */
		if (a->hi / a->lo <= 1000.1)
			for (int m = 2; m <= 5 && d * m < a->hi * 0.999 && n < max; m += 3)
				t[n++] = d * m;
	}
	return n;
}

static void tick_text(const struct plot_axis *a, double v, char *buf, size_t len)
{
	if (a->fmt == PLOT_T_SIZE)
		opt_format_size((uint64_t)(v + 0.5), buf, len);
	else if (a->fmt == PLOT_T_RATIO)
		snprintf(buf, len, "\u00d7%g", v);
	else if (fabs(v) >= 1e-3 && fabs(v) < 1e6)
		snprintf(buf, len, "%g", v); /* ticks are round: 1000, 0.5, not 1000.0 */
	else
		report_fmt_value(v, buf, len);
}

void plot_axis_h(FILE *f, const struct plot_axis *a, double y, const char *title)
{
	double t[32];
	size_t n = ticks(a, t, ARRAY_SIZE(t));
	char buf[32];

	html_svg_line(f, "ax", a->p0, y, a->p1, y);
	for (size_t i = 0; i < n; i++) {
		double x = plot_pos(a, t[i]);

		tick_text(a, t[i], buf, sizeof(buf));
		html_svg_line(f, "ax", x, y, x, y + 4);
		html_svg_text(f, x, y + 16, "middle", buf);
	}
	if (title)
		html_svg_text(f, (a->p0 + a->p1) / 2, y + 34, "middle", title);
}

void plot_axis_v(FILE *f, const struct plot_axis *a, double x, double grid_x1, const char *title)
{
	double t[32];
	size_t n = ticks(a, t, ARRAY_SIZE(t));
	char buf[32];

	html_svg_line(f, "ax", x, a->p0, x, a->p1);
	for (size_t i = 0; i < n; i++) {
		double y = plot_pos(a, t[i]);

		tick_text(a, t[i], buf, sizeof(buf));
		html_svg_line(f, "grid", x, y, grid_x1, y);
		html_svg_text(f, x - 5, y + 4, "end", buf);
	}
	if (title) {
		double mid = (a->p0 + a->p1) / 2;

		fprintf(f,
			"<text x=\"12\" y=\"%.1f\" text-anchor=\"middle\" "
			"transform=\"rotate(-90 12 %.1f)\">",
			mid, mid);
		html_put(f, "", title, "</text>\n");
	}
}

const char *plot_colour(size_t i)
{
	static const char *const c[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
					"#e69f00", "#56b4e9", "#000000", "#999999",
					"#8c510a", "#01665e", "#762a83", "#b8860b"};

	return c[i % ARRAY_SIZE(c)];
}

const char *plot_dash(size_t i)
{
	static const char *const d[] = {"", "7 4", "2 3", "9 3 2 3"};

	return d[i % ARRAY_SIZE(d)];
}

void plot_arrow(FILE *f, const char *cls, double x, double y, int dir)
{
	fprintf(f, "<path class=\"%s\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"/>\n", cls, x, y,
		x - 7.0 * dir, y - 4.5, x - 7.0 * dir, y + 4.5);
}

/* One entry's mark, 26 px wide, its text's baseline at y. */
static void key_mark(FILE *f, const struct plot_key *k, double x, double y)
{
	switch (k->kind) {
	case KEY_LINE:
		fprintf(f,
			"<line class=\"lg\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"2.5\" stroke-dasharray=\"%s\"/>\n",
			x, y - 4, x + 26, y - 4, plot_colour((size_t)k->colour),
			plot_dash((size_t)k->dash));
		break;
	case KEY_SPREAD:
		fprintf(f,
			"<rect class=\"spread lg\" x=\"%.1f\" y=\"%.1f\" width=\"26\" "
			"height=\"10\" style=\"fill:%s\"/>\n",
			x, y - 9, plot_colour((size_t)k->colour));
		break;
	case KEY_DOT:
		fprintf(f, "<circle class=\"lg %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>\n", k->klass,
			x + 13, y - 4);
		break;
	case KEY_BAND:
		fprintf(f,
			"<rect class=\"%s lg\" x=\"%.1f\" y=\"%.1f\" width=\"26\" "
			"height=\"12\"/>\n",
			k->klass, x, y - 10);
		break;
	case KEY_WHISKER:
		html_svg_line(f, "wh lg", x, y - 4, x + 26, y - 4);
		html_svg_line(f, "wh lg", x, y - 8, x, y);
		html_svg_line(f, "wh lg", x + 26, y - 8, x + 26, y);
		break;
	case KEY_ARROW:
		plot_arrow(f, "arrow lg", x + 16, y - 4, 1);
		break;
	}
}

size_t plot_legend(FILE *f, double x, double y, double w, const struct plot_key *k, size_t n)
{
	double cx = x;
	size_t rows = n ? 1 : 0;

	for (size_t i = 0; i < n; i++) {
		double need = 32 + 6.6 * (double)strlen(k[i].name) + 18;

		if (cx > x && cx + need > x + w) {
			cx = x;
			y += 18;
			rows++;
		}
		if (f) {
			key_mark(f, &k[i], cx, y);
			fprintf(f,
				"<text class=\"key\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\">",
				cx + 32, y);
			html_put(f, "", k[i].name, "</text>\n");
		}
		cx += need;
	}
	return rows;
}

static int point_cmp(const void *a, const void *b)
{
	double x = ((const struct plot_point *)a)->x, y = ((const struct plot_point *)b)->x;

	return x < y ? -1 : x > y;
}

static int has_band(const struct plot_point *p)
{
	return isfinite(p->lo) && isfinite(p->hi) && p->hi > p->lo;
}

static int usable(const struct plot_lines *pl, const struct plot_point *p)
{
	return isfinite(p->x) && isfinite(p->y) && (pl->xs == PLOT_LINEAR || p->x > 0);
}

/* The data's extent, bands included: 0 when there is a finite point. */
static int extent(const struct plot_lines *pl, double *x0, double *x1, double *y0, double *y1)
{
	int any = 0;

	for (size_t i = 0; i < pl->n; i++)
		for (size_t k = 0; k < pl->s[i].n; k++) {
			const struct plot_point *p = &pl->s[i].pt[k];
			double lo = has_band(p) ? fmin(p->lo, p->y) : p->y;
			double hi = has_band(p) ? fmax(p->hi, p->y) : p->y;

			if (!usable(pl, p))
				continue;
			/* a log scale holds no p5 at or below 0: the band is cut there */
			lo = pl->ys != PLOT_LINEAR && !(lo > 0) ? p->y : lo;
			*x0 = any && *x0 < p->x ? *x0 : p->x;
			*x1 = any && *x1 > p->x ? *x1 : p->x;
			*y0 = any && *y0 < lo ? *y0 : lo;
			*y1 = any && *y1 > hi ? *y1 : hi;
			any = 1;
		}
	return any ? 0 : -1;
}

int plot_lines_has_band(const struct plot_lines *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		for (size_t k = 0; k < pl->s[i].n; k++)
			if (usable(pl, &pl->s[i].pt[k]) && has_band(&pl->s[i].pt[k]))
				return 1;
	return 0;
}

int plot_lines_y_extent(const struct plot_lines *pl, double *lo, double *hi)
{
	double x0 = 0, x1 = 0;

	return extent(pl, &x0, &x1, lo, hi);
}

/* The series' p5-p95 band: a polygon over its p95s and back under its p5s,
 * in its colour and light; one point's band is a whisker. 1 when drawn. */
static int band(FILE *f, const struct plot_lines *pl, const struct plot_series *s,
		const struct plot_axis *ax, const struct plot_axis *ay)
{
	const char *c = plot_colour((size_t)s->colour);
	size_t n = 0;

	for (size_t k = 0; k < s->n; k++)
		n += usable(pl, &s->pt[k]) && has_band(&s->pt[k]);
	if (n == 0)
		return 0;
	if (n == 1) {
		for (size_t k = 0; k < s->n; k++)
			if (usable(pl, &s->pt[k]) && has_band(&s->pt[k]))
				fprintf(f,
					"<line class=\"spread\" x1=\"%.1f\" y1=\"%.1f\" "
					"x2=\"%.1f\" "
					"y2=\"%.1f\" style=\"stroke:%s\"/>\n",
					plot_pos(ax, s->pt[k].x), plot_pos(ay, s->pt[k].lo),
					plot_pos(ax, s->pt[k].x), plot_pos(ay, s->pt[k].hi), c);
		return 1;
	}
	fprintf(f, "<polygon class=\"spread\" style=\"fill:%s\" points=\"", c);
	for (size_t k = 0; k < s->n; k++)
		if (usable(pl, &s->pt[k]) && has_band(&s->pt[k]))
			fprintf(f, "%.1f,%.1f ", plot_pos(ax, s->pt[k].x),
				plot_pos(ay, s->pt[k].hi));
	for (size_t k = s->n; k-- > 0;)
		if (usable(pl, &s->pt[k]) && has_band(&s->pt[k]))
			fprintf(f, "%.1f,%.1f ", plot_pos(ax, s->pt[k].x),
				plot_pos(ay, s->pt[k].lo));
	fputs("\"/>\n", f);
	return 1;
}

static void one_series(FILE *f, const struct plot_lines *pl, size_t i, const struct plot_axis *ax,
		       const struct plot_axis *ay)
{
	struct plot_series *s = &pl->s[i];
	const char *c = plot_colour((size_t)s->colour);
	char xt[32], yt[64], sp[64];

	fprintf(f,
		"<polyline class=\"ln\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
		"stroke-dasharray=\"%s\" points=\"",
		c, plot_dash((size_t)s->dash));
	for (size_t k = 0; k < s->n; k++)
		if (usable(pl, &s->pt[k]))
			fprintf(f, "%.1f,%.1f ", plot_pos(ax, s->pt[k].x),
				plot_pos(ay, s->pt[k].y));
	fputs("\"/>\n", f);
	for (size_t k = 0; k < s->n; k++) {
		const struct plot_point *p = &s->pt[k];

		if (!usable(pl, p))
			continue;
		tick_text(ax, p->x, xt, sizeof(xt));
		report_fmt_value(p->y, yt, sizeof(yt));
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" style=\"fill:%s\"><title>",
			plot_pos(ax, p->x), plot_pos(ay, p->y), c);
		html_put(f, "", s->name, ": ");
		html_put(f, "", xt, " \u2192 ");
		report_html_text(f, yt);
		if (has_band(p)) {
			report_fmt_value(p->lo, yt, sizeof(yt));
			report_fmt_value(p->hi, sp, sizeof(sp));
			html_put(f, " (p5 ", yt, " p95 ");
			html_put(f, "", sp, ")");
		}
		fputs("</title></circle>\n", f);
	}
}

static void marks(FILE *f, const struct plot_lines *pl, const struct plot_axis *ax,
		  const struct plot_axis *ay)
{
	for (size_t i = 0; i < pl->n_marks; i++) {
		const struct plot_mark *m = &pl->marks[i];
		const char *c = m->series >= 0 && (size_t)m->series < pl->n
					? plot_colour((size_t)pl->s[m->series].colour)
					: "#666";

		if (m->vertical) {
			double x = plot_pos(ax, m->x0);

			fprintf(f,
				"<line class=\"knee\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" "
				"stroke=\"%s\"/>\n",
				x, ay->p1, x, ay->p0, c);
			fprintf(f,
				"<text class=\"mk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\">",
				x + 3, ay->p1 + 10 + 12.0 * (double)(i % 2));
			html_put(f, "", m->text, "</text>\n");
		} else {
			double a = plot_pos(ax, m->x0), b = plot_pos(ax, m->x1),
			       y = plot_pos(ay, m->y);

			fprintf(f,
				"<line class=\"plateau\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"%s\"/>\n",
				a, y, b > a + 6 ? b : a + 6, y, c);
			/* labels of the first series above its line, the others' below,
			 * so two page sizes' plateaus at one level stay apart */
			fprintf(f,
				"<text class=\"mk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				(a + b) / 2, m->series > 0 ? y + 12 : y - 4);
			html_put(f, "", m->text, "</text>\n");
		}
	}
}

int plot_lines(FILE *f, const struct plot_lines *pl)
{
	const int panel = pl->panel_w > 0;
	const double w = panel ? pl->panel_w : CHART_W, left = panel ? 56 : 70,
		     right = w - (panel ? 14 : 24), top = panel ? 26 : 14,
		     bottom = top + (panel ? 180 : 300);
	double x0 = 0, x1 = 0, y0 = 0, y1 = 0, h;
	struct plot_axis ax, ay;
	struct plot_key keys[PLOT_MAX_SERIES + 1];
	enum plot_scale ys;
	size_t n = pl->n < PLOT_MAX_SERIES ? pl->n : PLOT_MAX_SERIES, nk = 0;
	int spread = 0;

	if (extent(pl, &x0, &x1, &y0, &y1) != 0)
		return 0;
	if (pl->y_hi > pl->y_lo) {
		y0 = pl->y_lo;
		y1 = pl->y_hi;
	}
	ys = pl->ys == PLOT_LOG10 && plot_wants_log(y0, y1) ? PLOT_LOG10 : PLOT_LINEAR;
	if (ys == PLOT_LINEAR && y0 > 0)
		y0 = 0; /* a linear scale from 0, so heights compare */
	if (pl->x_from_0 && pl->xs == PLOT_LINEAR && x0 > 0)
		x0 = 0;
	if (plot_axis_make(&ax, pl->xs, pl->x_fmt, x0, x1, left, right) != 0 ||
	    plot_axis_make(&ay, ys, PLOT_T_VALUE, y0, y1, bottom, top) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		qsort(pl->s[i].pt, pl->s[i].n, sizeof(*pl->s[i].pt), point_cmp);
		for (size_t k = 0; k < pl->s[i].n; k++)
			spread |= usable(pl, &pl->s[i].pt[k]) && has_band(&pl->s[i].pt[k]);
		keys[nk++] = (struct plot_key){KEY_LINE,
					       pl->s[i].name[0] ? pl->s[i].name : "(no labels)",
					       pl->s[i].colour, pl->s[i].dash, NULL};
	}
	if (spread) /* grey here: each band is in its line's colour */
		keys[nk++] = (struct plot_key){KEY_SPREAD, "p5-p95 of the samples", 7, 0, NULL};
	if (!panel) {
		html_put(f, "<p><b>", pl->title, "</b>");
		fprintf(f, " (%s; one line per label set%s",
			ys == PLOT_LOG10 ? "log scale" : "linear scale",
			spread ? ", the median with its p5-p95 band" : "");
		html_put(f, pl->n_marks ? "; dotted and dashed marks: " : "",
			 !pl->n_marks	 ? ""
			 : pl->marks_are ? pl->marks_are
					 : "what the probe found",
			 ")</p>\n");
	}
	h = bottom + AXIS_H + 18.0 * (double)plot_legend(NULL, left, 0, right - left, keys, nk) + 8;
	html_svg_begin(f, w, h, pl->title);
	if (panel)
		html_svg_text(f, (left + right) / 2, 14, "middle", pl->title);
	plot_axis_v(f, &ay, left, right, pl->y_title);
	plot_axis_h(f, &ax, bottom, pl->x_title);
	for (size_t i = 0; i < n; i++)
		band(f, pl, &pl->s[i], &ax, &ay);
	for (size_t i = 0; i < n; i++)
		one_series(f, pl, i, &ax, &ay);
	marks(f, pl, &ax, &ay);
	plot_legend(f, left, bottom + AXIS_H + 14, right - left, keys, nk);
	fputs("</svg>\n", f);
	return 1;
}
