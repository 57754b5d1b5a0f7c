/* html_loaded.c - latency against achieved bandwidth (html_loaded.h).
 *
 * Why not bars: cpu.loaded measures a latency and an injected bandwidth at
 * each of ~10 delays per mix, ~60 bars in two charts, and what a reader
 * wants is how latency climbs as the bandwidth approaches the limit: one
 * point per delay at (bandwidth, latency), a curve per mix. The pairing
 * needs nothing of the probe: a latency (a time unit, "latency" in its
 * name) and a bandwidth (GB/s) with the same labels are one point. */
#include "report/html_loaded.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/format.h"
#include "report/html_plot.h"
#include "verdict/ref_busy.h"

static int is_latency(const struct metric *m)
{
	return (m->unit == UNIT_NS || m->unit == UNIT_US) && strstr(m->name, "latency");
}

/* The metric named name with exactly m's labels, or NULL. */
static const struct metric *partner(const struct probe_result *p, const char *name,
				    const struct metric *m)
{
	char want[256], have[256];

	metric_labels_str(m, want, sizeof(want));
	for (size_t k = 0; k < p->n_metrics; k++) {
		if (strcmp(p->metrics[k].name, name) != 0 || p->metrics[k].unit != UNIT_GB_S)
			continue;
		metric_labels_str(&p->metrics[k], have, sizeof(have));
		if (strcmp(want, have) == 0)
			return &p->metrics[k];
	}
	return NULL;
}

/* The pair: the first latency with a bandwidth partner under 3 label sets. */
static int find_pair(const struct probe_result *p, const char **lat, const char **bw)
{
	for (size_t i = 0; i < p->n_metrics; i++) {
		if (!is_latency(&p->metrics[i]))
			continue;
		for (size_t j = 0; j < p->n_metrics; j++) {
			size_t n = 0;

			if (p->metrics[j].unit != UNIT_GB_S)
				continue;
			for (size_t k = 0; k < p->n_metrics; k++)
				n += strcmp(p->metrics[k].name, p->metrics[i].name) == 0 &&
				     partner(p, p->metrics[j].name, &p->metrics[k]) != NULL;
			if (n >= 3) {
				*lat = p->metrics[i].name;
				*bw = p->metrics[j].name;
				return 0;
			}
		}
	}
	return -1;
}

/* The label that steps the load (delay, sms): a number in every point. */
static int is_number(const char *s)
{
	char *end;

	if (!s || !*s)
		return 0;
	(void)strtod(s, &end);
	return *end == '\0';
}

/* "k=v,k=v" of m's labels but the stepping one (numeric values): the mix. */
static void mix_of(const struct metric *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n_labels && used < len; i++)
		if (!is_number(m->labels[i].value))
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "",
						 m->labels[i].key, m->labels[i].value);
}

/* Is the load of m nothing: every numeric label 0 (gpu.loaded sms=0). */
static int unloaded_point(const struct metric *m)
{
	int any = 0;

	for (size_t i = 0; i < m->n_labels; i++)
		if (is_number(m->labels[i].value)) {
			if (strtod(m->labels[i].value, NULL) != 0)
				return 0;
			any = 1;
		}
	return any;
}

static struct plot_series *series_named(struct plot_series *s, size_t *n, const char *name)
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

int html_loaded(FILE *f, const struct probe_result *p, const char **lat, const char **bw)
{
	struct plot_series s[PLOT_MAX_SERIES];
	struct plot_mark mk[4];
	size_t n = 0, n_mk = 0;
	double x_hi = 0;
	char mix[160], title[256], x_title[96], y_title[96], v[32];
	double other;
	long cpus;
	const char *unit = "ns";
	struct plot_lines pl;
	int drawn;

	if (find_pair(p, lat, bw) != 0)
		return 0;
	for (size_t k = 0; k < p->n_metrics; k++) {
		const struct metric *m = &p->metrics[k], *b;
		struct summary sl, sb = {0};
		struct plot_series *ser;

		if (strcmp(m->name, *lat) != 0)
			continue;
		unit = unit_name(m->unit);
		stats_summarize(m->samples, m->n_samples, &sl);
		b = partner(p, *bw, m);
		if (b)
			stats_summarize(b->samples, b->n_samples, &sb);
		if (sl.n == 0 || !isfinite(sl.median) || (b && (sb.n == 0 || !isfinite(sb.median))))
			continue;
		if (!b && !unloaded_point(m)) { /* the idle chase: a level across */
			if (n_mk < ARRAY_SIZE(mk)) {
				report_fmt_value(sl.median, v, sizeof(v));
				mk[n_mk] = (struct plot_mark){0, 0, 0, sl.median, -1, ""};
				snprintf(mk[n_mk++].text, sizeof(mk[0].text), "no load: %s %s", v,
					 unit);
			}
			continue;
		}
		mix_of(m, mix, sizeof(mix));
		if (!mix[0]) /* one curve (gpu.loaded): the legend names the latency */
			snprintf(mix, sizeof(mix), "%s", *lat);
		if (!(ser = series_named(s, &n, mix)))
			break;
		GROW_ONE(ser->pt, ser->n);
		ser->pt[ser->n++] =
			(struct plot_point){b ? sb.median : 0, sl.median, sl.p5, sl.p95};
		x_hi = fmax(x_hi, b ? sb.median : 0);
	}
	for (size_t i = 0; i < n_mk; i++)
		mk[i].x1 = x_hi;
	plot_styles(s, n);
	snprintf(title, sizeof(title), "%s against %s", *lat, *bw);
	if (ref_busy_load(p->noise, &other, &cpus)) { /* as unsteady as it was (§4.14) */
		char *busy = ref_busy_text(other, cpus);
		snprintf(title + strlen(title), sizeof(title) - strlen(title),
			 ", measured beside other work (%s): unsteady", busy);
		free(busy);
	}
	snprintf(x_title, sizeof(x_title), "%s, the load's achieved bandwidth (GB/s)", *bw);
	snprintf(y_title, sizeof(y_title), "%s (%s)", *lat, unit);
	pl = (struct plot_lines){.title = title,
				 .x_title = x_title,
				 .y_title = y_title,
				 .xs = PLOT_LINEAR,
				 .ys = PLOT_LINEAR,
				 .x_fmt = PLOT_T_VALUE,
				 .s = s,
				 .n = n,
				 .marks = mk,
				 .n_marks = n_mk,
				 .x_from_0 = 1,
				 .marks_are = "the latency with no load"};
	drawn = n > 0 && plot_lines(f, &pl);
	for (size_t i = 0; i < n; i++)
		free(s[i].pt);
	return drawn;
}
