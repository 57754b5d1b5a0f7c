/* legs.h - the leg command of ab and bisect: a mempath command that
 * measures (run, probe, wrap), parsed here as the leg will parse it, so a
 * typo fails before any setup runs. It takes -o and --label: ab and bisect
 * add their own, so the user's would make the legs overwrite one file or
 * relabel them. */
#ifndef MEMPATH_CMD_LEGS_H
#define MEMPATH_CMD_LEGS_H

#include "cmd/args.h"

struct leg_command {
	const struct command *c;  /* the leg's command */
	unsigned samples;	  /* what it gives a metric, as typed (--reps auto: the least) */
	unsigned long long given; /* its options given (args_given) */
	/* the option that sets its samples ("--reps"; wrap's runs "-n"; NULL:
	 * none), and where its options end in argv (args_options_end): where a
	 * pilot's count goes, after the user's own and before the workload */
	const char *count_opt;
	int opts_end;
};

/* l's positional words checked as a leg command of `who` ("ab"); args_opts:
 * the per-leg words of a wrapped command ("--a-args/--b-args"), so the leg
 * must be wrap and not set --args itself, or NULL. 0, or -1 after one error
 * line (no leg ran). */
int leg_command_check(const struct cmd_line *l, const char *who, const char *args_opts,
		      struct leg_command *out);
/* With rounds: the samples each leg gets (those given split over the rounds
 * where the command takes --reps, unless --reps auto; wrap's iterations as
 * given) into *leg_reps (0: as given), checked against what a verdict of
 * rounds needs (docs/design.md §5.10). Too few a leg is raised to that
 * least where --reps was not given, or where `raise` (auto rounds, which
 * choose how many rounds: said on stderr); else refused. 0, or -1 after an
 * error line. */
int leg_rounds_plan(const struct leg_command *lc, const struct cmd_line *l, unsigned rounds,
		    int raise, unsigned *leg_reps);

#endif
