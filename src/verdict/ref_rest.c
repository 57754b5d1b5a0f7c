/* src/verdict/ref_rest.c - the figures no reference path names
 * (ref_rest.h). */
#include "verdict/ref_rest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "machine/limits.h"
#include "verdict/ref_busy.h"

/* A share of the limit above this is more than the path can carry: the
 * figure counts bytes that did not cross it (or the limit is wrong). */
#define REST_OVER 1.005

static const char *label_in(const struct label *l, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].key, key) == 0)
			return l[i].value;
	return NULL;
}

static int same_labels(const struct label *a, size_t na, const struct label *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		const char *x = label_in(b, nb, a[i].key);
		if (!x || strcmp(x, a[i].value) != 0)
			return 0;
	}
	return 1;
}

static int covered(const struct fleet_check *v, size_t n, const struct probe_result *p,
		   const struct metric *m)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].probe && v[i].metric && strcmp(v[i].probe, p->name) == 0 &&
		    strcmp(v[i].metric, m->name) == 0 &&
		    same_labels(v[i].labels, v[i].n_labels, m->labels, m->n_labels))
			return 1;
	return 0;
}

static int is_bandwidth(const struct metric *m)
{
	return m->unit == UNIT_GB_S || m->unit == UNIT_GIB_S;
}

/* The kind's reference values for p's metric at other labels: " (the
 * reference of KIND for it is at LABELS)", or "" (new string). */
static char *nearest_ref(const struct ref_set *refs, const int *match, const char *probe,
			 const char *metric)
{
	for (size_t k = 0; refs && k < refs->n; k++)
		for (size_t i = 0; match[k] && i < refs->kinds[k].n_values; i++) {
			const struct ref_value *v = &refs->kinds[k].values[i];
			char labels[256] = "";
			size_t len = 0;
			if (strcmp(v->probe, probe) || strcmp(v->metric, metric) || v->limit)
				continue;
			for (size_t j = 0; j < v->n_labels && len < sizeof(labels); j++)
				len += (size_t)snprintf(labels + len, sizeof(labels) - len,
							"%s%s=%s", j ? "," : "", v->labels[j].key,
							v->labels[j].value);
			return xasprintf("; %s's reference for %s %s is of %s", refs->kinds[k].kind,
					 probe, metric, labels);
		}
	return xstrdup("");
}

/* The largest figure of r on path kind `what` (GB/s the path carried), and
 * which: the nearest this run came to a limit it does not know. */
static double ceiling(const struct run *r, const char *what, char *which, size_t len)
{
	double best = NAN;
	for (size_t p = 0; p < r->n_probes; p++)
		for (size_t j = 0; j < r->probes[p].n_metrics; j++) {
			const struct metric *m = &r->probes[p].metrics[j];
			const struct limits_row *row =
				limits_row_of(r->probes[p].name, m->name, m->labels, m->n_labels);
			double x;
			char labels[192];
			if (!row || !row->kind || strcmp(row->kind, what) || !m->n_samples ||
			    !is_bandwidth(m))
				continue;
			x = limits_path_gbps(row, m, stats_median(m->samples, m->n_samples), NULL);
			if (isfinite(x) && !(x <= best)) {
				best = x;
				metric_labels_str(m, labels, sizeof(labels));
				snprintf(which, len, "%s %s %s", r->probes[p].name, m->name,
					 labels);
			}
		}
	return best;
}

