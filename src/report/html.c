/* html.c - a results file as one self-contained HTML5 page: the facts the
 * Markdown writer prints, plus inline SVG that makes them readable at a
 * glance (matrices shaded by value, bar charts of medians with p5-p95
 * whiskers). Page and SVG helpers: html_page.c. */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/doctor.h"
#include "report/format.h"
#include "report/html_bars.h"
#include "report/html_curves.h"
#include "report/html_heatmap.h"
#include "report/html_loaded.h"
#include "report/html_page.h"
#include "report/html_plot.h"
#include "report/html_wrap.h"
#include "report/limit.h"
#include "report/matrix.h"
#include "report/phantom.h"
#include "report/wrap.h"
#include "verdict/ref_busy.h"

/* Bars share a chart when they are one quantity measured under several
 * label sets: same name and unit (src/dst cells are matrices instead). */
static int same_quantity(const struct metric *a, const struct metric *b)
{
	return !matrix_is_cell(b) && strcmp(a->name, b->name) == 0 && a->unit == b->unit;
}

/* One bar per metric of p like p->metrics[first] (from first on). */
static void bar_chart(FILE *f, const struct probe_result *p, size_t first)
{
	const struct metric *m0 = &p->metrics[first];
	struct plot_bar *b = xcalloc(p->n_metrics + 1, sizeof(*b));
	char(*labels)[256] = xcalloc(p->n_metrics + 1, sizeof(*labels));
	size_t n = 0;

	for (size_t k = first; k < p->n_metrics; k++) {
		struct summary s;

		if (!same_quantity(m0, &p->metrics[k]))
			continue;
		stats_summarize(p->metrics[k].samples, p->metrics[k].n_samples, &s);
		metric_labels_str(&p->metrics[k], labels[n], sizeof(labels[n]));
		b[n] = (struct plot_bar){labels[n], s.median, s.p5, s.p95, s.n};
		n++;
	}
	plot_bars(f, m0->name, unit_name(m0->unit), b, n);
	free(labels);
	free(b);
}

/* A matrix as a heatmap (a slow link or a missing pair stands out before
 * any number is read), then its numbers as a table, each present cell
 * shaded by its share of the table's largest median (from 0, so a 3% spread
 * stays a 3% difference in shade). */
