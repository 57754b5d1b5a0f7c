/* study.c - a study as a terminal table or Markdown (study.h): the head,
 * the summary line per variant, the metrics with stddev and the ratio to the
 * baseline (Table 1), the iterations (1b), the counters (2), the factors,
 * and each comparison's own notes. */
#include "report/study.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/format.h"
#include "report/study_data.h"

/* Rows the terminal shows of the counters table (Markdown: all). */
#define TERM_COUNTERS 20
/* Summary lines per variant the terminal shows (Markdown: all). */
#define TERM_LINES 3

struct out {
	FILE *f;
	int md;
};

/* One row of cells: Markdown "| a | b |", or columns of width w. */
static void row(const struct out *o, const char *const *cells, size_t n, const int *w)
{
	for (size_t i = 0; i < n; i++) {
		if (o->md) {
			fputs(i ? " | " : "| ", o->f);
			report_md_cell(o->f, cells[i]);
		} else {
			char *e = report_term_escape(cells[i]); /* keys come from files */
			report_put_column(o->f, e, (size_t)abs(w[i]), i > 0);
			free(e);
			fputs("  ", o->f);
		}
	}
	fputs(o->md ? " |\n" : "\n", o->f);
	if (o->md && w[0] < 0) { /* the heading: its rule */
		for (size_t i = 0; i < n; i++)
			fputs(i ? "---|" : "|---|", o->f);
		fputc('\n', o->f);
	}
}

static void heading(const struct out *o, const char *text)
{
	fprintf(o->f, o->md ? "\n## %s\n\n" : "\n%s\n", text);
}

static void value(double v, enum unit u, char *buf, size_t len)
{
	char num[48];
	report_fmt_value(v, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, isfinite(v) && unit_name(u)[0] ? " " : "",
		 isfinite(v) ? unit_name(u) : "");
}

static void table1(const struct out *o, const struct study_data *d)
{
	const struct study *s = d->s;
	char what[256], vs[96];
	int wv = 7;
	for (size_t v = 0; v < s->n_var; v++) /* the names as they are, up to 28 */
		wv = strlen(s->names[v]) > (size_t)wv ? (int)strlen(s->names[v]) : wv;
	wv = wv > 28 ? 28 : wv;
	snprintf(what, sizeof(what),
		 "Table 1: metrics (median and stddev of the samples; ratio "
		 "to %s with its CI and verdict)",
		 s->names[0]);
	heading(o, what);
	snprintf(vs, sizeof(vs), "vs %s", s->names[0]);
	{
		const char *h[] = {"metric", "variant", "median", "stddev",
				   vs,	     "CI",	"level",  "verdict"};
		const int w[] = {-38, -wv, 14, 12, 9, 18, 7, 10};
		row(o, h, 8, w);
	}
	for (size_t i = 0; i < d->n_metrics; i++) {
		const struct study_metric *m = &d->metrics[i];
		for (size_t v = 0; v < s->n_var; v++) {
			const struct study_cell *c = &m->cell[v];
			char med[64], sd[64], ratio[32], ci[64], level[32];
			const char *cells[8];
			const int w[] = {38, wv, 14, 12, 9, 18, 7, 10};
			value(c->median, m->row->unit, med, sizeof(med));
			report_fmt_value(c->sd, sd, sizeof(sd));
			study_ratio(c, ratio, sizeof(ratio));
			study_ratio_ci(c, ci, sizeof(ci));
			snprintf(level, sizeof(level), c->vs ? "%.2g%%" : "-", 100 * c->level);
			cells[0] = v == 0 || o->md ? m->row->key : "";
			cells[1] = s->names[v];
			cells[2] = med;
			cells[3] = sd;
			cells[4] = ratio;
			cells[5] = ci;
			cells[6] = level;
			cells[7] = c->vs ? verdict_name(c->vs->verdict) : "baseline";
			row(o, cells, 8, w);
		}
	}
}

