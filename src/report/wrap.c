/* wrap.c - the per-iteration table of a wrapped workload and the facts of its
 * whole run, from the results file (extra.iterations, the metrics, the
 * counters). Rows are metrics, columns iterations, as convergence tables are
 * read: decode speed rising run by run as pages are promoted. */
#include "report/wrap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/html_page.h"
#include "report/wrap_tables.h"
#include "workload/workload.h"

int report_is_wrap(const struct probe_result *p)
{
	return strcmp(p->name, "work.wrap") == 0;
}

/* Four significant digits: enough to see 4.259 -> 4.268 converge; past a
 * double's exact digits %.4g, and "-" for what is not finite (§5.16) */
static void fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e15)
		snprintf(buf, len, "%.4g", v);
	else if (a >= 1e4 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

struct row {
	char *name, *unit;
	double *v; /* per iteration; NAN = absent */
};

struct table {
	struct row *rows;
	size_t n_rows, n_iters, n_quiet;
	json_t *iters;
};

static struct row *add_row(struct table *t, const char *name, const char *unit)
{
	struct row *r;
	GROW_ONE(t->rows, t->n_rows);
	r = &t->rows[t->n_rows++];
	r->name = xstrdup(name);
	r->unit = xstrdup(unit);
	r->v = xmalloc((t->n_iters + 1) * sizeof(double));
	for (size_t i = 0; i < t->n_iters; i++)
		r->v[i] = NAN;
	return r;
}

static void drop_last(struct table *t)
{
	t->n_rows--;
	free(t->rows[t->n_rows].name);
	free(t->rows[t->n_rows].unit);
	free(t->rows[t->n_rows].v);
}

static double num_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The unit a workload printed when it is none of mempath's ("MB/s"), kept
 * in the metric's description. */
static const char *unit_of(const struct metric *m)
{
	const char *u = m->desc ? strstr(m->desc, ", unit ") : NULL;
	return m->unit != UNIT_NONE ? unit_name(m->unit) : u ? u + 7 : "";
}

/* wrap's own metrics, and the repetitions (several a run: not a row of
 * one value per run) */
static int is_wraps_own(const char *name)
{
	return workload_name_is_ours(name) || strcmp(name, "tokens_per_s_rep") == 0;
}

/* exit_status as the command printed it: 0 ok, the exit code, -1 otherwise. */
static double exit_status(json_t *it)
{
	const char *st = json_string_value(json_object_get(it, "status"));
	if (!st)
		return NAN;
	return strncmp(st, "exit ", 5) == 0 ? atof(st + 5) : -1;
}

static void build(const struct probe_result *p, struct table *t)
{
	static const struct {
		const char *name, *unit, *key;
	} rusage[] = {{"wall_time", "s", "wall_s"},
		      {"user_time", "s", "user_s"},
		      {"sys_time", "s", "sys_s"},
		      {"max_rss", "MiB", "max_rss_mib"},
		      {"minor_faults", "count", "minor_faults"},
		      {"major_faults", "count", "major_faults"}};
	size_t base;
	memset(t, 0, sizeof(*t));
	t->iters = p->extra ? json_object_get(p->extra, "iterations") : NULL;
	t->n_iters = json_is_array(t->iters) ? json_array_size(t->iters) : 0;
	/* The workload's own numbers, in the order first seen. */
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		char labels[512], *key;
		struct row *r;
		if (is_wraps_own(m->name))
			continue;
		metric_labels_str(m, labels, sizeof(labels));
		key = xasprintf("%s%s%s", m->name, *labels ? " " : "", labels);
		r = add_row(t, key, unit_of(m));
		for (size_t i = 0; i < t->n_iters; i++) {
			json_t *vals = json_object_get(json_array_get(t->iters, i), "values");
			r->v[i] = num_at(json_object_get(vals, key), "value");
		}
		free(key);
	}
	base = t->n_rows;
	for (size_t k = 0; k < ARRAY_SIZE(rusage); k++)
		add_row(t, rusage[k].name, rusage[k].unit);
	add_row(t, "exit_status", "");
	for (size_t i = 0; i < t->n_iters; i++) {
		json_t *it = json_array_get(t->iters, i);
		if (!json_is_number(json_object_get(it, "wall_s")))
			continue; /* not started */
		for (size_t k = 0; k < ARRAY_SIZE(rusage); k++)
			t->rows[base + k].v[i] = num_at(it, rusage[k].key);
		t->rows[base + ARRAY_SIZE(rusage)].v[i] = exit_status(it);
	}
	/* Files from before the per-run rusage was kept: the metric's warm-ups
	 * then samples are the started runs in order, when every run started. */
	for (size_t k = 0; k < ARRAY_SIZE(rusage); k++) {
		struct row *r = &t->rows[base + k];
		struct metric *m =
			probe_find_metric((struct probe_result *)p, rusage[k].name, NULL);
		size_t started = 0, have = 0, j = 0;
		for (size_t i = 0; i < t->n_iters; i++) {
			json_t *it = json_array_get(t->iters, i);
			started += json_is_number(json_object_get(it, "wall_s"));
			have += !isnan(r->v[i]);
		}
		if (have || !m || m->n_warmups + m->n_samples != started || started != t->n_iters)
			continue;
		for (size_t i = 0; i < m->n_warmups; i++)
			r->v[j++] = m->warmups[i];
		for (size_t i = 0; i < m->n_samples; i++)
			r->v[j++] = m->samples[i];
	}
	/* The load estimate and the command's own readings (its cgroup, its
	 * smaps), where a run has them. */
	for (size_t k = 0; k <= wrap_n_readings; k++) {
		const struct wrap_reading *wr = k ? &wrap_readings[k - 1] : NULL;
		struct row *r = add_row(t, wr ? wr->label : "load_time_est", wr ? wr->unit : "s");
		int any = 0;
		for (size_t i = 0; i < t->n_iters; i++) {
			r->v[i] = wrap_reading_at(json_array_get(t->iters, i), wr);
			any |= isfinite(r->v[i]);
		}
		if (!any)
			drop_last(t);
	}
	/* Key vmstat counters per iteration: promotion should fall as it converges. */
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		const char *c = metric_label(m, "counter");
		char *name;
		struct row *r;
		int moved = 0;
		if (strcmp(m->name, "vmstat") != 0 || !c)
			continue;
		name = xasprintf("vmstat %s (machine-wide)", c);
		r = add_row(t, name, "count");
		free(name);
		for (size_t i = 0; i < t->n_iters; i++) {
			json_t *vm = json_object_get(json_array_get(t->iters, i), "vmstat");
			if (json_is_object(vm)) /* recorded when it moved */
				r->v[i] =
					json_is_integer(json_object_get(vm, c))
						? (double)json_integer_value(json_object_get(vm, c))
						: 0;
			moved |= !isnan(r->v[i]) && r->v[i] != 0;
		}
		if (!moved) { /* not shown; counted in a note */
			drop_last(t);
			t->n_quiet++;
		}
	}
}

