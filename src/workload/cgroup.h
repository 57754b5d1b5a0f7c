/* cgroup.h - each run of a wrapped command in a cgroup v2 of its own, so
 * its memory, faults, CPU and I/O are its own and not the machine's
 * (docs/design.md §11.4).
 *
 * A run's cgroup is <parent>/mempath-<pid>-<n>, made just before the run
 * and removed after it; what the run left inside is killed first. One that
 * a killed mempath left behind (its pid gone) is removed by the next wrap.
 * The parent is the root of the cgroup2 mount, used only when it already
 * hands the memory controller to its children: mempath enables no
 * controller itself (a machine setting, §4.9). Where that does not hold,
 * cgroup_find() says why, and wrap records machine-wide counters only.
 *
 * Readings are JSON objects of name -> integer, absent when unreadable.
 * Strings returned are new; the caller frees them.
 */
#ifndef MEMPATH_WORKLOAD_CGROUP_H
#define MEMPATH_WORKLOAD_CGROUP_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

/* The cgroup2 mount point in /proc/self/mountinfo's text, or NULL. */
char *cgroup_mount_of(const char *mountinfo);
/* Where runs' cgroups can be made: 0 with *parent, or -1 with *why. */
int cgroup_find(const char *mountinfo_path, char **parent, char **why);
/* Removes cgroups named mempath-<pid>-<n> under parent whose pid is not
 * alive; returns how many. */
int cgroup_clean_stale(const char *parent);
/* Makes parent/mempath-<our pid>-<n>; its path, or NULL with *why. */
char *cgroup_make(const char *parent, unsigned n, char **why);
/* Kills what is left in it, then removes it: 0, or -1 (it may still be
 * there: the next wrap removes it). */
int cgroup_remove(const char *path);
/* The pids in its cgroup.procs, at most max; how many. */
size_t cgroup_pids(const char *path, pid_t *pids, size_t max);

/* After the run: {"memory": memory.stat's events (pgfault, pgmajfault,
 * thp_fault_alloc, thp_collapse_alloc), "peak": memory.peak (bytes),
 * "cpu": cpu.stat (usec), "io": io.stat summed over devices}. */
json_t *cgroup_read_end(const char *path);
/* During the run: memory.stat's sizes (anon, file, shmem, anon_thp,
 * file_thp, shmem_thp; bytes). */
json_t *cgroup_read_sizes(const char *path);
/* io.stat ("MAJ:MIN rbytes=N wbytes=N ...") summed over devices. */
json_t *cgroup_parse_io(const char *text);
/* "name value" lines (memory.stat, cpu.stat), only the names listed
 * (NULL-terminated), or all when names is NULL. */
json_t *cgroup_parse_stat(const char *text, const char *const *names);

#endif
