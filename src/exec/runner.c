/* runner.c - each probe in a child: options, timeout, status, rusage, vmstat.
 *
 * Why a child: a probe that crashes, is OOM-killed or hangs must not take the
 * run with it (docs/design.md §6); it also gives each probe a fresh address space and
 * exact per-probe rusage. Results come back as JSON over a pipe.
 */
#include "exec/runner.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/kv.h"
#include "base/proc.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "machine/counters.h"
#include "machine/mem.h"
#include "machine/noise.h"
#include "machine/pagesize.h"
#include "results/results_json.h"

void runner_opts_default(struct runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = RUNNER_REPS;
	o->warmups = RUNNER_WARMUPS;
	o->min_sample_ns = RUNNER_SAMPLE_MS * 1000000ull;
	/* MEMPATH_COUNTERS=off: no counters (the overhead bench's baseline) */
	o->counters = !getenv("MEMPATH_COUNTERS") || strcmp(getenv("MEMPATH_COUNTERS"), "off");
}

double runner_timeout_s(const struct probe *p, const struct runner_opts *o)
{
	return o->timeout_s > 0 ? o->timeout_s : (p->timeout_s > 0 ? p->timeout_s : 600);
}

double runner_auto_deadline_s(const struct probe *p, const struct runner_opts *o)
{
	return o->auto_ci > 0 ? runner_timeout_s(p, o) * RUNNER_AUTO_SHARE : 0;
}

/* --reps auto's deadline in the child (docs/design.md §4.16): SIGALRM at
 * it ends every metric's budget, so that each metric still to come takes
 * its least samples and the probe ends before its timeout with all of
 * them. measure_more() reads the budget afresh at every sample. */
static struct probe_ctx *volatile auto_ctx;
static volatile sig_atomic_t auto_deadline_hit;

static void auto_deadline(int sig)
{
	(void)sig;
	if (auto_ctx)
		auto_ctx->auto_budget_s = 0;
	auto_deadline_hit = 1;
}

static void auto_arm(struct probe_ctx *ctx, double deadline_s)
{
	struct sigaction sa;
	struct itimerval it = {
		{0, 0},
		{(time_t)deadline_s, (suseconds_t)((deadline_s - floor(deadline_s)) * 1e6)}};

	if (!(ctx->auto_ci > 0) || !(deadline_s > 0))
		return;
	auto_ctx = ctx;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = auto_deadline;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void auto_disarm(struct probe_result *res, double deadline_s)
{
	struct itimerval off = {{0, 0}, {0, 0}};
	char buf[128];

	if (!auto_ctx)
		return;
	setitimer(ITIMER_REAL, &off, NULL);
	auto_ctx = NULL;
	if (auto_deadline_hit) {
		snprintf(buf, sizeof(buf),
			 "at %.0f s (the timeout's %.0f%%): the metrics after took their least",
			 deadline_s, 100 * RUNNER_AUTO_SHARE);
		probe_result_add_param(res, "auto_deadline", buf);
	}
}

/* What a probe's child has finished, kept at its steps (every progress()
 * call, at most once a second) in a file of the parent's private folder,
 * written whole and renamed, so that a probe stopped by its timeout or
 * Ctrl-C keeps the metrics it measured (docs/design.md §4.16). */
static struct probe_result *partial_res;
static const char *partial_path;
static uint64_t partial_ns;

static void keep_partial(void)
{
	uint64_t now = time_now_ns();
	json_t *j;
	char *tmp;

	if (!partial_res || !partial_path || now - partial_ns < 1000000000ull)
		return;
	partial_ns = now;
	j = probe_result_to_json(partial_res);
	tmp = xasprintf("%s.tmp", partial_path);
	if (j && json_dump_file(j, tmp, JSON_COMPACT) == 0)
		rename(tmp, partial_path);
	free(tmp);
	json_decref(j);
}

struct probe_child_arg {
	const char *partial; /* the file keep_partial() writes */
	const struct probe *p;
	void *opts;
	const struct runner_opts *o;
};

static int parse_probe_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
			    const struct runner_opts *o, void *opts);

