/* results.c - the in-memory results model (see results.h for ownership). */
#include "results/results.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const unit_names[UNIT__COUNT] = {
	[UNIT_NONE] = "",
	[UNIT_GB_S] = "GB/s",
	[UNIT_GIB_S] = "GiB/s",
	[UNIT_NS] = "ns",
	[UNIT_US] = "us",
	[UNIT_MS] = "ms",
	[UNIT_S] = "s",
	[UNIT_MACC_S] = "Macc/s",
	[UNIT_MIB] = "MiB",
	[UNIT_GIB] = "GiB",
	[UNIT_BYTES] = "B",
	[UNIT_COUNT] = "count",
	[UNIT_PER_GIB] = "/GiB",
	[UNIT_WORDS_US] = "words/us",
	[UNIT_PCT] = "%",
	[UNIT_MHZ] = "MHz",
	[UNIT_W] = "W",
	[UNIT_C] = "C",
	[UNIT_RATIO] = "x",
	[UNIT_TOKENS_S] = "tok/s",
	[UNIT_GFLOP_S] = "GFLOP/s",
};

const char *unit_name(enum unit u)
{
	return (unsigned)u < UNIT__COUNT ? unit_names[u] : "";
}

int unit_parse(const char *s, enum unit *out)
{
	for (int i = 0; i < UNIT__COUNT; i++)
		if (strcmp(unit_names[i], s) == 0) {
			*out = (enum unit)i;
			return 0;
		}
	return -1;
}

static const char *const better_names[] = {"none", "higher", "lower"};
static const char *const status_names[] = {"ok", "skip", "fail", "timeout"};

const char *better_name(enum better b)
{
	return (unsigned)b < ARRAY_SIZE(better_names) ? better_names[b] : "none";
}

int better_parse(const char *s, enum better *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(better_names); i++)
		if (strcmp(better_names[i], s) == 0) {
			*out = (enum better)i;
			return 0;
		}
	return -1;
}

int results_wrap_measured(const char *metric)
{
	static const char *const wraps[] = {
		"wall_time",	    "user_time",     "sys_time",     "max_rss",	   "minor_faults",
		"major_faults",	    "vmstat",	     "smaps",	     "cgroup_mem", "cgroup_peak",
		"cgroup_step_peak", "cgroup_events", "cgroup_cpu",   "cgroup_io",  "load_time_est",
		"gpu_mem_peak",	    "gpu_used_peak", "gpu_mem_left", "node_mem"};
	for (size_t i = 0; i < sizeof(wraps) / sizeof(wraps[0]); i++)
		if (strcmp(metric, wraps[i]) == 0)
			return 1;
	return 0;
}

const char *status_name(enum probe_status s)
{
	return (unsigned)s < ARRAY_SIZE(status_names) ? status_names[s] : "fail";
}

int status_parse(const char *s, enum probe_status *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(status_names); i++)
		if (strcmp(status_names[i], s) == 0) {
			*out = (enum probe_status)i;
			return 0;
		}
	return -1;
}

struct run *run_new(void)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->schema = xstrdup(RESULTS_SCHEMA);
	r->complete = 1;
	return r;
}

static void labels_free(struct label *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].key);
		free(l[i].value);
	}
	free(l);
}

void metric_clear(struct metric *m)
{
	free(m->name);
	free(m->desc);
	labels_free(m->labels, m->n_labels);
	free(m->samples);
	free(m->warmups);
	free(m->t0);
	free(m->t1);
	free(m->busy);
	free(m->wait);
	free(m->gpu_others);
	free(m->stop);
	if (m->counters)
		json_decref(m->counters);
	if (m->receipts)
		json_decref(m->receipts);
	memset(m, 0, sizeof(*m));
}

void probe_result_init(struct probe_result *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	p->max_rss_kib = p->minflt = p->majflt = -1;
}

void probe_result_clear(struct probe_result *p)
{
	free(p->name);
	free(p->reason);
	labels_free(p->params, p->n_params);
	for (size_t i = 0; i < p->n_identity; i++)
		free(p->identity[i]);
	free(p->identity);
	for (size_t i = 0; i < p->n_metrics; i++)
		metric_clear(&p->metrics[i]);
	free(p->metrics);
	for (size_t i = 0; i < p->n_counters; i++)
		free(p->counters[i].name);
	free(p->counters);
	if (p->extra)
		json_decref(p->extra);
	if (p->noise)
		json_decref(p->noise);
	if (p->counter_sources)
		json_decref(p->counter_sources);
	memset(p, 0, sizeof(*p));
}

