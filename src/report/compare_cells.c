/* compare_cells.c - the words and numbers of a comparison that every writer
 * prints the same way (terminal, Markdown, CSV in compare.c; HTML in
 * html_compare.c), so no two formats can say different things. */
#include "report/compare_cells.h"
#include "report/wrap_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/util.h"
#include "machine/noise.h"
#include "report/format.h"
#include "verdict/threshold.h"

/* "0.42 GiB/s"; "-" when the leg lacks the metric. */
static void fmt_median(const struct compare_row *row, size_t j, char *buf, size_t len)
{
	char v[32];
	if (!row->m[j] || isnan(row->median[j])) {
		snprintf(buf, len, "-");
		return;
	}
	report_fmt_value(row->median[j], v, sizeof(v));
	snprintf(buf, len, "%s %s", v, unit_name(row->unit));
}

/* A leg's cell: its median, and for a B leg (Markdown, the seed's layout) its
 * change against pooled A. */
void report_compare_cell(const struct comparison *c, const struct compare_row *row, size_t j,
			 char *buf, size_t len, int with_change)
{
	double base = row->median_a;
	size_t n;
	fmt_median(row, j, buf, len);
	if (!with_change || c->legs[j].variant != 'B' || !row->m[j] || isnan(row->median[j]) ||
	    row->better == BETTER_NONE)
		return;
	if (!isfinite(base))
		for (size_t k = 0; k < c->n_legs && !isfinite(base); k++)
			if (c->legs[k].variant == 'A' && row->m[k])
				base = row->median[k];
	n = strlen(buf);
	if (isfinite(base) && base > 0)
		snprintf(buf + n, len - n, " (%+.1f%%)", 100.0 * (row->median[j] / base - 1));
}

size_t report_compare_ncols(const struct comparison *c)
{
	return c->n_rounds ? 2 : c->n_legs;
}

const char *report_compare_col_name(const struct comparison *c, size_t k)
{
	char v = k == 0 ? 'A' : 'B';
	if (!c->n_rounds)
		return c->legs[k].name;
	for (size_t j = 0; j < c->n_legs; j++)
		if (c->legs[j].variant == v && c->legs[j].run->label)
			return c->legs[j].run->label;
	return k == 0 ? "A" : "B";
}

void report_compare_col(const struct comparison *c, const struct compare_row *row, size_t k,
			char *buf, size_t len, int with_change)
{
	double v = k == 0 ? row->median_a : row->median_b;
	char num[32];
	size_t n;
	if (!c->n_rounds) {
		report_compare_cell(c, row, k, buf, len, with_change);
		return;
	}
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	report_fmt_value(v, num, sizeof(num));
	snprintf(buf, len, "%s %s", num, unit_name(row->unit));
	n = strlen(buf);
	if (with_change && k == 1 && isfinite(row->change) && row->better != BETTER_NONE)
		snprintf(buf + n, len - n, " (%+.1f%%)", 100.0 * row->change);
}

void report_compare_n(const struct compare_row *row, char *buf, size_t len)
{
	if (!row->n_a && !row->n_b)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%zu/%zu", row->n_a, row->n_b);
}

int report_compare_has_mechanism(const struct comparison *c)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].mechanism)
			return 1;
	return 0;
}

void report_compare_mechanism(const struct compare_row *row, char *buf, size_t len)
{
	size_t at = 0, k;

	snprintf(buf, len, "%s", !row->mechanism ? "-" : row->n_mech ? "" : "none moved");
	if (!row->n_mech && row->mechanism && strncmp(row->mechanism, "none of", 7))
		snprintf(buf, len, "%s", row->mechanism); /* a file with the text alone */
	for (k = 0; k < row->n_mech && k < REPORT_MECH_CELL && at < len; k++) {
		const struct mech_counter *m = &row->mech[k];
		char chg[32];
		if (m->a > 0)
			report_compare_pct(m->b / m->a - 1, chg, sizeof(chg));
		else
			snprintf(chg, sizeof(chg), "%.0f -> %.0f", m->a, m->b);
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s", k ? ", " : "", m->name, chg);
	}
	if (row->n_mech > k && at < len)
		snprintf(buf + at, len - at, ", %zu more", row->n_mech - k);
}

void report_compare_pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * v);
}

