/* gpu_random.c - gpu.random
 * measures: independent random 32 B-sector read rate (M accesses/s, GB/s) and random 16 KiB
 *   block-gather bandwidth in device memory, over spans from 1 GiB up to what free memory allows.
 * method: translation reach holds the number of distinct sectors FIXED while the span grows,
 *   for a DRAM-bound set (distinct >> L2) and an L2-resident set (distinct << L2): sector k sits
 *   at a fixed hashed place in slot k of span/distinct bytes; addresses come from a hash, never
 *   from loaded data, so every thread keeps 8 accesses in flight (MLP = threads x 8).
 * why this way: docs/design.md §10.3 - a "6.25x TLB penalty" came from a probe that changed the set
 *   size (L2-resident vs DRAM-bound) together with the span; here only the span moves, so a
 *   slope is translation reach alone, and each set says which regime it is in.
 * cross-check: the DRAM-bound rate x 32 B stays under gpu.stream's read bandwidth; the 16 KiB
 *   gathers approach it; the L2 set runs several times faster than the DRAM set.
 */
#include <inttypes.h>
#include <stdio.h>

#include "base/list.h"
#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "results/results.h"

struct grandom_opts {
	char spans[OPT_STR_MAX];
	char block_spans[OPT_STR_MAX];
	uint64_t dram_set, l2_set, block_bytes;
	uint32_t sets;
};

static const struct opt grandom_opt_rows[] = {
	OPT_STR_CHECK("spans", struct grandom_opts, spans, "64M,256M,1G,2G,4G,8G,16G,32G,64G,128G",
		      "sector spans, ascending (those above free device memory minus a margin are "
		      "dropped; a set is measured only at spans >= its size)",
		      list_check_sizes, NULL),
	OPT_STR_CHECK("block_spans", struct grandom_opts, block_spans, "1G,8G,64G",
		      "spans for the block gathers", list_check_sizes, NULL),
	OPT_SIZE("dram_set", struct grandom_opts, dram_set, "0",
		 "bytes of distinct sectors in the DRAM-bound set; 0 = 16 x L2 (power of two)"),
	OPT_SIZE("l2_set", struct grandom_opts, l2_set, "2M",
		 "bytes of distinct sectors in the L2-resident set (must be << L2)"),
	OPT_SIZE("block", struct grandom_opts, block_bytes, "16K", "gather block size"),
	OPT_LIST("sets", struct grandom_opts, sets, "dram|l2|blocks", "all", "what to measure"),
	OPT_END,
};

#define PER_THREAD 256 /* sector accesses per thread per launch */
#define PER_WARP   8   /* blocks per warp per launch */

struct grandom {
	struct probe_ctx *ctx;
	struct gpu_props props;
	char *base;
	uint64_t span, distinct, block_bytes;
	int blocks; /* 1: block gathers, 0: sectors */
	struct gpu_grid grid;
	unsigned long long *out;
	uint64_t seed;
};

static int enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct grandom *r = arg;

	for (uint64_t i = 0; i < iters; i++) {
		/* A new order every launch; the set of sectors stays the same. */
		uint64_t seed = r->seed++;

		if (r->blocks
			    ? GPU_CHECK(gpu->launch_blocks(r->base, r->span, r->block_bytes,
							   PER_WARP, seed, &r->grid, r->out, s))
			    : GPU_CHECK(gpu->launch_sectors(r->base, r->span, r->distinct,
							    PER_THREAD, seed, &r->grid, r->out, s)))
			return -1;
	}
	return 0;
}

static uint64_t pow2_floor(uint64_t v)
{
	uint64_t p = 1;

	while (p <= v / 2)
		p *= 2;
	return p;
}

