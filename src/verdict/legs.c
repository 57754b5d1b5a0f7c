/* legs.c - the between-process test of legs without rounds (legs.h,
 * docs/design.md §5.4). */
#include "verdict/legs.h"

#include <math.h>
#include <stdio.h>

#include "base/blocked.h"
#include "base/stats.h"
#include "base/util.h"

double legs_alpha(const struct comparison *c)
{
	return c->opts.alpha > 0 ? c->opts.alpha : 0.05;
}

double legs_min_p(size_t na, size_t nb)
{
	double ways = 1;
	for (size_t k = 1; k <= nb; k++)
		ways = ways * (double)(na + k) / (double)k;
	return 2 / ways;
}

static int predicts(size_t na, size_t nb)
{
	return (na == 1 && nb >= LEGS_PREDICT) || (nb == 1 && na >= LEGS_PREDICT);
}

static void count(const struct comparison *c, const struct compare_row *row, size_t *na, size_t *nb)
{
	*na = *nb = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (row->m[j])
			*(c->legs[j].variant == 'A' ? na : nb) += 1;
}

int legs_enough(const struct comparison *c, const struct compare_row *row)
{
	size_t na, nb;
	count(c, row, &na, &nb);
	return predicts(na, nb) || legs_min_p(na, nb) < legs_alpha(c);
}

char *legs_too_few(const struct comparison *c, const struct compare_row *row)
{
	size_t na, nb;
	char seen[96] = "";
	if (legs_enough(c, row))
		return NULL;
	count(c, row, &na, &nb);
	if (isfinite(row->change) && isfinite(row->ci_lo))
		snprintf(seen, sizeof(seen), " (%+.1f%% [%+.1f, %+.1f] within them)",
			 100.0 * row->change, 100.0 * row->ci_lo, 100.0 * row->ci_hi);
	return xasprintf("not enough legs to judge%s: %zu process%s of A, %zu of B; a verdict "
			 "needs 4 or more a side (one against 4 or more), or rounds",
			 seen, na, na == 1 ? "" : "es", nb);
}

/* The mean and the variance over k of log x (x > 0 each), or -1. */
static int log_moments(const double *x, size_t k, double *mean, double *var)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < k; i++) {
		if (!(x[i] > 0))
			return -1;
		m += log(x[i]) / (double)k;
	}
	for (size_t i = 0; i < k; i++)
		ss += (log(x[i]) - m) * (log(x[i]) - m);
	*mean = m;
	*var = ss / (double)(k - 1);
	return 0;
}

/* The legs' medians of the row, A's in a and B's in b. */
static void split_medians(const struct comparison *c, const struct compare_row *row, double *a,
			  size_t *na, double *b, size_t *nb)
{
	*na = *nb = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (row->m[j] && !isnan(row->median[j])) {
			if (c->legs[j].variant == 'A')
				a[(*na)++] = row->median[j];
			else
				b[(*nb)++] = row->median[j];
		}
}

void legs_test(const struct comparison *c, struct compare_row *row)
{
	double a[COMPARE_MAX_LEGS], b[COMPARE_MAX_LEGS];
	size_t na, nb;
	split_medians(c, row, a, &na, b, &nb);
	row->p_legs = NAN;
	if (predicts(na, nb)) {
		/* the one leg against the others' prediction interval */
		const double *set = na == 1 ? b : a, one = na == 1 ? a[0] : b[0];
		size_t k = na == 1 ? nb : na;
		double mean, var, t;
		if (!(one > 0) || log_moments(set, k, &mean, &var))
			return;	  /* no log: no test */
		if (!(var > 0)) { /* the others all equal: outside them or not */
			row->p_legs = log(one) == mean ? 1 : 0;
			return;
		}
		t = (log(one) - mean) / sqrt(var * (1 + 1.0 / (double)k));
		row->p_legs = stats_t_p2(t, (unsigned)(k - 1));
	} else if (na && nb)
		stats_mann_whitney_u(b, nb, a, na, &row->p_legs);
}

void legs_ci(const struct comparison *c, struct compare_row *row)
{
	double a[COMPARE_MAX_LEGS], b[COMPARE_MAX_LEGS], ma, va, mb, vb, se, df, t, lo, hi;
	size_t na, nb;
	if (!legs_enough(c, row) || !(row->change > -1))
		return;
	split_medians(c, row, a, &na, b, &nb);
	/* one leg against the others: judged by its prediction interval */
	if (na < 2 || nb < 2 || log_moments(a, na, &ma, &va) || log_moments(b, nb, &mb, &vb))
		return;
	se = sqrt(va / (double)na + vb / (double)nb);
	if (!(se > 0))
		return;
	/* Welch-Satterthwaite degrees of freedom, at least 1 */
	df = se * se * se * se /
	     ((va / (double)na) * (va / (double)na) / (double)(na - 1) +
	      (vb / (double)nb) * (vb / (double)nb) / (double)(nb - 1));
	t = stats_t_quantile(0.975, df >= 1 ? (unsigned)df : 1);
	lo = (1 + row->change) * exp(-t * se) - 1;
	hi = (1 + row->change) * exp(t * se) - 1;
	row->ci_lo = isnan(row->ci_lo) ? lo : fmin(row->ci_lo, lo);
	row->ci_hi = isnan(row->ci_hi) ? hi : fmax(row->ci_hi, hi);
}
