/* study_data.c - the tables of a study, computed once for every writer
 * (study_data.h). */
#include "report/study_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/format.h"

/* The pair comparing variant v (> 0) with the baseline. */
static const struct study_pair *pair_of(const struct study *s, size_t v)
{
	for (size_t k = 0; k < s->n_pairs; k++)
		if (s->pairs[k].a == 0 && s->pairs[k].b == v)
			return &s->pairs[k];
	return NULL;
}

static void fill_cell(const struct study *s, const char *ident, size_t v, struct study_cell *c,
		      int iterations)
{
	const struct study_pair *p = pair_of(s, v ? v : 1);
	size_t k = 0, n = 0, n_legs = 0, most = STUDY_MAX_ITER;
	const struct compare_row *row = p ? study_row(p, ident, &k) : NULL;
	char want = v ? 'B' : 'A';
	double *x = NULL, sum = 0, ss = 0;
	memset(c, 0, sizeof(*c));
	c->median = c->sd = NAN;
	for (size_t r = 0; r < COMPARE_MAX_LEGS; r++)
		c->round[r] = NAN;
	if (!row)
		return;
	if (v) {
		c->vs = row;
		c->level = p->alpha[k];
	}
	for (size_t j = 0; j < p->c->n_legs; j++) {
		const struct metric *m = row->m[j];
		if (p->c->legs[j].variant != want || !m)
			continue;
		n_legs++;
		most = m->n_samples < most ? m->n_samples : most;
		for (size_t i = 0; i < m->n_samples; i++) {
			GROW_ONE(x, n);
			x[n++] = m->samples[i];
		}
		if (p->c->legs[j].round && p->c->legs[j].round <= COMPARE_MAX_LEGS)
			c->round[p->c->legs[j].round - 1] = row->median[j];
	}
	c->n = n;
	if (!n)
		return;
	c->median = stats_median(x, n);
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - sum / (double)n) * (x[i] - sum / (double)n);
	c->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
	for (size_t i = 0; iterations && most > 1 && i < most; i++) {
		size_t nl = 0;
		for (size_t j = 0; j < p->c->n_legs; j++)
			if (p->c->legs[j].variant == want && row->m[j])
				x[nl++] = row->m[j]->samples[i];
		c->iter[c->n_iter++] = stats_median(x, nl);
	}
	(void)n_legs;
	free(x);
}

/* ---- counters ---- */

static double counter_of(const struct run *r, const char *name)
{
	double sum = 0;
	for (size_t i = 0; i < r->n_probes; i++)
		for (size_t k = 0; k < r->probes[i].n_counters; k++)
			if (strcmp(r->probes[i].counters[k].name, name) == 0)
				sum += (double)r->probes[i].counters[k].delta;
	return sum;
}

