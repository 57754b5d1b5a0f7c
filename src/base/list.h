/* list.h - comma-separated lists in probe options: thread counts, sizes and
 * device numbers.
 *
 * Option rows carry these as OPT_STR text (opt.h has no list-of-numbers type);
 * the probe parses them at run time with the helpers below so every probe
 * spells "threads=1,2,max" and "spans=1G,4G" the same way; thread lists are
 * OPT_CPUS rows, checked against the CPUs here when the option is set. Pure
 * apart from list_cpus_here(); nothing prints.
 */
#ifndef MEMPATH_LIST_H
#define MEMPATH_LIST_H

#include <stddef.h>
#include <stdint.h>

#define LIST_MAX 64

/* The CPUs this process may run on (its affinity mask; 1 if unreadable). */
unsigned list_cpus_here(void);

/* Thread counts: "1,2,8", "max" (all CPUs the process may use) or "all"
 * (1, 2, 4, ... powers of two below max, then max). Values are deduplicated
 * and sorted; counts above max_cpus are dropped and counted in *n_dropped.
 * Returns 0, or -1 on a malformed or empty list. */
int list_parse_threads(const char *spec, unsigned max_cpus, unsigned *out, size_t *n_out,
		       unsigned *n_dropped);

/* An OPT_CPUS row's check: NULL when spec is a good thread list with at
 * least one count that fits the CPUs here, else why not (in why). Pinned
 * threads take one CPU each, so 99 threads on 2 CPUs would measure
 * nothing that was asked for (docs/design.md §6.5). */
const char *list_check_threads(const char *spec, char *why, size_t len);

/* Sizes with suffixes as opt_parse_size takes them: "256M,1G". Zero entries
 * are rejected. Kept in the order given (duplicates removed). Returns 0 or -1. */
int list_parse_sizes(const char *spec, uint64_t *out, size_t *n_out);

/* A size sweep: `steps` points per doubling from min to max, each a
 * multiple of 64 B (from 4 KiB up), max itself always the last; at most cap
 * points; how many. */
size_t list_sweep_sizes(uint64_t min, uint64_t max, unsigned steps, uint64_t *out, size_t cap);

/* Row checks (opt.h's OPT_STR_CHECK): NULL when spec is good, else why
 * not (in why). Sizes: as list_parse_sizes. A CPU pair: "auto" or two
 * different CPU numbers "A,B". */
const char *list_check_sizes(const char *spec, char *why, size_t len);
/* The same list read as counts (threads per block, loads in flight): said
 * as numbers, not sizes. */
const char *list_check_numbers(const char *spec, char *why, size_t len);
const char *list_check_cpu_pair(const char *spec, char *why, size_t len);

/* Device numbers: "all" (0 .. count-1, at most LIST_MAX) or distinct numbers
 * below count, "0,1,3", kept in the order given. Returns 0, or -1 on a
 * malformed list, a repeated or absent device, or an empty result. */
int list_parse_devices(const char *spec, int count, int *out, size_t *n_out);

#endif