/* Judges c (a figure of p's metric m) against its row's limit on host. */
static void against_limit(struct fleet_check *c, const struct run *r, const struct probe_result *p,
			  const struct metric *m, const struct limits_row *row, const json_t *host,
			  const char *near)
{
	const char *key = NULL, *dev = label_in(m->labels, m->n_labels, "device");
	const json_t *l = limits_key_for(host, row->kind, dev, &key);
	double ways, path = limits_path_gbps(row, m, c->value, &ways), lim;
	(void)p;
	if (!l) {
		c->reason = xasprintf("no reference of this kind for it, and no %s limit in the "
				      "fingerprint (no such device recorded)%s",
				      row->kind, near);
		return;
	}
	if (!json_is_number(json_object_get(l, "gbps"))) {
		char which[256] = "";
		double top = ceiling(r, row->kind, which, sizeof(which));
		const char *why = json_string_value(json_object_get(l, "unknown")) ?: "?";
		if (isfinite(top) && top > 0 && isfinite(path))
			c->reason = xasprintf(
				"no reference of this kind for it, and the %s limit is unknown: "
				"%s. The most this run put on that path, %.1f GB/s (%s), is a "
				"measured ceiling, not a limit: this figure is %.0f%% of it%s",
				key, why, top, which, 100 * path / top, near);
		else
			c->reason = xasprintf("no reference of this kind for it, and the %s limit "
					      "is unknown: %s%s",
					      key, why, near);
		return;
	}
	lim = ways * json_number_value(json_object_get(l, "gbps"));
	c->reference = lim / (m->unit == UNIT_GIB_S ? 1.073741824 : 1) / row->bytes;
	if (isfinite(path) && path > REST_OVER * lim) {
		c->status = CHECK_FAIL;
		c->reason =
			xasprintf("%.1f%% of the %s limit %.1f GB/s (%s): more than the path "
				  "can carry, so the figure counts bytes that did not cross it, "
				  "or the limit's facts are wrong",
				  100 * path / lim, key, lim,
				  json_string_value(json_object_get(l, "formula")) ?: "?");
		return;
	}
	c->reason = xasprintf("%.1f%% of the %s limit %.1f GB/s (%s%s; %s); no reference of "
			      "this kind at these labels and no efficiency band for them, so "
			      "the share is said, not judged%s",
			      100 * path / lim, key, lim,
			      json_string_value(json_object_get(l, "formula")) ?: "?",
			      ways > 1 ? ", both directions: twice one's" : "", row->why, near);
}

void ref_check_rest(const struct ref_set *refs, const int *match, const struct run *r,
		    struct fleet_check **v, size_t *n)
{
	json_t *hold = NULL;
	const json_t *host = r->host;
	if (host && !json_object_get(host, "limits")) { /* a file from before limits */
		hold = json_copy((json_t *)host);
		json_object_set_new(hold, "limits", limits_derive(host));
		host = hold;
	}
	for (size_t p = 0; p < r->n_probes; p++) {
		const struct probe_result *pr = &r->probes[p];
		if (pr->status != STATUS_OK)
			continue;
		for (size_t j = 0; j < pr->n_metrics; j++) {
			const struct metric *m = &pr->metrics[j];
			const struct limits_row *row;
			struct fleet_check *c;
			char *near;
			if (!m->n_samples || (m->better == BETTER_NONE && !is_bandwidth(m)) ||
			    covered(*v, *n, pr, m))
				continue;
			GROW_ONE(*v, *n);
			c = &(*v)[(*n)++];
			memset(c, 0, sizeof(*c));
			c->rest = 1;
			c->kind = xstrdup("every figure");
			c->path = xasprintf("%s %s", pr->name, m->name);
			c->means = xstrdup(m->desc ? m->desc : "");
			c->probe = xstrdup(pr->name);
			c->metric = xstrdup(m->name);
			c->labels = fleet_labels_dup(m->labels, m->n_labels);
			c->n_labels = m->n_labels;
			c->unit = m->unit;
			c->better = m->better;
			c->value = stats_median(m->samples, m->n_samples);
			c->reference = NAN;
			c->tolerance = NAN;
			c->status = CHECK_NA;
			c->source =
				xstrdup("the fingerprint's physical limits (docs/design.md §5.17)");
			c->date = xstrdup(r->start_time ? r->start_time : "?");
			near = nearest_ref(refs, match, pr->name, m->name);
			row = limits_row_of(pr->name, m->name, m->labels, m->n_labels);
			if (metric_receipt_failed(m))
				c->reason =
					xasprintf("receipt failed: %s", metric_receipt_failed(m));
			else if (row && row->kind && is_bandwidth(m))
				against_limit(c, r, pr, m, row, host, near);
			else if (row)
				c->reason = xasprintf("no reference of this kind for it, and no "
						      "physical limit holds: %s%s",
						      row->why, near);
			else if (is_bandwidth(m))
				c->reason = xasprintf("no reference of this kind for it, and the "
						      "limit table (src/machine/limits.c) has no "
						      "row for this bandwidth%s",
						      near);
			else
				c->reason = xasprintf("no reference of this kind for it, and no "
						      "physical limit bounds a figure in %s%s",
						      *unit_name(m->unit) ? unit_name(m->unit)
									  : "this unit",
						      near);
			free(near);
			/* measured under load: said, as on the kind's paths */
			if ((c->load = ref_busy_note(pr->noise)) && c->status == CHECK_NA) {
				char *t = xasprintf("%s; measured %s", c->reason, c->load);
				free(c->reason);
				c->reason = t;
			}
		}
	}
	json_decref(hold);
}