static void table_free(struct table *t)
{
	for (size_t r = 0; r < t->n_rows; r++) {
		free(t->rows[r].name);
		free(t->rows[r].unit);
		free(t->rows[r].v);
	}
	free(t->rows);
}

static int is_warmup(const struct table *t, size_t i)
{
	return json_is_true(json_object_get(json_array_get(t->iters, i), "warmup"));
}

/* Median and CoV of the counted iterations; "-" when none, or when it
 * overflowed (returns 1 then: the table says why). */
static int summary_of(const struct table *t, const struct row *r, char *med, char *cov, size_t len)
{
	double *counted = xcalloc(t->n_iters + 1, sizeof(double));
	size_t nc = 0;
	struct summary s;
	for (size_t i = 0; i < t->n_iters; i++)
		if (!is_warmup(t, i) && !isnan(r->v[i]))
			counted[nc++] = r->v[i];
	stats_summarize(counted, nc, &s);
	fmt_num(nc ? s.median : NAN, med, len);
	if (nc && isfinite(s.cov))
		snprintf(cov, len, "%.1f", 100.0 * s.cov);
	else
		snprintf(cov, len, "-");
	free(counted);
	return stats_summary_overflows(&s);
}

static const char overflow_note[] = "- where a statistic is " STATS_OVERFLOW_WHY;

