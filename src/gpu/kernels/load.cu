/* load.cu - a dependent chase under load: streaming readers that run until
 * the chase says it is done, and the chase that waits for them (gpu.loaded);
 * kernels and extern "C" launchers (launch.h). */
#include "kernel_shim.h"

#include "gpu/kernels/launch.h"

#define LOAD_THREADS 512
#define LOAD_UNROLL  8

static __device__ __forceinline__ unsigned long long read_flag(const unsigned long long *p)
{
	return *(const volatile unsigned long long *)p;
}

/* Every warp runs the same number of iterations (n is cut to whole spans of
 * the grid), so lane 0's stop decision can be shared with __shfl_sync. */
static __global__ void __launch_bounds__(LOAD_THREADS)
	k_load_read(const uint4 *__restrict__ p, size_t n, struct gpu_load_ctl *ctl,
		    unsigned long long max_ns)
{
	__shared__ unsigned long long t0;
	size_t stride = (size_t)gridDim.x * blockDim.x, span = stride * LOAD_UNROLL;
	size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x, m = n / span;
	unsigned long long loaded = 0, x = 0;
	int stop = m == 0;

	if (threadIdx.x == 0) {
		t0 = shim_now_ns();
		atomicAdd(&ctl->running, 1ull);
		atomicCAS(&ctl->t_start, 0ull, t0);
	}
	__syncthreads();
	while (!stop) {
		for (size_t k = 0; k < m; k++) {
			const uint4 *q = p + k * span + i0;
			uint4 v[LOAD_UNROLL];

#pragma unroll
			for (int u = 0; u < LOAD_UNROLL; u++)
				v[u] = shim_load_cs(q + u * stride);
#pragma unroll
			for (int u = 0; u < LOAD_UNROLL; u++)
				x ^= ((unsigned long long)(v[u].x ^ v[u].z) << 32) | (v[u].y ^ v[u].w);
			loaded += LOAD_UNROLL * 16;
			if ((threadIdx.x & 31) == 0)
				stop = read_flag(&ctl->stop) != 0 || shim_now_ns() - t0 > max_ns;
			stop = SHIM_SHFL(stop, 0);
			if (stop)
				break;
		}
	}
	for (int d = 16; d > 0; d /= 2) {
		loaded += SHIM_SHFL_XOR(loaded, d);
		x ^= SHIM_SHFL_XOR(x, d);
	}
	if ((threadIdx.x & 31) == 0) {
		atomicAdd(&ctl->bytes, loaded);
		atomicXor(&ctl->sink, x);
		atomicMax(&ctl->t_end, shim_now_ns());
	}
}

extern "C" int gpu_launch_load_read(const void *p, size_t bytes, unsigned blocks,
				    size_t smem_bytes, struct gpu_load_ctl *ctl, uint64_t max_ns,
				    struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	int rc = shim_allow_smem((const void *)k_load_read, smem_bytes);

	if (rc)
		return rc;
	k_load_read<<<blocks, LOAD_THREADS, smem_bytes, s>>>((const uint4 *)p, bytes / 16, ctl,
							     max_ns);
	return SHIM_LAUNCH_ERROR();
}

/* Plain loads as gpu.latency's chase (k_chase), unrolled by 4 for the branch
 * only: each load still waits for the one before. */
static __global__ void k_chase_loaded(const uint64_t *buf, uint64_t steps, uint64_t *pos,
				      struct gpu_load_ctl *ctl, unsigned long long wait_blocks,
				      unsigned long long wait_ns)
{
	unsigned long long t = shim_now_ns(), t0, t1;
	uint64_t p = (uint64_t)(buf + *pos), i = 0; /* chase.cu: the chain holds addresses */

	while (read_flag(&ctl->running) < wait_blocks) {
		if (shim_now_ns() - t > wait_ns) {
			ctl->chase_gave_up = 1;
			break;
		}
	}
	t0 = shim_now_ns();
	for (; i + 8 <= steps; i += 8) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			p = *(const uint64_t *)p;
	}
	for (; i < steps; i++)
		p = *(const uint64_t *)p;
	t1 = shim_now_ns();
	*pos = (p - (uint64_t)buf) / 8;
	ctl->chase_t0 = t0;
	ctl->chase_t1 = t1;
	__threadfence();
	*(volatile unsigned long long *)&ctl->stop = 1;
}

extern "C" int gpu_launch_chase_loaded(const uint64_t *buf, uint64_t steps, uint64_t *pos,
				       struct gpu_load_ctl *ctl, unsigned wait_blocks,
				       uint64_t wait_ns, size_t smem_bytes, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	int rc = shim_allow_smem((const void *)k_chase_loaded, smem_bytes);

	if (rc)
		return rc;
	k_chase_loaded<<<1, 1, smem_bytes, s>>>(buf, steps, pos, ctl, wait_blocks, wait_ns);
	return SHIM_LAUNCH_ERROR();
}
