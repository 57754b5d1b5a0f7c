/* results_json.c - the results model to and from JSON with jansson.
 *
 * Reading is strict about structure and types (a corrupt file is one error
 * line naming the file and the JSON path, never a crash) and recomputes every
 * summary from the raw samples: a summary in the file is informational only.
 */
#include "results/results_json.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "results/json_read.h"
#include "results/windows.h"

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *labels_to_json(const struct label *l, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, l[i].key, json_string(l[i].value));
	return o;
}

static json_t *doubles_to_json(const double *x, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, isfinite(x[i]) ? json_real(x[i]) : json_null());
	return a;
}

static json_t *summary_to_json(const struct summary *s)
{
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s->n,
			 "median", s->median, "min", s->min, "max", s->max, "p5", s->p5, "p95",
			 s->p95, "mean", s->mean, "cov", s->cov);
}

static json_t *metric_to_json(const struct metric *m, int timed)
{
	struct metric t = *m; /* the summary of the samples no receipt voided */
	struct summary s;
	json_t *o = json_object();
	metric_summarize(&t);
	s = t.summary;
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "unit", json_string(unit_name(m->unit)));
	json_object_set_new(o, "better", json_string(better_name(m->better)));
	if (m->desc)
		json_object_set_new(o, "desc", json_string(m->desc));
	json_object_set_new(o, "labels", labels_to_json(m->labels, m->n_labels));
	json_object_set_new(o, "samples", doubles_to_json(m->samples, m->n_samples));
	json_object_set_new(o, "warmups", doubles_to_json(m->warmups, m->n_warmups));
	json_object_set_new(o, "summary", summary_to_json(&s));
	metric_windows_to_json(m, timed, o);
	if (m->receipts)
		json_object_set(o, "receipts", m->receipts);
	if (m->primary != PRIMARY_UNSAID)
		json_object_set_new(o, "primary", json_boolean(m->primary == PRIMARY_YES));
	return o;
}

json_t *probe_result_to_json(const struct probe_result *p)
{
	json_t *o = json_object(), *metrics = json_array(), *counters = json_object();
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "status", json_string(status_name(p->status)));
	json_object_set_new(o, "reason", str_or_null(p->reason));
	json_object_set_new(o, "params", labels_to_json(p->params, p->n_params));
	{
		json_t *id = json_array();
		for (size_t i = 0; i < p->n_identity; i++)
			json_array_append_new(id, json_string(p->identity[i]));
		json_object_set_new(o, "identity", id);
	}
	json_object_set_new(o, "wall_s", json_real(p->wall_s));
	json_object_set_new(o, "rusage",
			    json_pack("{s:f, s:f, s:I, s:I, s:I}", "user_s", p->user_s, "sys_s",
				      p->sys_s, "max_rss_kib", (json_int_t)p->max_rss_kib, "minflt",
				      (json_int_t)p->minflt, "majflt", (json_int_t)p->majflt));
	for (size_t i = 0; i < p->n_counters; i++)
		json_object_set_new(counters, p->counters[i].name,
				    json_integer((json_int_t)p->counters[i].delta));
	json_object_set_new(o, "counters", counters);
	if (p->extra)
		json_object_set(o, "extra", p->extra);
	if (p->noise)
		json_object_set(o, "noise", p->noise);
	if (p->counter_sources)
		json_object_set(o, "counter_sources", p->counter_sources);
	for (size_t i = 0; i < p->n_metrics; i++)
		json_array_append_new(metrics, metric_to_json(&p->metrics[i], p->timed));
	json_object_set_new(o, "metrics", metrics);
	return o;
}

