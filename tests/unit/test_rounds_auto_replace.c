/* test_rounds_auto_replace.c - `ab --rounds auto` replaces a round left out
 * for its legs' load by another (docs/design.md §5.13, §5.18): the looks and
 * --max-rounds count the rounds used, the schedule holds spare rounds. The
 * legs are results files written here; round 2's B leg ran beside a load. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "flow/ab_auto.h"
#include "results/results_json.h"
#include "verdict/sequential.h"

#define ROUNDS 8

static char dir[] = "/tmp/mempath-auto-XXXXXX";
static char *paths[2 * ROUNDS + 1];

/* Round k (1-based) of ABBA...: B is A + 50%; the B leg of round `loaded`
 * ran with 1.5 other CPUs busy, every other leg with none, and read only
 * +20% for it (the load explains its ratio: left out, §5.10). */
static void write_legs(unsigned loaded)
{
	for (unsigned k = 1; k <= ROUNDS; k++)
		for (int s = 0; s < 2; s++) {
			size_t j = 2 * (size_t)(k - 1) + (size_t)s;
			int is_b = (k % 2 == 1) == (s == 1);
			struct run *r = run_new();
			struct probe_result *p = run_add_probe(r, "t.auto");
			struct metric *m =
				probe_add_metric(p, "rate", UNIT_GB_S, BETTER_HIGHER, "test", NULL);
			r->knobs_start = json_pack("{s:s}", "thp_enabled", "madvise");
			r->knobs_end = json_pack("{s:s}", "thp_enabled", "madvise");
			for (int i = 0; i < 4; i++)
				metric_add_sample_at(m,
						     (is_b ? k == loaded ? 12.0 : 15.0 : 10.0) *
							     (1 + 0.001 * i),
						     0.1 * i, 0.1 * i + 0.05);
			m->busy = xcalloc(m->cap_samples, sizeof(*m->busy));
			for (int i = 0; i < 4; i++)
				m->busy[i] = is_b && k == loaded ? 1.5 : 0.0;
			free(paths[j]);
			paths[j] = xasprintf("%s/leg-%zu.json", dir, j + 1);
			assert_int_equal(run_write_file(r, paths[j]), 0);
			run_free(r);
		}
}

static void start(struct ab_auto *a, struct compare_opts *o, char *legs)
{
	compare_opts_default(o);
	o->rounds = 1;
	o->margin = 0.05;
	for (unsigned k = 0; k < ROUNDS; k++) {
		legs[2 * k] = k % 2 ? 'B' : 'A';
		legs[2 * k + 1] = k % 2 ? 'A' : 'B';
	}
	legs[2 * ROUNDS] = '\0';
	o->legs = legs;
	ab_auto_start(a, o, SEQ_MIN_ROUNDS, 0);
}

/* With every round clean the first look comes after round 4 and decides;
 * with round 2 left out it comes after round 5, at the alpha of 4 rounds
 * used, and the note says a round was replaced. */
static void test_left_out_round_replaced(void **state)
{
	struct ab_auto a;
	struct compare_opts o;
	char legs[2 * ROUNDS + 1], *note;
	assert_non_null(mkdtemp(dir));
	write_legs(0);
	start(&a, &o, legs);
	assert_int_equal(ab_auto_go_on(&a, 4, paths), 0);
	assert_int_equal(a.look_r, 4);
	assert_int_equal(a.out, 0);
	ab_auto_free(&a);

	write_legs(2);
	start(&a, &o, legs);
	assert_int_equal(ab_auto_go_on(&a, 4, paths), 1); /* 3 used: no look yet */
	assert_int_equal(a.out, 1);
	assert_int_equal(a.look_r, 0);
	assert_int_equal(ab_auto_go_on(&a, 5, paths), 0);
	assert_int_equal(a.look_r, 5);
	assert_int_equal(a.prev, 4);
	assert_true(fabs(a.alpha - seq_alpha(0.05, 0, 4, 4)) < 1e-12);
	note = ab_auto_finish(&a, 5, &o);
	assert_non_null(strstr(note, "stopped after 5 rounds, 4 of them used (at most 4; 1 left "
				     "out for its legs' load and replaced): every metric"));
	assert_string_equal(o.legs, "ABBAABBAAB");
	free(note);
	ab_auto_free(&a);
	for (size_t j = 0; j < 2 * ROUNDS; j++) {
		unlink(paths[j]);
		free(paths[j]);
		paths[j] = NULL;
	}
	rmdir(dir);
}

/* The schedule: half as many rounds again, at most what a comparison holds. */
static void test_cap(void **state)
{
	assert_int_equal(ab_auto_cap(12), 18);
	assert_int_equal(ab_auto_cap(4), 6);
	assert_int_equal(ab_auto_cap(30), 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left_out_round_replaced),
		cmocka_unit_test(test_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
