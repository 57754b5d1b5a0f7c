/* bisect.c - `mempath bisect`: one step of a bisection (for `git bisect
 * run`), judged against a good and a bad reference: exit 0 good, 1 bad,
 * 125 cannot tell (flow/bisect.c measures and judges; docs/design.md
 * §5.14); the step's files and the report of the bisection in DIR. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/proc.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/legs.h"
#include "flow/ab.h"
#include "flow/bisect.h"
#include "report/report.h"
#include "results/results_json.h"
#include "store/history.h"
#include "verdict/compare.h"
#include "verdict/join.h"

/* git bisect run: 0 good, 1 bad, 125 skip; above 127 stops the bisection,
 * which is what an error must do (2 would read as "bad"). */
#define BISECT_EXIT_ABORT 128

struct bisect_opts {
	const char *good, *bad, *dir, *metric, *setup, *restore, *step, *db, *report;
	const char *good_args, *bad_args, *args, *good_setup, *bad_setup;
	unsigned rounds, setup_timeout_s, leg_timeout_s;
	double stable, threshold;
};

static void bisect_init(void *p)
{
	struct bisect_opts *o = p;

	o->rounds = 3;
	o->stable = 0.20;
	o->setup_timeout_s = (unsigned)AB_SETUP_TIMEOUT_S;
	o->leg_timeout_s = BISECT_LEG_TIMEOUT_S;
}

static const struct arg bisect_args[] = {
	ARG_STR("good", 0, struct bisect_opts, good, "REF",
		"the good reference: a results file, or #N, a run of the history"),
	ARG_STR("bad", 0, struct bisect_opts, bad, "REF", "the bad reference (as --good)"),
	ARG_STR("good-args", 0, struct bisect_opts, good_args, "WORDS",
		"instead of --good: measure the good version now, in every round, with\n"
		"these words where the wrapped command has {} (e.g. a kept build:\n"
		"'./prog-good')"),
	ARG_STR("bad-args", 0, struct bisect_opts, bad_args, "WORDS",
		"instead of --bad: the bad version's words (with --good-args)"),
	ARG_STR("args", 0, struct bisect_opts, args, "WORDS",
		"the version under test's words for {} (default: none)"),
	ARG_STR("good-setup", 0, struct bisect_opts, good_setup, "CMD",
		"run before each good leg (with --good-args)"),
	ARG_STR("bad-setup", 0, struct bisect_opts, bad_setup, "CMD",
		"run before each bad leg (with --bad-args)"),
	ARG_STR("output", 'o', struct bisect_opts, dir, "DIR",
		"the bisection's directory: a step-N-REV folder a step, the report"),
	ARG_COUNT("rounds", 0, struct bisect_opts, rounds, "N", 2, BISECT_MAX_ROUNDS,
		  "legs of the version under test, each the whole leg command (default\n"
		  "3); with measured references, rounds of a good, a test and a bad leg"),
	ARG_PCT("stable", 0, struct bisect_opts, stable, "PCT",
		"the gate: each leg's scatter (MAD) and the legs' spread within PCT\n"
		"(default 20, as 0-day's bisect), else exit 125"),
	ARG_STR("metric", 0, struct bisect_opts, metric, "PAT",
		"the metrics that decide, as compare's --primary (default: all with a\n"
		"better direction)"),
	ARG_PCT("threshold", 0, struct bisect_opts, threshold, "PCT",
		"as compare: smallest change that matters, in percent"),
	ARG_STR("setup", 0, struct bisect_opts, setup, "CMD",
		"run before each leg of the version under test (sh -c; a module\n"
		"reload)"),
	ARG_STR("restore", 0, struct bisect_opts, restore, "CMD",
		"run after the step's legs, and on failure or interruption"),
	ARG_COUNT("setup-timeout", 0, struct bisect_opts, setup_timeout_s, "S", 1, 86400,
		  "stop a setup or restore command after S seconds (default 300)"),
	ARG_COUNT("leg-timeout", 0, struct bisect_opts, leg_timeout_s, "S", 1, 604800,
		  "stop a leg after S seconds (default 3600): the step is then a skip\n"
		  "(exit 125), so git bisect run never waits on a leg that hangs"),
	ARG_STR("step", 0, struct bisect_opts, step, "NAME",
		"the version's name (default: git rev-parse --short HEAD)"),
	ARG_STR("db", 0, struct bisect_opts, db, "PATH", "the history #N references are read from"),
	ARG_STR("report", 0, struct bisect_opts, report, "DIR",
		"print the report of the bisection in DIR, then stop"),
	ARG_END};

