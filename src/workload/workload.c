/* workload.c - run a command once with rusage, captured output and a timeout;
 * counters around it; one iteration recorded as samples of a probe result.
 *
 * Why not the probe runner: a probe is our code in a forked child that sends
 * JSON back; a workload is someone else's program that prints what it likes.
 * The safety rules are the same (base/proc.h): its own process group so a
 * timeout or Ctrl-C ends everything it started, wait4 for exact rusage.
 */
#include "workload/workload.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/reaper.h"
#include "base/util.h"

/* Keeps the last WORKLOAD_ERR_TAIL bytes seen. */
static void tail_append(char *tail, size_t *len, const char *data, size_t n)
{
	if (n >= WORKLOAD_ERR_TAIL) {
		memcpy(tail, data + n - WORKLOAD_ERR_TAIL, WORKLOAD_ERR_TAIL);
		*len = WORKLOAD_ERR_TAIL;
		return;
	}
	if (*len + n > WORKLOAD_ERR_TAIL) {
		size_t drop = *len + n - WORKLOAD_ERR_TAIL;
		memmove(tail, tail + drop, *len - drop);
		*len -= drop;
	}
	memcpy(tail + *len, data, n);
	*len += n;
}

struct sink {
	struct workload_run *r;
	size_t cap, tail_len;
	int echo;
};

/* stdout kept up to WORKLOAD_MAX_STDOUT, the tail of stderr, both echoed. */
static void on_data(void *ctx, enum proc_stream s, const char *data, size_t n)
{
	struct sink *k = ctx;
	struct workload_run *r = k->r;
	if (k->echo)
		(void)!write(2, data, n);
	if (s == PROC_STDERR) {
		tail_append(r->err_tail, &k->tail_len, data, n);
		return;
	}
	if (r->out_len + n > WORKLOAD_MAX_STDOUT) {
		r->out_truncated = 1;
		return;
	}
	while (r->out_len + n + 1 > k->cap)
		k->cap *= 2;
	r->out = xrealloc(r->out, k->cap);
	memcpy(r->out + r->out_len, data, n);
	r->out_len += n;
}

int workload_exec(char *const *argv, double timeout_s, int echo, struct workload_run *r)
{
	struct sink k = {.r = r, .cap = 1 << 16, .echo = echo};
	/* Ctrl-C: SIGTERM first so the command can clean up; SIGKILL 2 s later.
	 * A background process it left holding the pipes gets 0.5 s after its
	 * exit, then is ignored. */
	struct proc_spec s = {.argv = argv,
			      .io = {PROC_PIPE, PROC_PIPE},
			      .on_data = on_data,
			      .ctx = &k,
			      .on_signal = PROC_SIG_STOP,
			      .forward_as = SIGTERM,
			      .timeout_s = timeout_s,
			      .grace_s = 2};
	struct proc p;
	memset(r, 0, sizeof(*r));
	r->out = xmalloc(k.cap);
	r->err_tail = xmalloc(WORKLOAD_ERR_TAIL + 1);
	if (proc_start(&p, &s) != 0) {
		workload_run_free(r);
		return -1;
	}
	r->started = 1;
	r->status = proc_wait(&p);
	r->out[r->out_len] = '\0';
	r->err_tail[k.tail_len] = '\0';
	r->timed_out = p.timed_out;
	r->interrupted = p.interrupted;
	r->wall_s = p.wall_s;
	r->user_s = (double)p.ru.ru_utime.tv_sec + (double)p.ru.ru_utime.tv_usec * 1e-6;
	r->sys_s = (double)p.ru.ru_stime.tv_sec + (double)p.ru.ru_stime.tv_usec * 1e-6;
	r->max_rss_kib = p.ru.ru_maxrss;
	r->minflt = p.ru.ru_minflt;
	r->majflt = p.ru.ru_majflt;
	proc_free(&p);
	r->left = reaper_end_left(r->left_names, sizeof(r->left_names));
	return 0;
}

void workload_run_free(struct workload_run *r)
{
	free(r->out);
	free(r->err_tail);
	memset(r, 0, sizeof(*r));
}

char *workload_status_str(const struct workload_run *r)
{
	if (!r->started)
		return xstrdup("not started");
	if (r->timed_out)
		return xstrdup("timeout");
	if (r->interrupted)
		return xstrdup("interrupted");
	if (WIFEXITED(r->status))
		return xasprintf("exit %d", WEXITSTATUS(r->status));
	if (WIFSIGNALED(r->status))
		return xasprintf("signal %d (%s)", WTERMSIG(r->status),
				 strsignal(WTERMSIG(r->status)));
	return xstrdup("ended oddly");
}

