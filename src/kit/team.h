/* team.h - a team of N worker threads pinned to CPUs, released together.
 *
 * team_run() starts fn(tid, arg) on every thread at once (a barrier releases
 * them) and returns when all have finished, so a timed region around it
 * measures the slowest thread: that is the aggregate-bandwidth convention.
 * Thread 0 is a worker too (not the caller) so all threads are alike.
 */
#ifndef MEMPATH_TEAM_H
#define MEMPATH_TEAM_H

struct team;

typedef void (*team_fn)(unsigned tid, unsigned nthreads, void *arg);

/* Starts n threads; cpus (may be NULL: the first n CPUs the process may use,
 * in order) gives each thread's CPU. Returns NULL with an error printed. */
struct team *team_start(unsigned n, const int *cpus);
void team_run(struct team *t, team_fn fn, void *arg);
unsigned team_size(const struct team *t);
/* CPU thread tid is pinned to, or -1. */
int team_cpu(const struct team *t, unsigned tid);
void team_stop(struct team *t);

/* Number of CPUs in this process's affinity mask. */
unsigned team_online_cpus(void);
/* The i-th CPU of the affinity mask, or -1. */
int team_nth_cpu(unsigned i);

#endif
