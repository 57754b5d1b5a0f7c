/* bisect.h - one step of `mempath bisect` (docs/design.md §5.14): the
 * version under test measured in N legs of the leg command (ab's legs,
 * flow/ab.h: the setup before each, the restore at the end), a stability
 * gate over those legs, then the legs compared with the good and with the
 * bad reference (verdict/compare.h) and the step judged good, bad, or
 * cannot tell. The command writes the comparisons and the report.
 *
 * The references are either results files measured before, or measured
 * now: with good_args and bad_args (a wrapped command's words, as ab's
 * --a-args) each round is a good, a test and a bad leg (GTB, then BTG, so
 * the version under test is always between its references in time), and
 * each comparison is one of rounds (§5.10): what the machine's load does to
 * a round it does to its three legs.
 */
#ifndef MEMPATH_FLOW_BISECT_H
#define MEMPATH_FLOW_BISECT_H

#include <stddef.h>

#include "results/results.h"
#include "verdict/comparison.h"

#define BISECT_MAX_ROUNDS 16
/* A leg's default bound: a leg that hangs makes the step a skip (125), so
 * `git bisect run` never stalls on it (--leg-timeout changes it). */
#define BISECT_LEG_TIMEOUT_S 3600
#define BISECT_MAX_LEGS	     (3 * BISECT_MAX_ROUNDS)

enum bisect_verdict {
	BISECT_GOOD = 0,  /* exit 0: like the good reference */
	BISECT_BAD = 1,	  /* exit 1: like the bad reference */
	BISECT_SKIP = 125 /* exit 125: cannot tell (git bisect skips it) */
};

struct bisect_plan {
	const struct run *good, *bad; /* the references (borrowed) */
	const char *good_name, *bad_name;
	const char *metric; /* compare pattern of the metrics that decide; NULL: all */
	unsigned legs;	    /* legs (rounds) of the version under test (>= 2) */
	/* measured references: the wrapped command's words of each (both or
	 * neither); test_args those of the version under test, or NULL */
	const char *good_args, *bad_args, *test_args;
	const char *good_setup, *bad_setup;
	double stable; /* the gate: a fraction (0.10) */
	const char *setup, *restore;
	double setup_timeout_s;
	double leg_timeout_s; /* each leg's bound (bisect's --leg-timeout) */
	char *const *argv;    /* the leg command, as ab takes it */
	int argc;
	const char *dir; /* the step's own directory (made by the caller) */
	struct compare_opts co;
};

struct bisect_step {
	enum bisect_verdict verdict;
	char *why;  /* one line */
	int failed; /* a setup, leg or restore failed (verdict: skip); 130: interrupted */
	struct run *legs[BISECT_MAX_LEGS];
	char *leg_paths[BISECT_MAX_LEGS];
	char variant[BISECT_MAX_LEGS]; /* 'A' good, 'B' bad, 'C' the version under test */
	size_t n_legs;
	struct comparison *vs_good, *vs_bad; /* NULL when the gate stopped it */
};

/* Runs and judges one step; the step is filled whatever happens. */
void bisect_step_run(const struct bisect_plan *p, struct bisect_step *s);
void bisect_step_free(struct bisect_step *s);

#endif
