/* wrap.c - `mempath wrap`: any workload run N times as a measurement.
 *
 * Each run of the command is one sample of every metric (its own numbers,
 * rusage, key vmstat deltas), so a wrapped workload is a results file like any
 * probe's and `compare` and `ab` work on it. The per-iteration table is the
 * point when pages move while it runs (seed 001 table 1b: decode speed
 * converging as tiering promotes the model's pages). Logic: core/workload.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/kv.h"
#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "exec/session.h"
#include "results/results_json.h"
#include "workload/workload.h"

/* Four significant digits: enough to see 4.259 -> 4.268 converge. */
static void fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e4 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

struct row {
	char name[160];
	char unit[24];
	double *v; /* per iteration; NAN = absent */
};

static void row_print(FILE *f, const struct row *r, const struct workload_iter *its, size_t n,
		      int md)
{
	double *counted = xcalloc(n + 1, sizeof(double));
	size_t nc = 0;
	char buf[32];
	struct summary s;
	fprintf(f, md ? "| %s | %s |" : "%-40s %-6s", r->name, r->unit);
	for (size_t i = 0; i < n; i++) {
		if (isnan(r->v[i]))
			snprintf(buf, sizeof(buf), "-");
		else
			fmt_num(r->v[i], buf, sizeof(buf));
		fprintf(f, md ? " %s |" : " %10s", buf);
		if (!its[i].warmup && !isnan(r->v[i]))
			counted[nc++] = r->v[i];
	}
	stats_summarize(counted, nc, &s);
	if (nc)
		fmt_num(s.median, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "-");
	if (md)
		fprintf(f, " %s | %.1f |\n", buf, 100.0 * s.cov);
	else
		fprintf(f, " %10s %6.1f\n", buf, 100.0 * s.cov);
	free(counted);
}

static void value_key(const struct workload_value *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v->name);
	for (size_t k = 0; k < v->n_labels; k++) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s=%s", k ? "," : " ", v->labels[k].key,
			 v->labels[k].value);
	}
}

/* Rows are metrics, columns iterations (w1.. warm-ups, then 1..N), then the
 * median and CoV of the counted runs. */
