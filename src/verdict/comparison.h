/* comparison.h - the model of a comparison: its legs, one row per joined
 * metric with the statistics and the verdict, knob differences, notes and
 * the summary (schema mempath/compare/1 in compare_json.c). The rules that
 * fill it are in compare.c (docs/design.md section 5).
 *
 * Ownership: a comparison points into the runs it was built from (not
 * owned; they must outlive it) and borrows the option strings; one read
 * from a file (comparison_from_json) owns its own copies instead.
 */
#ifndef MEMPATH_VERDICT_COMPARISON_H
#define MEMPATH_VERDICT_COMPARISON_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

#define COMPARE_MAX_LEGS    64
#define COMPARE_MIN_SAMPLES 6
/* Rounds (docs/design.md §5.10): samples a leg of a round needs, and
 * rounds a verdict needs. */
#define COMPARE_MIN_ROUND_SAMPLES 3
#define COMPARE_MIN_ROUNDS	  2
/* The exit status of compare and ab when no verdict can be trusted:
 * controls moved, or legs were measured under different load (§2.1). */
#define COMPARE_EXIT_UNTRUSTED 3
#define COMPARE_SCHEMA	       "mempath/compare/1"

enum verdict {
	VERDICT_NOWIN = 0, /* "~" */
	VERDICT_WIN,
	VERDICT_LOSS,
	VERDICT_SAME, /* equivalent within the margin (auto rounds, §5.13) */
	VERDICT_UNSTABLE,
	VERDICT_VOID,
	VERDICT_FEW,
	VERDICT_FACT,
	VERDICT_MISSING,
	VERDICT_REFUSED,
	VERDICT__COUNT
};

/* Where a row's practical threshold came from (verdict/threshold.h):
 * 1%, --threshold, the gap between legs of one variant (A/B/A'), the
 * rounds' spread. */
enum threshold_from {
	THRESHOLD_FROM_MIN = 0,
	THRESHOLD_FROM_GIVEN,
	THRESHOLD_FROM_GAP,
	THRESHOLD_FROM_ROUNDS,
	THRESHOLD_FROM__COUNT
};
/* "min", "given", "gap", "round_noise" (JSON); parse: 0, or -1. */
const char *threshold_from_id(enum threshold_from f);
int threshold_from_parse(const char *s, enum threshold_from *f);

/* "WIN", "LOSS", "~", "UNSTABLE", "VOID", "too few samples", "fact",
 * "missing", "no verdict". */
const char *verdict_name(enum verdict v);
/* Short machine name for JSON: "win", "loss", "nowin", "same", "unstable",
 * "void", "few", "fact", "missing", "refused". */
const char *verdict_id(enum verdict v);

#define COMPARE_GPU_OTHERS "gpu_others"

struct compare_opts {
	const char *legs;    /* variant per file, e.g. "ABA"; NULL: A,B,A,B... by position */
	double alpha;	     /* 0.05 */
	double threshold;    /* declared practical threshold, a fraction (0.02 = 2%) */
	const char *primary; /* pattern of the metric that matters; NULL: Holm over all */
	const char *const *controls;
	size_t n_controls;
	/* knob names allowed to differ between A and B; COMPARE_GPU_OTHERS: other
	 * processes on the GPUs are the change (a co-tenant), so rounds are not
	 * left out for them */
	const char *const *expect_diff;
	size_t n_expect_diff;
	int allow_diff;		  /* give verdicts even when other knobs differ */
	unsigned bootstrap_iters; /* 2000 */
	uint64_t seed;		  /* bootstrap seed: the same files give the same CI */
	/* The legs are rounds: each pair of files in order is one round of an
	 * A and a B leg (also when every leg's ab record names its round). */
	int rounds;
	/* Other CPUs by which the load of legs may differ before a metric's
	 * verdict is withheld (§4.14); 0: NOISE_BUSY_CPUS. */
	double busy_cpus;
	/* Rounds: the level of the change's CI (0: 0.95), and the margin within
	 * which two one-sided tests at alpha call a change SAME (0: never);
	 * auto rounds set both per look (§5.13). */
	double ci_level;
	double margin;
	/* Missing metrics as one summary line a reason and leg (history check
	 * against a baseline of another suite), not one line each. */
	int brief_missing;
};

void compare_opts_default(struct compare_opts *o);

struct compare_leg {
	const struct run *run;
	const char *file; /* as given (borrowed) */
	char *name;	  /* label, "stock again" for a repeat; A, B, A', B' without labels */
	char variant;	  /* 'A' or 'B' */
	unsigned round;	  /* 1, 2, ... in a comparison of rounds; 0 otherwise */
};

