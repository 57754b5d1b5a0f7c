/* phantom.c - `mempath phantom`'s run: levels before, holder and hog, the
 * cycles, levels after, the kernel log, and the record of all of it. What
 * the report shows is recorded here, in the probe result: metrics for the
 * numbers compare judges, extra.phantom for the table. */
#include "flow/phantom.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/opt.h"
#include "base/proc.h"
#include "base/util.h"
#include "machine/levels.h"
#include "workload/phantom_child.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

void phantom_describe(const struct phantom_spec *o, char *buf, size_t len)
{
	char sz[32];
	opt_format_size(o->size, sz, sizeof(sz));
	if (o->kind == PHANTOM_CPU)
		snprintf(buf, len, "cpu %s%s", sz, o->detach ? " detached" : "");
	else if (o->kind == PHANTOM_GPU)
		snprintf(buf, len, "gpu %s", sz);
	else {
		size_t used = 0;
		buf[0] = '\0';
		for (char *const *a = o->argv; *a && used + 1 < len; a++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 a == o->argv ? "" : " ", *a);
	}
}

/* Everything one phantom run gathers, for the record. */
struct phantom_state {
	const struct phantom_plan *plan;
	char what[512];
	struct levels before, loaded, after;
	int64_t tol, lowest, ret_before, ret_loaded, ret_after;
	struct phantom_cycle *cycles;
	unsigned done;
	struct phantom_series *ser;
	struct phantom_settle fin;
	struct phantom_klog klog;
	struct phantom_klog_news news;
	int klog_ok;
	char message[600]; /* why SKIP or ERROR */
};

/* Found or made: per-cycle metrics get one sample per cycle. */
static struct metric *gib_metric(struct probe_result *p, const char *name, enum better b,
				 const char *desc, const char *phase)
{
	struct metric *m = phase ? probe_find_metric(p, name, "phase", phase, NULL)
				 : probe_find_metric(p, name, NULL);

	if (m)
		return m;
	return phase ? probe_add_metric(p, name, UNIT_GIB, b, desc, "phase", phase, NULL)
		     : probe_add_metric(p, name, UNIT_GIB, b, desc, NULL);
}

static void level_metrics(struct probe_result *p, const char *name, const char *desc,
			  int64_t before, int64_t after)
{
	if (before < 0 || after < 0)
		return; /* absent, never zero */
	metric_add_sample(gib_metric(p, name, BETTER_NONE, desc, "before"), (double)before / GIB);
	metric_add_sample(gib_metric(p, name, BETTER_NONE, desc, "after"), (double)after / GIB);
}

/* Holder and hog: running through the cycles. 0, or -1 (message set). */
static int start_load(struct phantom_state *st, struct phantom_child *holder,
		      struct phantom_child *hog)
{
	const struct phantom_plan *o = st->plan;
	char msg[512];
	if (o->holder) {
		char *sh[] = {"/bin/sh", "-c", (char *)o->holder, NULL};
		progress("phantom: starting holder: %s", o->holder);
		if (phantom_child_start(holder, o->holder_kind, sh, o->holder_size, -1, 0, 0) !=
			    0 ||
		    (o->holder_kind != PHANTOM_CMD &&
		     phantom_child_ready(holder, 120, msg, sizeof(msg)) != 0)) {
			snprintf(st->message, sizeof(st->message), "holder '%s' did not start: %s",
				 o->holder, holder->p.pid > 0 ? msg : "see the error above");
			return -1;
		}
		if (o->holder_kind == PHANTOM_CMD)
			sleep(1); /* a shell holder says nothing: give it a second */
	}
	if (o->hog) {
		progress("phantom: starting a %.1f GiB host memory hog", (double)o->hog / GIB);
		if (phantom_child_start(hog, PHANTOM_HOG, NULL, o->hog, -1, 0, 0) != 0 ||
		    phantom_child_ready(hog, 120, msg, sizeof(msg)) != 0) {
			snprintf(st->message, sizeof(st->message), "memory hog did not start: %s",
				 msg);
			return -1;
		}
	}
	return 0;
}

