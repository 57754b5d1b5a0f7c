/* study_html.c - a study as one HTML page (study.h): the tables as the
 * Markdown writer prints them, then per metric a bar per variant at its
 * ratio to the baseline with the CI as whiskers and the convergence curves
 * (each variant's medians round by round, and its repetitions where the
 * legs repeat a workload). */
#include "report/study.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/html_bars.h"
#include "report/html_page.h"
#include "report/html_plot.h"
#include "report/study_data.h"

static void bars(FILE *f, const struct study_data *d, const struct study_metric *m)
{
	struct plot_bar b[STUDY_MAX_VARIANTS];
	char what[160];
	for (size_t v = 0; v < d->s->n_var; v++) {
		const struct study_cell *c = &m->cell[v];
		b[v].label = d->s->names[v];
		b[v].n = c->n;
		b[v].median = v ? (c->vs ? 1 + c->vs->change : NAN) : 1;
		b[v].p5 = v && c->vs ? 1 + c->vs->ci_lo : 1;
		b[v].p95 = v && c->vs ? 1 + c->vs->ci_hi : 1;
	}
	snprintf(what, sizeof(what), "ratio to %s, whiskers its CI at the level judged",
		 d->s->names[0]);
	plot_bars_as(f, m->row->key, "per variant", unit_name(m->row->unit), what, b, d->s->n_var);
}

/* Each variant's line through its medians by round (iter 0) or by
 * repetition (iter 1). */
static void curves(FILE *f, const struct study_data *d, const struct study_metric *m, int iter)
{
	struct plot_series s[STUDY_MAX_VARIANTS];
	struct plot_lines pl;
	char title[256], y_title[160];
	size_t n = 0;
	memset(s, 0, sizeof(s));
	for (size_t v = 0; v < d->s->n_var && v < PLOT_MAX_SERIES; v++) {
		const struct study_cell *c = &m->cell[v];
		size_t np = iter ? c->n_iter : d->s->n_rounds;
		snprintf(s[n].name, sizeof(s[n].name), "%s", d->s->names[v]);
		s[n].pt = xcalloc(np + 1, sizeof(*s[n].pt));
		for (size_t k = 0; k < np; k++) {
			double y = iter ? c->iter[k] : c->round[k];
			if (isfinite(y) && y > 0)
				s[n].pt[s[n].n++] = (struct plot_point){(double)(k + 1), y, 0, 0};
		}
		n++;
	}
	plot_styles(s, n);
	snprintf(title, sizeof(title), "%s %s", m->row->key,
		 iter ? "by repetition (convergence)" : "by round");
	snprintf(y_title, sizeof(y_title), "%s (%s)", m->row->metric, unit_name(m->row->unit));
	pl = (struct plot_lines){.title = title,
				 .x_title = iter ? "repetition" : "round",
				 .y_title = y_title,
				 .xs = PLOT_LINEAR,
				 .ys = PLOT_LINEAR,
				 .x_fmt = PLOT_T_VALUE,
				 .s = s,
				 .n = n};
	plot_lines(f, &pl);
	for (size_t i = 0; i < n; i++)
		free(s[i].pt);
}

/* The Markdown writer's text as HTML: its headings, lists and tables (a
 * "| a | b |" line a row, the first of a table its heading), other lines
 * paragraphs; every cell's text escaped. */
static void md_to_html(FILE *f, char *text)
{
	int in_table = 0, head = 0, in_list = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int row = line[0] == '|', item = line[0] == '-' && line[1] == ' ';
		if (in_table && !row) {
			fputs("</table>\n", f);
			in_table = 0;
		}
		if (in_list && !item) {
			fputs("</ul>\n", f);
			in_list = 0;
		}
		if (row && strncmp(line, "|---", 4) == 0)
			continue;
		if (row) {
			char *save2 = NULL;
			if (!in_table) {
				fputs("<table>\n", f);
				in_table = head = 1;
			}
			fputs("<tr>", f);
			for (char *c = strtok_r(line, "|", &save2); c;
			     c = strtok_r(NULL, "|", &save2)) {
				while (*c == ' ')
					c++;
				for (char *e = c + strlen(c); e > c && e[-1] == ' ';)
					*--e = 0;
				html_put(f, head ? "<th>" : "<td>", c, head ? "</th>" : "</td>");
			}
			fputs("</tr>\n", f);
			head = 0;
		} else if (item) {
			if (!in_list)
				fputs("<ul>\n", f);
			in_list = 1;
			html_put(f, "<li>", line + 2, "</li>\n");
		} else if (line[0] == '#') {
			int level = line[1] == '#' ? 2 : 1;
			html_put(f, level == 2 ? "<h2>" : "<h1>", line + level + 1,
				 level == 2 ? "</h2>\n" : "</h1>\n");
		} else if (line[0])
			html_put(f, "<p>", line, "</p>\n");
	}
	if (in_table)
		fputs("</table>\n", f);
	if (in_list)
		fputs("</ul>\n", f);
}

int report_study_html(const struct study *s, FILE *f)
{
	struct study_data d;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return error("out of memory");
	report_study_md(s, mem);
	fclose(mem);
	study_data_make(&d, s);
	html_page_begin(f, "mempath study");
	md_to_html(f, text);
	fputs("<h2>Plots</h2>\n", f);
	for (size_t i = 0; i < d.n_metrics; i++) {
		bars(f, &d, &d.metrics[i]);
		if (s->n_rounds >= 2)
			curves(f, &d, &d.metrics[i], 0);
		if (d.metrics[i].cell[0].n_iter > 1)
			curves(f, &d, &d.metrics[i], 1);
	}
	study_data_free(&d);
	free(text);
	return html_page_end(f);
}
