/* gpu_kit.h - what GPU probes build on the backend table (gpu/backend.h):
 * error checks and the FAIL reason (gpu_kit.c), the GPU timing loop
 * (gpu_timing.c), pointer-chase chains in device memory (gpu_chain.c).
 *
 * Everything here goes through gpu_backend(), so it compiles and links with
 * any backend or none; a probe reaches it only after its supported()
 * returned NULL (gpu_unsupported_reason), so the backend is there.
 *
 * Errors: functions returning int give 0, or -1 after recording the failing
 * call's text and the backend's error name (CUDA: "cudaMalloc(p, bytes):
 * cudaErrorMemoryAllocation") as the last GPU error; gpu_fail() turns it
 * into the probe's FAIL reason.
 * The backend's own calls record their errors; probes wrap every kernel
 * launcher (launch_* entries) in GPU_CHECK().
 */
#ifndef MEMPATH_GPU_KIT_H
#define MEMPATH_GPU_KIT_H

#include <jansson.h>
#include <stdint.h>

#include "gpu/backend.h"
#include "gpu/kernels/pattern.h"
#include "kit/measure.h"
#include "machine/mem.h"
#include "results/results.h"

/* ---- errors (gpu_kit.c) ------------------------------------------------ */

/* err is a backend error code (0 = success). Otherwise records "<text>:
 * <error name>" as the last GPU error and returns -1. */
int gpu_check(int err, const char *text);
#define GPU_CHECK(call) gpu_check((int)(call), #call)
/* Records a formatted message as the last GPU error; returns -1. */
int gpu_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last GPU error ("" if none). */
const char *gpu_last_error(void);
/* Sets res FAIL with the last GPU error, prefixed by what (may be NULL);
 * returns PROBE_FAIL. */
int gpu_fail(struct probe_result *res, const char *what);

/* The probe's extra object, created on first use. */
static inline json_t *gpu_extra(struct probe_result *res)
{
	if (!res->extra)
		res->extra = json_object();
	return res->extra;
}

/* Adds the parameter key, its value formatted (for texts that quote the
 * backend's names, gpu->names). */
