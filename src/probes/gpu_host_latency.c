/* gpu_host_latency.c - gpu.host_latency
 * measures: the latency one GPU thread sees chasing pointers in host memory, ns per load:
 *   pinned (cudaHostAlloc, mapped), registered (4 KiB-page mmap pinned by cudaHostRegister),
 *   managed after migration (cudaMallocManaged written by the CPU, moved by the chase's own
 *   first pass and a prefetch), and device memory beside them as the reference; per order.
 * method: nodes 128 B apart linked by the host (gpu_chain_make_host) or, in device memory, by
 *   the device; order=stride walks them in address order (nvbandwidth's host_device_latency_sm
 *   chain: 2 MiB in 128 B steps), order=random in one random cycle; one thread of one block
 *   follows `steps` loads per launch, CUDA events over gated launches (gpu_measure); the
 *   managed chain's first pass, faults and migration included, is recorded on its own.
 * why this way: a kernel that reads host memory pays a PCIe or C2C round trip per dependent
 *   load, a cost no copy bandwidth shows; pinned and registered should read the same (both are
 *   locked host pages), and managed after migration should read like device memory, so each
 *   is a check on the next. The stride order reads lower than random where the path has
 *   translation or row locality to give (docs/design.md §8.12).
 * cross-check: nvbandwidth host_device_latency_sm (1179 ns on the two-H200 host) against
 *   memory=pinned order=stride size=2M; memory=device against gpu.latency at the same size.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "machine/mem.h"
#include "results/results.h"

struct ghl_opts {
	uint64_t size_bytes, steps;
	uint32_t memory;
	uint32_t orders;
};

static const struct opt ghl_opt_rows[] = {
	OPT_SIZE("size", struct ghl_opts, size_bytes, "2M",
		 "bytes of each chain (nvbandwidth's latency buffer is 2M)"),
	OPT_UINT("steps", struct ghl_opts, steps, "4096", "dependent loads per launch"),
	OPT_LIST("memory", struct ghl_opts, memory, "pinned|registered|managed|device", "all",
		 "pinned: pinned host memory; registered: mmap, then pinned; managed: "
		 "managed memory after migration to the GPU; device: device memory (reference)"),
	OPT_LIST("orders", struct ghl_opts, orders, "stride|random", "all",
		 "stride: node i then i + 1 (nvbandwidth's chain); random: one random cycle"),
	OPT_END,
};

enum { M_PINNED, M_REGISTERED, M_MANAGED, M_DEVICE, M_N };
static const char *const mem_names[M_N] = {"pinned", "registered", "managed", "device"};
static const enum mem_order orders[2] = {MEM_ORDER_STRIDE, MEM_ORDER_RANDOM};
static const char *const order_names[2] = {"stride", "random"};

#define NODE_BYTES 128ull

struct ghl {
	uint64_t *dev; /* the chain as the device addresses it */
	uint64_t steps, nodes;
	unsigned long long *pos;
	int prefetch; /* cudaMemPrefetchAsync works here (concurrent managed access) */
};

static int enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct ghl *g = arg;

	for (uint64_t i = 0; i < iters; i++)
		if (GPU_CHECK(gpu->launch_chase(g->dev, g->steps, (uint64_t *)g->pos, 1, s)))
			return -1;
	return 0;
}

/* The chase must end on a node: a wrong chain or a stale read shows here. */
static int check(void *arg)
{
	struct ghl *g = arg;
	unsigned long long pos = 0;

	if (gpu_backend()->scratch_read(&pos))
		return -1;
	if (pos % (NODE_BYTES / 8) || pos / (NODE_BYTES / 8) >= g->nodes)
		return gpu_error("chase ended at word %llu, not a node", pos);
	return 0;
}

/* Memory of kind m holding a chain in order o: *mem is what free_chain()
 * releases (map the mapping of a registered chain), g->dev what the device
 * reads. 0 or -1 (error recorded). */
