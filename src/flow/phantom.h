/* phantom.h - the orchestration of `mempath phantom`: the levels before, a
 * holder and a memory hog when asked, K cycles of the command (each watched
 * until its memory comes back or the settle time passes), the levels after,
 * the kernel log; all of it recorded into one probe result ("work.phantom",
 * its verdict a parameter), which report/phantom.c renders. Prints nothing
 * but progress. */
#ifndef MEMPATH_FLOW_PHANTOM_H
#define MEMPATH_FLOW_PHANTOM_H

#include <stdint.h>

#include "results/results.h"
#include "workload/phantom.h"

struct phantom_plan {
	struct phantom_spec sp;
	uint64_t hog;		       /* bytes of host memory kept hot, 0: none */
	const char *holder;	       /* as given: a shell command, cpu:SIZE or gpu:SIZE */
	enum phantom_kind holder_kind; /* PHANTOM_CMD, PHANTOM_HOG (cpu:) or PHANTOM_GPU */
	uint64_t holder_size;
	unsigned churn; /* cycles */
};

/* "cpu 512M", "gpu 64G", or the command line: the configuration's name. */
void phantom_describe(const struct phantom_spec *sp, char *buf, size_t len);
/* Runs the plan into res (initialised here). Returns the verdict: "PASS",
 * "FAIL", "SKIP" (the built-in child cannot run here), "ERROR" (it did not
 * run, or the levels cannot be read) or "INTERRUPTED". */
const char *phantom_flow(const struct phantom_plan *plan, struct probe_result *res);

#endif