struct compare_row {
	const char *probe, *metric; /* from the first leg that has the metric */
	const struct label *labels, *params;
	size_t n_labels, n_params;
	char *key;   /* "probe metric k=v,k=v" (+ " [params]" if ambiguous) */
	char *ident; /* canonical identity (join key) */
	enum unit unit;
	enum better better;
	int probe_primary; /* PRIMARY_* of its metric (results.h), from the first leg that says */
	int control, primary, moved;		  /* moved: a control that did not read NOWIN */
	const struct metric *m[COMPARE_MAX_LEGS]; /* NULL where absent */
	const struct probe_result *pr[COMPARE_MAX_LEGS]; /* its probe in each leg, or NULL */
	double median[COMPARE_MAX_LEGS];
	size_t n[COMPARE_MAX_LEGS];
	/* pooled over the legs of each variant; rounds: the geometric means
	 * of the medians of the rounds used, so that median_b / median_a is
	 * the change (§5.19) */
	double median_a, median_b;
	double change;	     /* median_b / median_a - 1; NAN when undefined */
	double ci_lo, ci_hi; /* 95% bootstrap CI of change; NAN when undefined */
	double eq_lo, eq_hi; /* rounds with a margin: the 1 - 2 alpha CI (two one-sided tests) */
	double p_vs_a[COMPARE_MAX_LEGS]; /* pooled B against each A leg; NAN elsewhere */
	double p_effect, p_effect_adj;	 /* largest p_vs_a (all must hold); Holm-adjusted */
	double p_legs; /* not rounds: B's leg medians against A's (§5.4); NAN if not tested */
	double drift;  /* largest |last/first - 1| within a variant; 0 if none */
	double p_drift, p_drift_adj;	    /* first vs last leg of a variant; NAN if not tested */
	double threshold;		    /* practical threshold used */
	enum threshold_from threshold_from; /* what set it */
	double round_noise; /* rounds: the spread of the rounds' medians (§5.18); NAN */
	int ci_wide;	    /* the CI is too wide to say (§5.19) */
	/* Other CPUs busy (other processes plus steal) during the metric's
	 * samples in each leg, from the noise meter (NAN: not recorded). */
	double busy[COMPARE_MAX_LEGS];
	/* The probe's threads waiting for a CPU during them (NAN: not recorded):
	 * a neighbour on the probe's CPU under a load that keeps every CPU
	 * busy, where busy no longer moves (§5.18). */
	double wait[COMPARE_MAX_LEGS];
	double gpu_others[COMPARE_MAX_LEGS]; /* most other GPU processes; NAN: not read */
	int noisy;			     /* no verdict: its legs' load differed (§4.14) */
	int few_legs; /* no verdict: too few legs to see between-process variance (§5.4) */
	size_t rounds, rounds_out; /* rounds the verdict rests on, and left out */
	size_t n_a, n_b;	   /* samples the verdict rests on, per variant */
	/* Per leg: samples a receipt voided (a CPU migration in their window,
	 * §4.18); m[] and n[] hold the others. */
	size_t dropped[COMPARE_MAX_LEGS];
	/* Rounds: Cochran's Q over the rounds' log ratios (verdict/hetero.h,
	 * §5.10), or NULL where it could not be tested; owned. */
	json_t *heterogeneity;
	enum verdict verdict;
	char *reason;	  /* one line: why VOID, MISSING, UNSTABLE, FEW; or NULL */
	const char *rule; /* the rule of §5.12 that settled it (compare_rule_name's,
			   * static); NULL: read from a file that predates the field */
	char *note;	  /* while no rule has settled it: what one rule leaves for a later one
			   * (the drift that widened the threshold, §5.12) */
	char *mechanism;  /* WIN, LOSS: the counters that moved with it (mechanism.h), or NULL */
	struct mech_counter *mech; /* ... each of them, ranked (n_mech; none: none moved) */
	size_t n_mech;
};

/* A counter that moved with a verdict: its medians over the A and the B
 * windows (docs/design.md §5.15). */
struct mech_counter {
	char *name;
	double a, b;
};