static void run_cycles(struct phantom_state *st)
{
	const struct phantom_plan *o = st->plan;
	st->cycles = xcalloc(o->churn, sizeof(*st->cycles));
	for (unsigned k = 0; k < o->churn && !proc_signal_received(); k++) {
		struct phantom_cycle *cy = &st->cycles[k];
		progress("phantom: cycle %u/%u: %s", k + 1, o->churn, st->what);
		if (phantom_cycle_run(&o->sp, st->ret_loaded, &st->tol, cy, st->ser) != 0) {
			if (!proc_signal_received() && !st->message[0])
				snprintf(st->message, sizeof(st->message), "%s: could not start",
					 st->what);
			break;
		}
		st->done = k + 1;
		if (cy->skip || cy->failed)
			break;
		if (st->lowest < 0 || cy->lowest < st->lowest)
			st->lowest = cy->lowest;
		progress("phantom: %s after %.2f s; %.3f GiB used; %.3f GiB missing %.1f s after "
			 "exit",
			 cy->status, cy->run_s, (double)(st->ret_loaded - cy->lowest) / GIB,
			 (double)cy->st.missing / GIB, cy->sampled_s);
	}
}

static const char *verdict_of(struct phantom_state *st)
{
	const struct phantom_cycle *last = st->done ? &st->cycles[st->done - 1] : NULL;
	if (proc_signal_received())
		return "INTERRUPTED";
	if (st->ret_before < 0) {
		snprintf(st->message, sizeof(st->message),
			 "cannot read MemAvailable (/proc/meminfo): nothing to check against");
		return "ERROR";
	}
	if (!last || last->failed) {
		if (last)
			snprintf(st->message, sizeof(st->message), "%s", last->msg);
		else if (!st->message[0])
			snprintf(st->message, sizeof(st->message), "%s: did not run", st->what);
		return "ERROR";
	}
	if (last->skip) {
		snprintf(st->message, sizeof(st->message), "%s", last->msg);
		return "SKIP";
	}
	return st->fin.returned && st->news.bugs == 0 ? "PASS" : "FAIL";
}

static json_t *jbytes(int64_t v)
{
	return v >= 0 ? json_integer(v) : json_null(); /* absent, never zero */
}

static void record_levels(struct phantom_state *st, struct probe_result *res, json_t *ph)
{
	static const char *const d_ret =
		"MemAvailable + per-CPU lists (what the check compares): before = median of 3 "
		"readings, after = median of the last 3 samples";
	const struct {
		const char *row, *metric, *desc;
		int64_t before, lowest, after;
	} lv[] = {
		{"MemAvailable+per-CPU lists", "returnable", d_ret, st->ret_before, st->lowest,
		 st->ret_after},
		{"MemAvailable", "mem_available", "MemAvailable (/proc/meminfo)",
		 st->before.mem_available, -1, st->after.mem_available},
		{"MemFree", "mem_free", "MemFree (/proc/meminfo)", st->before.mem_free, -1,
		 st->after.mem_free},
		{"per-CPU lists (zoneinfo)", "pcp_lists",
		 "pages on the per-CPU lists (/proc/zoneinfo pagesets count:, x page size): freed, "
		 "not yet in MemFree",
		 st->before.pcp_bytes, -1, st->after.pcp_bytes},
		{"GPUActive", "gpu_active", "GPUActive (/proc/meminfo, driver-provided)",
		 st->before.gpu_active, -1, st->after.gpu_active},
		{"GPUReclaim", "gpu_reclaim", "GPUReclaim (/proc/meminfo, driver-provided)",
		 st->before.gpu_reclaim, -1, st->after.gpu_reclaim},
	};
	json_t *rows = json_array();
	for (size_t i = 0; i < ARRAY_SIZE(lv); i++) {
		level_metrics(res, lv[i].metric, lv[i].desc, lv[i].before, lv[i].after);
		json_array_append_new(rows, json_pack("{s:s, s:o, s:o, s:o}", "name", lv[i].row,
						      "before", jbytes(lv[i].before), "lowest",
						      jbytes(lv[i].lowest), "after",
						      jbytes(lv[i].after)));
	}
	json_object_set_new(ph, "levels", rows);
}