/* The first line git prints for args (rev-parse), or NULL. */
static char *git_line(char *const *args)
{
	struct proc_spec spec = {.argv = args, .io = {PROC_PIPE, PROC_PIPE}, .max_bytes = 4096};
	struct proc p;
	char *line = NULL;

	if (proc_start(&p, &spec) != 0)
		return NULL;
	if (proc_wait(&p) == 0 && p.buf[0] && *p.buf[0])
		line = xasprintf("%.*s", (int)strcspn(p.buf[0], "\n"), p.buf[0]);
	proc_free(&p);
	return line;
}

/* A reference: a results file, or #N of the history. */
static struct run *read_ref(const char *ref, const char *db)
{
	char *path, *end;
	long long id;
	struct history *h;
	enum history_err err;
	struct run *r;

	if (*ref != '#')
		return run_read_file(ref);
	id = strtoll(ref + 1, &end, 10);
	if (id <= 0 || *end)
		return error("bad reference '%s' (a results file, or #N: a run of the history)",
			     ref),
		       NULL;
	if (!(path = history_path(db)))
		return NULL;
	h = history_open(path, 5, &err);
	free(path);
	r = h ? history_get(h, id) : NULL;
	history_close(h);
	return r;
}

/* The next step's number: one more than the step-N folders in dir. */
static unsigned next_step(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0, k;

	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "step-%u", &k) == 1 && k > n)
			n = k;
	if (d)
		closedir(d);
	return n + 1;
}

/* The report: DIR/steps.tsv (a line a step) as a table, and the first bad
 * version where git knows it (refs/bisect/bad once `git bisect run` ended). */
static int print_report(const char *dir, FILE *f)
{
	char *path = xasprintf("%s/steps.tsv", dir), *text = read_file_str(path, NULL);
	char *args[] = {"git", "rev-parse", "--short", "refs/bisect/bad", NULL}, *first;
	char *save = NULL;

	free(path);
	if (!text)
		return error("no bisection in '%s' (no steps.tsv)", dir), BISECT_EXIT_ABORT;
	fputs("# bisection in ", f);
	report_md_cell(f, dir);
	fputs("\n\n| step | version | verdict | exit | why |\n|---|---|---|---|---|\n", f);
	/* the file's bytes are text from outside (a step named by --step, an
	 * edited or binary file): each cell through the Markdown rule */
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		fputs("|", f);
		for (char *c = l, *tab;; c = tab + 1) {
			if ((tab = strchr(c, '\t')))
				*tab = '\0';
			fputs(" ", f);
			report_md_cell(f, c);
			fputs(" |", f);
			if (!tab)
				break;
		}
		fputs("\n", f);
	}
	free(text);
	first = git_line(args);
	fprintf(f, "\nfirst bad version: %s\n",
		first ? first : "not known here (git bisect names it when the run ends)");
	free(first);
	return 0;
}

static const char *verdict_word(enum bisect_verdict v)
{
	return v == BISECT_GOOD ? "good" : v == BISECT_BAD ? "bad" : "cannot tell (skip)";
}

/* The comparisons in the step's folder and the step's line in steps.tsv. */
static int record(const struct bisect_opts *o, const char *sdir, unsigned n, const char *name,
		  const struct bisect_step *s, int rc)
{
	char *tsv = xasprintf("%s/steps.tsv", o->dir), *md = xasprintf("%s/bisect.md", o->dir);
	FILE *f;
	int bad = 0;

	if (s->vs_good) {
		char *g = xasprintf("%s/vs-good.json", sdir),
		     *b = xasprintf("%s/vs-bad.json", sdir);

		bad |= report_compare_write_file(s->vs_good, REPORT_JSON, g);
		bad |= report_compare_write_file(s->vs_bad, REPORT_JSON, b);
		free(g);
		free(b);
	}
	if ((f = fopen(tsv, "a"))) {
		/* a tab or newline as text keeps the line's fields */
		char *v = util_escape_controls(name),
		     *w = util_escape_controls(s->why ? s->why : "");

		fprintf(f, "%u\t%s\t%s\t%d\t%s\n", n, v, verdict_word(s->verdict), rc, w);
		free(v);
		free(w);
		bad |= fclose(f) != 0;
	} else
		bad = 1;
	if ((f = fopen(md, "w"))) {
		print_report(o->dir, f);
		bad |= fclose(f) != 0;
	}
	if (bad)
		error("cannot write the step's record in '%s'", o->dir);
	free(tsv);
	free(md);
	return bad ? -1 : 0;
}