static void print_table(FILE *f, const struct workload_iter *its, size_t n, int md)
{
	struct row *rows = NULL;
	size_t n_rows = 0, n_quiet = 0;
#define NEW_ROW(nm, un)                                                           \
	do {                                                                      \
		rows = xrealloc(rows, (n_rows + 1) * sizeof(*rows));              \
		snprintf(rows[n_rows].name, sizeof(rows[n_rows].name), "%s", nm); \
		snprintf(rows[n_rows].unit, sizeof(rows[n_rows].unit), "%s", un); \
		rows[n_rows].v = xmalloc(n * sizeof(double));                     \
		for (size_t z = 0; z < n; z++)                                    \
			rows[n_rows].v[z] = NAN;                                  \
		n_rows++;                                                         \
	} while (0)
	/* The workload's own numbers, in the order first seen. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < its[i].vals.n && workload_run_ok(&its[i].run); k++) {
			const struct workload_value *v = &its[i].vals.items[k];
			char key[160];
			size_t r;
			value_key(v, key, sizeof(key));
			for (r = 0; r < n_rows && strcmp(rows[r].name, key) != 0; r++)
				;
			if (r == n_rows)
				NEW_ROW(key, v->unit != UNIT_NONE ? unit_name(v->unit)
					     : v->unit_text	  ? v->unit_text
								  : "");
			rows[r].v[i] = v->value;
		}
	{
		static const char *const names[] = {"wall_time",  "user_time",	  "sys_time",
						    "max_rss",	  "minor_faults", "major_faults",
						    "exit_status"};
		static const char *const units[] = {"s", "s", "s", "MiB", "count", "count", ""};
		size_t base = n_rows;
		for (size_t k = 0; k < ARRAY_SIZE(names); k++)
			NEW_ROW(names[k], units[k]);
		for (size_t i = 0; i < n; i++) {
			const struct workload_run *r = &its[i].run;
			if (!r->started)
				continue;
			rows[base].v[i] = r->wall_s;
			rows[base + 1].v[i] = r->user_s;
			rows[base + 2].v[i] = r->sys_s;
			rows[base + 3].v[i] = (double)r->max_rss_kib / 1024.0;
			rows[base + 4].v[i] = (double)r->minflt;
			rows[base + 5].v[i] = (double)r->majflt;
			rows[base + 6].v[i] =
				workload_run_ok(r) ? 0
				: WIFEXITED(r->status) && !r->timed_out && !r->interrupted
					? WEXITSTATUS(r->status)
					: -1;
		}
	}
	/* Key vmstat counters per iteration: promotion should fall as it converges. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; its[i].have_vm && k < its[i].vm_delta.n; k++) {
			const struct kv *c = &its[i].vm_delta.items[k];
			char key[160];
			size_t r;
			if (!workload_counter_is_key(c->name))
				continue;
			snprintf(key, sizeof(key), "vmstat %s", c->name);
			for (r = 0; r < n_rows && strcmp(rows[r].name, key) != 0; r++)
				;
			if (r == n_rows)
				NEW_ROW(key, "count");
			rows[r].v[i] = (double)c->value;
		}
#undef NEW_ROW
	fprintf(f, md ? "| metric | unit |" : "%-40s %-6s", "metric", "unit");
	for (size_t i = 0; i < n; i++) {
		char h[16];
		snprintf(h, sizeof(h), "%s%u", its[i].warmup ? "w" : "iter", its[i].index);
		fprintf(f, md ? " %s |" : " %10s", h);
	}
	fprintf(f, md ? " median | CoV%% |\n" : " %10s %6s\n", "median", "CoV%");
	if (md) {
		fprintf(f, "|---|---|");
		for (size_t i = 0; i < n + 2; i++)
			fprintf(f, "---:|");
		fprintf(f, "\n");
	}
	for (size_t r = 0; r < n_rows; r++) {
		int moved = strncmp(rows[r].name, "vmstat ", 7) != 0;
		for (size_t i = 0; i < n && !moved; i++)
			moved = !isnan(rows[r].v[i]) && rows[r].v[i] != 0;
		if (moved)
			row_print(f, &rows[r], its, n, md);
		else
			n_quiet++;
		free(rows[r].v);
	}
	if (n_quiet)
		fprintf(f,
			"%s(%zu key vmstat counters did not move in any run: not shown, kept in "
			"the "
			"results file)\n",
			md ? "\n" : "", n_quiet);
	free(rows);
}

static void print_run_facts(FILE *f, const struct probe_result *p, json_t *mem_before,
			    json_t *mem_after, json_t *numa_delta, int md)
{
	static const char *const mem_keys[] = {"MemAvailable",	"MemFree",   "AnonPages",
					       "AnonHugePages", "Cached",    "Shmem",
					       "Mlocked",	"GPUActive", "GPUReclaim"};
	const char *node;
	json_t *d;
	int any = 0;
	fprintf(f, md ? "\n**vmstat deltas over the whole run** (recorded counters that moved):\n\n"
		      : "\nvmstat deltas over the whole run (recorded counters that moved):\n");
	for (size_t i = 0; i < p->n_counters; i++)
		if (p->counters[i].delta != 0) {
			fprintf(f, md ? "- %s: %lld\n" : "  %-28s %lld\n", p->counters[i].name,
				(long long)p->counters[i].delta);
			any = 1;
		}
	if (!any)
		fprintf(f, md ? "- none moved\n" : "  none moved\n");
	fprintf(f, md ? "\n**/proc/meminfo before -> after** (GiB):\n\n"
		      : "\n/proc/meminfo before -> after (GiB):\n");
	for (size_t i = 0; i < ARRAY_SIZE(mem_keys); i++) {
		json_t *b = json_object_get(mem_before, mem_keys[i]);
		json_t *a = json_object_get(mem_after, mem_keys[i]);
		if (!json_is_integer(b) || !json_is_integer(a))
			continue;
		fprintf(f, md ? "- %s: %.3f -> %.3f\n" : "  %-28s %9.3f -> %9.3f\n", mem_keys[i],
			(double)json_integer_value(b) / (1 << 30),
			(double)json_integer_value(a) / (1 << 30));
	}
	fprintf(f, md ? "\n**numastat deltas per node**:\n\n" : "\nnumastat deltas per node:\n");
	json_object_foreach (numa_delta, node, d) {
		const char *k;
		json_t *v;
		fprintf(f, md ? "- %s:" : "  %-6s", node);
		json_object_foreach (d, k, v)
			fprintf(f, " %s=%lld", k, (long long)json_integer_value(v));
		fprintf(f, "\n");
	}
}

