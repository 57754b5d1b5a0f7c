/* timing.c - gpu_measure(), the GPU timing loop of gpu.h, over the CUDA
 * runtime: CUDA events, and nvbandwidth's gate (a spin kernel holding the
 * streams on a host-mapped flag while work is queued behind it). */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "base/util.h"
#include "gpu/gpu.h"
#include "gpu/timing.h"

/* The gate's host-mapped words, per context: [0] release flag, [1] timed out. */
static struct {
	volatile int *host;
	int *dev;
} gate;

void gpu_timing_forget(void)
{
	memset(&gate, 0, sizeof(gate));
}

/* A gate left shut this long means the host blocked while queuing (the queue
 * was full): the batch is void. */
#define GATE_TIMEOUT_NS 10000000000ull

static int gate_init(void)
{
	void *d;

	if (gate.host)
		return 0;
	if (GPU_CHECK(cudaHostAlloc((void **)&gate.host, 2 * sizeof(int), cudaHostAllocMapped)) ||
	    GPU_CHECK(cudaHostGetDevicePointer(&d, (void *)gate.host, 0)))
		return -1;
	gate.dev = d;
	return 0;
}

struct timing {
	const struct gpu_work *w;
	int home; /* multi_device: the caller's current device */
	cudaStream_t s[GPU_MAX_STREAMS];
	cudaEvent_t start[GPU_MAX_STREAMS], end[GPU_MAX_STREAMS];
	cudaEvent_t join; /* multi_device: on stream 0, after every stream's end */
};

/* Makes stream k's device current (multi_device only). */
static int stream_device(const struct timing *t, unsigned k)
{
	return t->w->multi_device ? GPU_CHECK(cudaSetDevice(t->w->device[k])) : 0;
}

static int home_device(const struct timing *t)
{
	return t->w->multi_device ? GPU_CHECK(cudaSetDevice(t->home)) : 0;
}

/* One batch on streams of several devices (gpu_work.multi_device): stream 0
 * alone is gated, the others start behind its start event, and the overall
 * time is stream 0's start to a join event that waits for every end. */
static int run_batch_multi(struct timing *t, uint64_t iters, double *ns, double *sns)
{
	const struct gpu_work *w = t->w;
	unsigned n = w->n_streams;
	float ms = 0;

	if (w->gated) {
		gate.host[0] = 0;
		gate.host[1] = 0;
		__sync_synchronize();
	}
	for (unsigned k = 0; k < n; k++) {
		if (stream_device(t, k))
			return -1;
		if (k == 0 && w->gated &&
		    GPU_CHECK(gpu_launch_gate((volatile int *)gate.dev, gate.dev + 1,
					      GATE_TIMEOUT_NS, t->s[0])))
			return -1;
		if (k > 0 && GPU_CHECK(cudaStreamWaitEvent(t->s[k], t->start[0], 0)))
			return -1;
		if (GPU_CHECK(cudaEventRecord(t->start[k], t->s[k])) ||
		    w->enqueue(w->arg, k, t->s[k], iters) != 0 ||
		    GPU_CHECK(cudaEventRecord(t->end[k], t->s[k])))
			return -1;
	}
	if (stream_device(t, 0))
		return -1;
	for (unsigned k = 1; k < n; k++)
		if (GPU_CHECK(cudaStreamWaitEvent(t->s[0], t->end[k], 0)))
			return -1;
	if (GPU_CHECK(cudaEventRecord(t->join, t->s[0])))
		return -1;
	if (w->gated) {
		__sync_synchronize();
		gate.host[0] = 1;
	}
	if (GPU_CHECK(cudaEventSynchronize(t->join)))
		return -1;
	for (unsigned k = 0; k < n; k++)
		if (GPU_CHECK(cudaEventSynchronize(t->end[k])))
			return -1;
	if (w->gated && gate.host[1])
		return gpu_error("gate kernel timed out after %llu s: the host blocked while "
				 "queuing %llu repetitions (lower max_batch)",
				 GATE_TIMEOUT_NS / 1000000000ull, (unsigned long long)iters);
	for (unsigned k = 0; k < n; k++) {
		if (GPU_CHECK(cudaEventElapsedTime(&ms, t->start[k], t->end[k])))
			return -1;
		sns[k] += (double)ms * 1e6;
	}
	if (GPU_CHECK(cudaEventElapsedTime(&ms, t->start[0], t->join)))
		return -1;
	*ns += (double)ms * 1e6;
	return home_device(t);
}

