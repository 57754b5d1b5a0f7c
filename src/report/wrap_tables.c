/* wrap_tables.c - a wrapped workload per configuration, per iteration and
 * its counters, from extra.iterations (wrap_tables.h, docs/design.md §11.6). */
#include "report/wrap_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/html_page.h"
#include "workload/workload.h"

/* ---- a grid of cells, printed in any format ------------------------------- */

struct grid_row {
	char *label, *unit, **cells;
};

struct grid {
	char *title;
	char **heads;
	size_t n_cols;
	struct grid_row *rows;
	size_t n_rows;
};

static void grid_init(struct grid *g, const char *title, char **heads, size_t n_cols)
{
	memset(g, 0, sizeof(*g));
	g->title = xstrdup(title);
	g->heads = heads;
	g->n_cols = n_cols;
}

static struct grid_row *grid_row(struct grid *g, const char *label, const char *unit)
{
	struct grid_row *r;
	GROW_ONE(g->rows, g->n_rows);
	r = &g->rows[g->n_rows++];
	r->label = xstrdup(label);
	r->unit = xstrdup(unit);
	r->cells = xcalloc(g->n_cols + 1, sizeof(char *));
	return r;
}

/* Drops the row added last. */
static void grid_drop_last(struct grid *g)
{
	struct grid_row *r = &g->rows[--g->n_rows];
	for (size_t c = 0; c < g->n_cols; c++)
		free(r->cells[c]);
	free(r->cells);
	free(r->label);
	free(r->unit);
}

/* Four significant digits: enough to see 4.259 -> 4.268 converge. */
static char *num(double v)
{
	if (!isfinite(v))
		return xstrdup("-");
	if (v == 0)
		return xstrdup("0");
	if (fabs(v) >= 1e15) /* past a double's exact digits: no 310-digit number */
		return xasprintf("%.4g", v);
	if (fabs(v) >= 1e4 || v == floor(v))
		return xasprintf("%.0f", v);
	return xasprintf("%.4g", v);
}

