/* compare.h - a comparison (verdict/compare.h) as a terminal table, Markdown,
 * JSON (schema mempath/compare/1) or CSV: one row per metric with key, unit,
 * better, each leg's median, change, ci_lo, ci_hi (fractions), p_adjusted,
 * verdict id and control (no, yes, moved); undefined numbers are empty. */
#ifndef MEMPATH_REPORT_COMPARE_H
#define MEMPATH_REPORT_COMPARE_H

#include "verdict/compare.h"
#include <stdio.h>

int report_compare_term(const struct comparison *c, FILE *f);
int report_compare_md(const struct comparison *c, FILE *f);
int report_compare_json(const struct comparison *c, FILE *f);
int report_compare_csv(const struct comparison *c, FILE *f);

#endif
