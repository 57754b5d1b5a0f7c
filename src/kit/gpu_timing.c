/* gpu_timing.c - gpu_measure(), the GPU timing loop of gpu_kit.h, over the
 * backend table: events, and nvbandwidth's gate (a spin kernel holding the
 * streams on a host-mapped flag while work is queued behind it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "kit/gpu_kit.h"

/* A gate left shut this long means the host blocked while queuing (the queue
 * was full): the batch is void. */
#define GATE_TIMEOUT_NS 10000000000ull

struct timing {
	const struct gpu_backend *gpu;
	const struct gpu_work *w;
	int home;		 /* multi_device: the caller's current device */
	volatile int *gate_host; /* the gate's words (gate_words): [0] release, [1] timed out */
	int *gate_dev;
	struct gpu_stream *s[GPU_MAX_STREAMS];
	struct gpu_event *start[GPU_MAX_STREAMS], *end[GPU_MAX_STREAMS];
	struct gpu_event *join; /* multi_device: on stream 0, after every stream's end */
};

/* Makes stream k's device current (multi_device only). */
static int stream_device(const struct timing *t, unsigned k)
{
	return t->w->multi_device ? t->gpu->set_device(t->w->device[k]) : 0;
}

static int home_device(const struct timing *t)
{
	return t->w->multi_device ? t->gpu->set_device(t->home) : 0;
}

/* One batch on streams of several devices (gpu_work.multi_device): stream 0
 * alone is gated, the others start behind its start event, and the overall
 * time is stream 0's start to a join event that waits for every end. */
static int run_batch_multi(struct timing *t, uint64_t iters, double *ns, double *sns)
{
	const struct gpu_backend *gpu = t->gpu;
	const struct gpu_work *w = t->w;
	unsigned n = w->n_streams;
	float ms = 0;

	if (w->gated) {
		t->gate_host[0] = 0;
		t->gate_host[1] = 0;
		__sync_synchronize();
	}
	for (unsigned k = 0; k < n; k++) {
		if (stream_device(t, k))
			return -1;
		if (k == 0 && w->gated &&
		    GPU_CHECK(gpu->launch_gate((volatile int *)t->gate_dev, t->gate_dev + 1,
					       GATE_TIMEOUT_NS, t->s[0])))
			return -1;
		if (k > 0 && gpu->stream_wait_event(t->s[k], t->start[0]))
			return -1;
		if (gpu->event_record(t->start[k], t->s[k]) ||
		    w->enqueue(w->arg, k, t->s[k], iters) != 0 ||
		    gpu->event_record(t->end[k], t->s[k]))
			return -1;
	}
	if (stream_device(t, 0))
		return -1;
	for (unsigned k = 1; k < n; k++)
		if (gpu->stream_wait_event(t->s[0], t->end[k]))
			return -1;
	if (gpu->event_record(t->join, t->s[0]))
		return -1;
	if (w->gated) {
		__sync_synchronize();
		t->gate_host[0] = 1;
	}
	if (gpu->event_sync(t->join))
		return -1;
	for (unsigned k = 0; k < n; k++)
		if (gpu->event_sync(t->end[k]))
			return -1;
	if (w->gated && t->gate_host[1])
		return gpu_error("gate kernel timed out after %llu s: the host blocked while "
				 "queuing %llu repetitions (lower max_batch)",
				 GATE_TIMEOUT_NS / 1000000000ull, (unsigned long long)iters);
	for (unsigned k = 0; k < n; k++) {
		if (gpu->event_elapsed_ms(t->start[k], t->end[k], &ms))
			return -1;
		sns[k] += (double)ms * 1e6;
	}
	if (gpu->event_elapsed_ms(t->start[0], t->join, &ms))
		return -1;
	*ns += (double)ms * 1e6;
	return home_device(t);
}

/* One batch of iters repetitions on every stream: adds the overall time
 * (first start to last end) to *ns and each stream's own to sns[k]. */
