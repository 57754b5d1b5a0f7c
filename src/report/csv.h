/* csv.h - a run as CSV: one row per metric. */
#ifndef MEMPATH_REPORT_CSV_H
#define MEMPATH_REPORT_CSV_H

#include "results/results.h"
#include <stdio.h>

int report_csv(const struct run *r, FILE *f);

#endif
