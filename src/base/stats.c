/* stats.c - pure statistics: percentiles (type 7), summaries. */
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A double's bits as an unsigned key in the same order (negatives flipped
 * whole, positives with the sign bit set; -0 as +0). */
static uint64_t sort_key(double v)
{
	uint64_t k;
	v += 0.0;
	memcpy(&k, &v, sizeof(k));
	return k >> 63 ? ~k : k | (1ull << 63);
}

static double key_value(uint64_t k)
{
	double v;
	k = k >> 63 ? k & ~(1ull << 63) : ~k;
	memcpy(&v, &k, sizeof(v));
	return v;
}

void stats_sort(double *x, size_t n)
{
	uint64_t *a, *b, *t;
	size_t count[256];
	if (n < 256) { /* not worth the passes */
		qsort(x, n, sizeof(*x), cmp_double);
		return;
	}
	/* LSD radix sort on the keys, a byte a pass; a pass in which every key
	 * has the same byte is skipped (most high bytes of one metric's samples). */
	a = xmalloc(n * sizeof(*a));
	b = xmalloc(n * sizeof(*b));
	for (size_t i = 0; i < n; i++)
		a[i] = sort_key(x[i]);
	for (int shift = 0; shift < 64; shift += 8) {
		size_t pos = 0;
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(a[i] >> shift) & 0xff]++;
		if (count[(a[0] >> shift) & 0xff] == n)
			continue;
		for (int d = 0; d < 256; d++) {
			size_t c = count[d];
			count[d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i] >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = key_value(a[i]);
	free(a);
	free(b);
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	double h, lo;
	size_t i;
	if (n == 0)
		return 0.0;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	h = (double)(n - 1) * p / 100.0;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	{
		double t = h - lo, gap = sorted[i + 1] - sorted[i];
		/* two samples of opposite sign near 1e308: their gap overflows,
		 * the weighted sum does not (and is used only then, so that
		 * every other value keeps its last bits) */
		return isfinite(gap) || !isfinite(sorted[i]) || !isfinite(sorted[i + 1])
			       ? sorted[i] + t * gap
			       : sorted[i] * (1 - t) + sorted[i + 1] * t;
	}
}

void stats_summarize(const double *x, size_t n, struct summary *out)
{
	double *s, sum = 0, ss = 0;
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = stats_percentile_sorted(s, n, 50);
	out->p5 = stats_percentile_sorted(s, n, 5);
	out->p95 = stats_percentile_sorted(s, n, 95);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	out->cov = (n > 1 && out->mean != 0) ? out->stddev / fabs(out->mean) : 0.0;
	free(s);
}

double stats_median(const double *x, size_t n)
{
	struct summary s;
	stats_summarize(x, n, &s);
	return s.median;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int64_t stats_median_i64(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- comparison statistics ---- */

/* Upper tail P(U >= u) of the exact null distribution of U for sizes m, n,
 * or -1 when the counts would not be exact in a double. The counts of U are
 * the coefficients of the Gaussian binomial [m+n choose m](q), built as
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); each step leaves exact integers. */
static double exact_upper_tail(size_t m, size_t n, size_t u)
{
	size_t top = m * n, i, k;
	double *c, total = 0, tail = 0, log_total = 0;
	if (m > n) {
		size_t t = m;
		m = n;
		n = t;
	}
	for (i = 1; i <= m; i++)
		log_total += log((double)(n + i)) - log((double)i);
	if (log_total > log(1e15))
		return -1;
	/* room for the multiply step's degree (i*n + i) before the divide */
	c = xcalloc(top + m + 1, sizeof(*c));
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		size_t deg_before = (i - 1) * n, sh = n + i;
		/* multiply by (1 - q^sh): degree grows to deg_before + sh */
		for (k = deg_before + sh; k >= sh; k--)
			c[k] -= c[k - sh];
		/* divide by (1 - q^i): c[k] += c[k - i], ascending */
		for (k = i; k <= deg_before + sh; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= top; k++) {
		total += c[k];
		if (k >= u)
			tail += c[k];
	}
	free(c);
	return tail / total;
}

double stats_mann_whitney_u(const double *x, size_t nx, const double *y, size_t ny, double *p_out)
{
	size_t n = nx + ny, i = 0, j = 0;
	double *sx, *sy, rank_sum_x = 0, tie_term = 0, u1, u2, u, mu, sd, p;
	int ties = 0;
	*p_out = 1.0;
	if (nx == 0 || ny == 0)
		return 0.0;
	sx = xmalloc(nx * sizeof(*sx));
	sy = xmalloc(ny * sizeof(*sy));
	memcpy(sx, x, nx * sizeof(*sx));
	memcpy(sy, y, ny * sizeof(*sy));
	stats_sort(sx, nx);
	stats_sort(sy, ny);
	/* Average ranks (1-based) over runs of equal values, merging the two
	 * sorted sides: a run of t equal values from rank r on ranks r+(t-1)/2. */
	while (i < nx || j < ny) {
		double v = j >= ny || (i < nx && sx[i] <= sy[j]) ? sx[i] : sy[j], avg, t;
		size_t cx = 0, cy = 0, first = i + j;
		while (i < nx && sx[i] == v)
			i++, cx++;
		while (j < ny && sy[j] == v)
			j++, cy++;
		t = (double)(cx + cy);
		avg = ((double)first + 1 + (double)(first + cx + cy)) / 2.0;
		rank_sum_x += (double)cx * avg;
		if (cx + cy > 1) {
			ties = 1;
			tie_term += t * t * t - t;
		}
	}
	free(sx);
	free(sy);
	u1 = rank_sum_x - (double)nx * ((double)nx + 1) / 2.0;
	u2 = (double)nx * (double)ny - u1;
	u = u1 > u2 ? u1 : u2;
	if ((nx <= 8 || ny <= 8) && !ties) {
		double tail = exact_upper_tail(nx, ny, (size_t)u);
		if (tail >= 0) {
			p = 2.0 * tail;
			*p_out = p < 1.0 ? p : 1.0;
			return u1;
		}
	}
	mu = (double)nx * (double)ny / 2.0;
	sd = sqrt((double)nx * (double)ny / 12.0 *
		  (((double)n + 1) - tie_term / ((double)n * ((double)n - 1))));
	if (!(sd > 0))
		return u1; /* all values equal: no evidence either way, p = 1 */
	p = erfc((u - mu - 0.5) / sd / sqrt(2.0)); /* 2 * upper tail of N(0,1) */
	*p_out = p < 1.0 ? p : 1.0;
	return u1;
}

/* Median of n values drawn with replacement from x, using scratch (n long). */
static double resample_median(const double *x, size_t n, double *scratch, struct rng *r)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = x[rng_below(r, n)];
	stats_sort(scratch, n);
	return stats_percentile_sorted(scratch, n, 50);
}

/* P(Bin(n, (k + 1) / n) >= m): the chance that a resample of n values from
 * sorted data has its m-th smallest at or below sorted[k]. Normal
 * approximation with continuity correction: used only where n is large. */
static double order_cdf(size_t n, size_t k, size_t m)
{
	double p = (double)(k + 1) / (double)n, mean = (double)n * p;
	double sd = sqrt(mean * (1 - p));
	if (!(sd > 0))
		return p >= 1 ? 1.0 : 0.0;
	return 0.5 * erfc(((double)m - 0.5 - mean) / sd / sqrt(2.0));
}

/* The index of the m-th smallest of a resample, drawn from its exact
 * distribution by inverting order_cdf at u (monotone in k): no resample. */
static size_t order_draw(size_t n, size_t m, double u)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (order_cdf(n, mid, m) >= u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A resample's median for large n, from sorted data in O(log n): the rank of
 * a resample's m-th smallest value is what order_cdf describes, so drawing
 * it directly gives the bootstrap's distribution without sorting n values. */
static double large_median(const double *sorted, size_t n, struct rng *r)
{
	double u = (double)(rng_next(r) >> 11) * 0x1.0p-53;
	size_t lo = order_draw(n, n / 2 + 1, u);
	if (n % 2)
		return sorted[lo];
	return 0.5 * (sorted[order_draw(n, n / 2, u)] + sorted[lo]);
}

/* Above this many samples a side, a median's bootstrap is drawn from its
 * order statistics (large_median): 2000 resamples of 2 million samples
 * would take minutes. Below it the resamples are taken literally, as
 * always, so small comparisons read exactly as before. */
#define LARGE_SAMPLE 5000

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	return s;
}

int stats_bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb, unsigned iters,
			     double level, struct rng *r, double *lo, double *hi)
{
	double *ratios, *scratch, *sa = NULL, *sb = NULL;
	int rc = 0;
	*lo = *hi = 0;
	if (na == 0 || nb == 0 || iters == 0)
		return -1;
	ratios = xmalloc(iters * sizeof(*ratios));
	scratch = xmalloc((na > nb ? na : nb) * sizeof(*scratch));
	if (na > LARGE_SAMPLE)
		sa = sorted_copy(a, na);
	if (nb > LARGE_SAMPLE)
		sb = sorted_copy(b, nb);
	for (unsigned i = 0; i < iters; i++) {
		double ma = sa ? large_median(sa, na, r) : resample_median(a, na, scratch, r);
		double mb = sb ? large_median(sb, nb, r) : resample_median(b, nb, scratch, r);
		if (!(ma > 0)) {
			rc = -1;
			break;
		}
		ratios[i] = mb / ma;
	}
	if (rc == 0) {
		stats_sort(ratios, iters);
		*lo = stats_percentile_sorted(ratios, iters, 50.0 * (1.0 - level));
		*hi = stats_percentile_sorted(ratios, iters, 100.0 - 50.0 * (1.0 - level));
	}
	free(ratios);
	free(scratch);
	free(sa);
	free(sb);
	return rc;
}

static int cmp_index_by_p(const void *a, const void *b, void *p)
{
	const double *base = p;
	return cmp_double(&base[*(const size_t *)a], &base[*(const size_t *)b]);
}

void stats_holm(const double *p, size_t n, double *adj)
{
	size_t *idx;
	double running = 0;
	if (n == 0)
		return;
	idx = xmalloc(n * sizeof(*idx));
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_index_by_p, (void *)p);
	for (size_t k = 0; k < n; k++) {
		double v = (double)(n - k) * p[idx[k]];
		if (v > 1.0)
			v = 1.0;
		if (v < running)
			v = running; /* step-down: never below an earlier (smaller-p) one */
		running = v;
		adj[idx[k]] = v;
	}
	free(idx);
}

int stats_summary_overflows(const struct summary *s)
{
	return s->n > 0 &&
	       !(isfinite(s->median) && isfinite(s->min) && isfinite(s->max) && isfinite(s->p5) &&
		 isfinite(s->p95) && isfinite(s->mean) && isfinite(s->stddev) && isfinite(s->cov));
}
