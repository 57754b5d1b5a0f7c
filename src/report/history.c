/* history.c - `history list` and `history trend` as tables, and the lines
 * `history add` and `history bless` say: term and csv (history.h). */
#include "report/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/format.h"

/* s (NULL: none) escaped for the terminal, `none` when absent: a new string. */
static char *term(const char *s, const char *none)
{
	return report_term_escape(s ? s : none);
}

/* A column as wide as the text needs at least (`%-*s`: a longer start time
 * is not cut), the text escaped. */
static void put_wide(FILE *f, const char *s, const char *none, int width)
{
	char *e = term(s, none);

	fprintf(f, "%-*s", width, e);
	free(e);
}

/* A column of `width` characters, cut with "..." when longer. */
static void put_cut(FILE *f, const char *s, const char *none, size_t width)
{
	char *e = term(s, none);

	report_put_column(f, e, width, 0);
	free(e);
}

static void csv(FILE *f, const char *s, const char *after)
{
	report_csv_field(f, s ? s : "");
	fputs(after, f);
}

static int runs_term(const struct history_table *t, FILE *f)
{
	const struct history_run *v = t->runs;

	if (t->n_runs)
		fprintf(f, "%6s  %-20s  %-12s  %-14s  %-6s  %6s  %s\n", "run", "start", "host",
			"label", "suite", "probes", "kind");
	for (size_t i = 0; i < t->n_runs; i++) {
		fprintf(f, "%5lld%c  ", (long long)v[i].id, v[i].blessed ? '*' : ' ');
		put_wide(f, v[i].start_time, "?", 20);
		fputs("  ", f);
		put_cut(f, v[i].host, "-", 12);
		fputs("  ", f);
		put_cut(f, v[i].label, "-", 14);
		fputs("  ", f);
		put_wide(f, v[i].suite, "-", 6);
		fprintf(f, "  %6lld  ", (long long)v[i].n_probes);
		put_wide(f, v[i].kind, "?", 0);
		fprintf(f, "%s\n", v[i].complete ? "" : "  (incomplete)");
	}
	if (t->n_runs == 0)
		fputs("no runs kept yet ('mempath history add FILE...', or 'mempath run "
		      "--history')\n",
		      f);
	else
		fputs("\n* the baseline of its machine kind ('mempath history bless')\n", f);
	return ferror(f) ? -1 : 0;
}

static int runs_csv(const struct history_table *t, FILE *f)
{
	const struct history_run *v = t->runs;

	fputs("run,start_time,host,label,suite,probes,metrics,complete,baseline,kind,path\n", f);
	for (size_t i = 0; i < t->n_runs; i++) {
		fprintf(f, "%lld,", (long long)v[i].id);
		csv(f, v[i].start_time, ",");
		csv(f, v[i].host, ",");
		csv(f, v[i].label, ",");
		csv(f, v[i].suite, ",");
		fprintf(f, "%lld,%lld,%s,%s,", (long long)v[i].n_probes, (long long)v[i].n_metrics,
			v[i].complete ? "yes" : "no", v[i].blessed ? "yes" : "no");
		csv(f, v[i].kind, ",");
		csv(f, v[i].path, "\n");
	}
	return ferror(f) ? -1 : 0;
}

static const char *better_words(const char *better)
{
	return !better			   ? "?"
	       : !strcmp(better, "higher") ? "higher is better"
	       : !strcmp(better, "lower")  ? "lower is better"
					   : "a fact, not judged";
}

/* The head of a series: the metric, its labels, its unit and direction. */
static void trend_head(const struct history_table *t, const struct history_point *p, int first,
		       FILE *f)
{
	char *probe = term(t->probe, "?"), *metric = term(t->metric, "?");
	char *labels = term(p->labels[0] ? p->labels : "(no labels)", "");
	char *unit = term(t->unit, "?");

	fprintf(f, "%s%s %s %s  (%s; %s)\n%6s  %-20s  %-12s  %-14s  %10s %10s %10s  %s\n",
		first ? "" : "\n", probe, metric, labels, unit, better_words(t->better), "run",
		"start", "host", "label", "median", "p5", "p95", "vs first");
	free(probe);
	free(metric);
	free(labels);
	free(unit);
}

