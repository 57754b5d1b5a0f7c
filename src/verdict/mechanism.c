/* mechanism.c - the counters that moved with a verdict (mechanism.h). */
#include "verdict/mechanism.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"

struct moved {
	const char *name;
	double a, b; /* medians */
	int appears; /* from or to ~0: the strongest evidence, ranked first */
	double size; /* |b - a| against the counter's own window-to-window noise */
};

/* The windows' values of counter `name` in m (a counter absent from moved
 * read 0 over every window read), appended to *v. */
static void values(const struct metric *m, const char *name, double **v, size_t *n)
{
	json_t *a = json_object_get(json_object_get(m->counters, "moved"), name);
	json_t *un = json_object_get(m->counters, "unmarked"), *x;
	size_t i, k;

	for (k = 0; k < m->n_samples; k++) {
		int skip = 0;
		json_array_foreach (un, i, x)
			skip |= (size_t)json_integer_value(x) == k;
		if (skip || (a && !json_is_integer(json_array_get(a, k))))
			continue;
		GROW_ONE(*v, *n);
		(*v)[(*n)++] = a ? (double)json_integer_value(json_array_get(a, k)) : 0;
	}
}

/* A counter that appears or vanishes first, then the change against its
 * own noise, then the name. */
static int by_size(const void *x, const void *y)
{
	const struct moved *a = x, *b = y;
	if (a->appears != b->appears)
		return b->appears - a->appears;
	return a->size < b->size ? 1 : a->size > b->size ? -1 : strcmp(a->name, b->name);
}

/* The spread of n window values about their median m: the median absolute
 * deviation as a standard deviation (1.4826 MAD). */
static double spread(const double *v, size_t n, double m)
{
	double *d = xcalloc(n + 1, sizeof(*d)), s;
	for (size_t k = 0; k < n; k++)
		d[k] = fabs(v[k] - m);
	s = 1.4826 * stats_median(d, n);
	free(d);
	return s;
}

/* Did counter `name` move between the A and B legs of row? */
static int moved(const struct comparison *c, const struct compare_row *row, const char *name,
		 struct moved *out)
{
	double *v[2] = {NULL, NULL}, lo[2], hi[2];
	size_t n[2] = {0, 0};
	int ok;

	for (size_t j = 0; j < c->n_legs; j++)
		values(row->m[j], name, &v[c->legs[j].variant == 'B'],
		       &n[c->legs[j].variant == 'B']);
	ok = n[0] > 0 && n[1] > 0;
	for (int s = 0; ok && s < 2; s++) {
		lo[s] = hi[s] = v[s][0];
		for (size_t k = 1; k < n[s]; k++) {
			lo[s] = fmin(lo[s], v[s][k]);
			hi[s] = fmax(hi[s], v[s][k]);
		}
	}
	if (ok) {
		double sa, sb, small, big, big_spread;
		out->name = name;
		out->a = stats_median(v[0], n[0]);
		out->b = stats_median(v[1], n[1]);
		sa = spread(v[0], n[0], out->a);
		sb = spread(v[1], n[1], out->b);
		small = fmin(out->a, out->b);
		big = fmax(out->a, out->b);
		big_spread = out->a > out->b ? sa : sb;
		/* from or to ~0: the smaller side within the larger's own spread of
		 * nothing, or under MECHANISM_ZERO of it */
		out->appears = big > 0 && small <= fmax(big_spread, MECHANISM_ZERO * big);
		/* counts: a spread under 1 is one event */
		out->size = fabs(out->b - out->a) / fmax(1, fmax(sa, sb));
		ok = (hi[0] < lo[1] || hi[1] < lo[0]) &&
		     fabs(out->b - out->a) >= MECHANISM_MIN_CHANGE * fmax(out->a, out->b);
	}
	free(v[0]);
	free(v[1]);
	return ok;
}

static void row_mechanism(const struct comparison *c, struct compare_row *row)
{
	json_t *names = json_object();
	struct moved *mv;
	size_t n = 0, total;
	const char *k;
	json_t *x;
	char *text = NULL;

	for (size_t j = 0; j < c->n_legs; j++) {
		if (!row->m[j] || !row->m[j]->counters)
			goto done; /* a leg without counters: nothing to set beside */
		json_object_foreach (json_object_get(row->m[j]->counters, "moved"), k, x)
			json_object_set(names, k, json_true());
	}
	total = json_object_size(names);
	mv = xcalloc(total ? total : 1, sizeof(*mv));
	json_object_foreach (names, k, x)
		n += moved(c, row, k, &mv[n]);
	qsort(mv, n, sizeof(*mv), by_size);
	for (size_t i = 0; i < n && i < MECHANISM_MAX; i++) {
		char change[32] = "";
		char *t;
		if (mv[i].a > 0)
			snprintf(change, sizeof(change), " (%+.1f%%)",
				 100 * (mv[i].b / mv[i].a - 1));
		t = xasprintf("%s%s%s %.0f -> %.0f%s", text ? text : "", text ? "; " : "",
			      mv[i].name, mv[i].a, mv[i].b, change);
		free(text);
		text = t;
	}
	if (n > MECHANISM_MAX) {
		char *t = xasprintf("%s; %zu more", text, n - MECHANISM_MAX);
		free(text);
		text = t;
	}
	row->mechanism = text ? text : xasprintf("none of %zu counters moved", total);
	row->mech = xcalloc(n + 1, sizeof(*row->mech));
	for (size_t i = 0; i < n; i++)
		row->mech[row->n_mech++] =
			(struct mech_counter){xstrdup(mv[i].name), mv[i].a, mv[i].b};
	free(mv);
done:
	json_decref(names);
}

void mechanism_rows(struct comparison *c)
{
	for (size_t i = 0; i < c->n_rows; i++) {
		struct compare_row *row = &c->rows[i];
		if (row->verdict == VERDICT_WIN || row->verdict == VERDICT_LOSS)
			row_mechanism(c, row);
	}
}
