/* doctor.h - known traps of a machine, each with the evidence read and the fix.
 *
 * The rules read a fingerprint only (sysinfo_collect's object, or the "host"
 * of any results file), never the machine, so the same rules explain a file
 * recorded elsewhere and are tested on fixture fingerprints. Every rule gives
 * exactly one finding, also when nothing is wrong, so a report shows what was
 * checked and what could not be.
 */
#ifndef MEMPATH_DOCTOR_H
#define MEMPATH_DOCTOR_H

#include <jansson.h>
#include <stddef.h>

#include "machine/finding.h"

/* Runs every rule on a fingerprint. Returns 0, or -1 if host is not an object. */
int doctor_check(const json_t *host, struct doctor_report *out);
void doctor_report_free(struct doctor_report *r);
/* "warn", "info", "ok", "n/a", "unknown"; and back (0 or -1). */
const char *doctor_level_name(enum doctor_level l);
int doctor_level_parse(const char *s, enum doctor_level *out);
/* The cost measurement of rule id, or NULL when none measures it. */
const struct doctor_cost *doctor_cost_of(const char *id);
/* Sets f->measured from the probe's result: the two medians and the factor
 * the trap costs. Returns 0, or -1 when the probe did not give both cells
 * (measured then says why). */
struct probe_result;
int doctor_cost_read(const struct doctor_cost *c, struct probe_result *res,
		     struct doctor_finding *f);

/* Bytes of RAM in no /proc/meminfo counter, from the fingerprint's "memory"
 * object: MemTotal minus free, LRU, slab, stacks, page tables, per-CPU,
 * vmalloc, hugetlb, zswap, balloon, per-CPU free lists, the ZFS ARC and
 * self-reported driver pools. Sets *have to 0 (and returns 0) when the
 * fingerprint lacks the counters. */
long long doctor_unaccounted_bytes(const json_t *memory, int *have);

#endif