int workload_run_ok(const struct workload_run *r)
{
	return r->started && !r->timed_out && !r->interrupted && WIFEXITED(r->status) &&
	       WEXITSTATUS(r->status) == 0;
}

/* ---- counters ------------------------------------------------------------ */

int workload_counter_is_key(const char *name)
{
	static const char *const names[] = {
		"pgpromote_success", "pgpromote_candidate", "pgdemote_kswapd",	"pgdemote_direct",
		"pgmigrate_success", "numa_pte_updates",    "numa_hint_faults", "thp_fault_alloc",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return str_starts_with(name, "pghot_") || str_starts_with(name, "hwhint_");
}

json_t *workload_numastat_read(const char *sysfs_root)
{
	char *dir = xasprintf("%s/devices/system/node", sysfs_root);
	DIR *d = opendir(dir);
	struct dirent *e;
	json_t *all = json_object();
	free(dir);
	if (!d)
		return all;
	while ((e = readdir(d)) != NULL) {
		struct kv_list l;
		json_t *node;
		char *end;
		long id;
		if (strncmp(e->d_name, "node", 4) != 0)
			continue;
		id = strtol(e->d_name + 4, &end, 10);
		if (end == e->d_name + 4 || *end)
			continue;
		{
			char *path = xasprintf("%s/devices/system/node/%s/numastat", sysfs_root,
					       e->d_name);
			char *text = read_file_str(path, NULL);
			free(path);
			if (!text)
				continue;
			kv_parse_vmstat(text, &l);
			free(text);
		}
		node = json_object();
		for (size_t i = 0; i < l.n; i++)
			json_object_set_new(node, l.items[i].name, json_integer(l.items[i].value));
		json_object_set_new(all, e->d_name, node);
		kv_free(&l);
		(void)id;
	}
	closedir(d);
	return all;
}

json_t *workload_numastat_delta(json_t *before, json_t *after)
{
	json_t *out = json_object(), *a;
	const char *node;
	json_object_foreach (after, node, a) {
		json_t *b = json_object_get(before, node), *d = json_object(), *v;
		const char *k;
		if (!json_is_object(b)) {
			json_decref(d);
			continue;
		}
		json_object_foreach (a, k, v) {
			json_t *bv = json_object_get(b, k);
			if (json_is_integer(bv) && json_is_integer(v))
				json_object_set_new(d, k,
						    json_integer(json_integer_value(v) -
								 json_integer_value(bv)));
		}
		json_object_set_new(out, node, d);
	}
	return out;
}

json_t *workload_meminfo_json(void)
{
	struct kv_list l;
	json_t *o = json_object();
	if (meminfo_read(&l) != 0)
		return o;
	for (size_t i = 0; i < l.n; i++)
		json_object_set_new(o, l.items[i].name, json_integer(l.items[i].value));
	kv_free(&l);
	return o;
}

/* ---- recording ----------------------------------------------------------- */

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

int workload_name_is_ours(const char *name)
{
	static const char *const ours[] = {"wall_time",	   "user_time",	   "sys_time", "max_rss",
					   "minor_faults", "major_faults", "vmstat"};
	for (size_t i = 0; i < ARRAY_SIZE(ours); i++)
		if (strcmp(name, ours[i]) == 0)
			return 1;
	return 0;
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
		char desc[160], key[160], name[96];
		json_t *jv;
		if (v->reps)
			snprintf(desc, sizeof(desc),
				 "llama-bench avg_ts of one run (tokens per second over its own "
				 "repetitions)");
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
		snprintf(key, sizeof(key), "%s", name);
		for (size_t k = 0; k < v->n_labels; k++) {
			size_t used = strlen(key);
			snprintf(key + used, sizeof(key) - used, "%s%s=%s", k ? "," : " ",
				 v->labels[k].key, v->labels[k].value);
		}
		jv = json_object();
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
				       "/proc/vmstat counter delta over one run (pages or events)",
				       &l, 1),
			    it->warmup, (double)c->value);
		}
		if (c->value != 0)
			json_object_set_new(vm, c->name, json_integer(c->value));
	}
	/* no reading: unknown (null), not "nothing moved" */
	json_object_set_new(o, "vmstat", it->have_vm ? vm : (json_decref(vm), json_null()));
	json_array_append_new(iters, o);
}

void workload_iter_free(struct workload_iter *it)
{
	workload_run_free(&it->run);
	workload_values_free(&it->vals);
	kv_free(&it->vm_delta);
}