static int make_chain(int m, int o, uint64_t bytes, struct mem_buf *map, void **mem, struct ghl *g)
{
	const struct gpu_backend *gpu = gpu_backend();
	uint64_t seed = 0x686c6174ull + (uint64_t)(m * 2 + o);
	void *p = NULL;

	*mem = NULL;
	switch (m) {
	case M_PINNED:
		if (gpu->malloc_host(&p, bytes, 1))
			return -1;
		*mem = p;
		if (gpu->host_device_ptr(p, (void **)&g->dev))
			return -1;
		gpu_chain_make_host(p, (uint64_t)(uintptr_t)g->dev, g->nodes, NODE_BYTES, orders[o],
				    g->nodes, seed);
		return 0;
	case M_REGISTERED:
		/* Registered first: the chain holds the device's addresses of it. */
		if (mem_map(map, bytes, MEM_PAGES_4K, 0))
			return gpu_error("cannot map %" PRIu64 " bytes", bytes);
		if (gpu->host_register(map->addr, bytes))
			return -1;
		*mem = map->addr;
		if (gpu->host_device_ptr(map->addr, (void **)&g->dev))
			return -1;
		gpu_chain_make_host(map->addr, (uint64_t)(uintptr_t)g->dev, g->nodes, NODE_BYTES,
				    orders[o], g->nodes, seed);
		return 0;
	case M_MANAGED:
		if (gpu->malloc_managed(&p, bytes))
			return -1;
		*mem = p;
		g->dev = p;
		gpu_chain_make_host(p, (uint64_t)(uintptr_t)p, g->nodes, NODE_BYTES, orders[o],
				    g->nodes, seed);
		return 0;
	default:
		if (gpu->malloc(&p, bytes))
			return -1;
		*mem = p;
		g->dev = p;
		return gpu_chain_make(p, g->nodes, NODE_BYTES, orders[o], g->nodes, seed);
	}
}

static void free_chain(int m, struct mem_buf *map, void *mem)
{
	const struct gpu_backend *gpu = gpu_backend();

	if (!mem)
		return;
	if (m == M_PINNED)
		gpu->free_host(mem);
	else if (m == M_REGISTERED) {
		gpu->host_unregister(mem);
		mem_unmap(map);
	} else
		gpu->free(mem);
}

/* Managed: one pass over the whole chain, outside the timing loop, moves
 * its pages (GPU faults) and is timed on its own; then a prefetch, where the
 * device has concurrent managed access (elsewhere pages move at launch),
 * makes sure every page is on the GPU whatever the migration policy. */
static int migrate(struct probe_ctx *ctx, struct ghl *g, void *mem, uint64_t bytes,
		   const char *oname, const char *size)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gpu_event *e0 = NULL, *e1 = NULL;
	double ns = 0, t0;
	int rc = -1;

	if (gpu->event_create(&e0) || gpu->event_create(&e1))
		goto out;
	t0 = metric_clock(); /* the pass's window: its faults and migration (§4.20) */
	if (gpu->event_record(e0, NULL) ||
	    GPU_CHECK(gpu->launch_chase(g->dev, g->nodes, (uint64_t *)g->pos, 1, NULL)) ||
	    gpu->event_record(e1, NULL) || gpu->event_elapsed_ns(e0, e1, &ns) ||
	    (g->prefetch && gpu->prefetch_async(mem, bytes, 1, NULL)) || gpu->device_sync())
		goto out;
	metric_add_sample_at(
		probe_add_metric(ctx->res, "first_pass_latency", UNIT_NS, BETTER_LOWER,
				 "ns per load of the first GPU pass over a managed chain "
				 "the CPU wrote: page faults and migration included; one "
				 "pass, one sample",
				 "memory", "managed", "order", oname, "size", size, NULL),
		ns / (double)g->nodes, t0, metric_clock());
	rc = 0;
out:
	gpu->event_destroy(e0);
	gpu->event_destroy(e1);
	return rc;
}

