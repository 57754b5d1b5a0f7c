/* legs.c - the leg command of ab and bisect (legs.h). */
#include "cmd/legs.h"

#include <string.h>

#include "base/util.h"
#include "verdict/comparison.h"

/* Has command c an option named `name`? */
static int has_arg(const struct command *c, const char *name)
{
	for (const struct arg *a = c->args; a && a->type; a++)
		if (a->name && strcmp(a->name, name) == 0)
			return 1;
	return 0;
}

/* Does the leg command sample until precise enough (--reps auto, the last
 * --reps given)? Then each leg samples so, not split over the rounds. */
static int reps_auto(int argc, char **argv)
{
	int is_auto = 0;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
			is_auto = strcmp(argv[++i], "auto") == 0;
		else if (str_starts_with(argv[i], "--reps="))
			is_auto = strcmp(argv[i] + 7, "auto") == 0;
	}
	return is_auto;
}

int leg_rounds_plan(const struct leg_command *lc, const struct cmd_line *l, unsigned rounds,
		    int raise, unsigned *leg_reps)
{
	const struct command *c = lc->c;
	int split =
		has_arg(c, "reps") && !(c->flags & CMD_STOP_AT_ARG) && !reps_auto(l->argc, l->argv);
	unsigned per_leg = split ? lc->samples / rounds : lc->samples;
	/* --reps not given: each leg at least what a round needs, whatever the
	 * command's own default (a probe as typed runs) */
	if (split && per_leg < COMPARE_MIN_ROUND_SAMPLES && !args_given(c, lc->given, "reps"))
		per_leg = COMPARE_MIN_ROUND_SAMPLES;
	/* auto rounds chose the rounds, not the user: each leg the least */
	if (split && per_leg < COMPARE_MIN_ROUND_SAMPLES && raise) {
		progress("ab: --reps %u over the first %u rounds gives %u a leg; each leg runs %d, "
			 "the least a round needs",
			 lc->samples, rounds, per_leg, COMPARE_MIN_ROUND_SAMPLES);
		per_leg = COMPARE_MIN_ROUND_SAMPLES;
	}
	*leg_reps = split ? per_leg : 0;
	if (per_leg < COMPARE_MIN_ROUND_SAMPLES)
		return error("%u rounds of the leg command's %u samples give %u a leg; a leg of a "
			     "round needs at least %d (--reps %u or more, or fewer rounds)",
			     rounds, lc->samples, per_leg, COMPARE_MIN_ROUND_SAMPLES,
			     rounds * COMPARE_MIN_ROUND_SAMPLES);
	return 0;
}

int leg_command_check(const struct cmd_line *l, const char *who, const char *args_opts,
		      struct leg_command *out)
{
	const struct command *c;
	int rc;
	if (l->argc < 1)
		return error("%s needs a mempath command after -- (e.g. -- run --suite quick)",
			     who);
	c = l->find ? l->find(l->argv[0]) : NULL;
	if (!c || !c->samples)
		return error("'%s' is not a mempath command that measures; %s runs run, probe "
			     "or wrap (e.g. -- run --suite quick)",
			     l->argv[0], who);
	rc = args_try(c, l->argc, l->argv, &out->samples, &out->given);
	if (rc == 1)
		return error("the leg command asks for --help; no leg ran");
	if (rc != 0)
		return -1; /* its error line said why; no leg ran */
	out->c = c;
	out->count_opt = has_arg(c, "reps") ? "--reps" : NULL;
	for (const struct arg *a = c->args; !out->count_opt && a && a->type; a++)
		if (a->short_name == 'n' && a->type == ARG_T_COUNT)
			out->count_opt = "-n";
	/* options anywhere (probe NAME --reps 3), unless its first word ends
	 * them (wrap -n 5 CMD) */
	out->opts_end =
		c->flags & CMD_STOP_AT_ARG ? args_options_end(c, l->argc, l->argv) : l->argc;
	if (args_given(c, out->given, "output") || args_given(c, out->given, "label"))
		return error("the leg command sets %s: %s sets each leg's results file and label "
			     "itself (leave them out)",
			     args_given(c, out->given, "output") ? "its output" : "a label", who);
	/* per-leg words go into a wrapped command (docs/design.md §11.5) */
	if (args_opts && strcmp(c->name, "wrap") != 0)
		return error("%s are words of a wrapped command: the leg must be 'wrap' (e.g. -- "
			     "wrap -n 6 -- llama-bench -m m.gguf {} -o json)",
			     args_opts);
	if (args_opts && args_given(c, out->given, "args"))
		return error("the leg command sets --args: %s gives each leg its own (%s)", who,
			     args_opts);
	return 0;
}
