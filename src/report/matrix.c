/* matrix.c - the src x dst pivot (matrix.h) and its text and Markdown forms.
 *
 * Why a pivot in the report layer rather than in the probe: the results file
 * keeps one labelled metric per ordered pair (every raw sample, comparable by
 * `compare` cell by cell), and any probe that labels src/dst gets matrices in
 * every writer without knowing how many devices there were.
 */
#include "report/matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/format.h"

struct cell {
	const char *src, *dst;
	size_t n;
	double median, cov;
};

/* One table while it is being built: its grouping key and its cells. */
struct pending {
	char *key;
	struct cell *cells;
	size_t n_cells, cap;
};

int matrix_is_cell(const struct metric *m)
{
	return metric_label(m, "src") && metric_label(m, "dst");
}

static int is_other(const struct label *l)
{
	return strcmp(l->key, "src") != 0 && strcmp(l->key, "dst") != 0;
}

static int label_cmp(const struct label *a, const struct label *b)
{
	int c = strcmp(a->key, b->key);

	return c ? c : strcmp(a->value, b->value);
}

/* name, unit and the other labels sorted by key: metrics that carry the same
 * labels in another order still share a table. Fields are joined with
 * control characters that no label holds in practice. */
static char *group_key(const struct metric *m)
{
	const struct label **o = xcalloc(m->n_labels + 1, sizeof(*o));
	size_t n = 0;
	char *key;

	for (size_t i = 0; i < m->n_labels; i++) {
		size_t j = n;

		if (!is_other(&m->labels[i]))
			continue;
		for (; j > 0 && label_cmp(o[j - 1], &m->labels[i]) > 0; j--)
			o[j] = o[j - 1];
		o[j] = &m->labels[i];
		n++;
	}
	key = xasprintf("%s\x1f%s", m->name, unit_name(m->unit));
	for (size_t i = 0; i < n; i++) {
		char *k = xasprintf("%s\x1f%s=%s", key, o[i]->key, o[i]->value);

		free(key);
		key = k;
	}
	free(o);
	return key;
}

/* The other labels in the metric's own order, "k=v,k=v". */
static char *display_labels(const struct metric *m)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < m->n_labels; i++) {
		char *t;

		if (!is_other(&m->labels[i]))
			continue;
		t = xasprintf("%s%s%s=%s", s, s[0] ? "," : "", m->labels[i].key,
			      m->labels[i].value);
		free(s);
		s = t;
	}
	return s;
}

/* A non-empty string of decimal digits; its value in *v. */
static int numeric_id(const char *s, unsigned long long *v)
{
	char *end;

	if (!s[0] || s[0] < '0' || s[0] > '9')
		return 0;
	*v = strtoull(s, &end, 10);
	return *end == '\0';
}

int matrix_id_cmp(const char *a, const char *b)
{
	unsigned long long x = 0, y = 0;
	int na = numeric_id(a, &x), nb = numeric_id(b, &y);

	if (na && nb && x != y)
		return x < y ? -1 : 1;
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
}

static int id_qsort_cmp(const void *a, const void *b)
{
	return matrix_id_cmp(*(const char *const *)a, *(const char *const *)b);
}

static size_t id_index(const struct matrix_table *t, const char *id)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->ids[i], id) == 0)
			return i;
	return t->n; /* not reached: every id was collected */
}

/* Every id any cell of the probe names, in display order: all of a probe's
 * matrices share rows and columns (as p2pBandwidthLatencyTest's do), so a GPU
 * without a measured pair in one table still shows there, as a row of "-". */
static const char **collect_ids(const struct pending *pend, size_t n_pend, size_t *n_ids)
{
	size_t cap = 1, n = 0, k = 0;
	const char **all;

	for (size_t t = 0; t < n_pend; t++)
		cap += 2 * pend[t].n_cells;
	all = xcalloc(cap, sizeof(*all));
	for (size_t t = 0; t < n_pend; t++)
		for (size_t i = 0; i < pend[t].n_cells; i++) {
			all[n++] = pend[t].cells[i].src;
			all[n++] = pend[t].cells[i].dst;
		}
	qsort(all, n, sizeof(*all), id_qsort_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || strcmp(all[k - 1], all[i]) != 0)
			all[k++] = all[i];
	*n_ids = k;
	return all;
}

