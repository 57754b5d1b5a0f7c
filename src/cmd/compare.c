/* compare.c - `mempath compare A.json B.json [A2.json ...]`: per-metric
 * verdicts over the legs (verdict/compare.h has the rules). */
#include <stdlib.h>
#include <string.h>

#include "base/outguard.h"
#include "base/util.h"
#include "cmd/args.h"
#include "cmd/groups.h"
#include "cmd/study.h"
#include "machine/noise.h"
#include "report/beside.h"
#include "report/report.h"
#include "report/study.h"
#include "report/summary.h"
#include "results/results_json.h"
#include "verdict/compare.h"
#include "verdict/reference.h"
#include "verdict/study.h"

struct compare_cmd_opts {
	const char *legs, *primary, *out, *baseline;
	int study, all_pairs;
	double alpha, margin;
	enum report_format format;
	struct verdict_args v;
	const char *summary_out;
	int fail_on_loss, rounds;
};

static const struct arg compare_args[] = {
	ARG_STR("legs", 0, struct compare_cmd_opts, legs, "P",
		"variant of each file in order (default ABAB... by position)"),
	ARG_FLAG("rounds", 0, struct compare_cmd_opts, rounds,
		 "the files are rounds: each pair in order is an A and a B leg\n"
		 "measured together (ab --rounds records this itself)"),
	ARG_FLAG("study", 0, struct compare_cmd_opts, study,
		 "the files are legs of N variants (ab records, else run labels):\n"
		 "each variant against the baseline, the family held by Holm,\n"
		 "with the study's tables (docs/design.md §5.22)"),
	ARG_STR("baseline", 0, struct compare_cmd_opts, baseline, "L",
		"--study: the baseline is the variant labelled L (default: the\n"
		"first, or ab's)"),
	ARG_FLAG("all-pairs", 0, struct compare_cmd_opts, all_pairs,
		 "--study: every pair of variants too, all in the family"),
	ARG_PCT("alpha", 0, struct compare_cmd_opts, alpha, "PCT",
		"the false-verdict rate tested at, in percent (default 5; the CI\n"
		"at 100 - PCT): ab's auto rounds note the one their last look spent"),
	ARG_PCT("margin", 0, struct compare_cmd_opts, margin, "PCT",
		"rounds: a change within +-PCT is SAME by two one-sided tests\n"
		"(ab --rounds auto's --margin; default: never SAME)"),
	ARGS_VERDICT(struct compare_cmd_opts, v),
	ARG_FORMAT("format", 0, struct compare_cmd_opts, format, REPORT_DOC_COMPARE,
		   "the report's format (default term; md: a column per leg, a verdict\n"
		   "per metric; json: a comparison file for 'report' later; html:\n"
		   "tables and a plot)"),
	ARG_STR("output", 'o', struct compare_cmd_opts, out, "FILE",
		"write the report to FILE instead of stdout"),
	ARG_EXPORT_SUMMARY(struct compare_cmd_opts, summary_out),
	ARG_FAIL_ON_LOSS(struct compare_cmd_opts, fail_on_loss),
	ARG_END};

/* compare TOOLS.json MINE.json (either order): an imported run of the
 * reference tools (`mempath import`) against mempath's, joined through the
 * references' tool figures (data/: which tool figure is the reference of
 * which metric), so each row puts the tool's figure beside mempath's with
 * their ratio; only those metrics are compared. */
static int tools_beside(const struct run **runs, const char *const *names, enum report_format fmt,
			const char *out)
{
	const char *pair[2];

	if (fmt != REPORT_TERM && fmt != REPORT_MD && fmt != REPORT_JSON)
		return error("the tools' figures beside mempath's are written as term, md or "
			     "json, not %s",
			     report_writer_of(fmt)->name),
		       2;
	int t = run_is_imported(runs[1]);
	struct ref_set refs;
	char *dir = ref_dir(NULL);
	struct run *as;

	if (ref_load(dir, &refs) != 0) {
		free(dir);
		return 2;
	}
	free(dir);
	as = ref_tools_as(&refs, runs[t], (struct run *)runs[!t]);
	ref_set_free(&refs);
	if (!as)
		return error("%s holds none of the tool figures the references name for %s's "
			     "metrics (data/: tool_figure)",
			     names[t], names[!t]),
		       2;
	run_free((struct run *)runs[t]);
	runs[t] = as;
	pair[0] = names[t];
	pair[1] = names[!t];
	return report_beside_write_file(runs[t], runs[!t], pair, fmt, out) != 0 ? 1 : 0;
}

