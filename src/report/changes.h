/* changes.h - the change points of kept series (store/history.h), as
 * `history trend --changepoints` and `history check --changepoints` print
 * them: per series its segments (runs, dates, median) and between them each
 * change with its size, CI, p and what changed in the fingerprint. */
#ifndef MEMPATH_REPORT_CHANGES_H
#define MEMPATH_REPORT_CHANGES_H

#include <stdio.h>

#include "store/history.h"

/* The segments and changes of each series; with only_worse, only series
 * whose newest segment is worse than the one before, and only that change. */
void report_changes_term(FILE *f, const char *probe, const char *metric, const char *unit,
			 const char *better, const struct history_series *s, size_t n,
			 int only_worse);
/* One CSV row a change (header first when header is set). */
void report_changes_csv(FILE *f, const char *probe, const char *metric, const char *unit,
			const struct history_series *s, size_t n, int header);
/* Whether series s's newest segment is worse than the one before. */
int report_changes_newest_worse(const struct history_series *s);

#endif
