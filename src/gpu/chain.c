/* chain.c - pointer-chase cycles in device memory, shared by the local and the
 * peer chase (gpu.latency, gpu.p2p): the order comes from mem_visit_order, the
 * one source of chase orders for CPU and GPU, and a kernel links the nodes. */
#include <stdlib.h>

#include "base/util.h"
#include "gpu/gpu.h"
#include "machine/mem.h"

int gpu_chain_make(uint64_t *buf, uint64_t n, uint64_t node_bytes, uint64_t group_nodes,
		   uint64_t seed)
{
	/* 32-bit node numbers travel to the device: the 64-bit order narrowed in
	 * place, safe because entry i is written at byte 4i after it was read at 8i */
	uint64_t *wide = xmalloc(n * sizeof(*wide));
	uint32_t *seq = (uint32_t *)(void *)wide, *dseq = NULL;
	int rc = -1;

	mem_visit_order(wide, n, group_nodes < n ? group_nodes : n, seed);
	for (uint64_t i = 0; i < n; i++)
		seq[i] = (uint32_t)wide[i];
	if (gpu_malloc((void **)&dseq, n * sizeof(*seq)) == 0 &&
	    gpu_memcpy(dseq, seq, n * sizeof(*seq)) == 0 &&
	    GPU_CHECK(gpu_launch_chain_build(buf, dseq, n, node_bytes / 8, NULL)) == 0 &&
	    gpu_device_sync() == 0)
		rc = 0;
	gpu_free(dseq);
	free(wide);
	return rc;
}
