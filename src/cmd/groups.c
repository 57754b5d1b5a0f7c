/* groups.c - the shared option groups' defaults and settings (groups.h). */
#include "cmd/groups.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "kit/measure.h"
#include "verdict/comparison.h"
#include "verdict/join.h"

int comparison_exit(const struct comparison *c, int fail_on_loss)
{
	char *head;

	if (!comparison_trusted(c))
		return COMPARE_EXIT_UNTRUSTED; /* the summary line said why */
	if (fail_on_loss && comparison_has_loss(c)) {
		error("%zu metric(s) read LOSS (--fail-on-loss)", c->summary.count[VERDICT_LOSS]);
		return 1;
	}
	head = comparison_headline(c); /* a failure's answer is its error line */
	if (head)
		fprintf(stderr, "%s\n", head);
	free(head);
	return 0;
}

void sampling_args_init(struct sampling_args *s)
{
	s->reps = RUNNER_REPS;
	s->warmups = RUNNER_WARMUPS;
	s->ci = SAMPLING_CI;
	s->budget_s = SAMPLING_BUDGET_S;
	s->sample_ms = 0; /* not given: the runner's defaults */
}

void sampling_args_runner(const struct sampling_args *s, struct runner_opts *ro)
{
	runner_opts_default(ro);
	ro->reps = sampling_args_samples(s);
	ro->auto_ci = s->reps ? 0 : s->ci;
	ro->auto_budget_s = s->budget_s;
	ro->warmups = s->warmups;
	ro->timeout_s = s->timeout_s;
	ro->force = s->force;
	if (s->sample_ms) {
		ro->min_sample_ns = (uint64_t)s->sample_ms * 1000000ull;
		ro->window_given = 1;
	}
}

unsigned sampling_args_samples(const struct sampling_args *s)
{
	return s->reps ? s->reps : MEASURE_AUTO_MIN;
}

int verdict_args_apply(const struct verdict_args *v, struct compare_opts *co)
{
	co->threshold = v->threshold;
	co->busy_cpus = v->load_diff;
	co->allow_diff = v->allow_diff;
	co->primary = v->primary;
	co->controls = v->controls.v;
	co->n_controls = v->controls.n;
	co->expect_diff = v->expect.v;
	co->n_expect_diff = v->expect.n;
	for (size_t i = 0; i < v->controls.n; i++)
		if (compare_pattern_check(v->controls.v[i], "--control") != 0)
			return -1;
	if (v->primary && compare_pattern_check(v->primary, "--primary") != 0)
		return -1;
	return 0;
}

int verdict_args_given(const struct verdict_args *v)
{
	return v->threshold > 0 || v->load_diff > 0 || v->controls.n || v->expect.n || v->primary ||
	       v->allow_diff;
}
