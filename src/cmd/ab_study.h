/* ab_study.h - what the files of `mempath ab` share (cmd/ab.c the command and its
 * rows, cmd/ab_study.c its variants beyond A and B, docs/design.md §5.22). */
#ifndef MEMPATH_CMD_AB_STUDY_H
#define MEMPATH_CMD_AB_STUDY_H

#include <stddef.h>

#include "cmd/args.h"
#include "cmd/groups.h"
#include "flow/ab.h"
#include "verdict/comparison.h"

struct ab_opts {
	const char *a, *b, *restore, *legs, *label_a, *label_b, *dir, *pending, *order;
	const char *a_args, *b_args, *title, *summary_out;
	/* a study (docs/design.md §5.22): --variant NAME[:CMD], --variant-env
	 * NAME:K=V, --variant-args NAME:WORDS; --factor F=L1,L2, --level
	 * F=L:CMD, --level-env F=L:K=V, --level-args F=L:WORDS; --all-pairs */
	struct arg_strs variants, variant_env, variant_args, factors, levels, level_env, level_args;
	int all_pairs;
	unsigned setup_timeout_s, rounds, seed, max_rounds;
	struct arg_strs a_env, b_env;
	struct verdict_args v;
	double margin, budget_s;
	int fail_on_loss;
	int auto_rounds; /* --rounds auto (docs/design.md §5.13) */
};

/* The ab command line that reproduces these legs (the seed of a random
 * order included), for the legs' record and `findings`; a new string. */
char *ab_command_line(const struct ab_opts *o, const struct cmd_line *l);
/* The variants --variant or --factor give (the baseline first), into *vars
 * (ab_variants_free): 0 with *n 0 when neither is given; -1 after an error
 * line. */
int ab_variants_build(const struct ab_opts *o, struct ab_variant **vars, size_t *n);
void ab_variants_free(struct ab_variant *vars, size_t n);
/* The variants into the plan: two are its A and B (their environments moved
 * there), more its vars; refused when a variant's setup has nothing to put
 * the machine back. 0, or -1 after an error line. */
int ab_study_plan(const struct ab_opts *o, struct ab_plan *plan, struct ab_variant **vars,
		  size_t *n);
/* The legs of a study compared: study.md and study.json in the directory,
 * the tables on stdout; the exit status as compare's (cmd/study.h), 2 or -1
 * on error. note (taken) goes with the study. */
int ab_study_compare(const struct ab_opts *o, const struct compare_opts *co, char *const *leg_paths,
		     size_t n, char *note);

#endif