/* Fills table t from pending b over the shared ids. */
static void finish(struct matrix_table *t, const struct pending *b, const char **ids, size_t n)
{
	char *filled = xcalloc(n * n + 1, 1);

	t->n = n;
	t->ids = xcalloc(n + 1, sizeof(*t->ids));
	for (size_t i = 0; i < n; i++)
		t->ids[i] = xstrdup(ids[i]);
	t->median = xcalloc(n * n + 1, sizeof(*t->median));
	for (size_t i = 0; i < n * n; i++)
		t->median[i] = NAN;
	for (size_t i = 0; i < b->n_cells; i++) {
		const struct cell *c = &b->cells[i];
		size_t k = id_index(t, c->src) * n + id_index(t, c->dst);

		if (filled[k])
			continue; /* a second metric for the same cell: the first counts */
		filled[k] = 1;
		if (c->n == 0)
			continue;
		t->median[k] = c->median;
		if (t->n_cells == 0 || c->n < t->min_samples)
			t->min_samples = c->n;
		if (c->n > t->max_samples)
			t->max_samples = c->n;
		if (c->cov > t->max_cov)
			t->max_cov = c->cov;
		t->n_cells++;
	}
	free(filled);
}

int matrix_build(const struct probe_result *p, struct matrix_set *out)
{
	int rc = 0;
	struct pending *pend = NULL;
	const char **ids;
	size_t n_ids = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < p->n_metrics; i++) {
		const struct metric *m = &p->metrics[i];
		struct summary s;
		struct pending *b = NULL;
		char *key;

		if (!matrix_is_cell(m))
			continue;
		key = group_key(m);
		for (size_t t = 0; t < out->n && !b; t++)
			if (strcmp(pend[t].key, key) == 0)
				b = &pend[t];
		if (b) {
			free(key);
		} else {
			struct matrix_table *t;

			GROW_ONE(out->tables, out->n);
			GROW_ONE(pend, out->n);
			t = &out->tables[out->n];
			memset(t, 0, sizeof(*t));
			t->name = xstrdup(m->name);
			t->labels = display_labels(m);
			t->unit = m->unit;
			b = &pend[out->n++];
			memset(b, 0, sizeof(*b));
			b->key = key;
		}
		if (b->n_cells == b->cap) {
			b->cap = b->cap ? 2 * b->cap : 16;
			b->cells = xrealloc(b->cells, b->cap * sizeof(*b->cells));
		}
		stats_summarize(m->samples, m->n_samples, &s);
		b->cells[b->n_cells++] = (struct cell){.src = metric_label(m, "src"),
						       .dst = metric_label(m, "dst"),
						       .n = m->n_samples,
						       .median = s.median,
						       .cov = s.cov};
	}
	ids = collect_ids(pend, out->n, &n_ids);
	if (n_ids > MATRIX_MAX_IDS)
		rc = error("%s: its src/dst cells name %zu ids, more than the %d a matrix is drawn "
			   "for (--format json or csv lists every cell)",
			   p->name, n_ids, MATRIX_MAX_IDS);
	for (size_t t = 0; t < out->n; t++) {
		if (rc == 0)
			finish(&out->tables[t], &pend[t], ids, n_ids);
		free(pend[t].key);
		free(pend[t].cells);
	}
	free(ids);
	free(pend);
	if (rc != 0)
		matrix_set_free(out);
	return rc;
}

int matrix_check_run(const struct run *r)
{
	for (size_t i = 0; i < r->n_probes; i++) {
		struct matrix_set ms;
		if (matrix_build(&r->probes[i], &ms) != 0)
			return -1;
		matrix_set_free(&ms);
	}
	return 0;
}

