/* findings.c - the findings document (findings.h). */
#include "report/findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/html_page.h"

/* Text from a file: escaped for HTML, or for Markdown as one table cell
 * (report_md_cell: controls as text, "<script>" as "&lt;script>", '|'
 * escaped). */
static void put(FILE *f, enum report_format fmt, const char *s)
{
	if (fmt == REPORT_HTML)
		report_html_text(f, s ? s : "");
	else
		report_md_cell(f, s ? s : "");
}

static const json_t *leg_record(const struct finding *x)
{
	return x->n_legs ? x->legs[0]->leg : NULL;
}

static const char *title_of(const struct finding *x)
{
	const char *t = json_string_value(json_object_get(leg_record(x), "title"));
	return t ? t : x->dir;
}

/* A study's finding: " (madvise against never)" after its title. */
static void put_pair(FILE *f, enum report_format fmt, const struct finding *x)
{
	if (!x->pair)
		return;
	fputs(" (", f);
	put(f, fmt, x->pair);
	fputs(")", f);
}

/* "A/B/A'" or "A/B, 6 rounds" */
static void kind_of(const struct finding *x, char *buf, size_t len)
{
	if (x->n_var > 2)
		snprintf(buf, len, "study of %zu variants, %zu rounds", x->n_var, x->cmp->n_rounds);
	else if (x->cmp->n_rounds)
		snprintf(buf, len, "A/B, %zu rounds", x->cmp->n_rounds);
	else {
		size_t k = 0;
		for (size_t j = 0; j < x->cmp->n_legs && k + 3 < len; j++) {
			if (j)
				buf[k++] = '/';
			buf[k++] = x->cmp->legs[j].variant;
		}
		buf[k] = 0;
	}
}

static void value(double v, enum unit u, char *buf, size_t len)
{
	char n[32];
	report_fmt_value(v, n, sizeof(n));
	snprintf(buf, len, "%s %s", n, unit_name(u));
}

/* "touch_rate pages=default 2.41 -> 7.53 GiB/s (+227.4%)" */
static char *row_numbers(const struct compare_row *r)
{
	char a[48], b[48];
	value(r->median_a, r->unit, a, sizeof(a));
	value(r->median_b, r->unit, b, sizeof(b));
	return isfinite(r->change)
		       ? xasprintf("%s: %s -> %s (%+.1f%%)", r->key, a, b, 100 * r->change)
		       : xasprintf("%s: %s -> %s", r->key, a, b);
}

/* The status cell: the verdicts that carry the finding, with their numbers. */
static char *status_of(const struct finding *x)
{
	const struct comparison *c = x->cmp;
	const char *day = x->n_legs && x->legs[0]->start_time ? x->legs[0]->start_time : "?";
	char legs[COMPARE_MAX_LEGS * 2 + 8] = "A/B";
	char *s;
	if (!c->n_rounds) /* the legs as run: A/B/A', not a design it was not */
		kind_of(x, legs, sizeof(legs));
	s = xasprintf("%s%s (%.10s)", legs, comparison_trusted(c) ? "" : ", no trusted verdict",
		      day);
	size_t shown = 0;

	for (size_t i = 0; i < c->n_rows; i++) {
		const struct compare_row *r = &c->rows[i];
		char *nums, *t;
		if (r->control || (r->verdict != VERDICT_WIN && r->verdict != VERDICT_LOSS))
			continue;
		nums = row_numbers(r);
		t = xasprintf("%s%s %s %s", s, shown++ ? ";" : ":", verdict_name(r->verdict), nums);
		free(nums);
		free(s);
		s = t;
	}
	if (!shown) {
		char *t = xasprintf("%s: no WIN or LOSS (%zu ~, %zu without a verdict)", s,
				    c->summary.count[VERDICT_NOWIN],
				    c->n_rows - c->summary.count[VERDICT_NOWIN]);
		free(s);
		s = t;
	}
	return s;
}

