/* compare.c - gives each joined metric a verdict (docs/design.md section 5).
 * Pure apart from allocation: no I/O except error() for bad options. */
#include "verdict/compare.h"
#include "verdict/mechanism.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "verdict/compare_stats.h"
#include "verdict/legs.h"
#include "verdict/rounds.h"
#include "verdict/threshold.h"

/* Facts that must read the same in every leg of one variant: if they do not,
 * the legs did not measure the same thing and the probe's metrics that share
 * the fact's labels are void (MADV_HUGEPAGE can silently give no huge pages). */
static const char *const exact_facts[] = {"thp_backed"};

/* ---- verdicts ---- */

#define PENDING COMPARE_PENDING

static void set_verdict(struct compare_row *row, enum verdict v, char *reason)
{
	row->verdict = v;
	free(row->reason);
	row->reason = reason;
}

static int same_probe(const struct compare_row *a, const struct compare_row *b)
{
	/* ident = probe \x1f options \x1f metric \x1f labels: the first two fields */
	const char *ea = strchr(strchr(a->ident, '\x1f') + 1, '\x1f');
	const char *eb = strchr(strchr(b->ident, '\x1f') + 1, '\x1f');
	return ea - a->ident == eb - b->ident && strncmp(a->ident, b->ident, ea - a->ident) == 0;
}

/* Did r run a probe of this name (with other identity options)? */
static int ran_by_name(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->n_probes; i++)
		if (strcmp(r->probes[i].name, name) == 0)
			return 1;
	return 0;
}

/* ---- the rules (docs/design.md §5.12), each settling a row or leaving it
 * PENDING for the next ---- */

/* status: the probe's status differs between legs (VOID) */
static void rule_status(struct comparison *c, struct compare_row *row)
{
	size_t first = c->n_legs;
	for (size_t j = 0; j < c->n_legs; j++)
		if (row->pr[j] && first == c->n_legs)
			first = j;
	for (size_t j = 0; j < c->n_legs && row->verdict == PENDING; j++)
		if (row->pr[j] && row->pr[j]->status != row->pr[first]->status)
			set_verdict(row, VERDICT_VOID,
				    xasprintf("probe %s in %s, %s in %s%s%s",
					      status_name(row->pr[first]->status),
					      c->legs[first].name, status_name(row->pr[j]->status),
					      c->legs[j].name, row->pr[j]->reason ? ": " : "",
					      row->pr[j]->reason ? row->pr[j]->reason : ""));
}

/* unit: one metric in one unit and direction, or no verdict: a MiB value is
 * not judged against GiB/s, nor WIN by one leg's direction (VOID) */
static void rule_unit(struct comparison *c, struct compare_row *row)
{
	size_t first;
	for (first = 0; first < c->n_legs && !row->m[first]; first++)
		;
	for (size_t j = 0; j < c->n_legs && row->verdict == PENDING; j++)
		if (row->m[j] && row->m[j]->unit != row->unit)
			set_verdict(row, VERDICT_VOID,
				    xasprintf("unit differs between legs: %s in %s, %s in %s",
					      unit_name(row->unit), c->legs[first].name,
					      unit_name(row->m[j]->unit), c->legs[j].name));
		else if (row->m[j] && row->m[j]->better != row->better)
			set_verdict(row, VERDICT_VOID,
				    xasprintf("better direction differs between legs: %s in %s, %s "
					      "in %s",
					      better_name(row->better), c->legs[first].name,
					      better_name(row->m[j]->better), c->legs[j].name));
}

/* missing: a leg lacks the metric (MISSING, saying why) */
static void rule_missing(struct comparison *c, struct compare_row *row)
{
	for (size_t j = 0; j < c->n_legs && row->verdict == PENDING; j++)
		if (!row->m[j])
			set_verdict(row, VERDICT_MISSING,
				    xasprintf("%s in %s",
					      row->pr[j] ? "absent"
					      : ran_by_name(c->legs[j].run, row->probe)
						      ? "probe run with other options"
						      : "probe not run",
					      c->legs[j].name));
}

