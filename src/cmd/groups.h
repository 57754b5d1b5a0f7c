/* groups.h - options several commands share, each defined once with its
 * name, range, help and default (docs/design.md §9.13): a command embeds the
 * group's struct in its options and lists the group's rows in its table,
 *
 *   struct run_opts { struct sampling_args s; ... };
 *   static const struct arg run_args[] = {ARGS_SAMPLING_AUTO(struct run_opts, s), ...};
 *
 * and takes the defaults and the settings from the group's functions. The
 * sampling options are the measuring commands' (run, probe, check, fleet),
 * the verdict options the comparing ones' (compare, ab, history check). */
#ifndef MEMPATH_CMD_GROUPS_H
#define MEMPATH_CMD_GROUPS_H

#include "base/util.h"
#include "cmd/args.h"
#include "exec/runner.h"
#include "machine/noise.h"
#include "verdict/comparison.h"

/* ---- single rows: the same option in commands with nothing else shared */
#define ARG_FORCE(st, f) ARG_FLAG("force", 0, st, f, "allow sizes above 80% of MemAvailable")
#define ARG_QUIET(st, f) ARG_FLAG("quiet", 'q', st, f, "no progress lines on stderr")

/* ---- sampling: how many samples a measuring command takes */
struct sampling_args {
	unsigned reps, warmups, timeout_s, budget_s, sample_ms;
	double ci; /* --reps auto */
	int force, quiet;
};

#define SAMPLING_CI	  0.01 /* --reps auto: +-1% */
#define SAMPLING_BUDGET_S 30   /* --reps auto: seconds a metric may sample for */

#define ARG_SAMPLING_WARMUPS(st, m)                                                 \
	ARG_COUNT("warmups", 0, st, m.warmups, "N", 0, 100000,                      \
		  "warm-up samples per metric, kept but not counted (default " STR( \
			  RUNNER_WARMUPS) ")")
/* --window-ms's help: the defaults from runner.h */
#define SAMPLING_WINDOW_HELP                                                                   \
	"shortest sample window, ms (default " STR(RUNNER_SAMPLE_MS) ", GPU probes " STR(      \
		RUNNER_GPU_SAMPLE_MS) "); longer windows let counters that\nadvance in steps " \
				      "(NVML's PCIe bytes) tell a window"
#define ARG_SAMPLING_TIMEOUT(st, m)                                                 \
	ARG_COUNT("timeout", 0, st, m.timeout_s, "S", 1, 100000,                    \
		  "per-probe timeout in seconds (default: the probe's, else 600)"), \
		ARG_COUNT("window-ms", 0, st, m.sample_ms, "MS", 1, 600000, SAMPLING_WINDOW_HELP)
/* reps, warmups, timeout, force, quiet: check, fleet */
#define ARGS_SAMPLING(st, m)                                                                      \
	ARG_COUNT("reps", 0, st, m.reps, "N", 1, 100000,                                          \
		  "counted samples per metric (default " STR(RUNNER_REPS) ")"),                   \
		ARG_SAMPLING_WARMUPS(st, m), ARG_SAMPLING_TIMEOUT(st, m), ARG_FORCE(st, m.force), \
		ARG_QUIET(st, m.quiet)
/* the same with --reps auto and its --ci and --budget: run, probe */
#define ARGS_SAMPLING_AUTO(st, m)                                                                 \
	ARG_REPS("reps", 0, st, m.reps, "N", 1, 100000,                                           \
		 "counted samples per metric (default " STR(                                      \
			 RUNNER_REPS) "); auto: at least 10, then\n"                              \
				      "more until the 95% CI of the median is within --ci (or "   \
				      "--budget)"),                                               \
		ARG_PCT("ci", 0, st, m.ci, "PCT",                                                 \
			"--reps auto: the CI of the median to reach, +-PCT (default 1)"),         \
		ARG_COUNT("budget", 0, st, m.budget_s, "S", 1, 100000,                            \
			  "--reps auto: seconds a metric may sample for (default " STR(           \
				  SAMPLING_BUDGET_S) ")"),                                        \
		ARG_SAMPLING_WARMUPS(st, m), ARG_SAMPLING_TIMEOUT(st, m), ARG_FORCE(st, m.force), \
		ARG_QUIET(st, m.quiet)

/* The defaults: RUNNER_REPS, RUNNER_WARMUPS, SAMPLING_CI, SAMPLING_BUDGET_S. */
void sampling_args_init(struct sampling_args *s);
/* The runner's options these give (runner_opts_default first). */
void sampling_args_runner(const struct sampling_args *s, struct runner_opts *ro);
/* The counted samples per metric they give (auto: at least MEASURE_AUTO_MIN). */
unsigned sampling_args_samples(const struct sampling_args *s);

/* ---- verdicts: what a comparison judges by */
struct verdict_args {
	double threshold, load_diff;
	struct arg_strs controls, expect;
	const char *primary;
	int allow_diff;
};

/* threshold, load-diff, control, primary, expect-diff, allow-diff */
#define ARGS_VERDICT(st, m)                                                                  \
	ARG_PCT("threshold", 0, st, m.threshold, "PCT",                                      \
		"smallest change that matters, in percent (default 0: 1% floor)"),           \
		ARG_NUM("load-diff", 0, st, m.load_diff, "CPUS", 0, 4096,                    \
			"other CPUs by which the legs' load may differ before a verdict\n"   \
			"is withheld (default " STR(NOISE_BUSY_CPUS) ")"),                   \
		ARG_STRS("control", 0, st, m.controls, "PAT",                                \
			 "a metric that must not move; PAT is GLOB[,KEY=GLOB...], GLOB\n"    \
			 "matching 'probe' or 'probe:metric', KEY=GLOB a label or option:\n" \
			 "--control 'cpu.first_touch,pages=thp'"),                           \
		ARG_STR("primary", 0, st, m.primary, "PAT",                                  \
			"the metric that matters: tested at alpha without correction"),      \
		ARG_ITEMS("expect-diff", 0, st, m.expect, "K",                               \
			  "knob K (e.g. thp_enabled) is the change; others must match; "     \
			  "gpu_others: other processes on the GPUs are (a co-tenant)"),      \
		ARG_FLAG("allow-diff", 0, st, m.allow_diff,                                  \
			 "give verdicts even when other knobs differ")
/* What compare and ab also take */
#define ARG_EXPORT_SUMMARY(st, f)                                                   \
	ARG_STR("export-summary", 0, st, f, "FILE",                                 \
		"also write medians, mean +- sigma, p5..p95, the change with its\n" \
		"CI and the verdicts, no samples: FILE.json or FILE.csv")
#define ARG_FAIL_ON_LOSS(st, f) \
	ARG_FLAG("fail-on-loss", 0, st, f, "exit 1 when a metric that is not a control reads LOSS")

struct comparison;
/* How compare and ab end once the comparison is written: 0, with its
 * headline last on stderr (the answer, last on the terminal);
 * COMPARE_EXIT_UNTRUSTED when no verdict can be trusted (the summary line
 * said why); 1 with fail_on_loss and a LOSS, after its error line. */
int comparison_exit(const struct comparison *c, int fail_on_loss);

/* The verdict options into co (after compare_opts_default), the patterns
 * checked: 0, or -1 after an error line. */
int verdict_args_apply(const struct verdict_args *v, struct compare_opts *co);
/* Whether any of them was set (a command that reads them only sometimes). */
int verdict_args_given(const struct verdict_args *v);

#endif
