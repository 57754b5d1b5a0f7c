/* src/verdict/ref_busy.c - a reference check whose samples ran while others
 * used the machine: INCONCLUSIVE with the load named, or WARN/FAIL with the
 * load named where the deviation is beyond what that load explains
 * (docs/design.md §4.14). */
#include "verdict/ref_busy.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "machine/noise.h"

int ref_busy_load(const json_t *noise, double *other, long *cpus)
{
	const json_t *mean = json_object_get(noise, "mean");
	*other = json_number_value(json_object_get(mean, "other_cpus")) +
		 json_number_value(json_object_get(mean, "steal_cpus"));
	*cpus = (long)json_integer_value(json_object_get(noise, "cpus"));
	return mean && *other >= NOISE_BUSY_CPUS;
}

char *ref_busy_text(double other, long cpus)
{
	return cpus > 0 ? xasprintf("busy: %.2f of %ld CPUs used by other work", other, cpus)
			: xasprintf("busy: %.2f CPUs used by other work", other);
}

void ref_flag_busy(struct fleet_flag *fl, const json_t *noise)
{
	double other, worse, explained;
	long cpus;
	char *busy, *t;
	if (!ref_busy_load(noise, &other, &cpus) || !(fl->value > 0) || !(fl->group_median > 0))
		return;
	/* the same rule as a reference check's, the group median standing for
	 * the reference and the peers' threshold for the tolerance */
	worse = fl->better == BETTER_LOWER ? fl->value / fl->group_median
					   : fl->group_median / fl->value;
	explained = (1 + other) * (1 + 2 * fl->threshold);
	busy = ref_busy_text(other, cpus);
	if (worse <= explained) {
		fl->busy = xasprintf("%s while it ran (%.2fx the group median, within the %.2fx "
				     "that load can explain): busy, not slow; measure again on a "
				     "quiet machine",
				     busy, worse, explained);
		t = xasprintf("%s; %s", fl->why ? fl->why : "", fl->busy);
	} else {
		t = xasprintf("%s; %s while it ran, yet %.2fx the group median is beyond the "
			      "%.2fx that load can explain",
			      fl->why ? fl->why : "", busy, worse, explained);
	}
	free(busy);
	free(fl->why);
	fl->why = t;
}

void ref_judge_busy(struct fleet_check *c, const json_t *noise)
{
	double other, worse, explained;
	long cpus;
	char *busy, *t;
	if (!ref_busy_load(noise, &other, &cpus) ||
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
	busy = ref_busy_text(other, cpus);
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

char *ref_busy_note(const json_t *noise)
{
	double other;
	long cpus;
	return ref_busy_load(noise, &other, &cpus) ? ref_busy_text(other, cpus) : NULL;
}
