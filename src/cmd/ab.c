/* ab.c - `mempath ab`: A/B/A legs of a mempath command around the user's own
 * setup commands (flow/ab.c runs them and restores the machine), then the
 * comparison of the legs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/guard.h"
#include "base/outguard.h"
#include "base/util.h"
#include "cmd/ab_study.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "cmd/legs.h"
#include "flow/ab.h"
#include "flow/ab_auto.h"
#include "flow/ab_schedule.h"
#include "machine/noise.h"
#include "report/report.h"
#include "report/summary.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/comparison.h"
#include "verdict/sequential.h"

/* The command after --, checked before any setup (cmd/legs.h), with enough
 * samples per leg for a verdict: with rounds, split over them. */
static int check_leg_args(const struct cmd_line *l, int per_leg_args, unsigned rounds,
			  int auto_rounds, struct ab_plan *plan)
{
	struct leg_command lc;
	if (leg_command_check(l, "ab", per_leg_args ? "--a-args/--b-args" : NULL, &lc) != 0)
		return -1;
	/* the budget's pilot of a leg whose count is not split (wrap, auto) */
	plan->pilot_opt = lc.count_opt;
	plan->pilot_at = lc.opts_end;
	plan->pilot_n = lc.samples;
	if (rounds)
		return leg_rounds_plan(&lc, l, rounds, auto_rounds, &plan->leg_reps);
	if (lc.samples < COMPARE_MIN_SAMPLES)
		return error("the leg command gives %u sample(s) per metric; compare needs at "
			     "least %d per leg for a verdict (%s %d)",
			     lc.samples, COMPARE_MIN_SAMPLES,
			     strcmp(lc.c->name, "wrap") == 0 ? "wrap -n" : "--reps",
			     COMPARE_MIN_SAMPLES);
	return 0;
}

/* DIR is ab's: one with a restore that never ran is refused (run it first),
 * and so is one holding an earlier ab's results, which the comparison
 * could otherwise read as this one's; anything else in it is left alone. */
static int check_dir(const char *dir)
{
	char *pending = ab_pending_path(dir);
	struct stat st;
	DIR *d;
	struct dirent *e;
	int rc = 0;
	if (stat(pending, &st) == 0)
		rc = error("'%s' holds a restore that an earlier ab did not finish (%s): run "
			   "'mempath ab --restore-pending %s' first",
			   dir, pending, dir);
	free(pending);
	if (rc != 0 || !(d = opendir(dir)))
		return rc;
	while ((e = readdir(d)))
		if ((str_starts_with(e->d_name, "leg-") && strstr(e->d_name, ".json")) ||
		    strcmp(e->d_name, "compare.json") == 0 ||
		    strcmp(e->d_name, "study.json") == 0) {
			rc = error("'%s' holds results of an earlier ab (%s): use a new directory, "
				   "or move them away",
				   dir, e->d_name);
			break;
		}
	closedir(d);
	return rc;
}

/* DIR is this ab's alone from here to its exit: a lock on the directory
 * itself (flock, so a killed ab holds nothing), taken before the checks,
 * so a second ab naming DIR is refused before it runs or removes anything
 * (its restore would clear the first one's record while that one is in B).
 * The descriptor is kept open until exit (close-on-exec: no child has it). */
static int lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", dir, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return error("'%s' is in use by another ab (or its --restore-pending): wait for "
			     "it, or use another -o",
			     dir);
	}
	return 0;
}

static void ab_init(void *p)
{
	struct ab_opts *o = p;
	o->order = "abba";
	o->label_a = "A";
	o->label_b = "B";
	o->setup_timeout_s = (unsigned)AB_SETUP_TIMEOUT_S;
	o->max_rounds = SEQ_MAX_ROUNDS;
	o->margin = 0.05;
}