static int is_exact_fact(const struct compare_row *row)
{
	for (size_t k = 0; k < ARRAY_SIZE(exact_facts); k++)
		if (strcmp(row->metric, exact_facts[k]) == 0)
			return 1;
	return 0;
}

/* exact fact: an expected-exact fact of the row's probe, with labels the
 * row's include, reads differently in two legs of one variant (VOID) */
static void rule_exact(struct comparison *c, struct compare_row *o)
{
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (!is_exact_fact(row) || row->verdict == VERDICT_MISSING || !same_probe(o, row) ||
		    !labels_subset(row->labels, row->n_labels, o->labels, o->n_labels))
			continue;
		for (size_t a = 0; a < c->n_legs; a++)
			for (size_t b = a + 1; b < c->n_legs; b++) {
				char va[32], vb[32];
				if (!row->m[a] || !row->m[b] ||
				    c->legs[a].variant != c->legs[b].variant ||
				    row->median[a] == row->median[b])
					continue;
				snprintf(va, sizeof(va), "%g %s", row->median[a],
					 unit_name(row->unit));
				snprintf(vb, sizeof(vb), "%g %s", row->median[b],
					 unit_name(row->unit));
				set_verdict(o, VERDICT_VOID,
					    xasprintf("%s differs between legs of one variant: %s "
						      "in %s, %s in %s",
						      row->metric, va, c->legs[a].name, vb,
						      c->legs[b].name));
				return;
			}
	}
}

/* fact: no better direction (FACT: reported, never judged) */
static void rule_fact(struct comparison *c, struct compare_row *row)
{
	if (row->better == BETTER_NONE)
		set_verdict(row, VERDICT_FACT, NULL);
}

/* receipt: in a leg, what the figure assumes did not hold (VOID, its
 * evidence: a figure of cache hits is no DRAM figure, §4.18) */
static void rule_receipt(struct comparison *c, struct compare_row *row)
{
	for (size_t j = 0; j < c->n_legs && row->verdict == PENDING; j++) {
		const char *ev = row->m[j] ? metric_receipt_failed(row->m[j]) : NULL;
		if (ev)
			set_verdict(row, VERDICT_VOID,
				    xasprintf("receipt failed in %s: %s", c->legs[j].name, ev));
	}
}

/* range: a leg's statistics overflow a double (VOID: shown "-", §5.16) */
static void rule_range(struct comparison *c, struct compare_row *row)
{
	for (size_t j = 0; j < c->n_legs && row->verdict == PENDING; j++) {
		struct summary s;
		if (row->m[j])
			stats_summarize(row->m[j]->samples, row->m[j]->n_samples, &s);
		if (row->m[j] && stats_summary_overflows(&s))
			set_verdict(row, VERDICT_VOID,
				    xasprintf("statistics in %s %s", c->legs[j].name,
					      STATS_OVERFLOW_WHY));
	}
}

/* too few: a leg has fewer samples than a verdict needs (FEW) */
static void rule_few(struct comparison *c, struct compare_row *row)
{
	size_t min_n = c->n_rounds ? COMPARE_MIN_ROUND_SAMPLES : COMPARE_MIN_SAMPLES;
	for (size_t j = 0; j < c->n_legs && row->verdict == PENDING; j++)
		if (row->n[j] < min_n)
			set_verdict(row, VERDICT_FEW,
				    row->dropped[j]
					    ? xasprintf("n=%zu in %s (%zu per leg needed; %zu "
							"dropped by a receipt, §4.18)",
							row->n[j], c->legs[j].name, min_n,
							row->dropped[j])
					    : xasprintf("n=%zu in %s (%zu per leg needed)",
							row->n[j], c->legs[j].name, min_n));
}

/* legs: not rounds, and too few legs to show what differs between
 * processes (A/B/A', two files: legs.h, §5.4): FEW */
static void rule_legs(struct comparison *c, struct compare_row *row)
{
	char *why = c->n_rounds ? NULL : legs_too_few(c, row);
	if (why)
		set_verdict(row, VERDICT_FEW, why), row->few_legs = 1;
}

