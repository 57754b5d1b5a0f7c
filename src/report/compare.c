/* compare.c - a comparison rendered for the terminal, as Markdown in the
 * findings-table layout (| metric | Stock | Patched | Stock again | verdict |),
 * as JSON and as CSV.
 * The first lines are what invalidates verdicts: controls that moved, knobs
 * that differ; then the table, the one-line summary, details and notes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/compare.h"
#include "report/compare_cells.h"
#include "report/format.h"
#include "verdict/compare.h"
#include "verdict/compare_json.h"

static void head_lines(const struct comparison *c, FILE *f, const char *strong)
{
	char *line = comparison_incomplete_line(c);
	if (line)
		fprintf(f, "%s%s%s\n", strong, line, strong);
	free(line);
	line = comparison_emulated_line(c);
	if (line)
		fprintf(f, "%s%s%s\n", strong, line, strong);
	free(line);
	line = comparison_controls_line(c);
	if (line)
		fprintf(f, "%s%s%s\n", strong, line, strong);
	free(line);
	line = comparison_noise_line(c);
	if (line)
		fprintf(f, "%s%s%s\n", strong, line, strong);
	free(line);
	if (c->n_knob_diffs)
		fprintf(f, "%s%s%s\n", strong, report_compare_knob_heading(c), strong);
	for (size_t i = 0; i < c->n_knob_diffs; i++)
		fprintf(f, "%s  knob %s\n", *strong ? "-" : "", c->knob_diffs[i]);
}

int report_compare_term(const struct comparison *c, FILE *f)
{
	size_t kw = 6, cw[COMPARE_MAX_LEGS], ciw = 18, thw = 9, ncol = report_compare_ncols(c),
	       n_missing;
	size_t mw = report_compare_has_mechanism(c) ? strlen("mechanism") : 0;
	char buf[512], *line, **missing;
	head_lines(c, f, "");
	fputs("compare:", f);
	for (size_t j = 0; j < c->n_legs; j++)
		fprintf(f, "%s %s [%c] (%s)", j ? " ->" : "", c->legs[j].name, c->legs[j].variant,
			c->legs[j].file);
	fputc('\n', f);
	for (size_t j = 0; j < c->n_legs; j++) {
		char *how = report_compare_leg_how(c->legs[j].run);
		if (how)
			fprintf(f, "  leg %zu, %s: %s\n", j + 1, c->legs[j].name, how);
		free(how);
	}
	if (c->opts.primary)
		fprintf(f, "primary metric %s at alpha %g; Holm-Bonferroni over the other %zu\n",
			c->opts.primary, c->opts.alpha, report_compare_family(c));
	else
		fprintf(f, "Holm-Bonferroni over %zu metrics (controls separately), alpha %g\n",
			report_compare_family(c), c->opts.alpha);
	for (size_t i = 0; i < c->n_rows; i++)
		if (report_text_width(c->rows[i].key) > kw)
			kw = report_text_width(c->rows[i].key);
	if (kw > 64)
		kw = 64;
	for (size_t j = 0; j < ncol; j++) {
		cw[j] = strlen(report_compare_col_name(c, j));
		for (size_t i = 0; i < c->n_rows; i++) {
			report_compare_col(c, &c->rows[i], j, buf, sizeof(buf), 0);
			if (strlen(buf) > cw[j])
				cw[j] = strlen(buf);
		}
	}
	for (size_t i = 0; i < c->n_rows; i++) {
		report_compare_ci(&c->rows[i], buf, sizeof(buf));
		ciw = strlen(buf) > ciw ? strlen(buf) : ciw;
		report_compare_mechanism(&c->rows[i], buf, sizeof(buf));
		mw = mw && report_text_width(buf) > mw ? report_text_width(buf) : mw;
		report_compare_threshold(&c->rows[i], buf, sizeof(buf));
		thw = strlen(buf) > thw ? strlen(buf) : thw;
	}
	fprintf(f, "change: %s\n", comparison_change_from(c));
	fputc('\n', f);
	report_put_column(f, "metric", kw, 0);
	for (size_t j = 0; j < ncol; j++)
		fprintf(f, "  %*s", (int)cw[j], report_compare_col_name(c, j));
	fprintf(f, "  %8s  %-*s  %-*s  %8s  %9s  ", "change", (int)ciw, report_compare_ci_name(c),
		(int)thw, "threshold", "p(adj)", "n A/B");
	if (mw) /* the counters that moved with each WIN and LOSS (§5.15) */
		report_put_column(f, "mechanism", mw + 2, 0);
	fputs("verdict\n", f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		char chg[32], ci[48], th[48], p[32], n[48];
		if (row->verdict == VERDICT_MISSING)
			continue;
		report_put_column(f, row->key, kw, 0);
		for (size_t j = 0; j < ncol; j++) {
			report_compare_col(c, row, j, buf, sizeof(buf), 0);
			fprintf(f, "  %*s", (int)cw[j], buf);
		}
		report_compare_pct(row->change, chg, sizeof(chg));
		report_compare_ci(row, ci, sizeof(ci));
		report_compare_threshold(row, th, sizeof(th));
		report_compare_p(row->p_effect_adj, p, sizeof(p));
		report_compare_n(row, n, sizeof(n));
		fprintf(f, "  %8s  %-*s  %-*s  %8s  %9s  ", chg, (int)ciw, ci, (int)thw, th, p, n);
		if (mw) {
			report_compare_mechanism(row, buf, sizeof(buf));
			report_put_column(f, buf, mw + 2, 0);
		}
		report_compare_verdict(row, 1, buf, sizeof(buf));
		fprintf(f, "%s\n", buf);
	}
	n_missing = report_compare_missing(c, &missing);
	for (size_t i = 0; i < n_missing; i++) {
		fprintf(f, "missing: %s\n", missing[i]);
		free(missing[i]);
	}
	free(missing);
	for (size_t i = 0; i < c->n_rows; i++)
		if (c->rows[i].mechanism)
			fprintf(f, "mechanism: %s %s: %s\n", c->rows[i].key,
				verdict_name(c->rows[i].verdict), c->rows[i].mechanism);
	for (size_t i = 0; i < c->n_notes; i++)
		fprintf(f, "note: %s\n", c->notes[i]);
	line = comparison_summary_line(c);
	fprintf(f, "%s\n", line);
	free(line);
	report_compare_wrap(c, REPORT_TERM, f);
	return 0;
}

