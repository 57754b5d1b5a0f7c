/* plan.h - a study across boots (docs/design.md §5.21): a plan file names
 * the variants, the order of the legs and what must hold before a
 * variant's leg runs (a kernel release, a kernel command-line word, a
 * module's version); `mempath plan FILE` runs, in the plan's order, the
 * legs whose conditions hold now, each one an `ab` leg (flow/ab.h: the
 * variant's setup, the measuring mempath command, the restore), records
 * each in DIR/plan.journal (written atomically before and after every
 * leg), and says what to boot for the next one. A kill or a reboot at any
 * point loses no finished leg and repeats none.
 *
 * The plan file: flow/plan_file.h; its conditions: flow/plan_cond.h. */
#ifndef MEMPATH_FLOW_PLAN_H
#define MEMPATH_FLOW_PLAN_H

#include <stddef.h>

#include "flow/plan_file.h"

/* The journal (DIR/plan.journal). */
enum plan_leg_state { PLAN_LEG_TODO, PLAN_LEG_STARTED, PLAN_LEG_DONE };

struct plan_run_opts {
	const char *dir;	/* the results, logs and journal */
	double setup_timeout_s; /* 0: ab's */
	int status_only;	/* run nothing: say what is done and what is next */
	int boot;		/* run the boot command for the next leg */
};

enum plan_outcome {
	PLAN_ALL_DONE,	  /* every leg is done */
	PLAN_NEEDS_BOOT,  /* legs are left whose kernel or cmdline do not hold */
	PLAN_FAILED,	  /* a leg, setup, restore or condition failed (said) */
	PLAN_INTERRUPTED, /* a signal; the restore ran */
	PLAN_BAD,	  /* a bad journal or directory (said) */
};

/* Where a plan stopped: the first leg not done (n_legs: none), why it
 * cannot run here (NULL: it could; --status), the command that boots a
 * machine where it can (NULL: none known) and a note on it (or NULL). */
struct plan_next {
	size_t leg, n_done;
	char *why, *boot, *boot_note;
};

/* Runs the legs whose conditions hold, from the first not done, in order,
 * stopping at the first whose kernel or cmdline do not hold (*next says
 * which, and what boots it). *paths gets the results file of every leg in
 * plan order (caller frees each and the array). */
enum plan_outcome plan_run(const struct plan *p, const struct plan_run_opts *o, char ***paths,
			   struct plan_next *next);
void plan_next_free(struct plan_next *n);
/* Runs the boot command (sh -c); 0, or -1 after an error line. */
int plan_boot_run(const char *cmd, double timeout_s);

#endif
