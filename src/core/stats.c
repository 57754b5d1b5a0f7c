/* stats.c - pure statistics: percentiles (type 7), summaries. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
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
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

void stats_summarize(const double *x, size_t n, struct summary *out)
{
	double *s, sum = 0, ss = 0;
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	s = malloc(n * sizeof(*s));
	if (!s)
		abort();
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
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
