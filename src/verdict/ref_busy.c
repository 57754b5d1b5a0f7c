/* src/verdict/ref_busy.c - a reference check whose samples ran while others
 * used the machine: INCONCLUSIVE with the load named, or WARN/FAIL with the
 * load named where the deviation is beyond what that load explains
 * (docs/design.md §4.14). */
#include "verdict/ref_busy.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "machine/noise.h"

void ref_judge_busy(struct fleet_check *c, const json_t *noise)
{
	const json_t *mean = json_object_get(noise, "mean");
	double other = json_number_value(json_object_get(mean, "other_cpus")) +
		       json_number_value(json_object_get(mean, "steal_cpus"));
	long cpus = (long)json_integer_value(json_object_get(noise, "cpus"));
	double worse, explained;
	char *busy, *t;
	if (!mean || !(other >= NOISE_BUSY_CPUS) ||
	    (c->status != CHECK_WARN && c->status != CHECK_FAIL))
		return;
	if (!(c->reference > 0) || !(c->value > 0))
		return;
	/* how many times worse than the reference; each other busy CPU can at
	 * most add one contender for the CPU or the memory path this figure
	 * used, so the load explains up to (1 + other) times, on top of the
	 * tolerance's twice */
	worse = c->better == BETTER_LOWER ? c->value / c->reference : c->reference / c->value;
	explained = (1 + other) * (1 + 2 * c->tolerance);
	busy = cpus > 0 ? xasprintf("busy: %.2f of %ld CPUs used by other work", other, cpus)
			: xasprintf("busy: %.2f CPUs used by other work", other);
	if (worse <= explained) {
		c->status = CHECK_NA;
		t = xasprintf("%s while it ran (%.2fx the reference, within the %.2fx that load "
			      "can explain); measure again on a quiet machine",
			      busy, worse, explained);
	} else {
		t = xasprintf("%s while it ran, yet %.2fx the reference is beyond the %.2fx that "
			      "load can explain",
			      busy, worse, explained);
	}
	free(busy);
	if (c->status == CHECK_NA) {
		free(c->reason);
		c->reason = t;
	} else {
		free(c->load);
		c->load = t;
	}
}

char *ref_busy_text(const json_t *noise)
{
	const json_t *mean = json_object_get(noise, "mean");
	double other = json_number_value(json_object_get(mean, "other_cpus")) +
		       json_number_value(json_object_get(mean, "steal_cpus"));
	long cpus = (long)json_integer_value(json_object_get(noise, "cpus"));
	if (!mean || !(other >= NOISE_BUSY_CPUS))
		return NULL;
	return cpus > 0 ? xasprintf("busy: %.2f of %ld CPUs used by other work", other, cpus)
			: xasprintf("busy: %.2f CPUs used by other work", other);
}
