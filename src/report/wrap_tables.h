/* wrap_tables.h - a wrapped workload laid out as tiered-memory llama-bench
 * reports lay it out (docs/design.md §11.6): tokens/s per configuration
 * with the spread of llama-bench's repetitions and the ratio to the first
 * configuration; tokens/s per iteration (convergence); the counters of the
 * run per configuration: the command's own (its cgroup, its smaps) apart
 * from the machine-wide vmstat deltas.
 *
 * A column is one configuration: each llama-bench configuration of one
 * wrap file (mmap=0, mmap=1), or each leg of a comparison (times its
 * configurations). Everything comes from the runs' extra.iterations, as a
 * results file or a comparison file (legs[].wrap) records them.
 */
#ifndef MEMPATH_REPORT_WRAP_TABLES_H
#define MEMPATH_REPORT_WRAP_TABLES_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "report/format.h"

struct wrap_source {
	const char *name; /* the leg's name; NULL for a single wrap file */
	json_t *extra;	  /* the work.wrap probe's extra */
};

/* A reading of one run (an entry of extra.iterations) at a path: a, then
 * b and c when set, times scale. */
struct wrap_reading {
	const char *label, *unit, *a, *b, *c;
	double scale;
};
/* The command's own readings: its cgroup's, its smaps sampled. */
extern const struct wrap_reading wrap_readings[];
extern const size_t wrap_n_readings;
/* The reading r of iteration it, NAN when absent; r NULL: the load
 * estimate (wall time minus llama-bench's timed repetitions). */
double wrap_reading_at(json_t *it, const struct wrap_reading *r);

/* The tables in fmt (term, md or html). Nothing when no source holds a
 * workload value per iteration. */
void report_wrap_tables(const struct wrap_source *src, size_t n, enum report_format fmt, FILE *f);

#endif
