/* windows.c - the samples' windows in a results file (windows.h). */
#include "results/windows.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"

/* The arrays of one number per counted sample that the noise meter fills. */
static double **per_sample(struct metric *m, size_t k)
{
	double **v[] = {&m->busy, &m->wait, &m->gpu_others};
	return v[k];
}
static const char *const per_sample_names[] = {"busy", "wait", "gpu_others"};

/* A number or, where it is undefined, null. */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void metric_windows_to_json(const struct metric *m, int timed, json_t *o)
{
	if (timed && m->t1) {
		json_t *t = json_array();
		for (size_t i = 0; i < m->n_samples; i++)
			json_array_append_new(t, json_pack("[o, o]", num_or_null(m->t0[i]),
							   num_or_null(m->t1[i])));
		json_object_set_new(o, "t", t);
	}
	for (size_t k = 0; k < ARRAY_SIZE(per_sample_names); k++) {
		const double *v = *per_sample((struct metric *)m, k);
		json_t *a;
		if (!v)
			continue;
		a = json_array();
		for (size_t i = 0; i < m->n_samples; i++)
			json_array_append_new(a, num_or_null(v[i]));
		json_object_set_new(o, per_sample_names[k], a);
	}
	if (m->stop)
		json_object_set_new(o, "stop", json_string(m->stop));
	if (timed && m->counters)
		json_object_set(o, "counters", m->counters);
}

/* "counters": {"moved": {name: [count or null per sample]}, "unmarked":
 * [sample index]}: the arrays follow the samples, the counts are whole and
 * not negative, the indices are samples' and each once. */
static int counters_ok(json_t *c, size_t n)
{
	json_t *moved = json_object_get(c, "moved"), *un = json_object_get(c, "unmarked"), *a, *x;
	const char *k;
	size_t i;

	if (!json_is_object(c) || !json_is_object(moved) || json_object_size(c) != 1 + !!un)
		return -1;
	json_object_foreach (moved, k, a) {
		if (!*k || !json_is_array(a) || json_array_size(a) != n)
			return -1;
		json_array_foreach (a, i, x)
			if (!json_is_null(x) && (!json_is_integer(x) || json_integer_value(x) < 0))
				return -1;
	}
	if (un && (!json_is_array(un) || json_array_size(un) == 0 || json_array_size(un) > n))
		return -1;
	json_array_foreach (un, i, x)
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    (size_t)json_integer_value(x) >= n ||
		    (i > 0 &&
		     json_integer_value(x) <= json_integer_value(json_array_get(un, i - 1))))
			return -1;
	return 0;
}

/* A number, or null for undefined (NAN). */
static int num_or_nan(json_t *x, double *out)
{
	if (json_is_null(x)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(x))
		return -1;
	*out = json_number_value(x);
	return 0;
}

static int follows(json_t *a, size_t n)
{
	return !a || (json_is_array(a) && json_array_size(a) == n);
}

int metric_windows_from_json(json_t *j, struct metric *m, const char **field)
{
	json_t *t = json_object_get(j, "t"), *x, *c = json_object_get(j, "counters");
	size_t i, cap = m->cap_samples > m->n_samples ? m->cap_samples : m->n_samples + 1;
	*field = follows(t, m->n_samples) ? NULL : "t";
	if (!*field && c && counters_ok(c, m->n_samples) != 0)
		*field = "counters";
	for (size_t k = 0; k < ARRAY_SIZE(per_sample_names) && !*field; k++)
		if (!follows(json_object_get(j, per_sample_names[k]), m->n_samples))
			*field = per_sample_names[k];
	if (*field)
		return -1;
	/* the arrays follow the samples' capacity, as metric_add_sample keeps them */
	m->cap_samples = cap;
	m->samples = xrealloc(m->samples, cap * sizeof(*m->samples));
	if (t) {
		m->t0 = xcalloc(cap, sizeof(*m->t0));
		m->t1 = xcalloc(cap, sizeof(*m->t1));
		*field = "t";
		json_array_foreach (t, i, x)
			if (!json_is_array(x) || json_array_size(x) != 2 ||
			    num_or_nan(json_array_get(x, 0), &m->t0[i]) ||
			    num_or_nan(json_array_get(x, 1), &m->t1[i]))
				return -1;
	}
	for (size_t k = 0; k < ARRAY_SIZE(per_sample_names); k++) {
		json_t *a = json_object_get(j, per_sample_names[k]);
		double **v = per_sample(m, k);
		if (!a)
			continue;
		*v = xcalloc(cap, sizeof(**v));
		*field = per_sample_names[k];
		json_array_foreach (a, i, x)
			if (num_or_nan(x, &(*v)[i]))
				return -1;
	}
	if (c)
		m->counters = json_incref(c);
	*field = NULL;
	return 0;
}