static void grid_print(const struct grid *g, enum report_format fmt, FILE *f)
{
	size_t lw = 24;
	if (g->n_rows == 0)
		return;
	for (size_t r = 0; r < g->n_rows; r++)
		if (strlen(g->rows[r].label) > lw)
			lw = strlen(g->rows[r].label);
	if (fmt == REPORT_HTML) {
		html_put(f, "<h3>", g->title, "</h3>\n<table>\n<tr><th>metric</th><th>unit</th>");
		for (size_t c = 0; c < g->n_cols; c++)
			html_put(f, "<th>", g->heads[c], "</th>");
		fputs("</tr>\n", f);
		for (size_t r = 0; r < g->n_rows; r++) {
			fputs("<tr>", f);
			html_cell_text(f, g->rows[r].label);
			html_cell_text(f, g->rows[r].unit);
			for (size_t c = 0; c < g->n_cols; c++)
				html_cell_num(f, g->rows[r].cells[c]);
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
		return;
	}
	if (fmt == REPORT_MD) {
		fprintf(f, "\n**%s**\n\n| metric | unit |", g->title);
		for (size_t c = 0; c < g->n_cols; c++) {
			fputs(" ", f);
			report_md_cell(f, g->heads[c]);
			fputs(" |", f);
		}
		fputs("\n|---|---|", f);
		for (size_t c = 0; c < g->n_cols; c++)
			fputs("---:|", f);
		fputs("\n", f);
		for (size_t r = 0; r < g->n_rows; r++) {
			fputs("| ", f);
			report_md_cell(f, g->rows[r].label);
			fputs(" | ", f);
			report_md_cell(f, g->rows[r].unit);
			fputs(" |", f);
			for (size_t c = 0; c < g->n_cols; c++)
				fprintf(f, " %s |", g->rows[r].cells[c]);
			fputs("\n", f);
		}
		return;
	}
	fprintf(f, "\n%s\n%-*s %-6s", g->title, (int)lw, "metric", "unit");
	for (size_t c = 0; c < g->n_cols; c++)
		fprintf(f, " %12s", g->heads[c]);
	fputs("\n", f);
	for (size_t r = 0; r < g->n_rows; r++) {
		fprintf(f, "%-*s %-6s", (int)lw, g->rows[r].label, g->rows[r].unit);
		for (size_t c = 0; c < g->n_cols; c++)
			fprintf(f, " %12s", g->rows[r].cells[c]);
		fputs("\n", f);
	}
}

static void grid_free(struct grid *g)
{
	for (size_t r = 0; r < g->n_rows; r++) {
		for (size_t c = 0; c < g->n_cols; c++)
			free(g->rows[r].cells[c]);
		free(g->rows[r].cells);
		free(g->rows[r].label);
		free(g->rows[r].unit);
	}
	free(g->rows);
	free(g->title);
}

/* ---- the runs' values ----------------------------------------------------- */

/* A column: one configuration of one source. */
struct col {
	size_t src;
	char *config; /* the labels other than test, "k=v,k=v"; "" for none */
};

struct tables {
	const struct wrap_source *src;
	size_t n_src;
	struct col *cols;
	size_t n_cols;
	char **tests;
	size_t n_tests;
};

static json_t *iters_of(const struct wrap_source *s)
{
	json_t *its = json_object_get(s->extra, "iterations");
	return json_is_array(its) ? its : NULL;
}

static int counted(json_t *it)
{
	return !json_is_true(json_object_get(it, "warmup"));
}

/* A value entry's metric, test and configuration ("" when it has none). */
static void entry_of(const char *key, json_t *jv, char *metric, size_t ml, char *test, size_t tl,
		     char *config, size_t cl)
{
	json_t *labels = json_object_get(jv, "labels"), *v;
	const char *m = json_string_value(json_object_get(jv, "metric")), *k;
	size_t used = 0;
	*test = *config = '\0';
	if (!m || !json_is_object(labels)) { /* a file from before the labels were kept */
		const char *sp = strchr(key, ' ');
		char *copy = xstrdup(sp ? sp + 1 : ""), *save = NULL;
		snprintf(metric, ml, "%.*s", (int)(sp ? (size_t)(sp - key) : strlen(key)), key);
		for (char *l = strtok_r(copy, ",", &save); l; l = strtok_r(NULL, ",", &save))
			if (strncmp(l, "test=", 5) == 0)
				snprintf(test, tl, "%s", l + 5);
			else if (used < cl)
				used += (size_t)snprintf(config + used, cl - used, "%s%s",
							 used ? "," : "", l);
		free(copy);
		return;
	}
	snprintf(metric, ml, "%s", m);
	json_object_foreach (labels, k, v) {
		const char *s = json_string_value(v);
		if (!s)
			continue;
		if (strcmp(k, "test") == 0)
			snprintf(test, tl, "%s", s);
		else if (used < cl)
			used += (size_t)snprintf(config + used, cl - used, "%s%s=%s",
						 used ? "," : "", k, s);
	}
}

static size_t add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return i;
	GROW_ONE(*v, *n);
	(*v)[*n] = xstrdup(s);
	return (*n)++;
}

static void collect(struct tables *t)
{
	for (size_t s = 0; s < t->n_src; s++) {
		json_t *its = iters_of(&t->src[s]), *it, *jv;
		size_t i;
		char **configs = NULL;
		size_t n_configs = 0;
		json_array_foreach (its, i, it) {
			const char *key;
			json_object_foreach (json_object_get(it, "values"), key, jv) {
				char metric[96], test[64], config[256];
				entry_of(key, jv, metric, sizeof(metric), test, sizeof(test),
					 config, sizeof(config));
				if (strcmp(metric, "tokens_per_s") != 0 || !*test)
					continue;
				add_unique(&t->tests, &t->n_tests, test);
				add_unique(&configs, &n_configs, config);
			}
		}
		for (size_t c = 0; c < n_configs; c++) {
			GROW_ONE(t->cols, t->n_cols);
			t->cols[t->n_cols].src = s;
			t->cols[t->n_cols++].config = configs[c];
		}
		free(configs);
	}
}