/* How many times the A-vs-A' gap an effect must exceed before drift can no
 * longer explain it (docs/design.md section 5.3): a drift that moves one way
 * between A and A' shifts B against the pooled A by at most the gap itself
 * (a step right after A puts B at A' level); twice the gap leaves the same
 * again for a gap that noise made look smaller than it was. */
#define DRIFT_EXPLAINS 2.0

/* Could the drift explain B's difference from A? The reason, or NULL. The
 * specific explanations first: B inside the A legs' range, then a trend
 * through every leg, then the size rule. */
static const char *drift_explains(const struct comparison *c, const struct compare_row *row,
				  double drift_log)
{
	double lo = INFINITY, hi = -INFINITY, prev = NAN;
	int up = 0, down = 0, n = 0;
	if (!(row->median_a > 0) || !(row->median_b > 0))
		return "the change is undefined";
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == 'A') {
			lo = fmin(lo, row->median[j]);
			hi = fmax(hi, row->median[j]);
		}
	if (row->median_b >= lo && row->median_b <= hi)
		return "B lies between the A legs";
	/* Every leg, in the order measured, moving one way: a trend. */
	for (size_t j = 0; j < c->n_legs; j++) {
		if (n++) {
			up |= row->median[j] > prev;
			down |= row->median[j] < prev;
		}
		prev = row->median[j];
	}
	if (n >= 3 && up != down)
		return "the legs move one way in the order measured";
	if (fabs(log(row->median_b / row->median_a)) <= DRIFT_EXPLAINS * drift_log)
		return "the change is within 2x of it";
	return NULL;
}

/* Why a metric is "~": every non-verdict says why (the first reason that
 * holds, in the order the rule tests them). */
static char *nowin_reason(const struct compare_row *row, double alpha, int consistent,
			  const char *drift_note)
{
	char widened[160] = "";
	if (drift_note)
		snprintf(widened, sizeof(widened), "; drift %s, threshold widened", drift_note);
	if (!(row->median_a > 0))
		return xasprintf("no ratio: the A median is %g%s", row->median_a, widened);
	if (!(row->p_effect_adj < alpha))
		return xasprintf("not significant (p=%.2g after Holm)%s", row->p_effect_adj,
				 widened);
	if (!consistent)
		return xasprintf("B is not beyond every A leg in one direction%s", widened);
	if (!(row->p_legs < alpha))
		return xasprintf("the legs' medians differ by no more than processes do "
				 "(p=%.2g over the legs)%s",
				 row->p_legs, widened);
	if (isnan(row->ci_lo))
		return xasprintf("no confidence interval%s", widened);
	return xasprintf("the CI [%+.1f, %+.1f]%% %s +-%.1f%% (%s)%s", 100.0 * row->ci_lo,
			 100.0 * row->ci_hi, threshold_ci_relation(row), 100.0 * row->threshold,
			 threshold_source(row), widened);
}

/* load: the legs (or too many rounds) were measured under different load
 * (UNSTABLE: the load may be the change) */
static void rule_load(struct comparison *c, struct compare_row *row)
{
	char *why = c->n_rounds ? rounds_too_few(c, row) : rounds_noise_reason(c, row);
	if (why)
		set_verdict(row, VERDICT_UNSTABLE, why);
}

/* drift: legs of one variant differ significantly (§5.3): UNSTABLE when the
 * drift could explain the change, else a note for the effect rule (it
 * widened the threshold). Rounds cancel drift by construction (§5.10);
 * legs enough to judge whose rank test is not significant have no change
 * for it to explain. */
static void rule_drift(struct comparison *c, struct compare_row *row)
{
	if (c->n_rounds || isnan(row->p_drift) || !(row->p_drift_adj < c->opts.alpha) ||
	    !(row->drift > fmax(0.01, c->opts.threshold)))
		return;
	/* legs enough to judge whose own test found nothing: no verdict for
	 * the drift to explain (the effect rule says "~" and why, §5.4) */
	if (legs_enough(c, row) && !(row->p_legs < legs_alpha(c)))
		return;
	for (const char *v = "AB"; *v && !row->note; v++) {
		size_t f, l;
		const char *why;
		char *note;
		if (!compare_drift_pair(c, *v, &f, &l) ||
		    compare_gap(row->median[f], row->median[l]) != row->drift)
			continue;
		why = drift_explains(c, row, fabs(log(row->median[l] / row->median[f])));
		note = xasprintf("%s vs %s %+.1f%% (p=%.2g)%s%s", c->legs[l].name, c->legs[f].name,
				 row->median[f] > 0 ? 100.0 * (row->median[l] / row->median[f] - 1)
						    : INFINITY,
				 row->p_drift_adj, why ? ": " : "", why ? why : "");
		if (why) {
			set_verdict(row, VERDICT_UNSTABLE, note);
			return;
		}
		row->note = note;
	}
}

