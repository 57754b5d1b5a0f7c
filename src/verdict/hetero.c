/* hetero.c - effect heterogeneity over rounds (hetero.h). */
#include "verdict/hetero.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "verdict/threshold.h"

double hetero_chi2_upper(double x, size_t df)
{
	/* regularised lower incomplete gamma P(a, x / 2) by its series */
	double a = (double)df / 2, h = x / 2, term, sum;
	if (!(x > 0))
		return 1;
	term = sum = 1 / a;
	for (int k = 1; k < 10000 && term > sum * 1e-15; k++) {
		term *= h / (a + k);
		sum += term;
	}
	return fmax(0, 1 - exp(-h + a * log(h) - lgamma(a)) * sum);
}

int hetero_q(const struct hetero_round *r, size_t n, double *q, size_t *df, double *p)
{
	double sw = 0, swy = 0, mean;
	size_t k = 0;
	*q = 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].var > 0 && isfinite(r[i].var) && isfinite(r[i].log_ratio)) {
			sw += 1 / r[i].var;
			swy += r[i].log_ratio / r[i].var;
			k++;
		}
	if (k < 2)
		return -1;
	mean = swy / sw;
	for (size_t i = 0; i < n; i++)
		if (r[i].var > 0 && isfinite(r[i].var) && isfinite(r[i].log_ratio))
			*q += (r[i].log_ratio - mean) * (r[i].log_ratio - mean) / r[i].var;
	*df = k - 1;
	*p = hetero_chi2_upper(*q, *df);
	return 0;
}

double hetero_log_median_var(const struct metric *m)
{
	double mean = 0, ss = 0;
	size_t n = m ? m->n_samples : 0;
	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(m->samples[i] > 0))
			return NAN;
		mean += log(m->samples[i]);
	}
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(m->samples[i]) - mean) * (log(m->samples[i]) - mean);
	return M_PI / 2 * ss / (double)(n - 1) / (double)n;
}

json_t *hetero_json(const struct hetero_round *r, size_t n)
{
	size_t df;
	double q, p;
	json_t *out = NULL, *a;
	if (hetero_q(r, n, &q, &df, &p) == 0) {
		double lo = INFINITY, hi = -INFINITY;
		for (size_t i = 0; i < n; i++)
			if (r[i].var > 0 && isfinite(r[i].log_ratio)) {
				lo = fmin(lo, r[i].log_ratio);
				hi = fmax(hi, r[i].log_ratio);
			}
		/* significant and of a size that matters: rounds that all read +50%
		 * from tight legs differ "significantly" by nothing a reader can use */
		out = json_pack("{s:f, s:I, s:f, s:b}", "q", q, "df", (json_int_t)df, "p", p,
				"depends_on_load",
				p < HETERO_ALPHA && hi - lo > log(1 + THRESHOLD_MIN));
		a = json_array();
		for (size_t i = 0; i < n; i++) {
			json_t *o = json_pack("{s:I, s:f}", "round", (json_int_t)r[i].round,
					      "change", exp(r[i].log_ratio) - 1);
			json_object_set_new(o, "busy",
					    isfinite(r[i].busy) ? json_real(r[i].busy)
								: json_null());
			if (!(r[i].var > 0))
				json_object_set_new(o, "skipped", json_true()); /* no variance */
			json_array_append_new(a, o);
		}
		json_object_set_new(out, "rounds", a);
	}
	return out;
}

char *hetero_words(json_t *h)
{
	json_t *rs = json_object_get(h, "rounds"), *o;
	double lo = INFINITY, hi = -INFINITY;
	char *list = NULL, *out;
	size_t i;
	int loads = 0;
	if (!json_is_true(json_object_get(h, "depends_on_load")))
		return NULL;
	json_array_foreach (rs, i, o)
		loads |= json_is_number(json_object_get(o, "busy"));
	json_array_foreach (rs, i, o) {
		double ch = json_number_value(json_object_get(o, "change"));
		json_t *b = json_object_get(o, "busy");
		char load[48], *t;
		lo = fmin(lo, ch);
		hi = fmax(hi, ch);
		if (json_is_number(b))
			snprintf(load, sizeof(load), " at %.1f other CPUs busy",
				 json_number_value(b));
		else
			snprintf(load, sizeof(load), loads ? " at a load not recorded" : "");
		t = xasprintf("%s%sround %lld: %+.0f%%%s", list ? list : "", list ? ", " : "",
			      (long long)json_integer_value(json_object_get(o, "round")), 100 * ch,
			      load);
		free(list);
		list = t;
	}
	double p = json_number_value(json_object_get(h, "p"));
	char pw[32];
	snprintf(pw, sizeof(pw), p < 0.001 ? "p<0.001" : "p=%.2g", p);
	/* no load recorded: the rounds differ, what made them is not known */
	out = xasprintf("%+.0f%% to %+.0f%% %s (Cochran's Q %.1f over %lld df, %s: %s)", 100 * lo,
			100 * hi, loads ? "depending on load" : "across rounds",
			json_number_value(json_object_get(h, "q")),
			(long long)json_integer_value(json_object_get(h, "df")), pw,
			list ? list : "");
	free(list);
	return out;
}