/* The entry of iteration it for this metric, test and column; or NULL. */
static json_t *entry(json_t *it, const char *metric, const char *test, const char *config)
{
	const char *key;
	json_t *jv;
	json_object_foreach (json_object_get(it, "values"), key, jv) {
		char m[96], t[64], c[256];
		entry_of(key, jv, m, sizeof(m), t, sizeof(t), c, sizeof(c));
		if (strcmp(m, metric) == 0 && strcmp(t, test) == 0 && strcmp(c, config) == 0)
			return jv;
	}
	return NULL;
}

static double median_of(const double *v, size_t n)
{
	struct summary s;
	stats_summarize(v, n, &s);
	return n ? s.median : NAN;
}

/* Median over the counted runs of a column of one field of an entry. */
static double col_median(const struct tables *t, const struct col *c, const char *metric,
			 const char *test, const char *field)
{
	json_t *its = iters_of(&t->src[c->src]), *it;
	double *v = xcalloc(json_array_size(its) + 1, sizeof(double)), m;
	size_t n = 0, i;
	json_array_foreach (its, i, it) {
		json_t *x = counted(it) ? json_object_get(entry(it, metric, test, c->config), field)
					: NULL;
		if (json_is_number(x))
			v[n++] = json_number_value(x);
	}
	m = median_of(v, n);
	free(v);
	return m;
}

/* The spread of llama-bench's repetitions over the counted runs: the
 * standard deviation of every repetition; without them (csv, sql, md), the
 * median of the stddev each run printed. */
static double col_spread(const struct tables *t, const struct col *c, const char *test)
{
	json_t *its = iters_of(&t->src[c->src]), *it, *x;
	double sum = 0, sq = 0;
	size_t n = 0, i, k;
	json_array_foreach (its, i, it) {
		json_t *reps =
			json_object_get(entry(it, "tokens_per_s", test, c->config), "samples");
		if (!counted(it))
			continue;
		json_array_foreach (reps, k, x)
			if (json_is_number(x)) {
				sum += json_number_value(x);
				sq += json_number_value(x) * json_number_value(x);
				n++;
			}
	}
	if (n > 1)
		return sqrt(fmax(0, (sq - sum * sum / (double)n) / (double)(n - 1)));
	return col_median(t, c, "tokens_per_s", test, "stddev");
}

static char *col_name(const struct tables *t, const struct col *c)
{
	const char *leg = t->src[c->src].name;
	if (leg && *c->config)
		return xasprintf("%s %s", leg, c->config);
	if (leg)
		return xstrdup(leg);
	return xstrdup(*c->config ? c->config : "run");
}

/* ---- the tables ------------------------------------------------------------ */

static void throughput(const struct tables *t, char **heads, enum report_format fmt, FILE *f)
{
	struct grid g;
	double *first = xcalloc(t->n_tests + 1, sizeof(double));
	grid_init(&g,
		  "Throughput (llama-bench tokens/s: median over the runs of each run's mean "
		  "over its repetitions)",
		  heads, t->n_cols);
	for (size_t k = 0; k < t->n_tests; k++) {
		struct grid_row *ts, *sd, *ms;
		char *label = xasprintf("%s t/s", t->tests[k]);
		size_t at_ts = g.n_rows;
		int any_ms = 0;
		grid_row(&g, label, "tok/s");
		free(label);
		grid_row(&g, "  stddev of repetitions", "tok/s");
		label = xasprintf("%s ms/token", t->tests[k]);
		grid_row(&g, label, "ms");
		free(label);
		/* after the last grid_row(): it may move the rows */
		ts = &g.rows[at_ts];
		sd = ts + 1;
		ms = ts + 2;
		for (size_t c = 0; c < t->n_cols; c++) {
			double v = col_median(t, &t->cols[c], "tokens_per_s", t->tests[k], "value");
			double m = col_median(t, &t->cols[c], "ms_per_token", t->tests[k], "value");
			if (c == 0)
				first[k] = v;
			ts->cells[c] = num(v);
			sd->cells[c] = num(col_spread(t, &t->cols[c], t->tests[k]));
			ms->cells[c] = num(m);
			any_ms |= isfinite(m);
		}
		if (!any_ms) /* md has no avg_ns: no row of dashes */
			grid_drop_last(&g);
	}
	for (size_t k = 0; k < t->n_tests && t->n_cols > 1; k++) {
		char *label = xasprintf("%s vs %s", t->tests[k], heads[0]);
		struct grid_row *r = grid_row(&g, label, "x");
		free(label);
		for (size_t c = 0; c < t->n_cols; c++) {
			double v = col_median(t, &t->cols[c], "tokens_per_s", t->tests[k], "value");
			r->cells[c] = isfinite(v / first[k]) && first[k] > 0
					      ? xasprintf("%.2fx", v / first[k])
					      : xstrdup("-");
		}
	}
	grid_print(&g, fmt, f);
	grid_free(&g);
	free(first);
}

