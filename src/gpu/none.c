/* none.c - the GPU API when mempath is built without CUDA (make GPU=0 or no
 * nvcc): every GPU probe reports skip with this reason, and every other call
 * fails the same way should one be reached. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu.h"

#define NO_CUDA "built without CUDA (no nvcc at build time, or make GPU=0)"

static char last_err[256];

const char *gpu_unsupported_reason(void)
{
	return NO_CUDA;
}

int gpu_count(void)
{
	return 0;
}

int gpu_check(int err, const char *text)
{
	if (err == 0)
		return 0;
	snprintf(last_err, sizeof(last_err), "%s: %s", text, NO_CUDA);
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
	return last_err[0] ? last_err : NO_CUDA;
}

int gpu_fail(struct probe_result *res, const char *what)
{
	probe_result_set_status(res, STATUS_FAIL, "%s%s%s", what ? what : "", what ? ": " : "",
				gpu_last_error());
	return PROBE_FAIL;
}

void gpu_clear_error(void)
{
}

int gpu_get_props(struct gpu_props *p)
{
	memset(p, 0, sizeof(*p));
	return gpu_error(NO_CUDA);
}

int gpu_get_props_of(int dev, struct gpu_props *p)
{
	memset(p, 0, sizeof(*p));
	return gpu_error(NO_CUDA);
}

int gpu_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
	*free_bytes = *total_bytes = 0;
	return gpu_error(NO_CUDA);
}

json_t *gpu_sysinfo(void)
{
	return NULL;
}

json_t *gpu_driver_sysinfo(void)
{
	return json_object();
}

int gpu_context_create(enum gpu_sched sched)
{
	return gpu_error(NO_CUDA);
}

int gpu_context_reset(void)
{
	return gpu_error(NO_CUDA);
}

int gpu_context_sched(void)
{
	return -1;
}

const char *gpu_sched_name(int sched)
{
	return "unknown";
}

/* Memory, copies, streams and events: all fail. */
#define FAIL_FN(decl)                      \
	decl                               \
	{                                  \
		return gpu_error(NO_CUDA); \
	}

FAIL_FN(int gpu_malloc(void **p, size_t bytes))
FAIL_FN(int gpu_malloc_managed(void **p, size_t bytes))
FAIL_FN(int gpu_malloc_host(void **p, size_t bytes, int mapped))
FAIL_FN(int gpu_host_register(void *p, size_t bytes))
FAIL_FN(int gpu_host_unregister(void *p))
FAIL_FN(int gpu_host_device_ptr(void *host, void **dev))
FAIL_FN(int gpu_malloc_async(void **p, size_t bytes, struct CUstream_st *s))
FAIL_FN(int gpu_free_async(void *p, struct CUstream_st *s))
FAIL_FN(int gpu_pool_keep(int keep))
FAIL_FN(int gpu_pool_trim(void))
FAIL_FN(int gpu_memcpy(void *dst, const void *src, size_t bytes))
FAIL_FN(int gpu_memcpy_async(void *dst, const void *src, size_t bytes, struct CUstream_st *s))
FAIL_FN(int gpu_memset_async(void *p, int value, size_t bytes, struct CUstream_st *s))
FAIL_FN(int gpu_prefetch_async(const void *p, size_t bytes, int to_device, struct CUstream_st *s))
FAIL_FN(int gpu_stream_create(struct CUstream_st **s))
FAIL_FN(int gpu_stream_sync(struct CUstream_st *s))
FAIL_FN(int gpu_device_sync(void))
FAIL_FN(int gpu_event_create(struct CUevent_st **e))
FAIL_FN(int gpu_event_record(struct CUevent_st *e, struct CUstream_st *s))
FAIL_FN(int gpu_event_elapsed_ns(struct CUevent_st *a, struct CUevent_st *b, double *ns))
FAIL_FN(int gpu_pattern_fill(void *p, size_t bytes, uint64_t seed, struct CUstream_st *s))
FAIL_FN(int gpu_pattern_verify(const void *p, size_t bytes, uint64_t seed, uint64_t *bad))
FAIL_FN(int gpu_scratch_read(unsigned long long *v))
FAIL_FN(int gpu_chain_make(uint64_t *buf, uint64_t n, uint64_t node_bytes, uint64_t group_nodes,
			   uint64_t seed))
FAIL_FN(int gpu_measure(struct probe_ctx *ctx, const struct gpu_work *w, struct gpu_samples *out))
FAIL_FN(int gpu_set_device(int dev))
FAIL_FN(int gpu_get_device(int *dev))
FAIL_FN(int gpu_can_access_peer(int dev, int peer, int *can))
FAIL_FN(int gpu_p2p_attr(enum gpu_p2p_attr a, int src, int dst, int *v))
FAIL_FN(int gpu_peer_enable(int dev, int peer, int *was_enabled))
FAIL_FN(int gpu_peer_disable(int dev, int peer))
FAIL_FN(int gpu_memcpy_peer_async(void *dst, int dst_dev, const void *src, int src_dev,
				  size_t bytes, struct CUstream_st *s))

/* Freeing nothing succeeds, as free(NULL) does. */
int gpu_free(void *p)
{
	return p ? gpu_error(NO_CUDA) : 0;
}

int gpu_free_host(void *p)
{
	return p ? gpu_error(NO_CUDA) : 0;
}

int gpu_stream_destroy(struct CUstream_st *s)
{
	return s ? gpu_error(NO_CUDA) : 0;
}

int gpu_event_destroy(struct CUevent_st *e)
{
	return e ? gpu_error(NO_CUDA) : 0;
}

unsigned long long *gpu_scratch(void)
{
	gpu_error(NO_CUDA);
	return NULL;
}

void gpu_samples_free(struct gpu_samples *s)
{
	memset(s, 0, sizeof(*s));
}

/* NVML needs the CUDA build to find its device. */
const char *gpu_nvml_unavailable(void)
{
	return NO_CUDA;
}

int gpu_nvml_sysinfo(const char *pci_bus_id, json_t *obj)
{
	return -1;
}

struct gpu_sampler *gpu_sampler_start(unsigned period_ms)
{
	return NULL;
}

void gpu_sampler_stop(struct gpu_sampler *s, struct probe_result *res, const char *during)
{
}

/* Kernel launchers (kernels/launch.h): there are no kernels. */
int gpu_launch_gate(volatile int *flag, int *timed_out, uint64_t timeout_ns, struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_fill(void *p, size_t bytes, uint64_t seed, struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_verify(const void *p, size_t bytes, uint64_t seed, unsigned long long *bad,
		      struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_sleep(uint64_t ns, struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_fma(float *out, unsigned blocks, unsigned threads, unsigned iters,
		   struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_read(const void *p, size_t bytes, const struct gpu_grid *g, int streaming,
		    unsigned long long *out, struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_write(void *p, size_t bytes, const struct gpu_grid *g, int streaming, uint64_t seed,
		     struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_copy(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
		    struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_sectors(const void *base, uint64_t span, uint64_t distinct, uint64_t per_thread,
		       uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
		       struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_blocks(const void *base, uint64_t span, uint64_t block_bytes, uint64_t per_warp,
		      uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
		      struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n, uint64_t stride_words,
			   struct CUstream_st *s)
{
	return -1;
}

int gpu_launch_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos, struct CUstream_st *s)
{
	return -1;
}

int gpu_hold_memory(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", NO_CUDA);
	return -1;
}
