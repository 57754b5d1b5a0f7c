/* html_compare.c - a comparison file as one HTML page (html.h has the page
 * and SVG helpers it shares with the results page): the warnings that void
 * verdicts first, the verdict table coloured by verdict, a forest plot of each
 * change with its CI against the row's threshold, and the statistics behind
 * every judged verdict, the facts the Markdown writer prints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/compare_cells.h"
#include "report/format.h"
#include "report/html_compare.h"
#include "report/html_page.h"
#include "report/html_plot.h"
#include "report/html_wrap.h"
#include "verdict/compare.h"

/* The ratio axis' half-width: x2 by default; x4 or x10 only when a quarter
 * of the changes or more lie beyond the narrower one. One change of x4.7
 * among changes of a few percent stays an arrow with its number rather
 * than squeezing every other dot into the middle (docs/design.md §9.5). */
static double ratio_range(const struct comparison *c)
{
	static const double steps[] = {2, 4, 10};
	size_t n = 0, beyond[3] = {0, 0, 0};

	for (size_t i = 0; i < c->n_rows; i++) {
		double r = 1 + c->rows[i].change;

		if (c->rows[i].verdict == VERDICT_MISSING || !isfinite(r))
			continue;
		n++;
		for (size_t k = 0; k < ARRAY_SIZE(steps); k++)
			beyond[k] += r <= 0 || r > steps[k] || r < 1 / steps[k];
	}
	for (size_t k = 0; k < ARRAY_SIZE(steps); k++)
		if (4 * beyond[k] < n || beyond[k] == 0)
			return steps[k];
	return steps[ARRAY_SIZE(steps) - 1];
}

/* One row: the threshold band, the CI (clipped with an arrow), the dot or,
 * beyond the axis, an arrow and the ratio as text. */
static void forest_row(FILE *f, const struct compare_row *row, const struct plot_axis *a, double y)
{
	double mid = y + ROW_H / 2.0, t = row->threshold, r = 1 + row->change;
	char buf[64];

	if (isfinite(t) && t > 0 && t < 1) {
		double x0 = plot_pos(a, 1 - t), x1 = plot_pos(a, 1 + t);

		fprintf(f,
			"<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%d\"/>\n",
			x0, y + 1, x1 - x0, ROW_H - 2);
	}
	html_svg_text(f, a->p0 - 6, mid + 4, "end", row->key);
	if (isfinite(row->ci_lo) && isfinite(row->ci_hi)) {
		double lo = 1 + row->ci_lo, hi = 1 + row->ci_hi;

		html_svg_line(f, "wh", plot_pos(a, lo), mid, plot_pos(a, hi), mid);
		if (lo < a->lo)
			plot_arrow(f, "arrow", a->p0, mid, -1);
		if (hi > a->hi)
			plot_arrow(f, "arrow", a->p1, mid, 1);
	}
	report_compare_pct(row->change, buf, sizeof(buf));
	if (r >= a->lo && r <= a->hi) {
		fprintf(f, "<circle class=\"v-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>",
			verdict_id(row->verdict), plot_pos(a, r), mid);
		report_html_text(f, buf);
		fputc(' ', f);
		html_put(f, "", verdict_name(row->verdict), "</title></circle>\n");
		return;
	}
	/* beyond the axis: the number where the dot would be off the page */
	if (r > 0)
		snprintf(buf, sizeof(buf), "\u00d7%.3g", r);
	else
		snprintf(buf, sizeof(buf), "%s (no ratio)", "B \u2264 0");
	plot_arrow(f, "arrow", r > a->hi ? a->p1 : a->p0, mid, r > a->hi ? 1 : -1);
	fprintf(f, "<text class=\"beyond v-%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
		verdict_id(row->verdict), r > a->hi ? a->p1 - 10 : a->p0 + 10, mid + 4,
		r > a->hi ? "end" : "start");
	html_put(f, "", buf, "</text>\n");
}

/* Is a dot of verdict v drawn: a row with a finite change. */
static int drawn(const struct comparison *c, enum verdict v)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].verdict == v && isfinite(c->rows[i].change))
			return 1;
	return 0;
}

/* The legend under the plot: every colour of a dot (WIN, LOSS, ~ and
 * UNSTABLE always, the others where drawn: "no verdict" and VOID hollow, so
 * they are not read as "~"), the band, the whisker and the arrows. The
 * legend's rows, drawn when f. */
