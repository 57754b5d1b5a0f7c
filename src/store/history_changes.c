/* history_changes.c - change points of the kept medians, per metric, label
 * set and machine kind, with what changed in the fingerprint where the
 * level did (history.h; docs/design.md §3.5). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/changepoint.h"
#include "base/util.h"
#include "results/results_json.h"
#include "store/history.h"
#include "store/history_impl.h"

/* "name a -> b" for each scalar of two flat objects that differs
 * (missing reads "-"), appended to *s with prefix before each name. */
static void diff_flat(char **s, const char *prefix, json_t *a, json_t *b)
{
	const char *k;
	json_t *v;
	json_t *both[2] = {a, b};

	for (int side = 0; side < 2; side++)
		json_object_foreach (both[side], k, v) {
			json_t *o = json_object_get(both[!side], k);
			char *va, *vb, *more;

			if (json_is_object(v) || json_is_array(v) || (side == 1 && o))
				continue; /* each name once, scalars only */
			if (o && json_equal(o, v))
				continue;
			va = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
			vb = o ? json_dumps(o, JSON_ENCODE_ANY) : NULL;
			more = xasprintf("%s%s%s%s %s -> %s", *s ? *s : "", *s ? ", " : "", prefix,
					 k, side ? (vb ? vb : "-") : va,
					 side ? va : (vb ? vb : "-"));
			free(*s);
			*s = more;
			free(va);
			free(vb);
		}
}

static json_t *gpu_driver(const struct run *r)
{
	json_t *d = json_array_get(json_object_get(json_object_get(r->host, "gpu"), "devices"), 0);

	return json_object_get(d, "driver");
}

/* What differs between the fingerprints of runs a and b: kernel, GPU
 * driver, mempath version and commit, knobs at the start; a new string,
 * NULL when nothing recorded does. */
static char *fingerprint_diff(const struct run *a, const struct run *b)
{
	char *s = NULL;
	json_t *ha = json_object(), *hb = json_object();

	json_object_set(ha, "kernel", json_object_get(a->host, "kernel") ?: json_null());
	json_object_set(hb, "kernel", json_object_get(b->host, "kernel") ?: json_null());
	json_object_set_new(ha, "mempath",
			    a->tool_version ? json_string(a->tool_version) : json_null());
	json_object_set_new(hb, "mempath",
			    b->tool_version ? json_string(b->tool_version) : json_null());
	json_object_set_new(ha, "mempath_git",
			    a->git_hash ? json_string(a->git_hash) : json_null());
	json_object_set_new(hb, "mempath_git",
			    b->git_hash ? json_string(b->git_hash) : json_null());
	diff_flat(&s, "", ha, hb);
	diff_flat(&s, "driver.", gpu_driver(a), gpu_driver(b));
	diff_flat(&s, "knob ", a->knobs_start, b->knobs_start);
	json_decref(ha);
	json_decref(hb);
	return s;
}

/* The changes of one series (points [lo, hi) of one label set and kind). */
static void series_changes(struct history *h, struct history_series *se, int lower_better,
			   const struct cp_opts *o)
{
	double *x = xcalloc(se->n ? se->n : 1, sizeof(*x));
	size_t *idx = xcalloc(se->n ? se->n : 1, sizeof(*idx)), m = 0, k;
	struct cp_change *c;

	for (size_t i = 0; i < se->n; i++)
		if (isfinite(se->p[i].median)) {
			idx[m] = i;
			x[m++] = se->p[i].median;
		}
	c = xcalloc(m ? m : 1, sizeof(*c));
	k = changepoint_find(x, m, o, c, m);
	se->c = xcalloc(k ? k : 1, sizeof(*se->c));
	for (size_t j = 0; j < k; j++) {
		struct history_change *hc = &se->c[se->n_c++];
		struct run *a = history_get(h, se->p[idx[c[j].at - 1]].run_id);
		struct run *b = history_get(h, se->p[idx[c[j].at]].run_id);

		hc->cp = c[j];
		/* back to the series' own points (those without a median left out) */
		hc->cp.at = idx[c[j].at];
		hc->cp.seg_start = idx[c[j].seg_start];
		hc->cp.seg_end = c[j].seg_end < m ? idx[c[j].seg_end] : se->n;
		hc->worse = lower_better ? c[j].change > 0 : c[j].change < 0;
		hc->changed = a && b ? fingerprint_diff(a, b) : NULL;
		run_free(a);
		run_free(b);
	}
	free(c);
	free(x);
	free(idx);
}

int history_changes(struct history *h, const char *probe, const char *metric, const char *labels,
		    const char *kind, const char *host, struct history_series **out, size_t *n,
		    char **unit, char **better)
{
	struct history_point *p;
	size_t np;
	struct cp_opts o;

	*out = NULL;
	*n = 0;
	if (history_trend(h, probe, metric, labels, kind, host, 0, &p, &np, unit, better) != 0)
		return -1;
	changepoint_opts_default(&o);
	/* points come by label set, then time: each label set split by kind,
	 * in time order within each */
	for (size_t i = 0; i < np;) {
		size_t j = i;

		while (j < np && strcmp(p[j].labels, p[i].labels) == 0)
			j++;
		for (size_t k = i; k < j; k++) {
			struct history_series *se = NULL;

			if (!p[k].labels)
				continue; /* taken by an earlier series of its kind */
			GROW_ONE(*out, *n);
			se = &(*out)[(*n)++];
			memset(se, 0, sizeof(*se));
			se->kind = xstrdup(p[k].kind ? p[k].kind : "?");
			se->labels = xstrdup(p[k].labels);
			for (size_t q = k; q < j; q++)
				if (p[q].labels &&
				    strcmp(p[q].kind ? p[q].kind : "?", se->kind) == 0) {
					GROW_ONE(se->p, se->n);
					se->p[se->n++] = p[q];
					if (q > k)
						p[q].labels = NULL; /* moved */
				}
			p[k].labels = NULL;
		}
		i = j;
	}
	free(p); /* the points moved into the series */
	for (size_t s = 0; s < *n; s++)
		series_changes(h, &(*out)[s], *better && strcmp(*better, "lower") == 0, &o);
	return history_error(h) == HISTORY_OK ? 0 : -1;
}

void history_series_free(struct history_series *v, size_t n)
{
	for (size_t s = 0; s < n; s++) {
		for (size_t i = 0; i < v[s].n_c; i++)
			free(v[s].c[i].changed);
		free(v[s].c);
		for (size_t i = 0; i < v[s].n; i++) {
			free(v[s].p[i].start_time);
			free(v[s].p[i].label);
			free(v[s].p[i].host);
			free(v[s].p[i].kind);
			free(v[s].p[i].labels);
		}
		free(v[s].p);
		free(v[s].kind);
		free(v[s].labels);
	}
	free(v);
}

int history_metric_names(struct history *h, const char *kind, char ***probes, char ***metrics,
			 size_t *n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db,
				    "SELECT DISTINCT m.probe, m.metric FROM metrics m"
				    " JOIN runs r ON r.id = m.run_id"
				    " WHERE (?1 IS NULL OR r.kind = ?1) AND m.better != 'none'"
				    " ORDER BY 1, 2",
				    -1, &st, NULL);

	*probes = *metrics = NULL;
	*n = 0;
	if (rc != SQLITE_OK)
		return history_fail(h, rc, "listing the metrics");
	if (kind)
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		GROW_ONE(*probes, *n);
		GROW_ONE(*metrics, *n);
		(*probes)[*n] = xstrdup((const char *)sqlite3_column_text(st, 0));
		(*metrics)[(*n)++] = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : history_fail(h, rc, "listing the metrics");
}
