/* compare_json.h - a comparison as JSON (schema mempath/compare/1) and back. */
#ifndef MEMPATH_VERDICT_COMPARE_JSON_H
#define MEMPATH_VERDICT_COMPARE_JSON_H

#include <jansson.h>

#include "verdict/comparison.h"

/* The comparison as JSON, a new reference. */
json_t *comparison_to_json(const struct comparison *c);
/* Rebuilds a comparison from its JSON, strictly: what the writers print
 * (legs, rows with medians, change, CI, p values, verdicts, reasons, moved
 * controls, knobs, notes, summary) comes from the file as written, nothing is
 * recomputed and the legs' results files are not opened. Returns a new
 * comparison that owns everything (c->owned), or NULL after one error line
 * naming `what` (e.g. the path) and the JSON path of the fault. */
struct comparison *comparison_from_json(json_t *j, const char *what);

#endif