/* effect: WIN or LOSS when the change clears the threshold (and, in A/B/A,
 * B lies beyond every A leg in one direction, §5.4), else "~" saying why */
static void rule_effect(struct comparison *c, struct compare_row *row)
{
	char *note = row->note, *out, *why;
	int up, consistent = 1, same;
	row->note = NULL;
	if (c->n_rounds) {
		out = rounds_left_out(c, row);
		if (threshold_cleared(c, row)) {
			up = row->change > 0;
			set_verdict(row,
				    up == (row->better == BETTER_HIGHER) ? VERDICT_WIN
									 : VERDICT_LOSS,
				    out);
			return;
		}
		/* two one-sided tests: SAME when the change is within the margin */
		same = c->opts.margin > 0 && row->eq_lo > -c->opts.margin &&
		       row->eq_hi < c->opts.margin;
		why = threshold_ci_too_wide(row)
			      ? threshold_too_wide_reason(
					c, row, c->opts.ci_level > 0 ? c->opts.ci_level : 0.95)
		      : same ? xasprintf("within +-%.1f%%: the %.3g%% CI [%+.1f, %+.1f]%%",
					 100.0 * c->opts.margin, 100.0 * (1 - 2 * c->opts.alpha),
					 100.0 * row->eq_lo, 100.0 * row->eq_hi)
			     : rounds_nowin_reason(c, row);
		set_verdict(row, same && !row->ci_wide ? VERDICT_SAME : VERDICT_NOWIN,
			    out ? xasprintf("%s; %s", why, out) : why);
		if (out) {
			free(why);
			free(out);
		}
		return;
	}
	up = row->median_b > row->median_a;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == 'A' &&
		    (row->median_b == row->median[j] || (row->median_b > row->median[j]) != up))
			consistent = 0;
	if (consistent && threshold_cleared(c, row) && row->p_legs < legs_alpha(c)) {
		int good = up == (row->better == BETTER_HIGHER);
		/* The drift stays beside the verdict: it widened the threshold. */
		set_verdict(row, good ? VERDICT_WIN : VERDICT_LOSS,
			    note ? xasprintf("drift %s, beyond what it explains", note) : NULL);
		free(note);
		return;
	}
	set_verdict(row, VERDICT_NOWIN,
		    threshold_ci_too_wide(row)
			    ? threshold_too_wide_reason(c, row, 0.95)
			    : nowin_reason(row, c->opts.alpha, consistent, note));
	free(note);
}

/* The pipeline (docs/design.md §5.12), in the order the rules are tried; the
 * first that settles a row gives its verdict. Each rule runs over every
 * row before the next (exact fact reads the other rows' MISSING). The
 * statistics and Holm's correction come between the two halves: the rules
 * after them read p, the CI and the threshold. */
struct verdict_rule {
	const char *name;
	void (*apply)(struct comparison *c, struct compare_row *row);
};
static const struct verdict_rule rules_before[] = {
	{"status", rule_status},    {"unit", rule_unit},   {"missing", rule_missing},
	{"exact fact", rule_exact}, {"fact", rule_fact},   {"receipt", rule_receipt},
	{"range", rule_range},	    {"too few", rule_few},
};
static const struct verdict_rule rules_after[] = {
	{"load", rule_load},
	{"drift", rule_drift},
	{"legs", rule_legs},
	{"effect", rule_effect},
};

