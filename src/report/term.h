/* term.h - a run as the terminal table: one block per probe, one row per
 * metric, matrices for src/dst cells. */
#ifndef MEMPATH_REPORT_TERM_H
#define MEMPATH_REPORT_TERM_H

#include "results/results.h"
#include <stdio.h>

int report_term(const struct run *r, FILE *f);
/* Its pieces, for a table printed as the run goes (report.h): the first
 * lines (version, host, the doctor's traps), the state (incomplete,
 * interrupted), one probe's block. */
void report_term_head(const struct run *r, FILE *f);
void report_term_state(const struct run *r, FILE *f);
/* One probe's block (host: the run's, for the figures' limits); same_as: the
 * first probe of the run before it that was skipped for the same reason (its
 * reason is not repeated), or NULL. */
void report_term_probe(const json_t *host, const struct probe_result *p, const char *same_as,
		       FILE *f);
/* The name of the first of the skips right before probe i with its reason,
 * when probe i is such a skip; else NULL. */
const char *report_term_same_skip(const struct run *r, size_t i);

#endif
