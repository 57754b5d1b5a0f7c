/* compare_stats.c - the statistics of legs without rounds and Holm's
 * correction (compare_stats.h, docs/design.md §5). */
#include "verdict/compare_stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "verdict/legs.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static double *pool(const struct comparison *c, const struct compare_row *row, char variant,
		    size_t *n)
{
	double *v;
	*n = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == variant)
			*n += row->m[j]->n_samples;
	v = xcalloc(*n + 1, sizeof(*v));
	*n = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == variant) {
			memcpy(v + *n, row->m[j]->samples, row->m[j]->n_samples * sizeof(*v));
			*n += row->m[j]->n_samples;
		}
	return v;
}

/* Legs of one variant, first and last: the pair whose gap is the drift. */
int compare_drift_pair(const struct comparison *c, char variant, size_t *first, size_t *last)
{
	int found = 0;
	*first = *last = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == variant) {
			if (!found)
				*first = j;
			*last = j;
			found = 1;
		}
	return found && *first != *last;
}

double compare_gap(double from, double to)
{
	if (from == to)
		return 0;
	return from > 0 ? fabs(to / from - 1) : INFINITY;
}

/* Medians of each variant's samples over every leg that has the metric. */
void compare_pooled_medians(const struct comparison *c, struct compare_row *row)
{
	for (const char *v = "AB"; *v; v++) {
		size_t n = 0;
		double *x;
		for (size_t j = 0; j < c->n_legs; j++)
			if (c->legs[j].variant == *v && row->m[j])
				n += row->m[j]->n_samples;
		x = xcalloc(n + 1, sizeof(*x));
		n = 0;
		for (size_t j = 0; j < c->n_legs; j++)
			if (c->legs[j].variant == *v && row->m[j]) {
				memcpy(x + n, row->m[j]->samples,
				       row->m[j]->n_samples * sizeof(*x));
				n += row->m[j]->n_samples;
			}
		*(*v == 'A' ? &row->median_a : &row->median_b) = n ? stats_median(x, n) : NAN;
		free(x);
	}
}

void compare_stats(const struct comparison *c, struct compare_row *row)
{
	struct rng r;
	size_t na, nb, tested = 0;
	double *a = pool(c, row, 'A', &na), *b = pool(c, row, 'B', &nb), lo, hi, pmin = 1;
	rng_seed(&r, c->opts.seed ^ hash_str(row->ident));
	row->median_a = stats_median(a, na);
	row->median_b = stats_median(b, nb);
	row->n_a = na;
	row->n_b = nb;
	row->change = row->median_a > 0 ? row->median_b / row->median_a - 1 : NAN;
	row->ci_lo = row->ci_hi = NAN;
	if (stats_bootstrap_ratio_ci(a, na, b, nb, c->opts.bootstrap_iters, 0.95, &r, &lo, &hi) ==
	    0) {
		row->ci_lo = lo - 1;
		row->ci_hi = hi - 1;
	}
	row->p_effect = 0;
	for (size_t j = 0; j < c->n_legs; j++) {
		row->p_vs_a[j] = NAN;
		if (c->legs[j].variant != 'A')
			continue;
		stats_mann_whitney_u(b, nb, row->m[j]->samples, row->m[j]->n_samples,
				     &row->p_vs_a[j]);
		if (row->p_vs_a[j] > row->p_effect)
			row->p_effect = row->p_vs_a[j];
	}
	row->drift = 0;
	for (const char *v = "AB"; *v; v++) {
		size_t f, l;
		double p, g;
		if (!compare_drift_pair(c, *v, &f, &l))
			continue;
		stats_mann_whitney_u(row->m[l]->samples, row->m[l]->n_samples, row->m[f]->samples,
				     row->m[f]->n_samples, &p);
		g = compare_gap(row->median[f], row->median[l]);
		if (g > row->drift)
			row->drift = g;
		if (p < pmin)
			pmin = p;
		tested++;
	}
	/* Two pairs tested (ABAB): Bonferroni within the metric. */
	row->p_drift = tested ? fmin(1.0, (double)tested * pmin) : NAN;
	free(a);
	free(b);
	legs_test(c, row);
	legs_ci(c, row);
}

static int family_of(const struct comparison *c, const struct compare_row *row)
{
	if (row->control)
		return 1;
	return c->opts.primary && row->primary ? 0 : 2;
}

void compare_holm(struct comparison *c)
{
	double *p = xcalloc(c->n_rows + 1, sizeof(*p)), *adj = xcalloc(c->n_rows + 1, sizeof(*adj));
	size_t *idx = xcalloc(c->n_rows + 1, sizeof(*idx));
	for (int fam = 0; fam < 3; fam++)
		for (int drift = 0; drift < 2; drift++) {
			size_t n = 0;
			for (size_t i = 0; i < c->n_rows; i++) {
				struct compare_row *row = &c->rows[i];
				if (row->verdict != COMPARE_PENDING || family_of(c, row) != fam ||
				    (drift && isnan(row->p_drift)))
					continue;
				idx[n] = i;
				p[n++] = drift ? row->p_drift : row->p_effect;
			}
			stats_holm(p, n, adj);
			for (size_t k = 0; k < n; k++)
				if (drift)
					c->rows[idx[k]].p_drift_adj = adj[k];
				else
					c->rows[idx[k]].p_effect_adj = adj[k];
		}
	free(p);
	free(adj);
	free(idx);
}