/* One batch of iters repetitions on every stream: adds the overall time
 * (first start to last end) to *ns and each stream's own to sns[k]. */
static int run_batch(struct timing *t, uint64_t iters, double *ns, double *sns)
{
	const struct gpu_work *w = t->w;
	unsigned n = w->n_streams;
	double first = 0, last = 0;

	if (w->multi_device)
		return run_batch_multi(t, iters, ns, sns);
	if (w->gated) {
		gate.host[0] = 0;
		gate.host[1] = 0;
		__sync_synchronize();
		for (unsigned k = 0; k < n; k++)
			if (GPU_CHECK(gpu_launch_gate((volatile int *)gate.dev, gate.dev + 1,
						      GATE_TIMEOUT_NS, t->s[k])))
				return -1;
	}
	for (unsigned k = 0; k < n; k++) {
		if (GPU_CHECK(cudaEventRecord(t->start[k], t->s[k])) ||
		    w->enqueue(w->arg, k, t->s[k], iters) != 0 ||
		    GPU_CHECK(cudaEventRecord(t->end[k], t->s[k])))
			return -1;
	}
	if (w->gated) {
		__sync_synchronize();
		gate.host[0] = 1;
	}
	for (unsigned k = 0; k < n; k++)
		if (GPU_CHECK(cudaEventSynchronize(t->end[k])))
			return -1;
	if (w->gated && gate.host[1])
		return gpu_error("gate kernel timed out after %llu s: the host blocked while "
				 "queuing %llu repetitions (lower max_batch)",
				 GATE_TIMEOUT_NS / 1000000000ull, (unsigned long long)iters);
	for (unsigned k = 0; k < n; k++) {
		float a = 0, b = 0;

		/* Times relative to stream 0's start; may be negative for others. */
		if (GPU_CHECK(cudaEventElapsedTime(&a, t->start[0], t->start[k])) ||
		    GPU_CHECK(cudaEventElapsedTime(&b, t->start[0], t->end[k])))
			return -1;
		if (k == 0 || a < first)
			first = a;
		if (k == 0 || b > last)
			last = b;
		sns[k] += (double)(b - a) * 1e6;
	}
	*ns += (double)(last - first) * 1e6;
	return 0;
}

static int run_sample(struct timing *t, uint64_t iters, double *ns, double *sns)
{
	uint64_t batch = t->w->gated ? (t->w->max_batch ? t->w->max_batch : 64) : iters;

	*ns = 0;
	for (unsigned k = 0; k < GPU_MAX_STREAMS; k++)
		sns[k] = 0;
	for (uint64_t done = 0; done < iters;) {
		uint64_t b = iters - done < batch ? iters - done : batch;

		if (run_batch(t, b, ns, sns))
			return -1;
		done += b;
	}
	if (*ns <= 0)
		*ns = 1;
	return 0;
}

static uint64_t calibrate(struct timing *t, uint64_t min_ns, uint64_t cap)
{
	double ns, sns[GPU_MAX_STREAMS];
	uint64_t iters = 1;

	if (run_sample(t, 1, &ns, sns)) /* first launch: module load, page-in */
		return 0;
	for (;;) {
		if (run_sample(t, iters, &ns, sns))
			return 0;
		if (ns >= (double)min_ns / 4 || iters >= cap) {
			double want = 1.1 * (double)min_ns / (ns / (double)iters);

			if (want > (double)cap)
				want = (double)cap;
			return want > (double)iters ? (uint64_t)want : iters;
		}
		iters *= 2;
	}
}