void gpu_param(struct probe_result *res, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Appends text to the array extra.<key> unless it is there (gpu_kit.c). */
void gpu_extra_note(struct probe_result *res, const char *key, const char *text);

/* ---- pointer chases (gpu_chain.c) -------------------------------------- */

/* A pointer-chase cycle through n nodes node_bytes apart in buf (n *
 * node_bytes of device memory on the current device) in the given order
 * (mem_chase_order): random, page-local within groups of group_nodes, or
 * the fixed stride (node i then i + 1); n < 2^32. A node's first word holds
 * the next node's address. Synchronous; 0 or -1. */
int gpu_chain_make(uint64_t *buf, uint64_t n, uint64_t node_bytes, enum mem_order order,
		   uint64_t group_nodes, uint64_t seed);
/* The same cycle written by the host through host (host-visible memory:
 * pinned, registered or managed), for a device that reads it at dev, the
 * device's address of host[0]. A node's first word holds the next node's
 * address as the device sees it (the chase kernel's hop is that one load). */
void gpu_chain_make_host(uint64_t *host, uint64_t dev, uint64_t n, uint64_t node_bytes,
			 enum mem_order order, uint64_t group_nodes, uint64_t seed);

/* ---- the GPU timing loop (gpu_timing.c) -------------------------------- */

#define GPU_MAX_STREAMS 2

/* What gpu_measure() times. enqueue(arg, k, s, iters) queues iters
 * repetitions of stream k's work on s; before/check (may be NULL) run
 * untimed before and after each sample (poison the destination / check it;
 * -1 ends the measurement, error recorded). */
struct gpu_work {
	int (*enqueue)(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters);
	int (*before)(void *arg);
	int (*check)(void *arg);
	void *arg;
	unsigned n_streams; /* 1 .. GPU_MAX_STREAMS, started together */
	int gated;	    /* hold the streams behind a spin kernel while queuing */
	uint64_t max_batch; /* most repetitions queued behind one gate (0: 64) */
	uint64_t iters;	    /* repetitions per sample; 0: calibrate to ctx->min_sample_ns */
	uint64_t max_iters; /* calibration cap (0: 1e7) */
	/* The counted samples' least window where a counter needs longer than
	 * ctx->min_sample_ns (gpu.copy's link receipt): calibrated to it, the
	 * warm-ups' repetitions scaled down to ctx->min_sample_ns. 0:
	 * ctx->min_sample_ns for all. */
	uint64_t sample_ns;
	/* Streams on several devices (gpu.p2p): stream k lives on device
	 * device[k] and its work is queued with that device current (a kernel
	 * launch fails on another device's stream). Only stream 0 is gated;
	 * streams k > 0 wait for stream 0's start event, so they start with it,
	 * and the overall time runs from that event to one on stream 0 that waits
	 * for every stream's end (events of two devices cannot be compared). The
	 * caller's current device is current again for before/check and on
	 * return. 0: every stream on the current device, as above. */
	int multi_device;
	int device[GPU_MAX_STREAMS];
};

/* Raw timings: ns of each sample (first repetition's start to last one's
 * end, over all streams), per stream too; warm-ups apart. */
struct gpu_samples {
	uint64_t iters, warm_iters; /* repetitions of a counted sample, of a warm-up */
	unsigned n, n_warm;
	double *ns, *warm_ns;
	double *stream_ns[GPU_MAX_STREAMS], *stream_warm_ns[GPU_MAX_STREAMS];
	/* each counted sample's window on the host (metric_clock(): the
	 * counters are read at its ends, docs/design.md §4.17) */
	double *t0, *t1;
};

/* Calibrates repetitions so one sample is >= ctx->min_sample_ns of device
 * time (a counted one >= w->sample_ns where longer), then takes ctx->warmups + ctx->reps samples
 * timed with events. Gated (nvbandwidth's method): each batch of at most max_batch repetitions is
 * queued behind the launch_gate kernel, with the start events, and released by one host store, so
 * queuing never counts; a batch's time is the first start to the last end. A sample is the sum of
 * its batches. out is owned by the caller: gpu_samples_free(). Returns 0 or -1 (error recorded). */
int gpu_measure(struct probe_ctx *ctx, const struct gpu_work *w, struct gpu_samples *out);
void gpu_samples_free(struct gpu_samples *s);

/* Records samples into m: stream < 0 uses the overall times, else stream's.
 * MEASURE_RATE: work_per_iter * iters / seconds * scale; MEASURE_TIME_PER:
 * ns / (work_per_iter * iters) * scale. */
static inline void gpu_samples_record(const struct gpu_samples *s, struct metric *m,
				      double work_per_iter, enum measure_kind kind, double scale,
				      int stream)
{
	const double *ns = stream < 0 ? s->ns : s->stream_ns[stream];
	const double *wns = stream < 0 ? s->warm_ns : s->stream_warm_ns[stream];
	double work = work_per_iter * (double)s->iters;
	double warm = work_per_iter * (double)(s->warm_iters ? s->warm_iters : s->iters);

	m->work = work;

	for (unsigned i = 0; i < s->n_warm + s->n; i++) {
		double t = i < s->n_warm ? wns[i] : ns[i - s->n_warm];
		double wk = i < s->n_warm ? warm : work;
		double v = kind == MEASURE_RATE ? wk / (t * 1e-9) * scale : t / wk * scale;

		if (i < s->n_warm)
			metric_add_warmup(m, v);
		else if (s->t0) /* timed by gpu_measure: its windows */
			metric_add_sample_at(m, v, s->t0[i - s->n_warm], s->t1[i - s->n_warm]);
		else
			metric_add_sample(m, v);
	}
}

#endif