json_t *run_to_json(const struct run *r)
{
	json_t *o = json_object(), *argv = json_array(), *probes = json_array();
	json_object_set_new(o, "schema", json_string(RESULTS_SCHEMA));
	json_object_set_new(o, "tool",
			    json_pack("{s:s, s:o, s:o}", "name", "mempath", "version",
				      str_or_null(r->tool_version), "git",
				      str_or_null(r->git_hash)));
	for (size_t i = 0; i < r->argc; i++)
		json_array_append_new(argv, json_string(r->argv[i]));
	json_object_set_new(o, "argv", argv);
	json_object_set_new(o, "label", str_or_null(r->label));
	json_object_set_new(o, "suite", str_or_null(r->suite));
	json_object_set_new(o, "start_time", str_or_null(r->start_time));
	json_object_set_new(o, "end_time", str_or_null(r->end_time));
	json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(o, "complete", json_boolean(r->complete));
	/* set_new: json_object_set would keep a second reference to a new empty host */
	json_object_set_new(o, "host", r->host ? json_incref(r->host) : json_object());
	json_object_set_new(o, "knobs",
			    json_pack("{s:O, s:O}", "start",
				      r->knobs_start ? r->knobs_start : json_null(), "end",
				      r->knobs_end ? r->knobs_end : json_null()));
	if (r->noise)
		json_object_set(o, "noise", r->noise);
	if (r->leg)
		json_object_set(o, "leg", r->leg);
	for (size_t i = 0; i < r->n_probes; i++)
		json_array_append_new(probes, probe_result_to_json(&r->probes[i]));
	json_object_set_new(o, "probes", probes);
	return o;
}

/* ---- reading ---- */

/* "receipts": [{"assumes", "state": held|failed|unknown, "evidence",
 * "void_samples": [increasing indices of counted samples], optional}] */
static int get_receipts(struct jrd *rd, json_t *j, struct metric *m)
{
	json_t *a = json_object_get(j, "receipts"), *e;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return jrd_bad(rd, "receipts", "is not an array");
	json_array_foreach (a, i, e) {
		const char *as, *state, *ev;
		if (!json_is_object(e))
			return jrd_bad(rd, "receipts", "holds an entry that is not an object");
		if (jrd_str(rd, e, "assumes", 1, &as) || jrd_str(rd, e, "state", 1, &state) ||
		    jrd_str(rd, e, "evidence", 1, &ev))
			return -1;
		if (strcmp(state, "held") && strcmp(state, "failed") && strcmp(state, "unknown"))
			return jrd_bad(rd, "receipts", "holds a state not held|failed|unknown");
		json_t *v = json_object_get(e, "void_samples"), *x;
		size_t k;
		if (v && !json_is_array(v))
			return jrd_bad(rd, "receipts", "holds void_samples that is not an array");
		json_array_foreach (v, k, x)
			if (!json_is_integer(x) || json_integer_value(x) < 0 ||
			    (size_t)json_integer_value(x) >= m->n_samples ||
			    (k &&
			     json_integer_value(x) <= json_integer_value(json_array_get(v, k - 1))))
				return jrd_bad(rd, "receipts",
					       "holds void_samples not increasing sample indices");
	}
	m->receipts = json_incref(a);
	return 0;
}

