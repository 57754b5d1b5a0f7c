/* stream.cu - device-memory read, write and copy kernels (16-byte accesses,
 * U independent accesses in flight per thread, grid-stride so every warp
 * instruction covers 512 contiguous bytes) and their extern "C" launchers. */
#include <cuda_runtime.h>

#include "gpu/kernels/launch.h"

template <bool CS> static __device__ __forceinline__ uint4 load16(const uint4 *p)
{
	if (CS)
		return __ldcs(p);
	return *p;
}

template <bool CS> static __device__ __forceinline__ void store16(uint4 *p, uint4 v)
{
	if (CS)
		__stcs(p, v);
	else
		*p = v;
}

/* The result must be consumed or the loads go: one XOR word per warp. */
static __device__ __forceinline__ void reduce_out(uint4 a, unsigned long long *out)
{
	unsigned long long r = ((unsigned long long)(a.x ^ a.z) << 32) | (a.y ^ a.w);

	for (int d = 16; d > 0; d /= 2)
		r ^= __shfl_xor_sync(0xffffffffu, r, d);
	if ((threadIdx.x & 31) == 0)
		atomicXor(out, r);
}

template <int U, bool CS>
static __global__ void k_read(const uint4 *__restrict__ p, size_t n, unsigned long long *out)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint4 a = make_uint4(0, 0, 0, 0);

	for (; i + (U - 1) * stride < n; i += U * stride) {
		uint4 v[U];

#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = load16<CS>(p + i + k * stride);
#pragma unroll
		for (int k = 0; k < U; k++) {
			a.x ^= v[k].x;
			a.y ^= v[k].y;
			a.z ^= v[k].z;
			a.w ^= v[k].w;
		}
	}
	for (; i < n; i += stride) {
		uint4 v = load16<CS>(p + i);

		a.x ^= v.x;
		a.y ^= v.y;
		a.z ^= v.z;
		a.w ^= v.w;
	}
	reduce_out(a, out);
}

template <int U, bool CS>
static __global__ void k_write(uint4 *__restrict__ p, size_t n, unsigned seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + (U - 1) * stride < n; i += U * stride) {
#pragma unroll
		for (int k = 0; k < U; k++) {
			size_t j = i + k * stride;

			store16<CS>(p + j, make_uint4((unsigned)j, seed, (unsigned)(j >> 32), ~seed));
		}
	}
	for (; i < n; i += stride)
		store16<CS>(p + i, make_uint4((unsigned)i, seed, (unsigned)(i >> 32), ~seed));
}

template <int U>
static __global__ void k_copy(uint4 *__restrict__ d, const uint4 *__restrict__ s, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + (U - 1) * stride < n; i += U * stride) {
		uint4 v[U];

#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = s[i + k * stride];
#pragma unroll
		for (int k = 0; k < U; k++)
			d[i + k * stride] = v[k];
	}
	for (; i < n; i += stride)
		d[i] = s[i];
}

static int unroll_of(unsigned u)
{
	return u >= 8 ? 8 : u >= 4 ? 4 : u >= 2 ? 2 : 1;
}

#define DISPATCH_U(u, launch)                                                                      \
	switch (unroll_of(u)) {                                                                    \
	case 8: launch(8); break;                                                                  \
	case 4: launch(4); break;                                                                  \
	case 2: launch(2); break;                                                                  \
	default: launch(1); break;                                                                 \
	}

extern "C" int gpu_launch_read(const void *p, size_t bytes, const struct gpu_grid *g,
			       int streaming, unsigned long long *out, cudaStream_t s)
{
	const uint4 *q = (const uint4 *)p;
	size_t n = bytes / 16;

#define L(U)                                                                                       \
	(streaming ? k_read<U, true><<<g->blocks, g->threads, 0, s>>>(q, n, out)                   \
		   : k_read<U, false><<<g->blocks, g->threads, 0, s>>>(q, n, out))
	DISPATCH_U(g->unroll, L)
#undef L
	return (int)cudaGetLastError();
}

extern "C" int gpu_launch_write(void *p, size_t bytes, const struct gpu_grid *g, int streaming,
				uint64_t seed, cudaStream_t s)
{
	uint4 *q = (uint4 *)p;
	size_t n = bytes / 16;
	unsigned sd = (unsigned)seed;

#define L(U)                                                                                       \
	(streaming ? k_write<U, true><<<g->blocks, g->threads, 0, s>>>(q, n, sd)                   \
		   : k_write<U, false><<<g->blocks, g->threads, 0, s>>>(q, n, sd))
	DISPATCH_U(g->unroll, L)
#undef L
	return (int)cudaGetLastError();
}

extern "C" int gpu_launch_copy(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
			       cudaStream_t s)
{
	size_t n = bytes / 16;

#define L(U) k_copy<U><<<g->blocks, g->threads, 0, s>>>((uint4 *)dst, (const uint4 *)src, n)
	DISPATCH_U(g->unroll, L)
#undef L
	return (int)cudaGetLastError();
}
