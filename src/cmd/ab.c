/* ab.c - `mempath ab`: A/B/A legs of a mempath command around the user's own
 * setup commands (flow/ab.c runs them and restores the machine), then the
 * comparison of the legs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "cmd/args.h"
#include "flow/ab.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/compare.h"

struct variant {
	const char *setup; /* NULL: none */
	const char *label;
	char **env; /* "K=V" */
	size_t n_env;
};

/* The command after --: a mempath command that measures and accepts -o and
 * --label; ours are appended, so the user's own would be ambiguous. */
static int check_leg_args(int argc, char **argv)
{
	static const char *const refused[] = {"ab", "compare", "report", "help", "list", "sysinfo"};
	if (argc < 1)
		return error("ab needs a mempath command after -- (e.g. -- run --suite quick)");
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++)
		if (strcmp(argv[0], refused[i]) == 0)
			return error("'%s' does not measure; ab runs e.g. '-- run --suite quick'",
				     argv[0]);
	/* Past a "--" the words are a wrapped workload's own (llama-bench -o json). */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-o") == 0 || str_starts_with(argv[i], "--output") ||
		    str_starts_with(argv[i], "--label"))
			return error("'%s' after --: ab sets the results path and label itself",
				     argv[i]);
	return 0;
}

struct ab_opts {
	const char *a, *b, *restore, *legs, *label_a, *label_b, *dir, *primary;
	struct arg_strs a_env, b_env, controls, expect;
	double threshold;
	int allow_diff, fail_on_loss;
};

static void ab_init(void *p)
{
	struct ab_opts *o = p;
	o->legs = "ABA";
	o->label_a = "A";
	o->label_b = "B";
}

static const struct arg ab_args[] = {
	ARG_STR("a", 0, struct ab_opts, a, "CMD", "setup command for the A (baseline) legs"),
	ARG_STR("b", 0, struct ab_opts, b, "CMD", "setup command for the B (change) legs"),
	ARG_STR("restore", 0, struct ab_opts, restore, "CMD",
		"run at the end and on failure or interruption (default: --a)"),
	ARG_STR("legs", 0, struct ab_opts, legs, "P", "order of the legs (default ABA)"),
	ARG_STRS("a-env", 0, struct ab_opts, a_env, "K=V",
		 "environment for the A legs (repeatable)"),
	ARG_STRS("b-env", 0, struct ab_opts, b_env, "K=V",
		 "environment for the B legs (repeatable)"),
	ARG_STR("label-a", 0, struct ab_opts, label_a, "L", "run label of the A legs (default A)"),
	ARG_STR("label-b", 0, struct ab_opts, label_b, "L", "run label of the B legs (default B)"),
	ARG_STR("output", 'o', struct ab_opts, dir, "DIR",
		"directory for the legs' results and logs (created)"),
	ARG_PCT("threshold", 0, struct ab_opts, threshold, "PCT",
		"as compare: smallest change that matters, in percent"),
	ARG_STRS("control", 0, struct ab_opts, controls, "PAT",
		 "as compare: a metric that must not move"),
	ARG_STR("primary", 0, struct ab_opts, primary, "PAT",
		"as compare: the metric that matters"),
	ARG_ITEMS("expect-diff", 0, struct ab_opts, expect, "K",
		  "as compare: knob K is the change; others must match"),
	ARG_FLAG("allow-diff", 0, struct ab_opts, allow_diff,
		 "as compare: verdicts even when other knobs differ"),
	ARG_FLAG("fail-on-loss", 0, struct ab_opts, fail_on_loss,
		 "exit 1 when a metric that is not a control reads LOSS"),
	ARG_END};

/* The options compare gets, checked before any leg runs. */
static int compare_options(const struct ab_opts *o, struct compare_opts *co)
{
	compare_opts_default(co);
	co->threshold = o->threshold;
	co->allow_diff = o->allow_diff;
	co->primary = o->primary;
	co->controls = o->controls.v;
	co->n_controls = o->controls.n;
	co->expect_diff = o->expect.v;
	co->n_expect_diff = o->expect.n;
	co->legs = o->legs;
	for (size_t i = 0; i < o->controls.n; i++)
		if (compare_pattern_check(o->controls.v[i], "--control") != 0)
			return -1;
	if (o->primary && compare_pattern_check(o->primary, "--primary") != 0)
		return -1;
	if (strspn(o->legs, "AB") != strlen(o->legs) || !strchr(o->legs, 'A') ||
	    !strchr(o->legs, 'B') || strlen(o->legs) > COMPARE_MAX_LEGS)
		return error("bad --legs '%s' (A and B, both, at most %d legs: ABA, ABAB, ...)",
			     o->legs, COMPARE_MAX_LEGS);
	return 0;
}

/* The legs' files compared; compare.md and compare.json in the directory,
 * the table on stdout. 0, 1 (--fail-on-loss and a LOSS), or 2 / -1 on error. */
