/* fleet_json.h - the fleet model <-> JSON (jansson), schema mempath/fleet/1
 * (docs/schema.md). Each node's run is a mempath/run/1 object read by the
 * results reader (results_json.h), so its summaries are recomputed from the
 * raw samples. Reading is strict: a corrupt file gives one error line naming
 * the file and the JSON path. Writing streams node by node, so a fleet of
 * thousands of nodes is never one JSON tree in memory. */
#ifndef MEMPATH_RESULTS_FLEET_JSON_H
#define MEMPATH_RESULTS_FLEET_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "results/fleet.h"

/* One reference check as JSON; new reference. */
json_t *fleet_check_to_json(const struct fleet_check *c);
/* One node as JSON (its run included); new reference. */
json_t *fleet_node_to_json(const struct fleet_node *n);
/* The whole file to f. 0, or -1 after an error line. */
int fleet_write(const struct fleet *fl, FILE *f);
/* Atomically to path. 0, or -1 after an error line. */
int fleet_write_file(const struct fleet *fl, const char *path);
/* A new fleet, or NULL after one error line naming `what`. */
struct fleet *fleet_from_json(json_t *j, const char *what);

#endif
