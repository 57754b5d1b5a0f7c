/* gpu_sync.c - gpu.sync
 * measures: what waiting for the GPU costs the host: a tiny kernel + cudaStreamSynchronize round
 *   trip, and a 48-launch "step loop" (48 short kernels, one synchronize per step, the shape of
 *   one decode step of a 48-layer model), each with spin, yield and blocking-sync scheduling;
 *   plus the CPU time the waiting thread burns per step.
 * method: host monotonic clock around calibrated loops (the quantity is host-observed latency,
 *   which events on the device cannot see); CPU time from getrusage(RUSAGE_THREAD). Scheduling
 *   is a context property: cudaSetDeviceFlags is guaranteed to apply only to a context created
 *   after it (older runtimes refuse it on an active one), so each variant tears this process's
 *   primary context down with cudaDeviceReset (no hardware reset, nothing outside this process)
 *   and creates a new one with its flags; the mode in effect is read back (cudaGetDeviceFlags).
 * why this way: docs/design.md §10.5 - spin 6.5 us vs blocking 16.9 us per sync, +7% per step,
 * traced to CPU idle-state exit latency; the step loop shows what it costs a real serving loop.
 * cross-check: blocking minus spin per step ~ one wake-up (cpu.wake's idle-exit latency);
 *   spin's step_cpu ~ its step time (the thread never sleeps).
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "results/results.h"

struct gsync_opts {
	uint32_t scheds;
	uint64_t launches, kernel_ns;
};

static const struct opt gsync_opt_rows[] = {
	OPT_LIST("sched", struct gsync_opts, scheds, "spin|yield|blocking", "all",
		 "host wait modes (spin, yield, or block on a sync primitive)"),
	OPT_UINT("launches", struct gsync_opts, launches, "48", "kernels per step"),
	OPT_UINT("kernel_ns", struct gsync_opts, kernel_ns, "20000",
		 "device time of each step kernel (busy-wait on the device's ns timer), ns"),
	OPT_END,
};

struct gsync {
	struct gpu_stream *s;
	uint64_t launches, kernel_ns;
	int failed;
};

static int op_roundtrip(void *arg, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gsync *g = arg;

	for (uint64_t i = 0; i < iters; i++)
		if (GPU_CHECK(gpu->launch_sleep(0, g->s)) || gpu->stream_sync(g->s))
			return g->failed = -1;
	return 0;
}

static int op_step(void *arg, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gsync *g = arg;

	for (uint64_t i = 0; i < iters; i++) {
		for (uint64_t k = 0; k < g->launches; k++)
			if (GPU_CHECK(gpu->launch_sleep(g->kernel_ns, g->s)))
				return g->failed = -1;
		if (gpu->stream_sync(g->s))
			return g->failed = -1;
	}
	return 0;
}

static double thread_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

/* The step loop with wall and CPU time per step from the same samples. */
static int measure_steps(struct probe_ctx *ctx, struct gsync *g, const char *sched)
{
	struct metric *wall, *cpu;
	uint64_t iters = measure_calibrate(op_step, g, ctx->min_sample_ns);
	char desc[200];

	if (iters == 0)
		return -1;
	snprintf(desc, sizeof(desc),
		 "%" PRIu64 " launches of a %" PRIu64 " ns kernel + one "
		 "%s, host clock per step",
		 g->launches, g->kernel_ns, gpu_backend()->names.stream_sync);
	wall = probe_add_metric(ctx->res, "step_time", UNIT_US, BETTER_LOWER, desc, "sched", sched,
				NULL);
	cpu = probe_add_metric(ctx->res, "step_cpu", UNIT_US, BETTER_NONE,
			       "CPU time (user + sys) of the launching thread per step "
			       "(getrusage RUSAGE_THREAD)",
			       "sched", sched, NULL);
	for (unsigned i = 0; i < ctx->warmups + ctx->reps; i++) {
		double c0 = thread_cpu_ns();
		uint64_t t0 = time_now_ns();
		double w, c;

		if (op_step(g, iters))
			return -1;
		w = (double)(time_now_ns() - t0) / (double)iters * 1e-3;
		c = (thread_cpu_ns() - c0) / (double)iters * 1e-3;
		if (i < ctx->warmups) {
			metric_add_warmup(wall, w);
			metric_add_warmup(cpu, c);
		} else {
			metric_add_sample(wall, w);
			metric_add_sample(cpu, c);
		}
	}
	return 0;
}

static int gsync_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gsync_opts *o = opts;
	struct gsync g = {.launches = o->launches, .kernel_ns = o->kernel_ns};
	struct gpu_props props;
	struct gpu_sampler *smp;
	int rc = PROBE_OK;
	json_t *modes = json_object();
	char buf[256];

	if (gpu->get_props(0, &props))
		return gpu_fail(ctx->res, "gpu.sync setup");
	probe_result_add_param(ctx->res, "gpu", props.name);
	probe_result_add_param(ctx->res, "timing", "host monotonic clock");
	snprintf(buf, sizeof(buf), "recreated per variant (%s, then %s before the new context)",
		 gpu->names.context_reset, gpu->names.context_create);
	probe_result_add_param(ctx->res, "context", buf);
	json_object_set_new(gpu_extra(ctx->res), "sched_in_effect", modes);
	smp = gpu->sampler_start(100);
	for (int v = GPU_SCHED_SPIN; v <= GPU_SCHED_BLOCKING; v++) {
		const char *name = gpu_sched_name(v);
		struct metric *m;

		if (!(o->scheds & (1u << (v - GPU_SCHED_SPIN))))
			continue;
		progress("gpu.sync: %s", name);
		if (gpu->context_reset() || gpu->context_create((enum gpu_sched)v) ||
		    gpu->stream_create(&g.s)) {
			rc = gpu_fail(ctx->res, name);
			goto out;
		}
		json_object_set_new(modes, name, json_string(gpu_sched_name(gpu->context_sched())));
		snprintf(buf, sizeof(buf),
			 "empty kernel launch + %s round trip, host clock per round trip",
			 gpu->names.stream_sync);
		m = probe_add_metric(ctx->res, "sync_latency", UNIT_US, BETTER_LOWER, buf, "sched",
				     name, NULL);
		if (measure_op(ctx, m, op_roundtrip, &g, 1, MEASURE_TIME_PER, 1e-3) ||
		    measure_steps(ctx, &g, name)) {
			rc = gpu_fail(ctx->res, name);
			goto out;
		}
		gpu->stream_destroy(g.s);
		g.s = NULL;
	}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->stream_destroy(g.s);
	return rc;
}

const struct probe probe_gpu_sync = {
	.name = "gpu.sync",
	.summary = "kernel + synchronize latency and a 48-launch step loop with spin, yield and "
		   "blocking-sync waits",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = gsync_opt_rows,
	.opts_size = sizeof(struct gsync_opts),
	.timeout_s = 300,
	.run = gsync_run,
};