static int compare_main(void *p, const struct cmd_line *l)
{
	struct compare_cmd_opts *co = p;
	struct compare_opts o;
	enum report_format fmt = co->format;
	const struct run **runs = NULL;
	struct comparison *c = NULL;
	size_t n = 0;
	int rc = 2;
	compare_opts_default(&o);
	o.legs = co->legs;
	o.rounds = co->rounds;
	if (verdict_args_apply(&co->v, &o) != 0)
		return 2;
	if (co->alpha < 0 || co->alpha > 0.5)
		return error("--alpha %g%%: from 0 to 50", 100 * co->alpha), 2;
	o.margin = co->margin;
	if (co->alpha > 0) {
		o.alpha = co->alpha;
		o.ci_level = 1 - co->alpha;
	}
	if (co->summary_out && report_summary_check_path(co->summary_out) != 0)
		return 2;
	if (l->argc < 2)
		return error("compare needs at least two results files (see 'mempath compare "
			     "--help')"),
		       2;
	if (check_output_not_input(co->out, l->argv, (size_t)l->argc) != 0 ||
	    check_output_not_input(co->summary_out, l->argv, (size_t)l->argc) != 0)
		return 2;
	if (co->out && co->summary_out && strcmp(co->out, co->summary_out) == 0)
		return error("-o and --export-summary name the same file '%s'", co->out), 2;
	if (!co->study && (co->baseline || co->all_pairs))
		return error("--baseline and --all-pairs are for --study"), 2;
	if (co->study && co->legs)
		return error("--study groups the files by variant itself: no --legs"), 2;
	if (co->study && fmt == REPORT_CSV)
		return error("a study is written as term, md, json or html"), 2;
	runs = xcalloc((size_t)l->argc, sizeof(*runs));
	for (int i = 0; i < l->argc; i++) {
		runs[n] = run_read_file(l->argv[i]);
		if (!runs[n])
			goto out;
		n++;
	}
	if (n == 2 && run_is_imported(runs[0]) != run_is_imported(runs[1])) {
		rc = tools_beside(runs, (const char *const *)l->argv, fmt, co->out);
		goto out;
	}
	if (co->study) {
		struct study *s = study_of_runs(runs, (const char *const *)l->argv, n, co->baseline,
						&o, co->all_pairs);
		if (s)
			rc = report_study_write_file(s, fmt, co->out) != 0
				     ? 1
				     : study_exit(s, co->fail_on_loss);
		study_free(s);
		goto out;
	}
	c = compare_runs(runs, (const char *const *)l->argv, n, &o);
	if (!c)
		goto out;
	if (co->summary_out && report_summary_write(c, co->summary_out) != 0) {
		rc = 1;
		goto out;
	}
	if (report_compare_write_file(c, fmt, co->out) != 0) {
		rc = 1;
		goto out;
	}
	rc = comparison_exit(c, co->fail_on_loss);
out:
	comparison_free(c);
	for (size_t i = 0; i < n; i++)
		run_free((struct run *)runs[i]);
	free(runs);
	return rc;
}

const struct command command_compare = {
	.pos = POS_FILES,
	.name = "compare",
	.summary = "per-metric verdicts of A/B/A' results files",
	.synopsis = "A.json B.json [A2.json ...]",
	.about =
		"Compares runs measured in the order given: A, B, then A again (A/B/A') checks\n"
		"that the baseline did not drift. Metrics are joined on probe, metric, labels\n"
		"and probe options; each gets medians per leg, the change of B against A with a\n"
		"bootstrap 95% CI, a two-sided Mann-Whitney U p-value and a verdict: WIN, LOSS,\n"
		"~ (no difference beyond noise: NOWIN in the summary line and in JSON),\n"
		"UNSTABLE (A and A' differ enough to explain the change), VOID (an exact fact\n"
		"such as thp_backed or a probe's status differs), too few samples (< 6 per\n"
		"leg, or too few legs), fact (better=none) or missing. Each file is one\n"
		"process, and what differs between processes is not in its samples: without\n"
		"rounds a WIN/LOSS needs legs enough for B's leg medians against A's to be\n"
		"significant on their own (4 or more files a side); fewer read \"not enough\n"
		"legs to judge\". It needs B beyond every A leg in one direction too,\n"
		"significantly after Holm-Bonferroni, with the CI beyond max(1%, A-vs-A' gap,\n"
		"--threshold). A metric whose legs ran while the machine's load differed (the\n"
		"noise meter's record in the files) is UNSTABLE; with 4 or more files a side,\n"
		"only when the variants' mean loads differ (a load on legs of both is noise\n"
		"the legs' test holds).\n"
		"\n"
		"Rounds (files from ab --rounds, or --rounds): each round's A and B legs are\n"
		"compared with each other, so load and drift between rounds cancel: van Elteren's\n"
		"stratified rank test and the t test and interval of the per-round ratios, over\n"
		"the rounds whose two legs ran under the same load. The CI must clear max(1%,\n"
		"--threshold); A and B are the geometric means of the rounds' medians, whose\n"
		"ratio is the change. A CI whose bounds are more than 10 times apart is too\n"
		"wide to say (~, with the reason).\n"
		"\n"
		"--study: the files are the legs of N variants, grouped by their ab records\n"
		"(an ab of several variants) or else by run label, in rounds when the records\n"
		"name them (or --rounds: each variant's k-th file is round k). Each variant is\n"
		"compared with the baseline by the rules above, the family of comparisons\n"
		"held by Holm's step-down per metric; the tables: each variant's median and\n"
		"stddev with its ratio to the baseline, CI and verdict, a summary line per\n"
		"variant, per-iteration medians of a wrapped workload, the counters' deltas\n"
		"ranked, and factors' effects when the labels are 'f=level,g=level'.\n"
		"\n"
		"TOOLS.json MINE.json (either order), TOOLS an imported run of the reference\n"
		"tools (mempath import): each tool figure that the references of MINE's\n"
		"machine kind name as the reference of one of MINE's metrics (data/:\n"
		"tool_figure) beside that metric, with mempath / tool; no verdict (a tool's\n"
		"figure is one number of its own method; check --beside judges against it);\n"
		"term, md or json.\n",
	.examples = "mempath compare stock.json patched.json stock-again.json --control "
		    "'cpu.first_touch,pages=thp'\n"
		    "mempath compare stock.json patched.json --format html -o compare.html\n"
		    "mempath compare --study --baseline never leg-*.json --format md -o study.md\n"
		    "mempath compare tools.json h200.json\n",
	.tail = "Exit status: 0 when compared (whatever the verdicts), 1 with --fail-on-loss and\n"
		"a LOSS, 2 for bad input, 3 no trusted verdict (a control moved or ran under\n"
		"different load, or knobs differ; the summary line says which).\n",
	.args = compare_args,
	.opts_size = sizeof(struct compare_cmd_opts),
	.run = compare_main,
};