static int by_rank(const void *x, const void *y)
{
	const struct study_counter *a = x, *b = y;
	if (a->from_zero != b->from_zero)
		return b->from_zero - a->from_zero;
	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void counters(struct study_data *d)
{
	const struct study *s = d->s;
	char **names = NULL;
	size_t n = 0;
	for (size_t j = 0; j < s->n_legs; j++)
		for (size_t i = 0; i < s->runs[j]->n_probes; i++)
			for (size_t k = 0; k < s->runs[j]->probes[i].n_counters; k++) {
				const char *nm = s->runs[j]->probes[i].counters[k].name;
				size_t q;
				for (q = 0; q < n && strcmp(names[q], nm) != 0; q++)
					;
				if (q == n) {
					GROW_ONE(names, n);
					names[n++] = (char *)nm;
				}
			}
	d->counters = xcalloc(n + 1, sizeof(*d->counters));
	for (size_t q = 0; q < n; q++) {
		struct study_counter c = {.name = names[q]};
		int moved = 0;
		for (size_t v = 0; v < s->n_var; v++) {
			double *x = xcalloc(s->n_legs + 1, sizeof(*x));
			size_t nl = 0;
			for (size_t j = 0; j < s->n_legs; j++)
				if ((size_t)(s->of[j] - 'A') == v)
					x[nl++] = counter_of(s->runs[j], names[q]);
			c.median[v] = nl ? stats_median(x, nl) : NAN;
			free(x);
		}
		for (size_t v = 1; v < s->n_var; v++) {
			double r = fabs(log((fabs(c.median[v]) + 1) / (fabs(c.median[0]) + 1)));
			moved |= c.median[v] != c.median[0];
			c.size = r > c.size ? r : c.size;
			c.from_zero |= c.median[0] == 0 && c.median[v] > 0;
		}
		if (moved) {
			c.name = xstrdup(names[q]);
			d->counters[d->n_counters++] = c;
		}
	}
	qsort(d->counters, d->n_counters, sizeof(*d->counters), by_rank);
	free(names);
}

void study_data_make(struct study_data *d, const struct study *s)
{
	const struct compare_row **rows;
	memset(d, 0, sizeof(*d));
	d->s = s;
	d->fac = factorial_from_names(s);
	d->n_metrics = study_metrics(s, &rows);
	d->metrics = xcalloc(d->n_metrics + 1, sizeof(*d->metrics));
	for (size_t i = 0; i < d->n_metrics; i++) {
		struct study_metric *m = &d->metrics[i];
		int iter = rows[i]->probe && strcmp(rows[i]->probe, "work.wrap") == 0;
		m->row = rows[i];
		for (size_t v = 0; v < s->n_var; v++)
			fill_cell(s, rows[i]->ident, v, &m->cell[v], iter);
		d->iterations |= m->cell[0].n_iter > 1;
		if (d->fac) {
			m->effects = xcalloc(d->fac->n_effects + 1, sizeof(*m->effects));
			m->n_effects = factorial_effects(s, d->fac, rows[i]->ident, m->effects);
		}
	}
	free(rows);
	counters(d);
}

void study_data_free(struct study_data *d)
{
	for (size_t i = 0; i < d->n_metrics; i++)
		free(d->metrics[i].effects);
	free(d->metrics);
	for (size_t i = 0; i < d->n_counters; i++)
		free(d->counters[i].name);
	free(d->counters);
	factorial_free(d->fac);
	memset(d, 0, sizeof(*d));
}

/* A ratio as hyperfine writes it: two decimals (1.61), three digits
 * beyond 0.1..100. */
void study_fmt_ratio(double r, char *buf, size_t len)
{
	snprintf(buf, len, r >= 0.1 && r < 100 ? "%.2f" : "%.3g", r);
}

void study_ratio(const struct study_cell *c, char *buf, size_t len)
{
	char r[32];
	if (!c->vs || !isfinite(c->vs->change)) {
		snprintf(buf, len, "-");
		return;
	}
	study_fmt_ratio(1 + c->vs->change, r, sizeof(r));
	snprintf(buf, len, "%sx", r);
}

void study_ratio_ci(const struct study_cell *c, char *buf, size_t len)
{
	char lo[32], hi[32];
	if (!c->vs || !isfinite(c->vs->ci_lo) || !isfinite(c->vs->ci_hi)) {
		snprintf(buf, len, "-");
		return;
	}
	study_fmt_ratio(1 + c->vs->ci_lo, lo, sizeof(lo));
	study_fmt_ratio(1 + c->vs->ci_hi, hi, sizeof(hi));
	snprintf(buf, len, "[%s, %s]", lo, hi);
}

size_t study_headline(const struct study_data *d, size_t v)
{
	size_t best = 0;
	double size = -1;
	for (size_t i = 0; i < d->n_metrics; i++) {
		const struct compare_row *r = d->metrics[i].cell[v].vs;
		double x;
		if (!r || (r->verdict != VERDICT_WIN && r->verdict != VERDICT_LOSS) ||
		    !isfinite(r->change) || r->change <= -1)
			continue;
		x = fabs(log(1 + r->change));
		if (x > size) {
			size = x;
			best = i;
		}
	}
	return best;
}

char *study_line(const struct study_data *d, size_t k, size_t v)
{
	const struct study_metric *m = &d->metrics[k];
	const struct study_cell *c = &m->cell[v];
	char ratio[32], ci[64];
	study_ratio(c, ratio, sizeof(ratio));
	study_ratio_ci(c, ci, sizeof(ci));
	return xasprintf("%s: %s %s %s %s %s", d->s->names[v], m->row->key, ratio, d->s->names[0],
			 ci, c->vs ? verdict_name(c->vs->verdict) : "-");
}

char *study_head(const struct study *s)
{
	char *v = xstrdup(""), *n, *out, rounds[32] = "no rounds";
	if (s->n_rounds)
		snprintf(rounds, sizeof(rounds), "%u rounds", s->n_rounds);
	for (size_t i = 0; i < s->n_var; i++, free(v), v = n)
		n = xasprintf("%s%s%s", v, i ? ", " : "", s->names[i]);
	out = xasprintf("study: %zu variants (%s), baseline %s; %s\n"
			"family: %zu comparisons (%s), %s's step-down at alpha %.2g per metric; "
			"each verdict with the CI of the level it was judged at\n",
			s->n_var, v, s->names[0], rounds, s->m,
			s->all_pairs ? "every pair" : "each variant against the baseline",
			s->procedure, s->opts.alpha);
	free(v);
	return out;
}