/* "3 WIN, 0 LOSS; geomean 12.7x" */
static void impact_of(const struct finding *x, char *buf, size_t len)
{
	const struct compare_summary *s = &x->cmp->summary;
	int n = snprintf(buf, len, "%zu WIN, %zu LOSS of %zu metrics", s->count[VERDICT_WIN],
			 s->count[VERDICT_LOSS], x->cmp->n_rows);
	if (s->n_geomean && isfinite(s->geomean) && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; geomean %.3gx (>1: B better)", s->geomean);
}

/* The receipts of row r over the legs: each assumption once, "held" when it
 * held in every leg, else the first evidence against it. */
static char *receipts_of(const struct finding *x, const struct compare_row *r)
{
	json_t *seen = json_object();
	char *s = NULL;
	const char *k;
	json_t *v;

	for (size_t j = 0; j < x->n_legs; j++)
		for (size_t p = 0; p < x->legs[j]->n_probes; p++) {
			const struct probe_result *pr = &x->legs[j]->probes[p];
			for (size_t i = 0; strcmp(pr->name, r->probe) == 0 && i < pr->n_metrics;
			     i++) {
				const struct metric *m = &pr->metrics[i];
				char labels[256], key[512];
				size_t z;
				json_t *e;
				metric_labels_str(m, labels, sizeof(labels));
				snprintf(key, sizeof(key), "%s %s%s%s", pr->name, m->name,
					 *labels ? " " : "", labels);
				if (strncmp(r->key, key, strlen(key)) != 0)
					continue;
				json_array_foreach (m->receipts, z, e) {
					const char *as =
						json_string_value(json_object_get(e, "assumes"));
					const char *st =
						json_string_value(json_object_get(e, "state"));
					json_t *had = json_object_get(seen, as);
					if (!had || (strcmp(st, "held") &&
						     !strcmp(json_string_value(
								     json_object_get(had, "state")),
							     "held")))
						json_object_set(seen, as, e);
				}
			}
		}
	json_object_foreach (seen, k, v) {
		const char *st = json_string_value(json_object_get(v, "state"));
		char *t = xasprintf("%s%s%s: %s%s%s", s ? s : "", s ? "; " : "", k, st,
				    strcmp(st, "held") ? ", " : "",
				    strcmp(st, "held")
					    ? json_string_value(json_object_get(v, "evidence"))
					    : "");
		free(s);
		s = t;
	}
	json_decref(seen);
	return s ? s : xstrdup("-");
}

static void machine_of(const struct finding *x, FILE *f, enum report_format fmt)
{
	const json_t *h = x->n_legs ? x->legs[0]->host : NULL;
	const json_t *cpu = json_object_get(h, "cpu");
	char *m = xasprintf("%s: %s x%lld, kernel %s", report_jstr(h, "hostname"),
			    report_jstr(cpu, "model"),
			    (long long)json_integer_value(json_object_get(cpu, "online_cpus")),
			    report_jstr(h, "kernel"));
	put(f, fmt, m);
	free(m);
}

static void summary_table(const struct finding *fs, size_t n, enum report_format fmt, FILE *f)
{
	int html = fmt == REPORT_HTML;
	fputs(html ? "<h2>1. Summary</h2>\n<table>\n<tr><th>#</th><th>Finding</th><th>Kind</th>"
		     "<th>Impact</th><th>Status</th></tr>\n"
		   : "## 1. Summary\n\n| # | Finding | Kind | Impact | Status "
		     "|\n|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		char kind[64], impact[160], *status = status_of(&fs[i]);
		kind_of(&fs[i], kind, sizeof(kind));
		impact_of(&fs[i], impact, sizeof(impact));
		fprintf(f, html ? "<tr><td>%c</td><td>" : "| %c | ", (int)('A' + i % 26));
		put(f, fmt, title_of(&fs[i]));
		put_pair(f, fmt, &fs[i]);
		fputs(html ? "</td><td>" : " | ", f);
		put(f, fmt, kind);
		fputs(html ? "</td><td>" : " | ", f);
		put(f, fmt, impact);
		fputs(html ? "</td><td>" : " | ", f);
		put(f, fmt, status);
		fputs(html ? "</td></tr>\n" : " |\n", f);
		free(status);
	}
	if (html)
		fputs("</table>\n", f);
}

static void finding_section(const struct finding *x, size_t i, enum report_format fmt, FILE *f)
{
	int html = fmt == REPORT_HTML;
	const char *cmd = json_string_value(json_object_get(leg_record(x), "command"));

	fprintf(f, html ? "<h3>%c. " : "\n### %c. ", (int)('A' + i % 26));
	put(f, fmt, title_of(x));
	put_pair(f, fmt, x);
	fputs(html ? "</h3>\n<table>\n<tr><th>metric</th><th>A</th><th>B</th><th>change</th>"
		     "<th>verdict</th><th>receipts</th><th>moved with it</th></tr>\n"
		   : "\n\n| metric | A | B | change | verdict | receipts | moved with it |\n"
		     "|---|---:|---:|---:|---|---|---|\n",
	      f);
	for (size_t k = 0; k < x->cmp->n_rows; k++) {
		const struct compare_row *r = &x->cmp->rows[k];
		char a[48], b[48], chg[32] = "-", *rc = receipts_of(x, r);
		const char *cells[7];
		char verdict[512];
		if (r->verdict == VERDICT_MISSING)
			continue;
		value(r->median_a, r->unit, a, sizeof(a));
		value(r->median_b, r->unit, b, sizeof(b));
		if (isfinite(r->change))
			snprintf(chg, sizeof(chg), "%+.1f%%", 100 * r->change);
		snprintf(verdict, sizeof(verdict), "%s%s%s", verdict_name(r->verdict),
			 r->reason ? ": " : "", r->reason ? r->reason : "");
		cells[0] = r->key, cells[1] = a, cells[2] = b, cells[3] = chg;
		cells[4] = verdict, cells[5] = rc, cells[6] = r->mechanism ? r->mechanism : "-";
		fputs(html ? "<tr>" : "|", f);
		for (int c = 0; c < 7; c++) {
			fputs(html ? "<td>" : " ", f);
			put(f, fmt, cells[c]);
			fputs(html ? "</td>" : " |", f);
		}
		fputs(html ? "</tr>\n" : "\n", f);
		free(rc);
	}
	fputs(html ? "</table>\n<p>Machine: " : "\nMachine: ", f);
	machine_of(x, f, fmt);
	fputs(html ? ". Results: " : ". Results: ", f);
	put(f, fmt, x->dir);
	fputs(html ? " (compare.json, leg-N-*.json).</p>\n<p>Reproduce:</p>\n<pre>"
		   : " (compare.json, leg-N-*.json).\n\nReproduce:\n\n```\n",
	      f);
	if (html)
		report_html_text(
			f,
			cmd ? cmd
			    : "(not recorded: this ab ran before mempath kept its command line)");
	else {
		/* in a code block: markup shows as typed, controls as text */
		char *e = report_term_escape(
			cmd ? cmd
			    : "(not recorded: this ab ran before mempath kept its command line)");

		fputs(e, f);
		free(e);
	}
	fputs(html ? "</pre>\n" : "\n```\n", f);
}

int report_findings(const struct finding *fs, size_t n, enum report_format fmt, FILE *f)
{
	const char *title = n == 1 ? title_of(&fs[0]) : "mempath findings";
	if (fmt == REPORT_HTML) {
		html_page_begin(f, title);
		fputs("<h1>", f);
		report_html_text(f, title);
		fputs("</h1>\n", f);
	} else {
		fputs("# ", f);
		put(f, fmt, title);
		fputs("\n\n", f);
	}
	fputs(fmt == REPORT_HTML ? "<p>" : "", f);
	fputs("Every number below was measured by mempath ab on the machine named with it; the "
	      "legs of a finding are compared within one run, their order and rounds as the kind "
	      "says. A receipt is what a figure assumes and the evidence for it; the counters "
	      "moved with a WIN or LOSS are those whose every B window is beyond every A window.",
	      f);
	fputs(fmt == REPORT_HTML ? "</p>\n" : "\n\n", f);
	summary_table(fs, n, fmt, f);
	fputs(fmt == REPORT_HTML ? "<h2>2. Findings</h2>\n" : "\n## 2. Findings\n", f);
	for (size_t i = 0; i < n; i++)
		finding_section(&fs[i], i, fmt, f);
	if (fmt == REPORT_HTML)
		return html_page_end(f);
	return ferror(f) ? -1 : 0;
}
