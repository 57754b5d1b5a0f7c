/* wrap.c - `mempath wrap`'s runs: each run of the command is one sample of
 * every metric (its own numbers, rusage, key vmstat deltas, its cgroup's
 * readings), so a wrapped workload is a results file like any probe's and
 * compare and ab work on it. */
#include "flow/wrap.h"

#include <stdlib.h>
#include <string.h>

#include "base/guard.h"
#include "base/kv.h"
#include "base/proc.h"
#include "base/reaper.h"
#include "base/strvec.h"
#include "base/util.h"
#include "workload/cgroup.h"
#include "workload/llama.h"
#include "workload/workload.h"

/* The command that runs: the args where "{}" is, else after the command. */
static void expand(const struct wrap_plan *p, struct strvec *v)
{
	int placed = 0;
	for (size_t i = 0; i < p->argc; i++) {
		if (p->args && !placed && strcmp(p->argv[i], "{}") == 0) {
			strvec_pushv(v, p->args, p->n_args);
			placed = 1;
			continue;
		}
		strvec_push(v, p->argv[i]);
	}
	if (p->args && !placed)
		strvec_pushv(v, p->args, p->n_args);
}

static char *joined(char *const *argv, size_t argc)
{
	char *s = xstrdup(argc ? argv[0] : "");
	for (size_t i = 1; i < argc; i++) {
		char *t = xasprintf("%s %s", s, argv[i]);
		free(s);
		s = t;
	}
	return s;
}

/* The command as typed is the identity ("{}" and all), so runs that differ
 * only by args join in compare; what ran is in extra.command. */
static void record_plan(const struct wrap_plan *p, char *const *run_argv, size_t run_argc,
			struct probe_result *res)
{
	char buf[32], *typed = joined(p->argv, p->argc);
	json_t *cmdj = json_array();
	probe_result_add_option(res, "command", typed);
	free(typed);
	snprintf(buf, sizeof(buf), "%u", p->n);
	probe_result_add_option(res, "n", buf);
	snprintf(buf, sizeof(buf), "%u", p->warmup);
	probe_result_add_option(res, "warmup", buf);
	probe_result_add_option(res, "parse", workload_parse_name(p->mode));
	snprintf(buf, sizeof(buf), "%u", p->timeout_s);
	probe_result_add_option(res, "timeout_s", buf);
	snprintf(buf, sizeof(buf), "%u", p->sample_ms);
	probe_result_add_param(res, "sample_ms", buf);
	for (size_t i = 0; i < run_argc; i++)
		json_array_append_new(cmdj, json_string(run_argv[i]));
	res->extra = json_object();
	json_object_set_new(res->extra, "command", cmdj);
	if (p->args) {
		json_t *a = json_array();
		for (size_t i = 0; i < p->n_args; i++)
			json_array_append_new(a, json_string(p->args[i]));
		json_object_set_new(res->extra, "args", a);
	}
}

/* Where runs get a cgroup of their own (§11.4, §11.7): 0 with *pl, or -1
 * with the reason recorded and said. */
static int cgroup_plan(const struct wrap_plan *p, struct probe_result *res, struct cgroup_place *pl)
{
	char *why = NULL;
	json_t *o = json_object();
	int stale, rc = -1;
	memset(pl, 0, sizeof(*pl));
	if (p->no_cgroup)
		why = xstrdup("--no-cgroup");
	else if ((rc = cgroup_find(pl, &why)) == 0 && (stale = cgroup_clean_stale(pl)) > 0)
		progress("wrap: removed %d cgroup%s left by a mempath that was killed", stale,
			 stale == 1 ? "" : "s");
	if (rc == 0) {
		json_object_set_new(o, "version", json_integer(pl->version));
		json_object_set_new(o, pl->step ? "step" : "parent",
				    json_string(pl->dir[CGROUP_MEM]));
		if (pl->version == 1 && pl->dir[CGROUP_CPU])
			json_object_set_new(o, "cpuacct", json_string(pl->dir[CGROUP_CPU]));
		if (pl->version == 1 && pl->dir[CGROUP_PIDS])
			json_object_set_new(o, "pids", json_string(pl->dir[CGROUP_PIDS]));
		if (pl->slurm)
			json_object_set_new(o, "slurm", json_string(pl->slurm));
		json_object_set_new(o, "how", json_string(pl->how));
		probe_result_add_param(res, "cgroup",
				       pl->step ? "the Slurm step's" : "one per run");
		progress("wrap: cgroup: %s", pl->how);
	} else {
		json_object_set_new(o, "unavailable", json_string(why));
		probe_result_add_param(res, "cgroup", "none");
		progress("wrap: no cgroup per run (%s): counters are machine-wide only", why);
	}
	json_object_set_new(res->extra, "cgroup", o);
	free(why);
	return rc;
}

