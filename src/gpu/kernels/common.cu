/* common.cu - gate, pattern fill/verify, sleep and FMA kernels with their
 * extern "C" launchers (launch.h). Kernels and launchers only. */
#include "kernel_shim.h"

#include "gpu/kernels/launch.h"
#include "gpu/kernels/pattern.h"

static __global__ void k_gate(volatile int *flag, int *timed_out, uint64_t timeout_ns)
{
	uint64_t t0 = shim_now_ns();

	while (*flag == 0) {
		if (shim_now_ns() - t0 > timeout_ns) {
			*timed_out = 1;
			break;
		}
	}
}

extern "C" int gpu_launch_gate(volatile int *flag, int *timed_out, uint64_t timeout_ns,
			       struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	k_gate<<<1, 1, 0, s>>>(flag, timed_out, timeout_ns);
	return SHIM_LAUNCH_ERROR();
}

/* Grid-stride over 16-byte pairs of pattern words. */
static __global__ void k_fill(uint64_t *p, size_t words, uint64_t seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
		p[i] = gpu_pattern_word(seed, i);
}

static __global__ void k_verify(const uint64_t *p, size_t words, uint64_t seed,
				unsigned long long *bad)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	unsigned long long n = 0;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
		n += p[i] != gpu_pattern_word(seed, i);
	if (n)
		atomicAdd(bad, n);
}

/* Enough blocks to fill any current GPU; grid-stride covers the rest. */
static unsigned pattern_blocks(size_t words)
{
	size_t b = (words + 255) / 256;

	return b > 4096 ? 4096 : (b ? (unsigned)b : 1);
}

extern "C" int gpu_launch_fill(void *p, size_t bytes, uint64_t seed, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	size_t words = bytes / 8;

	k_fill<<<pattern_blocks(words), 256, 0, s>>>((uint64_t *)p, words, seed);
	return SHIM_LAUNCH_ERROR();
}

extern "C" int gpu_launch_verify(const void *p, size_t bytes, uint64_t seed,
				 unsigned long long *bad, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	size_t words = bytes / 8;

	k_verify<<<pattern_blocks(words), 256, 0, s>>>((const uint64_t *)p, words, seed, bad);
	return SHIM_LAUNCH_ERROR();
}

static __global__ void k_sleep(uint64_t ns)
{
	if (ns == 0)
		return;
	uint64_t t0 = shim_now_ns();

	while (shim_now_ns() - t0 < ns)
		;
}

extern "C" int gpu_launch_sleep(uint64_t ns, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	k_sleep<<<1, 1, 0, s>>>(ns);
	return SHIM_LAUNCH_ERROR();
}

/* Eight independent chains so the FMA pipes, not their latency, set the pace. */
static __global__ void k_fma(float *out, unsigned iters)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	float a = 1.0f + tid * 1e-7f, b = 0.999999f, c = 1e-6f;
	float x0 = a, x1 = a + 1, x2 = a + 2, x3 = a + 3, x4 = a + 4, x5 = a + 5, x6 = a + 6,
	      x7 = a + 7;

	for (unsigned i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			x0 = fmaf(x0, b, c);
			x1 = fmaf(x1, b, c);
			x2 = fmaf(x2, b, c);
			x3 = fmaf(x3, b, c);
			x4 = fmaf(x4, b, c);
			x5 = fmaf(x5, b, c);
			x6 = fmaf(x6, b, c);
			x7 = fmaf(x7, b, c);
		}
	}
	out[tid] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

extern "C" int gpu_launch_fma(float *out, unsigned blocks, unsigned threads, unsigned iters,
			      struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	k_fma<<<blocks, threads, 0, s>>>(out, iters);
	return SHIM_LAUNCH_ERROR();
}
