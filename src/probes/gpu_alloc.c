/* gpu_alloc.c - gpu.alloc
 * measures: the cost of getting device memory ready to use: cudaMalloc + the first GPU write of
 *   N GiB, cold (memory this process never had) and warm (again after cudaFree), and
 *   cudaMallocAsync from the default pool, with freed memory kept in the pool or given back.
 * method: host monotonic clock from before the allocation call to after the write kernel has
 *   finished (cudaStreamSynchronize), because the allocation is a host API call that no event
 *   can bracket; the write covers every byte (16 B stores). Cold samples keep their blocks
 *   until all are taken, so each one is new memory; their count is capped by free memory.
 * why this way: docs/design.md §10.6 - 16 GiB cudaMalloc + first write was 0.354 s cold vs 0.099 s
 *   warm on a unified-memory box (kernel zeroing in the cold path): model load time depends on
 *   it, and only allocation + first use together shows it.
 * cross-check: the warm rate approaches gpu.stream's write bandwidth (the allocation itself is
 *   then cheap); the malloc-only metric isolates the driver call.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "results/results.h"

struct galloc_opts {
	uint64_t size_bytes;
	uint32_t variants;
};

static const struct opt galloc_opt_rows[] = {
	OPT_SIZE("size", struct galloc_opts, size_bytes, "8G", "bytes per allocation"),
	OPT_LIST("variants", struct galloc_opts, variants, "cold|warm|pool", "all",
		 "cold: new memory each sample; warm: after a free; pool: stream-ordered "
		 "allocation (memory kept in the pool, and given back after each free)"),
	OPT_END,
};

struct galloc {
	struct probe_ctx *ctx;
	size_t bytes;
	struct gpu_grid grid;
	struct gpu_stream *s;
};

struct galloc_metrics {
	struct metric *total, *rate, *call;
};

static void metrics_for(struct galloc *a, struct galloc_metrics *m, const char *state,
			const char *call)
{
	char desc[256];

	snprintf(desc, sizeof(desc),
		 "%s + first GPU write of every byte, host clock to the end "
		 "of the write",
		 call);
	m->total = probe_add_metric(a->ctx->res, "alloc_write", UNIT_MS, BETTER_LOWER, desc,
				    "state", state, NULL);
	m->rate = probe_add_metric(a->ctx->res, "alloc_write_rate", UNIT_GIB_S, BETTER_HIGHER,
				   "bytes allocated and written / alloc_write time, GiB = 2^30",
				   "state", state, NULL);
	snprintf(desc, sizeof(desc), "the %s call alone (host clock)", call);
	m->call = probe_add_metric(a->ctx->res, "alloc_call", UNIT_MS, BETTER_LOWER, desc, "state",
				   state, NULL);
}

static void record(struct galloc *a, struct galloc_metrics *m, unsigned i, uint64_t call_ns,
		   uint64_t total_ns)
{
	double ms = (double)total_ns * 1e-6, call = (double)call_ns * 1e-6;
	double rate = (double)a->bytes / (1u << 30) / ((double)total_ns * 1e-9);

	if (i < a->ctx->warmups) {
		metric_add_warmup(m->total, ms);
		metric_add_warmup(m->rate, rate);
		metric_add_warmup(m->call, call);
	} else {
		metric_add_sample(m->total, ms);
		metric_add_sample(m->rate, rate);
		metric_add_sample(m->call, call);
	}
}

/* The backend's malloc + write; the block is left to the caller. */
static int alloc_write(struct galloc *a, void **p, uint64_t *call_ns, uint64_t *total_ns)
{
	const struct gpu_backend *gpu = gpu_backend();
	uint64_t t0 = time_now_ns(), t1;

	if (gpu->malloc(p, a->bytes))
		return -1;
	t1 = time_now_ns();
	if (GPU_CHECK(gpu->launch_write(*p, a->bytes, &a->grid, 0, 1, a->s)) ||
	    gpu->stream_sync(a->s))
		return -1;
	*call_ns = t1 - t0;
	*total_ns = time_now_ns() - t0;
	return 0;
}

static int run_cold_warm(struct galloc *a, int cold, int warm, unsigned n_cold)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gpu_names *nm = &gpu->names;
	struct galloc_metrics mc, mw;
	char call[160];
	unsigned total = a->ctx->warmups + a->ctx->reps;
	void **blocks = xcalloc(total, sizeof(void *));
	int rc = -1;

	if (cold) {
		progress("gpu.alloc: cold");
		snprintf(call, sizeof(call), "%s of memory this process never had", nm->malloc);
		metrics_for(a, &mc, "cold", call);
		/* No warm-up: the first allocation is the coldest of all and a sample. */
		for (unsigned i = 0; i < n_cold; i++) {
			uint64_t c, t;

			if (alloc_write(a, &blocks[i], &c, &t))
				goto out;
			record(a, &mc, i + a->ctx->warmups, c, t);
		}
	}
	for (unsigned i = 0; i < total; i++) {
		if (gpu->free(blocks[i]))
			goto out;
		blocks[i] = NULL;
	}
	if (warm) {
		progress("gpu.alloc: warm");
		snprintf(call, sizeof(call), "%s after a %s of the same size", nm->malloc,
			 nm->free);
		metrics_for(a, &mw, "warm", call);
		for (unsigned i = 0; i < total; i++) {
			uint64_t c, t;
			void *p;

			if (alloc_write(a, &p, &c, &t) || gpu->free(p))
				goto out;
			record(a, &mw, i, c, t);
		}
	}
	rc = 0;
