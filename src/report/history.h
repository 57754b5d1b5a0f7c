/* history.h - the tables of `mempath history list` and `history trend`, and
 * its one-line messages, in the formats that have them (report.h's writer
 * table: term, csv and html). Every string came from a results file someone else
 * may have written, so each is escaped for its format here, as every other
 * writer escapes. */
#ifndef MEMPATH_REPORT_HISTORY_H
#define MEMPATH_REPORT_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/history.h"

enum history_table_kind {
	HISTORY_TABLE_RUNS,  /* history list */
	HISTORY_TABLE_TREND, /* history trend: one metric's medians */
};

struct history_table {
	enum history_table_kind kind;
	const struct history_run *runs; /* RUNS */
	size_t n_runs;
	const char *probe, *metric, *unit, *better; /* TREND */
	const struct history_point *points;
	size_t n_points;
};

int report_history_term(const struct history_table *t, FILE *f);
int report_history_csv(const struct history_table *t, FILE *f);
/* A page: a trend's medians as lines (one a label set, p5-p95 bands) and its
 * points as a table; a list as its table (html_history.c). */
int report_history_html(const struct history_table *t, FILE *f);

/* "added run 3: stock.json (stock, 2026-12-01T10:00:00Z)" (dup: "already
 * kept as run 3: ..."), the file's label and start escaped. */
void report_history_added(FILE *f, int64_t id, int dup, const char *path, const char *label,
			  const char *start_time);
/* "run 3 (stock, 2026-...) is the baseline of machine kind 'K'", or "runs
 * 3, 4, 5 (3 runs) are ..." when there is more than one (label, start_time
 * then unused). */
void report_history_blessed(FILE *f, const int64_t *ids, size_t n, const char *label,
			    const char *start_time, const char *kind);

#endif
