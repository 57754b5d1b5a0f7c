/* phantom.h - memory a process's exit should have returned and did not.
 *
 * docs/design.md §10.2: after a 64 GiB GPU process exited, 55 GiB stayed in the
 * driver's page pools, counted nowhere in /proc/meminfo except as missing from
 * MemAvailable. The check is driver-agnostic: read the levels before the
 * command, sample MemAvailable after it exits until it comes back or the
 * settle time passes, and report what did not come back and how long the
 * rest took. The levels are machine/levels.h's; the children (CPU, GPU, hog,
 * holder, any command) phantom_child.h's. A signal caught by
 * proc_signals_install() stops a cycle and its sampling.
 *
 * The analysis is pure (times and values in, settle facts out) and tested on
 * synthetic series.
 */
#ifndef MEMPATH_PHANTOM_H
#define MEMPATH_PHANTOM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "machine/levels.h"
#include "workload/phantom_child.h"

struct phantom_settle {
	double return_s; /* first time from which every later sample is within tolerance
			  * of before; -1: never */
	double stable_s; /* first time from which every later sample is within tolerance/4
			  * of the final level */
	int64_t final;	 /* median of the last three samples */
	int64_t missing; /* before - final (negative: more available than before) */
	int returned;	 /* missing <= tolerance */
};

/* Pure: t[i] seconds since the command exited, v[i] MemAvailable bytes. */
void phantom_settle_analyse(const double *t, const int64_t *v, size_t n, int64_t before,
			    int64_t tolerance, struct phantom_settle *out);
/* Pure, online: may sampling stop? Yes once the samples of the last hold_s
 * seconds (at least two) are all within tolerance of before. */
int phantom_settle_done(const double *t, const int64_t *v, size_t n, int64_t before,
			int64_t tolerance, double hold_s);

/* ---- the kernel log ------------------------------------------------------ */

struct phantom_klog {
	int fd;	       /* /dev/kmsg positioned at its end when marked; -1 */
	char *syslog;  /* klogctl(READ_ALL) text when marked (fallback), or NULL */
	char why[160]; /* why neither is readable ("" when one is) */
	const char *source;
};

struct phantom_klog_news {
	unsigned warnings; /* kernel records at level warning or worse */
	unsigned bugs;	   /* of any level: WARNING:, BUG:, Oops, Call Trace, NVRM */
	char **lines;	   /* the first of those, up to 20 */
	size_t n_lines;
};

/* Remembers where the kernel log ends now. Returns 0, or -1 with k->why set
 * (not readable here: the check is skipped with that reason). */
int phantom_klog_mark(struct phantom_klog *k);
/* Records logged since the mark. Returns 0 or -1 (why set). */
int phantom_klog_read_new(struct phantom_klog *k, struct phantom_klog_news *n);
void phantom_klog_close(struct phantom_klog *k);
void phantom_klog_news_free(struct phantom_klog_news *n);
/* Pure: a /dev/kmsg record "6,123,456,-;text" -> level, facility, text.
 * Returns 0 or -1 (not a record). */
int phantom_kmsg_parse(const char *rec, int *level, int *facility, const char **text);
/* Pure: is this message a bug report (WARN_ON, BUG, Oops, a driver's NVRM)? */
int phantom_klog_is_bug(const char *text);

/* ---- one cycle: run, watch, settle --------------------------------------- */

#define PHANTOM_MAX_SERIES 4096

/* What runs in a cycle and how it is watched. */
struct phantom_spec {
	enum phantom_kind kind;
	char *const *argv;  /* PHANTOM_CMD */
	uint64_t size;	    /* built-in: bytes; 0 for a command */
	double hold_s;	    /* built-in: how long it holds */
	int detach;	    /* PHANTOM_CPU: leave a detached holder */
	double settle_s;    /* longest wait after the exit */
	double interval_s;  /* sampling period */
	uint64_t tolerance; /* 0: phantom_tolerance() default */
};

/* MemAvailable after an exit: t seconds since it, v bytes. */
struct phantom_series {
	double t[PHANTOM_MAX_SERIES];
	int64_t v[PHANTOM_MAX_SERIES];
	size_t n;
};

struct phantom_cycle {
	int64_t lowest;	  /* MemAvailable lowest while the command ran */
	double run_s;	  /* start to exit */
	double sampled_s; /* sampled this long after the exit */
	struct phantom_settle st;
	char status[96]; /* "exit 0", "signal 9" */
	pid_t detached;
	int skip, failed; /* built-in child: could not run here / failed (msg says why) */
	char msg[512];
};

/* Pure: the tolerance when none was given: 2% of size (or of the memory the
 * command was seen using), at least 256 MiB, which is above the MemAvailable
 * drift of an idle box over a few seconds (page cache, slab) and far below
 * any pool worth reporting. */
int64_t phantom_tolerance(uint64_t requested, uint64_t size, uint64_t used);
/* Field-by-field median of three readings 50 ms apart. */
void phantom_levels_settled(struct levels *out, int with_pcp);
/* Samples MemAvailable every interval until it has been within tol of
 * baseline for 0.3 s or settle_s passed; analyses the series. */
void phantom_settle_sample(const struct phantom_spec *sp, int64_t baseline, int64_t tol,
			   struct phantom_series *s, struct phantom_settle *st);
/* Runs the command once: the lowest MemAvailable while it runs, its status,
 * then phantom_settle_sample against baseline. *tol == 0 is set from
 * phantom_tolerance() once the use is known. Returns 0, or -1 (could not
 * start, or stopped by a signal). */
int phantom_cycle_run(const struct phantom_spec *sp, int64_t baseline, int64_t *tol,
		      struct phantom_cycle *cy, struct phantom_series *s);

#endif