struct wrap_opts {
	unsigned n, warmup, timeout_s;
	const char *parse, *out, *label, *format;
	int verbose, quiet;
};

static void wrap_init(void *p)
{
	struct wrap_opts *o = p;
	o->n = 6;
	o->parse = "auto";
	o->format = "term";
}

static const struct arg wrap_args[] = {
	ARG_COUNT(NULL, 'n', struct wrap_opts, n, "N", 1, 100000,
		  "counted runs (default 6: the fewest compare gives a verdict on)"),
	ARG_COUNT("warmup", 0, struct wrap_opts, warmup, "W", 0, 100000,
		  "warm-up runs before them (default 0: the first runs are often\n"
		  "the point, e.g. pages still being promoted)"),
	ARG_CHOICE("parse", 0, struct wrap_opts, parse, "P", "auto|llama-bench|jsonl|lines|none",
		   "auto (default): llama-bench -o json|jsonl, else JSON lines\n"
		   "({\"name\":..,\"value\":..,\"unit\":..} or numeric fields), else\n"
		   "'name value [unit]' lines; or force one; none: rusage only"),
	ARG_COUNT("timeout", 0, struct wrap_opts, timeout_s, "S", 1, 1000000,
		  "end a run (its whole process group) after S seconds"),
	ARG_STR("output", 'o', struct wrap_opts, out, "FILE",
		"results file (default ./mempath-<label>-<time>.json)"),
	ARG_STR("label", 'l', struct wrap_opts, label, "L", "a name for this configuration"),
	ARG_CHOICE("format", 'f', struct wrap_opts, format, "F", "term|md",
		   "table format: term (default) or md"),
	ARG_FLAG("verbose", 'v', struct wrap_opts, verbose,
		 "copy the command's output to stderr as it runs"),
	ARG_FLAG("quiet", 'q', struct wrap_opts, quiet, "no progress lines on stderr"),
	ARG_END};

