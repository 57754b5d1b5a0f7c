/* gpu_chain.c - pointer-chase cycles in device memory (gpu_kit.h), shared by
 * the local, peer and host chases (gpu.latency, gpu.p2p, gpu.host_latency,
 * gpu.loaded): the order comes from mem_chase_order, the one source of chase
 * orders for CPU and GPU, and a kernel (the backend's launch_chain_build)
 * links the nodes, or the host where the chain lives in host memory. */
#include <stdlib.h>

#include "base/util.h"
#include "kit/gpu_kit.h"
#include "machine/mem.h"

int gpu_chain_make(uint64_t *buf, uint64_t n, uint64_t node_bytes, enum mem_order order,
		   uint64_t group_nodes, uint64_t seed)
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
	mem_chase_order(wide, n, order, group_nodes < n ? group_nodes : n, seed);
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

void gpu_chain_make_host(uint64_t *host, uint64_t dev, uint64_t n, uint64_t node_bytes,
			 enum mem_order order, uint64_t group_nodes, uint64_t seed)
{
	uint64_t *seq = xmalloc(n * sizeof(*seq)), words = node_bytes / 8;

	mem_chase_order(seq, n, order, group_nodes < n ? group_nodes : n, seed);
	for (uint64_t i = 0; i < n; i++)
		host[seq[i] * words] = dev + seq[i + 1 < n ? i + 1 : 0] * node_bytes;
	free(seq);
}
