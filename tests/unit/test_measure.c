/* test_measure.c - calibration and the sample loop, with a fake operation
 * that does a fixed amount of counter work per iteration. No assertion on how
 * long anything took: only on counts and on the calibration's own arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "base/util.h"
#include "kit/measure.h"

struct fake {
	volatile uint64_t counter;
	uint64_t work; /* counter increments per iteration */
	unsigned calls;
	uint64_t last_iters, last_ns;
	unsigned repeats;     /* calls with the same iters as the call before */
	unsigned fail_call;   /* fail on this call (1-based); 0: never */
	unsigned fail_repeat; /* fail on this repeated call; 0: never */
};

static int fake_op(void *arg, uint64_t iters)
{
	struct fake *f = arg;
	uint64_t t0;
	f->calls++;
	if (iters == f->last_iters)
		f->repeats++;
	if ((f->fail_call && f->calls == f->fail_call) ||
	    (f->fail_repeat && f->repeats == f->fail_repeat))
		return -1;
	t0 = time_now_ns();
	for (uint64_t i = 0; i < iters * f->work; i++)
		f->counter++;
	f->last_ns = time_now_ns() - t0;
	f->last_iters = iters;
	return 0;
}

static void test_calibrate(void **state)
{
	const uint64_t target = 20 * 1000 * 1000; /* 20 ms */
	struct fake f = {.work = 1000};
	uint64_t iters = measure_calibrate(fake_op, &f, target);
	double per_iter_ns;
	assert_true(iters > 0);
	assert_true(f.calls >= 1);
	/* Calibration doubles: its runs were 1, 2, 4, ... iterations. */
	assert_int_equal(f.last_iters, 1ull << (f.calls - 1));
	assert_true(iters >= f.last_iters);
	/* The cost per iteration the op itself measured in its last calibration
	 * run; the returned count must cover the target at that cost (the 10%
	 * margin absorbs the call overhead outside the op's own clock reads). */
	per_iter_ns = (double)f.last_ns / (double)f.last_iters;
	assert_true(per_iter_ns > 0);
	if ((double)iters * per_iter_ns < (double)target)
		fail_msg("%llu iterations at %.1f ns each is below the %llu ns target",
			 (unsigned long long)iters, per_iter_ns, (unsigned long long)target);
	assert_int_equal(f.counter, (2 * f.last_iters - 1) * f.work);
}

static void test_calibrate_fails(void **state)
{
	struct fake f = {.work = 1, .fail_call = 1};
	assert_int_equal(measure_calibrate(fake_op, &f, 1000000), 0);
	assert_int_equal(f.calls, 1);
}

static void test_measure_counts(void **state)
{
	struct probe_result res;
	struct probe_ctx ctx = {.res = &res, .reps = 5, .warmups = 3, .min_sample_ns = 1000000};
	struct fake f = {.work = 100};
	struct metric *m, *t;
	probe_result_init(&res, "test.fake");
	m = probe_add_metric(&res, "rate", UNIT_MACC_S, BETTER_HIGHER, NULL, NULL);
	assert_int_equal(measure_op(&ctx, m, fake_op, &f, 100, MEASURE_RATE, 1e-6), 0);
	assert_int_equal(m->n_warmups, 3);
	assert_int_equal(m->n_samples, 5);
	for (size_t i = 0; i < m->n_samples; i++)
		assert_true(isfinite(m->samples[i]) && m->samples[i] > 0);
	for (size_t i = 0; i < m->n_warmups; i++)
		assert_true(isfinite(m->warmups[i]) && m->warmups[i] > 0);
	/* The 8 timed runs all use the one calibrated count. */
	assert_true(f.repeats >= 7);

	ctx.warmups = 0;
	ctx.reps = 1;
	t = probe_add_metric(&res, "time", UNIT_NS, BETTER_LOWER, NULL, NULL);
	assert_int_equal(measure_op(&ctx, t, fake_op, &f, 1, MEASURE_TIME_PER, 1), 0);
	assert_int_equal(t->n_warmups, 0);
	assert_int_equal(t->n_samples, 1);
	assert_true(t->samples[0] > 0);
	probe_result_clear(&res);
}