int gpu_measure(struct probe_ctx *ctx, const struct gpu_work *w, struct gpu_samples *out)
{
	struct timing t = {.w = w};
	unsigned n = w->n_streams ? w->n_streams : 1, total = ctx->warmups + ctx->reps;
	struct gpu_work w1 = *w;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (n > GPU_MAX_STREAMS)
		return gpu_error("gpu_measure: %u streams (at most %d)", n, GPU_MAX_STREAMS);
	w1.n_streams = n;
	t.w = &w1;
	if (w->multi_device && GPU_CHECK(cudaGetDevice(&t.home)))
		return -1;
	if (w->gated && gate_init())
		return -1;
	for (unsigned k = 0; k < n; k++)
		if (stream_device(&t, k) ||
		    GPU_CHECK(cudaStreamCreateWithFlags(&t.s[k], cudaStreamNonBlocking)) ||
		    GPU_CHECK(cudaEventCreate(&t.start[k])) ||
		    GPU_CHECK(cudaEventCreate(&t.end[k])) ||
		    (w->multi_device && k == 0 && GPU_CHECK(cudaEventCreate(&t.join))))
			goto out;
	if (home_device(&t))
		goto out;
	/* One ungated repetition first: module loads, first-touch of buffers
	 * and any other one-time host wait happen here, never behind a gate. */
	if (w->gated) {
		double ns, sns[GPU_MAX_STREAMS];

		w1.gated = 0;
		if (run_sample(&t, 1, &ns, sns))
			goto out;
		w1.gated = 1;
	}
	out->iters = w->iters ? w->iters
			      : calibrate(&t, ctx->min_sample_ns,
					  w->max_iters ? w->max_iters : 10000000);
	if (out->iters == 0)
		goto out;
	out->ns = xcalloc(ctx->reps + 1, sizeof(double));
	out->warm_ns = xcalloc(ctx->warmups + 1, sizeof(double));
	for (unsigned k = 0; k < GPU_MAX_STREAMS; k++) {
		out->stream_ns[k] = xcalloc(ctx->reps + 1, sizeof(double));
		out->stream_warm_ns[k] = xcalloc(ctx->warmups + 1, sizeof(double));
	}
	for (unsigned i = 0; i < total; i++) {
		double ns, sns[GPU_MAX_STREAMS];
		int warm = i < ctx->warmups;

		if (w->before && w->before(w->arg))
			goto out;
		if (run_sample(&t, out->iters, &ns, sns))
			goto out;
		if (w->check && w->check(w->arg))
			goto out;
		if (warm) {
			out->warm_ns[out->n_warm] = ns;
			for (unsigned k = 0; k < GPU_MAX_STREAMS; k++)
				out->stream_warm_ns[k][out->n_warm] = sns[k];
			out->n_warm++;
		} else {
			out->ns[out->n] = ns;
			for (unsigned k = 0; k < GPU_MAX_STREAMS; k++)
				out->stream_ns[k][out->n] = sns[k];
			out->n++;
		}
	}
	rc = 0;
out:
	/* After a failure mid-batch the gate may still hold queued work: let it
	 * go now rather than after the gate's timeout. */
	if (w->gated && gate.host)
		gate.host[0] = 1;
	for (unsigned k = 0; k < n; k++) {
		if (w->multi_device)
			cudaSetDevice(w->device[k]);
		if (t.start[k])
			cudaEventDestroy(t.start[k]);
		if (t.end[k])
			cudaEventDestroy(t.end[k]);
		if (t.s[k])
			cudaStreamDestroy(t.s[k]);
		if (k == 0 && t.join)
			cudaEventDestroy(t.join);
	}
	if (w->multi_device)
		cudaSetDevice(t.home);
	return rc;
}

void gpu_samples_free(struct gpu_samples *s)
{
	free(s->ns);
	free(s->warm_ns);
	for (unsigned k = 0; k < GPU_MAX_STREAMS; k++) {
		free(s->stream_ns[k]);
		free(s->stream_warm_ns[k]);
	}
	memset(s, 0, sizeof(*s));
}
