/* html_curves.c - a probe's quantity drawn as lines when one of its labels
 * is a sweep: latency against the working set ("size", "span": log2 axis),
 * bandwidth against threads; with the knee and plateaus the probe found
 * (docs/design.md §9.5). */
#include "report/html_curves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "base/util.h"
#include "machine/mem.h"
#include "report/format.h"
#include "report/html_page.h"
#include "report/html_plot.h"

/* Metrics that share a plot: one name and unit, not matrix cells. */
static int same_quantity(const struct metric *a, const struct metric *b)
{
	return !matrix_is_cell(b) && strcmp(a->name, b->name) == 0 && a->unit == b->unit;
}

/* The label's value as a number: a size (bytes) for size and span, a count
 * for threads. 0, or -1 when it is neither. */
static int x_value(const char *key, const char *v, double *x)
{
	uint64_t b;
	char *end;

	if (!v)
		return -1;
	if (strcmp(key, "pages") == 0 && str_starts_with(v, "hugetlb-"))
		v += strlen("hugetlb-"); /* its page size; a line of its own */
	if (strcmp(key, "threads") == 0) {
		unsigned long n = strtoul(v, &end, 10);

		*x = (double)n;
		return *v && !*end && n > 0 ? 0 : -1;
	}
	if (opt_parse_size(v, &b) != 0 || b == 0)
		return -1;
	*x = (double)b;
	return 0;
}

/* The sweep label of the quantity at first, or NULL (bars): a label every
 * metric of it has, with a number in each, taking at least two values (the
 * quick suite's two sizes are a curve on a log axis too). */
static const char *sweep_label(const struct probe_result *p, size_t first)
{
	static const char *const keys[] = {"size", "span", "threads", "pages"};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		double seen[8], x;
		size_t n_seen = 0;
		int ok = 1;

		for (size_t k = first; k < p->n_metrics && ok; k++) {
			const struct metric *m = &p->metrics[k];
			size_t j = 0;

			if (!same_quantity(&p->metrics[first], m))
				continue;
			ok = x_value(keys[i], metric_label(m, keys[i]), &x) == 0;
			if (!ok && strcmp(keys[i], "pages") == 0 && metric_label(m, "pages")) {
				ok = 1; /* thp, default: no size of their own, not drawn */
				continue;
			}
			while (j < n_seen && seen[j] != x)
				j++;
			if (ok && j == n_seen && n_seen < ARRAY_SIZE(seen))
				seen[n_seen++] = x;
		}
		if (ok && n_seen >= 2)
			return keys[i];
	}
	return NULL;
}

/* "k=v,k=v" of m's labels but key. */
static void other_labels(const struct metric *m, const char *key, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n_labels && used < len; i++)
		if (strcmp(m->labels[i].key, key) != 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "",
						 m->labels[i].key, m->labels[i].value);
}

/* The series named name, added when new; NULL when there are too many. */
static struct plot_series *series_of(struct plot_series *s, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(s[i].name, name) == 0)
			return &s[i];
	if (*n == PLOT_MAX_SERIES)
		return NULL;
	memset(&s[*n], 0, sizeof(s[*n]));
	snprintf(s[*n].name, sizeof(s[*n].name), "%s", name);
	return &s[(*n)++];
}

/* The series whose labels hold every "k=v" of want (comma-separated), or -1. */
static int find_series(const struct plot_series *s, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++) {
		char *dup = xstrdup(want), *save = NULL;
		int all = 1;

		for (char *t = strtok_r(dup, ",", &save); t && all;
		     t = strtok_r(NULL, ",", &save)) {
			const char *hit = strstr(s[i].name, t);
			size_t l = strlen(t);

			all = hit && (hit == s[i].name || hit[-1] == ',') &&
			      (hit[l] == '\0' || hit[l] == ',');
		}
		free(dup);
		if (all)
			return (int)i;
	}
	return -1;
}

