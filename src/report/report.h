/* report.h - writers that render a run: one file per format. Writers print,
 * probes record; none of these measure or change anything. */
#ifndef MEMPATH_REPORT_H
#define MEMPATH_REPORT_H

#include <stdio.h>

#include "../core/results.h"

enum report_format { REPORT_TERM, REPORT_MD, REPORT_JSON, REPORT_CSV };

/* "term" | "md" | "json" | "csv" -> format; 0 or -1 (no print). */
int report_format_parse(const char *s, enum report_format *out);
/* Renders r to f. Returns 0 or -1. */
int report_write(const struct run *r, enum report_format fmt, FILE *f);

int report_term(const struct run *r, FILE *f);
int report_md(const struct run *r, FILE *f);
int report_json(const struct run *r, FILE *f);
int report_csv(const struct run *r, FILE *f);

/* compare.c: a comparison (core/compare.h) as a terminal table, Markdown,
 * JSON (schema mempath/compare/1) or CSV: one row per metric with key, unit,
 * better, each leg's median, change, ci_lo, ci_hi (fractions), p_adjusted,
 * verdict id and control (no, yes, moved); undefined numbers are empty. */
struct comparison;
int report_compare_term(const struct comparison *c, FILE *f);
int report_compare_md(const struct comparison *c, FILE *f);
int report_compare_json(const struct comparison *c, FILE *f);
int report_compare_csv(const struct comparison *c, FILE *f);
int report_compare_write(const struct comparison *c, enum report_format fmt, FILE *f);
/* csv.c: one RFC 4180 field (quoted when it holds a comma, quote or newline). */
void report_csv_field(FILE *f, const char *s);

/* Shared by writers: text as one Markdown table cell ('|' escaped, newlines
 * as spaces). */
void report_md_cell(FILE *f, const char *s);
/* Shared by writers: a value with a sensible number of significant digits. */
void report_fmt_value(double v, char *buf, size_t len);

#endif
