/* changepoint.c - PELT over a series' logs, each change tested and merged
 * away when the raw values do not show it (changepoint.h; docs/design.md
 * §3.5). */
#include "base/changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"

void changepoint_opts_default(struct cp_opts *o)
{
	*o = (struct cp_opts){.penalty = 3,
			      .min_seg = 3,
			      .alpha = 0.001,
			      .min_change = 0.01,
			      .window = 50,
			      .iters = 1000,
			      .seed = 1};
}

static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof(*x));
	stats_sort(tmp, n);
	return stats_percentile_sorted(tmp, n, 50);
}

/* The noise of y: 1.4826 MAD of the first differences / sqrt(2); the mean
 * absolute deviation (times 1.2533) where more than half the differences
 * are equal. 0 when y does not vary at all. */
static double noise_sigma(const double *y, size_t n, double *tmp, double *tmp2)
{
	double med, mad, mean = 0;

	for (size_t i = 0; i + 1 < n; i++)
		tmp2[i] = y[i + 1] - y[i];
	med = median_of(tmp2, n - 1, tmp);
	for (size_t i = 0; i + 1 < n; i++)
		tmp2[i] = fabs(tmp2[i] - med);
	mad = median_of(tmp2, n - 1, tmp);
	if (mad > 0)
		return 1.4826 * mad / sqrt(2);
	for (size_t i = 0; i + 1 < n; i++)
		mean += tmp2[i];
	return 1.2533 * mean / (double)(n - 1) / sqrt(2);
}

/* Each y within 3 sigma of the median of its five neighbours. */
static void clip(const double *y, size_t n, double sigma, double *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= 2 ? i - 2 : 0, hi = i + 3 < n ? i + 3 : n;
		double w[5], m;

		memcpy(w, y + lo, (hi - lo) * sizeof(*w));
		stats_sort(w, hi - lo);
		m = stats_percentile_sorted(w, hi - lo, 50);
		out[i] = y[i] > m + 3 * sigma	? m + 3 * sigma
			 : y[i] < m - 3 * sigma ? m - 3 * sigma
						: y[i];
	}
}

/* PELT: the optimal segmentation's change points (ascending) into cp;
 * returns their count. s1, s2 are cumulative sums of y and y^2 (n + 1). */
static size_t pelt(const double *s1, const double *s2, size_t n, double sigma, double beta,
		   size_t m, size_t *cp)
{
	double *f = xcalloc(n + 1, sizeof(*f)), inv = 1 / (sigma * sigma);
	size_t *last = xcalloc(n + 1, sizeof(*last)), *r = xcalloc(n + 1, sizeof(*r)), nr = 0,
	       k = 0;

	for (size_t t = 1; t <= n; t++)
		f[t] = INFINITY;
	f[0] = -beta;
#define COST(s, t) ((s2[t] - s2[s] - (s1[t] - s1[s]) * (s1[t] - s1[s]) / (double)((t) - (s))) * inv)
	for (size_t t = m; t <= n; t++) {
		size_t o = 0;

		if (isfinite(f[t - m]))
			r[nr++] = t - m; /* first eligible now */
		for (size_t i = 0; i < nr; i++) {
			double v = f[r[i]] + COST(r[i], t) + beta;

			if (v < f[t]) {
				f[t] = v;
				last[t] = r[i];
			}
		}
		for (size_t i = 0; i < nr; i++) /* prune what can never be best */
			if (f[r[i]] + COST(r[i], t) <= f[t])
				r[o++] = r[i];
		nr = o;
	}
#undef COST
	for (size_t t = last[n]; t > 0; t = last[t])
		cp[k++] = t;
	for (size_t i = 0; i < k / 2; i++) {
		size_t s = cp[i];

		cp[i] = cp[k - 1 - i];
		cp[k - 1 - i] = s;
	}
	free(f);
	free(last);
	free(r);
	return k;
}

/* The test of change j (bounds b[j] < b[j+1] < b[j+2]): p of the points
 * either side (up to w each) and the ratio of their medians. */
static void test_change(const double *x, const size_t *b, size_t j, size_t w, double *tmp,
			double *p, double *ratio)
{
	size_t l0 = b[j + 1] - b[j] > w ? b[j + 1] - w : b[j];
	size_t r1 = b[j + 2] - b[j + 1] > w ? b[j + 1] + w : b[j + 2];
	double ml = median_of(x + l0, b[j + 1] - l0, tmp);
	double mr = median_of(x + b[j + 1], r1 - b[j + 1], tmp);

	stats_mann_whitney_u(x + l0, b[j + 1] - l0, x + b[j + 1], r1 - b[j + 1], p);
	*ratio = ml != 0 ? mr / ml : NAN;
}