static json_t *probe_child(void *argp)
{
	struct probe_child_arg *a = argp;
	struct probe_result res;
	struct probe_ctx ctx;
	const char *why = NULL;
	json_t *j;
	uint64_t window_ns;
	probe_result_init(&res, a->p->name);
	res.timed = 1; /* the samples' windows go back with the result */
	for (const struct opt *opt = a->p->opts; opt && opt->name; opt++) {
		char val[256];
		opt_format_value(opt, a->opts, val, sizeof(val));
		probe_result_add_option(&res, opt->name, val);
	}
	window_ns = a->o->min_sample_ns;
	if (!a->o->window_given && (a->p->flags & PROBE_GPU))
		window_ns = RUNNER_GPU_SAMPLE_MS * 1000000ull;
	if (window_ns != RUNNER_SAMPLE_MS * 1000000ull) {
		char ms[32];
		snprintf(ms, sizeof(ms), "%.0f", (double)window_ns / 1e6);
		probe_result_add_param(&res, "sample_window_ms", ms);
	}
	if (a->o->quick && a->p->quick_opts) { /* what the report says of it */
		char *t = xasprintf("%s%s%s", a->p->quick_opts, a->p->quick_note ? ": " : "",
				    a->p->quick_note ? a->p->quick_note : "");
		probe_result_add_param(&res, "quick_suite", t);
		free(t);
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.res = &res;
	ctx.reps = a->o->reps;
	ctx.warmups = a->o->warmups;
	ctx.auto_ci = a->o->auto_ci;
	ctx.auto_budget_s = a->o->auto_budget_s;
	ctx.min_sample_ns = window_ns;
	ctx.window_given = a->o->window_given;
	ctx.quick = a->o->quick;
	ctx.force = a->o->force;
	if (a->p->supported)
		why = a->p->supported(a->opts);
	else if (a->p->flags & PROBE_GPU) /* the standard check (kit/probe.h) */
		why = gpu_unsupported_reason();
	if (why) {
		probe_result_set_status(&res, STATUS_SKIP, "%s", why);
	} else {
		int rc;
		if (a->o->counters)
			counters_open(((a->p->flags & (PROBE_GPU | PROBE_P2P)) ? COUNTERS_GPU : 0) |
				      ((a->p->flags & PROBE_UM) ? COUNTERS_UM : 0)); /* §4.17 */
		auto_arm(&ctx, runner_auto_deadline_s(a->p, a->o));
		partial_res = &res;
		partial_path = a->partial;
		partial_ns = time_now_ns();
		util_set_step_hook(keep_partial);
		rc = a->p->run(&ctx, a->opts);
		util_set_step_hook(NULL);
		partial_res = NULL;
		auto_disarm(&res, runner_auto_deadline_s(a->p, a->o));
		if (rc == PROBE_SKIP && res.status == STATUS_OK)
			probe_result_set_status(&res, STATUS_SKIP, "skipped (no reason given)");
		else if (rc == PROBE_FAIL && res.status == STATUS_OK)
			probe_result_set_status(&res, STATUS_FAIL, "failed (no reason given)");
		else if (rc != PROBE_OK && rc != PROBE_SKIP && rc != PROBE_FAIL)
			probe_result_set_status(&res, STATUS_FAIL, "returned %d", rc);
	}
	counters_attach(&res);
	counters_close();
	if (res.status == STATUS_OK)
		receipts_check(a->p->receipts, &res, mem_llc_bytes());
	probe_result_mark_primary(&res, a->p->primary);
	j = probe_result_to_json(&res);
	probe_result_clear(&res);
	return j;
}

int runner_check_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
		      const struct runner_opts *o)
{
	void *opts = xcalloc(1, p->opts_size ? p->opts_size : 1);
	int rc = parse_probe_opts(p, kvs, n_kvs, o, opts);
	free(opts);
	return rc;
}

static int parse_probe_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
			    const struct runner_opts *o, void *opts)
{
	char why[256];
	if (opt_defaults(p->opts, opts) != 0)
		return -1;
	if (o->quick && p->quick_opts && opt_set_all(p->opts, opts, p->quick_opts, p->name) != 0)
		return -1;
	if (o->full && p->full_opts && opt_set_all(p->opts, opts, p->full_opts, p->name) != 0)
		return -1;
	for (size_t i = 0; i < n_kvs; i++)
		if (opt_set(p->opts, opts, kvs[i], p->name) != 0)
			return -1;
	if (p->check && p->check(opts, why, sizeof(why)) != 0)
		return error("%s: %s", p->name, why);
	return 0;
}