static void lines(const struct out *o, const struct study_data *d)
{
	heading(o, "Summary: each variant against the baseline");
	for (size_t v = 1; v < d->s->n_var; v++)
		for (size_t i = 0; i < d->n_metrics; i++) {
			char *line;
			if (!o->md && i == TERM_LINES) {
				fprintf(o->f, "  ... and %zu more metric(s) (study.md)\n",
					d->n_metrics - i);
				break;
			}
			line = study_line(d, i, v);
			fprintf(o->f, o->md ? "- %s\n" : "  %s\n", line);
			free(line);
		}
}

static void table1b(const struct out *o, const struct study_data *d)
{
	if (!d->iterations)
		return;
	heading(o, "Table 1b: per iteration (median over each variant's legs of its i-th "
		   "repetition)");
	for (size_t i = 0; i < d->n_metrics; i++) {
		const struct study_metric *m = &d->metrics[i];
		const char *cells[STUDY_MAX_ITER + 1];
		char buf[STUDY_MAX_ITER][48];
		int w[STUDY_MAX_ITER + 1];
		size_t n = m->cell[0].n_iter;
		if (n < 2)
			continue;
		fprintf(o->f, o->md ? "\n%s (%s)\n\n" : "%s (%s)\n", m->row->key,
			unit_name(m->row->unit));
		cells[0] = "variant";
		w[0] = -12;
		for (size_t k = 0; k < n; k++) {
			snprintf(buf[k], sizeof(buf[k]), "i%zu", k + 1);
			cells[k + 1] = buf[k];
			w[k + 1] = 10;
		}
		row(o, cells, n + 1, w);
		w[0] = 12;
		for (size_t v = 0; v < d->s->n_var; v++) {
			cells[0] = d->s->names[v];
			for (size_t k = 0; k < n; k++) {
				if (k < m->cell[v].n_iter)
					report_fmt_value(m->cell[v].iter[k], buf[k],
							 sizeof(buf[k]));
				else
					snprintf(buf[k], sizeof(buf[k]), "-");
				cells[k + 1] = buf[k];
			}
			row(o, cells, n + 1, w);
		}
	}
}

static void table2(const struct out *o, const struct study_data *d)
{
	const struct study *s = d->s;
	const char *cells[STUDY_MAX_VARIANTS + 1];
	char buf[STUDY_MAX_VARIANTS][64];
	int w[STUDY_MAX_VARIANTS + 1];
	if (!d->n_counters)
		return;
	heading(o, "Table 2: counter deltas per variant (median over its legs; those rising "
		   "from zero first, then by the largest change)");
	cells[0] = "counter";
	w[0] = -30;
	for (size_t v = 0; v < s->n_var; v++) {
		cells[v + 1] = s->names[v];
		w[v + 1] = 18;
	}
	row(o, cells, s->n_var + 1, w);
	w[0] = 30;
	for (size_t i = 0; i < d->n_counters; i++) {
		const struct study_counter *c = &d->counters[i];
		if (!o->md && i == TERM_COUNTERS) {
			fprintf(o->f, "... and %zu more counters that moved (study.md)\n",
				d->n_counters - i);
			break;
		}
		cells[0] = c->name;
		for (size_t v = 0; v < s->n_var; v++) {
			char num[48];
			report_fmt_value(c->median[v], num, sizeof(num));
			if (v && c->median[0] != 0 && isfinite(c->median[v]))
				snprintf(buf[v], sizeof(buf[v]), "%s (%.2fx)", num,
					 c->median[v] / c->median[0]);
			else
				snprintf(buf[v], sizeof(buf[v]), "%s", num);
			cells[v + 1] = buf[v];
		}
		row(o, cells, s->n_var + 1, w);
	}
}