void matrix_set_free(struct matrix_set *s)
{
	for (size_t t = 0; t < s->n; t++) {
		struct matrix_table *m = &s->tables[t];

		for (size_t i = 0; i < m->n; i++)
			free(m->ids[i]);
		free(m->ids);
		free(m->median);
		free(m->name);
		free(m->labels);
	}
	free(s->tables);
	memset(s, 0, sizeof(*s));
}

/* "GB/s; median of 10 samples, CoV max 0.4%": how far to trust the cells */
void matrix_describe(const struct matrix_table *t, char *buf, size_t len)
{
	if (t->n_cells == 0)
		snprintf(buf, len, "%s; no samples", unit_name(t->unit));
	else if (t->max_samples == 1)
		snprintf(buf, len, "%s; one sample each", unit_name(t->unit));
	else if (t->min_samples == t->max_samples)
		snprintf(buf, len, "%s; median of %zu samples, CoV max %.1f%%", unit_name(t->unit),
			 t->min_samples, 100.0 * t->max_cov);
	else
		snprintf(buf, len, "%s; median of %zu-%zu samples, CoV max %.1f%%",
			 unit_name(t->unit), t->min_samples, t->max_samples, 100.0 * t->max_cov);
}

/* Two decimals below 100, as p2pBandwidthLatencyTest prints: a matrix is read
 * by comparing neighbours, and 1.80 vs 1.84 us must not both read "1.8".
 * Whole numbers (counts, ranks) stay whole. */
void matrix_cell_text(const struct matrix_table *t, size_t i, size_t j, char *buf, size_t len)
{
	double v = t->median[i * t->n + j], a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && a < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		report_fmt_value(v, buf, len);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

void matrix_write_text(const struct matrix_table *t, const char *indent, FILE *f)
{
	char buf[64], about[128];
	int w0 = 6, w = 6;

	for (size_t i = 0; i < t->n; i++) {
		int l = (int)strlen(t->ids[i]);

		w0 = l > w0 ? l : w0;
		w = l > w ? l : w;
		for (size_t j = 0; j < t->n; j++) {
			matrix_cell_text(t, i, j, buf, sizeof(buf));
			w = (int)strlen(buf) > w ? (int)strlen(buf) : w;
		}
	}
	matrix_describe(t, about, sizeof(about));
	fprintf(f, "%s%s%s%s (%s)\n", indent, t->name, t->labels[0] ? " " : "", t->labels, about);
	fprintf(f, "%s%*s", indent, w0, "D\\D");
	for (size_t j = 0; j < t->n; j++)
		fprintf(f, " %*s", w, t->ids[j]);
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++) {
		fprintf(f, "%s%*s", indent, w0, t->ids[i]);
		for (size_t j = 0; j < t->n; j++) {
			matrix_cell_text(t, i, j, buf, sizeof(buf));
			fprintf(f, " %*s", w, buf);
		}
		fputc('\n', f);
	}
}

/* Markdown table cells must not contain '|'. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
}

void matrix_write_md(const struct matrix_table *t, FILE *f)
{
	char buf[64], about[128];

	matrix_describe(t, about, sizeof(about));
	fprintf(f, "\n**%s**%s%s (%s); rows src, columns dst\n\n| D\\D |", t->name,
		t->labels[0] ? " " : "", t->labels, about);
	for (size_t j = 0; j < t->n; j++) {
		fputc(' ', f);
		md_cell(f, t->ids[j]);
		fputs(" |", f);
	}
	fputs("\n|---|", f);
	for (size_t j = 0; j < t->n; j++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++) {
		fputs("| ", f);
		md_cell(f, t->ids[i]);
		fputs(" |", f);
		for (size_t j = 0; j < t->n; j++) {
			matrix_cell_text(t, i, j, buf, sizeof(buf));
			fprintf(f, " %s |", buf);
		}
		fputc('\n', f);
	}
}
