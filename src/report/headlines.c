/* headlines.c - `check --brief`: what a first run's figures are worth, a
 * line each (fleet.h). A path with a reference or a limit says its verdict;
 * a figure with neither says how steady it was, which is all that can be
 * said of it on that machine (docs/design.md §9.14). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/fleet.h"
#include "report/format.h"
#include "results/results.h"

static void put(FILE *f, const char *s)
{
	char *e = report_term_escape(s ? s : "");
	fputs(e, f);
	free(e);
}

static void value_text(double v, enum unit u, char *buf, size_t len)
{
	char num[48] = "-";
	if (isfinite(v))
		report_fmt_value(v, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, isfinite(v) && *unit_name(u) ? " " : "",
		 isfinite(v) ? unit_name(u) : "");
}

/* Does a path of the kind (not a rest check) judge probe? */
static int judged(const struct fleet_check *c, size_t n, const char *probe)
{
	for (size_t i = 0; i < n; i++)
		if (!c[i].rest && c[i].probe && strcmp(c[i].probe, probe) == 0)
			return 1;
	return 0;
}

/* The probe's rest checks, counted by status into count; the first of the
 * worst status, or NULL. */
static const struct fleet_check *rest_of(const struct fleet_check *c, size_t n, const char *probe,
					 size_t *count)
{
	const struct fleet_check *worst = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!c[i].rest || strcmp(c[i].probe, probe) != 0)
			continue;
		count[c[i].status]++;
		if (!worst || (c[i].status == CHECK_FAIL && worst->status != CHECK_FAIL))
			worst = &c[i];
	}
	return worst;
}

/* The probe's headline: its first metric with a better direction and more
 * than one sample (facts and counters have no direction). */
static const struct metric *headline(const struct probe_result *p)
{
	for (size_t k = 0; k < p->n_metrics; k++)
		if (p->metrics[k].better != BETTER_NONE && p->metrics[k].n_samples > 1)
			return &p->metrics[k];
	return NULL;
}

int report_checks_brief(const char *what, const struct fleet_check *c, size_t n,
			const struct run *r, FILE *f)
{
	size_t others = 0;
	fputs("judged (mempath check): ", f);
	put(f, what);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		char val[64], ref[64];
		if (c[i].rest)
			continue;
		value_text(c[i].value, c[i].unit, val, sizeof(val));
		value_text(c[i].reference, c[i].unit, ref, sizeof(ref));
		fprintf(f, "  %-12s ", check_status_name(c[i].status));
		put(f, c[i].path);
		if (c[i].status == CHECK_NA) {
			fputs(": ", f);
			put(f, c[i].reason ? c[i].reason : "not judged");
		} else {
			fprintf(f, ": %s, reference %s +-%.0f%%", val, ref, c[i].tolerance * 100);
			if (c[i].load) {
				fputs(" (", f);
				put(f, c[i].load);
				fputc(')', f);
			}
		}
		fputc('\n', f);
	}
	for (size_t i = 0; r && i < r->n_probes; i++) {
		const struct probe_result *p = &r->probes[i];
		const struct metric *m;
		const struct fleet_check *w;
		size_t count[CHECK__COUNT] = {0}, all = 0;
		struct summary s;
		char labels[256], med[48];
		if (p->status != STATUS_OK || !(m = headline(p)))
			continue;
		w = rest_of(c, n, p->name, count);
		for (int k = 0; k < CHECK__COUNT; k++)
			all += count[k];
		if (!w && judged(c, n, p->name))
			continue;
		if (!others++)
			fputs("the other figures, by probe: what judged them (or why nothing did) "
			      "and "
			      "how steady its headline was:\n",
			      f);
		stats_summarize(m->samples, m->n_samples, &s);
		metric_labels_str(m, labels, sizeof(labels));
		report_fmt_value(s.median, med, sizeof(med));
		fputs("  ", f);
		put(f, p->name);
		if (w) {
			fprintf(f, ": %zu figure%s, ", all, all == 1 ? "" : "s");
			for (int k = 0, first = 1; k < CHECK__COUNT; k++)
				if (count[k]) {
					fprintf(f, "%s%zu %s", first ? "" : ", ", count[k],
						check_status_name((enum check_status)k));
					first = 0;
				}
			fputs(" (", f);
			put(f, w->metric);
			fputs(": ", f);
			put(f, w->reason);
			fputs(");", f);
		} else {
			fputc(':', f);
		}
		fputs(" headline ", f);
		put(f, m->name);
		if (labels[0]) {
			fputc(' ', f);
			put(f, labels);
		}
		fprintf(f, ": %s %s, CoV %.1f%% over %zu samples (%s)\n", med, unit_name(m->unit),
			100 * s.cov, s.n,
			s.cov > REPORT_COV_FLAG ? "unsteady: more --reps or a quieter machine"
						: "steady");
	}
	return ferror(f) ? -1 : 0;
}
