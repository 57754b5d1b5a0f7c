/* cuda.c - the CUDA backend: the table gpu_backend_cuda (backend.h), and its
 * context, memory, copy, stream and event calls over the CUDA runtime, in C.
 *
 * Every CUDA call goes through CUDA_CHECK() (cuda_facts.c), which keeps the
 * call's text and the error name for the probe's FAIL reason. Device facts,
 * errors and availability are cuda_facts.c, the fingerprint cuda_info.c,
 * peer access peer.c, NVML nvml.c, the kernels kernels/ *.cu.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gpu/cuda/cuda_impl.h"

/* The timing gate's host-mapped words, per context: [0] release flag, [1]
 * timed out. */
static struct {
	volatile int *host;
	int *dev;
} gate;

/* ---- context ---------------------------------------------------------- */

/* Per-context helpers, one per device: gone with the context on reset. */
#define MAX_DEVICES 64
static struct {
	unsigned long long *scratch[MAX_DEVICES]; /* [0] kernel results, [1] verify count */
} ctxs;

/* The current device's scratch slot, or NULL (error recorded). */
static unsigned long long **scratch_slot(void)
{
	int dev = 0;

	if (CUDA_CHECK(cudaGetDevice(&dev)))
		return NULL;
	if (dev < 0 || dev >= MAX_DEVICES) {
		cuda_error("device %d: at most %d devices", dev, MAX_DEVICES);
		return NULL;
	}
	return &ctxs.scratch[dev];
}

static int cuda_context_create(enum gpu_sched sched)
{
	static const unsigned flags[] = {cudaDeviceScheduleAuto, cudaDeviceScheduleSpin,
					 cudaDeviceScheduleYield, cudaDeviceScheduleBlockingSync};

	cuda_env();
	if (CUDA_CHECK(cudaSetDeviceFlags(flags[sched] | cudaDeviceMapHost)))
		return -1;
	return CUDA_CHECK(cudaFree(0));
}

static int cuda_context_reset(void)
{
	unsigned long long **slot = scratch_slot();

	if (slot)
		*slot = NULL;		/* cudaDeviceReset frees the current device's only */
	memset(&gate, 0, sizeof(gate)); /* freed with the context */
	return CUDA_CHECK(cudaDeviceReset());
}

static int cuda_context_sched(void)
{
	unsigned f = 0;

	if (cudaGetDeviceFlags(&f) != cudaSuccess)
		return -1;
	switch (f & cudaDeviceScheduleMask) {
	case cudaDeviceScheduleSpin:
		return GPU_SCHED_SPIN;
	case cudaDeviceScheduleYield:
		return GPU_SCHED_YIELD;
	case cudaDeviceScheduleBlockingSync:
		return GPU_SCHED_BLOCKING;
	default:
		return GPU_SCHED_AUTO;
	}
}

/* ---- memory ------------------------------------------------------------ */

static int cuda_malloc(void **p, size_t bytes)
{
	*p = NULL;
	return CUDA_CHECK(cudaMalloc(p, bytes));
}

static int cuda_free(void *p)
{
	return p ? CUDA_CHECK(cudaFree(p)) : 0;
}

static int cuda_malloc_managed(void **p, size_t bytes)
{
	*p = NULL;
	return CUDA_CHECK(cudaMallocManaged(p, bytes, cudaMemAttachGlobal));
}

static int cuda_malloc_host(void **p, size_t bytes, int mapped)
{
	*p = NULL;
	return CUDA_CHECK(
		cudaHostAlloc(p, bytes, mapped ? cudaHostAllocMapped : cudaHostAllocDefault));
}

static int cuda_free_host(void *p)
{
	return p ? CUDA_CHECK(cudaFreeHost(p)) : 0;
}

static int cuda_host_register(void *p, size_t bytes)
{
	return CUDA_CHECK(
		cudaHostRegister(p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable));
}

static int cuda_host_unregister(void *p)
{
	return CUDA_CHECK(cudaHostUnregister(p));
}

static int cuda_host_device_ptr(void *host, void **dev)
{
	return CUDA_CHECK(cudaHostGetDevicePointer(dev, host, 0));
}