/* Merges away the weakest change that fails its test until none does;
 * b holds 0, the changes, n (k + 2 bounds). Returns the changes left. */
static size_t merge(const double *x, size_t *b, size_t k, const struct cp_opts *o, double *tmp)
{
	for (;;) {
		size_t worst = k;
		double worst_p = -1;

		for (size_t j = 0; j < k; j++) {
			double p, ratio;

			test_change(x, b, j, o->window, tmp, &p, &ratio);
			if (!(p < o->alpha) || !isfinite(ratio) ||
			    fabs(ratio - 1) < o->min_change) {
				double score = isfinite(p) ? p : 2;

				if (!(p < o->alpha))
					score += 1; /* not significant: weaker than too small */
				if (score > worst_p) {
					worst_p = score;
					worst = j;
				}
			}
		}
		if (worst == k)
			return k;
		memmove(b + worst + 1, b + worst + 2, (k - worst) * sizeof(*b));
		k--;
	}
}

static void describe(const double *x, const size_t *b, size_t j, const struct cp_opts *o,
		     struct rng *rng, double *tmp, struct cp_change *c)
{
	size_t w = o->window;
	size_t l0 = b[j + 1] - b[j] > w ? b[j + 1] - w : b[j];
	size_t r1 = b[j + 2] - b[j + 1] > w ? b[j + 1] + w : b[j + 2];
	double ratio, lo, hi;

	c->seg_start = b[j];
	c->at = b[j + 1];
	c->seg_end = b[j + 2];
	c->before = median_of(x + b[j], b[j + 1] - b[j], tmp);
	c->after = median_of(x + b[j + 1], b[j + 2] - b[j + 1], tmp);
	c->change = c->before != 0 ? c->after / c->before - 1 : NAN;
	test_change(x, b, j, w, tmp, &c->p, &ratio);
	c->ci_lo = c->ci_hi = NAN;
	if (stats_bootstrap_ratio_ci(x + l0, b[j + 1] - l0, x + b[j + 1], r1 - b[j + 1], o->iters,
				     0.95, rng, &lo, &hi) == 0) {
		c->ci_lo = lo - 1;
		c->ci_hi = hi - 1;
	}
}

size_t changepoint_find(const double *x, size_t n, const struct cp_opts *o, struct cp_change *out,
			size_t max)
{
	struct cp_opts d;
	double *y, *yc, *s1, *s2, *tmp, *tmp2, sigma, center;
	size_t *b, k, m;
	int logs = 1;
	struct rng rng;

	if (!o) {
		changepoint_opts_default(&d);
		o = &d;
	}
	m = o->min_seg ? o->min_seg : 1;
	if (n < 2 * m || n < 3)
		return 0;
	y = xcalloc(n, sizeof(*y));
	yc = xcalloc(n, sizeof(*yc));
	tmp = xcalloc(n, sizeof(*tmp));
	tmp2 = xcalloc(n, sizeof(*tmp2));
	s1 = xcalloc(n + 1, sizeof(*s1));
	s2 = xcalloc(n + 1, sizeof(*s2));
	b = xcalloc(n + 2, sizeof(*b));
	for (size_t i = 0; i < n; i++)
		logs &= x[i] > 0;
	for (size_t i = 0; i < n; i++)
		y[i] = logs ? log(x[i]) : x[i];
	center = median_of(y, n, tmp); /* sums of centred values: no cancellation */
	for (size_t i = 0; i < n; i++)
		y[i] -= center;
	sigma = noise_sigma(y, n, tmp, tmp2);
	k = 0;
	if (sigma > 0) {
		clip(y, n, sigma, yc);
		for (size_t i = 0; i < n; i++) {
			s1[i + 1] = s1[i] + yc[i];
			s2[i + 1] = s2[i] + yc[i] * yc[i];
		}
		k = pelt(s1, s2, n, sigma, o->penalty * log((double)n), m, b + 1);
		b[0] = 0;
		b[k + 1] = n;
		k = merge(x, b, k, o, tmp);
	}
	rng_seed(&rng, o->seed);
	for (size_t j = 0; j < k && j < max; j++)
		describe(x, b, j, o, &rng, tmp, &out[j]);
	free(y);
	free(yc);
	free(tmp);
	free(tmp2);
	free(s1);
	free(s2);
	free(b);
	return k;
}
