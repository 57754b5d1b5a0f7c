/* gpu_clocks.c - gpu.clocks
 * measures: SM and memory clocks, board power, temperature, utilisation and clock-event
 *   (throttle) reasons, sampled idle, under a bandwidth-bound load and under a compute-bound
 *   load; and what each load achieved meanwhile (GB/s, GFLOP/s).
 * method: NVML read-only (dlopen'd), one sample every ~100 ms from a background thread; idle is
 *   sampled before this process creates a CUDA context; the loads are back-to-back copy kernels
 *   over 2 x 1 GiB and 8-chain FP32 FMA kernels, timed in ~100 ms chunks with CUDA events.
 * why this way: docs/design.md §10.4 - advertised clocks were never reached and a power cap was
 *   enforced silently; a bandwidth number means little without the clocks and throttle reasons
 *   seen while it ran. Nothing is ever set (docs/design.md §4.9): the card is measured as found.
 * cross-check: nvidia-smi dmon -s pucv run beside it shows the same clocks and power; load_bw
 *   is close to gpu.stream's copy figure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "results/results.h"

struct gclk_opts {
	double idle_s, load_s;
};

static const struct opt gclk_opt_rows[] = {
	OPT_DOUBLE("idle", struct gclk_opts, idle_s, "1", "seconds sampled idle"),
	OPT_DOUBLE("load", struct gclk_opts, load_s, "2", "seconds sampled under each load"),
	OPT_END,
};

#define BUF_BYTES (1ull << 30)
#define FMA_ITERS 4096u

struct gclk {
	struct gpu_props props;
	void *a, *b;
	float *fout;
	struct gpu_grid grid;
	struct gpu_event *e0, *e1;
};

static int launch(struct gclk *c, int compute)
{
	const struct gpu_backend *gpu = gpu_backend();

	if (compute)
		return GPU_CHECK(gpu->launch_fma(c->fout, (unsigned)c->props.sm_count * 8, 256,
						 FMA_ITERS, NULL));
	return GPU_CHECK(gpu->launch_copy(c->b, c->a, BUF_BYTES, &c->grid, NULL));
}

/* Runs one load for seconds in ~100 ms chunks; each chunk's rate is a sample. */
static int run_load(struct probe_ctx *ctx, struct gclk *c, int compute, double seconds)
{
	const struct gpu_backend *gpu = gpu_backend();
	const char *during = compute ? "compute" : "bandwidth";
	double work =
		compute ? (double)c->props.sm_count * 8 * 256 * FMA_ITERS * 128 : 2.0 * BUF_BYTES;
	uint64_t n = 1, t_end;
	struct gpu_sampler *smp;
	struct metric *m;

	char desc[256];

	snprintf(desc, sizeof(desc),
		 compute ? "GFLOP/s of the FP32 FMA load (an FMA counts 2), per ~100 ms chunk, %s"
			 : "copy kernel, read + write counted (GB = 1e9), per ~100 ms chunk, %s",
		 gpu->names.events);
	m = compute ? probe_add_metric(ctx->res, "load_gflops", UNIT_GFLOP_S, BETTER_HIGHER, desc,
				       "during", during, NULL)
		    : probe_add_metric(ctx->res, "load_bw", UNIT_GB_S, BETTER_HIGHER, desc,
				       "during", during, NULL);
	progress("gpu.clocks: %s load", during);
	smp = gpu->sampler_start(100);
	t_end = time_now_ns() + (uint64_t)(seconds * 1e9);
	for (int chunk = 0; time_now_ns() < t_end; chunk++) {
		double ns;

		if (gpu->event_record(c->e0, NULL))
			goto fail;
		for (uint64_t i = 0; i < n; i++)
			if (launch(c, compute))
				goto fail;
		if (gpu->event_record(c->e1, NULL) || gpu->event_elapsed_ns(c->e0, c->e1, &ns))
			goto fail;
		if (chunk == 0)
			metric_add_warmup(m, work * n / ns);
		else
			metric_add_sample(m, work * n / ns); /* work per ns = G per s */
		if (ns < 80e6)
			n = (uint64_t)((double)n * 100e6 / (ns > 1 ? ns : 1)) + 1;
	}
	gpu->sampler_stop(smp, ctx->res, during);
	return 0;
fail:
	gpu->sampler_stop(smp, ctx->res, during);
	return -1;
}

static const char *gclk_supported(const void *opts)
{
	const char *why = gpu_unsupported_reason();

	return why ? why : gpu_backend()->telemetry_unavailable();
}

static int gclk_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gclk_opts *o = opts;
	struct gclk c = {0};
	struct gpu_sampler *smp;
	uint64_t t_end;
	int rc = PROBE_OK;

	if (gpu->get_props(0, &c.props))
		return gpu_fail(ctx->res, "gpu.clocks setup");
	probe_result_add_param(ctx->res, "gpu", c.props.name);
	gpu_param(ctx->res, "sampling", "%s every ~100 ms, read-only", gpu->names.telemetry);
	/* Idle first, before this process has a context. */
	progress("gpu.clocks: idle");
	smp = gpu->sampler_start(100);
	t_end = time_now_ns() + (uint64_t)(o->idle_s * 1e9);
	while (time_now_ns() < t_end) {
		struct timespec ts = {0, 20000000};

		nanosleep(&ts, NULL);
	}
	gpu->sampler_stop(smp, ctx->res, "idle");

	c.grid = (struct gpu_grid){(unsigned)c.props.sm_count * 2, 1024, 4};
	if (gpu->malloc(&c.a, BUF_BYTES) || gpu->malloc(&c.b, BUF_BYTES) ||
	    gpu->malloc((void **)&c.fout, (size_t)c.props.sm_count * 8 * 256 * sizeof(float)) ||
	    gpu->pattern_fill(c.a, BUF_BYTES, 11, NULL) || gpu->event_create(&c.e0) ||
	    gpu->event_create(&c.e1) || run_load(ctx, &c, 0, o->load_s) ||
	    run_load(ctx, &c, 1, o->load_s))
		rc = gpu_fail(ctx->res, "gpu.clocks load");
	gpu->event_destroy(c.e0);
	gpu->event_destroy(c.e1);
	gpu->free(c.a);
	gpu->free(c.b);
	gpu->free(c.fout);
	return rc;
}

const struct probe probe_gpu_clocks = {
	.name = "gpu.clocks",
	.summary = "NVML clocks, power, temperature and throttle reasons: idle, bandwidth-bound, "
		   "compute-bound (read-only)",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = gclk_opt_rows,
	.opts_size = sizeof(struct gclk_opts),
	.quick_opts = "idle=0.3 load=0.5",
	.quick_note = "0.3 s idle and 0.5 s under each load: a few of NVML's ~100 ms samples each",
	.timeout_s = 120,
	.supported = gclk_supported,
	.typical_s = {3.1, 5.7}, /* docs/design.md §2.8 */
	.run = gclk_run,
};
