/* cgroup.h - each run of a wrapped command in a cgroup of its own, so its
 * memory, faults, CPU and I/O are its own and not the machine's
 * (docs/design.md §11.4, §11.7). One seam, cgroup v2 and v1 behind it.
 *
 * Where (cgroup_find): cgroup v2 where its mount's root hands the memory
 * controller to its children (mempath enables no controller itself, a
 * machine setting, §4.9); else cgroup v1 where the memory hierarchy is
 * mounted: runs' groups go under the group this process is in (v1 has no
 * rule against groups that hold processes having children), in the memory
 * hierarchy and in cpuacct and pids where those are mounted. Inside a Slurm
 * job (a job_<id> component in our cgroup path) the step's own cgroup is
 * read instead where a group of our own cannot be made there (cgroup v2:
 * our group holds processes, so it cannot hand controllers down; v1: not
 * writable); its readings are then deltas over each run, shared with
 * mempath and everything else in the step, and say so.
 *
 * A run's group is <parent>/mempath-<pid>-<n>, made just before the run
 * and removed after it; what the run left inside is killed first. One that
 * a killed mempath left behind (its pid gone) is removed by the next wrap.
 *
 * Readings are JSON objects of name -> integer, absent when unreadable, in
 * cgroup v2's names where v1 counts the same thing (v1 memory.stat
 * total_rss is v2's anon, total_cache file, total_rss_huge anon_thp, the
 * total_ names being, like v2's, the group's and its descendants';
 * memory.max_usage_in_bytes is memory.peak; cpuacct.usage is cpu.stat
 * usage_usec) and in v1's where it does not (failcnt). Strings returned are new; the caller frees
 * them.
 */
#ifndef MEMPATH_WORKLOAD_CGROUP_H
#define MEMPATH_WORKLOAD_CGROUP_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

enum { CGROUP_MEM, CGROUP_CPU, CGROUP_PIDS, CGROUP_N_CTL };

/* Where runs' cgroups go, found once per wrap. */
struct cgroup_place {
	int version;		 /* 1 or 2 */
	int step;		 /* 1: the Slurm step's cgroup is read, none is made */
	char *dir[CGROUP_N_CTL]; /* v2: dir[CGROUP_MEM] only; v1: per hierarchy, NULL
				    where not mounted. The parent of runs' groups, or
				    the step's group when step */
	char *slurm;		 /* "job 42, step 0" inside Slurm, else NULL */
	char *how;		 /* one line: what wrap does and why */
};

/* One run's group (or the step's, read around the run). */
struct cgroup {
	int version;
	int shared;		   /* the step's: not ours, never removed; readings are
				      deltas from before */
	char *dir[CGROUP_N_CTL];   /* as in cgroup_place */
	char *procs[CGROUP_N_CTL]; /* their cgroup.procs (joined by the child), or NULL */
	json_t *before;		   /* shared: cgroup_read_end's raw readings at make */
};

/* The cgroup2 mount point in /proc/self/mountinfo's text, or NULL. */
char *cgroup_mount_of(const char *mountinfo);
/* The mount point of the cgroup v1 hierarchy holding controller (memory,
 * cpuacct, pids) in mountinfo's text, and its root within the hierarchy
 * in *root; NULL when not mounted. */
char *cgroup_v1_mount_of(const char *mountinfo, const char *controller, char **root);
/* The path of our group in /proc/self/cgroup's text for controller (v1), or
 * for the v2 line ("0::") when controller is NULL; NULL when absent. */
char *cgroup_self_path(const char *self, const char *controller);
/* Where runs' cgroups go, from mountinfo's and /proc/self/cgroup's texts;
 * prefix is put before every path (a recorded layout's root; "" for this
 * machine) and job is $SLURM_JOB_ID or NULL. 0 with *pl filled, or -1 with
 * *why. */
int cgroup_locate(const char *prefix, const char *mountinfo, const char *self, const char *job,
		  struct cgroup_place *pl, char **why);
/* cgroup_locate() for this process. */
int cgroup_find(struct cgroup_place *pl, char **why);
void cgroup_place_free(struct cgroup_place *pl);

/* Removes groups named mempath-<pid>-<n> under parent whose pid is not
 * alive; returns how many. */
int cgroup_clean_stale_dir(const char *parent);
/* The same in every hierarchy of the place (none when step). */
int cgroup_clean_stale(const struct cgroup_place *pl);
/* Makes the run's group (mempath-<our pid>-<n> in each hierarchy), or for
 * a step place a handle on the step's group with its readings now; NULL
 * with *why. */
struct cgroup *cgroup_make(const struct cgroup_place *pl, unsigned n, char **why);
/* A handle on existing groups (a recorded layout, a step), not ours:
 * shared, so cgroup_remove() leaves them. cpu, pids may be NULL. */
struct cgroup *cgroup_open(int version, const char *mem, const char *cpu, const char *pids);
/* In the child between fork and exec: joins every group (async-signal
 * safe). 0, or -1 with errno. */
int cgroup_join(const struct cgroup *cg);
/* Ours: kills what is left in it, then removes it: 0, or -1 (it may still
 * be there: the next wrap removes it). Shared: 0, nothing done. */
int cgroup_remove(const struct cgroup *cg);
void cgroup_free(struct cgroup *cg);
/* The pids in its (memory) group's cgroup.procs, at most max; how many. */
size_t cgroup_pids(const struct cgroup *cg, pid_t *pids, size_t max);

/* After the run: {"memory": memory.stat's events (pgfault, pgmajfault;
 * v2 also thp_fault_alloc, thp_collapse_alloc; v1 also failcnt), "peak":
 * the most charged at once (bytes), "cpu": usage_usec, user_usec,
 * system_usec, "io": v2 io.stat summed over devices, "pids": v1
 * pids.events}. Shared (a step): events and CPU over the run (now minus at
 * make), and "step_peak" (the step's peak since it began) for "peak". */
json_t *cgroup_read_end(const struct cgroup *cg);
/* During the run: memory.stat's sizes (anon, file, shmem, anon_thp,
 * file_thp, shmem_thp; bytes; v1's under v2's names). */
json_t *cgroup_read_sizes(const struct cgroup *cg);
/* io.stat ("MAJ:MIN rbytes=N wbytes=N ...") summed over devices. */
json_t *cgroup_parse_io(const char *text);
/* "name value" lines (memory.stat, cpu.stat), only the names listed
 * (NULL-terminated), or all when names is NULL. */
json_t *cgroup_parse_stat(const char *text, const char *const *names);

#endif