static int trend_term(const struct history_table *t, FILE *f)
{
	const struct history_point *p = t->points;

	for (size_t i = 0, first = 0; i < t->n_points; i++) {
		char med[32], p5[32], p95[32], vs[32] = "";

		if (i == 0 || strcmp(p[i - 1].labels, p[i].labels) != 0) {
			first = i;
			trend_head(t, &p[i], i == 0, f);
		}
		report_fmt_value(p[i].median, med, sizeof(med));
		report_fmt_value(p[i].p5, p5, sizeof(p5));
		report_fmt_value(p[i].p95, p95, sizeof(p95));
		if (i > first && isfinite(p[i].median) && p[first].median > 0)
			snprintf(vs, sizeof(vs), "%+.1f%%",
				 100 * (p[i].median / p[first].median - 1));
		fprintf(f, "%5lld%c  ", (long long)p[i].run_id, p[i].blessed ? '*' : ' ');
		put_wide(f, p[i].start_time, "?", 20);
		fputs("  ", f);
		put_cut(f, p[i].host, "-", 12);
		fputs("  ", f);
		put_cut(f, p[i].label, "-", 14);
		fprintf(f, "  %10s %10s %10s  %s\n", isfinite(p[i].median) ? med : "-",
			isfinite(p[i].p5) ? p5 : "-", isfinite(p[i].p95) ? p95 : "-", vs);
	}
	fputs("\n* the baseline of its machine kind\n", f);
	return ferror(f) ? -1 : 0;
}

static int trend_csv(const struct history_table *t, FILE *f)
{
	const struct history_point *p = t->points;

	fputs("run,start_time,host,label,labels,median,p5,p95,n,unit,baseline\n", f);
	for (size_t i = 0; i < t->n_points; i++) {
		fprintf(f, "%lld,", (long long)p[i].run_id);
		csv(f, p[i].start_time, ",");
		csv(f, p[i].host, ",");
		csv(f, p[i].label, ",");
		csv(f, p[i].labels, ",");
		fprintf(f, "%.6g,%.6g,%.6g,%lld,", p[i].median, p[i].p5, p[i].p95,
			(long long)p[i].n);
		csv(f, t->unit, ",");
		fprintf(f, "%s\n", p[i].blessed ? "yes" : "no");
	}
	return ferror(f) ? -1 : 0;
}

int report_history_term(const struct history_table *t, FILE *f)
{
	return t->kind == HISTORY_TABLE_RUNS ? runs_term(t, f) : trend_term(t, f);
}

int report_history_csv(const struct history_table *t, FILE *f)
{
	return t->kind == HISTORY_TABLE_RUNS ? runs_csv(t, f) : trend_csv(t, f);
}

void report_history_added(FILE *f, int64_t id, int dup, const char *path, const char *label,
			  const char *start_time)
{
	char *p = term(path, "?"), *l = term(label, "-"), *s = term(start_time, "?");

	fprintf(f, "%s run %lld: %s (%s, %s)\n", dup ? "already kept as" : "added", (long long)id,
		p, l, s);
	free(p);
	free(l);
	free(s);
}

void report_history_blessed(FILE *f, const int64_t *ids, size_t n, const char *label,
			    const char *start_time, const char *kind)
{
	char *k = term(kind, "?");

	if (n == 1) {
		char *l = term(label, "-"), *s = term(start_time, "?");

		fprintf(f, "run %lld (%s, %s) is the baseline of machine kind '%s'\n",
			(long long)ids[0], l, s, k);
		free(l);
		free(s);
	} else {
		fputs("runs", f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s %lld", i ? "," : "", (long long)ids[i]);
		fprintf(f, " (%zu runs) are the baseline of machine kind '%s'\n", n, k);
	}
	free(k);
}