/* The noise meter, started at the first tick (the child's pid is known by
 * then) and read every NOISE_PERIOD_S while the probe runs. */
struct meter_ctx {
	const struct proc *child;
	struct noise_meter *m;
	int gpu;		     /* a GPU probe: the meter counts other processes on the GPUs */
	const struct runner_opts *o; /* its tick (the status line) rides on the meter's */
};

static void meter_tick(void *ctx)
{
	struct meter_ctx *c = ctx;
	if (!c->m)
		c->m = noise_meter_start(c->child->pid, c->gpu);
	else
		noise_meter_tick(c->m);
	if (c->o->tick)
		c->o->tick(c->o->tick_ctx);
}

/* Each counted sample's window gets the other CPUs busy over it, and moves
 * to seconds from the probe's start (docs/design.md §4.14); the meter's
 * record goes with the result. */
static void record_noise(struct probe_result *out, const struct noise_meter *m, double base,
			 int meter_gpu)
{
	for (size_t i = 0; i < out->n_metrics; i++) {
		struct metric *x = &out->metrics[i];
		if (!x->t1)
			continue;
		x->busy = xcalloc(x->cap_samples ? x->cap_samples : 1, sizeof(*x->busy));
		x->wait = xcalloc(x->cap_samples ? x->cap_samples : 1, sizeof(*x->wait));
		if (meter_gpu)
			x->gpu_others = xcalloc(x->cap_samples ? x->cap_samples : 1,
						sizeof(*x->gpu_others));
		for (size_t k = 0; k < x->n_samples; k++) {
			double t0 = isnan(x->t0[k]) ? base : x->t0[k];
			x->busy[k] = noise_meter_busy(m, t0, x->t1[k]);
			x->wait[k] = noise_meter_wait(m, t0, x->t1[k]);
			if (x->gpu_others)
				x->gpu_others[k] = noise_meter_gpu_others(m, t0, x->t1[k]);
			x->t0[k] -= base;
			x->t1[k] -= base;
		}
	}
	if (m)
		out->noise = noise_meter_json(m, base);
}

static void record_vmstat(struct probe_result *p, const struct kv_list *before,
			  const struct kv_list *after)
{
	struct kv_list d;
	vmstat_delta(before, after, &d);
	for (size_t i = 0; i < d.n; i++)
		probe_add_counter(p, d.items[i].name, d.items[i].value);
	kv_free(&d);
}

/* A private folder for the child's partial result; NULL if none can be made
 * (the probe then keeps nothing when killed, as before). */
