/* plan.c - `mempath plan FILE`: a study whose variants need other boots
 * (another kernel, a kernel command-line word, a module's version): the
 * legs that can run here now, journaled, then what to boot next; after the
 * last leg the comparison (flow/plan.h; docs/design.md §5.21). */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/guard.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "cmd/legs.h"
#include "cmd/study.h"
#include "flow/ab_auto.h"
#include "flow/plan.h"
#include "flow/plan_cond.h"
#include "report/report.h"
#include "report/study.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/comparison.h"
#include "verdict/study.h"

struct plan_opts {
	const char *dir;
	unsigned setup_timeout_s;
	int status, boot, fail_on_loss;
};

static void plan_init(void *p)
{
	((struct plan_opts *)p)->setup_timeout_s = 300;
}

static const struct arg plan_args[] = {
	ARG_STR("output", 'o', struct plan_opts, dir, "DIR",
		"the legs' results, logs and journal (default: the plan file's\n"
		"directory)"),
	ARG_FLAG("status", 0, struct plan_opts, status,
		 "say which legs are done and what runs or boots next; run nothing"),
	ARG_FLAG("boot", 0, struct plan_opts, boot,
		 "once no more legs can run here, run the command that boots\n"
		 "the next one (grub-reboot ... && reboot, or the variant's boot)"),
	ARG_COUNT("setup-timeout", 0, struct plan_opts, setup_timeout_s, "S", 1, 86400,
		  "stop a setup or restore command after S seconds (default 300)"),
	ARG_FAIL_ON_LOSS(struct plan_opts, fail_on_loss),
	ARG_END};

/* Does a variant give the wrapped command words of its own (args)? */
static int any_args(const struct plan *p)
{
	for (size_t i = 0; i < p->n_v; i++)
		if (p->v[i].args)
			return 1;
	return 0;
}

/* The plan's command checked as ab checks its leg command, before any leg:
 * a mempath command that measures, with no -o or --label of its own, and
 * enough samples a leg for a round. */
static int check_command(const struct plan *p, const struct cmd_line *l)
{
	struct cmd_line lc = {.argc = p->argc, .argv = p->argv, .find = l->find};
	struct leg_command c;
	if (leg_command_check(&lc, "plan", any_args(p) ? "a variant's args" : NULL, &c) != 0)
		return -1;
	if (c.samples < COMPARE_MIN_ROUND_SAMPLES)
		return error("%s: the command gives %u sample(s) per metric a leg; a leg of a "
			     "round needs at least %d",
			     p->path, c.samples, COMPARE_MIN_ROUND_SAMPLES);
	return 0;
}

/* The comparison's options from the plan: rounds, the knobs expected to
 * differ, the primary metrics; *expect is the caller's to free. */
static void plan_compare_opts(const struct plan *p, struct compare_opts *co, const char ***expect)
{
	compare_opts_default(co);
	co->rounds = 1;
	/* legs that differ by their words differ in the knob wrap records for
	 * them on purpose (as ab's --a-args and --b-args, §11.5) */
	*expect = xcalloc(p->n_expect_diff + 2, sizeof(**expect));
	for (size_t i = 0; i < p->n_expect_diff; i++)
		(*expect)[i] = p->expect_diff[i];
	co->expect_diff = *expect;
	co->n_expect_diff = p->n_expect_diff;
	if (any_args(p))
		(*expect)[co->n_expect_diff++] = "wrap.args";
	co->primary = p->primary;
}

/* Two variants: today's comparison of rounds, the baseline as A. */
static int compare_two(const struct plan *p, const struct plan_opts *o, const char *dir,
		       char *const *paths)
{
	struct compare_opts co;
	const struct run **runs = NULL;
	struct comparison *cmp;
	char *legs = xcalloc(p->n_legs + 1, 1);
	const char **expect;
	char *md = xasprintf("%s/compare.md", dir), *js = xasprintf("%s/compare.json", dir);
	int rc = 2;
	plan_compare_opts(p, &co, &expect);
	for (size_t i = 0; i < p->n_legs; i++)
		legs[i] = p->legs[i] == p->baseline ? 'A' : 'B';
	co.legs = legs;
	cmp = ab_compare_files(&co, paths, p->n_legs, &runs);
	if (cmp && (report_compare_write_file(cmp, REPORT_MD, md) |
		    report_compare_write_file(cmp, REPORT_JSON, js) |
		    report_compare_write_file(cmp, REPORT_TERM, NULL)) == 0) {
		notice("results: %s/ (compare.md, compare.json, leg-N-*.json, plan.journal)", dir);
		rc = comparison_exit(cmp, o->fail_on_loss);
	}
	comparison_free(cmp);
	ab_runs_free(runs, p->n_legs);
	free(expect);
	free(legs);
	free(md);
	free(js);
	return rc;
}