static const char *host_str(const struct run *r, const char *key)
{
	json_t *v = r->host ? json_object_get(r->host, key) : NULL;
	return v && json_is_string(v) ? json_string_value(v) : "?";
}

/* The mechanism section: each WIN and LOSS's counters, ranked by the size
 * of their change, their medians over the A and the B windows (§5.15). */
static void md_mechanism(const struct comparison *c, FILE *f)
{
	if (!report_compare_has_mechanism(c))
		return;
	fputs("\nMechanism (the counters that moved with each WIN and LOSS, ranked by the size "
	      "of the change; medians over the windows, §5.15):\n\n"
	      "| metric | verdict | rank | counter | A | B | change |\n"
	      "|---|---|---:|---|---:|---:|---:|\n",
	      f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		size_t k = 0;
		if (!row->mechanism)
			continue;
		do {
			const struct mech_counter *m = k < row->n_mech ? &row->mech[k] : NULL;
			char chg[32] = "-";
			fputs("| ", f);
			report_md_cell(f, k ? "" : row->key);
			fprintf(f, " | %s | ", k ? "" : verdict_name(row->verdict));
			if (!m) { /* none moved, or a file with the text alone */
				fputs("- | ", f);
				report_md_cell(f, row->mechanism);
				fputs(" | | | |\n", f);
				continue;
			}
			if (m->a > 0)
				report_compare_pct(m->b / m->a - 1, chg, sizeof(chg));
			fprintf(f, "%zu | ", k + 1);
			report_md_cell(f, m->name);
			fprintf(f, " | %.0f | %.0f | %s |\n", m->a, m->b, chg);
		} while (++k < row->n_mech);
	}
}