static int measure_one(struct grandom *r, const char *set, uint64_t span)
{
	struct gpu_work w = {.enqueue = enqueue, .arg = r, .n_streams = 1, .gated = 1};
	struct gpu_samples s;
	struct metric *m;
	char sp[32], desc[256];
	double threads = (double)r->grid.blocks * r->grid.threads;

	r->span = span;
	opt_format_size(span, sp, sizeof(sp));
	progress("gpu.random: %s span=%s", set, sp);
	if (gpu_measure(r->ctx, &w, &s))
		return -1;
	if (r->blocks) {
		double per = threads / 32 * PER_WARP * (double)r->block_bytes;
		char bl[32];

		opt_format_size(r->block_bytes, bl, sizeof(bl));
		snprintf(desc, sizeof(desc),
			 "random block gathers: bytes read once (GB = 1e9), one warp "
			 "per block, 16 B %s, 8 loads in flight per lane",
			 gpu_backend()->names.load_l2);
		m = probe_add_metric(r->ctx->res, "block_bw", UNIT_GB_S, BETTER_HIGHER, desc,
				     "block", bl, "span", sp, NULL);
		gpu_samples_record(&s, m, per, MEASURE_RATE, 1e-9, -1);
	} else {
		double per = threads * PER_THREAD;

		snprintf(desc, sizeof(desc),
			 "independent random 32 B-sector reads, %" PRIu64
			 " distinct sectors fixed while the span grows; one 16 B %s "
			 "(L1 bypassed) per sector; 8 in flight per thread",
			 r->distinct, gpu_backend()->names.load_l2);
		m = probe_add_metric(r->ctx->res, "sector_rate", UNIT_MACC_S, BETTER_HIGHER, desc,
				     "set", set, "span", sp, NULL);
		gpu_samples_record(&s, m, per, MEASURE_RATE, 1e-6, -1);
		m = probe_add_metric(r->ctx->res, "sector_bw", UNIT_GB_S, BETTER_HIGHER,
				     "sector_rate x 32 B (sector granularity; GB = 1e9)", "set",
				     set, "span", sp, NULL);
		gpu_samples_record(&s, m, per * 32, MEASURE_RATE, 1e-9, -1);
	}
	gpu_samples_free(&s);
	return 0;
}

/* Median of the last metric named `name` with set=set and span=sp, or 0. */
static double median_of(struct probe_result *res, const char *name, const char *set, const char *sp)
{
	struct metric *m = probe_find_metric(res, name, "set", set, "span", sp, NULL);

	if (!m || !m->n_samples)
		return 0;
	metric_summarize(m);
	return m->summary.median;
}

static int run_set(struct grandom *r, const char *set, uint64_t set_bytes, const uint64_t *spans,
		   size_t n)
{
	json_t *reach = json_object_get(gpu_extra(r->ctx->res), "reach");
	char a[32], b[32];
	double lo, hi;

	size_t first = n;

	r->blocks = 0;
	r->distinct = set_bytes / 32;
	for (size_t i = 0; i < n; i++) {
		if (spans[i] < set_bytes)
			continue;
		if (first == n)
			first = i;
		if (measure_one(r, set, spans[i]))
			return -1;
	}
	if (first == n)
		return 0;
	opt_format_size(spans[first], a, sizeof(a));
	opt_format_size(spans[n - 1], b, sizeof(b));
	lo = median_of(r->ctx->res, "sector_rate", set, a);
	hi = median_of(r->ctx->res, "sector_rate", set, b);
	if (lo > 0 && hi > 0)
		json_object_set_new(reach, set,
				    json_pack("{s:I,s:s,s:s,s:f}", "distinct_sectors",
					      (json_int_t)r->distinct, "from_span", a, "to_span", b,
					      "slowdown_x", lo / hi));
	return 0;
}

