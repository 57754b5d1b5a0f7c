/* fleet.h - the orchestration of `mempath fleet`: one rank per node through
 * MPI (exec/mpi.h), each node's probes run by a session in its host's turn,
 * every run gathered once at rank 0 and judged (verdict/fleet_judge.h); and
 * `fleet merge`: the same fleet from results files written elsewhere (a
 * Slurm array, an ssh loop, a job writing to shared storage). Prints nothing
 * but progress; report/fleet.c renders the fleet. */
#ifndef MEMPATH_FLOW_FLEET_H
#define MEMPATH_FLOW_FLEET_H

#include <stddef.h>

#include "exec/runner.h"
#include "kit/probe.h"
#include "results/fleet.h"
#include "verdict/reference.h"

/* A probe to run on every node and the options it gets. */
struct fleet_item {
	const struct probe *probe;
	char **kvs; /* "name=value" */
	size_t n_kvs;
};

struct fleet_plan {
	const struct fleet_item *items;
	size_t n_items;
	struct runner_opts ropts;
	const char *suite, *label; /* recorded in every node's run */
	const char *node_dir;	   /* each node also writes DIR/<host>-<rank>.json; or NULL */
	int argc;		   /* the command line, recorded */
	char **argv;
	struct fleet_thresholds th;
	const struct ref_set *refs; /* may be NULL */
};

/* Runs the plan on this rank. Rank 0 gets the judged fleet in *out; the
 * other ranks get NULL. Returns 0, or -1 after an error line (no MPI built
 * in, MPI would not start, a message was lost). */
int fleet_flow_mpi(const struct fleet_plan *plan, struct fleet **out);

/* A fleet from results files: each argument FILE or NAME=FILE (the node's
 * name; default its host name). The fleet is judged. NULL after one error
 * line (a file that is not a results file, one run given twice, two nodes
 * of one name). */
struct fleet *fleet_flow_merge(char *const *args, size_t n, const struct fleet_thresholds *th,
			       const struct ref_set *refs, int argc, char **argv);

#endif
