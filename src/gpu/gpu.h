/* gpu.h - the GPU API used by probes and sysinfo.
 *
 * Built from cuda.c, peer.c, timing.c, nvml.c, kernels/ *.cu when nvcc is found, from none.c
 * otherwise (make GPU=0), so probe files compile and link the same way in both
 * builds and report skip with the reason where there is no usable GPU. Probe
 * files never include CUDA headers: everything they need is here.
 *
 * Never call any of this in a process that will fork probe children: CUDA
 * contexts do not survive fork. Probes run in children; sysinfo collects GPU
 * facts through runner_json_in_child().
 *
 * Device: every call works on the calling thread's current CUDA device, which
 * is device 0 of this process (the first one CUDA_VISIBLE_DEVICES leaves)
 * unless a probe picks another with gpu_set_device() (gpu.p2p); memory,
 * streams and events belong to the device current when they were made.
 *
 * Errors: functions returning int give 0, or -1 after recording the failing
 * call's text and CUDA error name ("cudaMalloc(&p, n): cudaErrorMemoryAllocation")
 * as the last GPU error; gpu_fail() turns it into the probe's FAIL reason.
 * GPU_CHECK() is the one check macro: cuda.c wraps every CUDA runtime call in
 * it, and probes wrap every kernel launcher (kernels/launch.h) in it.
 *
 * Ownership: memory from gpu_malloc*() is the caller's until the matching
 * gpu_free*(); streams and events likewise. JSON returned is a new reference.
 */
#ifndef MEMPATH_GPU_H
#define MEMPATH_GPU_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/kernels/launch.h"
#include "gpu/kernels/pattern.h"
#include "kit/measure.h"
#include "results/results.h"

struct CUevent_st; /* cudaEvent_t is `struct CUevent_st *` */

/* ---- availability, errors -------------------------------------------- */

/* NULL when at least one CUDA device is usable, else why not ("built without
 * CUDA (make GPU=0)", "no CUDA device: cudaErrorNoDevice"). Initialises the
 * CUDA driver (not a context): call it only in a probe or sysinfo child. */
const char *gpu_unsupported_reason(void);
/* Number of usable CUDA devices (0 if none). */
int gpu_count(void);

/* err is a cudaError_t (0 = success). Otherwise records "<text>: <error
 * name>" as the last GPU error and returns -1. */
int gpu_check(int err, const char *text);
#define GPU_CHECK(call) gpu_check((int)(call), #call)
/* Records a formatted message as the last GPU error; returns -1. */
int gpu_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last GPU error ("" if none). */
const char *gpu_last_error(void);
/* Sets res FAIL with the last GPU error, prefixed by what (may be NULL);
 * returns PROBE_FAIL. */
int gpu_fail(struct probe_result *res, const char *what);
/* Clears the CUDA runtime's latched error (cudaGetLastError), so a probe that
 * goes on after a failed measurement does not see it again in the next
 * launcher's check. A sticky error (context lost) stays: later calls fail. */
void gpu_clear_error(void);

/* ---- device facts ----------------------------------------------------- */

struct gpu_props {
	char name[256];
	char pci_bus_id[32]; /* "0000:18:00.0", lower case (sysfs spelling) */
	int cc_major, cc_minor;
	int sm_count;
	int max_threads_per_sm;
	uint64_t l2_bytes;
	uint64_t mem_bytes;	/* total device memory */
	int pageable_access;	/* cudaDevAttrPageableMemoryAccess */
	int pageable_host_pt;	/* ...PageableMemoryAccessUsesHostPageTables (ATS) */
	int concurrent_managed; /* cudaDevAttrConcurrentManagedAccess */
	int host_numa_node;	/* sysfs numa_node of the GPU's PCI function, -1 unknown */
	int driver_version;	/* cudaDriverGetVersion: 13000 = 13.0 */
	int runtime_version;	/* cudaRuntimeGetVersion */
};

int gpu_get_props(struct gpu_props *p);
/* "ATS" (pageable access through the host page tables), "HMM" (pageable
 * access, own page tables) or "none". */
static inline const char *gpu_addressing_mode(const struct gpu_props *p)
{
	if (p->pageable_access > 0)
		return p->pageable_host_pt > 0 ? "ATS" : "HMM";
	return "none";
}
/* Free and total device memory now (cudaMemGetInfo; creates the context). */
int gpu_mem_info(uint64_t *free_bytes, uint64_t *total_bytes);

/* GPU part of the fingerprint: an array of per-device objects (name, cc, SMs,
 * L2, memory, addressing mode, PCIe link, persistence, host NUMA node, and
 * "driver": gpu_driver_sysinfo()), or NULL. Creates no context. */
json_t *gpu_sysinfo(void);
/* Driver-wide facts: NVreg parameters (/proc/driver/nvidia/params), nvidia_uvm
 * module parameters (/sys/module/nvidia_uvm/parameters/ *), driver and CUDA
 * versions; readable ones only. A new object, never NULL. */
json_t *gpu_driver_sysinfo(void);

