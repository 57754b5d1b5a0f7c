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

/* The load a probe's noise meter saw: its other busy CPUs (other + steal,
 * the mean over the probe) and the machine's CPUs (0: not recorded); 1 where
 * it saw at least NOISE_BUSY_CPUS, else 0. */
int ref_busy_load(const json_t *noise, double *other, long *cpus);
/* "busy: X of N CPUs used by other work"; a new string. */
char *ref_busy_text(double other, long cpus);
/* A peer flag (fleet_judge) on a node whose noise meter saw load: where
 * (1 + other) x (1 + 2 x threshold) explains its distance from the group
 * median, fl->busy says so (busy, not slow) and why ends with it; beyond
 * that, why names the load. Nothing when the node ran quiet. */
void ref_flag_busy(struct fleet_flag *fl, const json_t *noise);
/* ref_busy_text of the load a noise meter saw where it saw at least
 * NOISE_BUSY_CPUS, else NULL (new string). */
char *ref_busy_note(const json_t *noise);

#endif
