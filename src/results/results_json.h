/* results_json.h - results model <-> JSON (jansson), schema "mempath/run/1".
 *
 * Reading validates structure and types and recomputes every summary from the
 * raw samples; a corrupt or truncated file yields -1 with one error line that
 * names the file and what is wrong. Writing is atomic (tmp + rename).
 */
#ifndef MEMPATH_RESULTS_JSON_H
#define MEMPATH_RESULTS_JSON_H

#include <jansson.h>

#include "results/results.h"

json_t *run_to_json(const struct run *r);
/* Returns a new run or NULL (error printed, naming `what`, e.g. the path). */
struct run *run_from_json(json_t *j, const char *what);

json_t *probe_result_to_json(const struct probe_result *p);
int probe_result_from_json(json_t *j, struct probe_result *out, const char *what);

/* Parses a JSON file (duplicate keys refused) for any of mempath's schemas:
 * a new reference, or NULL after one error line naming the path. */
json_t *results_load_file(const char *path);
/* The same, and the file's bytes (NUL-terminated, caller frees) into *text
 * when it parsed (else NULL). */
json_t *results_load_file_text(const char *path, char **text);

int run_write_file(const struct run *r, const char *path);
struct run *run_read_file(const char *path);

#endif