static void matrix_html(FILE *f, const struct matrix_table *t)
{
	char buf[128];
	double lo = 0, hi = 0;

	for (size_t i = 0; i < t->n * t->n; i++)
		if (isfinite(t->median[i])) {
			lo = t->median[i] < lo ? t->median[i] : lo;
			hi = t->median[i] > hi ? t->median[i] : hi;
		}
	html_put(f, "<p><b>", t->name, "</b>");
	html_put(f, t->labels[0] ? " " : "", t->labels, "");
	matrix_describe(t, buf, sizeof(buf));
	html_put(f, " (", buf, "); rows src, columns dst</p>\n");
	plot_heatmap(f, t);
	fputs("<details><summary>numbers</summary>\n<div class=\"tw\"><table>\n<tr><th>D\\D</th>",
	      f);
	for (size_t j = 0; j < t->n; j++)
		html_put(f, "<th>", t->ids[j], "</th>");
	fputs("</tr>\n", f);
	for (size_t i = 0; i < t->n; i++) {
		html_put(f, "<tr><th>", t->ids[i], "</th>");
		for (size_t j = 0; j < t->n; j++) {
			double v = t->median[i * t->n + j];

			if (!isfinite(v)) {
				fputs("<td class=\"n\">-</td>", f);
				continue;
			}
			matrix_cell_text(t, i, j, buf, sizeof(buf));
			if (hi > lo && isfinite(hi - lo))
				fprintf(f,
					"<td class=\"n\" "
					"style=\"background:hsl(212,70%%,%.0f%%)\">",
					96 - 36 * (v - lo) / (hi - lo));
			else
				fputs("<td class=\"n\">", f);
			html_put(f, "", buf, "</td>");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n</details>\n", f);
}

/* Every metric that is not a matrix cell: median, p5, p95, CoV, n, unit. */
static void metric_table(FILE *f, const struct probe_result *p)
{
	size_t n_cells = 0;

	for (size_t k = 0; k < p->n_metrics; k++)
		n_cells += matrix_is_cell(&p->metrics[k]);
	if (p->n_metrics == n_cells)
		return;
	/* a long table after the plots, folded: the plots say it first */
	fprintf(f, "<details%s><summary>numbers: %zu metrics</summary>\n",
		p->n_metrics - n_cells <= 12 ? " open" : "", p->n_metrics - n_cells);
	fputs("<div "
	      "class=\"tw\"><table>\n<tr><th>metric</th><th>labels</th><th>median</th><th>p5</th>"
	      "<th>p95</th><th>CoV</th><th>n</th><th>unit</th></tr>\n",
	      f);
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		struct summary s;
		char labels[256];

		/* src/dst cells are shown as matrices below */
		if (matrix_is_cell(m))
			continue;
		stats_summarize(m->samples, m->n_samples, &s);
		metric_labels_str(m, labels, sizeof(labels));
		fputs("<tr>", f);
		html_cell_text(f, m->name);
		html_cell_text(f, labels);
		html_cell_value(f, s.n ? s.median : NAN);
		html_cell_value(f, s.n ? s.p5 : NAN);
		html_cell_value(f, s.n ? s.p95 : NAN);
		if (s.n && isfinite(s.cov))
			fprintf(f, "<td class=\"n\">%.1f%%</td>", 100.0 * s.cov);
		else
			fputs("<td class=\"n\">-</td>", f);
		fprintf(f, "<td class=\"n\">%zu</td>", s.n);
		html_cell_text(f, unit_name(m->unit));
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n</details>\n", f);
}

/* Is every sample of the quantity at first 0 (vmstat counters that did not
 * move): a line saying so in place of a chart of empty bars. */
static int all_zero(FILE *f, const struct probe_result *p, size_t first)
{
	size_t n = 0, n_metrics = 0;

	for (size_t k = first; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];

		if (!same_quantity(&p->metrics[first], m))
			continue;
		for (size_t i = 0; i < m->n_samples; i++)
			if (m->samples[i] != 0)
				return 0;
		n += m->n_samples;
		n_metrics++;
	}
	if (n == 0 || n_metrics < 2) /* one metric is no chart anyway */
		return 0;
	html_put(f, "<p><b>", p->metrics[first].name, "</b>: every sample 0 (not drawn)</p>\n");
	return 1;
}

/* A probe measured beside other work says so above its pictures, which
 * would otherwise look as sure as a quiet run's (docs/design.md §4.14). */
static void busy_note(FILE *f, const struct probe_result *p)
{
	double other;
	long cpus;
	char *busy;
	if (!ref_busy_load(p->noise, &other, &cpus))
		return;
	busy = ref_busy_text(other, cpus);
	/* styled here, not in the page's sheet, so pages without it keep their bytes */
	html_put(f,
		 "<p class=\"busy\" style=\"background:#fff4e0;border-left:4px solid "
		 "#e69f00;padding:.3em .6em\"><b>Measured beside other work</b> (",
		 busy,
		 " while it ran, the mean): its figures below are unsteady, wider than a quiet "
		 "machine's (their p5-p95 bands say how much); measure again quiet "
		 "(<code>mempath check --again-quiet S</code>)</p>\n");
	free(busy);
}

static void probe_html(FILE *f, const json_t *host, const struct probe_result *p)
{
	struct matrix_set ms;
	const char *lat, *bw;

	html_put(f, "<h2>", p->name, "");
	fprintf(f, " <span class=\"st st-%s\">%s</span>", status_name(p->status),
		status_name(p->status));
	{
		char wall[64];

		report_fmt_seconds(p->wall_s, wall, sizeof(wall));
		fprintf(f, " <small>%s</small>", wall);
	}
	fputs("</h2>\n", f);
	if (p->reason)
		html_put(f, "<p>", p->reason, "</p>\n");
	if (p->n_params) {
		fputs("<p>Parameters:", f);
		for (size_t k = 0; k < p->n_params; k++) {
			html_put(f, k ? ", " : " ", p->params[k].key, "=");
			report_html_text(f, p->params[k].value);
		}
		fputs("</p>\n", f);
	}
	busy_note(f, p);
	if (report_is_wrap(p)) { /* a workload's own layout */
		html_wrap(f, p);
		report_wrap(p, REPORT_HTML, f);
		return;
	}
	if (report_is_phantom(p)) {
		report_phantom(p, REPORT_HTML, f);
		return;
	}
	(void)matrix_build(p, &ms); /* checked by report_write */
	for (size_t t = 0; t < ms.n; t++)
		matrix_html(f, &ms.tables[t]);
	matrix_set_free(&ms);
	/* latency against the load's bandwidth (cpu.loaded, gpu.loaded) in
	 * place of both quantities' bars; then one chart per quantity, drawn
	 * where it first appears: lines against a sweep, else bars, and the
	 * workload's rate per iteration */
	if (!html_loaded(f, p, &lat, &bw))
		lat = bw = NULL;
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		size_t j = 0;

		if (matrix_is_cell(m) || (lat && (!strcmp(m->name, lat) || !strcmp(m->name, bw))))
			continue;
		while (j < k && !same_quantity(m, &p->metrics[j]))
			j++;
		if (j == k && !html_curve(f, p, k) && !all_zero(f, p, k))
			bar_chart(f, p, k);
	}
	html_iterations(f, p);
	metric_table(f, p);
	report_receipts(p, REPORT_HTML, f);
	report_limit_lines(host, p, REPORT_HTML, f);
}

