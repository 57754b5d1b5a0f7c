/* blocked.c - van Elteren's stratified rank test, Student-t quantiles, the
 * t interval of per-round ratios and the order-statistic CI of a median
 * (blocked.h). */
#include "base/blocked.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"

/* ---- van Elteren ---- */

/* One stratum ranked: B's rank sum minus its mean, its variance under no
 * difference (tie-corrected), whether it had ties. */
struct ranked {
	double dev, var;
	size_t m, n; /* A and B sizes */
	int ties;
};

static void rank_stratum(const struct stratum *s, struct ranked *r)
{
	size_t na = s->na, nb = s->nb, nt = na + nb, i = 0, j = 0;
	double *sa = xmalloc(na * sizeof(*sa)), *sb = xmalloc(nb * sizeof(*sb));
	double rank_b = 0, tie_term = 0, N = (double)nt;
	memcpy(sa, s->a, na * sizeof(*sa));
	memcpy(sb, s->b, nb * sizeof(*sb));
	stats_sort(sa, na);
	stats_sort(sb, nb);
	r->ties = 0;
	/* Mid-ranks over runs of equal values, merging the two sorted sides. */
	while (i < na || j < nb) {
		double v = j >= nb || (i < na && sa[i] <= sb[j]) ? sa[i] : sb[j], avg, t;
		size_t ca = 0, cb = 0, first = i + j;
		while (i < na && sa[i] == v)
			i++, ca++;
		while (j < nb && sb[j] == v)
			j++, cb++;
		t = (double)(ca + cb);
		avg = ((double)first + 1 + (double)(first + ca + cb)) / 2.0;
		rank_b += (double)cb * avg;
		if (ca + cb > 1) {
			r->ties = 1;
			tie_term += t * t * t - t;
		}
	}
	free(sa);
	free(sb);
	r->m = na;
	r->n = nb;
	r->dev = rank_b - (double)nb * (N + 1) / 2.0;
	r->var = (double)na * (double)nb / 12.0 * ((N + 1) - tie_term / (N * (N - 1)));
}

/* The exact null distribution of one stratum's U (0..m*n) as probabilities,
 * or NULL when its counts would not be exact in a double: the coefficients
 * of the Gaussian binomial [m+n choose m](q), as in stats.c. */
static double *u_distribution(size_t m, size_t n)
{
	size_t top = m * n, k;
	double *c, log_total = 0, total = 0;
	if (m > n) {
		size_t t = m;
		m = n;
		n = t;
	}
	for (size_t i = 1; i <= m; i++)
		log_total += log((double)(n + i)) - log((double)i);
	if (log_total > log(1e15))
		return NULL;
	c = xcalloc(top + m + 1, sizeof(*c));
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t deg_before = (i - 1) * n, sh = n + i;
		for (k = deg_before + sh; k >= sh; k--)
			c[k] -= c[k - sh];
		for (k = i; k <= deg_before + sh; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= top; k++)
		total += c[k];
	for (k = 0; k <= top; k++)
		c[k] /= total;
	return c;
}

/* Two-sided exact p of the sum of k strata's U, each of sizes (m, n), at the
 * observed sum's distance `dev` from its mean; -1 when not exact. */
static double exact_sum_p(size_t k, size_t m, size_t n, double dev)
{
	size_t one = m * n, len = 1;
	double *u = u_distribution(m, n), *sum, *next, mean, tail = 0;
	if (!u)
		return -1;
	sum = xcalloc(k * one + 1, sizeof(*sum));
	next = xcalloc(k * one + 1, sizeof(*next));
	sum[0] = 1;
	for (size_t s = 0; s < k; s++) {
		memset(next, 0, (len + one) * sizeof(*next));
		for (size_t x = 0; x < len; x++)
			for (size_t y = 0; y <= one; y++)
				next[x + y] += sum[x] * u[y];
		len += one;
		memcpy(sum, next, len * sizeof(*sum));
	}
	/* symmetric about its mean: twice the upper tail beyond |dev| */
	mean = (double)(k * one) / 2.0;
	for (size_t x = 0; x < len; x++)
		if ((double)x - mean >= fabs(dev) - 1e-9)
			tail += sum[x];
	free(u);
	free(sum);
	free(next);
	return fmin(1.0, 2.0 * tail);
}

