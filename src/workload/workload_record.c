/* workload_record.c - one run of a wrapped command recorded as samples of a
 * probe result (workload.h): the workload's own numbers, rusage, the
 * machine-wide vmstat deltas, its cgroup and what it held while it ran. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/util.h"
#include "workload/workload.h"

/* The metric with this name and exactly these labels, created on first use. */
static struct metric *metric_for(struct probe_result *p, const char *name, enum unit unit,
				 enum better better, const char *desc, const struct label *labels,
				 size_t n_labels)
{
	const char *kv[2 * WORKLOAD_MAX_LABELS];
	for (size_t i = 0; i < p->n_metrics; i++) {
		struct metric *m = &p->metrics[i];
		size_t k;
		if (strcmp(m->name, name) != 0 || m->n_labels != n_labels)
			continue;
		for (k = 0; k < n_labels; k++)
			if (strcmp(m->labels[k].key, labels[k].key) != 0 ||
			    strcmp(m->labels[k].value, labels[k].value) != 0)
				break;
		if (k == n_labels)
			return m;
	}
	for (size_t i = 0; i < n_labels && i < WORKLOAD_MAX_LABELS; i++) {
		kv[2 * i] = labels[i].key;
		kv[2 * i + 1] = labels[i].value;
	}
	return probe_add_metric_v(p, name, unit, better, desc, kv, n_labels);
}

static void add(struct metric *m, int warmup, double v)
{
	if (warmup)
		metric_add_warmup(m, v);
	else
		metric_add_sample(m, v);
}

static void add_plain(struct probe_result *p, const struct workload_iter *it, const char *name,
		      enum unit unit, enum better better, const char *desc, double v)
{
	add(metric_for(p, name, unit, better, desc, NULL, 0), it->warmup, v);
}

/* Every llama-bench repetition (samples_ts) as a sample of its own. Not
 * judged (better: none): repetitions of one run share its load and its
 * memory placement, so they are not independent samples (§11.3). */
static void add_reps(struct probe_result *p, const struct workload_iter *it,
		     const struct workload_value *v)
{
	struct metric *m =
		metric_for(p, "tokens_per_s_rep", UNIT_TOKENS_S, BETTER_NONE,
			   "llama-bench samples_ts: tokens per second of each repetition "
			   "(not judged: repetitions of one run are not independent)",
			   v->labels, v->n_labels);
	size_t i;
	json_t *x;
	json_array_foreach (v->reps, i, x)
		if (json_is_number(x))
			add(m, it->warmup, json_number_value(x));
}

/* The load estimate and the format read (§11.3). */
static void record_llama(struct probe_result *p, const struct workload_iter *it, json_t *o)
{
	double untimed = it->run.wall_s - it->vals.timed_s;
	json_object_set_new(o, "llama_format", json_string(it->vals.format));
	if (!isfinite(it->vals.timed_s) || untimed < 0)
		return;
	json_object_set_new(o, "llama_timed_s", json_real(it->vals.timed_s));
	add_plain(p, it, "load_time_est", UNIT_S, BETTER_LOWER,
		  "wall time of the run minus llama-bench's timed repetitions (samples_ns): "
		  "model load, context setup, its warm-up runs, process start and exit; an "
		  "upper bound of the load time (s)",
		  untimed);
}

static void add_labelled(struct probe_result *p, const struct workload_iter *it, const char *name,
			 const char *key, const char *value, enum unit unit, const char *desc,
			 double v)
{
	struct label l = {.key = (char *)key, .value = (char *)value};
	add(metric_for(p, name, unit, BETTER_NONE, desc, &l, 1), it->warmup, v);
}

