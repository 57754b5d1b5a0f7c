/* sysinfo.h - the machine's fingerprint, knobs and noise context.
 *
 * The fingerprint is what a results file needs to be interpreted later
 * (kernel, CPU, caches, NUMA, THP, cpuidle, IOMMU, GPU ...). Knobs are the
 * settings a comparison must check are equal between legs; they are read at
 * the start and again at the end of a run. Every reader tolerates a missing
 * file: an absent fact is absent from the object, never invented.
 */
#ifndef MEMPATH_SYSINFO_H
#define MEMPATH_SYSINFO_H

#include <jansson.h>

/* Full fingerprint, including "knobs" and, when a GPU is usable, "gpu". The
 * GPU part is collected in a child process so this process never creates a
 * GPU context (children forked later must be able to). */
json_t *sysinfo_collect(void);
/* The part of a fingerprint a recorded tree holds (tests, a lab guest's
 * copy): hostname, kernel and cmdline from root/proc, "iommu", "pcie" and
 * their knobs from root/sys; nothing of the machine running it. */
json_t *sysinfo_collect_tree(const char *root);
/* The knobs alone: THP enabled/defrag/khugepaged, numa_balancing, swappiness,
 * governor, cpuidle states disabled, zone_reclaim, the peer-to-peer knobs of
 * pcie.h (iommu_mode, acs_redirect, gpu_bar1, p2p_path), ... */
json_t *sysinfo_knobs(void);
/* Load average and runnable threads now. */
json_t *sysinfo_noise(void);
/* The active choice of a sysfs multiple-choice file: "always [madvise] never"
 * -> "madvise". Returns a new string or NULL. Pure; for tests. */
char *sysinfo_bracketed(const char *text);
/* The ARC's "size" from a /proc/spl/kstat/zfs/arcstats text (bytes), or -1.
 * Pure; for tests. */
long long sysinfo_arc_size(const char *arcstats);
/* Prints a fingerprint as indented "key: value" lines. */
void sysinfo_print(json_t *host, FILE *f);

#endif
