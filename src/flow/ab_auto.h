/* ab_auto.h - `ab --rounds auto`: after each round, whether to run another
 * (docs/design.md §5.13). The looks come where verdict/sequential.h says,
 * each comparing the legs so far at the alpha that look may spend; the
 * rounds end when every metric that matters is decided (WIN, LOSS, SAME
 * within the margin), when knobs differ, at the most rounds, or before a
 * round that would pass the time budget. A round left out for its legs'
 * load (in any metric that matters) is replaced by another: the looks and
 * the most rounds count the rounds used, up to ab_auto_cap rounds run
 * (§5.18). The last look's options are the final comparison's. */
#ifndef MEMPATH_FLOW_AB_AUTO_H
#define MEMPATH_FLOW_AB_AUTO_H

#include <stddef.h>

#include "results/results.h"
#include "verdict/comparison.h"

struct ab_auto {
	struct compare_opts co; /* the look's alpha, CI level and margin */
	unsigned max, prev;	/* the most rounds used; the rounds used at the last look */
	unsigned cap, out;	/* the most rounds run; rounds left out for load so far */
	unsigned look_r;	/* the round of the last look */
	double budget_s;	/* 0: none */
	double t0, alpha;	/* start; what the last look tested at */
	char *why;		/* why the rounds ended, once they have */
	const char *schedule;	/* every planned leg (borrowed) */
	char *legs;		/* the legs of the last look: the schedule's first 2r */
	double alpha0;		/* the alpha spent over all the looks */
	/* a study (docs/design.md §5.22): legs a round (2: an A/B), the
	 * schedule set after ab_auto_start; every pair compared too */
	size_t per_round;
	int all_pairs;
	const struct run **held; /* a look's runs, while its study lives */
	size_t n_held;
};

/* The rounds a plan of at most max rounds used schedules: max and half as
 * many again to replace rounds left out for their load, at most
 * COMPARE_MAX_LEGS / 2. */
unsigned ab_auto_cap(unsigned max);
/* Auto rounds from co (the comparison's options, margin set), at most max
 * rounds used, within budget_s seconds (0: no budget). */
void ab_auto_start(struct ab_auto *a, const struct compare_opts *co, unsigned max, double budget_s);
/* The flow's go_on (flow/ab.h): 1 for another round, 0 to end here. */
int ab_auto_go_on(void *ctx, unsigned round, char *const *leg_paths);
/* After rounds_run rounds: *co becomes the last look's options (a look
 * where the plan ended, when no earlier one ended it); the note saying why
 * the rounds ended and at what alpha, a new string. */
char *ab_auto_finish(struct ab_auto *a, unsigned rounds_run, struct compare_opts *co);
void ab_auto_free(struct ab_auto *a);

/* The first n legs' files read (into *runs, ab_runs_free) and compared; NULL
 * after an error line. */
struct comparison *ab_compare_files(const struct compare_opts *co, char *const *leg_paths, size_t n,
				    const struct run ***runs);
void ab_runs_free(const struct run **runs, size_t n);

#endif
