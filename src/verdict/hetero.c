/* hetero.c - effect heterogeneity over rounds (hetero.h). */
#include "verdict/hetero.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blocked.h"
#include "base/stats.h"
#include "base/util.h"
#include "machine/noise.h"
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

/* the rounds Q uses: a within-round variance and a log ratio */
static int q_round(const struct hetero_round *r)
{
	return r->var > 0 && isfinite(r->var) && isfinite(r->log_ratio);
}

int hetero_q(const struct hetero_round *r, size_t n, double *q, size_t *df, double *p)
{
	double sw = 0, swy = 0, mean;
	size_t k = 0;
	*q = 0;
	for (size_t i = 0; i < n; i++)
		if (q_round(&r[i])) {
			sw += 1 / r[i].var;
			swy += r[i].log_ratio / r[i].var;
			k++;
		}
	if (k < 2)
		return -1;
	mean = swy / sw;
	for (size_t i = 0; i < n; i++)
		if (q_round(&r[i]))
			*q += (r[i].log_ratio - mean) * (r[i].log_ratio - mean) / r[i].var;
	*df = k - 1;
	*p = hetero_chi2_upper(*q, *df);
	return 0;
}

/* the rounds hetero_q uses that recorded a load */
static int load_round(const struct hetero_round *r)
{
	return q_round(r) && isfinite(r->busy);
}

int hetero_load_slope(const struct hetero_round *r, size_t n, double *slope, double *p)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, lo = INFINITY, hi = -INFINITY;
	double mx, my, b, a, resid = 0, disp, se;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double w;
		if (!load_round(&r[i]))
			continue;
		w = 1 / r[i].var;
		sw += w;
		sx += w * r[i].busy;
		sy += w * r[i].log_ratio;
		lo = fmin(lo, r[i].busy);
		hi = fmax(hi, r[i].busy);
		k++;
	}
	/* a slope needs a third round, and loads that differ by what the
	 * busy rule calls a difference (§4.14) */
	if (k < 3 || hi - lo < NOISE_BUSY_CPUS)
		return -1;
	mx = sx / sw;
	my = sy / sw;
	for (size_t i = 0; i < n; i++)
		if (load_round(&r[i])) {
			double w = 1 / r[i].var;
			sxx += w * (r[i].busy - mx) * (r[i].busy - mx);
			sxy += w * (r[i].busy - mx) * (r[i].log_ratio - my);
		}
	b = sxy / sxx;
	a = my - b * mx;
	for (size_t i = 0; i < n; i++)
		if (load_round(&r[i])) {
			double e = r[i].log_ratio - a - b * r[i].busy;
			resid += e * e / r[i].var;
		}
	/* the residual dispersion, when the rounds scatter around the line
	 * more than their own noise: the slope's error grows with it */
	disp = fmax(1, resid / (double)(k - 2));
	se = sqrt(disp / sxx);
	*slope = b;
	*p = se > 0 ? stats_t_p2(b / se, (unsigned)(k - 2)) : (b != 0 ? 0 : 1);
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
		int het = p < HETERO_ALPHA && hi - lo > log(1 + THRESHOLD_MIN);
		double slope, lp;
		int sloped = hetero_load_slope(r, n, &slope, &lp) == 0;
		/* on the load only when the rounds' changes go with their loads:
		 * rounds that differ as much on a quiet machine (a rate that rises
		 * over a run, a chase that moves between processes) are not */
		out = json_pack("{s:f, s:I, s:f, s:b, s:b}", "q", q, "df", (json_int_t)df, "p", p,
				"heterogeneous", het, "depends_on_load",
				het && sloped && lp < HETERO_ALPHA);
		if (sloped) {
			json_object_set_new(out, "load_slope", json_real(exp(slope) - 1));
			json_object_set_new(out, "load_p", json_real(lp));
		}
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
	int loads = 0, on_load = json_is_true(json_object_get(h, "depends_on_load"));
	json_t *het = json_object_get(h, "heterogeneous");
	/* files written before 2026-12-07 have depends_on_load alone */
	if (!(het ? json_is_true(het) : on_load))
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
	json_t *ls = json_object_get(h, "load_slope");
	char pw[32], slope[96] = "";
	snprintf(pw, sizeof(pw), p < 0.001 ? "p<0.001" : "p=%.2g", p);
	if (on_load && json_is_number(ls))
		snprintf(slope, sizeof(slope), "; B/A %.2fx per other CPU busy, p=%.2g",
			 1 + json_number_value(ls),
			 json_number_value(json_object_get(h, "load_p")));
	/* no load recorded, or loads the changes do not follow: the rounds
	 * differ, what made them is not known */
	out = xasprintf("%+.0f%% to %+.0f%% %s (Cochran's Q %.1f over %lld df, %s%s: %s)", 100 * lo,
			100 * hi,
			on_load ? "depending on load"
			: loads ? "across rounds, not with their load"
				: "across rounds",
			json_number_value(json_object_get(h, "q")),
			(long long)json_integer_value(json_object_get(h, "df")), pw, slope,
			list ? list : "");
	free(list);
	return out;
}
