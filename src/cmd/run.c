/* run.c - `mempath run`: a suite of probes, a table, a results file. */
#include <stdlib.h>
#include <string.h>

#include "base/proc.h"
#include "base/suggest.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "exec/session.h"
#include "probes/registry.h"
#include "report/report.h"
#include "store/history.h"

struct run_opts {
	const char *suite, *label, *out, *only;
	enum report_format format;
	struct sampling_args s;
	int history;
};

/* --reps and --warmups not given: the suite's own (RUNNER_QUICK_REPS for
 * the quick suite), told apart by values the parser never writes */
#define REPS_UNSET    (~0u)
#define WARMUPS_UNSET (~0u)

static void run_init(void *p)
{
	struct run_opts *o = p;
	o->suite = "quick";
	sampling_args_init(&o->s);
	o->s.reps = REPS_UNSET;
	o->s.warmups = WARMUPS_UNSET;
}

/* The sampling the run takes: what was given, else the suite's. */
static struct sampling_args run_sampling(const struct run_opts *o)
{
	struct sampling_args s = o->s;
	int quick = strcmp(o->suite, "quick") == 0;

	if (s.reps == REPS_UNSET)
		s.reps = quick ? RUNNER_QUICK_REPS : RUNNER_REPS;
	if (s.warmups == WARMUPS_UNSET)
		s.warmups = quick ? RUNNER_QUICK_WARMUPS : RUNNER_WARMUPS;
	return s;
}

static const struct arg run_args[] = {
	ARG_CHOICE("suite", 0, struct run_opts, suite, "S", "quick|full|cpu|gpu|p2p",
		   "quick (default: small sizes, about a minute), full, cpu, gpu, p2p"),
	ARG_STR("label", 0, struct run_opts, label, "L",
		"a name for this configuration (stock, patched, ...)"),
	ARG_STR("output", 'o', struct run_opts, out, "FILE", "results file path"),
	ARGS_SAMPLING_AUTO(struct run_opts, s),
	ARG_FORMAT("format", 0, struct run_opts, format, REPORT_DOC_RUN,
		   "the table's format on stdout (default term)"),
	ARG_STR("only", 0, struct run_opts, only, "LIST", "run only these probes of the suite"),
	ARG_FLAG("history", 0, struct run_opts, history,
		 "keep the run in the history too ('mempath history'; the database:\n"
		 "$MEMPATH_HISTORY, else $XDG_DATA_HOME/mempath/history.db)"),
	ARG_END};

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Every name in --only must be a probe: 0, or -1 after an error line. */
static int check_only(const char *only)
{
	char *dup = xstrdup(only), *save = NULL, hint[96];
	int rc = 0;
	if (strspn(only, ", ") == strlen(only))
		rc = error("--only names no probe (e.g. --only cpu.stream,cpu.latency)");
	for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
		if (!probe_find(t))
			rc = error("unknown probe '%s' in --only%s (see 'mempath list')", t,
				   suggest_phrase(probe_suggest(t), hint, sizeof(hint)));
	free(dup);
	return rc;
}

/* --history: the run into the history database. 0, or -1 after an error
 * line (the results file is written either way). */
static int keep(const struct run *r, const char *path)
{
	char *db = history_path(NULL);
	enum history_err err;
	struct history *h = db ? history_open(db, 5, &err) : NULL;
	int dup;
	int64_t id = h ? history_add(h, r, path, NULL, &dup) : -1;

	if (id > 0)
		notice("history: run %lld in %s", (long long)id, db);
	history_close(h);
	free(db);
	return id > 0 ? 0 : -1;
}

/* A probe's block of the terminal table as soon as the probe ends. */
static void print_probe(struct session *s, const struct probe_result *res, void *arg)
{
	report_term_stream_probe(s->run, res, stdout);
	fflush(stdout);
}

/* The suite's probes (and --only's) in table order; *n set. */
static const struct probe **plan_of(const struct run_opts *o, size_t *n)
{
	const struct probe **plan = xcalloc(probe_table_len, sizeof(*plan));

	*n = 0;
	for (size_t i = 0; i < probe_table_len; i++)
		if (session_suite_has(o->suite, probe_table[i]) &&
		    (!o->only || in_list(o->only, probe_table[i]->name)))
			plan[(*n)++] = probe_table[i];
	return plan;
}

/* No stray argument; every name in --only a probe; every probe's options
 * (its defaults, the quick suite's sizes) pass its check, before the
 * fingerprint. 0, or -1 after an error line. */
