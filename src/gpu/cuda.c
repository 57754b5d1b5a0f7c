/* cuda.c - the GPU API (gpu.h) over the CUDA runtime, in C.
 *
 * Every CUDA call goes through GPU_CHECK(), which keeps the call's text and
 * the error name for the probe's FAIL reason. The current device throughout
 * (device 0 unless a probe calls gpu_set_device); only gpu_set_device and the
 * peer-access calls (peer.c) call cudaSetDevice (since CUDA 12 it creates the context),
 * so asking whether a GPU exists initialises the driver but creates no context.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "base/util.h"
#include "gpu/gpu.h"
#include "gpu/timing.h"

static char last_err[512];

int gpu_check(int err, const char *text)
{
	if (err == 0)
		return 0;
	snprintf(last_err, sizeof(last_err), "%s: %s", text,
		 err > 0 ? cudaGetErrorName((cudaError_t)err) : "failed");
	return -1;
}

int gpu_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
	return -1;
}

const char *gpu_last_error(void)
{
	return last_err;
}

int gpu_fail(struct probe_result *res, const char *what)
{
	probe_result_set_status(res, STATUS_FAIL, "%s%s%s", what ? what : "", what ? ": " : "",
				last_err[0] ? last_err : "unknown GPU error");
	return PROBE_FAIL;
}

/* Kernels load at context creation, not at first launch: a lazily loaded
 * kernel queued behind the gate (gpu_measure) waits for the device to idle
 * while the gate waits for the host, a deadlock the gate's timeout ends
 * (seen on the H200 with CUDA 13's default CUDA_MODULE_LOADING=LAZY). Set
 * before the first CUDA call; a user's own setting wins. */
static void cuda_env(void)
{
	static int done;

	if (!done) {
		setenv("CUDA_MODULE_LOADING", "EAGER", 0);
		done = 1;
	}
}

void gpu_clear_error(void)
{
	(void)cudaGetLastError();
}

const char *gpu_unsupported_reason(void)
{
	static char why[160];
	int n = 0;
	cudaError_t e;

	cuda_env();
	e = cudaGetDeviceCount(&n);

	if (e != cudaSuccess) {
		snprintf(why, sizeof(why), "no usable CUDA device: cudaGetDeviceCount: %s",
			 cudaGetErrorName(e));
		return why;
	}
	if (n == 0)
		return "no CUDA device";
	return NULL;
}

