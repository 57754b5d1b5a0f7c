/* factorial.c - factors' main effects and interactions over a study's
 * rounds (factorial.h; docs/design.md §5.22). */
#include "verdict/factorial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blocked.h"
#include "base/util.h"
#include "verdict/study.h"

/* name "f1=l1,f2=l2" split into its factors and levels; how many, or 0. */
static size_t split(const char *name, char keys[][64], char vals[][64])
{
	char *copy = xstrdup(name), *save = NULL;
	size_t n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		if (!eq || eq == t || n == FACTORIAL_MAX || strlen(t) >= 64) {
			n = 0;
			break;
		}
		snprintf(keys[n], 64, "%.*s", (int)(eq - t), t);
		snprintf(vals[n], 64, "%s", eq + 1);
		n++;
	}
	free(copy);
	return n;
}

static size_t level_of(struct factor *f, const char *v, int add)
{
	size_t i;
	for (i = 0; i < f->n_levels && strcmp(f->levels[i], v) != 0; i++)
		;
	if (i == f->n_levels && add && i < FACTORIAL_MAX_LEVELS)
		f->levels[f->n_levels++] = xstrdup(v);
	return i;
}

static size_t n_cells(const struct factorial *f)
{
	size_t n = 1;
	for (size_t i = 0; i < f->n; i++)
		n *= f->f[i].n_levels;
	return n;
}

/* The levels of cell number c (mixed radix, f[0] the most significant). */
static void cell_levels(const struct factorial *f, size_t c, size_t *lv)
{
	for (size_t i = f->n; i-- > 0;) {
		lv[i] = c % f->f[i].n_levels;
		c /= f->f[i].n_levels;
	}
}

struct factorial *factorial_from_names(const struct study *s)
{
	struct factorial *f = xcalloc(1, sizeof(*f));
	char keys[FACTORIAL_MAX][64], vals[FACTORIAL_MAX][64];
	size_t seen[1 << (3 * FACTORIAL_MAX)] = {0};
	for (size_t v = 0; v < s->n_var; v++) {
		size_t n = split(s->names[v], keys, vals);
		if (!n || (v && n != f->n))
			goto no;
		for (size_t i = 0; i < n; i++) {
			if (!v)
				f->f[f->n++].name = xstrdup(keys[i]);
			else if (strcmp(f->f[i].name, keys[i]) != 0)
				goto no;
			if (level_of(&f->f[i], vals[i], 1) >= FACTORIAL_MAX_LEVELS)
				goto no;
		}
	}
	if (n_cells(f) != s->n_var || f->n < 2)
		goto no;
	for (size_t v = 0; v < s->n_var; v++) {
		size_t c = 0;
		split(s->names[v], keys, vals);
		for (size_t i = 0; i < f->n; i++)
			c = c * f->f[i].n_levels + level_of(&f->f[i], vals[i], 0);
		if (seen[c]++)
			goto no;
		f->cell[c] = v;
	}
	for (size_t i = 0; i < f->n; i++) {
		f->n_effects += f->f[i].n_levels - 1;
		for (size_t j = i + 1; j < f->n; j++)
			f->n_effects += (f->f[i].n_levels - 1) * (f->f[j].n_levels - 1);
	}
	return f;
no:
	factorial_free(f);
	return NULL;
}

void factorial_free(struct factorial *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->f[i].name);
		for (size_t k = 0; k < f->f[i].n_levels; k++)
			free(f->f[i].levels[k]);
	}
	free(f);
}

/* y[v * R + r - 1]: the log of variant v's median of the metric in round r
 * (NAN where there is none), from the comparisons against the baseline. */
static double *round_logs(const struct study *s, const char *ident)
{
	size_t R = s->n_rounds;
	double *y = xcalloc(s->n_var * R + 1, sizeof(*y));
	for (size_t i = 0; i < s->n_var * R; i++)
		y[i] = NAN;
	for (size_t k = 0; k < s->n_pairs; k++) {
		const struct study_pair *p = &s->pairs[k];
		const struct compare_row *row = study_row(p, ident, NULL);
		if (p->a != 0 || !row)
			continue;
		for (size_t j = 0; j < p->c->n_legs; j++) {
			unsigned r = p->c->legs[j].round;
			size_t v = p->c->legs[j].variant == 'A' ? 0 : p->b;
			if (r && r <= R && row->m[j] && row->median[j] > 0 && !row->noisy)
				y[v * R + r - 1] = log(row->median[j]);
		}
	}
	return y;
}