/* The run's cgroup readings, kept only when the run was in it: a cgroup
 * that counted no fault and no CPU time did not hold the command. */
static void cgroup_keep(struct workload_iter *it, const struct cgroup *cgrp)
{
	json_t *cg = cgroup_read_end(cgrp);
	json_t *pgf = json_object_get(json_object_get(cg, "memory"), "pgfault");
	json_t *cpu = json_object_get(json_object_get(cg, "cpu"), "usage_usec");
	if (json_integer_value(pgf) > 0 || json_integer_value(cpu) > 0) {
		it->cgroup = cg;
		return;
	}
	json_decref(cg);
	warning("run %u did not run in its cgroup %s: its cgroup readings are dropped", it->index,
		cgrp->dir[CGROUP_MEM]);
}

/* One run of the command into it: its cgroup, its vmstat delta, what it
 * held while it ran and its parsed values. */
static int one_run(const struct wrap_plan *p, char *const *argv, const struct cgroup_place *pl,
		   unsigned seq, struct workload_iter *it)
{
	struct kv_list b, a;
	struct cgroup *cg = NULL;
	char *why = NULL;
	int have_b, rc;
	if (pl && !(cg = cgroup_make(pl, seq, &why))) {
		warning("%s: this run's counters are machine-wide only", why);
		free(why);
	}
	it->smp.cgroup = cg;
	it->smp.every_ms = (int)p->sample_ms;
	have_b = vmstat_read(&b) == 0;
	rc = workload_exec(argv, p->timeout_s, p->verbose, cg, &it->smp, &it->run);
	if (cg) {
		if (rc == 0)
			cgroup_keep(it, cg);
		if (cgroup_remove(cg) != 0)
			warning("cannot remove cgroup %s (the next wrap removes it)",
				cg->dir[CGROUP_MEM]);
		cgroup_free(cg);
		it->smp.cgroup = NULL;
	}
	if (rc != 0) {
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
	} else if (it->parsed_as == WORKLOAD_PARSE_LLAMA) {
		size_t tests = 0;
		for (size_t i = 0; i < it->vals.n; i++)
			tests += strcmp(it->vals.items[i].name, "tokens_per_s") == 0;
		progress("wrap: %s %u: %s (%.2f s), %zu test%s (llama-bench -o %s)",
			 it->warmup ? "warm-up" : "run", it->index, st, it->run.wall_s, tests,
			 tests == 1 ? "" : "s", it->vals.format);
	} else {
		progress("wrap: %s %u: %s (%.2f s), %zu value%s (%s)",
			 it->warmup ? "warm-up" : "run", it->index, st, it->run.wall_s, it->vals.n,
			 it->vals.n == 1 ? "" : "s", workload_parse_name(it->parsed_as));
		if (p->mode != WORKLOAD_PARSE_NONE && it->parsed_as != WORKLOAD_PARSE_LLAMA &&
		    (p->mode == WORKLOAD_PARSE_LLAMA ||
		     (it->run.out && llama_looks_unread(it->run.out))))
			warning("no llama-bench results read from run %u's stdout: give "
				"llama-bench "
				"-o json (or jsonl, csv, sql, md)",
				it->index);
		else if (p->mode != WORKLOAD_PARSE_AUTO && p->mode != WORKLOAD_PARSE_NONE &&
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

/* llama-bench's settings as read from the first run that had them; a run
 * that read differently is named (a rebuilt binary, a swapped model). */
static void keep_facts(const struct workload_iter *it, struct probe_result *res)
{
	json_t *llama = json_object_get(res->extra, "llama"), *changed;
	if (!it->vals.facts)
		return;
	if (!llama) {
		json_object_set_new(res->extra, "llama",
				    json_pack("{s:s, s:O}", "format", it->vals.format, "facts",
					      it->vals.facts));
		return;
	}
	if (json_equal(json_object_get(llama, "facts"), it->vals.facts))
		return;
	warning("llama-bench's settings in %s %u differ from the first run's (kept: the first)",
		it->warmup ? "warm-up" : "run", it->index);
	if (!(changed = json_object_get(llama, "differs_in")))
		json_object_set_new(llama, "differs_in", changed = json_array());
	json_array_append_new(changed, json_pack("{s:b, s:i}", "warmup", it->warmup, "iteration",
						 (int)it->index));
}

json_t *wrap_knobs(const struct probe_result *res)
{
	json_t *facts = json_object_get(json_object_get(res->extra, "llama"), "facts");
	json_t *args = json_object_get(res->extra, "args"), *k = json_object(), *v;
	const char *name;
	json_object_foreach (facts, name, v) {
		char *key = xasprintf("llama.%s", name);
		json_object_set(k, key, v);
		free(key);
	}
	if (json_is_array(args)) {
		char *s = xstrdup("");
		size_t i;
		json_array_foreach (args, i, v) {
			char *t = xasprintf("%s%s%s", s, i ? " " : "", json_string_value(v));
			free(s);
			s = t;
		}
		json_object_set_new(k, "wrap.args", json_string(s));
		free(s);
	}
	if (json_object_size(k) == 0) {
		json_decref(k);
		return NULL;
	}
	return k;
}

int wrap_flow(const struct wrap_plan *p, struct probe_result *res)
{
	size_t total = (size_t)p->warmup + p->n, done = 0;
	struct workload_iter *its = xcalloc(total + 1, sizeof(*its));
	struct strvec run = STRVEC_INIT;
	char **run_argv, *cmd;
	size_t run_argc;
	struct cgroup_place place;
	int have_place;
	unsigned n_failed = 0;
	struct around around;
	int rc = 0;
	expand(p, &run);
	run_argv = run.v;
	run_argc = run.n;
	cmd = joined(run_argv, run_argc);
	probe_result_init(res, "work.wrap");
	res->minflt = res->majflt = 0; /* sums over the runs */
	reaper_adopt();		       /* what a run leaves behind becomes ours to stop (§2.4) */
	guard_start();		       /* and so is all of it when we are killed */
	record_plan(p, run_argv, run_argc, res);
	have_place = cgroup_plan(p, res, &place) == 0;
	around_begin(&around);
	for (size_t i = 0; i < total && !proc_signal_received(); i++) {
		struct workload_iter *it = &its[i];
		it->warmup = i < p->warmup;
		it->index = (unsigned)(it->warmup ? i + 1 : i - p->warmup + 1);
		progress("wrap: %s %u/%u: %s", it->warmup ? "warm-up" : "run", it->index,
			 it->warmup ? p->warmup : p->n, cmd);
		if (one_run(p, run_argv, have_place ? &place : NULL, (unsigned)i + 1, it) != 0) {
			rc = -1;
			break;
		}
		done = i + 1;
		workload_record_iter(res, it);
		keep_facts(it, res);
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
	strvec_clear(&run);
	free(cmd);
	cgroup_place_free(&place);
	return rc ? rc : (int)n_failed;
}