static void add_mark(struct plot_mark *mk, size_t *n, size_t max, int vertical, double x0,
		     double x1, double y, int series, const char *text)
{
	if (*n == max || !isfinite(x0) || !isfinite(x1) || !isfinite(y))
		return;
	mk[*n] = (struct plot_mark){vertical, x0, x1, y, series, ""};
	snprintf(mk[*n].text, sizeof(mk[*n].text), "%s", text);
	(*n)++;
}

/* cpu.latency's record: extra.knee_bytes {pages: bytes} and
 * extra.plateaus {pages: [{from_bytes, to_bytes, ns}]}. */
static void cpu_marks(const json_t *extra, const struct plot_series *s, size_t n,
		      struct plot_mark *mk, size_t *n_mk, size_t max)
{
	const char *pname;
	json_t *v;
	char buf[64], want[64], sz[32];

	json_object_foreach (json_object_get(extra, "knee_bytes"), pname, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0)
			continue;
		snprintf(want, sizeof(want), "pages=%s,order=random", pname);
		opt_format_size((uint64_t)json_integer_value(v), sz, sizeof(sz));
		snprintf(buf, sizeof(buf), "knee %s (%s)", sz, pname);
		add_mark(mk, n_mk, max, 1, (double)json_integer_value(v), 0, 0,
			 find_series(s, n, want), buf);
	}
	json_object_foreach (json_object_get(extra, "plateaus"), pname, v) {
		size_t i;
		json_t *pl;

		if (!json_is_array(v))
			continue;
		snprintf(want, sizeof(want), "pages=%s,order=random", pname);
		json_array_foreach (v, i, pl) {
			double a = json_number_value(json_object_get(pl, "from_bytes"));
			double b = json_number_value(json_object_get(pl, "to_bytes"));
			double ns = json_number_value(json_object_get(pl, "ns"));

			report_fmt_value(ns, sz, sizeof(sz));
			snprintf(buf, sizeof(buf), "%s ns", sz);
			if (a > 0 && b >= a && ns > 0)
				add_mark(mk, n_mk, max, 0, a, b, ns, find_series(s, n, want), buf);
		}
	}
}

/* gpu.latency's record: extra.plateaus {l1_ns: {ns, size}, l2_ns, hbm_ns}
 * as levels across the plot; its knee is not recorded, so it is found on
 * the random-order curve by the rule cpu.latency uses (mem_knee_from_curve),
 * from the L2 plateau's size on. */
static void gpu_marks(const json_t *extra, struct plot_series *s, size_t n, struct plot_mark *mk,
		      size_t *n_mk, size_t max)
{
	static const char *const level[][2] = {{"l1_ns", "L1"}, {"l2_ns", "L2"}, {"hbm_ns", "HBM"}};
	double x0 = INFINITY, x1 = 0;
	int r = find_series(s, n, "order=random");
	char buf[128], v[32];

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++) {
			x0 = fmin(x0, s[i].pt[k].x);
			x1 = fmax(x1, s[i].pt[k].x);
		}
	for (size_t i = 0; i < ARRAY_SIZE(level); i++) {
		double ns = json_number_value(json_object_get(
			json_object_get(json_object_get(extra, "plateaus"), level[i][0]), "ns"));

		report_fmt_value(ns, v, sizeof(v));
		snprintf(buf, sizeof(buf), "%s %s ns", level[i][1], v);
		if (ns > 0)
			add_mark(mk, n_mk, max, 0, x0, x1, ns, -1, buf);
	}
	if (r >= 0 && s[r].n >= 8) {
		const char *l2 = json_string_value(json_object_get(
			json_object_get(json_object_get(extra, "plateaus"), "l2_ns"), "size"));
		uint64_t sizes[64], knee, from = 0;
		double ns[64];
		size_t m = 0;

		/* the last cache level's knee: on a GPU the step from L1 to L2
		 * is as large as the one to HBM, so the curve from the L2
		 * plateau on */
		if (l2 && opt_parse_size(l2, &from) != 0)
			from = 0;
		for (size_t k = 0; k < s[r].n && m < 64; k++)
			if (s[r].pt[k].x >= (double)from) {
				sizes[m] = (uint64_t)s[r].pt[k].x;
				ns[m++] = s[r].pt[k].y;
			}
		knee = m >= 3 ? mem_knee_from_curve(sizes, ns, m) : 0;
		opt_format_size(knee, v, sizeof(v));
		snprintf(buf, sizeof(buf), "knee %s (last cache level, from this curve)", v);
		if (knee)
			add_mark(mk, n_mk, max, 1, (double)knee, 0, 0, r, buf);
	}
}

