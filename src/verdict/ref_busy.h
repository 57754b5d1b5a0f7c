/* src/verdict/ref_busy.h - reference checks judged with the load their
 * probe's noise meter saw (docs/design.md §4.14). */
#ifndef MEMPATH_VERDICT_REF_BUSY_H
#define MEMPATH_VERDICT_REF_BUSY_H

#include <jansson.h>

#include "results/fleet.h"

/* A WARN or FAIL whose probe's noise meter (its results' "noise") saw other
 * CPUs busy: INCONCLUSIVE "busy: X of N other CPUs" where that load can
 * explain the deviation, else the same status with the load named. */
void ref_judge_busy(struct fleet_check *c, const json_t *noise);

/* "busy: X of N CPUs used by other work" where the noise meter saw other
 * CPUs busy (at least NOISE_BUSY_CPUS), else NULL (new string). */
char *ref_busy_text(const json_t *noise);

#endif
