/* plan.h - a study across boots (docs/design.md §5.19): a plan file names
 * the variants, the order of the legs and what must hold before a
 * variant's leg runs (a kernel release, a kernel command-line word, a
 * module's version); `mempath plan FILE` runs, in the plan's order, the
 * legs whose conditions hold now, each one an `ab` leg (flow/ab.h: the
 * variant's setup, the measuring mempath command, the restore), records
 * each in DIR/plan.journal (written atomically before and after every
 * leg), and says what to boot for the next one. A kill or a reboot at any
 * point loses no finished leg and repeats none.
 *
 * The plan file, one statement a line ('#' starts a comment line):
 *   command WORDS...        the mempath command every leg runs (run, probe
 *                           or wrap; no -o or --label), split as sh would
 *                           split words in single or double quotes
 *   legs NAME NAME ...      the order of the legs: every variant the same
 *                           number of times (round R of a variant is its
 *                           R-th leg)
 *   baseline NAME           the variant the others are compared with
 *                           (default: the first one declared)
 *   restore CMD             before the first variant line: run after every
 *                           leg (default: the baseline's setup; a variant's
 *                           own restore wins)
 *   expect-diff KNOB        a knob that differs by design (repeatable)
 *   primary PAT             the metric that matters (compare --primary)
 *   variant NAME            opens a variant; the lines after it, up to the
 *                           next variant, are its own (the statements
 *                           above but restore may come anywhere):
 *     kernel GLOB           uname -r matches GLOB (fnmatch)
 *     cmdline [!]WORD       /proc/cmdline holds WORD as a whole word (!:
 *                           does not)
 *     module NAME [VERSION] the module is loaded (/sys/module/NAME) with
 *                           that version (/sys/module/NAME/version, else
 *                           modinfo -F version); checked after the setup
 *     setup CMD             sh -c before the leg
 *     restore CMD           sh -c after the leg
 *     env K=V               the leg's and setup's environment (repeatable)
 *     args WORDS            words for the wrapped command (wrap --args)
 *     boot CMD              what boots a machine where this variant's
 *                           kernel and cmdline hold (default: grub-reboot of
 *                           the GRUB entry for its kernel)
 *
 * MEMPATH_TEST_PLAN_ROOT (tests only) names a directory read in place of
 * / for the conditions and GRUB: proc/sys/kernel/osrelease (for uname -r),
 * proc/cmdline, sys/module/NAME/version, boot/grub/grub.cfg. */
#ifndef MEMPATH_FLOW_PLAN_H
#define MEMPATH_FLOW_PLAN_H

#include <stddef.h>

enum plan_cond_kind { PLAN_KERNEL, PLAN_CMDLINE, PLAN_MODULE };

struct plan_cond {
	enum plan_cond_kind kind;
	char *what;    /* the GLOB, the WORD, the module's NAME */
	char *version; /* a module's version, or NULL */
	int negate;    /* cmdline !WORD */
};

struct plan_variant {
	char *name;
	char *setup, *restore, *boot, *args; /* or NULL */
	char **env;
	size_t n_env;
	struct plan_cond *conds;
	size_t n_conds;
};

struct plan {
	char *path, *text; /* the file and what it held */
	char **argv;	   /* the command's words */
	int argc;
	struct plan_variant *v;
	size_t n_v, baseline;
	size_t *legs; /* variant of each leg */
	size_t n_legs;
	char *restore; /* or NULL */
	char **expect_diff;
	size_t n_expect_diff;
	char *primary;
};

/* Parses the plan file; 0, or -1 after one error line "FILE:LINE: ...". */
int plan_parse(const char *path, struct plan *p);
void plan_free(struct plan *p);
/* The round of leg i: how many legs of its variant up to it, it included. */
unsigned plan_leg_round(const struct plan *p, size_t i);

/* Does every condition of kind kernel or cmdline (before_setup) or of kind
 * module (!before_setup) of variant v hold now? 1 yes, 0 no with *why (a
 * new string: "kernel 6.1.0-54-amd64 is running, the variant needs
 * 6.12*"). */
int plan_conds_hold(const struct plan_variant *v, int before_setup, char **why);
/* The running kernel's release (uname -r, or the test root's); a new string. */
char *plan_kernel_release(void);
/* The command that boots a machine where v's leg can run: its boot line,
 * else grub-reboot of the GRUB menu entry that boots its kernel (and then
 * what the command line lacks); NULL with *why when none is known. New
 * strings. */
char *plan_boot_command(const struct plan_variant *v, char **why);

/* The journal (DIR/plan.journal). */
enum plan_leg_state { PLAN_LEG_TODO, PLAN_LEG_STARTED, PLAN_LEG_DONE };

struct plan_run_opts {
	const char *dir;	/* the results, logs and journal */
	double setup_timeout_s; /* 0: ab's */
	int status_only;	/* run nothing: say what is done and what is next */
	int boot;		/* run the boot command for the next leg */
};

enum plan_outcome {
	PLAN_ALL_DONE,	   /* every leg is done */
	PLAN_NEEDS_BOOT,   /* legs are left whose kernel or cmdline do not hold */
	PLAN_FAILED,	   /* a leg, setup, restore or condition failed (said) */
	PLAN_INTERRUPTED,  /* a signal; the restore ran */
	PLAN_BAD,	   /* a bad journal or directory (said) */
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