static const struct arg ab_args[] = {
	ARG_STR("a", 0, struct ab_opts, a, "CMD", "setup command for the A (baseline) legs"),
	ARG_STR("b", 0, struct ab_opts, b, "CMD", "setup command for the B (change) legs"),
	ARG_STR("restore", 0, struct ab_opts, restore, "CMD",
		"run at the end and on failure or interruption (default: --a)"),
	ARG_COUNT("setup-timeout", 0, struct ab_opts, setup_timeout_s, "S", 1, 86400,
		  "stop a setup or restore command after S seconds (default 300)"),
	ARG_STR("restore-pending", 0, struct ab_opts, pending, "DIR",
		"run the restore an earlier ab in DIR did not finish (it was\n"
		"killed), then stop"),
	ARG_STR("legs", 0, struct ab_opts, legs, "P",
		"order of the legs (ABA, ABAB, ...) instead of rounds: a verdict\n"
		"needs 4 or more legs a side"),
	ARG_REPS("rounds", 0, struct ab_opts, rounds, "N", 2, COMPARE_MAX_LEGS / 2,
		 "N rounds, each an A and a B leg, the samples split over them;\n"
		 "compared round by round; auto (the default): 4 rounds, then\n"
		 "more until every metric that matters is decided (WIN, LOSS,\n"
		 "or SAME within --margin) or --max-rounds or --budget ends"),
	ARG_COUNT("max-rounds", 0, struct ab_opts, max_rounds, "N", SEQ_MIN_ROUNDS,
		  COMPARE_MAX_LEGS / 2, "--rounds auto: at most N rounds (default 12)"),
	ARG_NUM("budget", 0, struct ab_opts, budget_s, "S", 1, 604800,
		"--rounds auto: no round begun that would end after S seconds"),
	ARG_PCT("margin", 0, struct ab_opts, margin, "PCT",
		"--rounds auto: a change within +-PCT is SAME (default 5)"),
	ARG_CHOICE("order", 0, struct ab_opts, order, "O", "abba|random",
		   "order of each round's legs: abba (AB, BA, AB, ...; default)\n"
		   "or random (recorded with its seed)"),
	ARG_COUNT("seed", 0, struct ab_opts, seed, "S", 1, 4294967295u,
		  "seed of --order random (default: from the clock; recorded)"),
	ARG_STRS("a-env", 0, struct ab_opts, a_env, "K=V",
		 "environment for the A legs (repeatable)"),
	ARG_STRS("b-env", 0, struct ab_opts, b_env, "K=V",
		 "environment for the B legs (repeatable)"),
	ARG_STR("a-args", 0, struct ab_opts, a_args, "WORDS",
		"words for the wrapped command in the A legs: where it has {},\n"
		"else at its end (the leg must be wrap; e.g. '--mmap 1')"),
	ARG_STR("b-args", 0, struct ab_opts, b_args, "WORDS",
		"words for the wrapped command in the B legs (e.g. '--mmap 0')"),
	ARG_STRS("variant", 0, struct ab_opts, variants, "NAME[:CMD]",
		 "a variant (its run label) and its setup command, repeatable: the\n"
		 "first is the baseline (its setup the restore's default); three or\n"
		 "more make a study, each judged against the baseline"),
	ARG_STRS("variant-env", 0, struct ab_opts, variant_env, "NAME:K=V",
		 "environment for variant NAME's legs (repeatable)"),
	ARG_STRS("variant-args", 0, struct ab_opts, variant_args, "NAME:WORDS",
		 "words for the wrapped command in variant NAME's legs"),
	ARG_STRS("factor", 0, struct ab_opts, factors, "F=L1,L2",
		 "a factor and its levels (repeatable): the variants are every\n"
		 "combination, named F=L,G=M, the first levels the baseline"),
	ARG_STRS("level", 0, struct ab_opts, levels, "F=L:CMD",
		 "setup command of level L of factor F (repeatable): a variant's\n"
		 "setup runs its levels' commands in order"),
	ARG_STRS("level-env", 0, struct ab_opts, level_env, "F=L:K=V",
		 "environment for the legs of every variant with level L of F\n"
		 "(repeatable)"),
	ARG_STRS("level-args", 0, struct ab_opts, level_args, "F=L:WORDS",
		 "words for the wrapped command in the legs of every variant with\n"
		 "level L of F, after those of the --level-args before it"),
	ARG_FLAG("all-pairs", 0, struct ab_opts, all_pairs,
		 "a study: every pair of variants compared too, all in the family"),
	ARG_STR("title", 0, struct ab_opts, title, "T",
		"the finding's title, kept with each leg (for 'mempath findings')"),
	ARG_STR("label-a", 0, struct ab_opts, label_a, "L", "run label of the A legs (default A)"),
	ARG_STR("label-b", 0, struct ab_opts, label_b, "L", "run label of the B legs (default B)"),
	ARG_STR("output", 'o', struct ab_opts, dir, "DIR",
		"directory for the legs' results and logs (created)"),
	ARGS_VERDICT(struct ab_opts, v),
	ARG_EXPORT_SUMMARY(struct ab_opts, summary_out),
	ARG_FAIL_ON_LOSS(struct ab_opts, fail_on_loss),
	ARG_END};