void run_free(struct run *r)
{
	if (!r)
		return;
	free(r->schema);
	free(r->tool_version);
	free(r->git_hash);
	if (r->leg)
		json_decref(r->leg);
	for (size_t i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	free(r->label);
	free(r->suite);
	free(r->start_time);
	free(r->end_time);
	if (r->host)
		json_decref(r->host);
	if (r->knobs_start)
		json_decref(r->knobs_start);
	if (r->knobs_end)
		json_decref(r->knobs_end);
	if (r->noise)
		json_decref(r->noise);
	for (size_t i = 0; i < r->n_probes; i++)
		probe_result_clear(&r->probes[i]);
	free(r->probes);
	free(r);
}

static struct probe_result *run_slot(struct run *r)
{
	if (r->n_probes == r->cap_probes) {
		r->cap_probes = r->cap_probes ? 2 * r->cap_probes : 8;
		r->probes = xrealloc(r->probes, r->cap_probes * sizeof(*r->probes));
	}
	return &r->probes[r->n_probes++];
}

struct probe_result *run_add_probe(struct run *r, const char *name)
{
	struct probe_result *p = run_slot(r);
	probe_result_init(p, name);
	return p;
}

void run_take_probe(struct run *r, struct probe_result *src)
{
	struct probe_result *p = run_slot(r);
	*p = *src;
	memset(src, 0, sizeof(*src));
}

void probe_result_set_status(struct probe_result *p, enum probe_status s, const char *fmt, ...)
{
	va_list ap;
	p->status = s;
	free(p->reason);
	p->reason = NULL;
	if (fmt) {
		va_start(ap, fmt);
		if (vasprintf(&p->reason, fmt, ap) < 0)
			p->reason = NULL;
		va_end(ap);
	}
}

static void label_set(struct label **labels, size_t *n, const char *key, const char *value)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*labels)[i].key, key) == 0) {
			free((*labels)[i].value);
			(*labels)[i].value = xstrdup(value);
			return;
		}
	GROW_ONE(*labels, *n);
	(*labels)[*n].key = xstrdup(key);
	(*labels)[*n].value = xstrdup(value);
	(*n)++;
}

void probe_result_add_param(struct probe_result *p, const char *key, const char *value)
{
	label_set(&p->params, &p->n_params, key, value);
}

int probe_result_is_identity(const struct probe_result *p, const char *key)
{
	for (size_t i = 0; i < p->n_identity; i++)
		if (strcmp(p->identity[i], key) == 0)
			return 1;
	return 0;
}

void probe_result_mark_identity(struct probe_result *p, const char *key)
{
	if (probe_result_is_identity(p, key))
		return;
	GROW_ONE(p->identity, p->n_identity);
	p->identity[p->n_identity++] = xstrdup(key);
}

void probe_result_add_option(struct probe_result *p, const char *key, const char *value)
{
	label_set(&p->params, &p->n_params, key, value);
	probe_result_mark_identity(p, key);
}

void probe_result_mark_primary(struct probe_result *p, const char *names)
{
	for (size_t i = 0; names && i < p->n_metrics; i++)
		p->metrics[i].primary =
			str_in_list(names, p->metrics[i].name) ? PRIMARY_YES : PRIMARY_NO;
}