out:
	for (unsigned i = 0; i < total; i++)
		if (blocks[i])
			gpu->free(blocks[i]);
	free(blocks);
	return rc;
}

/* malloc_async + write + free_async, timed to the end of the write;
 * keep: freed memory stays in the pool, else the pool is trimmed each time. */
static int run_pool(struct galloc *a, int keep)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct galloc_metrics m;
	unsigned total = a->ctx->warmups + a->ctx->reps;
	char call[160];

	progress("gpu.alloc: pool keep=%d", keep);
	snprintf(call, sizeof(call),
		 keep ? "%s from the default pool (release threshold: keep all)"
		      : "%s from the default pool, trimmed after each free",
		 gpu->names.malloc_async);
	metrics_for(a, &m, keep ? "pool_warm" : "pool_cold", call);
	if (gpu->pool_keep(keep) || gpu->pool_trim())
		return -1;
	for (unsigned i = 0; i < total; i++) {
		uint64_t t0 = time_now_ns(), t1, t2;
		void *p;

		if (gpu->malloc_async(&p, a->bytes, a->s))
			return -1;
		t1 = time_now_ns();
		if (GPU_CHECK(gpu->launch_write(p, a->bytes, &a->grid, 0, 1, a->s)) ||
		    gpu->stream_sync(a->s))
			return -1;
		t2 = time_now_ns();
		if (gpu->free_async(p, a->s) || gpu->stream_sync(a->s) ||
		    (!keep && gpu->pool_trim()))
			return -1;
		record(a, &m, i, t1 - t0, t2 - t0);
	}
	return gpu->pool_keep(0) || gpu->pool_trim() ? -1 : 0;
}

static int galloc_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct galloc_opts *o = opts;
	struct galloc a = {.ctx = ctx};
	struct gpu_props props;
	uint64_t free_b, total_b, margin, fit;
	unsigned n_cold;
	struct gpu_sampler *smp;
	int rc = PROBE_OK;
	char buf[96];

	if (gpu->get_props(0, &props) || gpu->mem_info(&free_b, &total_b))
		return gpu_fail(ctx->res, "gpu.alloc setup");
	a.bytes = o->size_bytes / (2u << 20) * (2u << 20);
	margin = total_b / 20 > (4ull << 30) ? total_b / 20 : 4ull << 30;
	fit = free_b > margin ? (free_b - margin) / (a.bytes ? a.bytes : 1) : 0;
	if (a.bytes == 0 || fit == 0) {
		probe_result_set_status(ctx->res, STATUS_SKIP,
					"%zu bytes do not fit in %" PRIu64
					" MiB free device memory "
					"minus a %" PRIu64 " MiB margin",
					a.bytes, free_b >> 20, margin >> 20);
		return PROBE_SKIP;
	}
	n_cold = fit < ctx->reps ? (unsigned)fit : ctx->reps;
	opt_format_size(a.bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "alloc_bytes", buf);
	snprintf(buf, sizeof(buf), "%u (new memory each; capped by free device memory)", n_cold);
	probe_result_add_param(ctx->res, "cold_samples", buf);
	probe_result_add_param(ctx->res, "gpu", props.name);
	probe_result_add_param(ctx->res, "timing",
			       "host monotonic clock (allocation is a host call)");
	a.grid = (struct gpu_grid){(unsigned)props.sm_count * 4, 512, 4};

	smp = gpu->sampler_start(100);
	if (gpu->stream_create(&a.s)) {
		rc = gpu_fail(ctx->res, "gpu.alloc setup");
		goto out;
	}
	if ((o->variants & 3u) && run_cold_warm(&a, o->variants & 1u, o->variants & 2u, n_cold)) {
		snprintf(buf, sizeof(buf), "%s variants", gpu->names.malloc);
		rc = gpu_fail(ctx->res, buf);
		goto out;
	}
	if ((o->variants & 4u) && (run_pool(&a, 1) || run_pool(&a, 0))) {
		rc = gpu_fail(ctx->res, "pool variants");
		goto out;
	}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->stream_destroy(a.s);
	return rc;
}

const struct probe probe_gpu_alloc = {
	.name = "gpu.alloc",
	.summary = "device allocation + first write of N GiB, cold vs warm, and stream-ordered "
		   "allocation from the pool",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = galloc_opt_rows,
	.opts_size = sizeof(struct galloc_opts),
	.quick_opts = "size=1G",
	.timeout_s = 300,
	.typical_s = {0.8, 1.6}, /* docs/design.md §2.8 */
	.run = galloc_run,
};