/* The options compare gets, checked before any leg runs. */
static int compare_options(const struct ab_opts *o, struct compare_opts *co, int study)
{
	compare_opts_default(co);
	if (verdict_args_apply(&o->v, co) != 0)
		return -1;
	co->legs = o->legs;
	co->rounds = o->rounds > 0;
	if (o->auto_rounds)
		co->margin = o->margin;
	if (study) /* the study pairs the letters itself */
		return 0;
	if (strspn(o->legs, "AB") != strlen(o->legs) || !strchr(o->legs, 'A') ||
	    !strchr(o->legs, 'B') || strlen(o->legs) > COMPARE_MAX_LEGS)
		return error("bad --legs '%s' (A and B, both, at most %d legs: ABA, ABAB, ...)",
			     o->legs, COMPARE_MAX_LEGS);
	return 0;
}

/* The legs' files compared; compare.md and compare.json in the directory,
 * the table on stdout. 0, 1 (--fail-on-loss and a LOSS), or 2 / -1 on error. */
static int compare_legs(const struct ab_opts *o, const struct compare_opts *co,
			char *const *leg_paths, size_t n, char *note)
{
	const struct run **runs = NULL;
	struct comparison *cmp = ab_compare_files(co, leg_paths, n, &runs);
	int rc = 1;
	char *md = xasprintf("%s/compare.md", o->dir), *js = xasprintf("%s/compare.json", o->dir);
	if (cmp && note) {
		comparison_add_note(cmp, note);
		note = NULL;
	}
	free(note);
	if (!cmp ||
	    (report_compare_write_file(cmp, REPORT_MD, md) |
	     report_compare_write_file(cmp, REPORT_JSON, js) |
	     report_compare_write_file(cmp, REPORT_TERM, NULL)) != 0 ||
	    (o->summary_out && report_summary_write(cmp, o->summary_out) != 0))
		goto out;
	notice("results: %s/ (compare.md, compare.json, leg-N-*.json, logs)", o->dir);
	rc = comparison_exit(cmp, o->fail_on_loss);
out:
	comparison_free(cmp);
	ab_runs_free(runs, n);
	free(md);
	free(js);
	return rc;
}

/* Do a and b hold the same words (blanks aside)? */
static int same_words(const char *a, const char *b)
{
	char *x = xstrdup(a ? a : ""), *y = xstrdup(b ? b : ""), *s1 = NULL, *s2 = NULL;
	char *t = strtok_r(x, " \t\n", &s1), *u = strtok_r(y, " \t\n", &s2);
	int same = 1;
	for (; same && (t || u); t = strtok_r(NULL, " \t\n", &s1), u = strtok_r(NULL, " \t\n", &s2))
		same = t && u && strcmp(t, u) == 0;
	free(x);
	free(y);
	return same;
}

/* Says, before any leg, when the machine is busy and with what (docs/design.md
 * §4.14), and what interleaves the legs when none asked for rounds. */
static void say_machine(const struct ab_opts *o, const char *schedule)
{
	json_t *look = noise_look(noise_look_window_s());
	char *busy = noise_busy_line(look);
	if (busy)
		warning("the machine is busy: %s%s", busy,
			o->rounds ? ""
				  : "; a load that comes and goes between the legs reads as a "
				    "change: use --rounds auto");
	if (o->rounds) {
		char seed[32] = "";
		if (strcmp(o->order, "random") == 0)
			snprintf(seed, sizeof(seed), ", seed %u", o->seed);
		if (o->auto_rounds)
			progress("ab: rounds auto: %d, then more until every metric that matters "
				 "is decided, at most %u (and up to %u more in place of rounds "
				 "left out for their load); order %s (%s%s)",
				 SEQ_MIN_ROUNDS, o->max_rounds, o->rounds - o->max_rounds, o->order,
				 schedule, seed);
		else
			progress("ab: %u rounds, order %s (%s%s)", o->rounds, o->order, schedule,
				 seed);
	} else
		progress("ab: legs %s; a verdict needs 4 or more a side (rounds, the default, "
			 "interleave A and B so that a load between them cancels)",
			 schedule);
	/* before the first setup: the budget bounds the first rounds too */
	if (o->auto_rounds && o->budget_s > 0)
		progress("ab: --budget %g s bounds every leg: the first %u rounds (%u legs) a "
			 "verdict needs must fit in it (a pilot of the leg command says first), "
			 "or ab stops there",
			 o->budget_s, SEQ_MIN_ROUNDS, 2 * SEQ_MIN_ROUNDS);
	free(busy);
	json_decref(look);
}

