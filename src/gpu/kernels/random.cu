/* random.cu - independent random 32 B-sector reads and random block gathers
 * (kernels and extern "C" launchers). Addresses come from a hash of the
 * thread and access number, never from loaded data, so every access is
 * independent: the memory-level parallelism is threads x unroll. */
#include "kernel_shim.h"

#include "gpu/kernels/launch.h"

static __device__ __forceinline__ uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) without a division: the high half of h * n. */
static __device__ __forceinline__ uint64_t below(uint64_t h, uint64_t n)
{
	return __umul64hi(h, n);
}

static __device__ __forceinline__ void reduce_out(unsigned long long r, unsigned long long *out)
{
	for (int d = 16; d > 0; d /= 2)
		r ^= SHIM_SHFL_XOR(r, d);
	if ((threadIdx.x & 31) == 0)
		atomicXor(out, r);
}

/* Sector k lives in slot k (slot_sectors sectors wide) at a position fixed by
 * hashing k: the set of distinct sectors is the same for every launch. */
template <int U>
static __global__ void k_sectors(const char *__restrict__ base, uint64_t distinct,
				 uint64_t slot_sectors, uint64_t per_thread, uint64_t seed,
				 unsigned long long *out)
{
	uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t h = mix64(seed ^ (tid * 0x9e3779b97f4a7c15ull));
	unsigned long long acc = 0;

	for (uint64_t j = 0; j < per_thread; j += U) {
		uint4 v[U];

#pragma unroll
		for (int k = 0; k < U; k++) {
			uint64_t r = mix64(h + j + k);
			uint64_t sec = below(r, distinct);
			uint64_t pos = sec * slot_sectors + below(mix64(sec + 0x5ec7095eedull), slot_sectors);

			v[k] = shim_load_cg((const uint4 *)(base + pos * 32));
		}
#pragma unroll
		for (int k = 0; k < U; k++)
			acc ^= ((unsigned long long)v[k].x << 32) ^ v[k].w;
	}
	reduce_out(acc, out);
}

/* One warp per block-gather: lanes read consecutive 16 B, U loads in flight. */
template <int U>
static __global__ void k_blocks(const char *__restrict__ base, uint64_t n_blocks,
				uint64_t block_vecs, uint64_t per_warp, uint64_t seed,
				unsigned long long *out)
{
	uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
	unsigned lane = threadIdx.x & 31;
	uint64_t h = mix64(seed ^ (warp * 0x9e3779b97f4a7c15ull));
	unsigned long long acc = 0;

	for (uint64_t b = 0; b < per_warp; b++) {
		const uint4 *blk = (const uint4 *)(base) + below(mix64(h + b), n_blocks) * block_vecs;

		for (uint64_t i = lane; i < block_vecs; i += 32 * U) {
			uint4 v[U];

#pragma unroll
			for (int k = 0; k < U; k++)
				v[k] = i + 32 * k < block_vecs ? shim_load_cg(blk + i + 32 * k)
							       : make_uint4(0, 0, 0, 0);
#pragma unroll
			for (int k = 0; k < U; k++)
				acc ^= ((unsigned long long)v[k].x << 32) ^ v[k].w;
		}
	}
	reduce_out(acc, out);
}

static int unroll_of(unsigned u)
{
	return u >= 8 ? 8 : u >= 4 ? 4 : u >= 2 ? 2 : 1;
}

extern "C" int gpu_launch_sectors(const void *base, uint64_t span, uint64_t distinct,
				  uint64_t per_thread, uint64_t seed, const struct gpu_grid *g,
				  unsigned long long *out, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	const char *b = (const char *)base;
	uint64_t slot = distinct ? span / 32 / distinct : 0;

	if (slot == 0)
		return SHIM_EINVAL;
	switch (unroll_of(g->unroll)) {
	case 8: k_sectors<8><<<g->blocks, g->threads, 0, s>>>(b, distinct, slot, per_thread, seed, out); break;
	case 4: k_sectors<4><<<g->blocks, g->threads, 0, s>>>(b, distinct, slot, per_thread, seed, out); break;
	case 2: k_sectors<2><<<g->blocks, g->threads, 0, s>>>(b, distinct, slot, per_thread, seed, out); break;
	default: k_sectors<1><<<g->blocks, g->threads, 0, s>>>(b, distinct, slot, per_thread, seed, out); break;
	}
	return SHIM_LAUNCH_ERROR();
}

extern "C" int gpu_launch_blocks(const void *base, uint64_t span, uint64_t block_bytes,
				 uint64_t per_warp, uint64_t seed, const struct gpu_grid *g,
				 unsigned long long *out, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	const char *b = (const char *)base;
	uint64_t n = block_bytes ? span / block_bytes : 0, vecs = block_bytes / 16;

	if (n == 0 || block_bytes % 512)
		return SHIM_EINVAL;
	switch (unroll_of(g->unroll)) {
	case 8: k_blocks<8><<<g->blocks, g->threads, 0, s>>>(b, n, vecs, per_warp, seed, out); break;
	case 4: k_blocks<4><<<g->blocks, g->threads, 0, s>>>(b, n, vecs, per_warp, seed, out); break;
	case 2: k_blocks<2><<<g->blocks, g->threads, 0, s>>>(b, n, vecs, per_warp, seed, out); break;
	default: k_blocks<1><<<g->blocks, g->threads, 0, s>>>(b, n, vecs, per_warp, seed, out); break;
	}
	return SHIM_LAUNCH_ERROR();
}
