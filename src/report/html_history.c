/* html_history.c - `history list` and `history trend` as an HTML page
 * (history.h): a trend is one line per label set of the metric's kept
 * medians in the order of their runs, each with its p5-p95 band, then the
 * table of every point; a list is its table. Every string is escaped
 * through html_put and the cells. */
#include "report/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/html_page.h"
#include "report/html_plot.h"

static void trend_plot(const struct history_table *t, FILE *f)
{
	struct plot_series s[PLOT_MAX_SERIES];
	size_t n = 0;
	char title[256], y_title[96];
	struct plot_lines pl;

	for (size_t i = 0; i < t->n_points; i++) {
		const struct history_point *p = &t->points[i];
		const char *name = p->labels && *p->labels ? p->labels : t->metric;
		size_t k = 0;
		while (k < n && strcmp(s[k].name, name) != 0)
			k++;
		if (k == n) {
			if (n == PLOT_MAX_SERIES)
				continue;
			memset(&s[n], 0, sizeof(s[n]));
			snprintf(s[n].name, sizeof(s[n].name), "%s", name);
			n++;
		}
		if (!isfinite(p->median))
			continue;
		GROW_ONE(s[k].pt, s[k].n);
		/* x: the point's place in its series, oldest first */
		s[k].pt[s[k].n] =
			(struct plot_point){(double)(s[k].n + 1), p->median, p->p5, p->p95};
		s[k].n++;
	}
	plot_styles(s, n);
	snprintf(title, sizeof(title), "%s %s over the runs kept", t->probe, t->metric);
	snprintf(y_title, sizeof(y_title), "%s (%s)", t->metric, t->unit ? t->unit : "?");
	pl = (struct plot_lines){.title = title,
				 .x_title = "run, oldest to newest (its place in the series)",
				 .y_title = y_title,
				 .xs = PLOT_LINEAR,
				 .ys = PLOT_LINEAR,
				 .x_fmt = PLOT_T_VALUE,
				 .s = s,
				 .n = n,
				 .marks_are = "none"};
	if (n)
		plot_lines(f, &pl);
	for (size_t i = 0; i < n; i++)
		free(s[i].pt);
}

static void trend_table(const struct history_table *t, FILE *f)
{
	fputs("<div class=\"tw\"><table>\n<tr><th>run</th><th>start</th><th>label</th>"
	      "<th>host</th><th>labels</th><th>median</th><th>p5</th><th>p95</th><th>n</th>"
	      "<th>baseline</th></tr>\n",
	      f);
	for (size_t i = 0; i < t->n_points; i++) {
		const struct history_point *p = &t->points[i];
		fprintf(f, "<tr><td class=\"n\">%lld</td>", (long long)p->run_id);
		html_cell_text(f, p->start_time ? p->start_time : "?");
		html_cell_text(f, p->label ? p->label : "-");
		html_cell_text(f, p->host ? p->host : "?");
		html_cell_text(f, p->labels && *p->labels ? p->labels : "-");
		html_cell_value(f, p->median);
		html_cell_value(f, p->p5);
		html_cell_value(f, p->p95);
		fprintf(f, "<td class=\"n\">%lld</td><td>%s</td></tr>\n", (long long)p->n,
			p->blessed ? "yes" : "");
	}
	fputs("</table></div>\n", f);
}

static void runs_table(const struct history_table *t, FILE *f)
{
	fputs("<div class=\"tw\"><table>\n<tr><th>run</th><th>start</th><th>label</th>"
	      "<th>suite</th><th>host</th><th>kind</th><th>probes</th><th>metrics</th>"
	      "<th>baseline</th><th>file</th></tr>\n",
	      f);
	for (size_t i = 0; i < t->n_runs; i++) {
		const struct history_run *r = &t->runs[i];
		fprintf(f, "<tr><td class=\"n\">%lld</td>", (long long)r->id);
		html_cell_text(f, r->start_time ? r->start_time : "?");
		html_cell_text(f, r->label ? r->label : "-");
		html_cell_text(f, r->suite ? r->suite : "-");
		html_cell_text(f, r->host ? r->host : "?");
		html_cell_text(f, r->kind ? r->kind : "?");
		fprintf(f, "<td class=\"n\">%lld</td><td class=\"n\">%lld</td><td>%s</td>",
			(long long)r->n_probes, (long long)r->n_metrics, r->blessed ? "yes" : "");
		html_cell_text(f, r->path ? r->path : "-");
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

int report_history_html(const struct history_table *t, FILE *f)
{
	if (t->kind == HISTORY_TABLE_RUNS) {
		html_page_begin(f, "mempath history: the runs kept");
		runs_table(t, f);
	} else {
		char *title = xasprintf("mempath history trend: %s %s", t->probe, t->metric);
		html_page_begin(f, title);
		free(title);
		html_put(f, "<p>", t->better ? t->better : "?", " is better; ");
		fprintf(f, "%zu medians kept</p>\n", t->n_points);
		trend_plot(t, f);
		trend_table(t, f);
	}
	return html_page_end(f);
}
