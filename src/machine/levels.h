/* levels.h - the machine's memory levels at one moment: MemAvailable,
 * MemFree, the per-CPU free page lists, and the GPU counters a driver may add
 * to /proc/meminfo. What `phantom` compares before and after a command, and
 * what the fingerprint records about the per-CPU lists.
 *
 * Per-CPU page lists (zoneinfo "pagesets" count:) are read too: freed pages
 * parked there are missing from MemFree for a while by design.
 */
#ifndef MEMPATH_LEVELS_H
#define MEMPATH_LEVELS_H

#include <stddef.h>
#include <stdint.h>

/* One reading; -1 for a level the kernel or driver does not report. */
struct levels {
	int64_t mem_available, mem_free; /* bytes, /proc/meminfo */
	int64_t pcp_bytes;		 /* per-CPU page lists: zoneinfo pagesets count: x page */
	int64_t gpu_active,
		gpu_reclaim; /* meminfo GPUActive / GPUReclaim where a driver adds them */
};

/* Pure: levels from meminfo and zoneinfo texts (zoneinfo may be NULL). */
void levels_parse(const char *meminfo, const char *zoneinfo, long page_bytes, struct levels *out);
/* Sum of "count:" lines under "pagesets" in a zoneinfo text; -1 if none. */
int64_t levels_zoneinfo_pcp_pages(const char *zoneinfo);
/* Reads the machine's levels now; with_pcp also reads /proc/zoneinfo (larger
 * and slower, so not in a sampling loop). Returns 0 or -1. */
int levels_read(struct levels *out, int with_pcp);
/* What `phantom` compares: MemAvailable plus the per-CPU lists. Pages freed
 * to a per-CPU list are free and handed out first, but MemFree and
 * MemAvailable count them only once the list drains; on 6.x kernels a list's
 * high mark is auto-tuned up to hundreds of MiB per CPU and decays over tens
 * of seconds (measured here: 0.7 GiB still on the lists 3 s after a 1 GiB
 * process exited, 7 MiB/s decay). That is the kernel's, bounded and not a
 * leak; a driver pool is neither. */
int64_t levels_returnable(const struct levels *l);
/* Field-by-field median of n readings (at most 16 are used). */
void levels_median(const struct levels *r, size_t n, struct levels *out);

#endif