/* The counters of the kept samples: each counter's entries of those
 * samples, the unmarked ones renumbered among them. */
static json_t *kept_counters(const struct metric *m, const char *keep)
{
	json_t *moved = json_object(), *un = json_array(), *a, *x, *out;
	const char *name;
	size_t i, at = 0;

	json_object_foreach (json_object_get(m->counters, "moved"), name, a) {
		json_t *b = json_array();
		json_array_foreach (a, i, x)
			if (i < m->n_samples && keep[i])
				json_array_append(b, x);
		json_object_set_new(moved, name, b);
	}
	for (i = 0; i < m->n_samples; i++) {
		size_t k;
		json_array_foreach (json_object_get(m->counters, "unmarked"), k, x)
			if (keep[i] && json_integer_value(x) == (json_int_t)i)
				json_array_append_new(un, json_integer((json_int_t)at));
		at += (size_t)keep[i];
	}
	out = json_pack("{s:o}", "moved", moved);
	if (json_array_size(un))
		json_object_set_new(out, "unmarked", un);
	else
		json_decref(un);
	return out;
}

struct metric *metric_kept(const struct metric *m)
{
	struct metric *k = xcalloc(1, sizeof(*k));
	char *keep = xcalloc(m->n_samples + 1, 1);
	size_t n = 0, cap;

	*k = *m;
	for (size_t i = 0; i < m->n_samples; i++)
		n += (size_t)(keep[i] = (char)!metric_sample_void(m, i));
	cap = n + 1;
	k->n_samples = 0;
	k->cap_samples = cap;
	k->samples = xcalloc(cap, sizeof(*k->samples));
	k->warmups = NULL; /* never summarized nor compared */
	k->n_warmups = k->cap_warmups = 0;
	k->t0 = m->t0 ? xcalloc(cap, sizeof(*k->t0)) : NULL;
	k->t1 = m->t1 ? xcalloc(cap, sizeof(*k->t1)) : NULL;
	for (size_t s = 0; s < ARRAY_SIZE(per_sample_names); s++)
		if (*per_sample((struct metric *)m, s))
			*per_sample(k, s) = xcalloc(cap, sizeof(double));
	for (size_t i = 0; i < m->n_samples; i++) {
		if (!keep[i])
			continue;
		if (k->t0) {
			k->t0[k->n_samples] = m->t0[i];
			k->t1[k->n_samples] = m->t1[i];
		}
		for (size_t s = 0; s < ARRAY_SIZE(per_sample_names); s++)
			if (*per_sample(k, s))
				(*per_sample(k, s))[k->n_samples] =
					(*per_sample((struct metric *)m, s))[i];
		k->samples[k->n_samples++] = m->samples[i];
	}
	k->counters = m->counters ? kept_counters(m, keep) : NULL;
	stats_summarize(k->samples, k->n_samples, &k->summary);
	free(keep);
	return k;
}

void metric_kept_free(struct metric *k)
{
	if (!k)
		return;
	free(k->samples);
	free(k->t0);
	free(k->t1);
	free(k->busy);
	free(k->wait);
	free(k->gpu_others);
	json_decref(k->counters);
	free(k);
}
