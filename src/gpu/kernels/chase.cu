/* chase.cu - pointer-chain build and the one-thread dependent chase (kernels
 * and extern "C" launchers). A chain holds absolute addresses, so a hop is
 * one load and nothing else (gpu-benches' gpu-latency does the same); the
 * launchers still speak word offsets from the chain's start (pos). */
#include "kernel_shim.h"

#include "gpu/kernels/launch.h"

static __global__ void k_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n,
				     uint64_t stride_words)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		uint64_t next = seq[i + 1 < n ? i + 1 : 0];

		buf[(uint64_t)seq[i] * stride_words] = (uint64_t)(buf + next * stride_words);
	}
}

extern "C" int gpu_launch_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n,
				      uint64_t stride_words, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	uint64_t b = (n + 255) / 256;

	k_chain_build<<<b > 4096 ? 4096 : (unsigned)(b ? b : 1), 256, 0, s>>>(buf, seq, n,
									   stride_words);
	return SHIM_LAUNCH_ERROR();
}

/* Plain loads (cached in L1 as Hopper does by default), so the L1, L2 and
 * HBM plateaus all show. A hop is the load alone: the node holds the next
 * node's address, so no index arithmetic sits between two loads (with word
 * offsets each hop paid a LEA pair, about 8 cycles, at every level). The
 * loop is unrolled by 8 only to cut branch overhead; each load still waits
 * for the one before. Every thread of the block walks the same chain (one:
 * the latency alone; gpu-benches' gpu-latency runs 64, two warps whose
 * loads queue behind each other at each hop). */
static __global__ void k_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos)
{
	uint64_t p = (uint64_t)(buf + *pos);
	uint64_t i = 0;

	for (; i + 8 <= steps; i += 8) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			p = *(const uint64_t *)p;
	}
	for (; i < steps; i++)
		p = *(const uint64_t *)p;
	if (threadIdx.x == 0)
		*pos = (p - (uint64_t)buf) / 8;
}

extern "C" int gpu_launch_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos,
				unsigned threads, struct gpu_stream *gs)
{
	shim_stream_t s = SHIM_STREAM(gs);
	k_chase<<<1, threads ? threads : 1, 0, s>>>(buf, steps, pos);
	return SHIM_LAUNCH_ERROR();
}
