/* ref_beside.c - the reference tools' figures of an imported run as the
 * references of a kind (reference.h: ref_beside; docs/design.md §5.20). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "verdict/reference.h"

/* The median of every sample of the metrics of tools that are the figure
 * v names (its probe, its metric, its labels among theirs), or NAN. */
static double figure_of(const struct ref_value *v, const struct run *tools, size_t *n_found)
{
	double *all = NULL, med = NAN;
	size_t n = 0;
	for (size_t p = 0; p < tools->n_probes; p++) {
		const struct probe_result *pr = &tools->probes[p];
		if (strcmp(pr->name, v->tf_probe) != 0)
			continue;
		for (size_t j = 0; j < pr->n_metrics; j++) {
			const struct metric *m = &pr->metrics[j];
			if (strcmp(m->name, v->tf_metric) != 0 || m->unit != v->unit ||
			    !labels_subset(v->tf_labels, v->n_tf_labels, m->labels, m->n_labels))
				continue;
			all = xrealloc(all, (n + m->n_samples + 1) * sizeof(*all));
			memcpy(all + n, m->samples, m->n_samples * sizeof(*all));
			n += m->n_samples;
		}
	}
	if (n)
		med = stats_median(all, n);
	free(all);
	*n_found = n;
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
