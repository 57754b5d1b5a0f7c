/* ref_beside.c - the reference tools' figures of an imported run as the
 * references of a kind (reference.h: ref_beside; docs/design.md §5.20). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "verdict/reference.h"

/* Every sample of the metrics of tools that are the figure v names (its
 * probe, its metric, its labels among theirs), in a new array of *n (NULL
 * when none). */
static double *tool_samples(const struct ref_value *v, const struct run *tools, size_t *n)
{
	double *all = NULL;
	*n = 0;
	for (size_t p = 0; p < tools->n_probes; p++) {
		const struct probe_result *pr = &tools->probes[p];
		if (strcmp(pr->name, v->tf_probe) != 0)
			continue;
		for (size_t j = 0; j < pr->n_metrics; j++) {
			const struct metric *m = &pr->metrics[j];
			if (strcmp(m->name, v->tf_metric) != 0 || m->unit != v->unit ||
			    !labels_subset(v->tf_labels, v->n_tf_labels, m->labels, m->n_labels))
				continue;
			all = xrealloc(all, (*n + m->n_samples + 1) * sizeof(*all));
			memcpy(all + *n, m->samples, m->n_samples * sizeof(*all));
			*n += m->n_samples;
		}
	}
	return all;
}

/* The median of tool_samples, or NAN. */
static double figure_of(const struct ref_value *v, const struct run *tools, size_t *n_found)
{
	double *all = tool_samples(v, tools, n_found), med = NAN;
	if (*n_found)
		med = stats_median(all, *n_found);
	free(all);
	return med;
}

size_t ref_beside(struct ref_set *refs, const struct run *tools, const char *file)
{
	size_t replaced = 0;
	for (size_t k = 0; k < refs->n; k++)
		for (size_t i = 0; i < refs->kinds[k].n_values; i++) {
			struct ref_value *v = &refs->kinds[k].values[i];
			size_t n;
			double x;
			if (!v->tf_probe || v->limit)
				continue;
			x = figure_of(v, tools, &n);
			if (!(x > 0) || !isfinite(x))
				continue;
			char *src = xasprintf(
				"%s (%s, imported: %zu sample%s of %s %s), beside this "
				"run; the kind's own reference was %.1f (%s)",
				file, v->tool ? v->tool : v->tf_probe, n, n == 1 ? "" : "s",
				v->tf_probe, v->tf_metric, v->value, v->source);
			free(v->source);
			v->source = src;
			free(v->date);
			v->date = xstrdup(tools->start_time ? tools->start_time : "?");
			v->value = x;
			replaced++;
		}
	return replaced;
}

/* The reference value of refs, of a kind host matches, whose metric is m
 * of probe pr (its probe, metric and labels among m's) and whose tool
 * figure tools holds, or NULL. */
static const struct ref_value *tool_value_of(const struct ref_set *refs, const struct run *tools,
					     json_t *host, const struct probe_result *pr,
					     const struct metric *m)
{
	for (size_t k = 0; k < refs->n; k++)
		for (size_t i = 0;
		     ref_matches(&refs->kinds[k], host) && i < refs->kinds[k].n_values; i++) {
			const struct ref_value *v = &refs->kinds[k].values[i];
			size_t n;

			if (!v->tf_probe || v->limit || strcmp(v->probe, pr->name) != 0 ||
			    strcmp(v->metric, m->name) != 0 || v->unit != m->unit ||
			    !labels_subset(v->labels, v->n_labels, m->labels, m->n_labels))
				continue;
			if (figure_of(v, tools, &n) > 0 && n)
				return v;
		}
	return NULL;
}

int run_is_imported(const struct run *r)
{
	for (size_t p = 0; p < r->n_probes; p++)
		if (strncmp(r->probes[p].name, "ref.", 4) != 0)
			return 0;
	return r->n_probes > 0;
}

struct run *ref_tools_as(const struct ref_set *refs, const struct run *tools, struct run *mine)
{
	struct run *out = run_new();
	size_t kept = 0;

	out->host = tools->host ? json_incref(tools->host) : NULL;
	out->start_time = tools->start_time ? xstrdup(tools->start_time) : NULL;
	out->label = xstrdup(tools->label ? tools->label : "tools");
	for (size_t p = 0; p < mine->n_probes; p++) {
		struct probe_result *pr = &mine->probes[p], *to = NULL;
		size_t j = 0;

		for (size_t i = 0; i < pr->n_metrics; i++) {
			struct metric *m = &pr->metrics[i], *t;
			const struct ref_value *v = tool_value_of(refs, tools, mine->host, pr, m);
			const char **kv;

			if (!v) {
				metric_clear(m);
				continue;
			}
			if (!to) {
				to = run_add_probe(out, pr->name);
				for (size_t q = 0; q < pr->n_params; q++)
					if (probe_result_is_identity(pr, pr->params[q].key))
						probe_result_add_option(to, pr->params[q].key,
									pr->params[q].value);
				probe_result_add_param(to, "tool", v->tool ? v->tool : v->tf_probe);
			}
			kv = xcalloc(2 * m->n_labels + 1, sizeof(*kv));
			for (size_t q = 0; q < m->n_labels; q++) {
				kv[2 * q] = m->labels[q].key;
				kv[2 * q + 1] = m->labels[q].value;
			}
			t = probe_add_metric_v(to, m->name, m->unit, m->better,
					       v->tool ? v->tool : v->tf_probe, kv, m->n_labels);
			free(kv);
			/* the tool's samples of that figure, every file's */
			size_t n_s;
			double *smp = tool_samples(v, tools, &n_s);
			for (size_t q = 0; q < n_s; q++)
				metric_add_sample(t, smp[q]);
			free(smp);
			metric_summarize(t);
			pr->metrics[j++] = *m;
			kept++;
		}
		pr->n_metrics = j;
	}
	/* mine's probes with no such metric go */
	size_t k = 0;
	for (size_t p = 0; p < mine->n_probes; p++)
		if (mine->probes[p].n_metrics)
			mine->probes[k++] = mine->probes[p];
		else
			probe_result_clear(&mine->probes[p]);
	mine->n_probes = k;
	if (kept)
		return out;
	run_free(out);
	return NULL;
}