struct compare_summary {
	size_t count[VERDICT__COUNT]; /* non-control rows per verdict */
	size_t controls, controls_moved;
	size_t noisy; /* non-control rows whose legs' load differed (UNSTABLE) */
	/* Of B/A median ratios, oriented so > 1 means B is better, over the
	 * rows with a verdict (WIN, LOSS, ~), or the primary ones among them
	 * when there is a --primary; none when no verdict is trusted. A
	 * work.wrap row counts only when it is the run's primary figure
	 * (wrap_primary): the workload's own figures with a direction
	 * (tokens/s ...), or wall_time when it reported none; user and sys
	 * time, faults and the rest explain the change, they are not it. */
	double geomean;
	size_t n_geomean;
	int wrap_primary; /* work.wrap rows were narrowed so */
	/* rows were narrowed to their probes' primary figures (kit/probe.h:
	 * cpu.first_touch's touch_rate, not its random_after) */
	int probe_primary;
};

/* What a comparison read back from a file owns (comparison_from_json):
 * there are no caller runs to point into, so the legs' runs (label, times,
 * host), one probe result per row (its name, params and one metric with the
 * labels, marking the legs that had it) and the strings the legs and options
 * borrow live here. Freed by comparison_free. */
struct compare_owned {
	struct run *legs[COMPARE_MAX_LEGS];
	struct probe_result *probes; /* one per row */
	size_t n_probes;
	char **strs; /* file names, option strings */
	size_t n_strs;
	char **controls, **expect_diff; /* arrays; their strings are in strs */
	json_t *tool;			/* "tool" as read: a re-dump keeps who wrote the file */
};

struct comparison {
	struct compare_opts opts;
	struct compare_leg legs[COMPARE_MAX_LEGS];
	size_t n_legs;
	size_t n_rounds; /* a comparison of rounds: legs[] in pairs by round */
	struct compare_row *rows;
	size_t n_rows, cap_rows;
	char **knob_diffs; /* "thp_enabled: stock=madvise, patched=always, ..." */
	size_t n_knob_diffs;
	int refused;  /* knobs differ, no --allow-diff: no verdicts */
	char **notes; /* probes not ok, found parameters differing, no drift check */
	size_t n_notes;
	struct compare_summary summary;
	struct compare_owned *owned; /* NULL unless read from a file */
	/* The legs' metrics without the samples a receipt voided (metric_kept),
	 * that rows point to instead of the runs'. */
	struct metric **kept;
	size_t n_kept;
};

void compare_opts_default(struct compare_opts *o);
void comparison_free(struct comparison *c);
void compare_owned_free(struct compare_owned *o);
/* Any non-control metric with verdict LOSS (for --fail-on-loss). */
int comparison_has_loss(const struct comparison *c);
/* Whether the verdicts can be trusted: no control moved or went unchecked
 * (measured under different load) and no knob differs; a metric whose own
 * legs ran under different load is UNSTABLE and touches no other (§5.11). */
int comparison_trusted(const struct comparison *c);
/* Fills c->summary from the rows' verdicts: counts, controls moved, and the
 * geomean (docs/design.md §5.11). */
void comparison_summarize(struct comparison *c);
/* What the change and the medians beside it are computed from (§5.19):
 * "ratio of the pooled medians of B and A" or, of rounds, the geometric mean
 * of the rounds' ratios of medians, with the medians the geometric means of
 * the rounds' own. A static string. */
const char *comparison_change_from(const struct comparison *c);
/* Appends a note (shown before the table, kept in the file); takes text. */
void comparison_add_note(struct comparison *c, char *text);
/* "incomplete runs - verdicts rest on partial results: B (b.json)" or NULL
 * when every leg's run ended; caller frees. */
char *comparison_incomplete_line(const struct comparison *c);
/* "legs measured under different load - no verdict: X, Y (and 3 more)" or
 * NULL when no metric's legs' load differed; caller frees. */
char *comparison_noise_line(const struct comparison *c);
/* "measured under an emulator (QEMU TCG): timings are the emulator's, not
 * memory figures; ..." when a leg's fingerprint says emulator, else NULL;
 * caller frees. */
char *comparison_emulated_line(const struct comparison *c);
/* "controls moved - verdicts untrusted: X (LOSS), Y (VOID)" or NULL; caller frees. */
char *comparison_controls_line(const struct comparison *c);
/* "summary: 1 WIN, 0 LOSS, 3 NOWIN, 0 UNSTABLE; geomean 1.31x ...", or
 * "no trusted verdict (controls moved): ..." first when none can be
 * trusted; caller frees. */
char *comparison_summary_line(const struct comparison *c);

/* One line, as hyperfine answers: the largest change with a verdict, its
 * 95% CI, and how many others changed or did not ("patched is 3.1x faster
 * at cpu.first_touch touch_rate pages=thp [2.9, 3.4], 2 unchanged"); NULL
 * when no verdict is trusted (the summary line says why). A new string. */
char *comparison_headline(const struct comparison *c);

#endif