static int metric_from_json(struct jrd *rd, json_t *j, struct metric *m)
{
	char *s = NULL;
	const char *field;
	memset(m, 0, sizeof(*m));
	if (!json_is_object(j))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, j, "name", 1, &m->name))
		return -1;
	if (jrd_strdup(rd, j, "unit", 1, &s))
		return -1;
	if (unit_parse(s, &m->unit) != 0) {
		free(s);
		return jrd_bad(rd, "unit", "is not a known unit");
	}
	free(s);
	if (jrd_strdup(rd, j, "better", 0, &s))
		return -1;
	if (s && better_parse(s, &m->better) != 0) {
		free(s);
		return jrd_bad(rd, "better", "is not higher|lower|none");
	}
	free(s);
	if (jrd_strdup(rd, j, "desc", 0, &m->desc))
		return -1;
	if (jrd_label_array(rd, j, "labels", &m->labels, &m->n_labels))
		return -1;
	if (!json_is_array(json_object_get(j, "samples")))
		return jrd_bad(rd, "samples", "is missing");
	if (jrd_doubles(rd, j, "samples", &m->samples, &m->n_samples, &m->cap_samples))
		return -1;
	if (jrd_doubles(rd, j, "warmups", &m->warmups, &m->n_warmups, &m->cap_warmups))
		return -1;
	if (jrd_strdup(rd, j, "stop", 0, &m->stop))
		return -1;
	if (get_receipts(rd, j, m))
		return -1;
	{
		json_t *h = json_object_get(j, "primary");
		if (h && !json_is_boolean(h))
			return jrd_bad(rd, "primary", "is not true or false");
		m->primary = !h ? PRIMARY_UNSAID : json_is_true(h) ? PRIMARY_YES : PRIMARY_NO;
	}
	if (metric_windows_from_json(j, m, &field) != 0)
		return jrd_bad(rd, field,
			       !strcmp(field, "counters")
				       ? "is not {moved: {name: [a whole count >= 0 or null per "
					 "sample]}, unmarked: [increasing sample indices]}"
				       : "does not hold one entry per sample (a number, or [start, "
					 "end] for t)");
	metric_summarize(m);
	return 0;
}

/* Files written before a probe result said which params are its identity
 * (mempath 0.1.0): the option names each probe had then, frozen here so
 * that such a file compares the same whatever options this binary's probes
 * have now. A probe not listed (work.wrap, phantom, a newer probe): every
 * param is identity, as it was read then. */
static const struct {
	const char *probe, *options;
} legacy_options[] = {
	{"cpu.first_touch", "size,pages,touch,streams"},
	{"cpu.stream", "size,threads,kernels,stores,pages,policy,nodes"},
	{"cpu.latency", "min,max,steps,sizes,pages,order,group"},
	{"cpu.reach", "spans,threads,pages,sets,chains,dram_bytes,cache_bytes"},
	{"cpu.blocks", "block,spans,threads,pages,copy,indices"},
	{"cpu.cycler", "size,threads,split"},
	{"cpu.wake", "mode,cpus"},
	{"cpu.numa", "size,threads,pages,min_nodes,cpu_nodes,mem_nodes"},
	{"work.decode",
	 "weights,kv,batch,block,steps,threads,pages,policy,nodes,cpu_node,hog,hog_nodes"},
	{"gpu.stream", "size,bpsm,threads,unroll,kernels"},
	{"gpu.random", "spans,block_spans,dram_set,l2_set,block,sets"},
	{"gpu.latency", "min,max,factor,steps,orders"},
	{"gpu.first_touch", "size,variants,pages"},
	{"gpu.copy", "sizes,mems,dirs"},
	{"gpu.alloc", "size,variants"},
	{"gpu.sync", "sched,launches,kernel_ns"},
	{"gpu.clocks", "idle,load"},
	{"gpu.p2p", "size,chase,steps,sm_unroll,sm_blocks,tests,gpus"},
};

static void legacy_identity(struct probe_result *p)
{
	const char *opts = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(legacy_options); i++)
		if (strcmp(legacy_options[i].probe, p->name) == 0)
			opts = legacy_options[i].options;
	for (size_t i = 0; i < p->n_params; i++)
		if (!opts || str_in_list(opts, p->params[i].key))
			probe_result_mark_identity(p, p->params[i].key);
}

/* "identity": the keys of params that are the probe's identity. */
static int get_identity(const struct jrd *rd, json_t *j, struct probe_result *p)
{
	json_t *v = json_object_get(j, "identity"), *x;
	size_t i;
	if (!v || json_is_null(v)) {
		legacy_identity(p);
		return 0;
	}
	if (!json_is_array(v))
		return jrd_bad(rd, "identity", "is not an array");
	json_array_foreach (v, i, x) {
		const char *k = json_string_value(x);
		int found = 0;
		for (size_t n = 0; k && n < p->n_params; n++)
			found |= strcmp(p->params[n].key, k) == 0;
		if (!found)
			return jrd_bad(rd, "identity", "names a parameter that is not in params");
		probe_result_mark_identity(p, k);
	}
	return 0;
}

