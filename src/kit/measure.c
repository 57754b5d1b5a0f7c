/* measure.c - the one timing loop (docs/design.md §4.1). */
#include "kit/measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/blocked.h"
#include "base/list.h"
#include "base/util.h"
#include "kit/cpu_kernels.h"
#include "kit/team.h"

uint64_t measure_calibrate(measure_op_fn op, void *arg, uint64_t min_sample_ns)
{
	uint64_t iters = 1;
	/* Double until one run takes a quarter of the target, then scale up with a
	 * 10% margin, so a sample never comes out shorter than the rule. */
	for (;;) {
		uint64_t t0 = time_now_ns(), dt;
		if (op(arg, iters) != 0)
			return 0;
		dt = time_now_ns() - t0;
		if (dt >= min_sample_ns / 4 || iters >= (1ull << 40)) {
			double per = (double)dt / (double)iters;
			double want = per > 0 ? 1.1 * (double)min_sample_ns / per : (double)iters;
			return want > (double)iters ? (uint64_t)want : iters;
		}
		iters *= 2;
	}
}

int measure_more(struct probe_ctx *ctx, struct metric *m, unsigned taken, uint64_t t0_ns)
{
	double lo, hi, med, half, spent = (double)(time_now_ns() - t0_ns) * 1e-9;
	if (taken < ctx->reps)
		return 1;
	if (!(ctx->auto_ci > 0))
		return 0;
	med = stats_median(m->samples, m->n_samples);
	if (stats_median_ci(m->samples, m->n_samples, 0.95, &lo, &hi) != 0 || !(med != 0))
		half = INFINITY;
	else
		half = fmax(med - lo, hi - med) / fabs(med);
	if (half <= ctx->auto_ci || spent >= ctx->auto_budget_s || taken >= MEASURE_AUTO_MAX) {
		free(m->stop);
		m->stop = xasprintf("%s: CI of the median +-%.2f%% after %u samples in %.1f s",
				    half <= ctx->auto_ci	  ? "precise enough"
				    : spent >= ctx->auto_budget_s ? "time budget spent"
								  : "most samples taken",
				    100.0 * half, taken, spent);
		return 0;
	}
	return 1;
}

int measure_op(struct probe_ctx *ctx, struct metric *m, measure_op_fn op, void *arg,
	       double work_per_iter, enum measure_kind kind, double scale)
{
	uint64_t iters = measure_calibrate(op, arg, ctx->min_sample_ns), t0 = 0;
	if (iters == 0)
		return -1;
	for (unsigned i = 0;; i++) {
		uint64_t start, dt;
		double work, v;
		if (i == ctx->warmups)
			t0 = time_now_ns();
		if (i >= ctx->warmups && !measure_more(ctx, m, i - ctx->warmups, t0))
			break;
		start = time_now_ns();
		if (op(arg, iters) != 0)
			return -1;
		dt = time_now_ns() - start;
		if (dt == 0)
			dt = 1;
		work = work_per_iter * (double)iters;
		if (kind == MEASURE_RATE)
			v = work / ((double)dt * 1e-9) * scale;
		else
			v = (double)dt / work * scale;
		if (i < ctx->warmups)
			metric_add_warmup(m, v);
		else
			metric_add_sample(m, v);
	}
	return 0;
}

int probe_threads(struct probe_ctx *ctx, const char *spec, unsigned *out, size_t *n_out)
{
	unsigned dropped = 0, online = team_online_cpus();
	char buf[64];

	*n_out = 0;
	if (list_parse_threads(spec, online, out, n_out, &dropped) != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad threads list '%s'", spec);
		return PROBE_FAIL;
	}
	if (*n_out == 0) {
		probe_result_set_status(ctx->res, STATUS_SKIP,
					"all thread counts in '%s' exceed the %u CPUs here", spec,
					online);
		return PROBE_SKIP;
	}
	if (dropped) {
		snprintf(buf, sizeof(buf), "%u (above %u CPUs)", dropped, online);
		probe_result_add_param(ctx->res, "threads_dropped", buf);
	}
	return PROBE_OK;
}

static volatile uint64_t page_pass_sink;

void measure_page_passes(const void *base, size_t bytes, struct page_passes *out)
{
	double pages = (double)((bytes + 4095) / 4096);

	for (out->n = 0; out->n < MEASURE_PAGE_PASSES;) {
		uint64_t t0 = time_now_ns();

		page_pass_sink += cpu_kern_page_pass(base, bytes);
		out->ns[out->n] = pages > 0 ? (double)(time_now_ns() - t0) / pages : 0;
		if (++out->n > 1 && out->ns[out->n - 1] < MEASURE_PAGE_ABSENT_NS)
			break;
	}
}

int measure_pages_absent(const struct page_passes *p)
{
	return p->n > 1 && p->ns[0] - p->ns[p->n - 1] > MEASURE_PAGE_ABSENT_NS;
}

json_t *measure_page_passes_json(const struct page_passes *p)
{
	json_t *ns = json_array();

	for (unsigned k = 0; k < p->n; k++)
		json_array_append_new(ns, json_real(p->ns[k]));
	return json_pack("{s:o,s:b}", "ns_per_page", ns, "absent", measure_pages_absent(p));
}

void measure_note_page_passes(struct probe_ctx *ctx, const json_t *passes)
{
	const json_t *e, *worst = NULL;
	size_t i, absent = 0;
	double first, slowest = 0;
	char buf[256];

	json_array_foreach (passes, i, e) {
		first = json_real_value(json_array_get(json_object_get(e, "ns_per_page"), 0));
		if (json_is_true(json_object_get(e, "absent")) && ++absent && first > slowest) {
			slowest = first;
			worst = e;
		}
	}
	if (!worst)
		return;
	snprintf(buf, sizeof(buf),
		 "translations absent before %zu of %zu chains, made present before timing "
		 "(slowest: size %s pages=%s, first pass %.0f ns a page)",
		 absent, json_array_size(passes), json_string_value(json_object_get(worst, "size")),
		 json_string_value(json_object_get(worst, "pages")), slowest);
	probe_result_add_param(ctx->res, "page_pass", buf);
}