int gpu_count(void)
{
	int n = 0;

	cuda_env();
	return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

/* ---- device facts ----------------------------------------------------- */

static int attr(enum cudaDeviceAttr a, int dev)
{
	int v = 0;

	if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
		return -1;
	return v;
}

static int props_of(int dev, struct gpu_props *p)
{
	struct cudaDeviceProp dp;
	char path[128], *s;

	memset(p, 0, sizeof(*p));
	cuda_env();
	if (GPU_CHECK(cudaGetDeviceProperties(&dp, dev)))
		return -1;
	snprintf(p->name, sizeof(p->name), "%s", dp.name);
	p->cc_major = dp.major;
	p->cc_minor = dp.minor;
	p->sm_count = dp.multiProcessorCount;
	p->max_threads_per_sm = dp.maxThreadsPerMultiProcessor;
	p->l2_bytes = (uint64_t)dp.l2CacheSize;
	p->mem_bytes = (uint64_t)dp.totalGlobalMem;
	p->pageable_access = attr(cudaDevAttrPageableMemoryAccess, dev);
	p->pageable_host_pt = attr(cudaDevAttrPageableMemoryAccessUsesHostPageTables, dev);
	p->concurrent_managed = attr(cudaDevAttrConcurrentManagedAccess, dev);
	p->host_numa_node = -1;
	if (cudaDeviceGetPCIBusId(p->pci_bus_id, sizeof(p->pci_bus_id), dev) == cudaSuccess) {
		for (char *c = p->pci_bus_id; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/numa_node", p->pci_bus_id);
		s = read_line_str(path);
		if (s) {
			p->host_numa_node = atoi(s);
			free(s);
		}
	}
	if (p->host_numa_node < 0)
		p->host_numa_node = attr(cudaDevAttrHostNumaId, dev);
	cudaDriverGetVersion(&p->driver_version);
	cudaRuntimeGetVersion(&p->runtime_version);
	return 0;
}

int gpu_get_props(struct gpu_props *p)
{
	return props_of(0, p);
}

int gpu_get_props_of(int dev, struct gpu_props *p)
{
	return props_of(dev, p);
}

int gpu_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
	size_t f = 0, t = 0;

	if (GPU_CHECK(cudaMemGetInfo(&f, &t)))
		return -1;
	*free_bytes = f;
	*total_bytes = t;
	return 0;
}

static void set_version(json_t *o, const char *key, int v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d.%d", v / 1000, (v % 1000) / 10);
	json_object_set_new(o, key, json_string(buf));
}

json_t *gpu_sysinfo(void)
{
	json_t *arr = json_array();
	int n = gpu_count();

	for (int i = 0; i < n; i++) {
		struct gpu_props p;
		json_t *o = json_object();
		char cc[16];

		if (props_of(i, &p) != 0) {
			json_object_set_new(o, "error", json_string(last_err));
			json_array_append_new(arr, o);
			continue;
		}
		snprintf(cc, sizeof(cc), "%d.%d", p.cc_major, p.cc_minor);
		json_object_set_new(o, "index", json_integer(i));
		json_object_set_new(o, "name", json_string(p.name));
		json_object_set_new(o, "pci_bus_id", json_string(p.pci_bus_id));
		json_object_set_new(o, "compute_capability", json_string(cc));
		json_object_set_new(o, "sm_count", json_integer(p.sm_count));
		json_object_set_new(o, "l2_bytes", json_integer((json_int_t)p.l2_bytes));
		json_object_set_new(o, "mem_bytes", json_integer((json_int_t)p.mem_bytes));
		json_object_set_new(o, "addressing_mode", json_string(gpu_addressing_mode(&p)));
		json_object_set_new(o, "pageable_memory_access", json_integer(p.pageable_access));
		json_object_set_new(o, "pageable_uses_host_page_tables",
				    json_integer(p.pageable_host_pt));
		json_object_set_new(o, "concurrent_managed_access",
				    json_integer(p.concurrent_managed));
		json_object_set_new(o, "host_numa_node", json_integer(p.host_numa_node));
		set_version(o, "cuda_driver_api", p.driver_version);
		set_version(o, "cuda_runtime", p.runtime_version);
		gpu_nvml_sysinfo(p.pci_bus_id, o);
		/* Driver-wide facts are repeated per device so sysinfo's "devices"
		 * array carries them (one GPU is the common case). */
		json_object_set_new(o, "driver", gpu_driver_sysinfo());
		json_array_append_new(arr, o);
	}
	return arr;
}

/* "Name: value" lines, as /proc/driver/nvidia/params writes them. */
static json_t *params_file(const char *path)
{
	char *text = read_file_str(path, NULL), *save = NULL;
	json_t *o;

	if (!text)
		return NULL;
	o = json_object();
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		json_object_set_new(o, str_trim(line), json_string(str_trim(colon + 1)));
	}
	free(text);
	return o;
}

static json_t *params_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	json_t *o;

	if (!d)
		return NULL;
	o = json_object();
	while ((de = readdir(d)) != NULL) {
		char path[512], *v;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		v = read_line_str(path);
		if (v) {
			json_object_set_new(o, de->d_name, json_string(str_trim(v)));
			free(v);
		}
	}
	closedir(d);
	return o;
}

json_t *gpu_driver_sysinfo(void)
{
	json_t *o = json_object(), *x;
	char *s;
	int v;

	if (cudaDriverGetVersion(&v) == cudaSuccess)
		set_version(o, "cuda_driver_api", v);
	if (cudaRuntimeGetVersion(&v) == cudaSuccess)
		set_version(o, "cuda_runtime", v);
	s = read_line_str("/proc/driver/nvidia/version");
	if (s) {
		json_object_set_new(o, "nvidia_version", json_string(str_trim(s)));
		free(s);
	}
	x = params_file("/proc/driver/nvidia/params");
	if (x)
		json_object_set_new(o, "nvreg", x);
	x = params_dir("/sys/module/nvidia_uvm/parameters");
	if (x)
		json_object_set_new(o, "uvm_params", x);
	return o;
}