static char *partial_dir_new(void)
{
	const char *t = getenv("TMPDIR");
	char *dir = xasprintf("%s/mempath-probe-XXXXXX", t && *t ? t : "/tmp");

	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

static void partial_dir_free(char *dir, const char *path)
{
	if (path) {
		char *tmp = xasprintf("%s.tmp", path);

		unlink(path);
		unlink(tmp);
		free(tmp);
	}
	if (dir)
		rmdir(dir);
	free(dir);
	free((char *)path);
}

/* The child's last partial result into out (initialised either way): the
 * number of metrics it holds, 0 when none was kept. */
static size_t take_partial(const char *path, struct probe_result *out, const char *name)
{
	json_t *j = path ? json_load_file(path, 0, NULL) : NULL;
	size_t n = 0;

	if (j && probe_result_from_json(j, out, name) == 0)
		n = out->n_metrics;
	else
		probe_result_init(out, name);
	json_decref(j);
	return n;
}

int runner_run_probe(const struct probe *p, char *const *kvs, size_t n_kvs,
		     const struct runner_opts *o, struct probe_result *out)
{
	struct probe_child_arg arg = {.p = p, .o = o};
	struct kv_list before, after;
	struct proc child;
	struct meter_ctx meter = {
		.child = &child, .gpu = (p->flags & (PROBE_GPU | PROBE_P2P)) != 0, .o = o};
	double timeout = runner_timeout_s(p, o);
	int have_vm, oom_before_found = 0, oom_after_found = 0;
	int64_t oom_before, oom_after;
	json_t *j = NULL;
	char *partial_dir, note[1024];
	arg.opts = xcalloc(1, p->opts_size ? p->opts_size : 1);
	if (parse_probe_opts(p, kvs, n_kvs, o, arg.opts) != 0) {
		free(arg.opts);
		return -1;
	}
	partial_dir = partial_dir_new();
	arg.partial = partial_dir ? xasprintf("%s/partial.json", partial_dir) : NULL;
	have_vm = vmstat_read(&before) == 0;
	oom_before = kv_get(&before, "oom_kill", &oom_before_found);
	j = proc_json_ticked(probe_child, &arg, timeout, &child, meter_tick, &meter,
			     NOISE_PERIOD_S);
	free(arg.opts);
	if (child.pid <= 0) {
		partial_dir_free(partial_dir, arg.partial);
		noise_meter_free(meter.m);
		kv_free(&before);
		return -1;
	}
	if (!j || probe_result_from_json(j, out, p->name) != 0) {
		size_t kept = take_partial(arg.partial, out, p->name);

		if (proc_signal_received())
			probe_result_set_status(out, STATUS_FAIL, "interrupted%s",
						kept ? " (the metrics it had finished are kept)"
						     : "");
		else if (child.timed_out)
			probe_result_set_status(
				out, STATUS_TIMEOUT, "no result after %.0f s; killed%s", timeout,
				kept ? " (the metrics it had finished are kept)" : "");
		else if (child.stopped_by)
			probe_result_set_status(out, STATUS_FAIL,
						"the probe's child stopped (%s); killed",
						child.stopped_by > 0 ? strsignal(child.stopped_by)
								     : "one of its processes");
		else if (WIFSIGNALED(child.status)) {
			struct kv_list now;
			int sig = WTERMSIG(child.status);
			vmstat_read(&now);
			oom_after = kv_get(&now, "oom_kill", &oom_after_found);
			kv_free(&now);
			if (sig == SIGKILL && oom_before_found && oom_after_found &&
			    oom_after > oom_before)
				probe_result_set_status(out, STATUS_FAIL,
							"killed by the OOM killer");
			else
				probe_result_set_status(out, STATUS_FAIL, "crashed: signal %d (%s)",
							sig, strsignal(sig));
		} else if (WIFEXITED(child.status))
			probe_result_set_status(out, STATUS_FAIL,
						"child exited with status %d and no result",
						WEXITSTATUS(child.status));
		else
			probe_result_set_status(out, STATUS_FAIL, "child ended with no result");
	}
	if (j)
		json_decref(j);
	partial_dir_free(partial_dir, arg.partial);
	/* A child killed while it held page-size knobs (a timeout's SIGKILL)
	 * left their record: put them back now, not at the next run. */
	if (pagesize_recover(note, sizeof(note)) > 0) {
		warning("%s: %s", p->name, note);
		probe_result_add_param(out, "knobs_recovered", note);
	}
	if (meter.m)
		noise_meter_tick(meter.m); /* the end of the last window */
	record_noise(out, meter.m, (double)child.t0_ns * 1e-9, meter.gpu);
	noise_meter_free(meter.m);
	proc_free(&child);
	out->wall_s = child.wall_s;
	out->user_s = (double)child.ru.ru_utime.tv_sec + (double)child.ru.ru_utime.tv_usec * 1e-6;
	out->sys_s = (double)child.ru.ru_stime.tv_sec + (double)child.ru.ru_stime.tv_usec * 1e-6;
	out->max_rss_kib = child.ru.ru_maxrss;
	out->minflt = child.ru.ru_minflt;
	out->majflt = child.ru.ru_majflt;
	if (have_vm && vmstat_read(&after) == 0) {
		/* Counters from the child's own result (if any) are replaced by the
		 * parent's view, which covers the whole child lifetime. */
		for (size_t i = 0; i < out->n_counters; i++)
			free(out->counters[i].name);
		free(out->counters);
		out->counters = NULL;
		out->n_counters = 0;
		record_vmstat(out, &before, &after);
		kv_free(&after);
	}
	kv_free(&before);
	return 0;
}