double stats_van_elteren(const struct stratum *s, size_t n, double *p_out)
{
	struct ranked *r = xcalloc(n + 1, sizeof(*r));
	size_t used = 0;
	double t = 0, v = 0, w = 0, p;
	int same = 1, ties = 0;
	*p_out = 1.0;
	for (size_t i = 0; i < n; i++) {
		if (!s[i].na || !s[i].nb)
			continue;
		rank_stratum(&s[i], &r[used]);
		same &= r[used].m == r[0].m && r[used].n == r[0].n;
		ties |= r[used].ties;
		w = 1.0 / ((double)(r[used].m + r[used].n) + 1);
		t += w * r[used].dev;
		v += w * w * r[used].var;
		used++;
	}
	if (!used || !(v > 0)) {
		free(r);
		return 0.0;
	}
	if (same && !ties && (r[0].m <= 8 || r[0].n <= 8)) {
		/* equal weights: the weighted sum is w times the sum of U */
		p = exact_sum_p(used, r[0].m, r[0].n, t / w);
		if (p >= 0) {
			*p_out = p;
			free(r);
			return t / sqrt(v);
		}
	}
	p = erfc(fmax(0.0, fabs(t) - (same ? 0.5 * w : 0.0)) / sqrt(v) / sqrt(2.0));
	*p_out = fmin(1.0, p);
	free(r);
	return t / sqrt(v);
}

/* ---- Student's t ---- */

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for t >= 0. */
static double t_cdf(double t, double df)
{
	return 1 - 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
}

double stats_t_quantile(double q, unsigned df)
{
	double lo = 0, hi = 1;
	if (q == 0.5)
		return 0;
	if (q < 0.5)
		return -stats_t_quantile(1 - q, df);
	while (t_cdf(hi, df) < q && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, hi); i++) {
		double mid = 0.5 * (lo + hi);
		if (t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double stats_t_p2(double t, unsigned df)
{
	if (isnan(t))
		return 1;
	if (isinf(t))
		return 0;
	return fmin(1.0, 2.0 * (1.0 - t_cdf(fabs(t), df)));
}

double stats_ratio_t_p(const double *ratio, size_t n)
{
	double mean = 0, ss = 0, se;
	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(ratio[i] > 0) || !isfinite(ratio[i]))
			return NAN;
		mean += log(ratio[i]);
	}
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(ratio[i]) - mean) * (log(ratio[i]) - mean);
	se = sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	/* every round the same ratio: no spread, the sign is all there is */
	if (!(se > 0))
		return mean == 0 ? 1.0 : 0.0;
	return stats_t_p2(mean / se, (unsigned)(n - 1));
}

int stats_ratio_t_ci(const double *ratio, size_t n, double level, double *est, double *lo,
		     double *hi)
{
	double mean = 0, ss = 0, half;
	*est = *lo = *hi = NAN;
	for (size_t i = 0; i < n; i++)
		if (!(ratio[i] > 0) || !isfinite(ratio[i]))
			return -1;
	if (n == 1)
		*est = ratio[0];
	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		mean += log(ratio[i]);
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(ratio[i]) - mean) * (log(ratio[i]) - mean);
	half = stats_t_quantile(0.5 + level / 2, (unsigned)(n - 1)) * sqrt(ss / (double)(n - 1)) /
	       sqrt((double)n);
	*est = exp(mean);
	*lo = exp(mean - half);
	*hi = exp(mean + half);
	return 0;
}

/* ---- the CI of a median ---- */

int stats_median_ci(const double *x, size_t n, double level, double *lo, double *hi)
{
	double alpha = (1 - level) / 2, cdf = 0, log_half_n = (double)n * log(0.5), *s;
	size_t k = 0;
	*lo = *hi = NAN;
	/* k grows while P(Bin(n, 1/2) <= k) stays within alpha: then
	 * P(Bin < k + 1) <= alpha and x_(k+1) (1-based) may bound the CI. */
	while (k < n / 2) {
		double pmf = exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
				 lgamma((double)(n - k) + 1) + log_half_n);
		if (cdf + pmf > alpha)
			break;
		cdf += pmf;
		k++;
	}
	if (k == 0)
		return -1;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	*lo = s[k - 1];
	*hi = s[n - k];
	free(s);
	return 0;
}
