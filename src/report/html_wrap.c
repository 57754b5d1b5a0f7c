/* html_wrap.c - a workload's figure per configuration and per iteration
 * (html_wrap.h).
 *
 * Why per iteration: a tiered-memory kernel promotes hot pages while the
 * workload runs, so decode speed climbs run after run (4.26 -> 8.76 tok/s
 * over five iterations in the report of docs/design.md §10.8) and a median alone hides
 * whether a configuration had converged; a flat line says it had. The
 * samples of a metric are its counted runs in order, so a results file
 * holds the curve already; a comparison file holds each leg's runs in
 * legs[].wrap.iterations. */
#include "report/html_wrap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/format.h"
#include "report/html_bars.h"
#include "report/html_plot.h"
#include "report/wrap.h"

struct figure {
	const char *metric, *unit;
	struct plot_series s[PLOT_MAX_SERIES];
	size_t n;
};

/* The point (x, v) on the series named name, added when new. */
static void add(struct figure *g, const char *name, double x, double v)
{
	struct plot_series *s = NULL;

	for (size_t i = 0; i < g->n && !s; i++)
		if (strcmp(g->s[i].name, name) == 0)
			s = &g->s[i];
	if (!s && g->n == PLOT_MAX_SERIES)
		return;
	if (!s) {
		s = &g->s[g->n++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
	}
	if (!isfinite(v))
		return;
	GROW_ONE(s->pt, s->n);
	s->pt[s->n++] = (struct plot_point){x, v, 0, 0};
}

/* Does any series have the label key with two values: one panel each. */
static int has_label(const struct figure *g, const char *key)
{
	char pair[160], rest[160], first[160] = "";

	for (size_t i = 0; i < g->n; i++) {
		plot_split_label(g->s[i].name, key, pair, rest, sizeof(pair));
		if (!pair[0])
			return 0;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", pair);
		else if (strcmp(first, pair) != 0)
			return 1;
	}
	return 0;
}

/* Per configuration (bars of the median with p5-p95 over the runs; with
 * bars) and per iteration (lines; panels per test where there are two). */
static void draw(FILE *f, struct figure *g, int bars)
{
	struct plot_bar b[PLOT_MAX_SERIES];
	struct plot_mark mk;
	struct plot_lines pl;
	char title[128], y_title[128], v[32];
	size_t pts = 0;

	for (size_t i = 0; i < g->n; i++) {
		double *y = xcalloc(g->s[i].n + 1, sizeof(double));
		struct summary s;

		for (size_t k = 0; k < g->s[i].n; k++)
			y[k] = g->s[i].pt[k].y;
		stats_summarize(y, g->s[i].n, &s);
		b[i] = (struct plot_bar){g->s[i].name, s.median, s.p5, s.p95, s.n};
		pts += s.n;
		free(y);
	}
	if (bars)
		plot_bars(f, g->metric, g->unit, b, g->n);
	plot_styles(g->s, g->n);
	snprintf(title, sizeof(title), "%s per iteration", g->metric);
	snprintf(y_title, sizeof(y_title), "%s (%s)", g->metric, g->unit);
	pl = (struct plot_lines){.title = title,
				 .x_title = "iteration (the counted runs, in order)",
				 .y_title = y_title,
				 .xs = PLOT_LINEAR,
				 .ys = PLOT_LOG10,
				 .x_fmt = PLOT_T_VALUE,
				 .s = g->s,
				 .n = g->n};
	if (g->n == 1 && isfinite(b[0].median)) { /* one line: its median across */
		report_fmt_value(b[0].median, v, sizeof(v));
		mk = (struct plot_mark){0, 1, (double)g->s[0].n, b[0].median, 0, ""};
		snprintf(mk.text, sizeof(mk.text), "median %s %s", v, g->unit);
		pl.marks = &mk;
		pl.n_marks = 1;
		pl.marks_are = "the median";
	}
	if (pts >= 2 && !(has_label(g, "test") && plot_panels(f, &pl, "test", 0)))
		plot_lines(f, &pl);
	for (size_t i = 0; i < g->n; i++)
		free(g->s[i].pt);
}

/* The probe's primary figure: the workload's tokens/s, else (work.wrap)
 * the wall time; NULL when neither. */
static const char *primary(const struct probe_result *p)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < p->n_metrics; k++)
			if (strcmp(p->metrics[k].name, pass ? "wall_time" : "tokens_per_s") == 0)
				return p->metrics[k].name;
	return NULL;
}