static void record_cycles(struct phantom_state *st, struct probe_result *res)
{
	json_t *cyj = json_array(), *sj = json_array();
	for (unsigned k = 0; k < st->done; k++) {
		struct phantom_cycle *cy = &st->cycles[k];
		json_t *c = json_object();
		json_object_set_new(c, "status", json_string(cy->status));
		json_object_set_new(c, "run_s", json_real(cy->run_s));
		if (cy->skip || cy->failed) {
			json_object_set_new(c, "message", json_string(cy->msg));
			json_array_append_new(cyj, c);
			continue;
		}
		metric_add_sample(
			gib_metric(res, "used", BETTER_NONE,
				   "MemAvailable + per-CPU lists before the cycle minus its "
				   "lowest while the command ran",
				   NULL),
			(double)(st->ret_loaded - cy->lowest) / GIB);
		metric_add_sample(gib_metric(res, "cycle_missing", BETTER_LOWER,
					     "MemAvailable + per-CPU lists before the cycle minus "
					     "after it (holder and hog still running)",
					     NULL),
				  (double)cy->st.missing / GIB);
		json_object_set_new(c, "lowest_bytes", json_integer(cy->lowest));
		json_object_set_new(c, "missing_bytes", json_integer(cy->st.missing));
		json_object_set_new(c, "return_s", json_real(cy->st.return_s));
		json_object_set_new(c, "stable_s", json_real(cy->st.stable_s));
		json_object_set_new(c, "sampled_s", json_real(cy->sampled_s));
		if (cy->detached)
			json_object_set_new(c, "detached_pid", json_integer(cy->detached));
		json_array_append_new(cyj, c);
	}
	for (size_t i = 0; i < st->ser->n; i++)
		json_array_append_new(
			sj, json_pack("[f, I]", st->ser->t[i], (json_int_t)st->ser->v[i]));
	json_object_set_new(res->extra, "cycles", cyj);
	json_object_set_new(res->extra, "after_exit_mem_available", sj);
}

static void record_klog(struct phantom_state *st, struct probe_result *res)
{
	json_t *kj = json_object();
	if (st->klog_ok) {
		json_t *lines = json_array();
		metric_add_sample(probe_add_metric(res, "kernel_warnings", UNIT_COUNT, BETTER_LOWER,
						   "new kernel log records at level warning or "
						   "worse during the run",
						   NULL),
				  st->news.warnings);
		metric_add_sample(probe_add_metric(res, "kernel_bugs", UNIT_COUNT, BETTER_LOWER,
						   "new WARNING:/BUG:/Oops/Call Trace/NVRM lines",
						   NULL),
				  st->news.bugs);
		for (size_t i = 0; i < st->news.n_lines; i++)
			json_array_append_new(lines, json_string(st->news.lines[i]));
		json_object_set_new(kj, "source", json_string(st->klog.source));
		json_object_set_new(kj, "warnings", json_integer(st->news.warnings));
		json_object_set_new(kj, "bugs", json_integer(st->news.bugs));
		json_object_set_new(kj, "lines", lines);
	} else {
		json_object_set_new(kj, "skipped", json_string(st->klog.why));
	}
	json_object_set_new(res->extra, "kernel_log", kj);
}