static void test_measure_op_fails(void **state)
{
	struct probe_result res;
	struct probe_ctx ctx = {.res = &res, .reps = 5, .warmups = 2, .min_sample_ns = 1000000};
	struct fake f = {.work = 100, .fail_call = 1};
	struct metric *m;
	probe_result_init(&res, "test.fake");
	m = probe_add_metric(&res, "rate", UNIT_MACC_S, BETTER_HIGHER, NULL, NULL);
	/* Failing in calibration. */
	assert_int_equal(measure_op(&ctx, m, fake_op, &f, 1, MEASURE_RATE, 1), -1);
	assert_int_equal(m->n_samples + m->n_warmups, 0);
	/* Failing in the sample loop: calibration never repeats a count, so the
	 * third repeated count is the third or fourth timed run. */
	f = (struct fake){.work = 100, .fail_repeat = 3};
	assert_int_equal(measure_op(&ctx, m, fake_op, &f, 1, MEASURE_RATE, 1), -1);
	assert_in_range(m->n_samples + m->n_warmups, 2, 3);
	assert_int_equal(m->n_warmups, 2);
	probe_result_clear(&res);
}

/* The page passes: at least two, at most MEASURE_PAGE_PASSES, each time
 * recorded; absence is judged from the passes, not from how long they took. */
static void test_page_passes(void **state)
{
	static char buf[64 * 4096];
	struct page_passes p = {0};
	json_t *j;
	(void)state;

	measure_page_passes(buf, sizeof(buf), &p);
	assert_in_range(p.n, 2, MEASURE_PAGE_PASSES);
	for (unsigned k = 0; k < p.n; k++)
		assert_true(p.ns[k] >= 0);
	/* it stops at the first pass after the first that finds them present */
	if (p.n < MEASURE_PAGE_PASSES)
		assert_true(p.ns[p.n - 1] < MEASURE_PAGE_ABSENT_NS);

	p = (struct page_passes){.n = 2, .ns = {2500, 40}};
	assert_true(measure_pages_absent(&p));
	j = measure_page_passes_json(&p);
	assert_int_equal(json_array_size(json_object_get(j, "ns_per_page")), 2);
	assert_true(json_real_value(json_array_get(json_object_get(j, "ns_per_page"), 0)) == 2500);
	assert_true(json_is_true(json_object_get(j, "absent")));
	json_decref(j);
	p = (struct page_passes){.n = 2, .ns = {900, 40}}; /* a page walk and a miss */
	assert_false(measure_pages_absent(&p));
	p = (struct page_passes){.n = 1, .ns = {5000}}; /* nothing to compare with */
	assert_false(measure_pages_absent(&p));
	p = (struct page_passes){.n = 4, .ns = {5000, 4000, 3000, 2500}}; /* never present */
	assert_true(measure_pages_absent(&p));
}

/* The page_pass note: only where a record says absent, naming the slowest. */
static void test_page_pass_note(void **state)
{
	struct probe_result res;
	struct probe_ctx ctx = {.res = &res};
	json_t *recs =
		json_pack("[{s:[f,f],s:b,s:s,s:s},{s:[f,f],s:b,s:s,s:s}]", "ns_per_page", 40.0,
			  30.0, "absent", 0, "size", "16K", "pages", "4k", "ns_per_page", 900.0,
			  30.0, "absent", 0, "size", "1G", "pages", "4k");
	(void)state;

	probe_result_init(&res, "test.fake");
	measure_note_page_passes(&ctx, recs);
	assert_int_equal(res.n_params, 0);
	json_array_append_new(recs, json_pack("{s:[f,f],s:b,s:s,s:s}", "ns_per_page", 2638.4, 65.0,
					      "absent", 1, "size", "512M", "pages", "4k"));
	measure_note_page_passes(&ctx, recs);
	assert_int_equal(res.n_params, 1);
	assert_string_equal(res.params[0].key, "page_pass");
	assert_string_equal(res.params[0].value,
			    "translations absent before 1 of 3 chains, made present before timing "
			    "(slowest: size 512M pages=4k, first pass 2638 ns a page)");
	json_decref(recs);
	probe_result_clear(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calibrate),      cmocka_unit_test(test_calibrate_fails),
		cmocka_unit_test(test_measure_counts), cmocka_unit_test(test_measure_op_fails),
		cmocka_unit_test(test_page_passes),    cmocka_unit_test(test_page_pass_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