/* One table per test: a row per run (warm-ups first, as run), a column per
 * configuration: convergence reads down a column. */
static void per_iteration(const struct tables *t, char **heads, enum report_format fmt, FILE *f)
{
	for (size_t k = 0; k < t->n_tests; k++) {
		struct grid g;
		char *title = xasprintf("%s per run (tok/s)", t->tests[k]);
		size_t most = 0;
		grid_init(&g, title, heads, t->n_cols);
		free(title);
		for (size_t c = 0; c < t->n_cols; c++)
			if (json_array_size(iters_of(&t->src[t->cols[c].src])) > most)
				most = json_array_size(iters_of(&t->src[t->cols[c].src]));
		for (size_t i = 0; i < most; i++) {
			json_t *it0 = NULL;
			struct grid_row *r;
			char *label;
			for (size_t c = 0; c < t->n_cols && !it0; c++)
				it0 = json_array_get(iters_of(&t->src[t->cols[c].src]), i);
			label = xasprintf(
				"%s%lld", counted(it0) ? "iter" : "w",
				(long long)json_integer_value(json_object_get(it0, "iteration")));
			r = grid_row(&g, label, "tok/s");
			free(label);
			for (size_t c = 0; c < t->n_cols; c++) {
				json_t *it = json_array_get(iters_of(&t->src[t->cols[c].src]), i);
				json_t *v = json_object_get(
					entry(it, "tokens_per_s", t->tests[k], t->cols[c].config),
					"value");
				r->cells[c] = json_is_number(v) ? num(json_number_value(v))
								: xstrdup("-");
			}
		}
		grid_print(&g, fmt, f);
		grid_free(&g);
	}
}