static void record(struct phantom_state *st, struct probe_result *res, const char *verdict)
{
	const struct phantom_plan *o = st->plan;
	json_t *ph = json_object();
	char buf[64];
	record_levels(st, res, ph);
	if (!strcmp(verdict, "PASS") || !strcmp(verdict, "FAIL")) {
		metric_add_sample(
			gib_metric(res, "missing", BETTER_LOWER,
				   "MemAvailable + per-CPU lists before the command minus "
				   "after it exited and sampling stopped",
				   NULL),
			(double)st->fin.missing / GIB);
		if (st->fin.return_s >= 0)
			metric_add_sample(
				probe_add_metric(res, "return_time", UNIT_S, BETTER_LOWER,
						 "exit to the first sample from which "
						 "MemAvailable stayed within the tolerance",
						 NULL),
				st->fin.return_s);
	}
	record_cycles(st, res);
	record_klog(st, res);
	json_object_set_new(ph, "what", json_string(st->what));
	json_object_set_new(ph, "holder", o->holder ? json_string(o->holder) : json_null());
	json_object_set_new(ph, "cycles_done", json_integer(st->done));
	json_object_set_new(ph, "verdict", json_string(verdict));
	json_object_set_new(ph, "message", st->message[0] ? json_string(st->message) : json_null());
	json_object_set_new(ph, "tolerance_bytes", json_integer(st->tol));
	json_object_set_new(ph, "missing_bytes", json_integer(st->fin.missing));
	json_object_set_new(ph, "return_s", json_real(st->fin.return_s));
	json_object_set_new(ph, "stable_s", json_real(st->fin.stable_s));
	json_object_set_new(ph, "sampled_s",
			    json_real(st->ser->n ? st->ser->t[st->ser->n - 1] : 0));
	json_object_set_new(ph, "interval_s", json_real(o->sp.interval_s));
	json_object_set_new(ph, "settle_s", json_real(o->sp.settle_s));
	json_object_set_new(ph, "returnable_loaded", jbytes(st->ret_loaded));
	json_object_set_new(res->extra, "phantom", ph);
	opt_format_size((uint64_t)st->tol, buf, sizeof(buf));
	probe_result_add_option(res, "tolerance", buf);
	snprintf(buf, sizeof(buf), "%g", o->sp.settle_s);
	probe_result_add_option(res, "settle_s", buf);
	snprintf(buf, sizeof(buf), "%u", o->churn);
	probe_result_add_option(res, "churn", buf);
	if (o->holder)
		probe_result_add_option(res, "holder", o->holder);
	if (o->hog) {
		opt_format_size(o->hog, buf, sizeof(buf));
		probe_result_add_option(res, "hog", buf);
	}
	probe_result_add_option(res, "verdict", verdict);
	if (!strcmp(verdict, "SKIP"))
		probe_result_set_status(res, STATUS_SKIP, "%s", st->message);
	else if (!strcmp(verdict, "ERROR"))
		probe_result_set_status(res, STATUS_FAIL, "%s", st->message);
	else if (!strcmp(verdict, "INTERRUPTED"))
		probe_result_set_status(res, STATUS_FAIL, "interrupted");
	else if (!strcmp(verdict, "FAIL"))
		probe_result_set_status(res, STATUS_FAIL,
					"%.3f GiB not returned %.1f s after exit (tolerance %.3f "
					"GiB), %u new kernel bug reports",
					(double)st->fin.missing / GIB,
					st->ser->n ? st->ser->t[st->ser->n - 1] : 0,
					(double)st->tol / GIB, st->news.bugs);
}

const char *phantom_flow(const struct phantom_plan *o, struct probe_result *res)
{
	struct phantom_state st = {.plan = o, .lowest = -1};
	struct phantom_child holder = {0}, hog = {0};
	int loaded_mode = o->holder || o->hog;
	const char *verdict;
	phantom_describe(&o->sp, st.what, sizeof(st.what));
	st.ser = xcalloc(1, sizeof(*st.ser));
	probe_result_init(res, "work.phantom");
	res->extra = json_object();
	probe_result_add_option(res, "command", st.what);
	phantom_levels_settled(&st.before, 1);
	st.klog_ok = phantom_klog_mark(&st.klog) == 0;
	st.loaded = st.before;
	st.ret_before = st.ret_loaded = levels_returnable(&st.before);
	if (st.ret_before >= 0 && start_load(&st, &holder, &hog) == 0) {
		if (loaded_mode)
			phantom_levels_settled(&st.loaded, 1);
		st.ret_loaded = levels_returnable(&st.loaded);
		run_cycles(&st);
	}
	phantom_child_stop(&hog);
	phantom_child_stop(&holder);
	st.fin = st.done ? st.cycles[st.done - 1].st
			 : (struct phantom_settle){.return_s = -1, .stable_s = -1};
	if (loaded_mode && st.done && !proc_signal_received() && !st.cycles[st.done - 1].skip &&
	    !st.cycles[st.done - 1].failed) {
		/* Holder and hog gone: everything must come back to the first level. */
		progress("phantom: holder and hog stopped; settling");
		phantom_settle_sample(&o->sp, st.ret_before, st.tol, st.ser, &st.fin);
	}
	phantom_levels_settled(&st.after, 1);
	if (st.klog_ok && phantom_klog_read_new(&st.klog, &st.news) != 0)
		st.klog_ok = 0;
	if (!st.klog_ok)
		memset(&st.news, 0, sizeof(st.news));
	st.ret_after = st.ser->n ? st.fin.final : levels_returnable(&st.after);
	verdict = verdict_of(&st);
	record(&st, res, verdict);
	phantom_klog_news_free(&st.news);
	phantom_klog_close(&st.klog);
	free(st.cycles);
	free(st.ser);
	return verdict;
}