static int compare_legs(const struct ab_opts *o, const struct compare_opts *co,
			char *const *leg_paths)
{
	size_t n = strlen(o->legs);
	const struct run **runs = xcalloc(n, sizeof(*runs));
	struct comparison *cmp = NULL;
	int rc = 1;
	char *md = xasprintf("%s/compare.md", o->dir), *js = xasprintf("%s/compare.json", o->dir);
	for (size_t i = 0; i < n; i++)
		if (!(runs[i] = run_read_file(leg_paths[i])))
			goto out;
	cmp = compare_runs(runs, (const char *const *)leg_paths, n, co);
	if (!cmp || (report_compare_write_file(cmp, REPORT_MD, md) |
		     report_compare_write_file(cmp, REPORT_JSON, js) |
		     report_compare_write_file(cmp, REPORT_TERM, NULL)) != 0)
		goto out;
	fprintf(stderr, "results: %s/ (compare.md, compare.json, leg-N-*.json, logs)\n", o->dir);
	rc = 0;
	if (o->fail_on_loss && comparison_has_loss(cmp)) {
		error("%zu metric(s) read LOSS (--fail-on-loss)", cmp->summary.count[VERDICT_LOSS]);
		rc = 1;
	}
out:
	comparison_free(cmp);
	for (size_t i = 0; i < n; i++)
		run_free((struct run *)runs[i]);
	free(runs);
	free(md);
	free(js);
	return rc;
}

static int ab_main(void *p, const struct cmd_line *l)
{
	struct ab_opts *o = p;
	struct ab_plan plan = {.a = {.label = o->label_a, .setup = o->a},
			       .b = {.label = o->label_b, .setup = o->b},
			       .legs = o->legs,
			       .dir = o->dir,
			       .restore = o->restore,
			       .argv = l->argv,
			       .argc = l->argc};
	struct compare_opts co;
	char **leg_paths = NULL;
	int rc = 2;
	for (size_t i = 0; i < o->a_env.n; i++)
		if (ab_variant_env(&plan.a, o->a_env.v[i]) != 0)
			goto out;
	for (size_t i = 0; i < o->b_env.n; i++)
		if (ab_variant_env(&plan.b, o->b_env.v[i]) != 0)
			goto out;
	if (compare_options(o, &co) != 0)
		goto out;
	if (!o->dir) {
		error("ab needs -o DIR for the legs' results and logs");
		goto out;
	}
	if (check_leg_args(l->argc, l->argv) != 0)
		goto out;
	if (mkdir(o->dir, 0755) != 0 && errno != EEXIST) {
		error("cannot create '%s': %s", o->dir, strerror(errno));
		goto out;
	}
	rc = 1;
	switch (ab_flow(&plan, &leg_paths)) {
	case AB_INTERRUPTED:
		fprintf(stderr,
			"mempath: interrupted; restore ran (see '%s/restore.log'), "
			"partial results kept in '%s'\n",
			o->dir, o->dir);
		rc = 130;
		break;
	case AB_LEG_FAILED:
	case AB_RESTORE_FAILED: /* rc 1: say so before any verdict */
		break;
	case AB_DONE:
		rc = compare_legs(o, &co, leg_paths);
		break;
	}
out:
	for (size_t i = 0; leg_paths && leg_paths[i]; i++)
		free(leg_paths[i]);
	free(leg_paths);
	ab_variant_free(&plan.a);
	ab_variant_free(&plan.b);
	return rc;
}

const struct command command_ab = {
	.name = "ab",
	.summary = "run A/B/A legs with your setup commands, restore, compare",
	.synopsis = "-o DIR [--] COMMAND [ARGS...]",
	.about = "Runs the legs in order (default A, B, A again). Before each leg it runs that\n"
		 "variant's setup command with 'sh -c' (a sysfs write, a module swap; output in\n"
		 "DIR/leg-N-setup.log), then this mempath with COMMAND ARGS plus\n"
		 "'-o DIR/leg-N-LABEL.json --label LABEL' and the variant's environment. The\n"
		 "fingerprint and knobs are read at the start and end of every leg. At the end,\n"
		 "when a setup or leg fails, and on Ctrl-C or SIGTERM it runs the restore command\n"
		 "(default: the A command; log in DIR/restore.log), so the machine is left as it\n"
		 "was found. Then it compares the legs (DIR/compare.md, DIR/compare.json) and\n"
		 "prints the table. Commands run non-interactively (stdin is /dev/null).\n",
	.tail = "example: mempath ab --a 'echo madvise > "
		"/sys/kernel/mm/transparent_hugepage/enabled'\n"
		"           --b 'echo always > /sys/kernel/mm/transparent_hugepage/enabled'\n"
		"           --expect-diff thp_enabled --control 'cpu.first_touch,pages=thp'\n"
		"           -o thp-ab -- probe cpu.first_touch size=256M touch=write\n"
		"\n"
		"Exit status: 0 compared, 1 a setup, leg or restore failed (or --fail-on-loss\n"
		"and a LOSS), 2 bad usage, 130 interrupted (after the restore ran).\n",
	.args = ab_args,
	.opts_size = sizeof(struct ab_opts),
	.init = ab_init,
	.run = ab_main,
	.flags = CMD_STOP_AT_ARG,
};
