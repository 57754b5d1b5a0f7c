/* stream.cu - device-memory read, write and copy kernels (16-byte accesses,
 * U independent accesses in flight per thread, every warp instruction over
 * 512 contiguous bytes) and their extern "C" launchers. Two layouts: grid-
 * stride (a resident grid walks the buffer) and chunked (one block per U x
 * threads accesses, as many blocks as the buffer needs, so the blocks in
 * flight cover one moving window of the buffer: gpu-benches' layout, which
 * writes 5-6% faster on an H200; docs/design.md §8.18). And L2-resident
 * reads (gpu.l2). */
#include "kernel_shim.h"

#include "gpu/kernels/launch.h"

template <bool CS> static __device__ __forceinline__ uint4 load16(const uint4 *p)
{
	if (CS)
		return shim_load_cs(p);
	return *p;
}

template <bool CS> static __device__ __forceinline__ void store16(uint4 *p, uint4 v)
{
	if (CS)
		shim_store_cs(p, v);
	else
		*p = v;
}

/* The result must be consumed or the loads go: one XOR word per warp. */
static __device__ __forceinline__ void reduce_out(uint4 a, unsigned long long *out)
{
	unsigned long long r = ((unsigned long long)(a.x ^ a.z) << 32) | (a.y ^ a.w);

	for (int d = 16; d > 0; d /= 2)
		r ^= SHIM_SHFL_XOR(r, d);
	if ((threadIdx.x & 31) == 0)
		atomicXor(out, r);
}

/* One block's chunk: U accesses per thread, blockDim.x apart. */
#define CHUNK_BASE() ((size_t)blockIdx.x * blockDim.x * U + threadIdx.x)

template <int U, bool CS>
static __global__ void k_read_chunk(const uint4 *__restrict__ p, size_t n,
				    unsigned long long *out)
{
	size_t b = CHUNK_BASE();
	uint4 a = make_uint4(0, 0, 0, 0);
	uint4 v[U];

#pragma unroll
	for (int k = 0; k < U; k++)
		v[k] = b + k * blockDim.x < n ? load16<CS>(p + b + k * blockDim.x)
					      : make_uint4(0, 0, 0, 0);
#pragma unroll
	for (int k = 0; k < U; k++) {
		a.x ^= v[k].x;
		a.y ^= v[k].y;
		a.z ^= v[k].z;
		a.w ^= v[k].w;
	}
	reduce_out(a, out);
}

template <int U, bool CS>
static __global__ void k_write_chunk(uint4 *__restrict__ p, size_t n, unsigned seed)
{
	size_t b = CHUNK_BASE();

#pragma unroll
	for (int k = 0; k < U; k++) {
		size_t j = b + k * blockDim.x;

		if (j < n)
			store16<CS>(p + j, make_uint4((unsigned)j, seed, (unsigned)(j >> 32), ~seed));
	}
}

template <int U>
static __global__ void k_copy_chunk(uint4 *__restrict__ d, const uint4 *__restrict__ s, size_t n)
{
	size_t b = CHUNK_BASE();
	uint4 v[U];

#pragma unroll
	for (int k = 0; k < U; k++)
		if (b + k * blockDim.x < n)
			v[k] = s[b + k * blockDim.x];
#pragma unroll
	for (int k = 0; k < U; k++)
		if (b + k * blockDim.x < n)
			d[b + k * blockDim.x] = v[k];
}

/* L2-resident reads (gpu-benches' gpu-l2-cache layout): block b reads chunk
 * b % regions of a data set that fits the L2, U 16-byte loads in flight per
 * thread, through ld.global.cg (L2, not L1), so every byte comes from the
 * L2 however many blocks of an SM share a chunk. XOR-reduced as k_read, so
 * an odd number of reads of every chunk gives k_read's value of the set. */
