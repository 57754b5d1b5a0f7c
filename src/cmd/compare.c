/* compare.c - `mempath compare A.json B.json [A2.json ...]`: per-metric
 * verdicts over the legs (core/compare.h has the rules). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "results/results_json.h"
#include "verdict/compare.h"

const char usage_compare[] =
	"usage: mempath compare A.json B.json [A2.json ...] [--legs ABA] [--threshold PCT]\n"
	"                       [--control PATTERN]... [--primary PATTERN]\n"
	"                       [--expect-diff KNOB]... [--allow-diff]\n"
	"                       [--format term|md|json|html] [-o FILE] [--fail-on-loss]\n"
	"\n"
	"Compares runs measured in the order given: A, B, then A again (A/B/A') checks\n"
	"that the baseline did not drift. Metrics are joined on probe, metric, labels\n"
	"and probe options; each gets medians per leg, the change of B against A with a\n"
	"bootstrap 95% CI, a two-sided Mann-Whitney U p-value and a verdict: WIN, LOSS,\n"
	"~ (no difference beyond noise), UNSTABLE (A and A' differ), VOID (an exact fact\n"
	"such as thp_backed or a probe's status differs), too few samples (< 6 per leg),\n"
	"fact (better=none) or missing. WIN/LOSS needs B to beat every A leg in one\n"
	"direction, significantly after Holm-Bonferroni, with the CI beyond\n"
	"max(1%, A-vs-A' gap, --threshold).\n"
	"\n"
	"  --legs P          variant of each file in order (default ABAB... by position)\n"
	"  --threshold PCT   smallest change that matters, in percent (default 0: 1% floor)\n"
	"  --control PAT     a metric that must not move; PAT is GLOB[,KEY=GLOB...], GLOB\n"
	"                    matching 'probe' or 'probe:metric', KEY=GLOB a label or option:\n"
	"                    --control 'cpu.first_touch,pages=thp'\n"
	"  --primary PAT     the metric that matters: tested at alpha without correction\n"
	"  --expect-diff K   knob K (e.g. thp_enabled) is the change; others must match\n"
	"  --allow-diff      give verdicts even when other knobs differ\n"
	"  --format F        term (default), md (seed 000 layout), json or html\n"
	"  -o FILE           write the report to FILE instead of stdout\n"
	"  --fail-on-loss    exit 1 when a metric that is not a control reads LOSS\n"
	"\n"
	"Exit status: 0 when compared (whatever the verdicts), 1 with --fail-on-loss and\n"
	"a LOSS, 2 for bad input.\n";

struct compare_out {
	const struct comparison *c;
	enum report_format fmt;
};

static int render_comparison(const void *arg, FILE *f)
{
	const struct compare_out *a = arg;
	return report_compare_write(a->c, a->fmt, f);
}

int compare_write(const struct comparison *c, const char *fmt, const char *out)
{
	struct compare_out a = {c, REPORT_TERM};
	if (report_format_parse(fmt, &a.fmt) != 0)
		return error("unknown format '%s'", fmt);
	return write_rendered(out, render_comparison, &a);
}

/* Appends the comma-separated items of s to a growing list. */
static void add_items(const char ***v, size_t *n, char *s)
{
	for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = t;
	}
}

int parse_threshold(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%") != 0) || !(v >= 0) || v >= 1000)
		return error("bad --threshold '%s' (a percentage, e.g. 2 or 2%%)", s);
	*out = v / 100.0;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {{"legs", required_argument, NULL, 'L'},
						 {"threshold", required_argument, NULL, 'T'},
						 {"control", required_argument, NULL, 'c'},
						 {"primary", required_argument, NULL, 'P'},
						 {"expect-diff", required_argument, NULL, 'e'},
						 {"allow-diff", no_argument, NULL, 'a'},
						 {"format", required_argument, NULL, 'f'},
						 {"output", required_argument, NULL, 'o'},
						 {"fail-on-loss", no_argument, NULL, 'F'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	struct compare_opts o;
	const char **controls = NULL, **expect = NULL, *fmt = "term", *out = NULL;
	size_t n_controls = 0, n_expect = 0, n = 0;
	const struct run **runs = NULL;
	struct comparison *c = NULL;
	int ch, rc = 2, fail_on_loss = 0;
	compare_opts_default(&o);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "L:T:c:P:e:af:o:Fh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'L':
			o.legs = optarg;
			break;
		case 'T':
			if (parse_threshold(optarg, &o.threshold) != 0)
				goto out;
			break;
		case 'c':
			if (compare_pattern_check(optarg, "--control") != 0)
				goto out;
			controls = xrealloc(controls, (n_controls + 1) * sizeof(*controls));
			controls[n_controls++] = optarg;
			break;
		case 'P':
			if (compare_pattern_check(optarg, "--primary") != 0)
				goto out;
			o.primary = optarg;
			break;
		case 'e':
			add_items(&expect, &n_expect, optarg);
			break;
		case 'a':
			o.allow_diff = 1;
			break;
		case 'f':
			if (strcmp(optarg, "term") && strcmp(optarg, "md") &&
			    strcmp(optarg, "json") && strcmp(optarg, "html")) {
				error("unknown format '%s' (term, md, json, html)", optarg);
				goto out;
			}
			fmt = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'F':
			fail_on_loss = 1;
			break;
		case 'h':
			fputs(usage_compare, stdout);
			rc = 0;
			goto out;
		default:
			fputs(usage_compare, stderr);
			goto out;
		}
	}
	o.controls = controls;
	o.n_controls = n_controls;
	o.expect_diff = expect;
	o.n_expect_diff = n_expect;
	if (argc - optind < 2) {
		error("compare needs at least two results files (see 'mempath compare --help')");
		goto out;
	}
	runs = xcalloc((size_t)(argc - optind), sizeof(*runs));
	for (int i = optind; i < argc; i++) {
		runs[n] = run_read_file(argv[i]);
		if (!runs[n])
			goto out;
		n++;
	}
	c = compare_runs(runs, (const char *const *)argv + optind, n, &o);
	if (!c)
		goto out;
	if (compare_write(c, fmt, out) != 0) {
		rc = 1;
		goto out;
	}
	rc = 0;
	if (fail_on_loss && comparison_has_loss(c)) {
		error("%zu metric(s) read LOSS (--fail-on-loss)", c->summary.count[VERDICT_LOSS]);
		rc = 1;
	}
out:
	comparison_free(c);
	for (size_t i = 0; i < n; i++)
		run_free((struct run *)runs[i]);
	free(runs);
	free(controls);
	free(expect);
	return rc;
}