static int check_leg(const struct cmd_line *l, int measured)
{
	struct leg_command lc;
	unsigned need = measured ? COMPARE_MIN_ROUND_SAMPLES : COMPARE_MIN_SAMPLES;
	if (leg_command_check(l, "bisect", measured ? "--good-args/--bad-args" : NULL, &lc) != 0)
		return -1;
	if (lc.samples < need)
		return error("the leg command gives %u sample(s) a metric; a leg needs at least %u",
			     lc.samples, need);
	return 0;
}

static int bisect_main(void *p, const struct cmd_line *l)
{
	struct bisect_opts *o = p;
	struct bisect_plan plan = {.legs = o->rounds,
				   .stable = o->stable,
				   .metric = o->metric,
				   .setup = o->setup,
				   .restore = o->restore,
				   .setup_timeout_s = o->setup_timeout_s,
				   .leg_timeout_s = o->leg_timeout_s,
				   .argv = l->argv,
				   .argc = l->argc,
				   .good_name = o->good,
				   .bad_name = o->bad};
	struct run *good = NULL, *bad = NULL;
	struct bisect_step s = {0};
	char *name = NULL, *sdir = NULL;
	char *args[] = {"git", "rev-parse", "--short", "HEAD", NULL};
	unsigned n;
	int rc = BISECT_EXIT_ABORT;

	if (o->report)
		return print_report(o->report, stdout);
	if (!o->dir || (o->good_args ? !o->bad_args || o->good || o->bad
				     : o->bad_args || o->args || !o->good || !o->bad))
		return error("bisect needs -o DIR and the references: --good REF --bad REF "
			     "(results files), or --good-args and --bad-args (measured now)"),
		       BISECT_EXIT_ABORT;
	if ((o->good_setup && !o->good_args) || (o->bad_setup && !o->bad_args))
		return error("--good-setup and --bad-setup go with measured references "
			     "(--good-args, --bad-args)"),
		       BISECT_EXIT_ABORT;
	if ((o->metric && compare_pattern_check(o->metric, "--metric") != 0) ||
	    check_leg(l, o->good_args != NULL) != 0)
		return BISECT_EXIT_ABORT;
	if (!o->good_args &&
	    (!(good = read_ref(o->good, o->db)) || !(bad = read_ref(o->bad, o->db))))
		goto out;
	plan.good_args = o->good_args;
	plan.bad_args = o->bad_args;
	plan.test_args = o->args;
	plan.good_setup = o->good_setup;
	plan.bad_setup = o->bad_setup;
	if (mkdir(o->dir, 0755) != 0 && errno != EEXIST) {
		error("cannot create '%s': %s", o->dir, strerror(errno));
		goto out;
	}
	n = next_step(o->dir);
	name = o->step ? xstrdup(o->step) : git_line(args);
	if (name && !o->step) {
		/* uncommitted changes are part of what each step builds and runs */
		char *st[] = {"git", "status", "--porcelain", "--untracked-files=no", NULL};
		char *dirty = git_line(st);

		if (dirty) {
			char *tagged = xasprintf("%s-dirty", name);

			/* porcelain: "XY path" */
			warning("the work tree has uncommitted changes (%s ...): they are part "
				"of this step, so it is named %s, not after its commit alone",
				strlen(dirty) > 3 ? dirty + 3 : dirty, tagged);
			free(name);
			name = tagged;
		}
		free(dirty);
	}
	if (!name)
		name = xasprintf("%u", n);
	for (char *c = name; *c; c++)
		if (*c == '/' || *c == ' ' || *c == '\t')
			*c = '_';
	sdir = xasprintf("%s/step-%u-%s", o->dir, n, name);
	if (mkdir(sdir, 0755) != 0) {
		error("cannot create '%s': %s", sdir, strerror(errno));
		goto out;
	}
	compare_opts_default(&plan.co);
	plan.co.threshold = o->threshold;
	plan.co.primary = o->metric;
	if (o->good_args) { /* the legs differ by their words on purpose (§11.5) */
		static const char *const words[] = {"wrap.args"};

		plan.co.expect_diff = words;
		plan.co.n_expect_diff = 1;
	}
	plan.good = good;
	plan.bad = bad;
	plan.dir = sdir;
	progress("bisect: step %u (%s): %u legs", n, name, o->rounds);
	bisect_step_run(&plan, &s);
	rc = s.failed == 130 ? 130 : (int)s.verdict;
	if (record(o, sdir, n, name, &s, rc) != 0 && rc != 130)
		rc = BISECT_EXIT_ABORT;
	notice("bisect: step %u (%s): %s: %s (exit %d; %s/)", n, name, verdict_word(s.verdict),
	       s.why ? s.why : "", rc, sdir);
out:
	bisect_step_free(&s);
	run_free(good);
	run_free(bad);
	free(name);
	free(sdir);
	return rc;
}

