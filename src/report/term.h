/* term.h - a run as the terminal table: one block per probe, one row per
 * metric, matrices for src/dst cells. */
#ifndef MEMPATH_REPORT_TERM_H
#define MEMPATH_REPORT_TERM_H

#include "results/results.h"
#include <stdio.h>

int report_term(const struct run *r, FILE *f);

#endif