struct metric *probe_add_metric_v(struct probe_result *p, const char *name, enum unit unit,
				  enum better better, const char *desc, const char *const *kv,
				  size_t n_pairs)
{
	struct metric *m;
	if (p->n_metrics == p->cap_metrics) {
		p->cap_metrics = p->cap_metrics ? 2 * p->cap_metrics : 16;
		p->metrics = xrealloc(p->metrics, p->cap_metrics * sizeof(*p->metrics));
	}
	m = &p->metrics[p->n_metrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->unit = unit;
	m->better = better;
	m->desc = desc ? xstrdup(desc) : NULL;
	for (size_t i = 0; i < n_pairs; i++)
		metric_add_label(m, kv[2 * i], kv[2 * i + 1]);
	return m;
}

struct metric *probe_add_metric(struct probe_result *p, const char *name, enum unit unit,
				enum better better, const char *desc, ...)
{
	const char *kv[64];
	size_t n = 0;
	va_list ap;
	va_start(ap, desc);
	for (const char *k; (k = va_arg(ap, const char *)) && n < 62;) {
		kv[n++] = k;
		kv[n++] = va_arg(ap, const char *);
	}
	va_end(ap);
	return probe_add_metric_v(p, name, unit, better, desc, kv, n / 2);
}

struct metric *probe_find_metric(struct probe_result *p, const char *name, ...)
{
	const char *kv[64];
	size_t n = 0;
	va_list ap;
	va_start(ap, name);
	for (const char *k; (k = va_arg(ap, const char *)) && n < 62;) {
		kv[n++] = k;
		kv[n++] = va_arg(ap, const char *);
	}
	va_end(ap);
	for (size_t i = 0; i < p->n_metrics; i++) {
		struct metric *m = &p->metrics[i];
		size_t j;
		if (strcmp(m->name, name) != 0 || m->n_labels != n / 2)
			continue;
		for (j = 0; j < n / 2; j++) {
			const char *v = metric_label(m, kv[2 * j]);
			if (!v || strcmp(v, kv[2 * j + 1]) != 0)
				break;
		}
		if (j == n / 2)
			return m;
	}
	return NULL;
}

void probe_add_counter(struct probe_result *p, const char *name, int64_t delta)
{
	GROW_ONE(p->counters, p->n_counters);
	p->counters[p->n_counters].name = xstrdup(name);
	p->counters[p->n_counters].delta = delta;
	p->n_counters++;
}

static void push(double **arr, size_t *n, size_t *cap, double v)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*arr = xrealloc(*arr, *cap * sizeof(**arr));
	}
	(*arr)[(*n)++] = v;
}

/* A non-finite value (a zero-time division, a failed read) is not a sample:
 * it is dropped here so that summaries and files stay numeric. */
static double (*window_clock)(void);

/* Sample n was added with no counters read over it: null in every moved
 * counter, its index unmarked (docs/schema.md). */
static void counters_follow(json_t *c, size_t n)
{
	json_t *moved = json_object_get(c, "moved"), *a, *un = json_object_get(c, "unmarked");
	const char *k;

	json_object_foreach (moved, k, a)
		json_array_append_new(a, json_null());
	if (!un)
		json_object_set_new(c, "unmarked", un = json_array());
	json_array_append_new(un, json_integer((json_int_t)n));
}

double metric_clock(void)
{
	return window_clock ? window_clock() : (double)time_now_ns() * 1e-9;
}

void metric_set_clock(double (*clock)(void))
{
	window_clock = clock;
}

void metric_add_sample(struct metric *m, double v)
{
	double now = metric_clock();
	metric_add_sample_at(m, v, m->last_t > 0 ? m->last_t : NAN, now);
}

void metric_add_sample_at(struct metric *m, double v, double t0, double t1)
{
	size_t n = m->n_samples;
	if (!isfinite(v))
		return;
	push(&m->samples, &m->n_samples, &m->cap_samples, v);
	/* the windows follow the samples; a metric read from a file whose
	 * samples had none (a writer outside a probe) gets none */
	if (n == 0 || m->t1) {
		m->t0 = xrealloc(m->t0, m->cap_samples * sizeof(*m->t0));
		m->t1 = xrealloc(m->t1, m->cap_samples * sizeof(*m->t1));
		m->t0[n] = t0;
		m->t1[n] = t1;
	}
	if (m->busy) {
		m->busy = xrealloc(m->busy, m->cap_samples * sizeof(*m->busy));
		m->busy[n] = NAN;
	}
	if (m->wait) {
		m->wait = xrealloc(m->wait, m->cap_samples * sizeof(*m->wait));
		m->wait[n] = NAN;
	}
	if (m->gpu_others) {
		m->gpu_others = xrealloc(m->gpu_others, m->cap_samples * sizeof(*m->gpu_others));
		m->gpu_others[n] = NAN;
	}
	if (m->counters) /* the counters of a window not read: unknown */
		counters_follow(m->counters, n);
	m->last_t = t1;
}

