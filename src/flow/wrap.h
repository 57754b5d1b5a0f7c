/* wrap.h - the orchestration of `mempath wrap`: a command run W + N times as
 * a measurement, each run one sample of every metric (workload/workload.c
 * records it), machine-wide counters, meminfo and numastat around the whole.
 * Prints nothing but progress; report/wrap.c renders what it recorded. */
#ifndef MEMPATH_FLOW_WRAP_H
#define MEMPATH_FLOW_WRAP_H

#include <stddef.h>

#include "results/results.h"
#include "workload/workload_parse.h"

struct wrap_plan {
	char *const *argv; /* the command */
	size_t argc;
	unsigned n, warmup; /* counted runs, warm-up runs before them */
	unsigned timeout_s; /* per run; 0: none */
	enum workload_parse mode;
	int verbose; /* the command's output to stderr as it runs */
};

/* Runs the plan into res (initialised here as probe "work.wrap"; its status
 * says which runs failed or that it was interrupted). Returns the number of
 * counted runs that failed, or -1 when a run could not be started (error
 * printed). */
int wrap_flow(const struct wrap_plan *plan, struct probe_result *res);

#endif
