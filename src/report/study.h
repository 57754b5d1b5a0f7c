/* study.h - a study (verdict/study.h) as a terminal table, Markdown, JSON
 * (schema mempath/study/1: its variants, family, tables, and each
 * comparison as mempath/compare/1) or an HTML page with a bar per variant
 * and its CI, and the convergence curves (docs/design.md §5.22). */
#ifndef MEMPATH_REPORT_STUDY_H
#define MEMPATH_REPORT_STUDY_H

#include <stdio.h>

#include "report/format.h"
#include "verdict/study.h"

#define STUDY_SCHEMA "mempath/study/1"

int report_study_term(const struct study *s, FILE *f);
int report_study_md(const struct study *s, FILE *f);
int report_study_json(const struct study *s, FILE *f);
/* The JSON document, a new reference (findings reads it). */
json_t *report_study_to_json(const struct study *s);
int report_study_html(const struct study *s, FILE *f);
/* In fmt (term, md, json, html) to f, or to path (NULL: stdout); 0 or -1
 * after an error line. */
int report_study_write(const struct study *s, enum report_format fmt, FILE *f);
int report_study_write_file(const struct study *s, enum report_format fmt, const char *path);

#endif