static void apply_rules(struct comparison *c, const struct verdict_rule *rules, size_t n)
{
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < c->n_rows; i++)
			if (c->rows[i].verdict == PENDING) {
				rules[k].apply(c, &c->rows[i]);
				if (c->rows[i].verdict != PENDING)
					c->rows[i].rule = rules[k].name;
			}
}

const char *compare_rule_name(size_t k, int *after_stats)
{
	*after_stats = k >= ARRAY_SIZE(rules_before);
	if (!*after_stats)
		return rules_before[k].name;
	k -= ARRAY_SIZE(rules_before);
	return k < ARRAY_SIZE(rules_after) ? rules_after[k].name : NULL;
}

struct comparison *compare_runs(const struct run *const *runs, const char *const *files, size_t n,
				const struct compare_opts *o)
{
	struct comparison *c = xcalloc(1, sizeof(*c));
	c->opts = *o;
	if (compare_join(c, runs, files, n) != 0 || compare_check_names(c, o) != 0) {
		comparison_free(c);
		return NULL;
	}
	for (size_t i = 0; i < c->n_rows; i++) {
		struct compare_row *row = &c->rows[i];
		row->verdict = PENDING;
		row->p_drift = row->p_drift_adj = row->change = row->ci_lo = row->ci_hi = NAN;
		row->eq_lo = row->eq_hi = row->round_noise = NAN;
		row->threshold_from = THRESHOLD_FROM__COUNT;
		row->p_effect = row->p_effect_adj = row->p_legs = NAN;
		for (size_t j = 0; j < c->n_legs; j++) {
			row->p_vs_a[j] = NAN;
			row->median[j] = NAN;
			if (!row->m[j])
				continue;
			row->n[j] = row->m[j]->n_samples;
			*(c->legs[j].variant == 'A' ? &row->n_a : &row->n_b) += row->n[j];
			if (row->m[j]->n_samples) /* none: absent, never 0 */
				row->median[j] =
					stats_median(row->m[j]->samples, row->m[j]->n_samples);
		}
		for (size_t k = 0; k < o->n_controls; k++)
			row->control |= compare_pattern_match(
				o->controls[k], row->probe, row->metric, row->labels, row->n_labels,
				row->params, row->n_params);
		row->primary =
			o->primary &&
			compare_pattern_match(o->primary, row->probe, row->metric, row->labels,
					      row->n_labels, row->params, row->n_params);
	}
	for (size_t i = 0; i < c->n_rows; i++) {
		rounds_busy(c, &c->rows[i]);
		/* the table of rounds shows pooled medians, facts too */
		if (c->n_rounds)
			compare_pooled_medians(c, &c->rows[i]);
	}
	apply_rules(c, rules_before, ARRAY_SIZE(rules_before));
	for (size_t i = 0; i < c->n_rows; i++) {
		struct compare_row *row = &c->rows[i];
		if (row->verdict != PENDING)
			continue;
		if (c->n_rounds)
			rounds_stats(c, row);
		else
			compare_stats(c, row);
		threshold_set(c, row);
	}
	compare_holm(c);
	apply_rules(c, rules_after, ARRAY_SIZE(rules_after));
	rounds_heterogeneity(c);
	for (size_t i = 0; i < c->n_rows; i++) {
		struct compare_row *row = &c->rows[i];
		if (!row->control)
			continue;
		if (row->verdict == VERDICT_FACT) {
			/* A fact control (THP obtained on the explicit path) must read
			 * the same in every leg. */
			for (size_t j = 1; j < c->n_legs; j++)
				row->moved |= compare_gap(row->median[0], row->median[j]) > 1e-9;
		} else {
			/* one measured under different load, or with too few
			 * legs to judge, was not checked */
			row->moved = row->verdict != VERDICT_NOWIN &&
				     row->verdict != VERDICT_SAME && !row->noisy && !row->few_legs;
		}
	}
	if (c->refused)
		for (size_t i = 0; i < c->n_rows; i++) {
			struct compare_row *row = &c->rows[i];
			if (row->verdict <= VERDICT_UNSTABLE || row->few_legs) /* SAME too */
				set_verdict(row, VERDICT_REFUSED, xstrdup("knobs differ"));
		}
	mechanism_rows(c);
	comparison_summarize(c);
	return c;
}
