/* gpu_loaded.c - gpu.loaded
 * measures: loaded latency on the GPU: one warp's dependent chase through device memory (ns
 *   per load) while 0 .. all other SMs stream reads, with the bandwidth that load reached
 *   (GB/s); and on the host path, the latency of a small H2D copy (us) alone and while a large
 *   D2H copy runs, with the D2H bandwidth meanwhile.
 * method: the load is one 512-thread block per SM reading a buffer of its own with streaming
 *   16 B loads until the chase says it is done; load and chase blocks each ask for more than
 *   half an SM's shared memory, so no two share an SM and the chase's SM stays free. The chase
 *   starts once every load block runs and times its loads with %globaltimer (events on its
 *   stream would include that wait); a sample whose chase did not run inside the load's span
 *   is an error. Host path: gpu_measure (gated, CUDA events) with the 8 B copies on one stream
 *   and one D2H copy per batch of 16 on another, started together.
 * why this way: a decode step streams weights from HBM while its KV gathers wait on latency:
 *   the latency it sees is the loaded one. Stepping SMs, not a delay, sets the load because an
 *   SM's share of HBM bandwidth is what a kernel takes. H2D latency under a D2H copy is what a
 *   small upload (a token, a block table) meets while results stream back.
 * cross-check: the sms=0 step against gpu.latency order=random at the same size; the full load
 *   against gpu.stream's read bandwidth (a few % lower: one SM chases); h2d_latency load=none
 *   against gpu.copy's small pinned H2D copy.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/load.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "machine/mem.h"
#include "results/results.h"

struct gld_opts {
	uint64_t size_bytes, load_bytes, d2h_bytes;
	char sms[OPT_STR_MAX];
	uint32_t tests;
};

static const struct opt gld_opt_rows[] = {
	OPT_SIZE("size", struct gld_opts, size_bytes, "1G",
		 "device memory of the chase (random cycle of 128 B nodes)"),
	OPT_SIZE("load", struct gld_opts, load_bytes, "2G", "device memory the load streams"),
	OPT_STR("sms", struct gld_opts, sms, "auto",
		"loaded SM counts: auto (0, 1/8, 1/4, 1/2, 3/4 of the SMs, all but the chase's) "
		"or a list (0,16,max)"),
	OPT_SIZE("d2h", struct gld_opts, d2h_bytes, "256M",
		 "bytes of each D2H copy that loads the host path (pinned)"),
	OPT_LIST("tests", struct gld_opts, tests, "hbm|host", "all",
		 "hbm: chase under SM load; host: H2D copy latency under a D2H copy"),
	OPT_END,
};

enum { T_HBM, T_HOST };

#define NODE_BYTES   128ull
#define SMALL_BYTES  8
#define HOST_BATCH   16
#define WAIT_NS	     1000000000ull /* the chase waits at most 1 s for the load blocks */
#define SMALL_SEED   0x6832640aull
#define BIG_SEED     0x643268aull
#define MAX_CHASE_NS 2000000000ull

struct gld {
	struct probe_ctx *ctx;
	struct gpu_props props;
	/* hbm */
	uint64_t *chain, nodes, steps;
	void *load;
	size_t load_bytes, smem;
	struct gpu_load_ctl *ctl;
	unsigned long long *pos;
	struct gpu_stream *s_load, *s_chase;
	/* host */
	uint64_t *h_small, *d_small, *h_big, *d_big;
	size_t big;
	int loaded; /* the host path's D2H copy runs */
};

/* One chase, loaded by `sms` load blocks (0: alone): ns per load and the
 * load's GB/s into lat and bw; 0 or -1 (error recorded). */
static int chase_once(struct gld *g, unsigned sms, double *lat, double *bw)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gpu_load_ctl c;
	unsigned long long pos = 0;
	uint64_t max_ns = MAX_CHASE_NS + 20 * (uint64_t)g->ctx->min_sample_ns;

	if (gpu->memset_async(g->ctl, 0, sizeof(*g->ctl), g->s_chase) ||
	    gpu->stream_sync(g->s_chase))
		return -1;
	if (sms && GPU_CHECK(gpu->launch_load_read(g->load, g->load_bytes, sms, g->smem, g->ctl,
						   max_ns, g->s_load)))
		return -1;
	if (GPU_CHECK(gpu->launch_chase_loaded(g->chain, g->steps, (uint64_t *)g->pos, g->ctl, sms,
					       WAIT_NS, g->smem, g->s_chase)) ||
	    gpu->stream_sync(g->s_chase) || gpu->stream_sync(g->s_load) ||
	    gpu->memcpy(&c, g->ctl, sizeof(c)) || gpu->scratch_read(&pos))
		return -1;
	if (pos % (NODE_BYTES / 8) || pos / (NODE_BYTES / 8) >= g->nodes)
		return gpu_error("chase ended at word %llu, not a node", pos);
	if (c.chase_gave_up)
		return gpu_error("the chase waited 1 s for %u load blocks and only %llu ran: "
				 "they cannot share the GPU with it",
				 sms, c.running);
	if (sms && (c.t_start > c.chase_t0 || c.t_end < c.chase_t1))
		return gpu_error("the chase (%llu..%llu ns) ran outside the load (%llu..%llu)",
				 c.chase_t0, c.chase_t1, c.t_start, c.t_end);
	*lat = (double)(c.chase_t1 - c.chase_t0) / (double)g->steps;
	*bw = sms && c.t_end > c.t_start ? (double)c.bytes / (double)(c.t_end - c.t_start) : 0;
	return 0;
}

