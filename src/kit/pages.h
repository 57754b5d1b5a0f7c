/* pages.h - a CPU probe's page-size rows (machine/pagesize.h, docs/design.md
 * §4.21): pages= parsed against the sizes this kernel offers, the knobs a
 * size needs set for its rows and put back after them, and what really
 * backed the buffer recorded beside each row (backed_at_size, checked by
 * the RECEIPT_PAGESIZE receipt: a row not backed at its size is marked,
 * never reported as that size).
 */
#ifndef MEMPATH_KIT_PAGES_H
#define MEMPATH_KIT_PAGES_H

#include "kit/probe.h"
#include "machine/pagesize.h"

/* Is this a row with a size asked (mTHP, hugetlb): one that gets
 * backed_at_size? */
int pages_sized(const struct pagesize *ps);
/* pages= into ps[PAGESIZE_MAX]; 0, or PROBE_FAIL with the status set. */
int pages_parse(struct probe_ctx *ctx, const char *spec, struct pagesize *ps, size_t *n);
/* Before a size's rows, for a buffer of `bytes`: PROBE_OK to measure them,
 * PROBE_SKIP to leave them out (a hugetlb size below one page or without
 * pages; the param pages_<name> says why), PROBE_FAIL (status set). The param also
 * says what was set, or that it could not be (not root). */
int pages_begin(struct probe_ctx *ctx, const struct pagesize *ps, uint64_t bytes);
/* After them: the knobs put back; 0, or PROBE_FAIL (status set). */
int pages_end(struct probe_ctx *ctx, const struct pagesize *ps);
/* An mTHP size's anon_fault_alloc now (UINT64_MAX: not one, or no stats). */
uint64_t pages_allocs(const struct pagesize *ps);
/* MiB of b in folios of at least ps's size (NAN: unknown): the page table
 * where it can be read, else for mTHP the size's allocations since allocs0
 * (system-wide: at most the buffer counted), for hugetlb the mapping itself
 * (MAP_HUGETLB is its pool's or faults). *source says which. */
double pages_backed_mib(const struct pagesize *ps, const struct mem_buf *b, uint64_t allocs0,
			const char **source);
/* Params backing_<name> (the source) and faults_expected_<name>. */
void pages_note(struct probe_ctx *ctx, const struct pagesize *ps, const char *source);

#endif
