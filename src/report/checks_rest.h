/* checks_rest.h - check's figures that no path of the kind names (rest
 * checks, verdict/ref_rest.h), after the paths. */
#ifndef MEMPATH_REPORT_CHECKS_REST_H
#define MEMPATH_REPORT_CHECKS_REST_H

#include <stdio.h>

#include "report/format.h"
#include "results/fleet.h"

/* A line each (status, value and why), then their counts; term or md;
 * nothing where there are none. */
void report_checks_rest(const struct fleet_check *c, size_t n, enum report_format fmt, FILE *f);

#endif