int report_html(const struct run *r, FILE *f)
{
	json_t *cpu = r->host ? json_object_get(r->host, "cpu") : NULL;
	json_t *knobs = r->knobs_start;
	json_t *nb = knobs ? json_object_get(knobs, "numa_balancing") : NULL;
	char *title =
		xasprintf("mempath results%s%s", r->label ? ": " : "", r->label ? r->label : "");

	html_page_begin(f, title);
	free(title);
	html_put(f, "<ul>\n<li>date: ", r->start_time ? r->start_time : "?", " to ");
	report_html_text(f, r->end_time ? r->end_time : "?");
	html_put(f, "</li>\n<li>host: ", report_jstr(r->host, "hostname"), ", kernel ");
	report_html_text(f, report_jstr(r->host, "kernel"));
	html_put(f, ", ", report_jstr(cpu, "model"), "</li>\n<li>suite: ");
	report_html_text(f, r->suite ? r->suite : "-");
	html_put(f, "; mempath ", r->tool_version ? r->tool_version : "?", " (");
	html_put(f, "", r->git_hash ? r->git_hash : "?", ")</li>\n");
	if (knobs) {
		html_put(f, "<li>THP enabled=", report_jstr(knobs, "thp_enabled"), " defrag=");
		report_html_text(f, report_jstr(knobs, "thp_defrag"));
		fprintf(f, "; numa_balancing=%s</li>\n",
			json_is_integer(nb) ? (json_integer_value(nb) ? "on" : "off") : "?");
	}
	if (r->argc) {
		fputs("<li>command: <code>", f);
		for (size_t i = 0; i < r->argc; i++) {
			fputs(i ? " " : "", f);
			report_html_text(f, r->argv[i]);
		}
		fputs("</code></li>\n", f);
	}
	report_doctor_traps(r->host, REPORT_HTML, f);
	fputs("</ul>\n", f);
	if (!r->complete)
		fputs("<p class=\"warn\">Incomplete run: the file was saved before the run ended "
		      "(killed?); results are partial.</p>\n",
		      f);
	if (r->interrupted)
		fputs("<p class=\"warn\">Interrupted: partial results.</p>\n", f);
	for (size_t i = 0; i < r->n_probes; i++)
		probe_html(f, r->host, &r->probes[i]);
	return html_page_end(f);
}