static int point_cmp(const void *a, const void *b)
{
	double x = ((const struct plot_point *)a)->x, y = ((const struct plot_point *)b)->x;

	return x < y ? -1 : x > y;
}

static int is_time(enum unit u)
{
	return u == UNIT_NS || u == UNIT_US || u == UNIT_MS || u == UNIT_S;
}

int html_curve(FILE *f, const struct probe_result *p, size_t first)
{
	const struct metric *m0 = &p->metrics[first];
	const char *key = sweep_label(p, first);
	struct plot_series s[PLOT_MAX_SERIES];
	struct plot_mark mk[48];
	size_t n = 0, n_mk = 0;
	int too_many = 0, latency, threads;
	char title[160], y_title[96], name[160];
	struct plot_lines pl;

	/* facts (better=none: thp_backed, rss) read better as bars, but for a
	 * time: thp_saving, the latency THP saves, is a curve against size */
	if (!key || (m0->better == BETTER_NONE && !is_time(m0->unit)))
		return 0;
	threads = strcmp(key, "threads") == 0;
	for (size_t k = first; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k];
		struct plot_series *ser;
		struct summary sum;
		double x;

		if (!same_quantity(m0, m))
			continue;
		stats_summarize(m->samples, m->n_samples, &sum);
		if (sum.n == 0 || !isfinite(sum.median) || x_value(key, metric_label(m, key), &x))
			continue;
		other_labels(m, key, name, sizeof(name));
		if (strcmp(key, "pages") == 0 && str_starts_with(metric_label(m, key), "hugetlb-"))
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%shugetlb",
				 name[0] ? "," : ""); /* the page sweep: hugetlb apart */
		if (!(ser = series_of(s, &n, name))) {
			too_many = 1;
			break;
		}
		GROW_ONE(ser->pt, ser->n);
		ser->pt[ser->n++] = (struct plot_point){x, sum.median, sum.p5, sum.p95};
	}
	for (size_t i = 0; i < n; i++) /* gpu_marks reads the curve in order */
		qsort(s[i].pt, s[i].n, sizeof(*s[i].pt), point_cmp);
	plot_styles(s, n);
	latency = strcmp(key, "size") == 0 && m0->unit == UNIT_NS && strstr(m0->name, "latency");
	if (latency && json_object_get(p->extra, "knee_bytes"))
		cpu_marks(p->extra, s, n, mk, &n_mk, ARRAY_SIZE(mk));
	else if (latency)
		gpu_marks(p->extra, s, n, mk, &n_mk, ARRAY_SIZE(mk));
	snprintf(title, sizeof(title), "%s against %s", m0->name, key);
	snprintf(y_title, sizeof(y_title), "%s (%s)", m0->name, unit_name(m0->unit));
	pl = (struct plot_lines){.title = title,
				 .x_title = threads		       ? "threads"
					    : strcmp(key, "span") == 0 ? "span (bytes, log scale)"
					    : strcmp(key, "pages") == 0
						    ? "page size (bytes, log scale; pages=)"
						    : "working set (bytes, log scale)",
				 .y_title = y_title,
				 .xs = PLOT_LOG2, /* threads double too: 1, 2, 4 ... max */
				 .ys = PLOT_LOG10,
				 .x_fmt = threads ? PLOT_T_VALUE : PLOT_T_SIZE,
				 .s = s,
				 .n = n,
				 .marks = mk,
				 .n_marks = n_mk};
	if (!too_many && n > 0 && !(threads && plot_panels(f, &pl, "kernel", 1)))
		plot_lines(f, &pl);
	for (size_t i = 0; i < n; i++)
		free(s[i].pt);
	return !too_many && n > 0;
}