/* ---- several devices (gpu.p2p) ----------------------------------------- */

/* Makes dev the calling thread's current device (cudaSetDevice: creates its
 * primary context) / reads it. */
int gpu_set_device(int dev);
int gpu_get_device(int *dev);
/* Device facts of device dev (gpu_get_props is device 0's). Creates no context. */
int gpu_get_props_of(int dev, struct gpu_props *p);
/* cudaDeviceCanAccessPeer: whether dev can map peer's memory, into *can. */
int gpu_can_access_peer(int dev, int peer, int *can);

enum gpu_p2p_attr { GPU_P2P_ACCESS, GPU_P2P_NATIVE_ATOMICS, GPU_P2P_PERF_RANK };
/* cudaDeviceGetP2PAttribute of the link src -> dst: cudaDevP2PAttrAccessSupported,
 * ...NativeAtomicSupported, ...PerformanceRank (lower is faster), into *v. */
int gpu_p2p_attr(enum gpu_p2p_attr a, int src, int dst, int *v);
/* Lets dev map peer's memory (cudaDeviceEnablePeerAccess with dev current);
 * *was_enabled = 1 when it already could (nothing changed, nothing to undo).
 * The current device is kept. */
int gpu_peer_enable(int dev, int peer, int *was_enabled);
/* Undoes gpu_peer_enable (cudaDeviceDisablePeerAccess); the current device is kept. */
int gpu_peer_disable(int dev, int peer);
/* cudaMemcpyPeerAsync on s (a stream of either device): the driver stages it
 * through host memory when the stream's device cannot map the other's memory. */
int gpu_memcpy_peer_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
			  struct CUstream_st *s);

/* ---- context and scheduling ------------------------------------------- */

enum gpu_sched { GPU_SCHED_AUTO = 0, GPU_SCHED_SPIN, GPU_SCHED_YIELD, GPU_SCHED_BLOCKING };

/* Sets how a host thread waits for the device (cudaSetDeviceFlags) and
 * creates the primary context with it. Call it before anything else touches
 * the device, or after gpu_context_reset(). */
int gpu_context_create(enum gpu_sched sched);
/* Destroys this process's primary context and everything in it
 * (cudaDeviceReset). Resets no hardware and no other process's state. */
int gpu_context_reset(void);
/* The scheduling mode the context really has (cudaGetDeviceFlags), or -1. */
int gpu_context_sched(void);
const char *gpu_sched_name(int sched);

/* ---- memory ------------------------------------------------------------ */

int gpu_malloc(void **p, size_t bytes);		/* cudaMalloc */
int gpu_free(void *p);				/* NULL ok */
int gpu_malloc_managed(void **p, size_t bytes); /* cudaMallocManaged, global */
/* Pinned host memory (cudaHostAlloc); mapped = 1 also maps it for the device
 * (get the device address with gpu_host_device_ptr). */
int gpu_malloc_host(void **p, size_t bytes, int mapped);
int gpu_free_host(void *p); /* NULL ok */
/* Pins existing host memory (cudaHostRegister, mapped, portable). */
int gpu_host_register(void *p, size_t bytes);
int gpu_host_unregister(void *p);
int gpu_host_device_ptr(void *host, void **dev);
/* Stream-ordered allocation from the device's default pool. keep = 1 sets the
 * pool's release threshold to UINT64_MAX (freed memory stays in the pool), 0
 * sets it to 0; gpu_pool_trim() gives the pool's unused memory back. */
int gpu_malloc_async(void **p, size_t bytes, struct CUstream_st *s);
int gpu_free_async(void *p, struct CUstream_st *s);
int gpu_pool_keep(int keep);
int gpu_pool_trim(void);

/* ---- copies, streams, events ------------------------------------------- */

int gpu_memcpy(void *dst, const void *src, size_t bytes); /* synchronous, any direction */
int gpu_memcpy_async(void *dst, const void *src, size_t bytes, struct CUstream_st *s);
int gpu_memset_async(void *p, int value, size_t bytes, struct CUstream_st *s);
/* cudaMemPrefetchAsync of managed memory to the device (to_device = 1) or to
 * the host. */
int gpu_prefetch_async(const void *p, size_t bytes, int to_device, struct CUstream_st *s);

int gpu_stream_create(struct CUstream_st **s); /* non-blocking stream */
int gpu_stream_destroy(struct CUstream_st *s); /* NULL ok */
int gpu_stream_sync(struct CUstream_st *s);
int gpu_device_sync(void);

int gpu_event_create(struct CUevent_st **e);
int gpu_event_destroy(struct CUevent_st *e); /* NULL ok */
int gpu_event_record(struct CUevent_st *e, struct CUstream_st *s);
/* Time from a to b (both complete) in nanoseconds (event resolution ~0.5 us). */
int gpu_event_elapsed_ns(struct CUevent_st *a, struct CUevent_st *b, double *ns);

/* Fills device memory with pattern words / counts words differing from it
 * (synchronous; *bad = 0 means the data is intact). */
