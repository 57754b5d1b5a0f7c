/* study.h - what `compare --study` and an ab of more than two variants
 * share (docs/design.md §5.22): legs grouped by variant, the study
 * compared, written, and how the command ends. */
#ifndef MEMPATH_CMD_STUDY_H
#define MEMPATH_CMD_STUDY_H

#include <stddef.h>

#include "report/format.h"
#include "results/results.h"
#include "verdict/comparison.h"

struct study;

/* The n runs (files name them) grouped by variant (their ab records, else
 * their labels, baseline first when named) and compared; NULL after an
 * error line. */
struct study *study_of_runs(const struct run *const *runs, const char *const *files, size_t n,
			    const char *baseline, const struct compare_opts *co, int all_pairs);
/* How the command ends once the study is written: 0, with each variant's
 * summary line on stderr for the first metric that matters;
 * COMPARE_EXIT_UNTRUSTED when a comparison's verdicts cannot be trusted; 1
 * with fail_on_loss and a LOSS. */
int study_exit(const struct study *s, int fail_on_loss);

#endif
