/* compare_runs.h - runs built in memory for the comparison unit tests
 * (test_compare.c, test_compare_legs.c): samples of a seeded generator, a
 * run with its THP knob, a metric of n samples. Static: each test its own
 * generator. */
#ifndef MEMPATH_TESTS_COMPARE_RUNS_H
#define MEMPATH_TESTS_COMPARE_RUNS_H

#include <jansson.h>

#include "base/util.h"
#include "results/results.h"

static struct rng gen;

/* Roughly normal samples: mean mu, relative spread cv. */
static inline void fill(double *x, size_t n, double mu, double cv)
{
	for (size_t i = 0; i < n; i++) {
		double s = 0;
		for (int k = 0; k < 4; k++)
			s += (double)(rng_next(&gen) >> 11) / 9007199254740992.0;
		x[i] = mu * (1 + cv * (s - 2) * 1.732);
	}
}

static inline struct run *mk_run(const char *label, const char *thp)
{
	struct run *r = run_new();
	r->label = label ? xstrdup(label) : NULL;
	r->knobs_start = json_pack("{s:s, s:i}", "thp_enabled", thp, "swappiness", 60);
	r->knobs_end = json_pack("{s:s, s:i}", "thp_enabled", thp, "swappiness", 60);
	return r;
}

static inline struct metric *mk_metric(struct probe_result *p, const char *name, enum better b,
				       const char *pages, double mu, double cv, size_t n)
{
	struct metric *m = probe_add_metric(p, name, UNIT_NS, b, "test", "pages", pages, NULL);
	double x[64];
	fill(x, n, mu, cv);
	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, b == BETTER_NONE ? mu : x[i]);
	return m;
}

#endif