/* ab --restore-pending DIR: the exit status. */
static int restore_pending(const struct ab_opts *o, const struct cmd_line *l)
{
	struct stat st;
	if (l->argc > 0)
		return error("--restore-pending runs no legs: no command after it"), 2;
	if (stat(o->pending, &st) == 0 && S_ISDIR(st.st_mode) && lock_dir(o->pending) != 0)
		return 2;
	return ab_restore_pending(o->pending, o->setup_timeout_s) == 0 ? 0 : 1;
}

/* The knobs co expects to differ, wrap.args with them: a new array, which
 * co borrows. */
static const char **expect_args(struct compare_opts *co)
{
	const char **expect = xcalloc(co->n_expect_diff + 2, sizeof(*expect));
	if (co->n_expect_diff) /* none given: no array to copy (UBSan) */
		memcpy(expect, co->expect_diff, co->n_expect_diff * sizeof(*expect));
	expect[co->n_expect_diff] = "wrap.args";
	co->expect_diff = expect;
	co->n_expect_diff++;
	return expect;
}

extern const struct command command_ab; /* below: its rows say what was given */

static int ab_main(void *p, const struct cmd_line *l)
{
	struct ab_opts *o = p;
	char *schedule = NULL, *command = NULL;
	/* one side's words given: the other's are none, so its {} goes too */
	const char *none = o->a_args || o->b_args ? "" : NULL;
	struct ab_plan plan = {
		.a = {.label = o->label_a, .setup = o->a, .args = o->a_args ? o->a_args : none},
		.b = {.label = o->label_b, .setup = o->b, .args = o->b_args ? o->b_args : none},
		.dir = o->dir,
		.restore = o->restore,
		.argv = l->argv,
		.argc = l->argc,
		.setup_timeout_s = o->setup_timeout_s,
		.rounds = o->rounds,
		.order = o->order};
	struct compare_opts co;
	struct ab_auto ar = {.max = 0}; /* freed at out: even before it starts */
	static const char *const ab_owned[] = {"compare.*", "study.*", "leg-*",
					       "restore.*", "pilot-*", NULL};
	struct ab_variant *vars = NULL;
	size_t n_vars = 0, per = 2;
	struct out_inputs ab_dir_in = {.dirs = (char *const *)&o->dir, .n_dirs = o->dir ? 1 : 0};
	char **leg_paths = NULL, *note = NULL;
	const char **expect = NULL;
	size_t n_run = 0;
	enum ab_outcome outcome;
	int rc = 2;
	if (o->pending)
		return restore_pending(o, l);
	if (o->summary_out && report_summary_check_path(o->summary_out) != 0)
		goto out;
	for (size_t i = 0; i < o->a_env.n; i++)
		if (ab_variant_env(&plan.a, o->a_env.v[i]) != 0)
			goto out;
	for (size_t i = 0; i < o->b_env.n; i++)
		if (ab_variant_env(&plan.b, o->b_env.v[i]) != 0)
			goto out;
	if (ab_study_plan(o, &plan, &vars, &n_vars) != 0)
		goto out;
	per = ab_per_round(&plan);
	/* rounds (auto) unless the legs are given: one process a side cannot
	 * be judged (docs/design.md §5.4) */
	o->auto_rounds = !o->rounds && (args_given(&command_ab, l->given, "rounds") || !o->legs);
	if (!o->auto_rounds && (args_given(&command_ab, l->given, "max-rounds") ||
				args_given(&command_ab, l->given, "budget") ||
				args_given(&command_ab, l->given, "margin"))) {
		error("--max-rounds, --budget and --margin are for --rounds auto (the default), "
		      "not --legs or --rounds N");
		goto out;
	}
	if (o->auto_rounds) /* and rounds to replace those left out for load */
		o->rounds = plan.rounds = ab_auto_cap(o->max_rounds);
	if (o->rounds && o->legs) {
		error("--legs and --rounds: the rounds set the legs (--order abba or random)");
		goto out;
	}
	if (o->rounds) {
		if (!o->seed)
			o->seed = (unsigned)time(NULL) ^ (unsigned)getpid();
		schedule = ab_schedule_n(per, o->rounds, o->order, o->seed);
		o->legs = schedule;
	} else if (n_vars > 2) {
		error("a study runs in rounds (--rounds N or auto), not --legs");
		goto out;
	}
	plan.legs = o->legs;
	plan.seed = o->seed;
	plan.title = o->title;
	plan.command = command = ab_command_line(o, l);
	if (compare_options(o, &co, n_vars > 2) != 0)
		goto out;
	/* Legs that differ by the words given differ by them on purpose: the
	 * knob wrap records for them is expected to differ (§11.5). */
	if (((o->a_args || o->b_args) && !same_words(o->a_args, o->b_args)) || o->variant_args.n ||
	    o->level_args.n)
		expect = expect_args(&co);
	if (!o->dir) {
		error("ab needs -o DIR for the legs' results and logs");
		goto out;
	}
	/* B's setup changes the machine: something must put it back */
	if (o->b && !o->a && !o->restore) {
		error("--b changes the machine and nothing puts it back: give --a (A's setup, "
		      "also the restore) or --restore CMD (--restore true when B needs no "
		      "undoing)");
		goto out;
	}
	/* auto rounds: the samples given are split over the first rounds */
	if (check_leg_args(l, o->a_args || o->b_args || o->variant_args.n || o->level_args.n,
			   o->auto_rounds ? SEQ_MIN_ROUNDS : o->rounds, o->auto_rounds, &plan) != 0)
		goto out;
	if (o->auto_rounds) {
		ab_auto_start(&ar, &co, o->max_rounds, o->budget_s);
		/* the budget bounds every leg, the first rounds' too */
		plan.budget_s = o->budget_s;
		plan.t0_s = ar.t0;
		plan.fit_legs = per * SEQ_MIN_ROUNDS;
		ar.schedule = o->legs; /* a study's letters: not the comparison's */
		ar.per_round = per;
		ar.all_pairs = o->all_pairs;
		plan.go_on = ab_auto_go_on;
		plan.go_on_ctx = &ar;
	}
	if (mkdir(o->dir, 0755) != 0 && errno != EEXIST) {
		error("cannot create '%s': %s", o->dir, strerror(errno));
		goto out;
	}
	if (lock_dir(o->dir) != 0 || check_dir(o->dir) != 0)
		goto out;
	/* the summary must not land on a file ab writes in its directory */
	if (output_guard(o->summary_out, &ab_dir_in, ab_owned) != 0)
		goto out;
	say_machine(o, o->legs);
	rc = 1;
	guard_start(); /* nothing a setup starts outlives ab (docs/design.md §2.4) */
	outcome = ab_flow(&plan, &leg_paths, &n_run);
	guard_say_left("ab", "a setup or restore command");
	switch (outcome) {
	case AB_INTERRUPTED:
		notice("mempath: interrupted; restore ran (see '%s/restore.log'), "
		       "partial results kept in '%s'",
		       o->dir, o->dir);
		rc = 130;
		break;
	case AB_LEG_FAILED:
	case AB_RESTORE_FAILED: /* rc 1: say so before any verdict */
		break;
	case AB_DONE:
		if (o->auto_rounds)
			note = ab_auto_finish(&ar, (unsigned)(n_run / per), &co);
		rc = n_vars > 2 ? ab_study_compare(o, &co, leg_paths, n_run, note)
				: compare_legs(o, &co, leg_paths, n_run, note);
		note = NULL;
		break;
	}
out:
	for (size_t i = 0; leg_paths && leg_paths[i]; i++)
		free(leg_paths[i]);
	free(leg_paths);
	ab_variant_free(&plan.a);
	ab_variant_free(&plan.b);
	ab_variants_free(vars, n_vars);
	free(expect);
	free(command);
	free(schedule);
	if (o->auto_rounds)
		ab_auto_free(&ar);
	free(note);
	return rc;
}

