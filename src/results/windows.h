/* windows.h - in a results file, what each counted sample's window was: its
 * start and end ("t") and the other CPUs busy over it ("busy"), and why
 * --reps auto stopped ("stop"); docs/design.md §4.14, §4.16. */
#ifndef MEMPATH_RESULTS_WINDOWS_H
#define MEMPATH_RESULTS_WINDOWS_H

#include <jansson.h>

#include "results/results.h"

/* Adds "t" (when `timed` and m has windows), "busy" and "stop" to o. */
void metric_windows_to_json(const struct metric *m, int timed, json_t *o);
/* Reads "t" and "busy" of metric object j into m (samples read already);
 * each optional, each with one entry per sample (null: unknown). 0, or -1
 * with *field naming the one at fault. */
int metric_windows_from_json(json_t *j, struct metric *m, const char **field);

/* m without its void samples: a new metric whose samples, windows, loads
 * and counters are those of the kept samples, in order; its name, labels,
 * desc, stop and receipts are m's (borrowed: m must outlive it). Freed by
 * metric_kept_free. */
struct metric *metric_kept(const struct metric *m);
void metric_kept_free(struct metric *k);

#endif
