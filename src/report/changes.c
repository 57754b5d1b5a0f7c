/* changes.c - change points of kept series, for the terminal and CSV
 * (changes.h; docs/design.md §3.5). */
#include "report/changes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/format.h"

/* s from the file (NULL: none) escaped for the terminal: a new string. */
static char *esc(const char *s, const char *none)
{
	return report_term_escape(s ? s : none);
}

int report_changes_newest_worse(const struct history_series *s)
{
	return s->n_c > 0 && s->c[s->n_c - 1].worse;
}

static void segment_line(FILE *f, const struct history_series *s, size_t from, size_t to)
{
	char med[32];
	double *x = xcalloc(to - from, sizeof(*x));
	size_t m = 0;

	for (size_t i = from; i < to; i++)
		if (isfinite(s->p[i].median))
			x[m++] = s->p[i].median;
	char *t0 = esc(s->p[from].start_time, "?"), *t1 = esc(s->p[to - 1].start_time, "?");

	report_fmt_value(m ? stats_median(x, m) : NAN, med, sizeof(med));
	fprintf(f, "  segment: runs %lld-%lld (%zu), %s to %s, median %s\n",
		(long long)s->p[from].run_id, (long long)s->p[to - 1].run_id, to - from, t0, t1,
		m ? med : "-");
	free(t0);
	free(t1);
	free(x);
}

static void change_line(FILE *f, const struct history_series *s, const struct history_change *c)
{
	char *what = esc(c->changed, "nothing recorded"), *t = esc(s->p[c->cp.at].start_time, "?");

	fprintf(f,
		"  change at run %lld (%s): %+.1f%% [%+.1f%%, %+.1f%%] p=%.2g, %s; changed: %s\n",
		(long long)s->p[c->cp.at].run_id, t, 100 * c->cp.change, 100 * c->cp.ci_lo,
		100 * c->cp.ci_hi, c->cp.p, c->worse ? "worse" : "better", what);
	free(what);
	free(t);
}

void report_changes_term(FILE *f, const char *probe, const char *metric, const char *unit,
			 const char *better, const struct history_series *s, size_t n,
			 int only_worse)
{
	for (size_t k = 0; k < n; k++) {
		const struct history_series *se = &s[k];
		char *labels, *kind, *pr, *me, *un;

		if (only_worse && !report_changes_newest_worse(se))
			continue;
		labels = esc(se->labels[0] ? se->labels : "(no labels)", "");
		kind = esc(se->kind, "?");
		pr = esc(probe, "?");
		me = esc(metric, "?");
		un = esc(unit, "?");
		fprintf(f, "%s %s %s  (%s; %s) on %s: %zu run(s), %zu change point(s)\n", pr, me,
			labels, un, better, kind, se->n, se->n_c);
		free(labels);
		free(kind);
		free(pr);
		free(me);
		free(un);
		if (only_worse) {
			const struct history_change *c = &se->c[se->n_c - 1];

			segment_line(f, se, c->cp.seg_start, c->cp.at);
			change_line(f, se, c);
			segment_line(f, se, c->cp.at, se->n);
			continue;
		}
		for (size_t i = 0; i <= se->n_c && se->n; i++) {
			size_t from = i ? se->c[i - 1].cp.at : 0,
			       to = i < se->n_c ? se->c[i].cp.at : se->n;

			segment_line(f, se, from, to);
			if (i < se->n_c)
				change_line(f, se, &se->c[i]);
		}
	}
}

void report_changes_csv(FILE *f, const char *probe, const char *metric, const char *unit,
			const struct history_series *s, size_t n, int header)
{
	if (header)
		fprintf(f,
			"probe,metric,labels,kind,run,start_time,before,after,change,ci_lo,ci_hi,"
			"p,worse,unit,changed\n");
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < s[k].n_c; i++) {
			const struct history_change *c = &s[k].c[i];

			report_csv_field(f, probe);
			fputc(',', f);
			report_csv_field(f, metric);
			fputc(',', f);
			report_csv_field(f, s[k].labels);
			fputc(',', f);
			report_csv_field(f, s[k].kind);
			fprintf(f, ",%lld,", (long long)s[k].p[c->cp.at].run_id);
			report_csv_field(
				f, s[k].p[c->cp.at].start_time ? s[k].p[c->cp.at].start_time : "");
			fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.3g,%s,", c->cp.before, c->cp.after,
				c->cp.change, c->cp.ci_lo, c->cp.ci_hi, c->cp.p,
				c->worse ? "yes" : "no");
			report_csv_field(f, unit);
			fputc(',', f);
			report_csv_field(f, c->changed ? c->changed : "");
			fputc('\n', f);
		}
}