static int cuda_malloc_async(void **p, size_t bytes, struct gpu_stream *s)
{
	*p = NULL;
	return CUDA_CHECK(cudaMallocAsync(p, bytes, CU_S(s)));
}

static int cuda_free_async(void *p, struct gpu_stream *s)
{
	return CUDA_CHECK(cudaFreeAsync(p, CU_S(s)));
}

static int cuda_pool_keep(int keep)
{
	cudaMemPool_t pool;
	uint64_t threshold = keep ? UINT64_MAX : 0;

	if (CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0)))
		return -1;
	return CUDA_CHECK(
		cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

static int cuda_pool_trim(void)
{
	cudaMemPool_t pool;

	if (CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0)))
		return -1;
	return CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
}

/* ---- copies, streams, events ------------------------------------------- */

static int cuda_memcpy(void *dst, const void *src, size_t bytes)
{
	return CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
}

static int cuda_memcpy_async(void *dst, const void *src, size_t bytes, struct gpu_stream *s)
{
	return CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, CU_S(s)));
}

static int cuda_memset_async(void *p, int value, size_t bytes, struct gpu_stream *s)
{
	return CUDA_CHECK(cudaMemsetAsync(p, value, bytes, CU_S(s)));
}

static int cuda_prefetch_async(const void *p, size_t bytes, int to_device, struct gpu_stream *s)
{
#if CUDART_VERSION >= 13000
	struct cudaMemLocation loc = {
		.type = to_device ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost, .id = 0};

	return CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, loc, 0, CU_S(s)));
#else
	return CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, to_device ? 0 : cudaCpuDeviceId, CU_S(s)));
#endif
}

static int cuda_stream_create(struct gpu_stream **s)
{
	return CUDA_CHECK(cudaStreamCreateWithFlags((cudaStream_t *)s, cudaStreamNonBlocking));
}

static int cuda_stream_destroy(struct gpu_stream *s)
{
	return s ? CUDA_CHECK(cudaStreamDestroy(CU_S(s))) : 0;
}

static int cuda_stream_sync(struct gpu_stream *s)
{
	return CUDA_CHECK(cudaStreamSynchronize(CU_S(s)));
}

static int cuda_stream_wait_event(struct gpu_stream *s, struct gpu_event *e)
{
	return CUDA_CHECK(cudaStreamWaitEvent(CU_S(s), CU_E(e), 0));
}

static int cuda_device_sync(void)
{
	return CUDA_CHECK(cudaDeviceSynchronize());
}

static int cuda_event_create(struct gpu_event **e)
{
	return CUDA_CHECK(cudaEventCreate((cudaEvent_t *)e));
}

static int cuda_event_destroy(struct gpu_event *e)
{
	return e ? CUDA_CHECK(cudaEventDestroy(CU_E(e))) : 0;
}

static int cuda_event_record(struct gpu_event *e, struct gpu_stream *s)
{
	return CUDA_CHECK(cudaEventRecord(CU_E(e), CU_S(s)));
}

static int cuda_event_sync(struct gpu_event *e)
{
	return CUDA_CHECK(cudaEventSynchronize(CU_E(e)));
}

static int cuda_event_elapsed_ms(struct gpu_event *a, struct gpu_event *b, float *ms)
{
	return CUDA_CHECK(cudaEventElapsedTime(ms, CU_E(a), CU_E(b)));
}

static int cuda_event_elapsed_ns(struct gpu_event *a, struct gpu_event *b, double *ns)
{
	float ms = 0;

	if (CUDA_CHECK(cudaEventSynchronize(CU_E(b))) ||
	    CUDA_CHECK(cudaEventElapsedTime(&ms, CU_E(a), CU_E(b))))
		return -1;
	*ns = (double)ms * 1e6;
	return 0;
}

static unsigned long long *cuda_scratch(void)
{
	unsigned long long **slot = scratch_slot();

	if (!slot)
		return NULL;
	if (!*slot && CUDA_CHECK(cudaMalloc((void **)slot, 4 * sizeof(uint64_t)))) {
		*slot = NULL;
		return NULL;
	}
	return *slot;
}