template <int U>
static __global__ void k_read_l2(const uint4 *__restrict__ p, size_t chunk, unsigned regions,
				 unsigned long long *out)
{
	const uint4 *q = p + (size_t)(blockIdx.x % regions) * chunk;
	uint4 a = make_uint4(0, 0, 0, 0);
	size_t i = threadIdx.x;

	for (; i + (U - 1) * blockDim.x < chunk; i += (size_t)U * blockDim.x) {
		uint4 v[U];

#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = shim_load_cg(q + i + k * blockDim.x);
#pragma unroll
		for (int k = 0; k < U; k++) {
			a.x ^= v[k].x;
			a.y ^= v[k].y;
			a.z ^= v[k].z;
			a.w ^= v[k].w;
		}
	}
	for (; i < chunk; i += blockDim.x) {
		uint4 v = shim_load_cg(q + i);

		a.x ^= v.x;
		a.y ^= v.y;
		a.z ^= v.z;
		a.w ^= v.w;
	}
	reduce_out(a, out);
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

/* The chunked layout's grid: one block per U x threads accesses. */
static unsigned chunk_blocks(size_t n, const struct gpu_grid *g)
{
	size_t per = (size_t)unroll_of(g->unroll) * g->threads;

	return (unsigned)((n + per - 1) / per);
}

#define DISPATCH_U(u, launch)                                                                      \
	switch (unroll_of(u)) {                                                                    \
	case 8: launch(8); break;                                                                  \
	case 4: launch(4); break;                                                                  \
	case 2: launch(2); break;                                                                  \
	default: launch(1); break;                                                                 \
	}

template <int U>
static void read_u(const uint4 *q, size_t n, const struct gpu_grid *g, int streaming,
		   unsigned long long *out, shim_stream_t s)
{
	unsigned b = g->blocks ? g->blocks : chunk_blocks(n, g);

	if (!g->blocks && streaming)
		k_read_chunk<U, true><<<b, g->threads, 0, s>>>(q, n, out);
	else if (!g->blocks)
		k_read_chunk<U, false><<<b, g->threads, 0, s>>>(q, n, out);
	else if (streaming)
		k_read<U, true><<<b, g->threads, 0, s>>>(q, n, out);
	else
		k_read<U, false><<<b, g->threads, 0, s>>>(q, n, out);
}

template <int U>
static void write_u(uint4 *q, size_t n, const struct gpu_grid *g, int streaming, unsigned sd,
		    shim_stream_t s)
{
	unsigned b = g->blocks ? g->blocks : chunk_blocks(n, g);

	if (!g->blocks && streaming)
		k_write_chunk<U, true><<<b, g->threads, 0, s>>>(q, n, sd);
	else if (!g->blocks)
		k_write_chunk<U, false><<<b, g->threads, 0, s>>>(q, n, sd);
	else if (streaming)
		k_write<U, true><<<b, g->threads, 0, s>>>(q, n, sd);
	else
		k_write<U, false><<<b, g->threads, 0, s>>>(q, n, sd);
}

template <int U>
static void copy_u(uint4 *d, const uint4 *q, size_t n, const struct gpu_grid *g, shim_stream_t s)
{
	if (!g->blocks)
		k_copy_chunk<U><<<chunk_blocks(n, g), g->threads, 0, s>>>(d, q, n);
	else
		k_copy<U><<<g->blocks, g->threads, 0, s>>>(d, q, n);
}

extern "C" int gpu_launch_read(const void *p, size_t bytes, const struct gpu_grid *g,
			       int streaming, unsigned long long *out, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
#define L(U) read_u<U>((const uint4 *)p, bytes / 16, g, streaming, out, s)
	DISPATCH_U(g->unroll, L)
#undef L
	return SHIM_LAUNCH_ERROR();
}

extern "C" int gpu_launch_write(void *p, size_t bytes, const struct gpu_grid *g, int streaming,
				uint64_t seed, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
#define L(U) write_u<U>((uint4 *)p, bytes / 16, g, streaming, (unsigned)seed, s)
	DISPATCH_U(g->unroll, L)
#undef L
	return SHIM_LAUNCH_ERROR();
}

extern "C" int gpu_launch_copy(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
			       struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
#define L(U) copy_u<U>((uint4 *)dst, (const uint4 *)src, bytes / 16, g, s)
	DISPATCH_U(g->unroll, L)
#undef L
	return SHIM_LAUNCH_ERROR();
}

extern "C" int gpu_launch_read_l2(const void *p, size_t chunk_bytes, unsigned regions,
				  const struct gpu_grid *g, unsigned long long *out, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	const uint4 *q = (const uint4 *)p;
	size_t chunk = chunk_bytes / 16;

#define L(U) k_read_l2<U><<<g->blocks, g->threads, 0, s>>>(q, chunk, regions ? regions : 1, out)
	DISPATCH_U(g->unroll, L)
#undef L
	return SHIM_LAUNCH_ERROR();
}
