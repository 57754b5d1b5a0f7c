/* wrap.c - `mempath wrap`: any workload run N times as a measurement.
 *
 * Each run of the command is one sample of every metric (its own numbers,
 * rusage, key vmstat deltas), so a wrapped workload is a results file like any
 * probe's and `compare` and `ab` work on it. The per-iteration table is the
 * point when pages move while it runs (docs/design.md §10.8: decode speed
 * converging as tiering promotes the model's pages). The runs: flow/wrap.c;
 * the tables: report/wrap.c, so `mempath report` shows what this printed.
 */
#include <stdlib.h>
#include <string.h>

#include "base/proc.h"
#include "base/strvec.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "exec/session.h"
#include "flow/wrap.h"
#include "report/report.h"

struct wrap_opts {
	unsigned n, warmup, timeout_s, sample_ms;
	const char *parse, *out, *label;
	enum report_format format;
	struct arg_strs args;
	int verbose, quiet, no_cgroup;
};

static void wrap_init(void *p)
{
	struct wrap_opts *o = p;
	o->n = 6;
	o->sample_ms = 1000;
	o->parse = "auto";
}

static const struct arg wrap_args[] = {
	ARG_COUNT(NULL, 'n', struct wrap_opts, n, "N", 1, 100000,
		  "counted runs (default 6: the fewest compare gives a verdict on)"),
	ARG_COUNT("warmup", 0, struct wrap_opts, warmup, "W", 0, 100000,
		  "warm-up runs before them (default 0: the first runs are often\n"
		  "the point, e.g. pages still being promoted)"),
	ARG_CHOICE("parse", 0, struct wrap_opts, parse, "P", "auto|llama-bench|jsonl|lines|none",
		   "auto (default): llama-bench (-o md, its default; csv, json,\n"
		   "jsonl, sql), else JSON lines\n"
		   "({\"name\":..,\"value\":..,\"unit\":..} or numeric fields), else\n"
		   "'name value [unit]' lines; or force one; none: rusage only"),
	ARG_COUNT("timeout", 0, struct wrap_opts, timeout_s, "S", 1, 1000000,
		  "end a run (its whole process group) after S seconds"),
	ARG_STRS("args", 0, struct wrap_opts, args, "WORDS",
		 "words (split at blanks; repeatable) put where the command has\n"
		 "{}, else at its end; kept apart from the command, so runs that\n"
		 "differ only by them compare (ab --a-args/--b-args give them)"),
	ARG_COUNT("sample-ms", 0, struct wrap_opts, sample_ms, "MS", 0, 3600000,
		  "read smaps_rollup, the cgroup's memory.stat and GPU memory (NVML)\n"
		  "of the running command every MS ms (default 1000, the first looks\n"
		  "sooner; 0: never)"),
	ARG_FLAG("no-cgroup", 0, struct wrap_opts, no_cgroup,
		 "no cgroup per run, even where the machine allows one"),
	ARG_STR("output", 'o', struct wrap_opts, out, "FILE",
		"results file (default ./mempath-<label>-<time>.json)"),
	ARG_STR("label", 'l', struct wrap_opts, label, "L", "a name for this configuration"),
	ARG_FORMAT("format", 'f', struct wrap_opts, format, REPORT_DOC_RUN,
		   "the table's format on stdout (default term)"),
	ARG_FLAG("verbose", 'v', struct wrap_opts, verbose,
		 "copy the command's output to stderr as it runs"),
	ARG_QUIET(struct wrap_opts, quiet),
	ARG_END};

