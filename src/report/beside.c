/* beside.c - the tools' figures beside mempath's (beside.h). */
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "report/beside.h"

struct beside_arg {
	const struct run *tools, *mine;
	const char *const *names;
	enum report_format fmt;
};

static int render(const void *arg, FILE *f)
{
	const struct beside_arg *a = arg;
	json_t *rows = json_array();

	if (a->fmt == REPORT_MD)
		fprintf(f, "| metric | tool | tool's figure | mempath | mempath / tool |\n"
			   "| --- | --- | --- | --- | --- |\n");
	else if (a->fmt == REPORT_TERM)
		fprintf(f, "compare: the tools' figures (%s) beside mempath's (%s)\n\n",
			a->names[0], a->names[1]);
	for (size_t p = 0; p < a->mine->n_probes; p++) {
		const struct probe_result *mp = &a->mine->probes[p], *tp = &a->tools->probes[p];

		for (size_t i = 0; i < mp->n_metrics && i < tp->n_metrics; i++) {
			const struct metric *m = &mp->metrics[i], *t = &tp->metrics[i];
			double x = t->summary.median, y = m->summary.median, r = y / x;
			char labels[256];

			metric_labels_str(m, labels, sizeof(labels));
			if (a->fmt == REPORT_JSON) {
				json_array_append_new(
					rows,
					json_pack("{s:s,s:s,s:s,s:s,s:s,s:f,s:I,s:f,s:I,s:o}",
						  "probe", mp->name, "metric", m->name, "labels",
						  labels, "unit", unit_name(m->unit), "tool",
						  t->desc ? t->desc : "", "tool_median", x,
						  "tool_n", (json_int_t)t->summary.n,
						  "mempath_median", y, "mempath_n",
						  (json_int_t)m->summary.n, "ratio",
						  isfinite(r) ? json_real(r) : json_null()));
				continue;
			}
			{
				int md = a->fmt == REPORT_MD;
				char tv[64], mv[64];

				snprintf(tv, sizeof(tv), "%.1f %s (n=%zu)", x, unit_name(t->unit),
					 t->summary.n);
				snprintf(mv, sizeof(mv), "%.1f %s (n=%zu)", y, unit_name(m->unit),
					 m->summary.n);
				fprintf(f,
					md ? "| %s %s %s | %s | %s | %s | x%.3f |\n"
					   : "%s %s %s: %s %s, mempath %s: x%.3f\n",
					mp->name, m->name, labels, t->desc ? t->desc : "?", tv, mv,
					r);
			}
		}
	}
	if (a->fmt == REPORT_JSON) {
		json_t *doc = json_pack("{s:s,s:s,s:o}", "tools", a->names[0], "mempath",
					a->names[1], "beside", rows);
		int rc = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
		fputc('\n', f);
		json_decref(doc);
		return rc;
	}
	json_decref(rows);
	if (a->fmt == REPORT_TERM)
		fprintf(f, "\nno verdict: a tool's figure is one number of its own method, not a "
			   "leg of samples (check --beside judges mempath's against it)\n");
	return 0;
}

int report_beside_write_file(const struct run *tools, const struct run *mine,
			     const char *const names[2], enum report_format fmt, const char *path)
{
	struct beside_arg a = {tools, mine, names, fmt};

	if (fmt != REPORT_TERM && fmt != REPORT_MD && fmt != REPORT_JSON)
		return error("the tools' figures beside mempath's are written as term, md or json"),
		       -1;
	return write_rendered(path, render, &a);
}