/* "counter_sources": [{"source", "state": "ok"|"unavailable", "why"}]: why
 * is there exactly when the source could not be read. */
static int get_counter_sources(struct jrd *rd, json_t *j, struct probe_result *p)
{
	json_t *a = json_object_get(j, "counter_sources"), *e;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return jrd_bad(rd, "counter_sources", "is not an array");
	json_array_foreach (a, i, e) {
		const char *src, *state, *why;
		if (!json_is_object(e))
			return jrd_bad(rd, "counter_sources",
				       "holds an entry that is not an object");
		if (jrd_str(rd, e, "source", 1, &src) || jrd_str(rd, e, "state", 1, &state) ||
		    jrd_str(rd, e, "why", 0, &why))
			return -1;
		if (strcmp(state, "ok") && strcmp(state, "unavailable"))
			return jrd_bad(rd, "counter_sources", "holds a state not ok|unavailable");
		if (!why != !strcmp(state, "ok"))
			return jrd_bad(
				rd, "counter_sources",
				"holds an unavailable source without why (or an ok one with)");
	}
	p->counter_sources = json_incref(a);
	return 0;
}

static int probe_from_json_rd(struct jrd *rd, json_t *j, struct probe_result *p)
{
	char *name = NULL, *status = NULL;
	json_t *metrics, *counters, *ru, *x;
	const char *k;
	size_t i;
	size_t base = strlen(rd->path);
	memset(p, 0, sizeof(*p));
	if (!json_is_object(j))
		return jrd_bad(rd, "", "is not an object");
	if (jrd_strdup(rd, j, "name", 1, &name))
		return -1;
	probe_result_init(p, name);
	free(name);
	if (jrd_strdup(rd, j, "status", 1, &status))
		return -1;
	if (status_parse(status, &p->status) != 0) {
		free(status);
		return jrd_bad(rd, "status", "is not ok|skip|fail|timeout");
	}
	free(status);
	if (jrd_strdup(rd, j, "reason", 0, &p->reason))
		return -1;
	if (jrd_label_array(rd, j, "params", &p->params, &p->n_params) || get_identity(rd, j, p))
		return -1;
	if (jrd_num(rd, j, "wall_s", 0, p->wall_s, &p->wall_s))
		return -1;
	ru = json_object_get(j, "rusage");
	if (ru && json_is_object(ru)) {
		if (jrd_num(rd, ru, "user_s", 0, p->user_s, &p->user_s) ||
		    jrd_num(rd, ru, "sys_s", 0, p->sys_s, &p->sys_s) ||
		    jrd_int(rd, ru, "max_rss_kib", &p->max_rss_kib) ||
		    jrd_int(rd, ru, "minflt", &p->minflt) || jrd_int(rd, ru, "majflt", &p->majflt))
			return -1;
	}
	counters = json_object_get(j, "counters");
	if (counters && !json_is_object(counters))
		return jrd_bad(rd, "counters", "is not an object");
	json_object_foreach (counters, k, x) {
		if (!json_is_integer(x))
			return jrd_bad(rd, "counters", "holds a value that is not an integer");
		probe_add_counter(p, k, json_integer_value(x));
	}
	x = json_object_get(j, "extra");
	if (x && !json_is_null(x))
		p->extra = json_incref(x);
	x = json_object_get(j, "noise");
	if (x && !json_is_null(x) && !json_is_object(x))
		return jrd_bad(rd, "noise", "is not an object");
	if (x && json_is_object(x))
		p->noise = json_incref(x);
	if (get_counter_sources(rd, j, p))
		return -1;
	metrics = json_object_get(j, "metrics");
	if (!metrics || !json_is_array(metrics))
		return jrd_bad(rd, "metrics", "is missing or not an array");
	p->cap_metrics = json_array_size(metrics) + 1;
	p->metrics = xcalloc(p->cap_metrics, sizeof(*p->metrics));
	for (i = 0; i < json_array_size(metrics); i++) {
		snprintf(rd->path + base, sizeof(rd->path) - base, ".metrics[%zu]", i);
		p->n_metrics++;
		if (metric_from_json(rd, json_array_get(metrics, i), &p->metrics[i]))
			return -1;
		p->timed |= p->metrics[i].t1 != NULL;
	}
	rd->path[base] = '\0';
	return 0;
}

