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

/* Did the values v[0] (the A windows) and v[1] (the B windows) of `name`
 * move? Frees them. */
static int moved_values(double *v[2], const size_t n[2], const char *name, struct moved *out)
{
	double lo[2], hi[2];
	int ok = n[0] > 0 && n[1] > 0;
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

/* Did counter `name` move between the A and B legs of row? */
static int moved(const struct comparison *c, const struct compare_row *row, const char *name,
		 struct moved *out)
{
	double *v[2] = {NULL, NULL};
	size_t n[2] = {0, 0};
	for (size_t j = 0; j < c->n_legs; j++)
		values(row->m[j], name, &v[c->legs[j].variant == 'B'],
		       &n[c->legs[j].variant == 'B']);
	return moved_values(v, n, name, out);
}

/* A wrapped workload's facts beside one of its figures: the other rows of
 * its work.wrap results without a better direction (faults, max_rss, the
 * vmstat deltas, the cgroup's memory events), their samples one run of the
 * command each, as the windows of a probe's counters. */
static int is_wrap_fact(const struct comparison *c, const struct compare_row *row,
			const struct compare_row *f)
{
	if (f == row || f->control || f->better != BETTER_NONE || !f->probe ||
	    strcmp(f->probe, "work.wrap") != 0)
		return 0;
	for (size_t j = 0; j < c->n_legs; j++)
		if (f->pr[j] != row->pr[j] || !f->m[j])
			return 0;
	return 1;
}

static int wrap_moved(const struct comparison *c, const struct compare_row *f, struct moved *out)
{
	double *v[2] = {NULL, NULL};
	size_t n[2] = {0, 0};
	for (size_t j = 0; j < c->n_legs; j++) {
		int b = c->legs[j].variant == 'B';
		for (size_t k = 0; k < f->m[j]->n_samples; k++) {
			GROW_ONE(v[b], n[b]);
			v[b][n[b]++] = f->m[j]->samples[k];
		}
	}
	/* "minor_faults", "vmstat counter=thp_fault_alloc": the key after the probe */
	return moved_values(v, n, strncmp(f->key, "work.wrap ", 10) ? f->key : f->key + 10, out);
}

/* The moved counters of a row (mv, n of total looked at): its windows'
 * counters, or a wrapped workload's facts; -1 where its legs carry neither.
 * *names holds the counters' names mv points into: the caller's to decref
 * once it is done with mv. */
static int row_moved(const struct comparison *c, const struct compare_row *row, struct moved **mv,
		     size_t *n, size_t *total, json_t **names_out)
{
	json_t *names = *names_out = json_object(), *x;
	const char *k;
	int wrap = row->probe && strcmp(row->probe, "work.wrap") == 0, counters = 1;
	for (size_t j = 0; j < c->n_legs; j++) {
		if (!row->m[j] || !row->m[j]->counters) {
			counters = 0; /* a leg without counters: nothing to set beside */
			break;
		}
		json_object_foreach (json_object_get(row->m[j]->counters, "moved"), k, x)
			json_object_set(names, k, json_true());
	}
	*n = *total = 0;
	if (counters) {
		*total = json_object_size(names);
		*mv = xcalloc(*total ? *total : 1, sizeof(**mv));
		json_object_foreach (names, k, x)
			*n += moved(c, row, k, &(*mv)[*n]);
	} else if (wrap) {
		*mv = xcalloc(c->n_rows + 1, sizeof(**mv));
		for (size_t i = 0; i < c->n_rows; i++)
			if (is_wrap_fact(c, row, &c->rows[i])) {
				(*total)++;
				*n += wrap_moved(c, &c->rows[i], &(*mv)[*n]);
			}
	}
	return counters || (wrap && *total) ? 0 : -1;
}

static void row_mechanism(const struct comparison *c, struct compare_row *row)
{
	struct moved *mv = NULL;
	size_t n = 0, total;
	char *text = NULL;
	json_t *names;

	if (row_moved(c, row, &mv, &n, &total, &names) != 0) {
		free(mv);
		json_decref(names);
		return;
	}
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
