/* chase.cu - pointer-chain build and the one-thread dependent chase (kernels
 * and extern "C" launchers). */
#include <cuda_runtime.h>

#include "gpu/kernels/launch.h"

static __global__ void k_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n,
				     uint64_t stride_words)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;

	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		uint64_t next = seq[i + 1 < n ? i + 1 : 0];

		buf[(uint64_t)seq[i] * stride_words] = next * stride_words;
	}
}

extern "C" int gpu_launch_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n,
				      uint64_t stride_words, cudaStream_t s)
{
	uint64_t b = (n + 255) / 256;

	k_chain_build<<<b > 4096 ? 4096 : (unsigned)(b ? b : 1), 256, 0, s>>>(buf, seq, n,
									   stride_words);
	return (int)cudaGetLastError();
}

/* Plain loads (ld.global, cached in L1 as Hopper does by default), so the
 * L1, L2 and HBM plateaus all show. The loop is unrolled by 4 only to cut
 * branch overhead; each load still waits for the one before. */
static __global__ void k_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos)
{
	uint64_t p = *pos;
	uint64_t i = 0;

	for (; i + 4 <= steps; i += 4) {
		p = buf[p];
		p = buf[p];
		p = buf[p];
		p = buf[p];
	}
	for (; i < steps; i++)
		p = buf[p];
	*pos = p;
}

extern "C" int gpu_launch_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos,
				cudaStream_t s)
{
	k_chase<<<1, 1, 0, s>>>(buf, steps, pos);
	return (int)cudaGetLastError();
}