/* N variants: the study of the legs grouped by their labels (the variants'
 * names), the plan's baseline first (docs/design.md §5.22). */
static int compare_study(const struct plan *p, const struct plan_opts *o, const char *dir,
			 char *const *paths)
{
	struct compare_opts co;
	const struct run **runs = xcalloc(p->n_legs + 1, sizeof(*runs));
	const char **expect;
	struct study *s = NULL;
	char *md = xasprintf("%s/study.md", dir), *js = xasprintf("%s/study.json", dir);
	int rc = 1;
	plan_compare_opts(p, &co, &expect);
	for (size_t i = 0; i < p->n_legs; i++)
		if (!(runs[i] = run_read_file(paths[i])))
			goto out;
	s = study_of_runs(runs, (const char *const *)paths, p->n_legs, p->v[p->baseline].name, &co,
			  0);
	if (s && (report_study_write_file(s, REPORT_MD, md) |
		  report_study_write_file(s, REPORT_JSON, js) |
		  report_study_write_file(s, REPORT_TERM, NULL)) == 0) {
		notice("results: %s/ (study.md, study.json, leg-N-*.json, plan.journal)", dir);
		rc = study_exit(s, o->fail_on_loss);
	}
out:
	study_free(s);
	ab_runs_free(runs, p->n_legs);
	free(expect);
	free(md);
	free(js);
	return rc;
}

/* The comparison after the last leg, as for an in-place run: the legs'
 * files (leg-N-rR-VARIANT.json, in plan order) grouped by variant. This is
 * the one place the comparison of N variants is called from. */
static int plan_compare(const struct plan *p, const struct plan_opts *o, const char *dir,
			char *const *paths)
{
	return p->n_v == 2 ? compare_two(p, o, dir, paths) : compare_study(p, o, dir, paths);
}

static void say_status(const struct plan *p, const struct plan_next *n, const char *file,
		       const char *dir)
{
	const struct plan_variant *v = n->leg < p->n_legs ? &p->v[p->legs[n->leg]] : NULL;
	printf("plan: %zu of %zu legs done\n", n->n_done, p->n_legs);
	if (!v)
		return;
	printf("next: leg %zu (%s, round %u)%s%s\n", n->leg + 1, v->name, plan_leg_round(p, n->leg),
	       n->why ? " cannot run here: " : " can run here", n->why ? n->why : "");
	if (!n->why)
		return;
	if (n->boot)
		printf("boot next: %s\n", n->boot);
	else
		printf("boot next: unknown: %s\n", n->boot_note);
	if (n->boot && n->boot_note)
		printf("note: %s\n", n->boot_note);
	printf("then: mempath plan %s%s%s%s\n", dir ? "-o " : "", dir ? dir : "", dir ? " " : "",
	       file);
}

