/* session.h - a run in progress: fingerprint, knobs at start and end, probes
 * run one by one through the runner, the results file rewritten atomically
 * after every probe so an interrupted or crashed run keeps what it measured.
 */
#ifndef MEMPATH_SESSION_H
#define MEMPATH_SESSION_H

#include "exec/runner.h"
#include "kit/probe.h"
#include "results/results.h"

struct session {
	struct run *run;
	const char *out_path; /* NULL: nothing written */
	struct runner_opts ropts;
	int gpu_present; /* from the fingerprint */
	/* Knobs the command adds to those read at the start and the end
	 * (wrap: the workload's own settings, docs/design.md §11.2); borrowed,
	 * or NULL. */
	json_t *knobs_extra;
	unsigned done, total;
};

/* Starts a run: records argv, label, suite, start time, fingerprint, knobs,
 * and writes out_path at once (marked incomplete), so an output that cannot
 * be written is known before any work. Returns 0, or -1 after an error line
 * (s->run is set either way: free it). */
int session_begin(struct session *s, int argc, char **argv, const char *label, const char *suite);
/* Runs one probe with user options; appends its result; rewrites out_path.
 * Returns 0, or -1 for bad options or a failed write (error printed). */
int session_run_probe(struct session *s, const struct probe *p, char *const *kvs, size_t n_kvs);
/* Records end time, knobs at end (and knobs_extra at both ends), noise;
 * writes out_path. Returns 0 or -1. */
int session_end(struct session *s);
/* Probes of the run that failed or timed out (skips are not failures). */
size_t session_failed(const struct session *s);
/* Does the named suite ("quick", "full", "cpu", "gpu", "p2p") include p? */
int session_suite_has(const char *suite, const struct probe *p, int gpu_present);
int session_suite_valid(const char *suite);
/* Default results path: "mempath-<label>-<YYYYmmdd-HHMMSS>.json". */
char *session_default_path(const char *label);

#endif