/* ---- several devices -------------------------------------------------- */

int gpu_set_device(int dev)
{
	cuda_env();
	return GPU_CHECK(cudaSetDevice(dev));
}

int gpu_get_device(int *dev)
{
	*dev = 0;
	return GPU_CHECK(cudaGetDevice(dev));
}

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

	if (GPU_CHECK(cudaGetDevice(&dev)))
		return NULL;
	if (dev < 0 || dev >= MAX_DEVICES) {
		gpu_error("device %d: at most %d devices", dev, MAX_DEVICES);
		return NULL;
	}
	return &ctxs.scratch[dev];
}

int gpu_context_create(enum gpu_sched sched)
{
	static const unsigned flags[] = {cudaDeviceScheduleAuto, cudaDeviceScheduleSpin,
					 cudaDeviceScheduleYield, cudaDeviceScheduleBlockingSync};

	cuda_env();
	if (GPU_CHECK(cudaSetDeviceFlags(flags[sched] | cudaDeviceMapHost)))
		return -1;
	return GPU_CHECK(cudaFree(0));
}

int gpu_context_reset(void)
{
	unsigned long long **slot = scratch_slot();

	if (slot)
		*slot = NULL; /* cudaDeviceReset frees the current device's only */
	gpu_timing_forget();
	return GPU_CHECK(cudaDeviceReset());
}

int gpu_context_sched(void)
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

const char *gpu_sched_name(int sched)
{
	static const char *const names[] = {"auto", "spin", "yield", "blocking"};

	return sched >= 0 && sched < 4 ? names[sched] : "unknown";
}

/* ---- memory ------------------------------------------------------------ */

int gpu_malloc(void **p, size_t bytes)
{
	*p = NULL;
	return GPU_CHECK(cudaMalloc(p, bytes));
}

int gpu_free(void *p)
{
	return p ? GPU_CHECK(cudaFree(p)) : 0;
}

int gpu_malloc_managed(void **p, size_t bytes)
{
	*p = NULL;
	return GPU_CHECK(cudaMallocManaged(p, bytes, cudaMemAttachGlobal));
}

int gpu_malloc_host(void **p, size_t bytes, int mapped)
{
	*p = NULL;
	return GPU_CHECK(
		cudaHostAlloc(p, bytes, mapped ? cudaHostAllocMapped : cudaHostAllocDefault));
}

int gpu_free_host(void *p)
{
	return p ? GPU_CHECK(cudaFreeHost(p)) : 0;
}

int gpu_host_register(void *p, size_t bytes)
{
	return GPU_CHECK(
		cudaHostRegister(p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable));
}

int gpu_host_unregister(void *p)
{
	return GPU_CHECK(cudaHostUnregister(p));
}

int gpu_host_device_ptr(void *host, void **dev)
{
	return GPU_CHECK(cudaHostGetDevicePointer(dev, host, 0));
}

int gpu_malloc_async(void **p, size_t bytes, struct CUstream_st *s)
{
	*p = NULL;
	return GPU_CHECK(cudaMallocAsync(p, bytes, s));
}

int gpu_free_async(void *p, struct CUstream_st *s)
{
	return GPU_CHECK(cudaFreeAsync(p, s));
}

int gpu_pool_keep(int keep)
{
	cudaMemPool_t pool;
	uint64_t threshold = keep ? UINT64_MAX : 0;

	if (GPU_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0)))
		return -1;
	return GPU_CHECK(
		cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

int gpu_pool_trim(void)
{
	cudaMemPool_t pool;

	if (GPU_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0)))
		return -1;
	return GPU_CHECK(cudaMemPoolTrimTo(pool, 0));
}

/* ---- copies, streams, events ------------------------------------------- */

int gpu_memcpy(void *dst, const void *src, size_t bytes)
{
	return GPU_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
}