void report_compare_ci(const struct compare_row *row, char *buf, size_t len)
{
	if (row->ci_wide) /* the reason beside the verdict says how wide (§5.19) */
		snprintf(buf, len, "too wide to say");
	else if (isnan(row->ci_lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%+.1f, %+.1f]%%", 100.0 * row->ci_lo, 100.0 * row->ci_hi);
}

void report_compare_threshold(const struct compare_row *row, char *buf, size_t len)
{
	if (row->threshold_from < THRESHOLD_FROM__COUNT)
		threshold_text(row, buf, len);
	else if (isfinite(row->threshold) && !isnan(row->p_effect)) /* a file before §5.18 */
		snprintf(buf, len, "%.1f%%", 100.0 * row->threshold);
	else
		snprintf(buf, len, "-");
}

void report_compare_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
}

/* Verdict cell: the verdict, a mark for controls, the reason where there is one.
 * A control that could not be checked (too few samples, void, missing) is
 * "not verified"; one that read WIN, LOSS, UNSTABLE or a different fact moved. */
void report_compare_verdict(const struct compare_row *row, int with_reason, char *buf, size_t len)
{
	int unverified = row->verdict == VERDICT_FEW || row->verdict == VERDICT_VOID ||
			 row->verdict == VERDICT_MISSING || row->noisy;
	snprintf(buf, len, "%s%s%s%s%s", verdict_name(row->verdict),
		 !row->control ? ""
		 : unverified  ? " (control not verified)"
		 : !row->moved ? " (control)"
			       : " (control MOVED)",
		 row->primary ? " (primary)" : "", with_reason && row->reason ? ": " : "",
		 with_reason && row->reason ? row->reason : "");
}

const char *report_compare_knob_heading(const struct comparison *c)
{
	if (!c->n_knob_diffs)
		return NULL;
	return c->refused ? "knobs differ between legs - no verdict (name the intended "
			    "change with --expect-diff KNOB, or --allow-diff):"
			  : "knobs differ between legs (allowed with --allow-diff):";
}

size_t report_compare_family(const struct comparison *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_rows; i++)
		n += !isnan(c->rows[i].p_effect) && !c->rows[i].control &&
		     (!c->opts.primary || !c->rows[i].primary);
	return n;
}

const char *report_compare_ci_name(const struct comparison *c)
{
	static char name[32];
	double level = c->n_rounds && c->opts.ci_level > 0 ? c->opts.ci_level : 0.95;
	snprintf(name, sizeof(name), "%.3g%% CI", 100.0 * level);
	return name;
}

void report_compare_rules(const struct comparison *c, FILE *f, const char *prefix)
{
	double busy = c->opts.busy_cpus > 0 ? c->opts.busy_cpus : NOISE_BUSY_CPUS;
	if (c->n_rounds) {
		fprintf(f,
			"%srules: %zu rounds; van Elteren's stratified rank test within the "
			"rounds, "
			"alpha %g; t %s of the per-round ratios of medians; practical "
			"threshold max(1%%, %.1f%%); a round whose legs' load differed by more "
			"than %.2f other CPUs is left out; fewer than %d samples per leg or %d "
			"rounds: no verdict\n",
			prefix, c->n_rounds, c->opts.alpha, report_compare_ci_name(c),
			100.0 * c->opts.threshold, busy, COMPARE_MIN_ROUND_SAMPLES,
			COMPARE_MIN_ROUNDS);
		if (c->opts.margin > 0)
			fprintf(f, "%sSAME: two one-sided tests, the %.3g%% CI within +-%.1f%%\n",
				prefix, 100.0 * (1 - 2 * c->opts.alpha), 100.0 * c->opts.margin);
	} else {
		fprintf(f,
			"%srules: two-sided Mann-Whitney U on raw samples, alpha %g; bootstrap "
			"95%% "
			"CI of the ratio of medians (%u resamples; with 4 or more legs a side "
			"widened to the legs' own spread, Welch's t over their log medians); "
			"practical threshold max(1%%, "
			"same-variant gap, %.1f%%); fewer than %d samples per leg: no verdict; "
			"legs "
			"whose load differed by more than %.2f other CPUs: UNSTABLE (with 4 or "
			"more legs a side: the variants' mean loads)\n",
			prefix, c->opts.alpha, c->opts.bootstrap_iters, 100.0 * c->opts.threshold,
			COMPARE_MIN_SAMPLES, busy);
	}
	fprintf(f,
		"%schange: %s; a CI whose bounds are more than %g times apart is too wide to say\n",
		prefix, comparison_change_from(c), THRESHOLD_CI_TOO_WIDE);
}