static int wrap_main(void *p, const struct cmd_line *l)
{
	struct wrap_opts *o = p;
	unsigned n = o->n, warm = o->warmup, timeout = o->timeout_s, n_failed = 0;
	enum workload_parse mode = WORKLOAD_PARSE_AUTO;
	const char *label = o->label, *out_arg = o->out;
	int md = strcmp(o->format, "md") == 0, verbose = o->verbose, rc = 0;
	int argc = l->all_argc;
	char **argv = l->all_argv;
	struct workload_iter *its;
	struct kv_list vm0, vm1;
	json_t *mem_before, *mem_after, *numa_before, *numa_after, *numa_delta, *cmdj;
	struct probe_result res;
	struct session s;
	char **cmd, *out_path, *joined;
	size_t n_cmd, total, done = 0;
	double wall = 0;
	workload_parse_mode(o->parse, &mode);
	util_set_quiet(o->quiet);
	if (l->argc == 0)
		return error("wrap needs a command after -- (e.g. mempath wrap -n 5 -- ./bench)"),
		       2;
	cmd = l->argv;
	n_cmd = (size_t)l->argc;
	cmdj = json_array();
	for (size_t i = 0; i < n_cmd; i++)
		json_array_append_new(cmdj, json_string(cmd[i]));
	joined = xstrdup(cmd[0]);
	for (size_t i = 1; i < n_cmd; i++) {
		char *t = xasprintf("%s %s", joined, cmd[i]);
		free(joined);
		joined = t;
	}
	out_path = out_arg ? xstrdup(out_arg) : session_default_path(label ? label : "wrap");
	memset(&s, 0, sizeof(s));
	runner_opts_default(&s.ropts);
	s.out_path = out_path;
	proc_signals_install();
	progress("mempath: collecting the machine's fingerprint ...");
	if (session_begin(&s, argc, argv, label, NULL) != 0) {
		run_free(s.run);
		free(out_path);
		free(joined);
		json_decref(cmdj);
		return 1;
	}
	probe_result_init(&res, "work.wrap");
	probe_result_add_option(&res, "command", joined);
	{
		char buf[32];
		snprintf(buf, sizeof(buf), "%u", n);
		probe_result_add_option(&res, "n", buf);
		snprintf(buf, sizeof(buf), "%u", warm);
		probe_result_add_option(&res, "warmup", buf);
		probe_result_add_option(&res, "parse", workload_parse_name(mode));
		snprintf(buf, sizeof(buf), "%u", timeout);
		probe_result_add_option(&res, "timeout_s", buf);
	}
	res.extra = json_object();
	json_object_set_new(res.extra, "command", cmdj);
	total = (size_t)warm + n;
	its = xcalloc(total, sizeof(*its));
	mem_before = workload_meminfo_json();
	numa_before = workload_numastat_read("/sys");
	int have_vm0 = vmstat_read(&vm0) == 0;
	for (size_t i = 0; i < total && !proc_signal_received(); i++) {
		struct workload_iter *it = &its[i];
		struct kv_list b, a;
		char *st;
		it->warmup = i < warm;
		it->index = (unsigned)(it->warmup ? i + 1 : i - warm + 1);
		progress("wrap: %s %u/%u: %s", it->warmup ? "warm-up" : "run", it->index,
			 it->warmup ? warm : n, joined);
		int have_b = vmstat_read(&b) == 0;
		if (workload_exec(cmd, timeout, verbose, &it->run) != 0) {
			if (have_b)
				kv_free(&b);
			rc = 1;
			break;
		}
		done = i + 1;
		if (have_b && vmstat_read(&a) == 0) {
			vmstat_delta(&b, &a, &it->vm_delta);
			it->have_vm = 1;
			kv_free(&a);
		}
		if (have_b)
			kv_free(&b);
		if (mode != WORKLOAD_PARSE_NONE && workload_run_ok(&it->run))
			it->parsed_as = workload_parse_output(it->run.out, mode, &it->vals);
		else
			it->parsed_as = WORKLOAD_PARSE_NONE;
		workload_record_iter(&res, it);
		wall += it->run.wall_s;
		res.user_s += it->run.user_s;
		res.sys_s += it->run.sys_s;
		res.minflt += it->run.minflt;
		res.majflt += it->run.majflt;
		if (it->run.max_rss_kib > res.max_rss_kib)
			res.max_rss_kib = it->run.max_rss_kib;
		st = workload_status_str(&it->run);
		if (!workload_run_ok(&it->run)) {
			const char *tail = it->run.err_tail ? it->run.err_tail : "";
			const char *last = tail + strlen(tail);
			while (last > tail && (last[-1] == '\n'))
				last--;
			const char *ls = last;
			while (ls > tail && ls[-1] != '\n')
				ls--;
			if (!it->warmup)
				n_failed++;
			progress("wrap: %s %u: %s (%.2f s)%s%.*s", it->warmup ? "warm-up" : "run",
				 it->index, st, it->run.wall_s, ls < last ? ": " : "",
				 (int)(last - ls), ls);
		} else {
			progress("wrap: %s %u: %s (%.2f s), %zu value%s (%s)",
				 it->warmup ? "warm-up" : "run", it->index, st, it->run.wall_s,
				 it->vals.n, it->vals.n == 1 ? "" : "s",
				 workload_parse_name(it->parsed_as));
			if (mode != WORKLOAD_PARSE_AUTO && mode != WORKLOAD_PARSE_NONE &&
			    it->parsed_as == WORKLOAD_PARSE_NONE)
				warning("no %s output found in run %u's stdout",
					workload_parse_name(mode), it->index);
		}
		free(st);
	}
	res.wall_s = wall;
	if (have_vm0 && vmstat_read(&vm1) == 0) {
		struct kv_list d;
		vmstat_delta(&vm0, &vm1, &d);
		for (size_t i = 0; i < d.n; i++)
			probe_add_counter(&res, d.items[i].name, d.items[i].value);
		kv_free(&d);
		kv_free(&vm1);
	}
	if (have_vm0)
		kv_free(&vm0);
	mem_after = workload_meminfo_json();
	numa_after = workload_numastat_read("/sys");
	numa_delta = workload_numastat_delta(numa_before, numa_after);
	{
		json_t *m = json_object();
		json_object_set(m, "before", mem_before);
		json_object_set(m, "after", mem_after);
		json_object_set_new(res.extra, "meminfo", m);
		json_object_set(res.extra, "numastat_delta", numa_delta);
	}
	if (proc_signal_received())
		probe_result_set_status(&res, STATUS_FAIL, "interrupted after %zu of %zu runs",
					done, total);
	else if (n_failed)
		probe_result_set_status(&res, STATUS_FAIL,
					"%u of %u runs failed (see extra.iterations)", n_failed, n);
	print_table(stdout, its, done, md);
	print_run_facts(stdout, &res, mem_before, mem_after, numa_delta, md);
	fflush(stdout);
	run_take_probe(s.run, &res);
	if (session_end(&s) != 0)
		rc = 1;
	if (proc_signal_received()) {
		/* session_end takes the flag from the probe runner, which did not run. */
		s.run->interrupted = 1;
		if (run_write_file(s.run, out_path) != 0)
			rc = 1;
	}
	if (rc == 0 || proc_signal_received())
		fprintf(stderr, "results: %s\n", out_path);
	if (n_failed && rc == 0)
		rc = 1;
	if (proc_signal_received()) {
		fprintf(stderr, "mempath: interrupted; partial results kept in '%s'\n", out_path);
		rc = 130;
	}
	for (size_t i = 0; i < total; i++)
		workload_iter_free(&its[i]);
	free(its);
	json_decref(mem_before);
	json_decref(mem_after);
	json_decref(numa_before);
	json_decref(numa_after);
	json_decref(numa_delta);
	run_free(s.run);
	free(out_path);
	free(joined);
	return rc;
}