static int plan_main(void *opts, const struct cmd_line *l)
{
	struct plan_opts *o = opts;
	struct plan p;
	struct plan_next next;
	char **paths = NULL, *dup, *dir;
	enum plan_outcome out;
	int rc = 2;
	if (l->argc != 1)
		return error("plan needs exactly one plan file (see 'mempath plan --help')"), 2;
	if (o->status && o->boot)
		return error("--status runs nothing: not with --boot"), 2;
	if (plan_parse(l->argv[0], &p) != 0)
		return 2;
	if (check_command(&p, l) != 0) {
		plan_free(&p);
		return 2;
	}
	dup = xstrdup(l->argv[0]);
	dir = xstrdup(o->dir ? o->dir : dirname(dup));
	free(dup);
	struct plan_run_opts ro = {
		.dir = dir, .setup_timeout_s = o->setup_timeout_s, .status_only = o->status};
	if (!o->status)
		guard_start(); /* nothing a setup starts outlives the plan (§2.4) */
	out = plan_run(&p, &ro, &paths, &next);
	if (!o->status)
		guard_say_left("plan", "a setup or restore command");
	switch (out) {
	case PLAN_ALL_DONE:
		say_status(&p, &next, l->argv[0], o->dir);
		rc = o->status ? 0 : plan_compare(&p, o, dir, paths);
		break;
	case PLAN_NEEDS_BOOT:
		say_status(&p, &next, l->argv[0], o->dir);
		rc = o->status ? 0 : 4;
		if (o->boot && next.why &&
		    (!next.boot || plan_boot_run(next.boot, o->setup_timeout_s) != 0))
			rc = 1;
		break;
	case PLAN_FAILED:
		rc = 1;
		break;
	case PLAN_INTERRUPTED:
		notice("mempath: interrupted; the leg's restore ran; 'mempath plan %s' runs it "
		       "again",
		       l->argv[0]);
		rc = 130;
		break;
	case PLAN_BAD:
		rc = 2;
		break;
	}
	plan_next_free(&next);
	for (size_t i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
	free(dir);
	plan_free(&p);
	return rc;
}

const struct command command_plan = {
	.name = "plan",
	.summary = "run a study's legs across reboots: those that can run now, then what to boot",
	.synopsis = "FILE",
	.about = "FILE names the variants, the order of their legs and, per variant, what must\n"
		 "hold before its leg runs: a kernel release (uname -r), a word of the kernel\n"
		 "command line, a module's version. plan runs, in the plan's order, each leg not\n"
		 "yet done whose kernel and command line hold now, as ab runs a leg: the\n"
		 "variant's setup (sh -c), the plan's mempath command with the variant's\n"
		 "environment ('-o DIR/leg-N-rR-VARIANT.json --label VARIANT'), the restore. A\n"
		 "module's version is checked after the setup (which may load it): a leg whose\n"
		 "module does not match is refused and the plan stops. At the first leg whose\n"
		 "kernel or command line do not hold, plan stops and prints the command that\n"
		 "boots one where they do (the variant's 'boot' line, else grub-reboot of the\n"
		 "GRUB menu entry for its kernel), exit 4; run plan again there. A leg is never\n"
		 "run under a kernel its variant does not name.\n"
		 "\n"
		 "DIR/plan.journal records each leg as it starts and ends (written atomically,\n"
		 "with the kernel it ran under): a plan killed in a leg, or a machine rebooted\n"
		 "in one, runs that leg again from its setup (the restore it left pending\n"
		 "first; what the leg left is kept as FILE.try-N), and a finished leg never\n"
		 "runs again. The journal keeps the plan file's text: a plan file changed after\n"
		 "its first leg is refused. After the last leg plan compares the legs as ab does\n"
		 "(DIR/compare.md, DIR/compare.json, the table on stdout): each variant's R-th\n"
		 "leg is round R, judged against the baseline's.\n"
		 "\n"
		 "The plan file, a statement a line ('#' comments): command WORDS (the mempath\n"
		 "command of every leg), legs NAME... (their order, every variant as often),\n"
		 "baseline NAME, restore CMD, expect-diff KNOB, primary PAT; variant NAME, then\n"
		 "its own lines: kernel GLOB, cmdline [!]WORD, module NAME [VERSION], setup CMD,\n"
		 "restore CMD, env K=V, args WORDS, boot CMD (docs/design.md §5.21).\n",
	.examples = "mempath plan tiering.plan\n"
		    "mempath plan --status tiering.plan\n"
		    "mempath plan --boot -o /var/tmp/tiering tiering.plan\n",
	.tail = "Exit status: 0 every leg done and compared (or --status), 1 a setup, leg,\n"
		"restore or condition failed (or --fail-on-loss and a LOSS), 2 bad usage, a bad\n"
		"plan file or journal, 3 no trusted verdict, 4 legs left that need another boot\n"
		"(the command on stdout), 130 interrupted (after the restore ran).\n",
	.args = plan_args,
	.opts_size = sizeof(struct plan_opts),
	.init = plan_init,
	.run = plan_main,
	.pos = POS_FILES,
};
