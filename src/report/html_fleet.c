/* html_fleet.c - a fleet as one HTML page (html_fleet.h). */
#include "report/html_fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/fleet.h"
#include "report/format.h"
#include "report/html_page.h"
#include "report/html_plot.h"

#define STRIP_H 70 /* px: the band of dots above the axis */

/* Every node of group g on one metric: a dot per node (flagged ones red and
 * named), the group median as a dashed line, the practical threshold as a
 * grey band around it. Dots are spread over the band's height by node
 * index, so equal values stay visible. */
static void strip_plot(const struct fleet *fl, size_t g, const struct fleet_stat *st, FILE *f)
{
	double lo = INFINITY, hi = -INFINITY, x0 = 60, x1 = CHART_W - 60;
	double *v = xcalloc(fl->n_nodes + 1, sizeof(double));
	char labels[256], title[512];
	struct plot_axis sc;
	size_t k = 0;
	for (size_t i = 0; i < fl->n_nodes; i++) {
		v[i] = fl->nodes[i].group == g ? report_fleet_value(fl->nodes[i].run, st) : NAN;
		if (isfinite(v[i])) {
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
	}
	if (isfinite(st->median) && isfinite(st->threshold)) {
		double band = fabs(st->median * st->threshold);
		lo = st->median - band < lo ? st->median - band : lo;
		hi = st->median + band > hi ? st->median + band : hi;
	}
	if (!(hi > lo))
		hi = lo + 1;
	report_fleet_labels(st->labels, st->n_labels, labels, sizeof(labels));
	snprintf(title, sizeof(title), "%s %s %s", st->probe, st->metric, labels);
	if (!isfinite(lo) || plot_axis_make(&sc, PLOT_LINEAR, PLOT_T_VALUE, lo, hi, x0, x1) != 0) {
		free(v);
		return;
	}
	html_put(f, "<p><b>", title, "</b> (");
	html_put(f, "", unit_name(st->unit), ", ");
	html_put(f, "", better_name(st->better), " is better): every node of the group</p>\n");
	html_svg_begin(f, CHART_W, STRIP_H + AXIS_H, title);
	if (isfinite(st->median) && isfinite(st->threshold)) {
		double b0 = plot_pos(&sc, st->median * (1 - st->threshold));
		double b1 = plot_pos(&sc, st->median * (1 + st->threshold));
		fprintf(f,
			"<rect class=\"band\" x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"%d\"/>\n",
			b0 < b1 ? b0 : b1, fabs(b1 - b0), STRIP_H - 8);
	}
	if (isfinite(st->median))
		html_svg_line(f, "zero", plot_pos(&sc, st->median), 2, plot_pos(&sc, st->median),
			      STRIP_H - 2);
	for (size_t i = 0; i < fl->n_nodes; i++) {
		int flagged;
		double x, y;
		if (!isfinite(v[i]))
			continue;
		flagged = report_fleet_flag_of(&fl->nodes[i], st) != NULL;
		x = plot_pos(&sc, v[i]);
		y = 10 + (double)(k++ % 7) * (STRIP_H - 20) / 6.0;
		fprintf(f, "<circle%s cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"><title>",
			flagged ? " class=\"v-loss\"" : "", x, y, flagged ? 5 : 3);
		report_html_text(f, fl->nodes[i].name);
		fputs("</title></circle>\n", f);
		if (flagged)
			html_svg_text(f, x + 7, y + 4, "start", fl->nodes[i].name);
	}
	plot_axis_h(f, &sc, STRIP_H, unit_name(st->unit));
	fputs("</svg>\n", f);
	free(v);
}

static void flags_table(const struct fleet *fl, size_t g, FILE *f)
{
	int any = 0;
	for (size_t i = 0; i < fl->n_nodes; i++) {
		const struct fleet_node *nd = &fl->nodes[i];
		if (nd->group != g || nd->n_flags == 0)
			continue;
		if (!any++)
			fputs("<div "
			      "class=\"tw\"><table>\n<tr><th>node</th><th>probe</th><th>metric</"
			      "th><th>labels</"
			      "th>"
			      "<th>value</th><th>group median</th><th>z</th><th>why</th></tr>\n",
			      f);
		for (size_t k = 0; k < nd->n_flags; k++) {
			const struct fleet_flag *fl2 = &nd->flags[k];
			char labels[256];
			report_fleet_labels(fl2->labels, fl2->n_labels, labels, sizeof(labels));
			fputs("<tr>", f);
			html_cell_text(f, nd->name);
			html_cell_text(f, fl2->probe);
			html_cell_text(f, fl2->metric ? fl2->metric : "-");
			html_cell_text(f, labels);
			html_cell_value(f, fl2->value);
			html_cell_value(f, fl2->group_median);
			html_cell_value(f, fl2->robust_z);
			html_cell_text(f, fl2->why);
			fputs("</tr>\n", f);
		}
	}
	if (any)
		fputs("</table></div>\n", f);
}

/* Nodes x the metrics with a flag; flagged cells marked. */
static void nodes_table(const struct fleet *fl, size_t g, FILE *f)
{
	const struct fleet_group *gr = &fl->groups[g];
	size_t nc = 0;
	for (size_t k = 0; k < gr->n_stats; k++)
		nc += gr->stats[k].n_flagged > 0;
	if (nc == 0)
		return;
	fputs("<div class=\"tw\"><table>\n<tr><th>node</th>", f);
	for (size_t k = 0; k < gr->n_stats; k++) {
		char labels[256];
		if (!gr->stats[k].n_flagged)
			continue;
		report_fleet_labels(gr->stats[k].labels, gr->stats[k].n_labels, labels,
				    sizeof(labels));
		html_put(f, "<th>", gr->stats[k].probe, "<br>");
		html_put(f, "", gr->stats[k].metric, "<br>");
		html_put(f, "", labels, " (");
		html_put(f, "", unit_name(gr->stats[k].unit), ")</th>");
	}
	fputs("</tr>\n<tr><td><i>group median</i></td>", f);
	for (size_t k = 0; k < gr->n_stats; k++)
		if (gr->stats[k].n_flagged)
			html_cell_value(f, gr->stats[k].median);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < fl->n_nodes; i++) {
		const struct fleet_node *nd = &fl->nodes[i];
		if (nd->group != g)
			continue;
		fputs("<tr>", f);
		html_cell_text(f, nd->name);
		for (size_t k = 0; k < gr->n_stats; k++) {
			double v;
			char buf[64] = "-";
			if (!gr->stats[k].n_flagged)
				continue;
			v = report_fleet_value(nd->run, &gr->stats[k]);
			if (isfinite(v))
				report_fmt_value(v, buf, sizeof(buf));
			html_put(f,
				 report_fleet_flag_of(nd, &gr->stats[k]) ? "<td class=\"n v-loss\">"
									 : "<td class=\"n\">",
				 buf, "</td>");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void checks_table(const struct fleet *fl, size_t g, FILE *f)
{
	int any = 0;
	for (size_t i = 0; i < fl->n_nodes; i++) {
		const struct fleet_node *nd = &fl->nodes[i];
		if (nd->group != g)
			continue;
		for (size_t k = 0; k < nd->n_checks; k++) {
			const struct fleet_check *ck = &nd->checks[k];
			char labels[256], tol[32];
			if (!any++)
				fputs("<div "
				      "class=\"tw\"><table>\n<tr><th>node</th><th>path</"
				      "th><th>labels</th>"
				      "<th>value</th><th>reference</th><th>tolerance</th>"
				      "<th>check</th><th>means</th><th>source</th></tr>\n",
				      f);
			report_fleet_labels(ck->labels, ck->n_labels, labels, sizeof(labels));
			snprintf(tol, sizeof(tol), "%.0f%%", ck->tolerance * 100);
			fputs("<tr>", f);
			html_cell_text(f, nd->name);
			html_cell_text(f, ck->path);
			html_cell_text(f, labels);
			html_cell_value(f, ck->value);
			html_cell_value(f, ck->reference);
			html_cell_num(f, tol);
			html_put(f,
				 ck->status == CHECK_FAIL   ? "<td class=\"v-loss\">"
				 : ck->status == CHECK_WARN ? "<td class=\"v-unstable\">"
				 : ck->status == CHECK_PASS ? "<td class=\"v-win\">"
							    : "<td>",
				 check_status_name(ck->status), "</td>");
			html_cell_text(f, ck->means);
			html_cell_text(f, ck->source);
			fputs("</tr>\n", f);
		}
	}
	if (any)
		fputs("</table></div>\n", f);
}

int report_fleet_html(const struct fleet *fl, FILE *f)
{
	char title[128];
	snprintf(title, sizeof(title), "mempath fleet: %zu nodes, %zu flagged%s", fl->n_nodes,
		 fl->n_flagged, fl->n_busy ? " (some busy, not slow)" : "");
	html_page_begin(f, title);
	html_put(f, "<p>made ", fl->created ? fl->created : "?", " by ");
	html_put(f, "", fl->source ? fl->source : "?", fl->mpi ? " (" : "");
	html_put(f, "", fl->mpi ? fl->mpi : "", fl->mpi ? ")" : "");
	fprintf(f,
		"; flagged: |modified z| &gt; %.1f in the worse direction and more than "
		"max(%.0f%%, the metric's own spread) from the group median; groups under %u "
		"nodes: reference values only.</p>\n",
		fl->th.z, fl->th.practical * 100, fl->th.min_group);
	for (size_t i = 0; i < fl->n_notes; i++)
		html_put(f, "<p class=\"warn\">", fl->notes[i], "</p>\n");
	for (size_t g = 0; g < fl->n_groups; g++) {
		const struct fleet_group *gr = &fl->groups[g];
		fprintf(f, "<h2>group %zu: ", g + 1);
		html_put(f, "", gr->key, "</h2>\n");
		fprintf(f, "<p>%zu nodes; judged ", gr->n_nodes);
		html_put(f, "", gr->judged, "</p>\n");
		flags_table(fl, g, f);
		nodes_table(fl, g, f);
		for (size_t k = 0; k < gr->n_stats; k++)
			if (gr->stats[k].n_flagged)
				strip_plot(fl, g, &gr->stats[k], f);
		checks_table(fl, g, f);
	}
	if (fl->n_flagged == 0)
		fputs("<p><b>no node flagged</b></p>\n", f);
	return html_page_end(f);
}