static void heading(const struct table *t, size_t i, char *buf, size_t len)
{
	json_t *it = json_array_get(t->iters, i);
	snprintf(buf, len, "%s%lld", is_warmup(t, i) ? "w" : "iter",
		 (long long)json_integer_value(json_object_get(it, "iteration")));
}

static void table_text(const struct table *t, int md, FILE *f)
{
	char h[32], buf[32], cov[32];
	int n_over = 0;
	fprintf(f, md ? "| metric | unit |" : "%-40s %-6s", "metric", "unit");
	for (size_t i = 0; i < t->n_iters; i++) {
		heading(t, i, h, sizeof(h));
		fprintf(f, md ? " %s |" : " %10s", h);
	}
	fprintf(f, md ? " median | CoV%% |\n" : " %10s %6s\n", "median", "CoV%");
	if (md) {
		fprintf(f, "|---|---|");
		for (size_t i = 0; i < t->n_iters + 2; i++)
			fprintf(f, "---:|");
		fprintf(f, "\n");
	}
	for (size_t r = 0; r < t->n_rows; r++) {
		const struct row *row = &t->rows[r];
		if (md) {
			fputs("| ", f);
			report_md_cell(f, row->name);
			fputs(" | ", f);
			report_md_cell(f, row->unit);
			fputs(" |", f);
		} else {
			fprintf(f, "%-40s %-6s", row->name, row->unit);
		}
		for (size_t i = 0; i < t->n_iters; i++) {
			fmt_num(row->v[i], buf, sizeof(buf));
			fprintf(f, md ? " %s |" : " %10s", buf);
		}
		n_over += summary_of(t, row, buf, cov, sizeof(buf));
		fprintf(f, md ? " %s | %s |\n" : " %10s %6s\n", buf, cov);
	}
	if (n_over)
		fprintf(f, "%s(%s)\n", md ? "\n" : "", overflow_note);
	if (t->n_quiet)
		fprintf(f,
			"%s(%zu key vmstat counters did not move in any run: not shown, kept in "
			"the "
			"results file)\n",
			md ? "\n" : "", t->n_quiet);
}

