/* phantom.c - `mempath phantom`: memory a command's exit did not give back.
 *
 * MemAvailable (and MemFree, per-CPU lists, GPUActive/GPUReclaim where they
 * exist) before the command; then, after it exits, sampled until it is back
 * within the tolerance or the settle time passes (seed 000 finding B: 55 GiB
 * kept in a driver's pools after a 64 GiB process exit). With --churn the
 * command runs K times while a holder and a host memory hog apply pressure,
 * and new kernel warnings are counted (seed 000 §4, acceptance test 6).
 * Logic: workload/phantom.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/opt.h"
#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "exec/session.h"
#include "machine/mem.h"
#include "results/results_json.h"
#include "workload/phantom.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

struct popts {
	struct phantom_spec sp;
	uint64_t hog, holder_size;
	const char *holder;
	enum phantom_kind holder_kind;
	unsigned churn;
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

static void print_level(FILE *f, int md, const char *name, int64_t before, int64_t lowest,
			int64_t after)
{
	char b[32], l[32], a[32], m[32];
	if (before < 0 && after < 0) {
		fprintf(f, md ? "| %s | absent | | | |\n" : "%-26s absent\n", name);
		return;
	}
	snprintf(b, sizeof(b), "%.3f", (double)before / GIB);
	snprintf(l, sizeof(l), lowest >= 0 ? "%.3f" : "-", (double)lowest / GIB);
	snprintf(a, sizeof(a), "%.3f", (double)after / GIB);
	snprintf(m, sizeof(m), "%.3f", (double)(before - after) / GIB);
	fprintf(f, md ? "| %s | %s | %s | %s | %s |\n" : "%-26s %12s %12s %12s %12s\n", name, b, l,
		a, m);
}

static int parse_holder(const char *h, struct popts *o)
{
	o->holder = h;
	o->holder_kind = PHANTOM_CMD;
	if (str_starts_with(h, "cpu:") || str_starts_with(h, "gpu:")) {
		o->holder_kind = h[0] == 'c' ? PHANTOM_HOG : PHANTOM_GPU;
		if (opt_parse_size(h + 4, &o->holder_size) != 0 || o->holder_size == 0)
			return error("bad --holder size '%s' (e.g. gpu:16G)", h + 4);
	}
	return 0;
}

static void describe(const struct phantom_spec *o, char *buf, size_t len)
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

struct phantom_opts {
	uint64_t cpu, gpu, tolerance, hog;
	double hold_s, settle_s, interval_ms;
	unsigned churn;
	const char *holder, *out, *label, *format;
	int detach, force, quiet;
};

static void phantom_init(void *p)
{
	struct phantom_opts *o = p;
	o->hold_s = 1;
	o->settle_s = 10;
	o->interval_ms = 100;
	o->churn = 1;
	o->format = "term";
}

static const struct arg phantom_args[] = {
	ARG_SIZE("cpu", 0, struct phantom_opts, cpu, "SIZE", 1,
		 "built-in child: anonymous memory mapped, touched, held, exit\n"
		 "(the reference: must PASS on any machine)"),
	ARG_SIZE("gpu", 0, struct phantom_opts, gpu, "SIZE", 1,
		 "built-in child: cudaMalloc, write, hold, free, exit"),
	ARG_NUM("hold", 0, struct phantom_opts, hold_s, "S", 0, 86400,
		"how long a built-in child holds its memory (default 1)"),
	ARG_NUM("settle", 0, struct phantom_opts, settle_s, "S", 0, 86400,
		"longest wait for the memory to come back (default 10)"),
	ARG_SIZE("tolerance", 0, struct phantom_opts, tolerance, "SIZE", 0,
		 "missing memory still PASS (default: 2% of SIZE, or of the\n"
		 "memory CMD used, at least 256M: above idle drift here)"),
	ARG_NUM("interval", 0, struct phantom_opts, interval_ms, "MS", 1, 86400,
		"sampling period (default 100)"),
	ARG_COUNT("churn", 0, struct phantom_opts, churn, "K", 1, 100000,
		  "run the command K times (default 1), each checked"),
	ARG_STR("holder", 0, struct phantom_opts, holder, "H",
		"keeps running through the cycles: a shell command, or\n"
		"cpu:SIZE / gpu:SIZE (built-in, memory held until the end)"),
	ARG_SIZE("hog", 0, struct phantom_opts, hog, "SIZE", 1,
		 "host memory hog (built-in: SIZE touched, kept hot) during\nthe cycles"),
	ARG_FLAG("detach", 0, struct phantom_opts, detach,
		 "the CPU child leaves a setsid grandchild holding its memory\n"
		 "after it exits (a deliberate phantom: proves the check fails)"),
	ARG_STR("output", 'o', struct phantom_opts, out, "FILE",
		"results file (default ./mempath-<label>-<time>.json)"),
	ARG_STR("label", 'l', struct phantom_opts, label, "L", "a name for this configuration"),
	ARG_CHOICE("format", 'f', struct phantom_opts, format, "F", "term|md",
		   "table format: term (default) or md"),
	ARG_FLAG("force", 0, struct phantom_opts, force, "allow sizes above 80% of MemAvailable"),
	ARG_FLAG("quiet", 'q', struct phantom_opts, quiet, "no progress lines on stderr"),
	ARG_END};

static int phantom_main(void *p, const struct cmd_line *l)
{
	const struct phantom_opts *po = p;
	struct popts o = {.sp = {.kind = PHANTOM_CMD,
				 .hold_s = po->hold_s,
				 .settle_s = po->settle_s,
				 .interval_s = po->interval_ms / 1000.0,
				 .tolerance = po->tolerance,
				 .detach = po->detach},
			  .churn = po->churn,
			  .hog = po->hog};
	const char *label = po->label, *out_arg = po->out;
	int md = strcmp(po->format, "md") == 0, force = po->force, rc = 0, klog_ok, loaded_mode;
	int sources = (po->cpu > 0) + (po->gpu > 0) + (l->argc > 0);
	int argc = l->all_argc;
	char **argv = l->all_argv;
	struct levels before, loaded, after;
	struct phantom_child holder = {0}, hog = {0};
	struct phantom_klog klog;
	struct phantom_klog_news news;
	struct phantom_settle fin;
	struct phantom_cycle *cycles = NULL;
	struct phantom_series *ser;
	struct probe_result res;
	struct session s;
	int64_t tol = 0, lowest = -1, ret_before, ret_loaded;
	unsigned done = 0;
	char what[512], *out_path = NULL;
	const char *verdict;
	util_set_quiet(po->quiet);
	if (po->cpu) {
		o.sp.kind = PHANTOM_CPU;
		o.sp.size = po->cpu;
	} else if (po->gpu) {
		o.sp.kind = PHANTOM_GPU;
		o.sp.size = po->gpu;
	}
	if (po->holder && parse_holder(po->holder, &o) != 0)
		return 2;
	if (l->argc > 0)
		o.sp.argv = l->argv;
	if (sources != 1)
		return error("phantom needs exactly one of --cpu SIZE, --gpu SIZE or -- CMD"), 2;
	if (o.sp.detach && o.sp.kind != PHANTOM_CPU)
		return error("--detach goes with --cpu"), 2;
	/* Host memory we will hold at once: the CPU child, the hog, a cpu holder. */
	if (mem_check_size((o.sp.kind == PHANTOM_CPU ? o.sp.size : 0) + o.hog +
				   (o.holder_kind == PHANTOM_HOG ? o.holder_size : 0),
			   force, "phantom host memory (child + hog + holder)") != 0)
		return 2;
	describe(&o.sp, what, sizeof(what));
	ser = xcalloc(1, sizeof(*ser));
	out_path = out_arg ? xstrdup(out_arg) : session_default_path(label ? label : "phantom");
	proc_signals_install();
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	s.out_path = out_path;
	progress("mempath: collecting the machine's fingerprint ...");
	if (session_begin(&s, argc, argv, label, NULL) != 0) {
		run_free(s.run);
		free(ser);
		free(out_path);
		return 1;
	}
	probe_result_init(&res, "work.phantom");
	res.extra = json_object();
	probe_result_add_option(&res, "command", what);
	phantom_levels_settled(&before, 1);
	klog_ok = phantom_klog_mark(&klog) == 0;
	loaded = before;
	ret_before = ret_loaded = levels_returnable(&before);
	loaded_mode = o.holder || o.hog;
	if (o.holder) {
		char *sh[] = {"/bin/sh", "-c", (char *)o.holder, NULL}, msg[512];
		progress("phantom: starting holder: %s", o.holder);
		if (phantom_child_start(&holder, o.holder_kind, sh, o.holder_size, -1, 0, 0) != 0 ||
		    (o.holder_kind != PHANTOM_CMD &&
		     phantom_child_ready(&holder, 120, msg, sizeof(msg)) != 0)) {
			if (holder.p.pid > 0)
				error("holder '%s' did not start: %s", o.holder, msg);
			rc = 1;
			goto stop;
		}
		if (o.holder_kind == PHANTOM_CMD)
			sleep(1); /* a shell holder says nothing: give it a second */
	}
	if (o.hog) {
		char msg[512];
		progress("phantom: starting a %.1f GiB host memory hog", (double)o.hog / GIB);
		if (phantom_child_start(&hog, PHANTOM_HOG, NULL, o.hog, -1, 0, 0) != 0 ||
		    phantom_child_ready(&hog, 120, msg, sizeof(msg)) != 0) {
			error("memory hog did not start: %s", msg);
			rc = 1;
			goto stop;
		}
	}
	if (loaded_mode)
		phantom_levels_settled(&loaded, 1);
	ret_loaded = levels_returnable(&loaded);
	cycles = xcalloc(o.churn, sizeof(*cycles));
	for (unsigned k = 0; k < o.churn && !proc_signal_received(); k++) {
		struct phantom_cycle *cy = &cycles[k];
		progress("phantom: cycle %u/%u: %s", k + 1, o.churn, what);
		if (phantom_cycle_run(&o.sp, ret_loaded, &tol, cy, ser) != 0) {
			if (!proc_signal_received())
				rc = 1;
			break;
		}
		done = k + 1;
		if (cy->skip || cy->failed)
			break;
		if (lowest < 0 || cy->lowest < lowest)
			lowest = cy->lowest;
		progress("phantom: %s after %.2f s; %.3f GiB used; %.3f GiB missing %.1f s after "
			 "exit",
			 cy->status, cy->run_s, (double)(ret_loaded - cy->lowest) / GIB,
			 (double)cy->st.missing / GIB, cy->sampled_s);
	}