static int run_check(const void *p, const struct cmd_line *l)
{
	const struct run_opts *o = p;
	const struct probe **plan;
	struct runner_opts ro;
	size_t n;
	int rc = 0;

	if (l->argc > 0)
		return error("unexpected argument '%s' (see 'mempath run --help')", l->argv[0]);
	if (o->only && check_only(o->only) != 0)
		return -1;
	struct sampling_args sa = run_sampling(o);

	sampling_args_runner(&sa, &ro);
	ro.quick = strcmp(o->suite, "quick") == 0;
	ro.full = strcmp(o->suite, "full") == 0;
	plan = plan_of(o, &n);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = runner_check_opts(plan[i], NULL, 0, &ro);
	free(plan);
	return rc;
}

static int run_probes(struct session *s)
{
	for (size_t i = 0; i < s->n_plan && !proc_signal_received(); i++) {
		const struct probe *pr = s->plan[i];
		char *why = session_not_here(s, pr);
		int rc = why ? session_skip_probe(s, pr, why) : session_run_probe(s, pr, NULL, 0);

		free(why);
		if (rc != 0)
			return 1;
	}
	return 0;
}

static int run_main(void *p, const struct cmd_line *l)
{
	struct run_opts *o = p;
	enum report_format fmt = o->format;
	const struct probe **plan;
	struct session s;
	struct sampling_args sa;
	char *out_path;
	int rc = 0;
	if (run_check(o, l) != 0)
		return 2;
	util_set_quiet(o->s.quiet);
	memset(&s, 0, sizeof(s));
	sa = run_sampling(o);
	sampling_args_runner(&sa, &s.ropts);
	s.ropts.quick = strcmp(o->suite, "quick") == 0;
	s.ropts.full = strcmp(o->suite, "full") == 0;
	plan = plan_of(o, &s.n_plan);
	s.plan = plan;
	s.total = (unsigned)s.n_plan;
	session_show(&s, o->s.quiet, fmt == REPORT_TERM);
	if (fmt == REPORT_TERM)
		s.on_probe = print_probe;
	out_path = o->out ? xstrdup(o->out) : session_default_path(o->label ? o->label : o->suite);
	s.out_path = out_path;
	proc_signals_install();
	progress("mempath: collecting the machine's fingerprint ...");
	if (session_begin(&s, l->all_argc, l->all_argv, o->label, o->suite) != 0) {
		run_free(s.run);
		free(out_path);
		free(plan);
		return 1;
	}
	if (s.total == 0)
		warning("suite '%s' has no probe that applies to this machine", o->suite);
	session_say_estimate(&s);
	if (fmt == REPORT_TERM) {
		report_term_stream_head(s.run, stdout);
		fflush(stdout);
	}
	rc = run_probes(&s);
	if (session_end(&s) != 0)
		rc = 1;
	if (s.run->knobs_start && s.run->knobs_end &&
	    !json_equal(s.run->knobs_start, s.run->knobs_end))
		warning("machine knobs changed during the run (see knobs.start and knobs.end in "
			"'%s')",
			out_path);
	if (fmt == REPORT_TERM)
		report_term_stream_end(s.run, stdout);
	else
		report_write(s.run, fmt, stdout);
	fflush(stdout);
	if (rc == 0)
		notice("results: %s", out_path);
	if (o->history && keep(s.run, out_path) != 0)
		rc = rc ? rc : 1;
	if (rc == 0 && session_failed(&s)) {
		error("%zu probe(s) failed or timed out (see the table)", session_failed(&s));
		rc = 1;
	}
	if (proc_signal_received()) {
		notice("mempath: interrupted; partial results kept in '%s'", out_path);
		rc = 130;
	}
	run_free(s.run);
	free(out_path);
	free(plan);
	return rc;
}

static unsigned run_samples(const void *p)
{
	struct sampling_args s = run_sampling(p);

	return sampling_args_samples(&s);
}

const struct command command_run = {
	.name = "run",
	.summary = "run a suite, print a table, save a results file",
	.about = "Runs a suite of probes, each in its own child process, prints a table and\n"
		 "saves every sample with the machine's fingerprint to a results file\n"
		 "(default: ./mempath-<label>-<time>.json, rewritten after every probe).\n"
		 "A metric takes 10 counted samples after 2 warm-ups, the quick suite's 6\n"
		 "after 1 (the fewest a compare leg takes), unless --reps and --warmups say.\n",
	.examples = "mempath run --suite quick\n"
		    "mempath run --suite full --label stock -o stock.json\n"
		    "mempath run --only cpu.stream,cpu.latency --reps 20 -q\n",
	.tail = "Exit status: 0 every probe ran or was skipped (a skip says why), 1 a probe\n"
		"failed, crashed, timed out or was OOM-killed (results still written) or the\n"
		"results file could not be written, 2 bad usage, 130 interrupted (partial\n"
		"results written).\n",
	.args = run_args,
	.opts_size = sizeof(struct run_opts),
	.init = run_init,
	.run = run_main,
	.samples = run_samples,
	.check = run_check,
};