static size_t forest_legend(const struct comparison *c, FILE *f, double x, double y, double w)
{
	static const enum verdict v[] = {VERDICT_WIN,	   VERDICT_LOSS, VERDICT_NOWIN,
					 VERDICT_UNSTABLE, VERDICT_SAME, VERDICT_VOID,
					 VERDICT_FEW,	   VERDICT_FACT, VERDICT_REFUSED};
	struct plot_key k[ARRAY_SIZE(v) + 3];
	char cls[ARRAY_SIZE(v)][32];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (i < 4 || drawn(c, v[i])) {
			snprintf(cls[i], sizeof(cls[i]), "v-%s", verdict_id(v[i]));
			k[n++] = (struct plot_key){KEY_DOT, verdict_name(v[i]), 0, 0, cls[i]};
		}
	k[n++] = (struct plot_key){KEY_BAND, "practical threshold", 0, 0, "band"};
	k[n++] = (struct plot_key){KEY_WHISKER, report_compare_ci_name(c), 0, 0, NULL};
	k[n++] = (struct plot_key){KEY_ARROW, "beyond the axis", 0, 0, NULL};
	return plot_legend(f, x, y, w, k, n);
}

/* One dot per judged metric at B/A (the ratio of medians) on a log axis
 * symmetric around x1, the 95% CI as a whisker, the row's practical
 * threshold as a grey band: a verdict can be checked by eye (a WIN's
 * whisker clears the band). On a ratio axis a halving and a doubling are
 * the same distance from x1, and a drop cannot pass the edge (docs/design.md
 * §9.5). */
static void forest_plot(FILE *f, const struct comparison *c)
{
	size_t n = 0, chars = 0;
	double y = 8, range = ratio_range(c);
	struct plot_axis a = {.sc = PLOT_LOG10, .fmt = PLOT_T_RATIO};
	char title[64];

	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];

		if (row->verdict == VERDICT_MISSING || !isfinite(row->change))
			continue;
		n++;
		chars = strlen(row->key) > chars ? strlen(row->key) : chars;
	}
	if (n == 0)
		return;
	a.lo = 1 / range;
	a.hi = range;
	a.p0 = html_label_width(chars, 420);
	a.p1 = CHART_W - 40; /* room for the last tick's label */
	fputs("<h2>Change per metric</h2>\n", f);
	snprintf(title, sizeof(title), "B / A per metric with %s", report_compare_ci_name(c));
	html_svg_begin(f, CHART_W,
		       8 + (double)n * ROW_H + AXIS_H + 6 +
			       18.0 * (double)forest_legend(c, NULL, 20, 0, CHART_W - 40),
		       title);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];

		if (row->verdict == VERDICT_MISSING || !isfinite(row->change))
			continue;
		forest_row(f, row, &a, y);
		y += ROW_H;
	}
	html_svg_line(f, "zero", plot_pos(&a, 1), 4, plot_pos(&a, 1), y + 4);
	plot_axis_h(f, &a, y + 4,
		    "B / A, the ratio of medians (log scale: \u00d70.5 and \u00d72 equally far "
		    "from \u00d71)");
	forest_legend(c, f, 20, y + 4 + AXIS_H + 12, CHART_W - 40);
	fputs("</svg>\n", f);
}

static void compare_head(FILE *f, const struct comparison *c)
{
	char *line = comparison_controls_line(c);

	/* what invalidates the verdicts comes first, as in every other format */
	char *partial = comparison_incomplete_line(c);
	if (partial)
		html_put(f, "<p class=\"warn\">", partial, "</p>\n");
	free(partial);
	partial = comparison_emulated_line(c);
	if (partial)
		html_put(f, "<p class=\"warn\">", partial, "</p>\n");
	free(partial);
	if (line)
		html_put(f, "<p class=\"warn\">", line, "</p>\n");
	free(line);
	line = comparison_noise_line(c);
	if (line)
		html_put(f, "<p class=\"warn\">", line, "</p>\n");
	free(line);
	if (c->n_knob_diffs) {
		html_put(f, "<p class=\"warn\">", report_compare_knob_heading(c), "</p>\n<ul>\n");
		for (size_t i = 0; i < c->n_knob_diffs; i++)
			html_put(f, "<li>knob ", c->knob_diffs[i], "</li>\n");
		fputs("</ul>\n", f);
	}
}

