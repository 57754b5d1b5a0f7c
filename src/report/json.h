/* json.h - a run as its results file, pretty-printed. */
#ifndef MEMPATH_REPORT_JSON_H
#define MEMPATH_REPORT_JSON_H

#include "results/results.h"
#include <stdio.h>

int report_json(const struct run *r, FILE *f);

#endif
