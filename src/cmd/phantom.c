/* phantom.c - `mempath phantom`: memory a command's exit did not give back.
 *
 * MemAvailable (and MemFree, per-CPU lists, GPUActive/GPUReclaim where they
 * exist) before the command; then, after it exits, sampled until it is back
 * within the tolerance or the settle time passes (docs/design.md §10.2: 55 GiB
 * kept in a driver's pools after a 64 GiB process exit). With --churn the
 * command runs K times while a holder and a host memory hog apply pressure,
 * and new kernel warnings are counted (the acceptance test of docs/design.md §10.2).
 * The run: flow/phantom.c; the tables: report/phantom.c, so `mempath
 * report` shows what this printed.
 */
#include <stdlib.h>
#include <string.h>

#include "base/guard.h"
#include "base/opt.h"
#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "exec/session.h"
#include "flow/phantom.h"
#include "machine/mem.h"
#include "report/report.h"

static int parse_holder(const char *h, struct phantom_plan *o)
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

struct phantom_opts {
	uint64_t cpu, gpu, tolerance, hog;
	double hold_s, settle_s, interval_ms;
	unsigned churn;
	const char *holder, *out, *label;
	enum report_format format;
	int detach, force, quiet;
};

static void phantom_init(void *p)
{
	struct phantom_opts *o = p;
	o->hold_s = 1;
	o->settle_s = 10;
	o->interval_ms = 100;
	o->churn = 1;
}

static const struct arg phantom_args[] = {
	ARG_SIZE("cpu", 0, struct phantom_opts, cpu, "SIZE", 1,
		 "built-in child: anonymous memory mapped, touched, held, exit\n"
		 "(the reference: must PASS on any machine)"),
	ARG_SIZE("gpu", 0, struct phantom_opts, gpu, "SIZE", 1,
		 "built-in child: device memory allocated, written, held, freed, exit"),
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
	ARG_FORMAT("format", 'f', struct phantom_opts, format, REPORT_DOC_RUN,
		   "the table's format on stdout (default term)"),
	ARG_FORCE(struct phantom_opts, force),
	ARG_QUIET(struct phantom_opts, quiet),
	ARG_END};

static int phantom_main(void *p, const struct cmd_line *l)
{
	const struct phantom_opts *po = p;
	struct phantom_plan o = {.sp = {.kind = PHANTOM_CMD,
					.hold_s = po->hold_s,
					.settle_s = po->settle_s,
					.interval_s = po->interval_ms / 1000.0,
					.tolerance = po->tolerance,
					.detach = po->detach},
				 .churn = po->churn,
				 .hog = po->hog};
	int sources = (po->cpu > 0) + (po->gpu > 0) + (l->argc > 0), rc;
	enum report_format fmt = po->format;
	struct probe_result res;
	struct session s;
	const char *verdict;
	char *out_path;
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
	/* a planted phantom the tolerance could swallow proves nothing: one of
	 * 256M against 256M passed on a busy machine as often as it failed */
	if (o.sp.detach) {
		int64_t tol = phantom_tolerance(po->tolerance, o.sp.size, 0);
		if ((double)o.sp.size < 2.0 * (double)tol) {
			char sz[32], t[32], t2[32];
			opt_format_size(o.sp.size, sz, sizeof(sz));
			opt_format_size((uint64_t)tol, t, sizeof(t));
			opt_format_size(2 * (uint64_t)tol, t2, sizeof(t2));
			return error("--detach plants %s, under twice the tolerance (%s): the "
				     "check could not tell it from drift (--cpu %s or more, or a "
				     "smaller --tolerance)",
				     sz, t, t2),
			       2;
		}
	}
	/* Host memory we will hold at once: the CPU child, the hog, a cpu holder. */
	if (mem_check_size((o.sp.kind == PHANTOM_CPU ? o.sp.size : 0) + o.hog +
				   (o.holder_kind == PHANTOM_HOG ? o.holder_size : 0),
			   po->force, "phantom host memory (child + hog + holder)") != 0)
		return 2;
	out_path = po->out ? xstrdup(po->out)
			   : session_default_path(po->label ? po->label : "phantom");
	proc_signals_install();
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	s.out_path = out_path;
	progress("mempath: collecting the machine's fingerprint ...");
	if (session_begin(&s, l->all_argc, l->all_argv, po->label, NULL) != 0) {
		run_free(s.run);
		free(out_path);
		return 1;
	}
	guard_start(); /* no holder, hog or command of ours outlives us (§2.4) */
	verdict = phantom_flow(&o, &res);
	guard_say_left("phantom", "the command or holder");
	if (!strcmp(verdict, "ERROR") && res.reason)
		error("%s", res.reason);
	run_take_probe(s.run, &res);
	/* The file first: a reader of stdout that goes away costs the table only. */
	rc = session_end(&s) != 0 || !strcmp(verdict, "FAIL") || !strcmp(verdict, "ERROR") ? 1 : 0;
	report_write(s.run, fmt, stdout);
	fflush(stdout);
	if (proc_signal_received()) {
		notice("mempath: interrupted; partial results kept in '%s'", out_path);
		rc = 130;
	} else {
		notice("results: %s", out_path);
	}
	run_free(s.run);
	free(out_path);
	return rc;
}

const struct command command_phantom = {
	.pos = POS_COMMAND,
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
	.examples = "mempath phantom --gpu 64G\n"
		    "mempath phantom -- ./my-inference-server --once\n",
	.tail = "Exit status: 0 PASS (or skip: no GPU), 1 FAIL or error, 2 bad usage,\n"
		"130 interrupted.\n",
	.args = phantom_args,
	.opts_size = sizeof(struct phantom_opts),
	.init = phantom_init,
	.run = phantom_main,
	.flags = CMD_STOP_AT_ARG,
};