/* Steps so that one unloaded chase lasts about min_sample_ns. */
static int calibrate_steps(struct gld *g)
{
	double lat = 0, bw;

	g->steps = 4096;
	if (chase_once(g, 0, &lat, &bw) || chase_once(g, 0, &lat, &bw))
		return -1;
	g->steps = lat > 0 ? (uint64_t)((double)g->ctx->min_sample_ns / lat) : 4096;
	if (g->steps < 4096)
		g->steps = 4096;
	if (g->steps > (1ull << 26))
		g->steps = 1ull << 26;
	return 0;
}

static int hbm_step(struct gld *g, unsigned sms, json_t *curve)
{
	struct probe_ctx *ctx = g->ctx;
	struct metric *lat = NULL, *bw = NULL;
	char name[16], desc[320];
	double l, b;

	snprintf(name, sizeof(name), "%u", sms);
	progress("gpu.loaded: sms=%s", name);
	snprintf(desc, sizeof(desc),
		 "ns per dependent 8 B load of one thread (one warp) through a random "
		 "cycle of 128 B nodes in device memory, on an SM of its own, while "
		 "`sms` other SMs stream reads; %s around its loads",
		 gpu_backend()->names.timer);
	lat = probe_add_metric(ctx->res, "hbm_loaded_latency", UNIT_NS, BETTER_LOWER, desc, "sms",
			       name, NULL);
	if (sms)
		bw = probe_add_metric(ctx->res, "hbm_load_bw", UNIT_GB_S, BETTER_NONE,
				      "bytes the load blocks read over their own span (first "
				      "block's start to last one's end, GB = 1e9)",
				      "sms", name, NULL);
	for (unsigned i = 0; i < ctx->warmups + ctx->reps; i++) {
		if (chase_once(g, sms, &l, &b))
			return -1;
		if (i < ctx->warmups) {
			metric_add_warmup(lat, l);
			if (bw)
				metric_add_warmup(bw, b);
		} else {
			metric_add_sample(lat, l);
			if (bw)
				metric_add_sample(bw, b);
		}
	}
	metric_summarize(lat);
	if (bw)
		metric_summarize(bw);
	json_array_append_new(curve, json_pack("{s:i,s:f,s:f}", "sms", (int)sms, "load_gbs",
					       bw ? bw->summary.median : 0.0, "latency_ns",
					       lat->summary.median));
	return 0;
}