void metric_add_warmup(struct metric *m, double v)
{
	if (!isfinite(v))
		return;
	push(&m->warmups, &m->n_warmups, &m->cap_warmups, v);
	m->last_t = metric_clock();
}

const char *metric_receipt_failed(const struct metric *m)
{
	size_t i;
	json_t *r;

	json_array_foreach (m->receipts, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "state")), "failed"))
			return json_string_value(json_object_get(r, "evidence"));
	return NULL;
}

double metric_busy_mean(const struct metric *m, double *max)
{
	double sum = 0, top = NAN;
	size_t n = 0;
	for (size_t i = 0; m->busy && i < m->n_samples; i++)
		if (isfinite(m->busy[i])) {
			sum += m->busy[i];
			top = n++ ? fmax(top, m->busy[i]) : m->busy[i];
		}
	if (max)
		*max = top;
	return n ? sum / (double)n : NAN;
}

int labels_subset(const struct label *sub, size_t n_sub, const struct label *of, size_t n_of)
{
	for (size_t i = 0; i < n_sub; i++) {
		size_t j = 0;
		while (j < n_of && strcmp(sub[i].key, of[j].key) != 0)
			j++;
		if (j == n_of || strcmp(sub[i].value, of[j].value) != 0)
			return 0;
	}
	return 1;
}

int labels_equal(const struct label *a, size_t na, const struct label *b, size_t nb)
{
	return na == nb && labels_subset(a, na, b, nb);
}

void metric_add_label(struct metric *m, const char *key, const char *value)
{
	label_set(&m->labels, &m->n_labels, key, value);
}

const char *metric_label(const struct metric *m, const char *key)
{
	for (size_t i = 0; i < m->n_labels; i++)
		if (strcmp(m->labels[i].key, key) == 0)
			return m->labels[i].value;
	return NULL;
}

int metric_sample_void(const struct metric *m, size_t i)
{
	size_t k, j;
	json_t *r, *x;
	json_array_foreach (m->receipts, k, r)
		json_array_foreach (json_object_get(r, "void_samples"), j, x)
			if (json_is_integer(x) && json_integer_value(x) == (json_int_t)i)
				return 1;
	return 0;
}

size_t metric_void_count(const struct metric *m)
{
	size_t n = 0;
	for (size_t i = 0; m->receipts && i < m->n_samples; i++)
		n += (size_t)metric_sample_void(m, i);
	return n;
}

void metric_summarize(struct metric *m)
{
	double *kept;
	size_t n = 0;
	if (!m->receipts || !metric_void_count(m)) {
		stats_summarize(m->samples, m->n_samples, &m->summary);
		return;
	}
	/* samples a receipt voided are kept in the file, not in the figure */
	kept = xcalloc(m->n_samples + 1, sizeof(*kept));
	for (size_t i = 0; i < m->n_samples; i++)
		if (!metric_sample_void(m, i))
			kept[n++] = m->samples[i];
	stats_summarize(kept, n, &m->summary);
	free(kept);
}

void metric_labels_str(const struct metric *m, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < m->n_labels && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? "," : "",
					 m->labels[i].key, m->labels[i].value);
}

/* Is b a copy of a: started at the same time on the same host, every
 * metric's samples equal? */
int run_same(const struct run *a, const struct run *b)
{
	const char *ha = json_string_value(json_object_get(a->host, "hostname"));
	const char *hb = json_string_value(json_object_get(b->host, "hostname"));
	if (!a->start_time || !b->start_time || strcmp(a->start_time, b->start_time) != 0 || !ha ||
	    !hb || strcmp(ha, hb) != 0 || a->n_probes != b->n_probes)
		return 0;
	for (size_t p = 0; p < a->n_probes; p++) {
		const struct probe_result *x = &a->probes[p], *y = &b->probes[p];
		if (strcmp(x->name, y->name) != 0 || x->n_metrics != y->n_metrics)
			return 0;
		for (size_t k = 0; k < x->n_metrics; k++) {
			const struct metric *mx = &x->metrics[k], *my = &y->metrics[k];
			if (mx->n_samples != my->n_samples ||
			    (mx->n_samples &&
			     memcmp(mx->samples, my->samples, mx->n_samples * sizeof(double)) != 0))
				return 0;
		}
	}
	return 1;
}
