/* history_changes.c - `history trend --changepoints`, `history check
 * --changepoints` and the stable segment of `history bless --stable`
 * (history_cmd.h; docs/design.md §3.5). */
#include "cmd/history_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/changes.h"

static const char *better_words(const char *better)
{
	return !better			   ? "?"
	       : !strcmp(better, "higher") ? "higher is better"
	       : !strcmp(better, "lower")  ? "lower is better"
					   : "a fact, not judged";
}

int history_cmd_trend_changes(struct history *h, const char *probe, const char *metric,
			      const char *labels, const char *kind, const char *host, int csv)
{
	struct history_series *s;
	size_t n, n_c = 0;
	char *unit, *better;
	int rc = 0;

	if (history_changes(h, probe, metric, labels, kind, host, &s, &n, &unit, &better) != 0)
		return 1;
	if (n == 0) {
		error("no run kept has %s %s%s%s (see 'mempath history list')", probe, metric,
		      labels ? " with " : "", labels ? labels : "");
		rc = 2;
	} else if (csv) {
		report_changes_csv(stdout, probe, metric, unit, s, n, 1);
	} else {
		report_changes_term(stdout, probe, metric, unit, better_words(better), s, n, 0);
		for (size_t i = 0; i < n; i++)
			n_c += s[i].n_c;
		printf("\n%zu change point(s) in %zu series (PELT over the logs, each change "
		       "tested: docs/design.md §3.5)\n",
		       n_c, n);
	}
	history_series_free(s, n);
	free(unit);
	free(better);
	return rc;
}

int history_cmd_check_changes(struct history *h, const char *kind, int csv)
{
	char **probes, **metrics;
	size_t n, n_series = 0, n_worse = 0, n_c = 0;
	int rc = 0;

	if (history_metric_names(h, kind, &probes, &metrics, &n) != 0)
		return 1;
	if (csv)
		report_changes_csv(stdout, NULL, NULL, NULL, NULL, 0, 1);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct history_series *s;
		size_t ns;
		char *unit, *better;

		if (history_changes(h, probes[i], metrics[i], NULL, kind, NULL, &s, &ns, &unit,
				    &better) != 0) {
			rc = 1;
			break;
		}
		n_series += ns;
		for (size_t k = 0; k < ns; k++) {
			n_c += s[k].n_c;
			if (!report_changes_newest_worse(&s[k]))
				continue;
			n_worse++;
			if (csv)
				report_changes_csv(stdout, probes[i], metrics[i], unit, &s[k], 1,
						   0);
			else
				report_changes_term(stdout, probes[i], metrics[i], unit,
						    better_words(better), &s[k], 1, 1);
		}
		history_series_free(s, ns);
		free(unit);
		free(better);
	}
	for (size_t i = 0; i < n; i++) {
		free(probes[i]);
		free(metrics[i]);
	}
	free(probes);
	free(metrics);
	if (rc)
		return rc;
	if (!csv)
		printf("%s%zu of %zu series end in a worse segment (%zu change point(s) in all)\n",
		       n_worse ? "\n" : "", n_worse, n_series, n_c);
	if (n_worse)
		error("%zu series' newest segment is worse than the one before", n_worse);
	return n_worse ? 1 : 0;
}

int history_cmd_stable_runs(struct history *h, const char *probe, const char *metric,
			    const char *labels, const char *kind, size_t max, int64_t **ids,
			    size_t *n, char **kind_out)
{
	struct history_series *s;
	size_t ns, from;
	char *unit, *better;
	int rc = 2;

	*ids = NULL;
	*n = 0;
	*kind_out = NULL;
	if (history_changes(h, probe, metric, labels, kind, NULL, &s, &ns, &unit, &better) != 0)
		return 1;
	if (ns != 1) {
		if (ns)
			error("%s %s has %zu series (label sets or machine kinds): name one with "
			      "its labels and --kind",
			      probe, metric, ns);
		else
			error("no run kept has %s %s (see 'mempath history list')", probe, metric);
		goto out;
	}
	from = s->n_c ? s->c[s->n_c - 1].cp.at : 0;
	if (s->n - from > max)
		from = s->n - max;
	if (s->n - from < 3) {
		error("the newest segment of %s %s has %zu run(s); a baseline of a segment needs "
		      "3 or more",
		      probe, metric, s->n - from);
		goto out;
	}
	*ids = xcalloc(s->n - from, sizeof(**ids));
	for (size_t i = from; i < s->n; i++)
		(*ids)[(*n)++] = s->p[i].run_id;
	*kind_out = xstrdup(s->kind);
	rc = 0;
out:
	history_series_free(s, ns);
	free(unit);
	free(better);
	return rc;
}
