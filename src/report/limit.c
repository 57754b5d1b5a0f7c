/* limit.c - figures beside their physical limits (limit.h). */
#include "report/limit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "machine/limits.h"

/* The GPU a metric ran on: its "device" label, else its probe's "device"
 * parameter, else 0. */
static const char *device_of(const struct probe_result *p, const struct metric *m)
{
	for (size_t i = 0; i < m->n_labels; i++)
		if (strcmp(m->labels[i].key, "device") == 0)
			return m->labels[i].value;
	for (size_t i = 0; i < p->n_params; i++)
		if (strcmp(p->params[i].key, "device") == 0)
			return p->params[i].value;
	return NULL;
}

/* The limit of m on host, from the limits it records, else derived now
 * from the facts it records (a file made before limits were: its PCIe link,
 * its memory clock); *hold keeps a derived one alive until json_decref. */
static const json_t *limit_of(const json_t *host, const struct probe_result *p,
			      const struct metric *m, const char **key, json_t **hold)
{
	const struct limits_row *row = limits_row_of(p->name, m->name, m->labels, m->n_labels);
	*hold = NULL;
	if (!host || !row || !row->kind || (m->unit != UNIT_GB_S && m->unit != UNIT_GIB_S))
		return NULL;
	if (!json_object_get(host, "limits")) {
		*hold = json_copy((json_t *)host);
		json_object_set_new(*hold, "limits", limits_derive(host));
		host = *hold;
	}
	return limits_key_for(host, row->kind, device_of(p, m), key);
}

/* Does a limit hold for m (a bandwidth metric with a path in the table)? */
static int has_limit(const json_t *host, const struct probe_result *p, const struct metric *m)
{
	const struct limits_row *row = limits_row_of(p->name, m->name, m->labels, m->n_labels);
	return host && row && row->kind && (m->unit == UNIT_GB_S || m->unit == UNIT_GIB_S);
}

int report_limit_share(const json_t *host, const struct probe_result *p, const struct metric *m,
		       char *buf, size_t len)
{
	const char *key = NULL;
	json_t *hold;
	const json_t *l = limit_of(host, p, m, &key, &hold);
	double lim, med;
	int rc = 0;
	buf[0] = '\0';
	const struct limits_row *row = limits_row_of(p->name, m->name, m->labels, m->n_labels);
	if (!has_limit(host, p, m))
		rc = -1;
	else if (!l)
		snprintf(buf, len, "limit unknown: no such device in the fingerprint");
	else if (json_is_string(json_object_get(l, "unknown")))
		snprintf(buf, len, "limit (%s) unknown: %s", key,
			 json_string_value(json_object_get(l, "unknown")));
	else {
		double ways;
		med = m->n_samples ? stats_median(m->samples, m->n_samples) : NAN;
		med = limits_path_gbps(row, m, med, &ways);
		lim = ways * json_number_value(json_object_get(l, "gbps"));
		if (!(lim > 0) || !isfinite(med)) {
			snprintf(buf, len, "limit %.1f GB/s (%s), no figure", lim, key);
		} else {
			snprintf(buf, len, "%.1f%% of %.1f GB/s (%s: %s%s%s)", 100.0 * med / lim,
				 lim, key, json_string_value(json_object_get(l, "formula")) ?: "?",
				 ways > 1 ? ", both directions at once: twice that" : "",
				 row->bytes > 1 ? "; the figure counts each byte once, the path "
						  "carried it read and written"
						: "");
			rc = 1;
		}
	}
	json_decref(hold);
	return rc;
}

void report_limit_lines(const json_t *host, const struct probe_result *p, enum report_format fmt,
			FILE *f)
{
	int any = 0, rc;
	char last[512] = "";
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		char labels[256], share[512], *line;
		if ((rc = report_limit_share(host, p, m, share, sizeof(share))) < 0)
			continue;
		/* an unknown limit once per probe and reason, not per row */
		if (rc == 0 && strcmp(share, last) == 0)
			continue;
		snprintf(last, sizeof(last), "%s", share);
		metric_labels_str(m, labels, sizeof(labels));
		line = rc ? xasprintf("%s%s%s: %s", m->name, labels[0] ? " " : "", labels, share)
			  : xasprintf("%s: %s", m->name, share);
		if (fmt == REPORT_MD) {
			char *e = report_md_escape(line);
			fprintf(f, "%s- limit: %s\n", any ? "" : "\n", e);
			free(e);
		} else if (fmt == REPORT_HTML) {
			fputs(any ? "" : "<ul class=\"limits\">\n", f);
			fputs("<li>limit: ", f);
			report_html_text(f, line);
			fputs("</li>\n", f);
		} else {
			char *e = report_term_escape(line);
			fprintf(f, "   limit: %s\n", e);
			free(e);
		}
		any = 1;
		free(line);
	}
	if (any && fmt == REPORT_HTML)
		fputs("</ul>\n", f);
}

json_t *report_limit_json(const struct run *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_probes; i++) {
		const struct probe_result *p = &r->probes[i];
		for (size_t k = 0; k < p->n_metrics; k++) {
			const struct metric *m = &p->metrics[k];
			const char *key = NULL;
			json_t *hold;
			const json_t *l = limit_of(r->host, p, m, &key, &hold);
			json_t *o, *labels;
			double lim, med;
			if (!l) {
				json_decref(hold);
				continue;
			}
			labels = json_object();
			for (size_t j = 0; j < m->n_labels; j++)
				json_object_set_new(labels, m->labels[j].key,
						    json_string(m->labels[j].value));
			o = json_pack("{s:s, s:s, s:o, s:s}", "probe", p->name, "metric", m->name,
				      "labels", labels, "limit_key", key);
			double ways, path;
			med = m->n_samples ? stats_median(m->samples, m->n_samples) : NAN;
			path = limits_path_gbps(
				limits_row_of(p->name, m->name, m->labels, m->n_labels), m, med,
				&ways);
			lim = ways * json_number_value(json_object_get(l, "gbps"));
			if (json_is_string(json_object_get(l, "unknown")))
				json_object_set(o, "unknown", json_object_get(l, "unknown"));
			else if (lim > 0 && isfinite(med))
				json_object_set_new(o, "share",
						    json_pack("{s:f, s:f, s:f}", "median", med,
							      "limit_gbps", lim, "share_pct",
							      round(1000.0 * path / lim) / 10));
			json_array_append_new(a, o);
			json_decref(hold);
		}
	}
	if (json_array_size(a) == 0) {
		json_decref(a);
		return NULL;
	}
	return a;
}