/* The contrast's coefficient for each cell: main effect of level l of
 * factor a (b == SIZE_MAX), or the interaction of level l of a with level
 * h of b; averaged over the other factors' levels. */
static void contrast(const struct factorial *f, size_t a, size_t l, size_t b, size_t h, double *w)
{
	size_t nc = n_cells(f), lv[FACTORIAL_MAX], others = nc / f->f[a].n_levels;
	if (b != SIZE_MAX)
		others /= f->f[b].n_levels;
	for (size_t c = 0; c < nc; c++) {
		double sa, sb = 1;
		cell_levels(f, c, lv);
		sa = lv[a] == l ? 1 : lv[a] == 0 ? -1 : 0;
		if (b != SIZE_MAX)
			sb = lv[b] == h ? 1 : lv[b] == 0 ? -1 : 0;
		w[c] = sa * sb / (double)others;
	}
}

static void judge(const struct study *s, const struct factorial *f, const double *y,
		  const double *w, struct fact_effect *e)
{
	size_t R = s->n_rounds, nc = n_cells(f), n = 0;
	double sum = 0, ss = 0, mean, sd, t, level, margin;
	margin = s->opts.margin > 0 ? s->opts.margin : FACTORIAL_MARGIN;
	level = (s->opts.alpha > 0 ? s->opts.alpha : 0.05) / (double)f->n_effects;
	e->ratio = e->lo = e->hi = NAN;
	e->rounds = 0;
	e->word = "needs rounds";
	double *v = xcalloc(R + 1, sizeof(*v));
	for (size_t r = 0; r < R; r++) {
		double x = 0;
		int ok = 1;
		for (size_t c = 0; c < nc; c++)
			if (w[c] != 0) {
				double yc = y[f->cell[c] * R + r];
				ok &= isfinite(yc);
				x += w[c] * yc;
			}
		if (ok)
			v[n++] = x;
	}
	e->rounds = n;
	if (n >= 2) {
		for (size_t i = 0; i < n; i++)
			sum += v[i];
		mean = sum / (double)n;
		for (size_t i = 0; i < n; i++)
			ss += (v[i] - mean) * (v[i] - mean);
		sd = sqrt(ss / (double)(n - 1));
		t = stats_t_quantile(1 - level / 2, (unsigned)(n - 1));
		e->ratio = exp(mean);
		e->lo = exp(mean - t * sd / sqrt((double)n));
		e->hi = exp(mean + t * sd / sqrt((double)n));
		if (e->lo > 1 || e->hi < 1)
			e->word = e->interaction ? "interaction" : "effect";
		else if (e->lo > 1 - margin && e->hi < 1 + margin)
			e->word = e->interaction ? "no interaction" : "no effect";
		else
			e->word = e->interaction ? "interaction not ruled out" : "not decided";
	}
	free(v);
}

size_t factorial_effects(const struct study *s, const struct factorial *f, const char *ident,
			 struct fact_effect *out)
{
	double *y, *w;
	size_t n = 0;
	if (!f)
		return 0;
	y = round_logs(s, ident);
	w = xcalloc(n_cells(f) + 1, sizeof(*w));
	for (size_t a = 0; a < f->n; a++)
		for (size_t l = 1; l < f->f[a].n_levels; l++) {
			struct fact_effect *e = &out[n++];
			snprintf(e->what, sizeof(e->what), "%s=%s", f->f[a].name,
				 f->f[a].levels[l]);
			e->interaction = 0;
			contrast(f, a, l, SIZE_MAX, 0, w);
			judge(s, f, y, w, e);
		}
	for (size_t a = 0; a < f->n; a++)
		for (size_t b = a + 1; b < f->n; b++)
			for (size_t l = 1; l < f->f[a].n_levels; l++)
				for (size_t h = 1; h < f->f[b].n_levels; h++) {
					struct fact_effect *e = &out[n++];
					snprintf(e->what, sizeof(e->what), "%s=%s x %s=%s",
						 f->f[a].name, f->f[a].levels[l], f->f[b].name,
						 f->f[b].levels[h]);
					e->interaction = 1;
					contrast(f, a, l, b, h, w);
					judge(s, f, y, w, e);
				}
	free(w);
	free(y);
	return n;
}