int gpu_pattern_fill(void *p, size_t bytes, uint64_t seed, struct CUstream_st *s);
int gpu_pattern_verify(const void *p, size_t bytes, uint64_t seed, uint64_t *bad);
/* A small scratch word on the current device for kernel results
 * (reductions, chase positions): valid until its context is reset. */
unsigned long long *gpu_scratch(void);
/* Reads the scratch word (synchronous). */
int gpu_scratch_read(unsigned long long *v);
/* chain.c: a pointer-chase cycle through n nodes node_bytes apart in buf
 * (n * node_bytes of device memory on the current device), in a random order
 * (mem_visit_order), page-local within groups of group_nodes when that is
 * below n; n < 2^32. Synchronous; 0 or -1. */
int gpu_chain_make(uint64_t *buf, uint64_t n, uint64_t node_bytes, uint64_t group_nodes,
		   uint64_t seed);

/* ---- the GPU timing loop ----------------------------------------------- */

#define GPU_MAX_STREAMS 2

/* What gpu_measure() times. enqueue(arg, k, s, iters) queues iters
 * repetitions of stream k's work on s; before/check (may be NULL) run
 * untimed before and after each sample (poison the destination / check it;
 * -1 ends the measurement, error recorded). */
struct gpu_work {
	int (*enqueue)(void *arg, unsigned k, struct CUstream_st *s, uint64_t iters);
	int (*before)(void *arg);
	int (*check)(void *arg);
	void *arg;
	unsigned n_streams; /* 1 .. GPU_MAX_STREAMS, started together */
	int gated;	    /* hold the streams behind a spin kernel while queuing */
	uint64_t max_batch; /* most repetitions queued behind one gate (0: 64) */
	uint64_t iters;	    /* repetitions per sample; 0: calibrate to ctx->min_sample_ns */
	uint64_t max_iters; /* calibration cap (0: 1e7) */
	/* Streams on several devices (gpu.p2p): stream k lives on CUDA device
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
	uint64_t iters;
	unsigned n, n_warm;
	double *ns, *warm_ns;
	double *stream_ns[GPU_MAX_STREAMS], *stream_warm_ns[GPU_MAX_STREAMS];
};

/* Calibrates repetitions so one sample is >= ctx->min_sample_ns of device
 * time, then takes ctx->warmups + ctx->reps samples timed with CUDA events.
 * Gated (nvbandwidth's method): each batch of at most max_batch repetitions
 * is queued behind gpu_launch_gate, with the start events, and released by
 * one host store, so queuing never counts; a batch's time is the first start
 * to the last end. A sample is the sum of its batches. out is owned by the
 * caller: gpu_samples_free(). Returns 0 or -1 (error recorded). */
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

	for (unsigned i = 0; i < s->n_warm + s->n; i++) {
		double t = i < s->n_warm ? wns[i] : ns[i - s->n_warm];
		double v = kind == MEASURE_RATE ? work / (t * 1e-9) * scale : t / work * scale;

		if (i < s->n_warm)
			metric_add_warmup(m, v);
		else
			metric_add_sample(m, v);
	}
}

/* The probe's extra object, created on first use. */
static inline json_t *gpu_extra(struct probe_result *res)
{
	if (!res->extra)
		res->extra = json_object();
	return res->extra;
}

/* ---- NVML (nvml.c): loaded with dlopen, read only ---------------------- */

/* NULL when NVML answers for device 0, else why not. */
const char *gpu_nvml_unavailable(void);
/* NVML facts for the device at pci_bus_id (persistence, PCIe link, power
 * limit, max clocks, driver version) into obj; absent facts stay absent.
 * Returns 0 or -1 (NVML absent or the device unknown to it). */
int gpu_nvml_sysinfo(const char *pci_bus_id, json_t *obj);

/* A background thread sampling device 0 every period_ms: SM and memory
 * clocks, power, temperature, utilisation, clock-event (throttle) reasons. */
struct gpu_sampler;
/* Starts sampling; NULL (and nothing to do) when NVML is absent. */
struct gpu_sampler *gpu_sampler_start(unsigned period_ms);
/* Stops, records metrics "sm_clock" (MHz), "mem_clock" (MHz), "power" (W),
 * "temperature" (C), "gpu_util" (%), "mem_util" (%) labelled during=<during>
 * into res, and the fraction of samples each throttle reason was active
 * into res->extra.nvml.<during>; frees s. NULL s does nothing. */
void gpu_sampler_stop(struct gpu_sampler *s, struct probe_result *res, const char *during);

/* ---- a process that holds device memory (phantom) ----------------------- */

/* cudaMalloc(bytes), writes every byte (cudaMemset, synchronised, so the
 * driver really backs it), writes "ok\n" to ready_fd (if >= 0), holds it
 * hold_s seconds (< 0: until killed), then frees it and returns; the caller
 * exits next, so what `mempath phantom` watches is the free and the process
 * exit. Only in a child that exits right after. Returns 0, or -1 with the
 * failing call and CUDA error in err. */
int gpu_hold_memory(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen);

#endif