static int wrap_main(void *p, const struct cmd_line *l)
{
	struct wrap_opts *o = p;
	struct wrap_plan plan = {.argv = l->argv,
				 .argc = (size_t)l->argc,
				 .n = o->n,
				 .warmup = o->warmup,
				 .timeout_s = o->timeout_s,
				 .verbose = o->verbose};
	enum report_format fmt = o->format;
	struct probe_result res;
	struct session s;
	static char *const no_words[] = {NULL};
	struct strvec words = STRVEC_INIT;
	char *out_path;
	json_t *knobs;
	int rc, failed;
	if (l->argc == 0)
		return error("wrap needs a command after -- (e.g. mempath wrap -n 5 -- ./bench)"),
		       2;
	workload_parse_mode(o->parse, &plan.mode);
	plan.sample_ms = o->sample_ms;
	plan.no_cgroup = o->no_cgroup;
	/* every word of every --args, in order (docs/design.md §11.5); given
	 * with none, an empty list: still "given" */
	for (size_t i = 0; i < o->args.n; i++)
		strvec_split(&words, o->args.v[i], " \t\n");
	if (o->args.n) {
		plan.args = words.n ? words.v : no_words;
		plan.n_args = words.n;
	}
	util_set_quiet(o->quiet);
	out_path = o->out ? xstrdup(o->out) : session_default_path(o->label ? o->label : "wrap");
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	s.out_path = out_path;
	proc_signals_install();
	progress("mempath: collecting the machine's fingerprint ...");
	if (session_begin(&s, l->all_argc, l->all_argv, o->label, NULL) != 0) {
		run_free(s.run);
		free(out_path);
		strvec_clear(&words);
		return 1;
	}
	failed = wrap_flow(&plan, &res);
	/* llama-bench's settings and the args are knobs: a leg that differs in
	 * them is a second change (docs/design.md §11.2) */
	knobs = wrap_knobs(&res);
	s.knobs_extra = knobs;
	run_take_probe(s.run, &res);
	/* The file first: a reader of stdout that goes away costs the table only. */
	rc = session_end(&s) != 0 || failed != 0 ? 1 : 0;
	report_write(s.run, fmt, stdout);
	fflush(stdout);
	notice("results: %s", out_path);
	if (proc_signal_received()) {
		notice("mempath: interrupted; partial results kept in '%s'", out_path);
		rc = 130;
	}
	run_free(s.run);
	free(out_path);
	if (knobs)
		json_decref(knobs);
	strvec_clear(&words);
	return rc;
}

static unsigned wrap_samples(const void *p)
{
	return ((const struct wrap_opts *)p)->n;
}

const struct command command_wrap = {
	.pos = POS_COMMAND,
	.name = "wrap",
	.summary = "run any workload N times: its numbers, rusage, vmstat per iteration",
	.synopsis = "[--] CMD [ARGS...]",
	.about =
		"Runs CMD W + N times (warm-ups first, kept and marked, not summarised) and\n"
		"records for each run: wall, user and sys time, max RSS, minor and major faults\n"
		"and exit status (wait4), the workload's own numbers from its stdout (llama-bench\n"
		"in any -o format: tokens/s and ms/token per test and configuration, every\n"
		"repetition, its settings as llama.* knobs), its own cgroup's memory.stat, peak,\n"
		"CPU and I/O where the machine allows one per run (cgroup v2, or v1: memory,\n"
		"cpuacct, pids; inside a Slurm job the step's cgroup where none can be made;\n"
		"else it says why), smaps_rollup sampled while it runs (how its memory is\n"
		"backed), its GPU memory per device (NVML: its processes' peak, the device's used\n"
		"memory before and after), and machine-wide /proc/vmstat deltas; /proc/meminfo\n"
		"before and after and per-node numastat deltas over the whole run. Prints\n"
		"tokens/s per configuration and per run, the counters, every metric per\n"
		"iteration, and writes a results file (probe 'work.wrap', one sample per run)\n"
		"that compare and ab read. A run that fails is recorded with its exit status\n"
		"and stderr tail.\n",
	.examples = "mempath wrap -n 5 -- llama-bench -m model.gguf -p 512 -n 128 -r 1 -o json\n"
		    "mempath ab --a-env GGML_CUDA_P2P=0 --b-env GGML_CUDA_P2P=1 -o p2p \\\n"
		    "    -- wrap -n 6 -- llama-bench -m model.gguf -o json\n"
		    "mempath wrap --args '--mmap 0' -- llama-bench -m model.gguf {} -o json\n",
	.tail = "Exit status: 0 every run exited 0, 1 a run failed (results still written),\n"
		"2 bad usage, 130 interrupted (partial results written).\n",
	.args = wrap_args,
	.opts_size = sizeof(struct wrap_opts),
	.init = wrap_init,
	.run = wrap_main,
	.samples = wrap_samples,
	.flags = CMD_STOP_AT_ARG,
};
