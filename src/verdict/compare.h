/* compare.h - verdicts over the legs of an A/B/A' comparison (docs/design.md
 * section 5).
 *
 * Legs are runs of two variants, A (baseline) and B (the change), in the order
 * they were measured: "ABA" by default for three files, "AB" for two, or any
 * pattern (ABAB, ABBA). Metrics are joined as join.h says.
 *
 * Per metric: pooled medians per variant, change of B against A with a
 * percentile-bootstrap 95% CI, two-sided Mann-Whitney U of pooled B against
 * each A leg, and a verdict:
 *   UNSTABLE  legs of one variant differ significantly beyond max(1%, --threshold)
 *   WIN/LOSS  B differs from every A leg in the same direction, each significant
 *             (the largest p, Holm-adjusted), and the CI of the change lies
 *             beyond the practical threshold max(1%, same-variant gap, --threshold)
 *   NOWIN     otherwise ("~")
 * before which: MISSING (absent from a leg), VOID (probe status differs
 * between legs, or an expected-exact fact such as thp_backed differs between
 * legs of one variant), FACT (better=none: reported, never judged), FEW (< 6
 * samples in a leg). When knobs differ beyond --expect-diff (and no
 * --allow-diff) every verdict becomes REFUSED.
 *
 * Holm-Bonferroni families: the --primary metrics (if any), the controls, and
 * everything else. Controls are checks, not hypotheses: keeping them out of
 * the main family neither dilutes the metrics that matter nor hides a moved
 * control behind their correction.
 *
 */
#ifndef MEMPATH_VERDICT_COMPARE_H
#define MEMPATH_VERDICT_COMPARE_H

#include "verdict/comparison.h"
#include "verdict/join.h"

/* Compares n runs (files[i] names them in messages). Returns a new
 * comparison, or NULL after one error line (bad legs pattern, too many legs). */
struct comparison *compare_runs(const struct run *const *runs, const char *const *files, size_t n,
				const struct compare_opts *o);
/* The k-th rule of the pipeline (docs/design.md §5.12's table, in its
 * order: the name a row's `rule` records), NULL past the last; *after_stats
 * says whether it comes after the statistics and Holm's correction. */
const char *compare_rule_name(size_t k, int *after_stats);

#endif
