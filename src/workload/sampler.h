/* sampler.h - what a wrapped command holds while it runs, sampled: how its
 * memory is backed (smaps_rollup of its processes: Rss, Pss, Anonymous,
 * AnonHugePages, FilePmdMapped, ShmemPmdMapped) and its cgroup's
 * memory.stat sizes; the largest value of each over the run is kept
 * (docs/design.md §11.4). A process that has exited has no smaps, so
 * these are read during the run, never after.
 *
 * Ownership: the sampler owns its JSON objects; sampler_free() frees them.
 */
#ifndef MEMPATH_WORKLOAD_SAMPLER_H
#define MEMPATH_WORKLOAD_SAMPLER_H

#include <jansson.h>
#include <sys/types.h>

struct cgroup;

struct sampler {
	/* the run's cgroup (its processes, its sizes), or NULL: the command
	 * and its descendants. A shared one (a Slurm step's) gives sizes only:
	 * its processes are the step's, mempath among them. */
	const struct cgroup *cgroup;
	int every_ms;  /* period; <= 0: no sampling */
	json_t *smaps; /* field -> largest sum over its processes (bytes) */
	json_t *sizes; /* memory.stat name -> largest value (bytes) */
	unsigned n;    /* samples taken */
	/* GPU memory (NVML, docs/design.md §11.8): device index -> {"name",
	 * "total_bytes", "used_before_bytes", "used_after_bytes" (the device's,
	 * everyone's), "used_peak_bytes", "procs_peak_bytes" (the command's
	 * processes', sampled)}; NULL with gpu_why when NVML cannot say */
	json_t *gpu;
	const char *gpu_why;
	unsigned gpu_n; /* samples that read it */
};

/* One sample of the command whose leader is pid. */
void sampler_take(struct sampler *s, pid_t pid);
/* The GPUs' used memory just before the run is started (after: 0) or just
 * after it ended (1); NVML is shut down again so that no fork happens with
 * it open (§2.6). */
void sampler_gpu_edge(struct sampler *s, int after);
/* smaps_rollup text's fields that sampler_take() keeps, into sum (bytes). */
void sampler_add_smaps(const char *text, json_t *sum);
void sampler_free(struct sampler *s);

#endif
