/* progress.h - what a run shows while it runs (docs/design.md §2.8).
 *
 * On a terminal (PROGRESS_LIVE): one status line on stderr, redrawn at least
 * every second while a probe's child runs, with the probe, its step (what
 * the probe last passed to progress(), from the child through shared
 * memory), the time it has taken and an ETA. On a pipe (PROGRESS_LOG): one
 * line when a probe starts and one when it ends, never the steps. With
 * --quiet (PROGRESS_QUIET): nothing.
 *
 * The ETA is the rest of the current probe plus the probes still to come,
 * each as long as it took on this host last time in the same mode (quick
 * or full) with the same options (its name=value options and the run's
 * sampling plan: a probe at size=64M --reps 1 says nothing about one at its
 * full size), from $XDG_CACHE_HOME/mempath/durations; a probe never timed
 * so here makes it "ETA ?" rather than a guess.
 */
#ifndef MEMPATH_EXEC_PROGRESS_H
#define MEMPATH_EXEC_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "kit/probe.h"

enum progress_mode { PROGRESS_LOG = 0, PROGRESS_LIVE, PROGRESS_QUIET };

struct progress_shared; /* the step text the child writes */
struct progress_times;	/* durations measured before, and this run's */

struct progress {
	enum progress_mode mode;
	int quick;     /* the mode the durations are kept for */
	int end_lines; /* LIVE: print the line that a probe ended (no table follows) */
	char host[128];
	unsigned done, total;
	char plan[96];		  /* the sampling plan, part of every duration's key */
	char last_skip[200];	  /* the reason of the skip before, said once */
	char key[512];		  /* the running probe's key (probe, options, plan) */
	const char *probe;	  /* running now, or NULL */
	uint64_t t0_ns, drawn_ns; /* the probe's start; the last redraw */
	double est_s, rest_s;	  /* the probe's expected time; the rest's (< 0: unknown) */
	int typical;		  /* est_s or rest_s has a registry's typical time in it */
	unsigned seen_seq;
	int on_screen;
	char step[200];
	struct progress_shared *shared;
	struct progress_times *times;
};

/* Starts showing progress in mode; host names the durations kept, plan the
 * samples each metric takes ("reps=10 warmups=2"). */
void progress_begin(struct progress *pg, enum progress_mode mode, int quick, const char *host,
		    const char *plan);
/* Probe p starts, with its name=value options kvs, as number pg->done + 1 of
 * pg->total; rest are the probes still to run after it, at their defaults
 * (for the ETA). */
void progress_probe_start(struct progress *pg, const struct probe *p, char *const *kvs,
			  size_t n_kvs, const struct probe *const *rest, size_t n_rest);
/* What the probes of plan will take here, before the first starts: each as
 * it last took on this host in this mode, else the registry's typical time
 * (probe.typical_s, at the suites' sampling), else unknown; will_run[i] 0
 * for a probe that will not start (no GPU here). One line on stderr (not
 * with --quiet): "about 2:41 here (12 probes as they last took on this
 * host, 8 at their typical times, 1 never timed: gpu.p2p)". */
void progress_estimate(struct progress *pg, const struct probe *const *plan, const int *will_run,
		       size_t n);
/* Redraws the status line when its text changed or a second has passed
 * (LIVE only); a runner tick. */
void progress_tick(void *pg);
/* The probe ended (its status text and wall time): the line that says so,
 * and its duration kept for the next ETA (ok and skip only). */
void progress_probe_end(struct progress *pg, const char *status, const char *reason, double wall_s,
			int counts);
/* Takes the status line off the screen before something else is printed. */
void progress_clear(struct progress *pg);
/* Clears the line, saves the durations, frees. A command that ends without
 * it (an error after session_begin) loses only the durations it measured. */
void progress_end(struct progress *pg);
/* "1:05", "12 s" or "?" for a duration in seconds (< 0: unknown). */
void progress_format_eta(double s, char *buf, size_t len);

#endif