const struct command command_ab = {
	.name = "ab",
	.summary = "run A and B legs in rounds with your setup commands, restore, compare",
	.synopsis = "-o DIR [--] COMMAND [ARGS...]",
	.about = "Runs the legs in order (default: rounds auto, below). Before each leg it runs "
		 "that\n"
		 "variant's setup command with 'sh -c' (a sysfs write, a module swap; output in\n"
		 "DIR/leg-N-setup.log), then this mempath with COMMAND ARGS plus\n"
		 "'-o DIR/leg-N-LABEL.json --label LABEL' and the variant's environment. The\n"
		 "fingerprint and knobs are read at the start and end of every leg. At the end,\n"
		 "when a setup or leg fails, and on Ctrl-C or SIGTERM it runs the restore command\n"
		 "(default: the A command; log in DIR/restore.log), so the machine is left as it\n"
		 "was found. Then it compares the legs (DIR/compare.md, DIR/compare.json) and\n"
		 "prints the table. Commands run non-interactively (stdin is /dev/null); a setup\n"
		 "or restore that has not ended after --setup-timeout is stopped.\n"
		 "\n"
		 "Before the first setup the leg command is checked (a mempath run, probe or wrap\n"
		 "with at least 6 samples per metric, no -o or --label of its own) and the\n"
		 "restore command is recorded in DIR/restore.pending until it has run: if ab is\n"
		 "killed, the next ab in DIR refuses to start until 'mempath ab --restore-pending\n"
		 "DIR' has put the machine back. DIR must not hold an earlier ab's results nor be\n"
		 "in use by another ab; --b needs --a or --restore (--restore true: B needs no\n"
		 "undoing). Each leg's file records its variant, setup, environment and args\n"
		 "(\"leg\").\n"
		 "\n"
		 "Legs may differ by the wrapped command's own words: --a-args and --b-args go\n"
		 "where the command has {} (else at its end), through wrap --args; the command\n"
		 "as typed stays the metrics' identity, so the legs compare, and the knob\n"
		 "wrap.args is expected to differ.\n"
		 "\n"
		 "With --rounds N the legs are N rounds, each an A leg and a B leg (in the order\n"
		 "ABBA..., or at random with the seed recorded), the leg command's samples split\n"
		 "over them (--reps 30 with 5 rounds: 6 a leg; DIR/leg-N-rR-LABEL.json). The\n"
		 "comparison judges B against A within each round, so a load that comes and goes\n"
		 "between rounds, or drift, cancels; a round whose two legs ran under different\n"
		 "load is left out. A plan of under 3 samples a leg is refused before the first\n"
		 "setup. ab says at the start when the machine is busy, and with what.\n"
		 "\n"
		 "With --rounds auto (the default) ab runs 4 rounds (the samples split over\n"
		 "them), then looks after every second round and stops when every metric that\n"
		 "matters (--primary, else every judged one) is WIN, LOSS or SAME (the change\n"
		 "within +-margin by two one-sided tests), or at --max-rounds, or before a\n"
		 "round that would pass --budget. Each look tests at the share of alpha that an\n"
		 "O'Brien-Fleming-type spending function releases for it, so stopping when the\n"
		 "answer comes keeps the chance of a false verdict within alpha; the comparison\n"
		 "notes where and why the rounds ended. --budget bounds the first rounds too:\n"
		 "before the first setup a pilot runs the leg command with 1 and 2 samples a\n"
		 "metric, or wrap's runs (DIR/pilot-N.json), and a plan whose first 4 rounds\n"
		 "would not fit at that pace (with --reps auto: at its least, 10 samples) is\n"
		 "refused there.\n"
		 "\n"
		 "--legs P runs the legs in the order given instead (ABA: A, B, A again). Each\n"
		 "leg is one process: what differs between processes (the CPUs the threads land\n"
		 "on, where pages are placed) is not in its samples, so a metric gets a verdict\n"
		 "only when the legs' medians alone can be significant (4 or more legs a side);\n"
		 "with fewer it reads \"not enough legs to judge\" (docs/design.md §5.4).\n",
	.examples =
		"mempath ab --a 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled' \\\n"
		"    --b 'echo always > /sys/kernel/mm/transparent_hugepage/enabled' \\\n"
		"    --expect-diff thp_enabled --control 'cpu.first_touch,pages=thp' \\\n"
		"    -o thp-ab -- probe cpu.first_touch size=256M touch=write\n"
		"mempath ab --a-args '--mmap 1' --b-args '--mmap 0' --expect-diff llama.use_mmap "
		"\\\n"
		"    -o mmap-ab -- wrap -n 6 -- llama-bench -m m.gguf {} -o json\n"
		"mempath ab --rounds 6 --a ... --b ... -o thp-rounds \\\n"
		"    -- probe cpu.first_touch pages=default size=64M --reps 24\n",
	.tail = "Exit status: 0 compared, 1 a setup, leg or restore failed (or --fail-on-loss\n"
		"and a LOSS), 2 bad usage, 3 no trusted verdict (a control moved or ran under\n"
		"different load, or knobs differ), 130 interrupted (after the restore ran).\n",
	.args = ab_args,
	.opts_size = sizeof(struct ab_opts),
	.init = ab_init,
	.run = ab_main,
	.flags = CMD_STOP_AT_ARG,
};
