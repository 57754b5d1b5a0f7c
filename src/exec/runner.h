/* runner.h - each probe in its own child process.
 *
 * The child (base/proc.h: proc_json) applies options, checks supported(),
 * runs the probe and sends its result back as JSON over a pipe. The parent
 * enforces the timeout (SIGKILL to the child's process group), records crash
 * signals, OOM kills and timeouts as the probe's status, and takes rusage and
 * /proc/vmstat deltas. SIGINT/SIGTERM in the parent (proc_signals_install)
 * end the child and mark the run interrupted, so the caller still writes
 * what was measured.
 */
#ifndef MEMPATH_RUNNER_H
#define MEMPATH_RUNNER_H

#include "kit/probe.h"
#include "results/results.h"

struct runner_opts {
	double timeout_s;	/* per probe; 0 = probe's own or 600 s */
	unsigned reps, warmups; /* with auto_ci, reps is the least */
	double auto_ci;		/* --reps auto: the CI of the median to reach (0.01); 0: off */
	double auto_budget_s;	/* --reps auto: seconds a metric may sample for */
	uint64_t min_sample_ns;
	int window_given; /* --window-ms was given: every probe keeps min_sample_ns */
	int quick;	  /* apply the probe's quick_opts first */
	int full;	  /* the full suite: apply the probe's full_opts first */
	int force;
	int counters; /* counters around the sample windows (default on; MEMPATH_COUNTERS=off) */
	/* called with each reading of the noise meter, every NOISE_PERIOD_S
	 * while the probe's child runs (the session's status line); NULL: none */
	void (*tick)(void *ctx);
	void *tick_ctx;
};

/* The samples a probe takes by default, after its warm-ups: one place, read
 * by runner_opts_default and every command's own defaults. */
#define RUNNER_REPS	 10
#define RUNNER_WARMUPS	 2
#define RUNNER_SAMPLE_MS 50 /* the shortest sample window */
/* ... of a GPU probe, where --window-ms was not given: the device's events
 * time its samples, and on the H200 10 ms windows gave every reference
 * figure the 50 ms ones did, PASS for PASS, in half the suite's time
 * (docs/results/suite-time-h200-2026-12-03.md); the CPU probes keep 50 ms,
 * whose windows the noise meter's clock ticks read */
#define RUNNER_GPU_SAMPLE_MS 10

/* `run --suite quick`'s sampling where --reps and --warmups were not given:
 * the fewest counted samples a leg of A/B/A' takes (COMPARE_MIN_SAMPLES) and
 * one warm-up, so the suite keeps to its minute (91 s on the H200
 * machine at 10 and 2, docs/results/suite-time-h200-2026-12-04/) */
#define RUNNER_QUICK_REPS    6
#define RUNNER_QUICK_WARMUPS 1

void runner_opts_default(struct runner_opts *o);

/* The share of a probe's timeout that --reps auto may sample beyond the
 * least samples for (docs/design.md §4.16); the rest is left for the
 * metrics still to come to take their least. */
#define RUNNER_AUTO_SHARE (2.0 / 3.0)
/* The probe's timeout under these options (--timeout, the probe's, 600 s). */
double runner_timeout_s(const struct probe *p, const struct runner_opts *o);
/* With --reps auto: the seconds from the probe's start after which no
 * metric takes more than its least samples; 0 without. */
double runner_auto_deadline_s(const struct probe *p, const struct runner_opts *o);

/* Runs probe p with user options kvs[0..n_kvs) ("name=value") in a child and
 * fills out (initialised here). Bad options are reported before forking:
 * returns -1 with an error printed. Otherwise returns 0 whatever the probe's
 * status. */
int runner_run_probe(const struct probe *p, char *const *kvs, size_t n_kvs,
		     const struct runner_opts *o, struct probe_result *out);

/* Parses the options as runner_run_probe would, without running anything:
 * 0, or -1 with the error printed. */
int runner_check_opts(const struct probe *p, char *const *kvs, size_t n_kvs,
		      const struct runner_opts *o);

#endif