/* The same, its description made from fmt: what is measured, per label value. */
__attribute__((format(printf, 8, 9))) static void
add_labelled_f(struct probe_result *p, const struct workload_iter *it, const char *name,
	       const char *key, const char *value, enum unit unit, double v, const char *fmt, ...)
{
	char desc[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	add_labelled(p, it, name, key, value, unit, desc, v);
}

static double mib(const json_t *bytes)
{
	return (double)json_integer_value(bytes) / (1 << 20);
}

/* The run's own cgroup (§11.4): sizes sampled during the run, memory.peak,
 * its events, CPU and I/O. */
static void record_cgroup(struct probe_result *p, const struct workload_iter *it, json_t *o)
{
	json_t *cg = it->cgroup, *v, *mem = it->smp.sizes;
	const char *k;
	char desc[200];
	if (!cg)
		return;
	json_object_set(o, "cgroup", cg);
	if (mem)
		json_object_set(json_object_get(o, "cgroup"), "sizes_max", mem);
	json_object_foreach (mem, k, v) {
		snprintf(desc, sizeof(desc),
			 "largest memory.stat %s of the run's cgroup, sampled during the run (MiB)",
			 k);
		add_labelled(p, it, "cgroup_mem", "stat", k, UNIT_MIB, desc,
			     (double)json_integer_value(v) / (1 << 20));
	}
	if (json_is_integer(v = json_object_get(cg, "peak")))
		add_plain(p, it, "cgroup_peak", UNIT_MIB, BETTER_NONE,
			  "memory.peak (cgroup v1: memory.max_usage_in_bytes) of the run's "
			  "cgroup: the most memory charged to it at once (MiB)",
			  (double)json_integer_value(v) / (1 << 20));
	if (json_is_integer(v = json_object_get(cg, "step_peak")))
		add_plain(p, it, "cgroup_step_peak", UNIT_MIB, BETTER_NONE,
			  "the Slurm step's cgroup peak (memory.peak or max_usage_in_bytes): the "
			  "most charged to the step at once since it began, mempath's and every "
			  "run's before this one included (MiB)",
			  (double)json_integer_value(v) / (1 << 20));
	json_object_foreach (json_object_get(cg, "memory"), k, v) {
		snprintf(desc, sizeof(desc), "%s %s of the run's cgroup over the run",
			 strcmp(k, "failcnt") == 0 ? "cgroup v1 memory" : "memory.stat", k);
		add_labelled(p, it, "cgroup_events", "stat", k, UNIT_COUNT, desc,
			     (double)json_integer_value(v));
	}
	json_object_foreach (json_object_get(cg, "cpu"), k, v)
		if (strcmp(k, "usage_usec") == 0 || strcmp(k, "user_usec") == 0 ||
		    strcmp(k, "system_usec") == 0) {
			char stat[16];
			snprintf(stat, sizeof(stat), "%.*s", (int)(strlen(k) - 5), k);
			snprintf(desc, sizeof(desc),
				 "cpu.stat %s (cgroup v1: cpuacct) of the run's cgroup (s)", k);
			add_labelled(p, it, "cgroup_cpu", "stat", stat, UNIT_S, desc,
				     (double)json_integer_value(v) * 1e-6);
		}
	json_object_foreach (json_object_get(cg, "io"), k, v)
		if (strcmp(k, "rbytes") == 0 || strcmp(k, "wbytes") == 0) {
			snprintf(desc, sizeof(desc),
				 "io.stat %s of the run's cgroup, summed over devices (MiB)", k);
			add_labelled(p, it, "cgroup_io", "stat", k, UNIT_MIB, desc,
				     (double)json_integer_value(v) / (1 << 20));
		}
}

/* How its memory was backed, sampled while it ran (§11.4). */
static void record_smaps(struct probe_result *p, const struct workload_iter *it, json_t *o)
{
	json_t *v;
	const char *k;
	if (!it->smp.smaps)
		return;
	json_object_set_new(
		o, "smaps",
		json_pack("{s:O, s:i}", "max", it->smp.smaps, "samples", (int)it->smp.n));
	json_object_foreach (it->smp.smaps, k, v)
		add_labelled_f(p, it, "smaps", "field", k, UNIT_MIB, mib(v),
			       "largest smaps_rollup %s sampled during the run, summed over the "
			       "command's processes (MiB)",
			       k);
}

/* GPU memory by NVML (§11.8): per device, the command's processes' peak
 * (sampled), the device's peak, and what the run left allocated (the
 * device's used memory after the run minus before it). Where NVML cannot
 * say, why, once in p->extra.gpu. */
static void record_gpu(struct probe_result *p, const struct workload_iter *it, json_t *o)
{
	json_t *v;
	const char *dev;
	if (!it->smp.gpu) {
		if (it->smp.gpu_why && !json_object_get(p->extra, "gpu"))
			json_object_set_new(p->extra, "gpu",
					    json_pack("{s:s}", "unavailable", it->smp.gpu_why));
		return;
	}
	json_object_set(o, "gpu", it->smp.gpu);
	json_object_set_new(o, "gpu_samples", json_integer(it->smp.gpu_n));
	json_object_foreach (it->smp.gpu, dev, v) {
		json_t *b = json_object_get(v, "used_before_bytes"),
		       *a = json_object_get(v, "used_after_bytes"), *x;
		if (json_is_integer(x = json_object_get(v, "procs_peak_bytes")))
			add_labelled_f(p, it, "gpu_mem_peak", "device", dev, UNIT_MIB, mib(x),
				       "largest NVML used GPU memory of the command's processes "
				       "on device %s, sampled during the run (MiB)",
				       dev);
		if (json_is_integer(x = json_object_get(v, "used_peak_bytes")))
			add_labelled_f(p, it, "gpu_used_peak", "device", dev, UNIT_MIB, mib(x),
				       "largest NVML used memory of device %s during the run, "
				       "every process's (MiB)",
				       dev);
		if (json_is_integer(a) && json_is_integer(b))
			add_labelled_f(p, it, "gpu_mem_left", "device", dev, UNIT_MIB,
				       mib(a) - mib(b),
				       "NVML used memory of device %s after the run minus before "
				       "it: what the run left allocated (MiB; every process's)",
				       dev);
	}
}

/* Where its memory was, per NUMA node, sampled while it ran. */
static void record_nodes(struct probe_result *p, const struct workload_iter *it, json_t *o)
{
	json_t *v;
	const char *k;
	if (!it->smp.nodes)
		return;
	json_object_set_new(o, "numa_maps", json_pack("{s:O}", "max", it->smp.nodes));
	json_object_foreach (it->smp.nodes, k, v)
		add_labelled(p, it, "node_mem", "node", k, UNIT_MIB,
			     "largest memory of the command's processes on this NUMA node, "
			     "sampled during the run (numa_maps N<node>= pages, MiB)",
			     mib(v));
}

int workload_name_is_ours(const char *name)
{
	return results_wrap_measured(name);
}

void workload_record_iter(struct probe_result *p, const struct workload_iter *it)
{
	const struct workload_run *r = &it->run;
	json_t *iters, *o, *vals, *vm;
	char *st = workload_status_str(r);
	if (!p->extra)
		p->extra = json_object();
	iters = json_object_get(p->extra, "iterations");
	if (!iters) {
		iters = json_array();
		json_object_set_new(p->extra, "iterations", iters);
	}
	o = json_object();
	json_object_set_new(o, "iteration", json_integer(it->index));
	json_object_set_new(o, "warmup", json_boolean(it->warmup));
	json_object_set_new(o, "status", json_string(st));
	if (r->started && WIFEXITED(r->status))
		json_object_set_new(o, "exit_code", json_integer(WEXITSTATUS(r->status)));
	json_object_set_new(o, "wall_s", json_real(r->wall_s));
	json_object_set_new(o, "parsed_as", json_string(workload_parse_name(it->parsed_as)));
	if (!workload_run_ok(r) && r->err_tail)
		json_object_set_new(o, "stderr_tail", json_string(r->err_tail));
	if (r->out_truncated)
		json_object_set_new(o, "stdout_truncated", json_true());
	if (r->left) /* only when it happened, so older files read the same */
		json_object_set_new(o, "left_running",
				    json_pack("{s:I, s:s}", "processes", (json_int_t)r->left,
					      "names", r->left_names));
	free(st);
	if (!r->started) {
		json_array_append_new(iters, o);
		return;
	}
	/* rusage per run too, so a report of the file shows the per-iteration
	 * table the command printed */
	json_object_set_new(o, "user_s", json_real(r->user_s));
	json_object_set_new(o, "sys_s", json_real(r->sys_s));
	json_object_set_new(o, "max_rss_mib", json_real((double)r->max_rss_kib / 1024.0));
	json_object_set_new(o, "minor_faults", json_integer(r->minflt));
	json_object_set_new(o, "major_faults", json_integer(r->majflt));
	add_plain(p, it, "wall_time", UNIT_S, BETTER_LOWER,
		  "wall-clock time of one run of the command, start to exit (s)", r->wall_s);
	add_plain(p, it, "user_time", UNIT_S, BETTER_LOWER,
		  "user CPU time of the command and its waited-for children (wait4 rusage, s)",
		  r->user_s);
	add_plain(p, it, "sys_time", UNIT_S, BETTER_LOWER,
		  "system CPU time of the command and its waited-for children (wait4 rusage, s)",
		  r->sys_s);
	add_plain(p, it, "max_rss", UNIT_MIB, BETTER_NONE,
		  "largest resident set of the command or one of its children (ru_maxrss, MiB)",
		  (double)r->max_rss_kib / 1024.0);
	add_plain(p, it, "minor_faults", UNIT_COUNT, BETTER_NONE,
		  "minor page faults (ru_minflt), command and waited-for children",
		  (double)r->minflt);
	add_plain(p, it, "major_faults", UNIT_COUNT, BETTER_NONE,
		  "major page faults (ru_majflt), command and waited-for children",
		  (double)r->majflt);
	vals = json_object();
	for (size_t i = 0; i < it->vals.n && workload_run_ok(r); i++) {
		const struct workload_value *v = &it->vals.items[i];
		char desc[160], key[512], name[96];
		json_t *jv;
		if (it->parsed_as == WORKLOAD_PARSE_LLAMA && strcmp(v->name, "tokens_per_s") == 0)
			snprintf(desc, sizeof(desc),
				 "llama-bench avg_ts of one run (tokens per second over its own "
				 "repetitions)");
		else if (it->parsed_as == WORKLOAD_PARSE_LLAMA &&
			 strcmp(v->name, "ms_per_token") == 0)
			snprintf(desc, sizeof(desc),
				 "llama-bench avg_ns / (n_prompt + n_gen) of one run: mean time of "
				 "a repetition per token (ms)");
		else
			snprintf(desc, sizeof(desc), "reported by the workload (%s)%s%s",
				 workload_parse_name(it->parsed_as), v->unit_text ? ", unit " : "",
				 v->unit_text ? v->unit_text : "");
		/* The workload's own numbers live apart from wrap's: a name wrap
		 * uses itself ("wall_time 999" printed by the command) gets a
		 * "workload." prefix instead of joining wrap's samples. */
		snprintf(name, sizeof(name), "%s%s",
			 workload_name_is_ours(v->name) ? "workload." : "", v->name);
		add(metric_for(p, name, v->unit, v->better, desc, v->labels, v->n_labels),
		    it->warmup, v->value);
		if (v->reps)
			add_reps(p, it, v);
		snprintf(key, sizeof(key), "%s", name);
		for (size_t k = 0; k < v->n_labels; k++) {
			size_t used = strlen(key);
			snprintf(key + used, sizeof(key) - used, "%s%s=%s", k ? "," : " ",
				 v->labels[k].key, v->labels[k].value);
		}
		jv = json_object();
		json_object_set_new(jv, "metric", json_string(name));
		json_object_set_new(jv, "labels", json_object());
		for (size_t k = 0; k < v->n_labels; k++)
			json_object_set_new(json_object_get(jv, "labels"), v->labels[k].key,
					    json_string(v->labels[k].value));
		json_object_set_new(jv, "value", json_real(v->value));
		if (!isnan(v->spread))
			json_object_set_new(jv, "stddev", json_real(v->spread));
		if (v->reps)
			json_object_set(jv, "samples", v->reps);
		json_object_set_new(vals, key, jv);
	}
	json_object_set_new(o, "values", vals);
	vm = json_object();
	for (size_t i = 0; it->have_vm && i < it->vm_delta.n; i++) {
		const struct kv *c = &it->vm_delta.items[i];
		if (workload_counter_is_key(c->name)) {
			struct label l = {.key = "counter", .value = c->name};
			add(metric_for(p, "vmstat", UNIT_COUNT, BETTER_NONE,
				       "machine-wide /proc/vmstat counter delta over one run "
				       "(pages or "
				       "events of every process, not only the command's)",
				       &l, 1),
			    it->warmup, (double)c->value);
		}
		if (c->value != 0)
			json_object_set_new(vm, c->name, json_integer(c->value));
	}
	/* no reading: unknown (null), not "nothing moved" */
	json_object_set_new(o, "vmstat", it->have_vm ? vm : (json_decref(vm), json_null()));
	if (workload_run_ok(r) && it->parsed_as == WORKLOAD_PARSE_LLAMA)
		record_llama(p, it, o);
	record_cgroup(p, it, o);
	record_smaps(p, it, o);
	record_gpu(p, it, o);
	record_nodes(p, it, o);
	json_array_append_new(iters, o);
}

void workload_iter_free(struct workload_iter *it)
{
	workload_run_free(&it->run);
	sampler_free(&it->smp);
	if (it->cgroup)
		json_decref(it->cgroup);
	it->cgroup = NULL;
	workload_values_free(&it->vals);
	kv_free(&it->vm_delta);
}