static int one_variant(struct probe_ctx *ctx, const struct ghl_opts *o, struct ghl *g, int m,
		       int ord, const char *size)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gpu_work w = {.enqueue = enqueue,
			     .check = check,
			     .arg = g,
			     .n_streams = 1,
			     .gated = 1,
			     .max_batch = 16};
	struct gpu_samples s;
	struct mem_buf map = {0};
	struct metric *mt;
	void *mem = NULL;
	char desc[320];
	int rc = -1;

	progress("gpu.host_latency: memory=%s order=%s", mem_names[m], order_names[ord]);
	memset(&s, 0, sizeof(s));
	if (make_chain(m, ord, o->size_bytes, &map, &mem, g) ||
	    gpu->memset_async(g->pos, 0, sizeof(*g->pos), NULL) || gpu->device_sync())
		goto out;
	if (m == M_MANAGED && migrate(ctx, g, mem, o->size_bytes, order_names[ord], size))
		goto out;
	if (gpu_measure(ctx, &w, &s))
		goto out;
	snprintf(desc, sizeof(desc),
		 "dependent 8 B loads by one GPU thread, nodes 128 B apart in the "
		 "memory named (stride: in address order; random: one random cycle); "
		 "ns per load from %s over gated launches of `steps` loads",
		 gpu_backend()->names.events);
	mt = probe_add_metric(ctx->res, "latency", UNIT_NS, BETTER_LOWER, desc, "memory",
			      mem_names[m], "order", order_names[ord], "size", size, NULL);
	gpu_samples_record(&s, mt, (double)g->steps, MEASURE_TIME_PER, 1, -1);
	rc = 0;
out:
	gpu_samples_free(&s);
	free_chain(m, &map, mem);
	return rc;
}

static int ghl_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct ghl_opts *o = opts;
	struct ghl g = {.steps = o->steps, .nodes = o->size_bytes / NODE_BYTES};
	struct gpu_props props;
	struct gpu_sampler *smp;
	char size[32], buf[64];
	int rc = PROBE_OK;

	if (g.nodes < 4 || g.nodes > (1ull << 31) || o->steps == 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "size 512 .. 256G, steps > 0");
		return PROBE_FAIL;
	}
	if (mem_check_size(o->size_bytes, ctx->force, "gpu.host_latency chain")) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "size above 80%% of MemAvailable");
		return PROBE_FAIL;
	}
	if (gpu->get_props(0, &props) || !(g.pos = gpu->scratch()))
		return gpu_fail(ctx->res, "gpu.host_latency setup");
	gpu->clear_error(); /* attributes an older driver lacks */
	opt_format_size(o->size_bytes, size, sizeof(size));
	probe_result_add_param(ctx->res, "gpu", props.name);
	g.prefetch = props.concurrent_managed > 0;
	snprintf(buf, sizeof(buf), "%d", props.concurrent_managed);
	probe_result_add_param(ctx->res, "concurrent_managed_access", buf);
	probe_result_add_param(ctx->res, "addressing", gpu_addressing_mode(&props));
	probe_result_add_param(ctx->res, "node_stride", "128 B (one node per GPU cache line)");
	smp = gpu->sampler_start(100);
	for (int m = 0; m < M_N && rc == PROBE_OK; m++)
		for (int ord = 0; ord < 2 && rc == PROBE_OK; ord++) {
			if (!(o->memory & (1u << m)) || !(o->orders & (1u << ord)))
				continue;
			if (one_variant(ctx, o, &g, m, ord, size)) {
				snprintf(buf, sizeof(buf), "memory=%s order=%s", mem_names[m],
					 order_names[ord]);
				rc = gpu_fail(ctx->res, buf);
			}
		}
	gpu->sampler_stop(smp, ctx->res, "probe");
	return rc;
}

const struct probe probe_gpu_host_latency = {
	.name = "gpu.host_latency",
	.summary = "one GPU thread's pointer chase in pinned, registered and managed (after "
		   "migration) host memory beside device memory; stride and random order",
	.flags = PROBE_GPU | PROBE_QUICK | PROBE_UM,
	.opts = ghl_opt_rows,
	.opts_size = sizeof(struct ghl_opts),
	.quick_opts = "steps=2048",
	.timeout_s = 300,
	.typical_s = {3.0, 4.4}, /* docs/design.md §2.8 */
	.run = ghl_run,
};