static int cuda_scratch_read(unsigned long long *v)
{
	unsigned long long *s = cuda_scratch();

	if (!s)
		return -1;
	return CUDA_CHECK(cudaMemcpy(v, s, sizeof(*v), cudaMemcpyDeviceToHost));
}

static int cuda_pattern_fill(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s)
{
	if (CUDA_CHECK(gpu_launch_fill(p, bytes, seed, s)))
		return -1;
	return CUDA_CHECK(cudaStreamSynchronize(CU_S(s)));
}

static int cuda_pattern_verify(const void *p, size_t bytes, uint64_t seed, uint64_t *bad)
{
	unsigned long long *s = cuda_scratch(), n = 0;

	if (!s || CUDA_CHECK(cudaMemset(s + 1, 0, sizeof(*s))) ||
	    CUDA_CHECK(gpu_launch_verify(p, bytes, seed, s + 1, NULL)) ||
	    CUDA_CHECK(cudaMemcpy(&n, s + 1, sizeof(n), cudaMemcpyDeviceToHost)))
		return -1;
	*bad = n;
	return 0;
}

static int cuda_gate_words(volatile int **host, int **dev)
{
	void *d;

	if (!gate.host) {
		if (CUDA_CHECK(cudaHostAlloc((void **)&gate.host, 2 * sizeof(int),
					     cudaHostAllocMapped)) ||
		    CUDA_CHECK(cudaHostGetDevicePointer(&d, (void *)gate.host, 0)))
			return -1;
		gate.dev = d;
	}
	*host = gate.host;
	*dev = gate.dev;
	return 0;
}

/* ---- a process that holds device memory (phantom) ----------------------- */

static int cuda_hold_memory(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen)
{
	void *p = NULL;

	cuda_env();
	if (CUDA_CHECK(cudaMalloc(&p, (size_t)bytes)) ||
	    CUDA_CHECK(cudaMemset(p, 0x5a, (size_t)bytes)) || CUDA_CHECK(cudaDeviceSynchronize())) {
		snprintf(err, errlen, "%s", cuda_last_error());
		if (p)
			cudaFree(p);
		return -1;
	}
	if (ready_fd >= 0 && write(ready_fd, "ok\n", 3) != 3) {
		snprintf(err, errlen, "cannot report readiness");
		return -1;
	}
	if (hold_s < 0) {
		for (;;)
			pause();
	}
	if (hold_s > 0) {
		struct timespec ts = {(time_t)hold_s,
				      (long)((hold_s - (double)(time_t)hold_s) * 1e9)};

		while (nanosleep(&ts, &ts) != 0)
			;
	}
	if (CUDA_CHECK(cudaFree(p))) {
		snprintf(err, errlen, "%s", cuda_last_error());
		return -1;
	}
	return 0;
}