static void factors(const struct out *o, const struct study_data *d)
{
	if (!d->fac)
		return;
	heading(o, "Factors: main effects and interactions (ratios over the rounds; "
		   "Bonferroni over the effects)");
	{
		const char *h[] = {"metric", "effect", "ratio", "CI", "rounds", "reading"};
		const int w[] = {-38, 28, 8, 18, 6, 24};
		row(o, h, 6, w);
	}
	for (size_t i = 0; i < d->n_metrics; i++)
		for (size_t k = 0; k < d->metrics[i].n_effects; k++) {
			const struct fact_effect *e = &d->metrics[i].effects[k];
			char ratio[32] = "-", ci[64] = "-", rounds[16];
			const char *cells[6];
			const int w[] = {38, 28, 8, 18, 6, 24};
			if (isfinite(e->ratio)) {
				char r[24], lo[24], hi[24];
				study_fmt_ratio(e->ratio, r, sizeof(r));
				study_fmt_ratio(e->lo, lo, sizeof(lo));
				study_fmt_ratio(e->hi, hi, sizeof(hi));
				snprintf(ratio, sizeof(ratio), "%sx", r);
				snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
			}
			snprintf(rounds, sizeof(rounds), "%zu", e->rounds);
			cells[0] = k == 0 || o->md ? d->metrics[i].row->key : "";
			cells[1] = e->what;
			cells[2] = ratio;
			cells[3] = ci;
			cells[4] = rounds;
			cells[5] = e->word;
			row(o, cells, 6, w);
		}
}

/* Each comparison's summary line and the knobs that differ in it. */
/* Text from the comparisons (leg names are labels) escaped whole, line
 * breaks included; a new string. */
static char *safe(const struct out *o, const char *text)
{
	return o->md ? report_md_escape(text) : report_term_escape(text);
}

static void notes(const struct out *o, const struct study *s)
{
	int said = 0;
	for (size_t k = 0; k < s->n_pairs; k++) {
		const struct comparison *c = s->pairs[k].c;
		char *line = comparison_summary_line(c), *sum = safe(o, line);
		free(line);
		if (!said++)
			heading(o, "Comparisons");
		fprintf(o->f, o->md ? "- %s against %s: %s\n" : "  %s against %s: %s\n",
			s->names[s->pairs[k].b], s->names[s->pairs[k].a], sum);
		for (size_t i = 0; i < c->n_knob_diffs; i++) {
			char *knob = safe(o, c->knob_diffs[i]);
			fprintf(o->f, o->md ? "  - knob: %s\n" : "    knob: %s\n", knob);
			free(knob);
		}
		free(sum);
	}
}

static int render(const struct study *s, FILE *f, int md)
{
	struct out o = {f, md};
	struct study_data d;
	char *head = study_head(s);
	study_data_make(&d, s);
	if (md)
		fputs("# Study\n\n", f);
	fputs(head, f);
	free(head);
	for (size_t i = 0; i < s->n_notes; i++) /* the rounds' end, first */
		fprintf(f, "note: %s\n", s->notes[i]);
	lines(&o, &d);
	table1(&o, &d);
	table1b(&o, &d);
	table2(&o, &d);
	factors(&o, &d);
	notes(&o, s);
	/* the last line says when no verdict can be trusted, as compare's does */
	for (size_t k = 0; k < s->n_pairs; k++)
		if (!comparison_trusted(s->pairs[k].c)) {
			char *line = comparison_summary_line(s->pairs[k].c);
			char *sum = md ? report_md_escape(line) : report_term_escape(line);
			fprintf(f, "%s%s\n", md ? "\n" : "", sum);
			free(line);
			free(sum);
			break;
		}
	study_data_free(&d);
	return ferror(f) ? -1 : 0;
}

/* The text rendered, then each line made safe for its format: names, keys
 * and reasons come from results files written elsewhere (a label with an
 * escape sequence must not reach the terminal as one, §9). */
static int write_text(const struct study *s, FILE *f, int md)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct study t = *s; /* its names escaped: a line break in a label forges none */
	if (!mem)
		return error("out of memory");
	for (size_t i = 0; i < s->n_var; i++)
		t.names[i] = md ? report_md_escape(s->names[i]) : report_term_escape(s->names[i]);
	render(&t, mem, md);
	fclose(mem);
	for (size_t i = 0; i < s->n_var; i++)
		free(t.names[i]);
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		char *e;
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		e = md ? report_md_escape(p) : report_term_escape(p);
		fputs(e, f);
		fputc('\n', f);
		free(e);
	}
	free(text);
	return ferror(f) ? -1 : 0;
}

int report_study_term(const struct study *s, FILE *f)
{
	return write_text(s, f, 0);
}

int report_study_md(const struct study *s, FILE *f)
{
	return write_text(s, f, 1);
}