static void table_html(const struct table *t, FILE *f)
{
	char h[32], buf[32], cov[32];
	int n_over = 0;
	fputs("<table>\n<tr><th>metric</th><th>unit</th>", f);
	for (size_t i = 0; i < t->n_iters; i++) {
		heading(t, i, h, sizeof(h));
		html_put(f, "<th>", h, "</th>");
	}
	fputs("<th>median</th><th>CoV%</th></tr>\n", f);
	for (size_t r = 0; r < t->n_rows; r++) {
		const struct row *row = &t->rows[r];
		fputs("<tr>", f);
		html_cell_text(f, row->name);
		html_cell_text(f, row->unit);
		for (size_t i = 0; i < t->n_iters; i++) {
			fmt_num(row->v[i], buf, sizeof(buf));
			html_cell_num(f, buf);
		}
		n_over += summary_of(t, row, buf, cov, sizeof(buf));
		html_cell_num(f, buf);
		html_cell_num(f, cov);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (n_over)
		fprintf(f, "<p>%s</p>\n", overflow_note);
	if (t->n_quiet)
		fprintf(f, "<p>%zu key vmstat counters did not move in any run: not shown.</p>\n",
			t->n_quiet);
}

/* The whole run: counters that moved, meminfo before -> after, numastat. */
static void facts(const struct probe_result *p, enum report_format fmt, FILE *f)
{
	static const char *const mem_keys[] = {"MemAvailable",	"MemFree",   "AnonPages",
					       "AnonHugePages", "Cached",    "Shmem",
					       "Mlocked",	"GPUActive", "GPUReclaim"};
	json_t *mem = p->extra ? json_object_get(p->extra, "meminfo") : NULL;
	json_t *numa = p->extra ? json_object_get(p->extra, "numastat_delta") : NULL, *d;
	int md = fmt == REPORT_MD, html = fmt == REPORT_HTML, any = 0;
	const char *why = json_string_value(
		json_object_get(json_object_get(p->extra, "cgroup"), "unavailable"));
	const char *node;
	char line[256];
	const char *gwhy =
		json_string_value(json_object_get(json_object_get(p->extra, "gpu"), "unavailable"));
	const char *how =
		json_string_value(json_object_get(json_object_get(p->extra, "cgroup"), "how"));
	if (how && html)
		html_put(f, "<p>cgroup: ", how, ".</p>\n");
	else if (how)
		fprintf(f, "\ncgroup: %s\n", how);
	if (why && html)
		html_put(f, "<p>no cgroup per run: ", why, "; only machine-wide counters.</p>\n");
	else if (why)
		fprintf(f, "\nno cgroup per run: %s; only machine-wide counters\n", why);
	if (gwhy && html)
		html_put(f, "<p>GPU memory not read: ", gwhy, ".</p>\n");
	else if (gwhy)
		fprintf(f, "GPU memory not read: %s\n", gwhy);
	fputs(html ? "<h3>Machine-wide vmstat deltas over the whole run</h3>\n<ul>\n"
	      : md ? "\n**Machine-wide vmstat deltas over the whole run** (every process's; "
		     "recorded counters that moved):\n\n"
		   : "\nMachine-wide vmstat deltas over the whole run (every process's; recorded "
		     "counters that moved):\n",
	      f);
	for (size_t i = 0; i < p->n_counters; i++)
		if (p->counters[i].delta != 0) {
			snprintf(line, sizeof(line), "%lld", (long long)p->counters[i].delta);
			if (html) {
				html_put(f, "<li>", p->counters[i].name, ": ");
				html_put(f, "", line, "</li>\n");
			} else {
				fprintf(f, md ? "- %s: %s\n" : "  %-28s %s\n", p->counters[i].name,
					line);
			}
			any = 1;
		}
	if (!any)
		fputs(html ? "<li>none moved</li>\n" : md ? "- none moved\n" : "  none moved\n", f);
	fputs(html ? "</ul>\n<h3>/proc/meminfo before -> after (GiB)</h3>\n<ul>\n"
	      : md ? "\n**/proc/meminfo before -> after** (GiB):\n\n"
		   : "\n/proc/meminfo before -> after (GiB):\n",
	      f);
	for (size_t i = 0; i < ARRAY_SIZE(mem_keys); i++) {
		json_t *b = json_object_get(json_object_get(mem, "before"), mem_keys[i]);
		json_t *a = json_object_get(json_object_get(mem, "after"), mem_keys[i]);
		if (!json_is_integer(b) || !json_is_integer(a))
			continue;
		fprintf(f,
			html ? "<li>%s: %.3f -> %.3f</li>\n"
			: md ? "- %s: %.3f -> %.3f\n"
			     : "  %-28s %9.3f -> %9.3f\n",
			mem_keys[i], (double)json_integer_value(b) / (1 << 30),
			(double)json_integer_value(a) / (1 << 30));
	}
	fputs(html ? "</ul>\n<h3>numastat deltas per node</h3>\n<ul>\n"
	      : md ? "\n**numastat deltas per node**:\n\n"
		   : "\nnumastat deltas per node:\n",
	      f);
	json_object_foreach (numa, node, d) {
		const char *k;
		json_t *v;
		if (html)
			html_put(f, "<li>", node, ":");
		else
			fprintf(f, md ? "- %s:" : "  %-6s", node);
		json_object_foreach (d, k, v) {
			snprintf(line, sizeof(line), " %s=%lld", k,
				 (long long)json_integer_value(v));
			if (html)
				html_put(f, "", line, "");
			else
				fputs(line, f);
		}
		fputs(html ? "</li>\n" : "\n", f);
	}
	if (html)
		fputs("</ul>\n", f);
}

void report_wrap(const struct probe_result *p, enum report_format fmt, FILE *f)
{
	struct table t;
	struct wrap_source src = {.name = NULL, .extra = p->extra};
	build(p, &t);
	report_wrap_tables(&src, 1, fmt, f);
	if (fmt != REPORT_HTML)
		fprintf(f, fmt == REPORT_MD ? "\n**Every metric per run**\n\n"
					    : "\nEvery metric per run:\n");
	else
		fputs("<h3>Every metric per run</h3>\n", f);
	if (fmt == REPORT_HTML)
		table_html(&t, f);
	else
		table_text(&t, fmt == REPORT_MD, f);
	facts(p, fmt, f);
	table_free(&t);
}
