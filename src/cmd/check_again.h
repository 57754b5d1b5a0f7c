/* check_again.h - `check --again-quiet S`: the probes whose figures were
 * INCONCLUSIVE because others used the machine, measured again once it is
 * quiet (docs/design.md §4.14). */
#ifndef MEMPATH_CMD_CHECK_AGAIN_H
#define MEMPATH_CMD_CHECK_AGAIN_H

#include "cmd/groups.h"
#include "results/results.h"
#include "verdict/reference.h"

/* Judges r against the matched kinds; where a figure is INCONCLUSIVE busy,
 * waits at most max_s seconds for the machine to be quiet (other CPUs
 * under NOISE_BUSY_CPUS over a 1 s look) and then runs those probes again,
 * their new results replacing the old in r (the rest of r kept), saying on
 * stderr what it did; out, if set, is written with the new r (sa: the
 * sampling options of the first measurement). 0 done
 * (nothing was busy, or it stayed busy: the figures stay INCONCLUSIVE), -1
 * a probe could not run or out could not be written. */
int check_again_quiet(struct run *r, const struct ref_set *refs, const int *match, double max_s,
		      const char *out, const struct sampling_args *sa, int argc, char **argv);

#endif
