/* gpu_latency.c - gpu.latency
 * measures: dependent-load latency of one GPU thread, ns per load, from 16 KiB to 1 GiB of
 *   device memory (4 GiB in the full suite): the L1, L2 and HBM plateaus, and what translation
 *   adds at large sizes (random minus page-local on an H100: 2.6 ns at 512 MiB, 3.9 at 1 GiB,
 *   4.9 at 4 GiB, docs/results/suite-time-2026-12-07/machine-d/gpu.txt).
 * method: one thread chases a pointer cycle whose nodes sit 128 B apart (one per cache line),
 *   built on the host, linked on the device; three orders: fully random, page-local (random
 *   within 256 KiB groups, groups in random order) and stride (node i then i + 1: nvbandwidth's
 *   chain). Timing: CUDA events around gated launches of 65536 loads each (not clock64),
 *   samples >= min_sample_ns.
 * why this way: a dependent chase is latency and nothing else (docs/design.md §4.11); random order
 *   defeats prefetch and line reuse; random minus page-local is the translation cost (4.2).
 *   The stride order is what nvbandwidth's *_latency_sm tests walk (a 2 MiB buffer, 128 B
 *   steps): each load is a new line, but in address order, so one TLB entry serves thousands
 *   of loads, DRAM rows stay open and at 2 MiB the chain sits in L2; it reads lower than the
 *   random order at the same size by what those give (docs/design.md §8.12).
 * cross-check: the small-size plateau matches published Hopper L1 hit latency (~30-40 cycles),
 *   the large-size one HBM latency (~500-700 ns); gpu.random's rates are far above 1/latency.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "machine/mem.h"
#include "results/results.h"

struct glat_opts {
	uint64_t min_bytes, max_bytes, steps, factor, threads;
	uint32_t orders;
};

static const struct opt glat_opt_rows[] = {
	OPT_SIZE("min", struct glat_opts, min_bytes, "16K", "smallest chain"),
	OPT_SIZE("max", struct glat_opts, max_bytes, "1G",
		 "largest chain (capped by free device memory; the full suite goes to 4G)"),
	OPT_UINT("factor", struct glat_opts, factor, "2", "size step (x factor)"),
	OPT_UINT("steps", struct glat_opts, steps, "65536", "dependent loads per launch"),
	OPT_UINT("threads", struct glat_opts, threads, "1",
		 "threads of one block, each walking the same chain (1: the latency alone; "
		 "gpu-benches' gpu-latency runs 64); above 1 the metrics carry a threads label"),
	OPT_LIST("orders", struct glat_opts, orders, "random|local|stride", "all",
		 "random: one random cycle; local: random within 256 KiB groups; stride: node i "
		 "then i + 1 (nvbandwidth's chain)"),
	OPT_END,
};

#define NODE_BYTES  128ull
#define GROUP_BYTES (256ull << 10)

struct glat {
	uint64_t *buf;
	uint64_t steps;
	unsigned threads;
	unsigned long long *pos;
};

static int enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct glat *g = arg;

	for (uint64_t i = 0; i < iters; i++)
		if (GPU_CHECK(
			    gpu->launch_chase(g->buf, g->steps, (uint64_t *)g->pos, g->threads, s)))
			return -1;
	return 0;
}

static double median_latency(struct probe_result *res, const char *size, const char *order)
{
	struct metric *m = probe_find_metric(res, "latency", "size", size, "order", order, NULL);

	if (!m || !m->n_samples)
		return 0;
	metric_summarize(m);
	return m->summary.median;
}

/* Plateaus read off the curve: L1 at the smallest size, L2 at the largest
 * size <= L2/4, HBM at the largest size in [4 x L2, 1 GiB] (page-local where measured,
 * so translation stays out), translation = random - local at the largest. */
static void plateaus(struct probe_result *res, const uint64_t *sizes, size_t n, uint64_t l2,
		     int have_local)
{
	json_t *o = json_object();
	char a[32];
	double v;
	size_t l2i = 0, hbmi = 0;

	for (size_t i = 0; i < n; i++) {
		if (sizes[i] <= l2 / 4)
			l2i = i;
		if (sizes[i] <= (1ull << 30) && sizes[i] >= 4 * l2)
			hbmi = i;
	}
	opt_format_size(sizes[0], a, sizeof(a));
	if ((v = median_latency(res, a, "random")) > 0)
		json_object_set_new(o, "l1_ns", json_pack("{s:f,s:s}", "ns", v, "size", a));
	opt_format_size(sizes[l2i], a, sizeof(a));
	if (l2i && (v = median_latency(res, a, "random")) > 0)
		json_object_set_new(o, "l2_ns", json_pack("{s:f,s:s}", "ns", v, "size", a));
	opt_format_size(sizes[hbmi], a, sizeof(a));
	if (hbmi && (v = median_latency(res, a, have_local ? "local" : "random")) > 0)
		json_object_set_new(o, "hbm_ns",
				    json_pack("{s:f,s:s,s:s}", "ns", v, "size", a, "order",
					      have_local ? "local" : "random"));
	opt_format_size(sizes[n - 1], a, sizeof(a));
	if (have_local && (v = median_latency(res, a, "random")) > 0) {
		double l = median_latency(res, a, "local");

		if (l > 0)
			json_object_set_new(o, "translation_ns",
					    json_pack("{s:f,s:s}", "ns", v - l, "size", a));
	}
	/* nvbandwidth's device latency chain: 2 MiB in 128 B steps. */
	if ((v = median_latency(res, "2M", "stride")) > 0)
		json_object_set_new(o, "stride_2m_ns",
				    json_pack("{s:f,s:s}", "ns", v, "size", "2M"));
	json_object_set_new(gpu_extra(res), "plateaus", o);
}

