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
void report_term_probe(const json_t *host, const struct probe_result *p, FILE *f);

#endif