stop:
	phantom_child_stop(&hog);
	phantom_child_stop(&holder);
	fin = done ? cycles[done - 1].st : (struct phantom_settle){.return_s = -1, .stable_s = -1};
	if (loaded_mode && done && !proc_signal_received() && !cycles[done - 1].skip &&
	    !cycles[done - 1].failed) {
		/* Holder and hog gone: everything must come back to the first level. */
		progress("phantom: holder and hog stopped; settling");
		phantom_settle_sample(&o.sp, ret_before, tol, ser, &fin);
	}
	phantom_levels_settled(&after, 1);
	if (klog_ok && phantom_klog_read_new(&klog, &news) != 0)
		klog_ok = 0;
	if (!klog_ok)
		memset(&news, 0, sizeof(news));
	{
		struct phantom_cycle *last = done ? &cycles[done - 1] : NULL;
		int64_t ret_after = ser->n ? fin.final : levels_returnable(&after);
		const char *d_ret =
			"MemAvailable + per-CPU lists (what the check compares): before "
			"= median of 3 readings, after = median of the last 3 samples";
		char buf[64];
		json_t *cyj = json_array(), *sj = json_array(), *kj = json_object();
		if (proc_signal_received())
			verdict = "INTERRUPTED";
		else if (!last || last->failed)
			verdict = "ERROR";
		else if (last->skip)
			verdict = "SKIP";
		else
			verdict = fin.returned && news.bugs == 0 ? "PASS" : "FAIL";
		/* ---- the record ---- */
		level_metrics(&res, "returnable", d_ret, ret_before, ret_after);
		level_metrics(&res, "mem_available", "MemAvailable (/proc/meminfo)",
			      before.mem_available, after.mem_available);
		level_metrics(&res, "mem_free", "MemFree (/proc/meminfo)", before.mem_free,
			      after.mem_free);
		level_metrics(&res, "pcp_lists",
			      "pages on the per-CPU lists (/proc/zoneinfo pagesets count:, x page "
			      "size): freed, not yet in MemFree",
			      before.pcp_bytes, after.pcp_bytes);
		level_metrics(&res, "gpu_active", "GPUActive (/proc/meminfo, driver-provided)",
			      before.gpu_active, after.gpu_active);
		level_metrics(&res, "gpu_reclaim", "GPUReclaim (/proc/meminfo, driver-provided)",
			      before.gpu_reclaim, after.gpu_reclaim);
		if (!strcmp(verdict, "PASS") || !strcmp(verdict, "FAIL")) {
			metric_add_sample(
				gib_metric(&res, "missing", BETTER_LOWER,
					   "MemAvailable + per-CPU lists before the command "
					   "minus after it exited and sampling stopped",
					   NULL),
				(double)fin.missing / GIB);
			if (fin.return_s >= 0)
				metric_add_sample(
					probe_add_metric(&res, "return_time", UNIT_S, BETTER_LOWER,
							 "exit to the first sample from which "
							 "MemAvailable stayed within the tolerance",
							 NULL),
					fin.return_s);
		}
		for (unsigned k = 0; k < done; k++) {
			struct phantom_cycle *cy = &cycles[k];
			json_t *c = json_object();
			json_object_set_new(c, "status", json_string(cy->status));
			json_object_set_new(c, "run_s", json_real(cy->run_s));
			if (cy->skip || cy->failed) {
				json_object_set_new(c, "message", json_string(cy->msg));
				json_array_append_new(cyj, c);
				continue;
			}
			metric_add_sample(gib_metric(&res, "used", BETTER_NONE,
						     "MemAvailable + per-CPU lists before the "
						     "cycle minus its lowest "
						     "while the command ran",
						     NULL),
					  (double)(ret_loaded - cy->lowest) / GIB);
			metric_add_sample(gib_metric(&res, "cycle_missing", BETTER_LOWER,
						     "MemAvailable + per-CPU lists before the "
						     "cycle minus after it "
						     "(holder and hog still running)",
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
		for (size_t i = 0; i < ser->n; i++)
			json_array_append_new(
				sj, json_pack("[f, I]", ser->t[i], (json_int_t)ser->v[i]));
		json_object_set_new(res.extra, "cycles", cyj);
		json_object_set_new(res.extra, "after_exit_mem_available", sj);
		if (klog_ok) {
			json_t *lines = json_array();
			metric_add_sample(
				probe_add_metric(&res, "kernel_warnings", UNIT_COUNT, BETTER_LOWER,
						 "new kernel log records at level warning or "
						 "worse during the run",
						 NULL),
				news.warnings);
			metric_add_sample(
				probe_add_metric(&res, "kernel_bugs", UNIT_COUNT, BETTER_LOWER,
						 "new WARNING:/BUG:/Oops/Call Trace/NVRM lines",
						 NULL),
				news.bugs);
			for (size_t i = 0; i < news.n_lines; i++)
				json_array_append_new(lines, json_string(news.lines[i]));
			json_object_set_new(kj, "source", json_string(klog.source));
			json_object_set_new(kj, "lines", lines);
		} else {
			json_object_set_new(kj, "skipped", json_string(klog.why));
		}
		json_object_set_new(res.extra, "kernel_log", kj);
		opt_format_size((uint64_t)tol, buf, sizeof(buf));
		probe_result_add_option(&res, "tolerance", buf);
		snprintf(buf, sizeof(buf), "%g", o.sp.settle_s);
		probe_result_add_option(&res, "settle_s", buf);
		snprintf(buf, sizeof(buf), "%u", o.churn);
		probe_result_add_option(&res, "churn", buf);
		if (o.holder)
			probe_result_add_option(&res, "holder", o.holder);
		if (o.hog) {
			opt_format_size(o.hog, buf, sizeof(buf));
			probe_result_add_option(&res, "hog", buf);
		}
		probe_result_add_option(&res, "verdict", verdict);
		if (!strcmp(verdict, "SKIP"))
			probe_result_set_status(&res, STATUS_SKIP, "%s", last->msg);
		else if (!strcmp(verdict, "ERROR"))
			probe_result_set_status(&res, STATUS_FAIL, "%s: %s", what,
						last ? last->msg : "did not run");
		else if (!strcmp(verdict, "INTERRUPTED"))
			probe_result_set_status(&res, STATUS_FAIL, "interrupted");
		else if (!strcmp(verdict, "FAIL"))
			probe_result_set_status(
				&res, STATUS_FAIL,
				"%.3f GiB not returned %.1f s after exit (tolerance "
				"%.3f GiB), %u new kernel bug reports",
				(double)fin.missing / GIB, ser->n ? ser->t[ser->n - 1] : 0,
				(double)tol / GIB, news.bugs);
		/* ---- the table ---- */
		printf(md ? "**phantom: %s** (%u cycle%s%s%s)\n\n"
			  : "phantom: %s  (%u cycle%s%s%s)\n",
		       what, done, done == 1 ? "" : "s", o.holder ? ", holder " : "",
		       o.holder ? o.holder : "");
		if (!strcmp(verdict, "SKIP") || !strcmp(verdict, "ERROR")) {
			printf("%s: %s\n", !strcmp(verdict, "SKIP") ? "skip" : "error",
			       last ? last->msg : "did not run");
		} else {
			printf(md ? "| GiB | before | lowest | after | missing "
				    "|\n|---|---:|---:|---:|---:|\n"
				  : "%-26s %12s %12s %12s %12s\n",
			       "GiB", "before", "lowest", "after", "missing");
			print_level(stdout, md, "MemAvailable+per-CPU lists", ret_before, lowest,
				    ret_after);
			print_level(stdout, md, "MemAvailable", before.mem_available, -1,
				    after.mem_available);
			print_level(stdout, md, "MemFree", before.mem_free, -1, after.mem_free);
			print_level(stdout, md, "per-CPU lists (zoneinfo)", before.pcp_bytes, -1,
				    after.pcp_bytes);
			print_level(stdout, md, "GPUActive", before.gpu_active, -1,
				    after.gpu_active);
			print_level(stdout, md, "GPUReclaim", before.gpu_reclaim, -1,
				    after.gpu_reclaim);
			printf(md ? "\n" : "");
			if (fin.return_s >= 0)
				printf("returned to within %.3f GiB %.2f s after exit; stable "
				       "after %.2f s; "
				       "sampled %.2f s every %.0f ms\n",
				       (double)tol / GIB, fin.return_s, fin.stable_s,
				       ser->n ? ser->t[ser->n - 1] : 0, o.sp.interval_s * 1e3);
			else
				printf("NOT returned to within %.3f GiB in %.2f s after exit "
				       "(sampled "
				       "every %.0f ms)\n",
				       (double)tol / GIB, ser->n ? ser->t[ser->n - 1] : 0,
				       o.sp.interval_s * 1e3);
			if (done > 1) {
				printf(md ? "\n| cycle | status | run s | used GiB | missing GiB | "
					    "returned in s |\n|---:|---|---:|---:|---:|---:|\n"
					  : "\n%5s %-10s %8s %10s %12s %14s\n",
				       "cycle", "status", "run s", "used GiB", "missing GiB",
				       "returned in s");
				for (unsigned k = 0; k < done; k++)
					printf(md ? "| %u | %s | %.2f | %.3f | %.3f | %.2f |\n"
						  : "%5u %-10s %8.2f %10.3f %12.3f %14.2f\n",
					       k + 1, cycles[k].status, cycles[k].run_s,
					       (double)(ret_loaded - cycles[k].lowest) / GIB,
					       (double)cycles[k].st.missing / GIB,
					       cycles[k].st.return_s);
			}
		}
		if (klog_ok) {
			printf("%skernel log (%s): %u new warnings, %u bug reports\n",
			       md ? "\n" : "", klog.source, news.warnings, news.bugs);
			for (size_t i = 0; i < news.n_lines; i++)
				printf("  %s\n", news.lines[i]);
		} else {
			printf("%skernel log: skipped: %s\n", md ? "\n" : "", klog.why);
		}
		if (!strcmp(verdict, "PASS") || !strcmp(verdict, "FAIL")) {
			double after_s = ser->n ? ser->t[ser->n - 1] : 0;
			if (md)
				printf("\n| # | configuration | MemAvailable+pcp before | %.1f s "
				       "after exit "
				       "| missing | result |\n|---|---|---:|---:|---:|---|\n",
				       after_s);
			else
				printf("\n%-3s %-28s %14s %16s %10s  %s\n", "#", "configuration",
				       "before GiB", "after GiB", "missing", "result");
			if (md)
				printf("| 1 | %s | %.1f GiB | %.1f GiB | %.2f GiB | %s |\n", what,
				       (double)ret_before / GIB, (double)ret_after / GIB,
				       (double)fin.missing / GIB, verdict);
			else
				printf("%-3s %-28s %14.3f %16.3f %10.3f  %s\n", "1", what,
				       (double)ret_before / GIB, (double)ret_after / GIB,
				       (double)fin.missing / GIB, verdict);
		}
		printf("%sresult: %s\n", md ? "\n" : "", verdict);
		for (unsigned k = 0; k < done; k++)
			if (cycles[k].detached)
				printf("detached holder pid %d (ends by itself after %.0f s)\n",
				       (int)cycles[k].detached, o.sp.settle_s + 5);
		fflush(stdout);
	}
	run_take_probe(s.run, &res);
	if (session_end(&s) != 0)
		rc = 1;
	if (proc_signal_received()) {
		s.run->interrupted = 1;
		run_write_file(s.run, out_path);
		fprintf(stderr, "mempath: interrupted; partial results kept in '%s'\n", out_path);
		rc = 130;
	} else {
		fprintf(stderr, "results: %s\n", out_path);
		if (!strcmp(verdict, "FAIL") || !strcmp(verdict, "ERROR"))
			rc = 1;
	}
	phantom_klog_news_free(&news);
	phantom_klog_close(&klog);
	run_free(s.run);
	free(cycles);
	free(ser);
	free(out_path);
	return rc;
}

const struct command command_phantom = {
	.name = "phantom",
	.summary = "memory not returned after a command exits (driver pools)",
	.synopsis = "(--cpu SIZE | --gpu SIZE | [--] CMD [ARGS...])",
	.about = "Reads MemAvailable, MemFree, the per-CPU page lists (/proc/zoneinfo) and\n"
		 "GPUActive/GPUReclaim (where present) before the command, then samples\n"
		 "MemAvailable after it exits until it is back within the tolerance or the\n"
		 "settle time passes, and reports what did not come back (memory a driver kept\n"
		 "in its pools: invisible in /proc/meminfo but missing from MemAvailable) and\n"
		 "how long the rest took. PASS when the missing amount is within the tolerance\n"
		 "and the kernel logged no new WARNING/BUG/Oops/NVRM lines. A command's output\n"
		 "goes to stderr.\n",
	.tail = "Exit status: 0 PASS (or skip: no GPU), 1 FAIL or error, 2 bad usage,\n"
		"130 interrupted.\n",
	.args = phantom_args,
	.opts_size = sizeof(struct phantom_opts),
	.init = phantom_init,
	.run = phantom_main,
	.flags = CMD_STOP_AT_ARG,
};
