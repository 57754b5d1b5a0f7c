/* history_baseline.c - `history bless` (one run, several, or the newest
 * stable segment of a metric) and `history check` (a file against its
 * kind's baseline, with the verdicts of compare; or, with --changepoints,
 * the history's newest segments) (history_cmd.h; docs/design.md §3.4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cmd/history_cmd.h"
#include "report/report.h"
#include "verdict/compare.h"

/* A run as typed for bless: a results file (kept first) or a run number.
 * Its id and the run into *r, or 0 after an error line (*bad: bad input). */
static int64_t bless_one(struct history *h, const char *arg, struct run **r, int *bad)
{
	int64_t id = history_cmd_run_id(arg);
	int dup;

	*bad = 1;
	if (!id || access(arg, F_OK) == 0) {
		char *text;

		if (!(*r = history_cmd_read_run(arg, &text)))
			return 0;
		*bad = 0;
		id = history_add(h, *r, arg, text, &dup);
		free(text);
		return id > 0 ? id : 0;
	}
	*r = history_get(h, id);
	return *r ? id : 0;
}

/* The runs given (or --stable's segment) blessed as one baseline. */
int history_cmd_bless(struct history *h, const struct history_opts *o, const struct cmd_line *l)
{
	int64_t *ids = xcalloc((size_t)l->argc + 1, sizeof(*ids));
	size_t n = 0;
	char *kind = NULL, *probe = NULL, *metric = NULL;
	struct run *first = NULL;
	int rc = 2, bad;

	if (o->stable && l->argc != 1) {
		error("--stable blesses the runs of a segment: no FILE or RUN beside it");
		goto out;
	}
	if (o->stable) {
		const char *labels;

		free(ids);
		ids = NULL;
		if (history_cmd_parse_metric(o->stable, &probe, &metric, &labels) != 0 ||
		    (rc = history_cmd_stable_runs(h, probe, metric, labels, o->kind, 10, &ids, &n,
						  &kind)) != 0)
			goto out;
	} else if (l->argc < 2) {
		error("history bless needs results files or run numbers (or --stable METRIC)");
		goto out;
	}
	for (int i = 1; i < l->argc; i++) {
		struct run *r = NULL;
		char *k;

		if (!(ids[n] = bless_one(h, l->argv[i], &r, &bad))) {
			rc = bad ? 2 : 1;
			goto out;
		}
		k = history_kind(r->host);
		if (!first) {
			first = r;
			kind = o->kind ? xstrdup(o->kind) : xstrdup(k);
		} else if (!o->kind && strcmp(k, kind) != 0) {
			error("run %lld is of machine kind '%s', run %lld of '%s': a baseline is "
			      "of "
			      "one kind (--kind K to bless them as one anyway)",
			      (long long)ids[n], k, (long long)ids[0], kind);
			free(k);
			run_free(r);
			goto out;
		}
		free(k);
		if (r != first)
			run_free(r);
		n++;
	}
	rc = 1;
	if (history_bless_set(h, ids, n, kind) != 0)
		goto out;
	if (n == 1 && first)
		report_history_blessed(stdout, ids, 1, first->label, first->start_time, kind);
	else
		report_history_blessed(stdout, ids, n, NULL, NULL, kind);
	rc = 0;
out:
	run_free(first);
	free(ids);
	free(kind);
	free(probe);
	free(metric);
	return rc;
}

/* The verdicts of the run against the baseline, as 'compare' gives them:
 * exit 1 on a LOSS (controls aside) or when knobs differ and no verdict
 * could be given. */
int history_cmd_check(struct history *h, const struct history_opts *o, const struct cmd_line *l)
{
	struct run *r, *base[COMPARE_MAX_LEGS - 1] = {NULL};
	size_t had;
	const struct run *runs[COMPARE_MAX_LEGS];
	const char *files[COMPARE_MAX_LEGS];
	char *names[COMPARE_MAX_LEGS] = {NULL}, legs[COMPARE_MAX_LEGS + 1];
	struct compare_opts co;
	struct comparison *c = NULL;
	char *kind;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = 2;

	if (o->changepoints && l->argc == 1)
		return history_cmd_check_changes(h, o->kind, o->format == REPORT_CSV);
	if (o->changepoints)
		return error("history check --changepoints judges the history itself: no FILE"), 2;
	if (l->argc != 2)
		return error("history check needs one results file (see 'mempath history --help')"),
		       2;
	compare_opts_default(&co);
	if (verdict_args_apply(&o->v, &co) != 0)
		return 2;
	if (!(r = history_cmd_read_run(l->argv[1], NULL)))
		return 2;
	kind = o->kind ? xstrdup(o->kind) : history_kind(r->host);
	if (history_baseline_runs(h, kind, &ids, &n) != 0) {
		rc = 1;
		goto out;
	}
	if (n == 0)
		error("no baseline for machine kind '%s' (bless one: mempath history bless FILE)",
		      kind);
	if (n >= COMPARE_MAX_LEGS)
		n = COMPARE_MAX_LEGS - 1; /* the oldest ones: bless takes at most that */
	had = n;
	for (size_t i = 0, m = 0; i < had; i++) {
		struct run *b = history_get(h, ids[i]);
		n = m; /* what out: frees */
		if (!b)
			goto out;
		/* the file checked may be one of the baseline's runs (a segment
		 * blessed with it): judged against itself it would read as an A/A */
		if (run_same(b, r)) {
			progress("history check: run %lld of the baseline is this file's run: left "
				 "out",
				 (long long)ids[i]);
			run_free(b);
			continue;
		}
		base[m] = b;
		/* the legs by what they are, whatever their labels (two runs both
		 * labelled "stock" would read "stock" and "stock again") */
		free(b->label);
		b->label = xasprintf("baseline, run %lld", (long long)ids[i]);
		names[m] = xasprintf("history run %lld (baseline)", (long long)ids[i]);
		runs[m] = b;
		files[m] = names[m];
		legs[m++] = 'A';
		n = m;
	}
	if (n == 0) {
		if (had) { /* else: no baseline, said above */
			error("the baseline of machine kind '%s' holds no run but this file's",
			      kind);
			rc = 2;
		}
		goto out;
	}
	legs[n] = 'B';
	legs[n + 1] = '\0';
	co.legs = legs;
	co.brief_missing = 1;
	if (!r->label)
		r->label = xstrdup("this run");
	runs[n] = r;
	files[n] = l->argv[1];
	c = compare_runs(runs, files, n + 1, &co);
	if (!c || report_compare_write_file(c, o->format, NULL) != 0) {
		rc = 1;
		goto out;
	}
	rc = 0;
	if (comparison_has_loss(c)) {
		if (n == 1)
			error("%zu metric(s) read LOSS against run %lld, the baseline of '%s'",
			      c->summary.count[VERDICT_LOSS], (long long)ids[0], kind);
		else
			error("%zu metric(s) read LOSS against runs %lld to %lld (%zu runs), the "
			      "baseline of '%s'",
			      c->summary.count[VERDICT_LOSS], (long long)ids[0],
			      (long long)ids[n - 1], n, kind);
		rc = 1;
	} else if (c->refused) {
		error("knobs differ from the baseline's: no verdict (--expect-diff K or "
		      "--allow-diff)");
		rc = 1;
	}
out:
	comparison_free(c);
	for (size_t i = 0; i < n; i++) {
		run_free(base[i]);
		free(names[i]);
	}
	run_free(r);
	free(ids);
	free(kind);
	return rc;
}