const struct command command_bisect = {
	.name = "bisect",
	.summary = "one step of a bisection: like the good or the bad reference (git bisect run)",
	.synopsis = "(--good REF --bad REF | --good-args W --bad-args W) -o DIR [--] COMMAND...",
	.about = "Measures the version at hand (the checkout git bisect made) with COMMAND, a\n"
		 "mempath run, probe or wrap as ab takes it, in --rounds legs (each leg the\n"
		 "whole command, run as ab runs a leg: --setup before each, --restore after the\n"
		 "last), then judges it against a good and a bad reference with the verdicts of\n"
		 "compare. The references are measured now: with --good-args and --bad-args\n"
		 "(kept builds, put where the wrapped command has {}) every round is a good, a\n"
		 "test and a bad leg (GTB, BTG, ...), each verdict a comparison of rounds, so a\n"
		 "load that comes and goes moves all three legs of a round; or they are results\n"
		 "files (or #N runs of the history) measured before (--good, --bad).\n"
		 "  exit 0    like the good one: near its level and better than the bad one\n"
		 "  exit 1    like the bad one: near its level and worse than the good one\n"
		 "  exit 125  cannot tell: the gate failed (a leg's samples scatter, or the legs\n"
		 "            disagree, by more than --stable), the version is in between, a\n"
		 "            leg failed or its metrics did not match; git bisect skips it\n"
		 "The gate comes first: on a noisy machine, or for a version that is noisy\n"
		 "itself, the step says so instead of blaming a version. Each step's legs, logs\n"
		 "and comparisons (vs-good.json, vs-bad.json) stay in DIR/step-N-VERSION;\n"
		 "DIR/steps.tsv and DIR/bisect.md report the bisection (steps, verdicts, and the\n"
		 "first bad version once git knows it: --report DIR).\n",
	.tail = "example: git bisect start BAD GOOD\n"
		"         git bisect run sh -c 'make prog || exit 125\n"
		"             mempath bisect --good-args ../prog-good --bad-args ../prog-bad \\\n"
		"             --args ./prog --metric work.wrap:user_time -o ../bisect \\\n"
		"             -- wrap -n 4 -- {}'\n"
		"         mempath bisect --report ../bisect\n"
		"       (with results files: --good good.json --bad bad.json -- wrap -n 6 -- "
		"./prog)\n"
		"\n"
		"Exit status: 0 good, 1 bad, 125 cannot tell, 128 an error (bad references, no\n"
		"DIR: git bisect run stops), 130 interrupted; 2 for an option the parser refuses,\n"
		"which git would read as bad: run the command once by hand first.\n",
	.args = bisect_args,
	.opts_size = sizeof(struct bisect_opts),
	.init = bisect_init,
	.run = bisect_main,
	.flags = CMD_STOP_AT_ARG,
};
