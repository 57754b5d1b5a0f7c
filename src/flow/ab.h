/* ab.h - the orchestration of `mempath ab`: each leg's setup command, then
 * this mempath measuring with that variant's environment, the restore
 * command at the end, on a failed setup or leg and on Ctrl-C/SIGTERM. The
 * comparison of the legs is the command's (verdict/compare.c).
 *
 * Only commands from the command line run: a results file is read for the
 * comparison and never executed from. Each child (setup, leg, restore) gets
 * its own process group and stdin from /dev/null, so a signal reaches it
 * only through us: a leg is stopped cleanly (it keeps its partial results),
 * and the restore command is never cut short by the Ctrl-C that asked for it.
 * The pending-restore record and the timeouts: docs/design.md §6.6.
 */
#ifndef MEMPATH_FLOW_AB_H
#define MEMPATH_FLOW_AB_H

#include <stddef.h>

struct ab_variant {
	const char *setup; /* sh -c command, or NULL */
	const char *label; /* the legs' run label */
	char **env;	   /* "K=V" added to the leg's and setup's environment */
	size_t n_env;
	const char *args; /* words for the wrapped command (wrap --args), or NULL */
};

struct ab_plan {
	struct ab_variant a, b;
	struct ab_variant c; /* a third, for legs 'C' (bisect's version under test) */
	/* A study (docs/design.md §5.22): n_vars variants, legs 'A' + i for
	 * vars[i], vars[0] the baseline; rounds of n_vars legs each. 0: a, b
	 * and c above. */
	const struct ab_variant *vars;
	size_t n_vars;
	const char *legs;    /* "ABA"; with rounds the schedule, two legs a round: "ABBAAB" */
	const char *dir;     /* results and logs */
	const char *restore; /* NULL: a.setup */
	char *const *argv;   /* the mempath command each leg runs, without -o and --label */
	int argc;
	double setup_timeout_s; /* a setup or restore command's; 0: AB_SETUP_TIMEOUT_S */
	double leg_timeout_s;	/* a leg's; 0: none (bisect's default: BISECT_LEG_TIMEOUT_S) */
	/* ab --budget (auto rounds): no leg runs past t0 + budget_s (seconds
	 * of time_now_ns), the first rounds' included; a leg stopped there ends
	 * the plan (AB_LEG_FAILED, saying so). 0: none. */
	double budget_s, t0_s;
	/* with budget_s: the legs that must fit it (a verdict's first rounds);
	 * once a leg shows that they cannot, at the pace so far, the plan ends
	 * there (AB_LEG_FAILED, saying so) rather than at the budget. 0: none */
	size_t fit_legs;
	/* Rounds (docs/design.md §5.10): legs 2r-1 and 2r are round r; each
	 * leg's file is leg-N-rR-LABEL.json and its record names its round,
	 * the order ("abba" or "random") and the seed of a random one. */
	unsigned rounds;
	const char *order;
	unsigned long long seed;
	/* Appended to each leg's command as "--reps N" (the samples split over
	 * the rounds), or 0. */
	unsigned leg_reps;
	/* For the pilot of a leg whose samples are not split (wrap's runs,
	 * --reps auto; leg_reps 0): the option that sets its count ("-n",
	 * "--reps"; NULL: no pilot), the index in argv it goes before (where
	 * the leg command's own options end: the "--" or the workload), and
	 * the samples a leg takes (--reps auto: the least, so the estimate is
	 * the least a leg takes). */
	const char *pilot_opt;
	int pilot_at;
	unsigned pilot_n;
	/* What the legs record for `findings` (docs/design.md §9.9): the
	 * finding's title (--title) and the ab command line that reproduces
	 * them; either may be NULL. */
	const char *title, *command;
	/* Auto rounds (docs/design.md §5.13): after each round r (1-based) of
	 * a plan of rounds the flow asks go_on, with the paths of the legs so
	 * far; 0 ends the legs there, as planned (NULL: every leg runs). */
	int (*go_on)(void *ctx, unsigned round, char *const *leg_paths);
	void *go_on_ctx;
	/* A plan's legs (flow/plan.h), each run as a plan of one leg: the
	 * number of the legs before it (its files and logs are leg-N with N =
	 * leg_base + 1), its round (with rounds; 0: two legs a round), the
	 * plan file recorded with the leg ("plan"), and a check after the
	 * setup: nonzero (after an error line) refuses the leg, which fails
	 * (AB_LEG_FAILED) and the restore runs. */
	size_t leg_base, legs_total; /* legs_total: for the progress lines (0: these) */
	unsigned leg_round;
	const char *plan;
	int (*after_setup)(void *ctx, size_t leg);
	void *after_setup_ctx;
};

enum ab_outcome {
	AB_DONE,	   /* every leg ran; the restore ran and succeeded */
	AB_LEG_FAILED,	   /* a setup or leg failed; the restore ran */
	AB_RESTORE_FAILED, /* the legs ran, the restore did not succeed */
	AB_INTERRUPTED,	   /* SIGINT/SIGTERM/SIGHUP; the restore ran */
};

/* How long a setup or restore command may run by default before it is
 * stopped (SIGTERM to its group, SIGKILL 5 s later): a sysfs write or a
 * module swap takes seconds. */
#define AB_SETUP_TIMEOUT_S 300.0

/* DIR/restore.pending: written before the first setup with the restore
 * command, removed once it ran; a new string. */
char *ab_pending_path(const char *dir);
/* Runs the restore an earlier ab in dir recorded and did not finish (it was
 * killed), logged like any restore; removes the record when it succeeds.
 * 0, or -1 after an error line. */
int ab_restore_pending(const char *dir, double timeout_s);
/* "K=V" into v's environment; 0, or -1 after an error line. */
int ab_variant_env(struct ab_variant *v, const char *kv);
void ab_variant_free(struct ab_variant *v);
/* Legs a round of the plan has: n_vars, else 2. */
size_t ab_per_round(const struct ab_plan *p);
/* Runs the legs in order (those go_on allows). leg_paths gets one results
 * path per planned leg (caller frees each and the array), whether or not
 * the leg ran; *n_run the legs that ran. */
enum ab_outcome ab_flow(const struct ab_plan *plan, char ***leg_paths, size_t *n_run);
/* Before the first setup, with budget_s, fit_legs and leg_reps (or
 * pilot_opt and pilot_n): runs the leg command twice as a pilot (1 and 2
 * samples a metric, or wrap's runs, DIR/pilot-N.json and .log; no setup,
 * each bounded by a leg's share of the budget) and refuses (-1, after an
 * error line) a plan whose first fit_legs legs would pass the budget at
 * that pace (--reps auto: even at the least a leg samples); 0 when they fit
 * (said), or nothing can be judged (no count to set, or the pilot failed). */
int ab_budget_pilot(const struct ab_plan *plan);

#endif