static int hbm_run(struct gld *g, const struct gld_opts *o)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct probe_ctx *ctx = g->ctx;
	unsigned sms[LOAD_MAX_STEPS], dropped = 0;
	size_t n = 0;
	json_t *curve;
	char buf[160];
	int rc = 0;

	if (load_parse_sms(o->sms, (unsigned)g->props.sm_count, sms, &n, &dropped)) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"bad sms '%s': auto, max or counts below %d", o->sms,
					g->props.sm_count);
		return PROBE_FAIL;
	}
	if (dropped) {
		snprintf(buf, sizeof(buf), "%u (above the %d SMs less the chase's)", dropped,
			 g->props.sm_count - 1);
		probe_result_add_param(ctx->res, "sms_dropped", buf);
	}
	/* One block per SM: more than half an SM's shared memory each. */
	g->smem = g->props.smem_per_sm / 2 + 1024;
	if (g->smem > g->props.smem_per_block_optin || g->props.smem_per_sm == 0) {
		g->smem = 0;
		probe_result_add_param(
			ctx->res, "sm_exclusive",
			"no: a block cannot hold half an SM's shared memory here, so "
			"a load block may share the chase's SM");
	} else {
		snprintf(buf, sizeof(buf), "yes: %zu B of shared memory per block", g->smem);
		probe_result_add_param(ctx->res, "sm_exclusive", buf);
	}
	g->nodes = o->size_bytes / NODE_BYTES;
	g->load_bytes = o->load_bytes / 16 * 16;
	if (gpu->malloc((void **)&g->chain, g->nodes * NODE_BYTES) ||
	    gpu->malloc(&g->load, g->load_bytes) ||
	    gpu->malloc((void **)&g->ctl, sizeof(*g->ctl)) ||
	    gpu->memset_async(g->load, 0x5a, g->load_bytes, NULL) ||
	    gpu_chain_make(g->chain, g->nodes, NODE_BYTES, MEM_ORDER_RANDOM, g->nodes,
			   0x6c6f6164) ||
	    gpu->memset_async(g->pos, 0, sizeof(*g->pos), NULL) || gpu->device_sync() ||
	    calibrate_steps(g))
		return gpu_fail(ctx->res, "gpu.loaded hbm setup");
	snprintf(buf, sizeof(buf), "%" PRIu64, g->steps);
	probe_result_add_param(ctx->res, "chase_steps", buf);
	curve = json_array();
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = hbm_step(g, sms[i], curve);
	json_object_set_new(gpu_extra(ctx->res), "curve_hbm", curve);
	return rc ? gpu_fail(ctx->res, "gpu.loaded hbm") : PROBE_OK;
}

/* ---- the host path: small H2D copies, alone and beside a D2H copy ------ */

static int host_enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gld *g = arg;

	if (k == 1) /* one large D2H copy per batch, beside the small ones */
		return gpu->memcpy_async(g->h_big, g->d_big, g->big, s);
	for (uint64_t i = 0; i < iters; i++)
		if (gpu->memcpy_async(g->d_small, g->h_small, SMALL_BYTES, s))
			return -1;
	return 0;
}

/* Poisons what the copies write, so the check sees this sample's copies. */
static int host_before(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gld *g = arg;

	g->h_big[0] = g->h_big[g->big / 8 - 1] = 0;
	return gpu->memset_async(g->d_small, 0, SMALL_BYTES, NULL) || gpu->device_sync();
}

static int host_check(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gld *g = arg;
	uint64_t got = 0;

	if (gpu->memcpy(&got, g->d_small, sizeof(got)))
		return -1;
	if (got != gpu_pattern_word(SMALL_SEED, 0))
		return gpu_error("the 8 B H2D copy did not land: 0x%016" PRIx64, got);
	if (g->loaded && (g->h_big[0] != gpu_pattern_word(BIG_SEED, 0) ||
			  g->h_big[g->big / 8 - 1] != gpu_pattern_word(BIG_SEED, g->big / 8 - 1)))
		return gpu_error("the D2H copy's first or last word differs from the source");
	return 0;
}

static int host_measure(struct gld *g, int loaded)
{
	struct probe_ctx *ctx = g->ctx;
	struct gpu_work w = {.enqueue = host_enqueue,
			     .before = host_before,
			     .check = host_check,
			     .arg = g,
			     .n_streams = loaded ? 2 : 1,
			     .gated = 1,
			     .max_batch = HOST_BATCH};
	const char *load = loaded ? "d2h" : "none";
	struct gpu_samples s;
	struct metric *m;
	char desc[320];
	unsigned outlasted = 0;

	progress("gpu.loaded: h2d latency, load=%s", load);
	g->loaded = loaded;
	if (gpu_measure(ctx, &w, &s))
		return -1;
	snprintf(desc, sizeof(desc),
		 "time per 8 B %s pinned host -> device queued back to "
		 "back on one stream (each starts when the one before ends), alone or "
		 "beside a D2H copy on another stream; %s, gated",
		 gpu_backend()->names.memcpy_async, gpu_backend()->names.events);
	m = probe_add_metric(ctx->res, "h2d_latency", UNIT_US, BETTER_LOWER, desc, "load", load,
			     NULL);
	gpu_samples_record(&s, m, 1, MEASURE_TIME_PER, 1e-3, 0);
	if (loaded) {
		uint64_t batches = (s.iters + HOST_BATCH - 1) / HOST_BATCH;

		m = probe_add_metric(ctx->res, "d2h_bw", UNIT_GB_S, BETTER_HIGHER,
				     "bytes of the D2H copies (one per batch of small H2D copies, "
				     "pinned) over their stream's time, counted once (GB = 1e9)",
				     "during", "h2d_latency", NULL);
		gpu_samples_record(&s, m, (double)g->big / (double)s.iters * (double)batches,
				   MEASURE_RATE, 1e-9, 1);
		for (unsigned i = 0; i < s.n; i++)
			outlasted += s.stream_ns[0][i] > s.stream_ns[1][i];
		if (outlasted)
			probe_result_add_param(
				ctx->res, "h2d_under_load",
				"in some samples the small copies outlasted the D2H "
				"copy: the loaded figure is a lower bound (raise d2h=)");
	}
	gpu_samples_free(&s);
	return 0;
}

