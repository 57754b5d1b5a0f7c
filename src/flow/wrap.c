/* wrap.c - `mempath wrap`'s runs: each run of the command is one sample of
 * every metric (its own numbers, rusage, key vmstat deltas), so a wrapped
 * workload is a results file like any probe's and compare and ab work on it. */
#include "flow/wrap.h"

#include <stdlib.h>
#include <string.h>

#include "base/kv.h"
#include "base/proc.h"
#include "base/reaper.h"
#include "base/util.h"
#include "workload/workload.h"

static char *joined(const struct wrap_plan *p)
{
	char *s = xstrdup(p->argv[0]);
	for (size_t i = 1; i < p->argc; i++) {
		char *t = xasprintf("%s %s", s, p->argv[i]);
		free(s);
		s = t;
	}
	return s;
}

static void record_plan(const struct wrap_plan *p, const char *cmd, struct probe_result *res)
{
	char buf[32];
	json_t *cmdj = json_array();
	probe_result_add_option(res, "command", cmd);
	snprintf(buf, sizeof(buf), "%u", p->n);
	probe_result_add_option(res, "n", buf);
	snprintf(buf, sizeof(buf), "%u", p->warmup);
	probe_result_add_option(res, "warmup", buf);
	probe_result_add_option(res, "parse", workload_parse_name(p->mode));
	snprintf(buf, sizeof(buf), "%u", p->timeout_s);
	probe_result_add_option(res, "timeout_s", buf);
	for (size_t i = 0; i < p->argc; i++)
		json_array_append_new(cmdj, json_string(p->argv[i]));
	res->extra = json_object();
	json_object_set_new(res->extra, "command", cmdj);
}

/* One run of the command into it, its vmstat delta and parsed values. */
static int one_run(const struct wrap_plan *p, struct workload_iter *it)
{
	struct kv_list b, a;
	int have_b = vmstat_read(&b) == 0;
	if (workload_exec(p->argv, p->timeout_s, p->verbose, &it->run) != 0) {
		if (have_b)
			kv_free(&b);
		return -1;
	}
	if (have_b && vmstat_read(&a) == 0) {
		vmstat_delta(&b, &a, &it->vm_delta);
		it->have_vm = 1;
		kv_free(&a);
	}
	if (have_b)
		kv_free(&b);
	if (p->mode != WORKLOAD_PARSE_NONE && workload_run_ok(&it->run))
		it->parsed_as = workload_parse_output(it->run.out, p->mode, &it->vals);
	else
		it->parsed_as = WORKLOAD_PARSE_NONE;
	return 0;
}

static void say_how_it_went(const struct wrap_plan *p, const struct workload_iter *it)
{
	char *st = workload_status_str(&it->run);
	if (!workload_run_ok(&it->run)) {
		const char *tail = it->run.err_tail ? it->run.err_tail : "";
		const char *last = tail + strlen(tail), *ls;
		while (last > tail && last[-1] == '\n')
			last--;
		for (ls = last; ls > tail && ls[-1] != '\n'; ls--)
			;
		progress("wrap: %s %u: %s (%.2f s)%s%.*s", it->warmup ? "warm-up" : "run",
			 it->index, st, it->run.wall_s, ls < last ? ": " : "", (int)(last - ls),
			 ls);
	} else {
		progress("wrap: %s %u: %s (%.2f s), %zu value%s (%s)",
			 it->warmup ? "warm-up" : "run", it->index, st, it->run.wall_s, it->vals.n,
			 it->vals.n == 1 ? "" : "s", workload_parse_name(it->parsed_as));
		if (p->mode != WORKLOAD_PARSE_AUTO && p->mode != WORKLOAD_PARSE_NONE &&
		    it->parsed_as == WORKLOAD_PARSE_NONE)
			warning("no %s output found in run %u's stdout",
				workload_parse_name(p->mode), it->index);
	}
	if (it->run.left)
		warning("%s %u left %zu process%s running (%s): stopped",
			it->warmup ? "warm-up" : "run", it->index, it->run.left,
			it->run.left == 1 ? "" : "es", it->run.left_names);
	free(st);
}

/* Machine-wide counters, meminfo and numastat over the whole run. */
struct around {
	struct kv_list vm;
	int have_vm;
	json_t *mem, *numa;
};

static void around_begin(struct around *a)
{
	a->mem = workload_meminfo_json();
	a->numa = workload_numastat_read("/sys");
	a->have_vm = vmstat_read(&a->vm) == 0;
}

static void around_end(struct around *a, struct probe_result *res)
{
	struct kv_list now, d;
	json_t *m = json_object(), *numa_now = workload_numastat_read("/sys");
	if (a->have_vm && vmstat_read(&now) == 0) {
		vmstat_delta(&a->vm, &now, &d);
		for (size_t i = 0; i < d.n; i++)
			probe_add_counter(res, d.items[i].name, d.items[i].value);
		kv_free(&d);
		kv_free(&now);
	}
	if (a->have_vm)
		kv_free(&a->vm);
	json_object_set_new(m, "before", a->mem);
	json_object_set_new(m, "after", workload_meminfo_json());
	json_object_set_new(res->extra, "meminfo", m);
	json_object_set_new(res->extra, "numastat_delta",
			    workload_numastat_delta(a->numa, numa_now));
	json_decref(a->numa);
	json_decref(numa_now);
}

int wrap_flow(const struct wrap_plan *p, struct probe_result *res)
{
	size_t total = (size_t)p->warmup + p->n, done = 0;
	struct workload_iter *its = xcalloc(total + 1, sizeof(*its));
	char *cmd = joined(p);
	unsigned n_failed = 0;
	struct around around;
	int rc = 0;
	probe_result_init(res, "work.wrap");
	res->minflt = res->majflt = 0; /* sums over the runs */
	reaper_adopt();		       /* what a run leaves behind becomes ours to stop (§2.4) */
	record_plan(p, cmd, res);
	around_begin(&around);
	for (size_t i = 0; i < total && !proc_signal_received(); i++) {
		struct workload_iter *it = &its[i];
		it->warmup = i < p->warmup;
		it->index = (unsigned)(it->warmup ? i + 1 : i - p->warmup + 1);
		progress("wrap: %s %u/%u: %s", it->warmup ? "warm-up" : "run", it->index,
			 it->warmup ? p->warmup : p->n, cmd);
		if (one_run(p, it) != 0) {
			rc = -1;
			break;
		}
		done = i + 1;
		workload_record_iter(res, it);
		res->wall_s += it->run.wall_s;
		res->user_s += it->run.user_s;
		res->sys_s += it->run.sys_s;
		res->minflt += it->run.minflt;
		res->majflt += it->run.majflt;
		if (it->run.max_rss_kib > res->max_rss_kib)
			res->max_rss_kib = it->run.max_rss_kib;
		n_failed += !it->warmup && !workload_run_ok(&it->run);
		say_how_it_went(p, it);
	}
	around_end(&around, res);
	if (proc_signal_received())
		probe_result_set_status(res, STATUS_FAIL, "interrupted after %zu of %zu runs", done,
					total);
	else if (n_failed)
		probe_result_set_status(res, STATUS_FAIL,
					"%u of %u runs failed (see extra.iterations)", n_failed,
					p->n);
	for (size_t i = 0; i < total; i++)
		workload_iter_free(&its[i]);
	free(its);
	free(cmd);
	return rc ? rc : (int)n_failed;
}