/* A number at a path of an iteration ("cgroup", "memory", "pgfault"). */
static double at(json_t *it, const char *a, const char *b, const char *c)
{
	json_t *v = json_object_get(it, a);
	if (b)
		v = json_object_get(v, b);
	if (c)
		v = json_object_get(v, c);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const struct wrap_reading wrap_readings[] = {
	{"cgroup peak", "MiB", "cgroup", "peak", NULL, 1.0 / (1 << 20)},
	{"cgroup step peak", "MiB", "cgroup", "step_peak", NULL, 1.0 / (1 << 20)},
	{"cgroup anon (max)", "MiB", "cgroup", "sizes_max", "anon", 1.0 / (1 << 20)},
	{"cgroup file (max)", "MiB", "cgroup", "sizes_max", "file", 1.0 / (1 << 20)},
	{"cgroup anon_thp (max)", "MiB", "cgroup", "sizes_max", "anon_thp", 1.0 / (1 << 20)},
	{"cgroup file_thp (max)", "MiB", "cgroup", "sizes_max", "file_thp", 1.0 / (1 << 20)},
	{"cgroup shmem_thp (max)", "MiB", "cgroup", "sizes_max", "shmem_thp", 1.0 / (1 << 20)},
	{"cgroup pgfault", "count", "cgroup", "memory", "pgfault", 1},
	{"cgroup pgmajfault", "count", "cgroup", "memory", "pgmajfault", 1},
	{"cgroup failcnt", "count", "cgroup", "memory", "failcnt", 1},
	{"cgroup thp_fault_alloc", "count", "cgroup", "memory", "thp_fault_alloc", 1},
	{"cgroup thp_collapse_alloc", "count", "cgroup", "memory", "thp_collapse_alloc", 1},
	{"cgroup cpu usage", "s", "cgroup", "cpu", "usage_usec", 1e-6},
	{"cgroup io read", "MiB", "cgroup", "io", "rbytes", 1.0 / (1 << 20)},
	{"cgroup io write", "MiB", "cgroup", "io", "wbytes", 1.0 / (1 << 20)},
	{"gpu0 own memory (max)", "MiB", "gpu", "0", "procs_peak_bytes", 1.0 / (1 << 20)},
	{"gpu0 used, all (max)", "MiB", "gpu", "0", "used_peak_bytes", 1.0 / (1 << 20)},
	{"smaps Rss (max)", "MiB", "smaps", "max", "Rss", 1.0 / (1 << 20)},
	{"smaps Pss (max)", "MiB", "smaps", "max", "Pss", 1.0 / (1 << 20)},
	{"smaps Anonymous (max)", "MiB", "smaps", "max", "Anonymous", 1.0 / (1 << 20)},
	{"smaps AnonHugePages (max)", "MiB", "smaps", "max", "AnonHugePages", 1.0 / (1 << 20)},
	{"smaps FilePmdMapped (max)", "MiB", "smaps", "max", "FilePmdMapped", 1.0 / (1 << 20)},
	{"smaps ShmemPmdMapped (max)", "MiB", "smaps", "max", "ShmemPmdMapped", 1.0 / (1 << 20)},
};
const size_t wrap_n_readings = ARRAY_SIZE(wrap_readings);

double wrap_reading_at(json_t *it, const struct wrap_reading *r)
{
	if (!r) /* the load estimate */
		return at(it, "wall_s", NULL, NULL) - at(it, "llama_timed_s", NULL, NULL);
	return at(it, r->a, r->b, r->c) * r->scale;
}

static const struct wrap_reading rusage_rows[] = {
	{"wall_time", "s", "wall_s", NULL, NULL, 1},
	{"max_rss (rusage)", "MiB", "max_rss_mib", NULL, NULL, 1},
	{"minor_faults (rusage)", "count", "minor_faults", NULL, NULL, 1},
};

/* Median over the counted runs of source s of one reading. */
static double src_median(const struct wrap_source *s, const struct wrap_reading *cr,
			 const char *vm_key)
{
	json_t *its = iters_of(s), *it;
	double *v = xcalloc(json_array_size(its) + 1, sizeof(double)), m;
	size_t n = 0, i;
	json_array_foreach (its, i, it) {
		double x;
		if (!counted(it))
			continue;
		if (vm_key) /* recorded when it moved: absent in a reading is 0 */
			x = json_is_object(json_object_get(it, "vmstat"))
				    ? at(it, "vmstat", vm_key, NULL)
				    : NAN;
		else
			x = wrap_reading_at(it, cr);
		if (vm_key && isnan(x) && json_is_object(json_object_get(it, "vmstat")))
			x = 0;
		if (isfinite(x))
			v[n++] = x;
	}
	m = median_of(v, n);
	free(v);
	return m;
}

static void counter_fill(struct grid *g, const struct tables *t, const char *label,
			 const char *unit, const struct wrap_reading *cr, const char *vm_key)
{
	struct grid_row *r = grid_row(g, label, unit);
	int any = 0;
	for (size_t s = 0; s < t->n_src; s++) {
		double v = src_median(&t->src[s], cr, vm_key);
		any |= isfinite(v) && (!vm_key || v != 0);
		r->cells[s] = num(v);
	}
	if (!any) /* not read, or a machine-wide counter that never moved */
		grid_drop_last(g);
}

static void counters(const struct tables *t, enum report_format fmt, FILE *f)
{
	char **heads = xcalloc(t->n_src + 1, sizeof(char *)), **vm = NULL, **nodes = NULL;
	size_t n_vm = 0, n_nodes = 0;
	struct grid g;
	for (size_t s = 0; s < t->n_src; s++) {
		json_t *its = iters_of(&t->src[s]), *it, *v;
		size_t i;
		const char *k;
		heads[s] = (char *)(t->src[s].name ? t->src[s].name : "run");
		json_array_foreach (its, i, it)
			json_object_foreach (json_object_get(it, "vmstat"), k, v)
				if (workload_counter_is_key(k))
					add_unique(&vm, &n_vm, k);
		json_array_foreach (its, i, it)
			json_object_foreach (
				json_object_get(json_object_get(it, "numa_maps"), "max"), k, v)
				add_unique(&nodes, &n_nodes, k);
	}
	grid_init(&g,
		  "Counters per run (median over the runs; cgroup, smaps and numa_maps: the "
		  "command's own, "
		  "vmstat: the whole machine's)",
		  heads, t->n_src);
	counter_fill(&g, t, rusage_rows[0].label, rusage_rows[0].unit, &rusage_rows[0], NULL);
	counter_fill(&g, t, "load_time_est", "s", NULL, NULL);
	for (size_t k = 1; k < ARRAY_SIZE(rusage_rows); k++)
		counter_fill(&g, t, rusage_rows[k].label, rusage_rows[k].unit, &rusage_rows[k],
			     NULL);
	for (size_t k = 0; k < wrap_n_readings; k++)
		counter_fill(&g, t, wrap_readings[k].label, wrap_readings[k].unit,
			     &wrap_readings[k], NULL);
	/* where the command's memory was, node by node (numa_maps) */
	for (size_t k = 0; k < n_nodes; k++) {
		char *label = xasprintf("numa_maps node %s (max)", nodes[k]);
		struct wrap_reading r = {label, "MiB",	  "numa_maps",
					 "max", nodes[k], 1.0 / (1 << 20)};
		counter_fill(&g, t, label, "MiB", &r, NULL);
		free(label);
		free(nodes[k]);
	}
	free(nodes);
	for (size_t k = 0; k < n_vm; k++) {
		char *label = xasprintf("vmstat %s (machine-wide)", vm[k]);
		counter_fill(&g, t, label, "count", NULL, vm[k]);
		free(label);
		free(vm[k]);
	}
	free(vm);
	grid_print(&g, fmt, f);
	grid_free(&g);
	free(heads);
	for (size_t s = 0; s < t->n_src && t->n_src > 1;
	     s++) { /* one wrap: report/wrap.c says it */
		const char *why = json_string_value(
			json_object_get(json_object_get(t->src[s].extra, "cgroup"), "unavailable"));
		if (!why)
			continue;
		if (fmt == REPORT_HTML)
			html_put(f, "<p>no cgroup per run: ", why,
				 "; only machine-wide counters.</p>\n");
		else
			fprintf(f, "%sno cgroup per run%s%s: %s; only machine-wide counters\n",
				fmt == REPORT_MD ? "\n" : "", t->src[s].name ? " in " : "",
				t->src[s].name ? t->src[s].name : "", why);
	}
}

void report_wrap_tables(const struct wrap_source *src, size_t n, enum report_format fmt, FILE *f)
{
	struct tables t = {.src = src, .n_src = n};
	char **heads;
	collect(&t);
	if (t.n_tests && t.n_cols) {
		heads = xcalloc(t.n_cols + 1, sizeof(char *));
		for (size_t c = 0; c < t.n_cols; c++)
			heads[c] = col_name(&t, &t.cols[c]);
		throughput(&t, heads, fmt, f);
		per_iteration(&t, heads, fmt, f);
		for (size_t c = 0; c < t.n_cols; c++)
			free(heads[c]);
		free(heads);
	}
	if (n > 1 || t.n_tests)
		counters(&t, fmt, f);
	for (size_t c = 0; c < t.n_cols; c++)
		free(t.cols[c].config);
	free(t.cols);
	for (size_t k = 0; k < t.n_tests; k++)
		free(t.tests[k]);
	free(t.tests);
}
