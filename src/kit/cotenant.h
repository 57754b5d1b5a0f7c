/* cotenant.h - a second GPU tenant at a stated duty cycle (gpu.sync's
 * co-tenant runs, docs/design.md §10.5).
 *
 * The co-tenant is mempath itself, exec'd (/proc/self/exe __cotenant DUTY
 * PERIOD_MS), so it has a context of its own: a CUDA context does not survive
 * fork, and the probe's process already initialised the driver. Every period
 * it runs compute bursts (launch_fma over the whole device, calibrated with
 * events to about 1 ms a kernel) for duty% of the period, then sleeps the
 * rest; a period that another tenant stretched past its end is made up by
 * more kernels in the next (its work kept at duty% of the wall time, at most
 * twice a period's kernels at once); after each period it writes "busy_ns
 * wall_ns work_ns" (cumulative) on its stdout, a pipe the probe reads. busy
 * is its bursts' own event times: with another tenant on the GPU they include
 * the time its kernels waited behind the other's (time slicing) or ran beside
 * it, slowed (MPS). work is the kernels it ran times one kernel's time alone
 * (timed after the calibration, before any other tenant's work): the GPU time
 * its work takes alone. The duty it achieved is work over wall time between
 * two reads; busy over work is how much sharing stretched its kernels.
 *
 * Ending: base/proc starts it in a process group of its own with
 * PR_SET_PDEATHSIG (SIGKILL when the probe dies, SIGKILL included);
 * cotenant_stop() sends SIGTERM, SIGKILL 1 s later, and reaps it (waitpid).
 * Every exit path of the probe calls cotenant_stop().
 */
#ifndef MEMPATH_KIT_COTENANT_H
#define MEMPATH_KIT_COTENANT_H

#include <stddef.h>
#include <stdint.h>

#include "base/proc.h"

struct cotenant {
	struct proc p;
	char line[128]; /* a partial line read so far */
	size_t len;
	uint64_t busy_ns, wall_ns, work_ns; /* the last complete line */
	int started;
};

/* Starts it with duty_pct of each period_ms busy, env ("K=V", n_env) added
 * to its environment (MPS's directories), and waits up to 60 s for its
 * first period. 0, or -1 with why. */
int cotenant_start(struct cotenant *c, unsigned duty_pct, unsigned period_ms, char *const *env,
		   size_t n_env, char *why, size_t len);
/* Reads what it sent (not blocking); busy_ns and wall_ns are the latest. */
void cotenant_poll(struct cotenant *c);
/* Ends and reaps it; a zeroed or stopped one is fine. */
void cotenant_stop(struct cotenant *c);

/* The hidden mode `mempath __cotenant DUTY PERIOD_MS`: argv after the mode. */
int cotenant_main(int argc, char **argv);

#endif
