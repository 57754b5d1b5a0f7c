/* plan_file.h - the plan file of `mempath plan` (flow/plan.h), read.
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
 */
#ifndef MEMPATH_FLOW_PLAN_FILE_H
#define MEMPATH_FLOW_PLAN_FILE_H

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

#endif
