/* fleet_judge.h - the verdicts of a fleet (docs/design.md §5.9): nodes grouped
 * by kind, each metric judged against the node's peers (robust.h) in groups
 * large enough, and every node against the reference values of its kind
 * (reference.h). Fills the groups, flags and checks of a fleet model
 * (results/fleet.h). */
#ifndef MEMPATH_VERDICT_FLEET_JUDGE_H
#define MEMPATH_VERDICT_FLEET_JUDGE_H

#include <jansson.h>

#include "results/fleet.h"
#include "verdict/reference.h"

/* The kind of a machine from its fingerprint: CPU model and count, memory
 * (MemTotal to the nearest GiB), GPU model and count, driver version.
 * "AMD EPYC x2, 24 GiB, no GPU". New string. */
char *fleet_kind_key(json_t *host);
/* Judges every node of f (verdicts there before are dropped); refs may be
 * NULL (no reference values). */
void fleet_judge(struct fleet *f, const struct ref_set *refs);

#endif
