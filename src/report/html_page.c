/* html_page.c - the page and SVG helpers both HTML writers use (html.c for
 * results, html_compare.c for comparisons).
 *
 * Why no scripts, fonts or external style sheets: the page is attached to bug
 * reports and opened offline, so it must look the same everywhere and can run
 * nothing. Text from a file reaches a page only through report_html_text()
 * (format.c), directly or through html_put(). Numbers that are not finite
 * print as "-" and never become SVG coordinates.
 */
#include "report/html_page.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "report/format.h"

static const char page_style[] =
	"body{font:14px/1.4 sans-serif;color:#222;margin:1em auto;max-width:72em;padding:0 1em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em}\n"
	"th,td{border:1px solid #ccc;padding:.15em .5em;text-align:left}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".st{font-size:.75em;padding:0 .4em;border-radius:3px;background:#eee}\n"
	".st-ok{background:#dafbe1}.st-fail,.st-timeout{background:#ffd8d3}\n"
	".warn{background:#ffd8d3;border-left:4px solid #c62828;padding:.4em .8em;"
	"font-weight:bold}\n"
	"svg{display:block;margin:.5em 0 1.5em;font:12px sans-serif;max-width:100%;height:auto}\n"
	"svg .bar{fill:#8fb3dc}svg .wh{stroke:#222}svg .ax{stroke:#888}svg .band{fill:#e4e4e4}\n"
	"svg .zero{stroke:#444;stroke-dasharray:4 3}svg circle{fill:#777}\n"
	"svg .grid{stroke:#eee}svg .knee{stroke-width:1.2;stroke-dasharray:6 4}"
	"svg .plateau{stroke-width:2.5;stroke-dasharray:2 3;opacity:.6}"
	"svg .mk{font-size:10px;fill:#444}svg .cut{stroke:#fff;stroke-width:2.5}\n"
	"svg .arrow{fill:#444}details{margin:0 0 1em}summary{cursor:pointer;color:#555}\n"
	"td.v-win{background:#dafbe1}td.v-loss{background:#ffd8d3}"
	"td.v-unstable{background:#fff1c2}td.v-void,td.v-refused{background:#e4e4e4}\n"
	"svg circle.v-win,svg text.v-win{fill:#1a7f37}svg circle.v-loss,svg "
	"text.v-loss{fill:#c62828}"
	"svg circle.v-unstable,svg text.v-unstable{fill:#c78400}\n"
	"svg circle.v-same{fill:#0072b2}svg circle.v-void,svg circle.v-few,svg circle.v-fact,"
	"svg circle.v-refused{fill:#fff;stroke:#555;stroke-width:1.5}\n"
	"svg .spread{fill-opacity:.16;stroke:none}svg line.spread{stroke-width:7;"
	"stroke-opacity:.22}\n"
	".panels{display:flex;flex-wrap:wrap;align-items:flex-start;column-gap:10px}.panels "
	"svg{margin:0 0 .8em}\n"
	".tw{overflow-x:auto;max-width:100%;margin:.5em 0 1em}.tw table{margin:0}\n";

/* before, then s escaped, then after: before and after are this file's own
 * markup, s is text from the file. */
void html_put(FILE *f, const char *before, const char *s, const char *after)
{
	fputs(before, f);
	report_html_text(f, s);
	fputs(after, f);
}

/* Table cells: text, a number already formatted (right-aligned), a value
 * as report_fmt_value writes it, "-" when not finite ("nan" and "inf" mean
 * nothing to a reader). */
void html_cell_text(FILE *f, const char *s)
{
	html_put(f, "<td>", s, "</td>");
}

void html_cell_num(FILE *f, const char *s)
{
	html_put(f, "<td class=\"n\">", s, "</td>");
}

void html_cell_value(FILE *f, double v)
{
	char buf[64] = "-";

	if (isfinite(v))
		report_fmt_value(v, buf, sizeof(buf));
	html_cell_num(f, buf);
}

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	report_html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_style);
	html_put(f, "", title, "</h1>\n");
}

int html_page_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? error("cannot write the page") : 0;
}

/* ---- SVG ---- */

/* A scale over at least lo..hi with ticks at 1, 2, 2.5 or 5 times a power of
 * ten, the steps people read at a glance; 0, or -1 when lo..hi is not a
 * finite, non-empty range (only absurd samples give one). */
int html_scale_make(struct html_scale *s, double lo, double hi, double x0, double x1)
{
	static const double mult[] = {1, 2, 2.5, 5};
	double want = (hi - lo) / 5, p;

	if (!(hi > lo) || !isfinite(hi - lo) || !(want > 0))
		return -1;
	p = pow(10, floor(log10(want)));
	s->step = 10 * p; /* also where log10 rounded down a power */
	for (size_t i = sizeof(mult) / sizeof(mult[0]); i-- > 0;)
		if (mult[i] * p >= want)
			s->step = mult[i] * p;
	s->lo = floor(lo / s->step) * s->step;
	s->hi = ceil(hi / s->step) * s->step;
	s->x0 = x0;
	s->x1 = x1;
	return s->hi > s->lo && isfinite(s->hi - s->lo) ? 0 : -1;
}

/* The opening tag and a <title> that screen readers and tooltips show. */
void html_svg_begin(FILE *f, double w, double h, const char *title)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
		w, h, w, h);
	html_put(f, "<title>", title, "</title>\n");
}

void html_svg_text(FILE *f, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	html_put(f, "", s, "</text>\n");
}

void html_svg_line(FILE *f, const char *cls, double x1, double y1, double x2, double y2)
{
	fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls,
		x1, y1, x2, y2);
}

/* Label column width for labels of up to `chars` characters: a wide enough
 * guess for a proportional 12 px font, capped so the scale keeps its room;
 * longer labels are clipped at the left edge. */
double html_label_width(size_t chars, double cap)
{
	double w = 12 + 6.6 * (double)chars;

	return w < 60 ? 60 : w > cap ? cap : w;
}

/* ---- results ---- */
