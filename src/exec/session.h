/* session.h - a run in progress: fingerprint, knobs at start and end, probes
 * run one by one through the runner, the results file rewritten atomically
 * after every probe so an interrupted or crashed run keeps what it measured.
 */
#ifndef MEMPATH_SESSION_H
#define MEMPATH_SESSION_H

#include "exec/progress.h"
#include "exec/runner.h"
#include "kit/probe.h"
#include "results/results.h"

struct session {
	struct run *run;
	const char *out_path; /* NULL: nothing written */
	struct runner_opts ropts;
	int gpu_present;	/* from the fingerprint */
	const char *gpu_absent; /* why there is none, from the fingerprint, or NULL */
	/* Knobs the command adds to those read at the start and the end
	 * (wrap: the workload's own settings, docs/design.md §11.2); borrowed,
	 * or NULL. */
	json_t *knobs_extra;
	unsigned done, total;
	char *lock_path; /* held from session_begin to session_end (docs/design.md §6.4) */
	int lock_fd;
	enum progress_mode show; /* set before session_begin (progress.h) */
	int end_lines;		 /* PROGRESS_LIVE: say that a probe ended (no table follows) */
	/* The probes the run will take, in order (for the ETA); NULL: only the
	 * current one is known. */
	const struct probe *const *plan;
	size_t n_plan;
	/* Called after each probe's result is kept and saved (a table printed
	 * as soon as its probe ends); the status line is off the screen. */
	void (*on_probe)(struct session *s, const struct probe_result *res, void *arg);
	void *on_probe_arg;
	struct progress pg;
};

/* How progress shows (progress.h): a status line on a terminal, log lines
 * on a pipe, nothing when quiet; streaming: the tables go to stdout as the
 * probes end, so a terminal there needs no line saying that a probe ended. */
void session_show(struct session *s, int quiet, int streaming);
/* Starts a run: takes out_path for this run (a second run writing the same
 * file at the same time is refused), records argv, label, suite, start time,
 * fingerprint, knobs, and writes out_path at once (marked incomplete), so an
 * output that cannot be written is known before any work. Returns 0, or -1 after an error line
 * (s->run is set either way: free it). */
int session_begin(struct session *s, int argc, char **argv, const char *label, const char *suite);
/* Runs one probe with user options; appends its result; rewrites out_path.
 * Returns 0, or -1 for bad options or a failed write (error printed). */
int session_run_probe(struct session *s, const struct probe *p, char *const *kvs, size_t n_kvs);
/* Records p as skipped for `why` without running it (a suite's GPU probe on
 * a machine without a GPU); rewrites out_path. Returns 0 or -1. */
int session_skip_probe(struct session *s, const struct probe *p, const char *why);
/* Says, before the first probe starts, what the plan's probes will take
 * here (progress_estimate: this host's last times, else the registry's
 * typical ones), those session_not_here leaves out not counted. */
void session_say_estimate(struct session *s);
/* Why p is not run here: it needs a GPU and the fingerprint found none (the
 * reason written there), or NULL. */
char *session_not_here(const struct session *s, const struct probe *p);
/* Records end time, knobs at end (and at both ends knobs_extra and the
 * knobs probes found, each probe's extra.knobs object), noise;
 * writes out_path. Returns 0 or -1. */
int session_end(struct session *s);
/* Gives up a begun run that is not kept (nothing written): releases the
 * output's lock. The run itself stays the caller's to free. */
void session_abandon(struct session *s);
/* Probes of the run that failed or timed out (skips are not failures). */
size_t session_failed(const struct session *s);
/* Does the named suite ("quick", "full", "cpu", "gpu", "p2p") include p?
 * Whether p can run here is session_not_here's question. */
int session_suite_has(const char *suite, const struct probe *p);
int session_suite_valid(const char *suite);
/* A new results path "mempath-<label>-<YYYYmmdd-HHMMSS>[-N].json" in the
 * working directory, created empty with O_EXCL so two runs in one second
 * never get the same name (the run replaces it); the label is cut to 64
 * characters and anything but letters, digits, '.', '_' and '-' becomes '_'. */
char *session_default_path(const char *label);

#endif