int gpu_memcpy_async(void *dst, const void *src, size_t bytes, struct CUstream_st *s)
{
	return GPU_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s));
}

int gpu_memset_async(void *p, int value, size_t bytes, struct CUstream_st *s)
{
	return GPU_CHECK(cudaMemsetAsync(p, value, bytes, s));
}

int gpu_prefetch_async(const void *p, size_t bytes, int to_device, struct CUstream_st *s)
{
#if CUDART_VERSION >= 13000
	struct cudaMemLocation loc = {
		.type = to_device ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost, .id = 0};

	return GPU_CHECK(cudaMemPrefetchAsync(p, bytes, loc, 0, s));
#else
	return GPU_CHECK(cudaMemPrefetchAsync(p, bytes, to_device ? 0 : cudaCpuDeviceId, s));
#endif
}

int gpu_stream_create(struct CUstream_st **s)
{
	return GPU_CHECK(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
}

int gpu_stream_destroy(struct CUstream_st *s)
{
	return s ? GPU_CHECK(cudaStreamDestroy(s)) : 0;
}

int gpu_stream_sync(struct CUstream_st *s)
{
	return GPU_CHECK(cudaStreamSynchronize(s));
}

int gpu_device_sync(void)
{
	return GPU_CHECK(cudaDeviceSynchronize());
}

int gpu_event_create(struct CUevent_st **e)
{
	return GPU_CHECK(cudaEventCreate(e));
}

int gpu_event_destroy(struct CUevent_st *e)
{
	return e ? GPU_CHECK(cudaEventDestroy(e)) : 0;
}

int gpu_event_record(struct CUevent_st *e, struct CUstream_st *s)
{
	return GPU_CHECK(cudaEventRecord(e, s));
}

int gpu_event_elapsed_ns(struct CUevent_st *a, struct CUevent_st *b, double *ns)
{
	float ms = 0;

	if (GPU_CHECK(cudaEventSynchronize(b)) || GPU_CHECK(cudaEventElapsedTime(&ms, a, b)))
		return -1;
	*ns = (double)ms * 1e6;
	return 0;
}

unsigned long long *gpu_scratch(void)
{
	unsigned long long **slot = scratch_slot();

	if (!slot)
		return NULL;
	if (!*slot && GPU_CHECK(cudaMalloc((void **)slot, 4 * sizeof(uint64_t)))) {
		*slot = NULL;
		return NULL;
	}
	return *slot;
}

int gpu_scratch_read(unsigned long long *v)
{
	unsigned long long *s = gpu_scratch();

	if (!s)
		return -1;
	return GPU_CHECK(cudaMemcpy(v, s, sizeof(*v), cudaMemcpyDeviceToHost));
}

int gpu_pattern_fill(void *p, size_t bytes, uint64_t seed, struct CUstream_st *s)
{
	if (GPU_CHECK(gpu_launch_fill(p, bytes, seed, s)))
		return -1;
	return GPU_CHECK(cudaStreamSynchronize(s));
}

int gpu_pattern_verify(const void *p, size_t bytes, uint64_t seed, uint64_t *bad)
{
	unsigned long long *s = gpu_scratch(), n = 0;

	if (!s || GPU_CHECK(cudaMemset(s + 1, 0, sizeof(*s))) ||
	    GPU_CHECK(gpu_launch_verify(p, bytes, seed, s + 1, NULL)) ||
	    GPU_CHECK(cudaMemcpy(&n, s + 1, sizeof(n), cudaMemcpyDeviceToHost)))
		return -1;
	*bad = n;
	return 0;
}

/* ---- a process that holds device memory (phantom) ----------------------- */

int gpu_hold_memory(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen)
{
	void *p = NULL;

	cuda_env();
	if (GPU_CHECK(cudaMalloc(&p, (size_t)bytes)) ||
	    GPU_CHECK(cudaMemset(p, 0x5a, (size_t)bytes)) || GPU_CHECK(cudaDeviceSynchronize())) {
		snprintf(err, errlen, "%s", last_err);
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
	if (GPU_CHECK(cudaFree(p))) {
		snprintf(err, errlen, "%s", last_err);
		return -1;
	}
	return 0;
}