int report_compare_md(const struct comparison *c, FILE *f)
{
	const struct run *r0 = c->legs[0].run;
	json_t *cpu = r0->host ? json_object_get(r0->host, "cpu") : NULL;
	json_t *model = cpu ? json_object_get(cpu, "model") : NULL;
	char buf[512], *line, **missing;
	size_t n_missing;
	int details = 0;
	fputs("# mempath comparison:", f);
	for (size_t j = 0; j < c->n_legs; j++)
		fprintf(f, "%s %s", j ? " ->" : "", c->legs[j].name);
	fputs("\n\n", f);
	head_lines(c, f, "**");
	if (c->n_knob_diffs || c->summary.controls_moved)
		fputc('\n', f);
	fprintf(f, "- host: %s, kernel %s, %s\n", host_str(r0, "hostname"), host_str(r0, "kernel"),
		model && json_is_string(model) ? json_string_value(model) : "?");
	for (size_t j = 0; j < c->n_legs; j++) {
		char *how = report_compare_leg_how(c->legs[j].run);
		fprintf(f, "- leg %zu, %s (%c): `%s`, %s to %s%s%s\n", j + 1, c->legs[j].name,
			c->legs[j].variant, c->legs[j].file,
			c->legs[j].run->start_time ? c->legs[j].run->start_time : "?",
			c->legs[j].run->end_time ? c->legs[j].run->end_time : "?", how ? "; " : "",
			how ? how : "");
		free(how);
	}
	report_compare_rules(c, f, "- ");
	if (c->opts.primary)
		fprintf(f, "- primary metric: `%s` (alpha %g uncorrected); Holm over the rest\n",
			c->opts.primary, c->opts.alpha);
	else
		fprintf(f, "- Holm-Bonferroni over the %zu compared metrics; controls separately\n",
			report_compare_family(c));
	for (size_t k = 0; k < c->opts.n_controls; k++)
		fprintf(f, "- control: `%s`\n", c->opts.controls[k]);
	fputs("\n| metric |", f);
	for (size_t j = 0; j < report_compare_ncols(c); j++) {
		fputc(' ', f);
		report_md_cell(f, report_compare_col_name(c, j));
		fputs(" |", f);
	}
	if (report_compare_has_mechanism(c))
		fputs(" mechanism |", f);
	fputs(" verdict |\n|---|", f);
	for (size_t j = 0; j < report_compare_ncols(c); j++)
		fputs("---:|", f);
	fputs(report_compare_has_mechanism(c) ? "---|---|\n" : "---|\n", f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (row->verdict == VERDICT_MISSING)
			continue;
		fputs("| ", f);
		report_md_cell(f, row->key);
		for (size_t j = 0; j < report_compare_ncols(c); j++) {
			report_compare_col(c, row, j, buf, sizeof(buf), 1);
			fputs(" | ", f);
			report_md_cell(f, buf);
		}
		if (report_compare_has_mechanism(c)) {
			report_compare_mechanism(row, buf, sizeof(buf));
			fputs(" | ", f);
			report_md_cell(f, buf);
		}
		report_compare_verdict(row, 1, buf, sizeof(buf));
		fputs(" | ", f);
		report_md_cell(f, buf);
		fputs(" |\n", f);
	}
	line = comparison_summary_line(c);
	fprintf(f, "\n%s\n", line);
	free(line);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		char chg[32], ci[48], p[32], pa[32], pd[32], th[48];
		if (isnan(row->p_effect))
			continue;
		if (!details++)
			fprintf(f,
				"\n| metric | change | %s | p | p adjusted | same-variant gap "
				"(p) | "
				"threshold | n per leg "
				"|\n|---|---:|---:|---:|---:|---:|---:|---|\n",
				report_compare_ci_name(c));
		report_compare_pct(row->change, chg, sizeof(chg));
		report_compare_ci(row, ci, sizeof(ci));
		report_compare_p(row->p_effect, p, sizeof(p));
		report_compare_p(row->p_effect_adj, pa, sizeof(pa));
		report_compare_p(row->p_drift_adj, pd, sizeof(pd));
		fputs("| ", f);
		report_md_cell(f, row->key);
		report_compare_threshold(row, th, sizeof(th));
		fprintf(f, " | %s | %s | %s | %s | %.1f%% (%s) | %s |", chg, ci, p, pa,
			100.0 * row->drift, pd, th);
		for (size_t j = 0; j < c->n_legs; j++)
			fprintf(f, "%s%zu", j ? "/" : " ", row->n[j]);
		fputs(" |\n", f);
	}
	if (c->n_notes || c->summary.count[VERDICT_MISSING])
		fputs("\nNotes:\n\n", f);
	n_missing = report_compare_missing(c, &missing);
	for (size_t i = 0; i < n_missing; i++) {
		fputs("- missing: ", f);
		report_md_cell(f, missing[i]);
		fputc('\n', f);
		free(missing[i]);
	}
	free(missing);
	for (size_t i = 0; i < c->n_notes; i++) {
		fputs("- ", f);
		report_md_cell(f, c->notes[i]);
		fputc('\n', f);
	}
	md_mechanism(c, f);
	report_compare_wrap(c, REPORT_MD, f);
	fputs("\nRaw samples: the legs' results files above.\n", f);
	return 0;
}

int report_compare_json(const struct comparison *c, FILE *f)
{
	json_t *j = comparison_to_json(c);
	int rc = report_json_dumpf(j, f,
				   JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					   JSON_REAL_PRECISION(REPORT_COMPARE_DIGITS));
	json_decref(j);
	fputc('\n', f);
	return rc == 0 ? 0 : error("cannot write the comparison as JSON");
}

/* A number for CSV: empty when undefined, as a spreadsheet expects. */
static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

int report_compare_csv(const struct comparison *c, FILE *f)
{
	fputs("key,unit,better", f);
	for (size_t j = 0; j < c->n_legs; j++) {
		fputc(',', f);
		report_csv_field(f, c->legs[j].name);
	}
	fputs(",change,ci_lo,ci_hi,p_adjusted,verdict,control\n", f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *row = &c->rows[i];
		report_csv_field(f, row->key);
		fputc(',', f);
		report_csv_field(f, unit_name(row->unit));
		fprintf(f, ",%s", better_name(row->better));
		for (size_t j = 0; j < c->n_legs; j++)
			csv_num(f, row->m[j] ? row->median[j] : NAN);
		csv_num(f, row->change);
		csv_num(f, row->ci_lo);
		csv_num(f, row->ci_hi);
		csv_num(f, row->p_effect_adj);
		fprintf(f, ",%s,%s\n", verdict_id(row->verdict),
			!row->control ? "no"
			: row->moved  ? "moved"
				      : "yes");
	}
	return 0;
}