static int glat_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct glat_opts *o = opts;
	struct gpu_props props;
	struct glat g = {.steps = o->steps, .threads = (unsigned)o->threads};
	struct gpu_work w = {.enqueue = enqueue, .arg = &g, .n_streams = 1, .gated = 1};
	uint64_t free_b, total_b, margin, max = o->max_bytes, sizes[64];
	size_t n = 0;
	struct gpu_sampler *smp;
	int rc = PROBE_OK, have_local = 0;
	char buf[64], desc[512];

	if (o->factor < 2 || o->steps == 0 || o->min_bytes < 4 * NODE_BYTES) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"factor must be >= 2, steps > 0, min >= 512 bytes");
		return PROBE_FAIL;
	}
	if (gpu->get_props(0, &props) || gpu->mem_info(&free_b, &total_b))
		return gpu_fail(ctx->res, "gpu.latency setup");
	/* The chain, plus its visit order (4 B per node) on the device. */
	margin = total_b / 20 > (4ull << 30) ? total_b / 20 : 4ull << 30;
	while (max > o->min_bytes && max + max / 32 + margin > free_b)
		max /= 2;
	if (max > (NODE_BYTES << 31)) /* node numbers are 32-bit */
		max = NODE_BYTES << 31;
	for (uint64_t s = o->min_bytes; s <= max && n < 64; s *= o->factor)
		sizes[n++] = s;
	if (max < o->max_bytes)
		probe_result_add_param(ctx->res, "max_capped", "by free device memory");
	opt_format_size(sizes[n - 1], buf, sizeof(buf));
	probe_result_add_param(ctx->res, "largest", buf);
	probe_result_add_param(ctx->res, "node_stride", "128 B (one node per cache line)");
	snprintf(desc, sizeof(desc), "%s over gated launches of `steps` dependent loads (not %s)",
		 gpu->names.events, gpu->names.cycle_clock);
	probe_result_add_param(ctx->res, "timing", desc);
	probe_result_add_param(ctx->res, "gpu", props.name);
	snprintf(desc, sizeof(desc),
		 "dependent 8 B loads by one thread (or threads= of one block, "
		 "each walking the chain), nodes 128 B apart (order random, "
		 "page-local, or stride: in address order); ns per load from "
		 "%s over launches of `steps` loads",
		 gpu->names.events);

	smp = gpu->sampler_start(100);
	if (gpu->malloc((void **)&g.buf, sizes[n - 1]) || !(g.pos = gpu->scratch())) {
		rc = gpu_fail(ctx->res, "gpu.latency setup");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t nodes = sizes[i] / NODE_BYTES;

		for (int ord = 0; ord < 3; ord++) {
			static const char *const onames[] = {"random", "local", "stride"};
			static const enum mem_order orders[] = {MEM_ORDER_RANDOM, MEM_ORDER_LOCAL,
								MEM_ORDER_STRIDE};
			const char *oname = onames[ord];
			struct gpu_samples s;
			struct metric *m;
			char sz[32];

			if (!(o->orders & (1u << ord)))
				continue;
			/* Up to one group, page-local is the same walk as random. */
			if (ord == 1 && sizes[i] <= GROUP_BYTES)
				continue;
			have_local |= ord == 1;
			opt_format_size(sizes[i], sz, sizeof(sz));
			progress("gpu.latency: size=%s order=%s", sz, oname);
			if (gpu_chain_make(g.buf, nodes, NODE_BYTES, orders[ord],
					   GROUP_BYTES / NODE_BYTES, 0x1a7e + i) ||
			    gpu->memset_async(g.pos, 0, sizeof(*g.pos), NULL) ||
			    gpu->device_sync() || gpu_measure(ctx, &w, &s)) {
				rc = gpu_fail(ctx->res, sz);
				goto out;
			}
			snprintf(buf, sizeof(buf), "%u", g.threads);
			m = probe_add_metric(ctx->res, "latency", UNIT_NS, BETTER_LOWER, desc,
					     "size", sz, "order", oname,
					     g.threads > 1 ? "threads" : NULL, buf, NULL);
			gpu_samples_record(&s, m, (double)g.steps, MEASURE_TIME_PER, 1, -1);
			gpu_samples_free(&s);
		}
	}
	plateaus(ctx->res, sizes, n, props.l2_bytes, have_local);
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->free(g.buf);
	return rc;
}

static int glat_check(const void *opts, char *why, size_t len)
{
	const struct glat_opts *o = opts;

	if (o->threads >= 1 && o->threads <= 1024)
		return 0;
	snprintf(why, len, "threads: 1 to 1024 (one block)");
	return -1;
}

const struct probe probe_gpu_latency = {
	.name = "gpu.latency",
	.summary = "one-thread dependent pointer chase, 16 KiB to GiBs: L1/L2/HBM plateaus, "
		   "random vs page-local order",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = glat_opt_rows,
	.opts_size = sizeof(struct glat_opts),
	.quick_opts = "max=256M factor=4 steps=16384 orders=random,local",
	.full_opts = "max=4G",
	.quick_note =
		"sizes up to 256 MiB in steps of 4x, random and page-local orders (the stride "
		"order is the gpu suite's) and shorter chains: the HBM plateau from fewer "
		"points than the gpu suite's 1 GiB curve",
	.timeout_s = 600,
	.check = glat_check,
	.typical_s = {3.4, 15.9}, /* docs/design.md §2.8 */
	.run = glat_run,
};
