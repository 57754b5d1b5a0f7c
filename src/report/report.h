/* report.h - writers that render a run: one file per format. Writers print,
 * probes record; none of these measure or change anything. */
#ifndef MEMPATH_REPORT_H
#define MEMPATH_REPORT_H

#include <stdio.h>

#include "results/results.h"

enum report_format { REPORT_TERM, REPORT_MD, REPORT_JSON, REPORT_CSV, REPORT_HTML };

/* "term" | "md" | "json" | "csv" | "html" -> format; 0 or -1 (no print). */
int report_format_parse(const char *s, enum report_format *out);
/* Renders r to f. Returns 0 or -1. */
int report_write(const struct run *r, enum report_format fmt, FILE *f);

int report_term(const struct run *r, FILE *f);
int report_md(const struct run *r, FILE *f);
int report_json(const struct run *r, FILE *f);
int report_csv(const struct run *r, FILE *f);
/* html.c: one self-contained HTML5 page (inline CSS and SVG, no scripts):
 * md.c's facts, matrices shaded by value, bar charts of medians with p5-p95
 * whiskers where a metric has several label sets. */
int report_html(const struct run *r, FILE *f);

/* compare.c: a comparison (core/compare.h) as a terminal table, Markdown,
 * JSON (schema mempath/compare/1) or CSV: one row per metric with key, unit,
 * better, each leg's median, change, ci_lo, ci_hi (fractions), p_adjusted,
 * verdict id and control (no, yes, moved); undefined numbers are empty. */
struct comparison;
int report_compare_term(const struct comparison *c, FILE *f);
int report_compare_md(const struct comparison *c, FILE *f);
int report_compare_json(const struct comparison *c, FILE *f);
int report_compare_csv(const struct comparison *c, FILE *f);
/* html.c: the Markdown facts as one HTML5 page, verdicts coloured, and a
 * forest plot of each metric's change with its CI and practical threshold. */
int report_compare_html(const struct comparison *c, FILE *f);
int report_compare_write(const struct comparison *c, enum report_format fmt, FILE *f);
/* compare.c, shared with html.c so both say the same thing: a leg's median
 * cell ("2.39 GiB/s", with_change adds " (+19.9%)" for a B leg), the verdict
 * cell ("LOSS (control MOVED): reason"), a change "+19.9%", the CI
 * "[+19.1, +21.4]%" and a p value, each "-" when undefined; the Holm family
 * size; the rules line (prefix first, newline last); the heading over the
 * differing knobs (NULL when none differ). */
struct compare_row;
void report_compare_cell(const struct comparison *c, const struct compare_row *row, size_t j,
			 char *buf, size_t len, int with_change);
void report_compare_verdict(const struct compare_row *row, int with_reason, char *buf, size_t len);
void report_compare_pct(double v, char *buf, size_t len);
void report_compare_ci(const struct compare_row *row, char *buf, size_t len);
void report_compare_p(double p, char *buf, size_t len);
size_t report_compare_family(const struct comparison *c);
void report_compare_rules(const struct comparison *c, FILE *f, const char *prefix);
const char *report_compare_knob_heading(const struct comparison *c);
/* csv.c: one RFC 4180 field (quoted when it holds a comma, quote or newline). */
void report_csv_field(FILE *f, const char *s);

/* Shared by writers: text as one Markdown table cell ('|' escaped, newlines
 * as spaces). */
void report_md_cell(FILE *f, const char *s);
/* html.c: s as HTML text or attribute value, & < > " ' escaped (NULL prints
 * nothing). Every string that came from a file goes through it. */
void report_html_text(FILE *f, const char *s);
/* Shared by writers: the string o[key], or "?" when absent or not a string. */
const char *report_jstr(const json_t *o, const char *key);
/* Shared by writers: a value with a sensible number of significant digits. */
void report_fmt_value(double v, char *buf, size_t len);

/* doctor.c: a doctor report (core/doctor.h) for the fingerprint `host`, read
 * from `source` ("this machine" or a file) at `time`: term, md, or JSON
 * (schema mempath/doctor/1: findings, counts per level, the host, and with
 * --measure the run of the probes that measured the costs). */
struct doctor_report;
struct doctor_doc {
	const struct doctor_report *report;
	const json_t *host;
	const char *source, *time;
	const struct run *run; /* doctor --measure: the probes it ran, else NULL */
};
int report_doctor_term(const struct doctor_doc *d, FILE *f);
int report_doctor_md(const struct doctor_doc *d, FILE *f);
int report_doctor_json(const struct doctor_doc *d, FILE *f);
json_t *report_doctor_to_json(const struct doctor_doc *d);
int report_doctor_write(const struct doctor_doc *d, enum report_format fmt, FILE *f);
/* The doctor's warnings for a run's fingerprint, one line each (term, md,
 * html list items), for the header of a results report; nothing when none. */
void report_doctor_traps(const json_t *host, enum report_format fmt, FILE *f);

#endif