/* The legs, the rules and the families, after the answer and its plot. */
static void compare_legs(FILE *f, const struct comparison *c)
{
	const struct run *r0 = c->legs[0].run;
	json_t *cpu = r0->host ? json_object_get(r0->host, "cpu") : NULL;

	fputs("<h2>Legs and rules</h2>\n", f);
	html_put(f, "<ul>\n<li>host: ", report_jstr(r0->host, "hostname"), ", kernel ");
	report_html_text(f, report_jstr(r0->host, "kernel"));
	html_put(f, ", ", report_jstr(cpu, "model"), "</li>\n");
	for (size_t j = 0; j < c->n_legs; j++) {
		const struct run *r = c->legs[j].run;
		const char variant[2] = {c->legs[j].variant, '\0'}; /* read from a file too */
		char *how;

		fprintf(f, "<li>leg %zu, ", j + 1);
		html_put(f, "", c->legs[j].name, " (");
		html_put(f, "", variant, "): <code>");
		report_html_text(f, c->legs[j].file);
		html_put(f, "</code>, ", r->start_time ? r->start_time : "?", " to ");
		html_put(f, "", r->end_time ? r->end_time : "?", "");
		how = report_compare_leg_how(r);
		if (how)
			html_put(f, "; ", how, "");
		free(how);
		fputs("</li>\n", f);
	}
	fputs("<li>", f);
	report_compare_rules(c, f, ""); /* numbers and fixed words only */
	fputs("</li>\n", f);
	if (c->opts.primary) {
		html_put(f, "<li>primary metric: <code>", c->opts.primary, "");
		fprintf(f, "</code> (alpha %g uncorrected); Holm over the rest</li>\n",
			c->opts.alpha);
	} else {
		fprintf(f,
			"<li>Holm-Bonferroni over the %zu compared metrics; controls "
			"separately</li>\n",
			report_compare_family(c));
	}
	for (size_t k = 0; k < c->opts.n_controls; k++)
		html_put(f, "<li>control: <code>", c->opts.controls[k], "</code></li>\n");
	fputs("</ul>\n", f);
}

/* The verdict table: each leg's median (B legs with their change), the
 * verdict cell coloured by its class (v-win, v-loss, ...). */
/* The verdict table: the judged rows (facts 0), or the facts (better=none,
 * never judged: facts 1), folded below it so that the page's table is the
 * verdicts. */
static void verdict_table(FILE *f, const struct comparison *c, int facts)
{
	char buf[1024];
	size_t n = 0;

	for (size_t i = 0; i < c->n_rows; i++)
		n += c->rows[i].verdict != VERDICT_MISSING &&
		     (c->rows[i].verdict == VERDICT_FACT) == facts;
	if (!n)
		return;
	if (facts)
		fprintf(f,
			"<details><summary>%zu fact%s (better=none: recorded beside the "
			"figures, not judged)</summary>\n",
			n, n == 1 ? "" : "s");
	fputs("<div class=\"tw\"><table>\n<tr><th>metric</th>", f);
	for (size_t j = 0; j < report_compare_ncols(c); j++)
		html_put(f, "<th>", report_compare_col_name(c, j), "</th>");
	fputs(report_compare_has_mechanism(c) ? "<th>mechanism</th><th>verdict</th></tr>\n"
					      : "<th>verdict</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];

		if (row->verdict == VERDICT_MISSING || (row->verdict == VERDICT_FACT) != facts)
			continue;
		fputs("<tr>", f);
		html_cell_text(f, row->key);
		for (size_t j = 0; j < report_compare_ncols(c); j++) {
			report_compare_col(c, row, j, buf, sizeof(buf), 1);
			html_cell_num(f, buf);
		}
		if (report_compare_has_mechanism(c)) { /* §5.15 */
			report_compare_mechanism(row, buf, sizeof(buf));
			html_cell_text(f, buf);
		}
		report_compare_verdict(row, 1, buf, sizeof(buf));
		fprintf(f, "<td class=\"v-%s\">", verdict_id(row->verdict));
		html_put(f, "", buf, "</td></tr>\n");
	}
	fputs(facts ? "</table></div>\n</details>\n" : "</table></div>\n", f);
}