char *report_compare_leg_how(const struct run *r)
{
	const char *setup, *key;
	json_t *env, *v;
	char *s, *t;
	if (!r->leg)
		return NULL;
	setup = json_string_value(json_object_get(r->leg, "setup"));
	s = xasprintf("setup: %s", setup ? setup : "none");
	env = json_object_get(r->leg, "env");
	if (json_object_size(env)) {
		t = xasprintf("%s; env:", s);
		free(s);
		s = t;
		json_object_foreach (env, key, v) {
			t = xasprintf("%s %s=%s", s, key,
				      json_is_string(v) ? json_string_value(v) : "?");
			free(s);
			s = t;
		}
	}
	if (json_is_array(json_object_get(r->leg, "args"))) { /* docs/design.md §11.5 */
		size_t i;
		t = xasprintf("%s; args:", s);
		free(s);
		s = t;
		json_array_foreach (json_object_get(r->leg, "args"), i, v) {
			t = xasprintf("%s %s", s, json_is_string(v) ? json_string_value(v) : "?");
			free(s);
			s = t;
		}
	}
	return s;
}

void report_compare_wrap(const struct comparison *c, enum report_format fmt, FILE *f)
{
	struct wrap_source src[COMPARE_MAX_LEGS];
	size_t n = 0;
	for (size_t j = 0; j < c->n_legs; j++)
		for (size_t i = 0; i < c->legs[j].run->n_probes; i++)
			if (strcmp(c->legs[j].run->probes[i].name, "work.wrap") == 0 &&
			    c->legs[j].run->probes[i].extra) {
				src[n].name = c->legs[j].name;
				src[n++].extra = c->legs[j].run->probes[i].extra;
				break;
			}
	if (n != c->n_legs) /* every leg a wrap, or no tables */
		return;
	if (fmt == REPORT_HTML)
		fputs("<h2>The workload per leg</h2>\n", f);
	else
		fputs(fmt == REPORT_MD ? "\n## The workload per leg\n"
				       : "\nThe workload per leg:\n",
		      f);
	report_wrap_tables(src, n, fmt, f);
}

/* Adds name to the set v (n of them) unless it is there; whether it was new. */
static int add_name(const char **v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(v[i], name) == 0)
			return 0;
	v[(*n)++] = name;
	return 1;
}

size_t report_compare_missing(const struct comparison *c, char ***lines)
{
	size_t n = 0, n_why = 0;
	const char **why = xcalloc(c->n_rows + 1, sizeof(*why));

	*lines = xcalloc(c->n_rows + 1, sizeof(**lines));
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];

		if (row->verdict != VERDICT_MISSING)
			continue;
		if (!c->opts.brief_missing)
			(*lines)[n++] =
				xasprintf("%s (%s)", row->key, row->reason ? row->reason : "?");
		else
			add_name(why, &n_why, row->reason ? row->reason : "?");
	}
	for (size_t w = 0; w < n_why; w++) {
		const char **probes = xcalloc(c->n_rows, sizeof(*probes));
		size_t n_probes = 0, n_metrics = 0;
		char *line, *more;

		for (size_t i = 0; i < c->n_rows; i++)
			if (c->rows[i].verdict == VERDICT_MISSING &&
			    strcmp(c->rows[i].reason ? c->rows[i].reason : "?", why[w]) == 0) {
				n_metrics++;
				add_name(probes, &n_probes, c->rows[i].probe);
			}
		line = xasprintf("%zu metric%s of %zu probe%s (%s):", n_metrics,
				 n_metrics == 1 ? "" : "s", n_probes, n_probes == 1 ? "" : "s",
				 why[w]);
		for (size_t k = 0; k < n_probes && k < 3; k++) {
			more = xasprintf("%s%s %s", line, k ? "," : "", probes[k]);
			free(line);
			line = more;
		}
		if (n_probes > 3) {
			more = xasprintf("%s and %zu more", line, n_probes - 3);
			free(line);
			line = more;
		}
		(*lines)[n++] = line;
		free(probes);
	}
	free(why);
	return n;
}