int probe_result_from_json(json_t *j, struct probe_result *out, const char *what)
{
	struct jrd rd = {.kind = "mempath results", .what = what, .path = ""};
	if (probe_from_json_rd(&rd, j, out) != 0) {
		probe_result_clear(out);
		return -1;
	}
	return 0;
}

static json_t *get_obj(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return v && json_is_object(v) ? json_incref(v) : NULL;
}

struct run *run_from_json(json_t *j, const char *what)
{
	struct jrd rd = {.kind = "results", .what = what, .path = ""};
	struct run *r;
	json_t *probes, *tool, *knobs;
	char *schema = NULL;
	size_t i;
	if (!json_is_object(j)) {
		jrd_bad(&rd, "top level", "is not an object");
		return NULL;
	}
	if (jrd_strdup(&rd, j, "schema", 1, &schema))
		return NULL;
	if (strcmp(schema, RESULTS_SCHEMA) != 0) {
		error("'%s' has schema '%s', expected '%s'", what, schema, RESULTS_SCHEMA);
		free(schema);
		return NULL;
	}
	free(schema);
	r = run_new();
	tool = json_object_get(j, "tool");
	if (tool && json_is_object(tool)) {
		if (jrd_strdup(&rd, tool, "version", 0, &r->tool_version) ||
		    jrd_strdup(&rd, tool, "git", 0, &r->git_hash))
			goto fail;
	}
	/* argv other than an array is ignored, as it always was */
	if (json_is_array(json_object_get(j, "argv")) &&
	    jrd_strs(&rd, j, "argv", 0, NULL, NULL, &r->argv, &r->argc))
		goto fail;
	if (jrd_strdup(&rd, j, "label", 0, &r->label) ||
	    jrd_strdup(&rd, j, "suite", 0, &r->suite) ||
	    jrd_strdup(&rd, j, "start_time", 0, &r->start_time) ||
	    jrd_strdup(&rd, j, "end_time", 0, &r->end_time))
		goto fail;
	r->interrupted = json_is_true(json_object_get(j, "interrupted"));
	/* absent in files from before the flag: those were written once, whole */
	r->complete = !json_is_false(json_object_get(j, "complete"));
	r->host = get_obj(j, "host");
	r->noise = get_obj(j, "noise");
	r->leg = get_obj(j, "leg");
	knobs = json_object_get(j, "knobs");
	if (knobs && json_is_object(knobs)) {
		r->knobs_start = get_obj(knobs, "start");
		r->knobs_end = get_obj(knobs, "end");
	}
	probes = json_object_get(j, "probes");
	if (!probes || !json_is_array(probes)) {
		jrd_bad(&rd, "probes", "is missing or not an array");
		goto fail;
	}
	for (i = 0; i < json_array_size(probes); i++) {
		struct probe_result p;
		snprintf(rd.path, sizeof(rd.path), "probes[%zu]", i);
		if (probe_from_json_rd(&rd, json_array_get(probes, i), &p) != 0) {
			probe_result_clear(&p);
			goto fail;
		}
		run_take_probe(r, &p);
	}
	return r;
fail:
	run_free(r);
	return NULL;
}