static void from_metrics(FILE *f, const struct probe_result *p, int bars)
{
	struct figure g = {.metric = primary(p)};
	char name[256];

	if (!g.metric)
		return;
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];

		if (strcmp(m->name, g.metric) != 0)
			continue;
		g.unit = unit_name(m->unit);
		metric_labels_str(m, name, sizeof(name));
		if (!name[0]) /* no labels: the legend names the figure */
			snprintf(name, sizeof(name), "%s", m->name);
		for (size_t i = 0; i < m->n_samples; i++)
			add(&g, name, (double)(i + 1), m->samples[i]);
	}
	draw(f, &g, bars);
}

void html_iterations(FILE *f, const struct probe_result *p)
{
	if (strncmp(p->name, "work.", 5) == 0 && !report_is_wrap(p))
		from_metrics(f, p, 0);
}

void html_wrap(FILE *f, const struct probe_result *p)
{
	from_metrics(f, p, 1);
}

/* An entry of an iteration's values: its metric, and its labels as the key
 * after the metric writes them ("tokens_per_s test=pp64"). */
static int entry_is(const char *key, json_t *jv, const char *metric, const char **labels)
{
	const char *m = json_string_value(json_object_get(jv, "metric"));
	size_t ml = strlen(metric);

	*labels = strchr(key, ' ') ? strchr(key, ' ') + 1 : "";
	if (m)
		return strcmp(m, metric) == 0;
	return strncmp(key, metric, ml) == 0 && (key[ml] == ' ' || key[ml] == '\0');
}

void html_wrap_legs(FILE *f, const struct comparison *c)
{
	json_t *its[COMPARE_MAX_LEGS];
	struct figure g = {.metric = "tokens_per_s", .unit = "tok/s"};
	int tokens = 0;

	for (size_t j = 0; j < c->n_legs; j++) {
		const struct run *r = c->legs[j].run;

		its[j] = NULL;
		for (size_t i = 0; i < r->n_probes && !its[j]; i++)
			if (report_is_wrap(&r->probes[i]))
				its[j] = json_object_get(r->probes[i].extra, "iterations");
		if (!json_is_array(its[j]))
			return; /* every leg a wrap, or no pictures */
	}
	for (size_t j = 0; j < c->n_legs && !tokens; j++) {
		size_t i;
		json_t *it, *jv;
		const char *key, *labels;

		json_array_foreach (its[j], i, it)
			json_object_foreach (json_object_get(it, "values"), key, jv)
				tokens |= entry_is(key, jv, "tokens_per_s", &labels);
	}
	if (!tokens) {
		g.metric = "wall_time";
		g.unit = "s";
	}
	fputs("<h2>The workload per leg, in pictures</h2>\n", f);
	for (size_t j = 0; j < c->n_legs; j++) {
		size_t i, n = 0;
		json_t *it, *jv;
		const char *key, *labels;
		char name[256];

		json_array_foreach (its[j], i, it) {
			if (json_is_true(json_object_get(it, "warmup")))
				continue;
			n++;
			if (!tokens) {
				snprintf(name, sizeof(name), "leg=%s", c->legs[j].name);
				add(&g, name, (double)n,
				    json_number_value(json_object_get(it, "wall_s")));
			}
			json_object_foreach (json_object_get(it, "values"), key, jv) {
				if (!tokens || !entry_is(key, jv, "tokens_per_s", &labels))
					continue;
				snprintf(name, sizeof(name), "leg=%s%s%s", c->legs[j].name,
					 *labels ? "," : "", labels);
				add(&g, name, (double)n,
				    json_number_value(json_object_get(jv, "value")));
			}
		}
	}
	draw(f, &g, 1);
}
