/* phantom.h - a phantom check (probe "work.phantom", from `mempath phantom`)
 * as the command prints it: the levels before, lowest and after, how long the
 * memory took to come back, the cycles, the kernel log, the acceptance row
 * and the result; from the results file alone (extra.phantom), in term, md
 * and html. */
#ifndef MEMPATH_REPORT_PHANTOM_H
#define MEMPATH_REPORT_PHANTOM_H

#include <stdio.h>

#include "report/format.h"
#include "results/results.h"

/* 1 when p is a phantom check's result written with its table's facts. */
int report_is_phantom(const struct probe_result *p);
void report_phantom(const struct probe_result *p, enum report_format fmt, FILE *f);

#endif