/* The statistics behind each judged verdict, as the Markdown details table. */
static void detail_table(FILE *f, const struct comparison *c)
{
	int any = 0;

	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		char buf[64];

		if (isnan(row->p_effect))
			continue;
		if (!any++)
			fprintf(f,
				"<div "
				"class=\"tw\"><table>\n<tr><th>metric</th><th>change</th><th>%s</"
				"th><th>p</th>"
				"<th>p adjusted</th><th>same-variant gap (p)</th><th>threshold</th>"
				"<th>n per leg</th></tr>\n",
				report_compare_ci_name(c));
		fputs("<tr>", f);
		html_cell_text(f, row->key);
		report_compare_pct(isfinite(row->change) ? row->change : NAN, buf, sizeof(buf));
		html_cell_num(f, buf);
		report_compare_ci(row, buf, sizeof(buf));
		html_cell_num(f, row->ci_wide || (isfinite(row->ci_lo) && isfinite(row->ci_hi))
					 ? buf
					 : "-");
		report_compare_p(row->p_effect, buf, sizeof(buf));
		html_cell_num(f, buf);
		report_compare_p(row->p_effect_adj, buf, sizeof(buf));
		html_cell_num(f, buf);
		fputs("<td class=\"n\">", f);
		if (isfinite(row->drift))
			fprintf(f, "%.1f%% ", 100.0 * row->drift);
		report_compare_p(row->p_drift_adj, buf, sizeof(buf));
		fprintf(f, "(%s)</td>", buf);
		report_compare_threshold(row, buf, sizeof(buf));
		html_cell_num(f, buf);
		fputs("<td class=\"n\">", f);
		for (size_t j = 0; j < c->n_legs; j++)
			fprintf(f, "%s%zu", j ? "/" : "", row->n[j]);
		fputs("</td></tr>\n", f);
	}
	if (any)
		fputs("</table></div>\n", f);
}

int report_compare_html(const struct comparison *c, FILE *f)
{
	char *title = xstrdup("mempath comparison:"), *line;
	size_t missing = 0;

	for (size_t j = 0; j < c->n_legs; j++) {
		char *t = xasprintf("%s%s %s", title, j ? " ->" : "", c->legs[j].name);

		free(title);
		title = t;
	}
	html_page_begin(f, title);
	free(title);
	/* what invalidates the verdicts, then the one-line answer, the summary
	 * and the plot of every change; the legs and the tables below them */
	compare_head(f, c);
	line = comparison_headline(c);
	if (line)
		html_put(f, "<p class=\"answer\" style=\"font-size:1.15em\"><b>", line,
			 "</b></p>\n");
	free(line);
	line = comparison_summary_line(c);
	html_put(f, "<p>", line, "</p>\n");
	free(line);
	forest_plot(f, c);
	compare_legs(f, c);
	verdict_table(f, c, 0);
	detail_table(f, c);
	verdict_table(f, c, 1);
	html_wrap_legs(f, c);
	report_compare_wrap(c, REPORT_HTML, f);
	for (size_t i = 0; i < c->n_rows; i++)
		missing += c->rows[i].verdict == VERDICT_MISSING; /* controls too */
	if (c->n_notes || missing)
		fputs("<h2>Notes</h2>\n<ul>\n", f);
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].verdict == VERDICT_MISSING) {
			html_put(f, "<li>missing: ", c->rows[i].key, " (");
			html_put(f, "", c->rows[i].reason ? c->rows[i].reason : "?", ")</li>\n");
		}
	for (size_t i = 0; i < c->n_notes; i++)
		html_put(f, "<li>", c->notes[i], "</li>\n");
	if (c->n_notes || missing)
		fputs("</ul>\n", f);
	for (size_t i = 0, any = 0; i < c->n_rows; i++) {
		if (!c->rows[i].mechanism)
			continue;
		if (!any++)
			fputs("<h2>Mechanism</h2>\n<p>The counters that moved with each WIN and "
			      "LOSS (every window of B beyond every window of A).</p>\n<ul>\n",
			      f);
		html_put(f, "<li>", c->rows[i].key, " ");
		html_put(f, "", verdict_name(c->rows[i].verdict), ": ");
		html_put(f, "", c->rows[i].mechanism, "</li>\n");
	}
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].mechanism) {
			fputs("</ul>\n", f);
			break;
		}
	fputs("<p>Raw samples: the legs' results files above.</p>\n", f);
	return html_page_end(f);
}
