/* windows.c - the samples' windows in a results file (windows.h). */
#include "results/windows.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"

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
	if (m->busy) {
		json_t *b = json_array();
		for (size_t i = 0; i < m->n_samples; i++)
			json_array_append_new(b, num_or_null(m->busy[i]));
		json_object_set_new(o, "busy", b);
	}
	if (m->stop)
		json_object_set_new(o, "stop", json_string(m->stop));
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

int metric_windows_from_json(json_t *j, struct metric *m, const char **field)
{
	json_t *t = json_object_get(j, "t"), *b = json_object_get(j, "busy"), *x;
	size_t i, cap = m->cap_samples > m->n_samples ? m->cap_samples : m->n_samples + 1;
	*field = t && (!json_is_array(t) || json_array_size(t) != m->n_samples)   ? "t"
		 : b && (!json_is_array(b) || json_array_size(b) != m->n_samples) ? "busy"
										    : NULL;
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
	if (b) {
		m->busy = xcalloc(cap, sizeof(*m->busy));
		*field = "busy";
		json_array_foreach (b, i, x)
			if (num_or_nan(x, &m->busy[i]))
				return -1;
	}
	*field = NULL;
	return 0;
}