static int host_run(struct gld *g, const struct gld_opts *o)
{
	const struct gpu_backend *gpu = gpu_backend();

	g->big = o->d2h_bytes / 4096 * 4096;
	if (gpu->malloc_host((void **)&g->h_small, 4096, 0) ||
	    gpu->malloc_host((void **)&g->h_big, g->big, 0) ||
	    gpu->malloc((void **)&g->d_small, 4096) || gpu->malloc((void **)&g->d_big, g->big) ||
	    gpu->pattern_fill(g->d_big, g->big, BIG_SEED, NULL))
		return gpu_fail(g->ctx->res, "gpu.loaded host setup");
	g->h_small[0] = gpu_pattern_word(SMALL_SEED, 0);
	if (host_measure(g, 0) || host_measure(g, 1))
		return gpu_fail(g->ctx->res, "gpu.loaded host");
	return PROBE_OK;
}

static void gld_free(struct gld *g)
{
	const struct gpu_backend *gpu = gpu_backend();

	gpu->stream_destroy(g->s_load);
	gpu->stream_destroy(g->s_chase);
	gpu->free(g->chain);
	gpu->free(g->load);
	gpu->free(g->ctl);
	gpu->free(g->d_small);
	gpu->free(g->d_big);
	gpu->free_host(g->h_small);
	gpu->free_host(g->h_big);
}

static int gld_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gld_opts *o = opts;
	struct gld g = {.ctx = ctx};
	uint64_t free_b = 0, total_b = 0, need = 0, margin;
	struct gpu_sampler *smp;
	int rc = PROBE_OK;

	if (o->size_bytes / NODE_BYTES < 4 || o->size_bytes / NODE_BYTES > (1ull << 31) ||
	    o->load_bytes < (64ull << 20) || o->d2h_bytes < (1ull << 20)) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"size 512 .. 256G, load >= 64M, d2h >= 1M");
		return PROBE_FAIL;
	}
	if ((o->tests & (1u << T_HOST)) &&
	    mem_check_size(o->d2h_bytes, ctx->force, "gpu.loaded d2h copy (pinned)")) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "d2h above 80%% of MemAvailable");
		return PROBE_FAIL;
	}
	if (gpu->get_props(0, &g.props) || gpu->mem_info(&free_b, &total_b) ||
	    !(g.pos = gpu->scratch()) || gpu->stream_create(&g.s_load) ||
	    gpu->stream_create(&g.s_chase))
		return gpu_fail(ctx->res, "gpu.loaded setup");
	gpu->clear_error(); /* attributes an older driver lacks */
	if (o->tests & (1u << T_HBM))
		need += o->size_bytes + o->size_bytes / 32 + o->load_bytes;
	if (o->tests & (1u << T_HOST))
		need += o->d2h_bytes;
	margin = total_b / 20 > (1ull << 30) ? total_b / 20 : 1ull << 30;
	if (need + margin > free_b) {
		probe_result_set_status(ctx->res, STATUS_SKIP,
					"%" PRIu64 " MiB of buffers do not fit in %" PRIu64
					" MiB free (margin %" PRIu64 " MiB)",
					need >> 20, free_b >> 20, margin >> 20);
		gld_free(&g);
		return PROBE_SKIP;
	}
	probe_result_add_param(ctx->res, "gpu", g.props.name);
	smp = gpu->sampler_start(100);
	if (o->tests & (1u << T_HBM))
		rc = hbm_run(&g, o);
	if (rc == PROBE_OK && (o->tests & (1u << T_HOST)))
		rc = host_run(&g, o);
	gpu->sampler_stop(smp, ctx->res, "probe");
	gld_free(&g);
	return rc;
}

const struct probe probe_gpu_loaded = {
	.name = "gpu.loaded",
	.summary = "loaded latency on the GPU: one warp's HBM chase while the other SMs stream, "
		   "and H2D copy latency while a D2H copy runs",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = gld_opt_rows,
	.opts_size = sizeof(struct gld_opts),
	.quick_opts = "size=256M load=1G sms=0,max d2h=64M",
	.timeout_s = 600,
	.typical_s = {1.3, 2.8}, /* docs/design.md §2.8 */
	.run = gld_run,
};
