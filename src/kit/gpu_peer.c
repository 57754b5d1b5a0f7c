/* gpu_peer.c - the devices of a peer-to-peer measurement (gpu_peer.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "base/util.h"
#include "kit/gpu_kit.h"
#include "kit/gpu_peer.h"

/* The chase chains in d's memory (d current): random, page-local, and the
 * fixed stride. */
static int build_chains(struct gpu_peer_dev *d, const struct gpu_peer_layout *l)
{
	static const enum mem_order orders[] = {MEM_ORDER_RANDOM, MEM_ORDER_LOCAL,
						MEM_ORDER_STRIDE};
	const struct gpu_backend *gpu = gpu_backend();

	for (int c = 0; c < 3; c++) {
		uint64_t n = c == 2 ? l->stride_nodes : l->nodes;

		if ((c == 1 && !l->local) || n == 0)
			continue;
		if (gpu->malloc((void **)&d->chain[c], n * GPU_PEER_NODE_BYTES) ||
		    gpu_chain_make(d->chain[c], n, GPU_PEER_NODE_BYTES, orders[c],
				   GPU_PEER_GROUP_BYTES / GPU_PEER_NODE_BYTES,
				   0x1a7e + 2 * (uint64_t)d->id + (uint64_t)c))
			return -1;
	}
	return 0;
}

int gpu_peer_setup(struct gpu_peer_dev *d, const struct gpu_peer_layout *l,
		   struct probe_result *res)
{
	const struct gpu_backend *gpu = gpu_backend();
	uint64_t free_b = 0, total_b = 0, need, margin;
	int per_sm;

	if (gpu->set_device(d->id) || gpu->get_props(d->id, &d->props))
		return -1;
	/* get_props tolerates attributes an older driver lacks; their errors stay
	 * latched and the first launcher's check would report them as its own. */
	gpu->clear_error();
	if (gpu->mem_info(&free_b, &total_b))
		return -1;
	need = 2 * l->size + (l->nodes ? 2 * l->nodes * GPU_PEER_NODE_BYTES + l->nodes * 4 : 0) +
	       l->stride_nodes * (GPU_PEER_NODE_BYTES + 4);
	margin = total_b / 20 > (1ull << 30) ? total_b / 20 : 1ull << 30;
	if (need + margin > free_b) {
		probe_result_set_status(res, STATUS_SKIP,
					"GPU %d: %" PRIu64 " MiB of buffers do not fit in %" PRIu64
					" MiB free (margin %" PRIu64 " MiB)",
					d->id, need >> 20, free_b >> 20, margin >> 20);
		return -2;
	}
	/* Every SM at full occupancy: the outstanding requests an SM copy needs. */
	per_sm = d->props.max_threads_per_sm / 512;
	if (l->sm_blocks && (int)l->sm_blocks < per_sm)
		per_sm = (int)l->sm_blocks;
	d->grid = (struct gpu_grid){(unsigned)(d->props.sm_count * (per_sm > 0 ? per_sm : 1)), 512,
				    (unsigned)l->sm_unroll};
	if (gpu->malloc(&d->src, l->size) || gpu->malloc(&d->dst, l->size) ||
	    gpu->pattern_fill(d->src, l->size, GPU_PEER_SEED(d->id), NULL) ||
	    !(d->pos = gpu->scratch()))
		return -1;
	json_array_append_new(
		json_object_get(gpu_extra(res), "devices"),
		json_pack("{s:i,s:s,s:s,s:i,s:i,s:i,s:i}", "device", d->id, "name", d->props.name,
			  "pci_bus_id", d->props.pci_bus_id, "sm_count", d->props.sm_count,
			  "sm_copy_blocks", (int)d->grid.blocks, "sm_copy_threads",
			  (int)d->grid.threads, "sm_copy_unroll", (int)d->grid.unroll));
	return l->nodes || l->stride_nodes ? build_chains(d, l) : 0;
}

void gpu_peer_free(struct gpu_peer_dev *d)
{
	const struct gpu_backend *gpu = gpu_backend();

	gpu->set_device(d->id);
	gpu->free(d->src);
	gpu->free(d->dst);
	for (int c = 0; c < 3; c++)
		gpu->free(d->chain[c]);
}

int gpu_peer_poison(struct gpu_peer_dev *d, void *p, size_t bytes)
{
	const struct gpu_backend *gpu = gpu_backend();

	return gpu->set_device(d->id) || gpu->memset_async(p, 0, bytes, NULL) || gpu->device_sync();
}

int gpu_peer_verify(struct gpu_peer_dev *from, struct gpu_peer_dev *to, size_t bytes)
{
	const struct gpu_backend *gpu = gpu_backend();
	uint64_t bad = 0;

	if (gpu->set_device(to->id) ||
	    gpu->pattern_verify(to->dst, bytes, GPU_PEER_SEED(from->id), &bad))
		return -1;
	if (bad)
		return gpu_error("copy %s->%s: %" PRIu64 " of %zu words differ from the source",
				 from->name, to->name, bad, bytes / 8);
	return 0;
}

/* "0->1=1,1->0=1" (docs/design.md §8.17): a leg where the driver answers
 * otherwise (stock vs patched driver, IOMMU or ACS changed) is a second
 * change that compare names. */
void gpu_peer_access_knob(struct probe_result *res, const struct gpu_peer_dev *a,
			  const struct gpu_peer_dev *b, int can)
{
	json_t *knobs = json_object_get(gpu_extra(res), "knobs");
	const char *was;
	char *v;

	if (!knobs)
		json_object_set_new(gpu_extra(res), "knobs", knobs = json_object());
	was = json_string_value(json_object_get(knobs, "gpu.peer_access"));
	v = xasprintf("%s%s%s->%s=%d", was ? was : "", was ? "," : "", a->name, b->name, can);
	json_object_set_new(knobs, "gpu.peer_access", json_string(v));
	free(v);
}
