/* wrap.h - the orchestration of `mempath wrap`: a command run W + N times as
 * a measurement, each run one sample of every metric (workload/workload.c
 * records it) in a cgroup of its own where the machine allows
 * (workload/cgroup.h), machine-wide counters, meminfo and numastat around
 * the whole. Prints nothing but progress; report/wrap.c renders what it
 * recorded. */
#ifndef MEMPATH_FLOW_WRAP_H
#define MEMPATH_FLOW_WRAP_H

#include <stddef.h>

#include "results/results.h"
#include "workload/workload_parse.h"

struct wrap_plan {
	char *const *argv; /* the command as typed ("{}" marks where args go) */
	size_t argc;
	/* Words put where the command's "{}" is, or at its end when it has
	 * none (docs/design.md §11.5); n_args 0 with args NULL: none given. */
	char *const *args;
	size_t n_args;
	unsigned n, warmup; /* counted runs, warm-up runs before them */
	unsigned timeout_s; /* per run; 0: none */
	unsigned sample_ms; /* smaps and cgroup sizes sampled this often; 0: never */
	int no_cgroup;	    /* run in our own cgroup even where one per run is possible */
	enum workload_parse mode;
	int verbose; /* the command's output to stderr as it runs */
};

/* Runs the plan into res (initialised here as probe "work.wrap"; its status
 * says which runs failed or that it was interrupted). Returns the number of
 * counted runs that failed, or -1 when a run could not be started (error
 * printed). */
int wrap_flow(const struct wrap_plan *plan, struct probe_result *res);
/* The knobs a wrap adds to its run (§11.2): "llama.<field>" for each of
 * llama-bench's settings it read, "wrap.args" for the args given; a new
 * object, or NULL when there are none. */
json_t *wrap_knobs(const struct probe_result *res);

#endif
