/* gpu_chain.c - pointer-chase cycles in device memory (gpu_kit.h), shared by
 * the local and the peer chase (gpu.latency, gpu.p2p): the order comes from
 * mem_visit_order, the one source of chase orders for CPU and GPU, and a
 * kernel (the backend's launch_chain_build) links the nodes. */
#include <stdlib.h>

#include "base/util.h"
#include "kit/gpu_kit.h"
#include "machine/mem.h"

int gpu_chain_make(uint64_t *buf, uint64_t n, uint64_t node_bytes, uint64_t group_nodes,
		   uint64_t seed)
{
	const struct gpu_backend *gpu = gpu_backend();
	uint64_t *wide;
	uint32_t *seq, *dseq = NULL;
	int rc = -1;

	if (!gpu)
		return gpu_error("gpu_chain_make: %s", gpu_unsupported_reason());
	/* 32-bit node numbers travel to the device: the 64-bit order narrowed in
	 * place, safe because entry i is written at byte 4i after it was read at 8i */
	wide = xmalloc(n * sizeof(*wide));
	seq = (uint32_t *)(void *)wide;
	mem_visit_order(wide, n, group_nodes < n ? group_nodes : n, seed);
	for (uint64_t i = 0; i < n; i++)
		seq[i] = (uint32_t)wide[i];
	if (gpu->malloc((void **)&dseq, n * sizeof(*seq)) == 0 &&
	    gpu->memcpy(dseq, seq, n * sizeof(*seq)) == 0 &&
	    GPU_CHECK(gpu->launch_chain_build(buf, dseq, n, node_bytes / 8, NULL)) == 0 &&
	    gpu->device_sync() == 0)
		rc = 0;
	gpu->free(dseq);
	free(wide);
	return rc;
}