static int run_batch(struct timing *t, uint64_t iters, double *ns, double *sns)
{
	const struct gpu_backend *gpu = t->gpu;
	const struct gpu_work *w = t->w;
	unsigned n = w->n_streams;
	double first = 0, last = 0;

	if (w->multi_device)
		return run_batch_multi(t, iters, ns, sns);
	if (w->gated) {
		t->gate_host[0] = 0;
		t->gate_host[1] = 0;
		__sync_synchronize();
		for (unsigned k = 0; k < n; k++)
			if (GPU_CHECK(gpu->launch_gate((volatile int *)t->gate_dev, t->gate_dev + 1,
						       GATE_TIMEOUT_NS, t->s[k])))
				return -1;
	}
	for (unsigned k = 0; k < n; k++) {
		if (gpu->event_record(t->start[k], t->s[k]) ||
		    w->enqueue(w->arg, k, t->s[k], iters) != 0 ||
		    gpu->event_record(t->end[k], t->s[k]))
			return -1;
	}
	if (w->gated) {
		__sync_synchronize();
		t->gate_host[0] = 1;
	}
	for (unsigned k = 0; k < n; k++)
		if (gpu->event_sync(t->end[k]))
			return -1;
	if (w->gated && t->gate_host[1])
		return gpu_error("gate kernel timed out after %llu s: the host blocked while "
				 "queuing %llu repetitions (lower max_batch)",
				 GATE_TIMEOUT_NS / 1000000000ull, (unsigned long long)iters);
	for (unsigned k = 0; k < n; k++) {
		float a = 0, b = 0;

		/* Times relative to stream 0's start; may be negative for others. */
		if (gpu->event_elapsed_ms(t->start[0], t->start[k], &a) ||
		    gpu->event_elapsed_ms(t->start[0], t->end[k], &b))
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

/* Destroys what gpu_measure made, stream k's with its device current, and
 * makes the caller's device current again. Failures here are not the
 * measurement's: the last GPU error is left as it was. */
static void release(struct timing *t, unsigned n)
{
	const struct gpu_backend *gpu = t->gpu;
	char err[512];

	snprintf(err, sizeof(err), "%s", gpu->last_error());
	for (unsigned k = 0; k < n; k++) {
		if (t->w->multi_device)
			gpu->set_device(t->w->device[k]);
		if (t->start[k])
			gpu->event_destroy(t->start[k]);
		if (t->end[k])
			gpu->event_destroy(t->end[k]);
		if (t->s[k])
			gpu->stream_destroy(t->s[k]);
		if (k == 0 && t->join)
			gpu->event_destroy(t->join);
	}
	if (t->w->multi_device)
		gpu->set_device(t->home);
	gpu->set_error(err);
}

int gpu_measure(struct probe_ctx *ctx, const struct gpu_work *w, struct gpu_samples *out)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct timing t = {.gpu = gpu, .w = w};
	unsigned n = w->n_streams ? w->n_streams : 1, total = ctx->warmups + ctx->reps;
	struct gpu_work w1 = *w;
	uint64_t long_ns;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!gpu)
		return gpu_error("gpu_measure: %s", gpu_unsupported_reason());
	if (n > GPU_MAX_STREAMS)
		return gpu_error("gpu_measure: %u streams (at most %d)", n, GPU_MAX_STREAMS);
	w1.n_streams = n;
	t.w = &w1;
	if (w->multi_device && gpu->get_device(&t.home))
		return -1;
	if (w->gated && gpu->gate_words(&t.gate_host, &t.gate_dev))
		return -1;
	for (unsigned k = 0; k < n; k++)
		if (stream_device(&t, k) || gpu->stream_create(&t.s[k]) ||
		    gpu->event_create(&t.start[k]) || gpu->event_create(&t.end[k]) ||
		    (w->multi_device && k == 0 && gpu->event_create(&t.join)))
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
	/* counted samples longer than the warm-ups' window (gpu_work.sample_ns):
	 * calibrated to the long window, the warm-ups' repetitions scaled down */
	long_ns = !w->iters && w->sample_ns > ctx->min_sample_ns ? w->sample_ns : 0;
	out->iters = w->iters ? w->iters
			      : calibrate(&t, long_ns ? long_ns : ctx->min_sample_ns,
					  w->max_iters ? w->max_iters : 10000000);
	if (out->iters == 0)
		goto out;
	out->warm_iters = out->iters;
	if (long_ns) {
		double k = (double)out->iters * (double)ctx->min_sample_ns / (double)long_ns;

		out->warm_iters = k > 1 ? (uint64_t)k : 1;
	}
	out->ns = xcalloc(ctx->reps + 1, sizeof(double));
	out->t0 = xcalloc(ctx->reps + 1, sizeof(double));
	out->t1 = xcalloc(ctx->reps + 1, sizeof(double));
	out->warm_ns = xcalloc(ctx->warmups + 1, sizeof(double));
	for (unsigned k = 0; k < GPU_MAX_STREAMS; k++) {
		out->stream_ns[k] = xcalloc(ctx->reps + 1, sizeof(double));
		out->stream_warm_ns[k] = xcalloc(ctx->warmups + 1, sizeof(double));
	}
	for (unsigned i = 0; i < total; i++) {
		double ns, sns[GPU_MAX_STREAMS], t0, t1;
		int warm = i < ctx->warmups;

		if (w->before && w->before(w->arg))
			goto out;
		t0 = metric_clock();
		if (run_sample(&t, warm ? out->warm_iters : out->iters, &ns, sns))
			goto out;
		t1 = metric_clock();
		if (w->check && w->check(w->arg))
			goto out;
		if (warm) {
			out->warm_ns[out->n_warm] = ns;
			for (unsigned k = 0; k < GPU_MAX_STREAMS; k++)
				out->stream_warm_ns[k][out->n_warm] = sns[k];
			out->n_warm++;
		} else {
			out->t0[out->n] = t0;
			out->t1[out->n] = t1;
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
	if (w->gated && t.gate_host)
		t.gate_host[0] = 1;
	release(&t, n);
	return rc;
}

void gpu_samples_free(struct gpu_samples *s)
{
	free(s->t0);
	free(s->t1);
	free(s->ns);
	free(s->warm_ns);
	for (unsigned k = 0; k < GPU_MAX_STREAMS; k++) {
		free(s->stream_ns[k]);
		free(s->stream_warm_ns[k]);
	}
	memset(s, 0, sizeof(*s));
}