const struct command command_wrap = {
	.name = "wrap",
	.summary = "run any workload N times: its numbers, rusage, vmstat per iteration",
	.synopsis = "[--] CMD [ARGS...]",
	.about = "Runs CMD W + N times (warm-ups first, kept and marked, not summarised) and\n"
		 "records for each run: wall, user and sys time, max RSS, minor and major faults\n"
		 "and exit status (wait4), the workload's own numbers from its stdout, and\n"
		 "/proc/vmstat deltas; /proc/meminfo before and after and per-node numastat\n"
		 "deltas over the whole run. Prints every metric per iteration and writes a\n"
		 "results file (probe 'work.wrap', one sample per run) that compare and ab read.\n"
		 "A run that fails is recorded with its exit status and stderr tail.\n",
	.tail = "example: mempath wrap -n 5 -- llama-bench -m model.gguf -p 512 -n 128 -r 1 -o "
		"json\n"
		"         mempath ab --a-env GGML_CUDA_P2P=0 --b-env GGML_CUDA_P2P=1 -o p2p \\\n"
		"             -- wrap -n 6 -- llama-bench -m model.gguf -o json\n"
		"\n"
		"Exit status: 0 every run exited 0, 1 a run failed (results still written),\n"
		"2 bad usage, 130 interrupted (partial results written).\n",
	.args = wrap_args,
	.opts_size = sizeof(struct wrap_opts),
	.init = wrap_init,
	.run = wrap_main,
	.flags = CMD_STOP_AT_ARG,
};