static int grandom_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct grandom_opts *o = opts;
	struct grandom r = {.ctx = ctx, .seed = 1};
	uint64_t spans[LIST_MAX], bspans[LIST_MAX], free_b, total_b, margin, cap, dram, l2;
	size_t ns, nb, n_ok = 0, nb_ok = 0;
	struct gpu_sampler *smp;
	char buf[64];
	int rc = PROBE_OK;

	if (list_parse_sizes(o->spans, spans, &ns) ||
	    list_parse_sizes(o->block_spans, bspans, &nb)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad spans or block_spans list");
		return PROBE_FAIL;
	}
	if (gpu->get_props(0, &r.props) || gpu->mem_info(&free_b, &total_b))
		return gpu_fail(ctx->res, "gpu.random setup");
	margin = total_b / 20 > (4ull << 30) ? total_b / 20 : 4ull << 30;
	cap = free_b > margin ? free_b - margin : 0;
	/* Spans ascending, those that fit; the buffer is the largest. */
	for (size_t i = 0; i < ns; i++)
		if (spans[i] <= cap && (n_ok == 0 || spans[i] > spans[n_ok - 1]))
			spans[n_ok++] = spans[i];
	for (size_t i = 0; i < nb; i++)
		if (bspans[i] <= cap && bspans[i] >= o->block_bytes)
			bspans[nb_ok++] = bspans[i];
	if (n_ok + nb_ok == 0) {
		probe_result_set_status(ctx->res, STATUS_SKIP,
					"no span fits in %" PRIu64 " MiB free device memory",
					free_b >> 20);
		return PROBE_SKIP;
	}
	if (n_ok < ns || nb_ok < nb)
		probe_result_add_param(ctx->res, "spans_dropped",
				       "spans above free device memory minus margin, or unsorted");
	cap = n_ok ? spans[n_ok - 1] : 0;
	for (size_t i = 0; i < nb_ok; i++)
		cap = bspans[i] > cap ? bspans[i] : cap;
	dram = o->dram_set ? o->dram_set : pow2_floor(16 * r.props.l2_bytes - 1) * 2;
	l2 = o->l2_set;
	if (n_ok && dram > spans[n_ok - 1]) /* the set must fit in the largest span */
		dram = spans[n_ok - 1];
	opt_format_size(dram, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "dram_set_bytes", buf);
	opt_format_size(l2, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "l2_set_bytes", buf);
	opt_format_size(r.props.l2_bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "l2_bytes", buf);
	probe_result_add_param(ctx->res, "gpu", r.props.name);
	if (dram < 4 * r.props.l2_bytes)
		probe_result_add_param(ctx->res, "dram_set_note",
				       "DRAM set < 4 x L2: partly cached");
	if (l2 * 4 > r.props.l2_bytes)
		probe_result_add_param(ctx->res, "l2_set_note",
				       "L2 set > L2/4: may not stay resident");
	json_object_set_new(gpu_extra(ctx->res), "reach", json_object());

	r.grid = (struct gpu_grid){(unsigned)r.props.sm_count * 8, 256, 8};
	snprintf(buf, sizeof(buf), "%u blocks x %u threads, 8 accesses in flight each",
		 r.grid.blocks, r.grid.threads);
	probe_result_add_param(ctx->res, "grid", buf);
	r.block_bytes = o->block_bytes;

	smp = gpu->sampler_start(100);
	/* Free memory is not one contiguous range: shrink the buffer (and drop the
	 * spans above it) until an allocation succeeds. */
	while (gpu->malloc((void **)&r.base, cap) && cap > (1ull << 30)) {
		cap /= 2;
		while (n_ok && spans[n_ok - 1] > cap)
			n_ok--;
		while (nb_ok && bspans[nb_ok - 1] > cap)
			nb_ok--;
	}
	opt_format_size(cap, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "buffer_bytes", buf);
	if (!r.base || !(r.out = gpu->scratch()) || gpu->pattern_fill(r.base, cap, 7, NULL)) {
		rc = gpu_fail(ctx->res, "gpu.random setup");
		goto out;
	}
	if (n_ok && (o->sets & 1u) && run_set(&r, "dram", dram, spans, n_ok)) {
		rc = gpu_fail(ctx->res, "dram set");
		goto out;
	}
	if (n_ok && (o->sets & 2u) && run_set(&r, "l2", l2, spans, n_ok)) {
		rc = gpu_fail(ctx->res, "l2 set");
		goto out;
	}
	r.blocks = 1;
	for (size_t i = 0; (o->sets & 4u) && i < nb_ok; i++)
		if (measure_one(&r, "blocks", bspans[i])) {
			rc = gpu_fail(ctx->res, "block gathers");
			goto out;
		}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->free(r.base);
	return rc;
}

const struct probe probe_gpu_random = {
	.name = "gpu.random",
	.summary = "random 32 B-sector rate and 16 KiB gathers; translation reach with distinct "
		   "sectors held fixed (DRAM-bound and L2-resident sets)",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = grandom_opt_rows,
	.opts_size = sizeof(struct grandom_opts),
	.quick_opts = "spans=64M,1G,8G block_spans=1G",
	.timeout_s = 300,
	.typical_s = {1.3, 4.9}, /* docs/design.md §2.8 */
	.run = grandom_run,
};