/* The table gpu_backend() returns when mempath is built with CUDA (backends.c). */
const struct gpu_backend gpu_backend_cuda = {
	.names = {.api = "CUDA",
		  .events = "CUDA events",
		  .telemetry = "NVML",
		  .timer = "%globaltimer",
		  .cycle_clock = "clock64",
		  .load = "ld.global.nc",
		  .load_streaming = "ld.global.cs",
		  .load_l2 = "ld.global.cg",
		  .store = "st.global",
		  .store_streaming = "st.global.cs",
		  .malloc = "cudaMalloc",
		  .free = "cudaFree",
		  .malloc_async = "cudaMallocAsync",
		  .free_async = "cudaFreeAsync",
		  .malloc_host = "cudaHostAlloc",
		  .malloc_managed = "cudaMallocManaged",
		  .host_register = "cudaHostRegister",
		  .memcpy = "cudaMemcpy",
		  .memcpy_async = "cudaMemcpyAsync",
		  .memcpy_peer_async = "cudaMemcpyPeerAsync",
		  .prefetch_async = "cudaMemPrefetchAsync",
		  .stream_sync = "cudaStreamSynchronize",
		  .context_create = "cudaSetDeviceFlags",
		  .context_reset = "cudaDeviceReset",
		  .can_access_peer = "cudaDeviceCanAccessPeer",
		  .peer_enable = "cudaDeviceEnablePeerAccess",
		  .sched_spin = "cudaDeviceScheduleSpin",
		  .p2p_attr = {"cudaDeviceGetP2PAttribute AccessSupported", "NativeAtomicSupported",
			       "PerformanceRank"}},
	.unsupported_reason = cuda_unsupported_reason,
	.count = cuda_count,
	.error_name = cuda_error_name,
	.set_error = cuda_set_error,
	.last_error = cuda_last_error,
	.clear_error = cuda_clear_error,
	.get_props = cuda_get_props,
	.mem_info = cuda_mem_info,
	.sysinfo = cuda_sysinfo,
	.set_device = cuda_set_device,
	.get_device = cuda_get_device,
	.can_access_peer = cuda_can_access_peer,
	.p2p_attr = cuda_p2p_attr,
	.peer_enable = cuda_peer_enable,
	.peer_disable = cuda_peer_disable,
	.memcpy_peer_async = cuda_memcpy_peer_async,
	.context_create = cuda_context_create,
	.context_reset = cuda_context_reset,
	.context_sched = cuda_context_sched,
	.malloc = cuda_malloc,
	.free = cuda_free,
	.malloc_managed = cuda_malloc_managed,
	.malloc_host = cuda_malloc_host,
	.free_host = cuda_free_host,
	.host_register = cuda_host_register,
	.host_unregister = cuda_host_unregister,
	.host_device_ptr = cuda_host_device_ptr,
	.malloc_async = cuda_malloc_async,
	.free_async = cuda_free_async,
	.pool_keep = cuda_pool_keep,
	.pool_trim = cuda_pool_trim,
	.memcpy = cuda_memcpy,
	.memcpy_async = cuda_memcpy_async,
	.memset_async = cuda_memset_async,
	.prefetch_async = cuda_prefetch_async,
	.stream_create = cuda_stream_create,
	.stream_destroy = cuda_stream_destroy,
	.stream_sync = cuda_stream_sync,
	.stream_wait_event = cuda_stream_wait_event,
	.device_sync = cuda_device_sync,
	.event_create = cuda_event_create,
	.event_destroy = cuda_event_destroy,
	.event_record = cuda_event_record,
	.event_sync = cuda_event_sync,
	.event_elapsed_ms = cuda_event_elapsed_ms,
	.event_elapsed_ns = cuda_event_elapsed_ns,
	.scratch = cuda_scratch,
	.scratch_read = cuda_scratch_read,
	.pattern_fill = cuda_pattern_fill,
	.pattern_verify = cuda_pattern_verify,
	.gate_words = cuda_gate_words,
	.telemetry_unavailable = nvml_unavailable,
	.sampler_start = nvml_sampler_start,
	.sampler_stop = nvml_sampler_stop,
	.other_procs = nvml_other_procs,
	.other_procs_end = nvml_release,
	.link_devices = nvml_link_devices,
	.link_counters = nvml_link_counters,
	.mem = nvml_mem,
	.um_open = cupti_um_open,
	.um_read = cupti_um_read,
	.um_close = cupti_um_close,
	.launch_gate = gpu_launch_gate,
	.launch_fill = gpu_launch_fill,
	.launch_verify = gpu_launch_verify,
	.launch_sleep = gpu_launch_sleep,
	.launch_fma = gpu_launch_fma,
	.launch_read = gpu_launch_read,
	.launch_read_l2 = gpu_launch_read_l2,
	.launch_write = gpu_launch_write,
	.launch_copy = gpu_launch_copy,
	.launch_sectors = gpu_launch_sectors,
	.launch_blocks = gpu_launch_blocks,
	.launch_chain_build = gpu_launch_chain_build,
	.launch_chase = gpu_launch_chase,
	.launch_load_read = gpu_launch_load_read,
	.launch_chase_loaded = gpu_launch_chase_loaded,
	.hold_memory = cuda_hold_memory,
};
