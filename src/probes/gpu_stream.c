/* gpu_stream.c - gpu.stream
 * measures: device-memory (HBM) read, write and copy bandwidth with our own SM kernels, plus
 *   cudaMemcpyAsync device-to-device, each at the best launch shape of a sweep.
 * method: buffers >= 8x L2; a sweep of blocks per SM x threads x loads in flight (short samples)
 *   picks each kernel's best shape, which is then timed with CUDA events (gated, >= 10 samples
 *   of >= min_sample_ns); 16 B accesses, grid-stride or chunked (bpsm=chunk: a block a chunk,
 *   gpu-benches' layout, the faster writer on an H200: docs/design.md §8.18), reads XOR-reduced
 *   and checked, copies verified word by word after every sample.
 * why this way: the fastest shape differs by chip, so a fixed shape under-reports; bytes are
 *   STREAM's rule (read: once, write: once, copy: read + write), and copies also in
 *   nvbandwidth's "bytes once" view, since tools disagree by exactly 2x there (docs/design.md
 * §4.13). cross-check: tools/gpu_crosscheck.cu (cudaMemcpy D2D with events) and nvbandwidth's
 *   device_local_copy; the read median should reach ~95% of the HBM datasheet figure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/list.h"
#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "results/results.h"

struct gstream_opts {
	uint64_t size_bytes; /* per buffer; 0 = auto */
	char bpsm[OPT_STR_MAX];
	char threads[OPT_STR_MAX];
	char unroll[OPT_STR_MAX];
	uint32_t kernels;
};

static const struct opt gstream_opt_rows[] = {
	OPT_SIZE("size", struct gstream_opts, size_bytes, "0",
		 "bytes per buffer (2 buffers); 0 = max(16 x L2, 4G); raised to 8 x L2 if smaller"),
	OPT_STR("bpsm", struct gstream_opts, bpsm, "chunk,1,2,4,8",
		"sweep: blocks per SM of a grid-stride grid; chunk: the chunked layout (one block "
		"per threads x unroll accesses, as many blocks as the buffer needs)"),
	OPT_STR("threads", struct gstream_opts, threads, "256,512,1024",
		"sweep: threads per block"),
	OPT_STR("unroll", struct gstream_opts, unroll, "2,4,8",
		"sweep: independent 16 B accesses in flight per thread"),
	OPT_LIST("kernels", struct gstream_opts, kernels, "read|write|copy|memcpy", "all",
		 "what to measure (memcpy: the API's asynchronous copy device to device)"),
	OPT_END,
};

enum { K_READ, K_READ_CS, K_WRITE, K_WRITE_CS, K_COPY, K_MEMCPY, K_N };

static const struct {
	const char *kernel, *access;
	unsigned opt_bit;
	double buffers; /* STREAM byte rule: buffers counted per pass */
	int sweep;
	const char *desc; /* a format: the %s is word() */
} kinfo[K_N] = {
	[K_READ] = {"read", "default", 0, 1, 1,
		    "bytes read once (GB = 1e9); own kernel, 16 B loads %s, XOR-reduced "
		    "and checked; best shape of the sweep (extra.best)"},
	[K_READ_CS] = {"read", "streaming", 0, 1, 1,
		       "bytes read once (GB = 1e9); own kernel, 16 B loads %s (evict "
		       "first); best shape of the sweep"},
	[K_WRITE] = {"write", "default", 1, 1, 1,
		     "bytes written once (GB = 1e9); own kernel, 16 B stores %s; best shape"},
	[K_WRITE_CS] = {"write", "streaming", 1, 1, 1,
			"bytes written once (GB = 1e9); own kernel, 16 B stores %s "
			"(evict first); best shape"},
	[K_COPY] = {"copy", "default", 2, 2, 1,
		    "read + write counted (STREAM rule, 2 x bytes copied; GB = 1e9); own kernel, "
		    "16 B loads and stores; verified after every sample; best shape"},
	[K_MEMCPY] = {"memcpy_d2d", "default", 3, 2, 0,
		      "read + write counted (2 x bytes copied; GB = 1e9); %s device "
		      "to device; verified after every sample"},
};

/* The backend's name for what kernel k uses (struct gpu_names), or "". */
static const char *word(int k)
{
	const struct gpu_names *n = &gpu_backend()->names;

	switch (k) {
	case K_READ:
		return n->load;
	case K_READ_CS:
		return n->load_streaming;
	case K_WRITE:
		return n->store;
	case K_WRITE_CS:
		return n->store_streaming;
	case K_MEMCPY:
		return n->memcpy_async;
	default:
		return "";
	}
}

struct gstream {
	struct probe_ctx *ctx;
	struct gpu_props props;
	void *a, *b;
	size_t bytes;
	int k;
	struct gpu_grid grid;
	unsigned long long *out;
	unsigned long long read_ref; /* XOR of one read pass over a */
	uint64_t seed, iters;
	json_t *sweep;
};

static int enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gstream *g = arg;

	for (uint64_t i = 0; i < iters; i++) {
		int rc = 0;

		switch (g->k) {
		case K_READ:
		case K_READ_CS:
			rc = GPU_CHECK(gpu->launch_read(g->a, g->bytes, &g->grid, g->k == K_READ_CS,
							g->out, s));
			break;
		case K_WRITE:
		case K_WRITE_CS:
			rc = GPU_CHECK(gpu->launch_write(g->b, g->bytes, &g->grid,
							 g->k == K_WRITE_CS, i, s));
			break;
		case K_COPY:
			rc = GPU_CHECK(gpu->launch_copy(g->b, g->a, g->bytes, &g->grid, s));
			break;
		case K_MEMCPY:
			rc = gpu->memcpy_async(g->b, g->a, g->bytes, s);
			break;
		}
		if (rc)
			return -1;
	}
	g->iters += iters;
	return 0;
}

/* Before a sample: zero the read reduction, poison the copy destination. */
static int before(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gstream *g = arg;

	g->iters = 0;
	if (gpu->memset_async(g->out, 0, sizeof(*g->out), NULL))
		return -1;
	if ((g->k == K_COPY || g->k == K_MEMCPY) && gpu->memset_async(g->b, 0, g->bytes, NULL))
		return -1;
	return gpu->device_sync();
}

/* After a sample: an odd number of read passes leaves read_ref, an even one 0;
 * a copy destination must hold the source's pattern words. */
static int check(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gstream *g = arg;
	unsigned long long v;
	uint64_t bad;

	if (g->k == K_READ || g->k == K_READ_CS) {
		if (gpu->scratch_read(&v))
			return -1;
		if (v != (g->iters % 2 ? g->read_ref : 0))
			return gpu_error("read reduction 0x%llx after %" PRIu64
					 " passes, expected 0x%llx",
					 v, g->iters, g->iters % 2 ? g->read_ref : 0ull);
	}
	if (g->k == K_COPY || g->k == K_MEMCPY) {
		if (gpu->pattern_verify(g->b, g->bytes, g->seed, &bad))
			return -1;
		if (bad)
			return gpu_error("%s: %" PRIu64 " of %zu words differ from the source",
					 kinfo[g->k].kernel, bad, g->bytes / 8);
	}
	return 0;
}

/* Times one shape briefly: the best of 3 samples of ~5 ms, GB/s. */
static int try_shape(struct gstream *g, double *gbps)
{
	struct probe_ctx sc = *g->ctx;
	struct gpu_work w = {.enqueue = enqueue,
			     .before = before,
			     .check = check,
			     .arg = g,
			     .n_streams = 1,
			     .gated = 1};
	struct gpu_samples s;
	double per_pass = kinfo[g->k].buffers * (double)g->bytes;

	sc.reps = 3;
	sc.warmups = 1;
	w.iters = (uint64_t)(5e-3 * 4e12 / per_pass) + 1;
	if (gpu_measure(&sc, &w, &s))
		return -1;
	*gbps = 0;
	for (unsigned i = 0; i < s.n; i++) {
		double v = per_pass * (double)s.iters / (s.ns[i] * 1e-9) * 1e-9;

		if (v > *gbps)
			*gbps = v;
	}
	gpu_samples_free(&s);
	return 0;
}

static int parse_list(struct probe_result *res, const char *name, const char *spec, uint64_t *v,
		      size_t *n)
{
	if (list_parse_sizes(spec, v, n) == 0)
		return 0;
	probe_result_set_status(res, STATUS_FAIL, "bad %s list '%s'", name, spec);
	return -1;
}

/* The bpsm list: blocks per SM, where "chunk" (the chunked layout) is 0. */
static int parse_bpsm(struct probe_result *res, const char *spec, uint64_t *v, size_t *n)
{
	char rest[OPT_STR_MAX] = "", buf[OPT_STR_MAX], *save = NULL, *tok;
	int chunk = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, "chunk") == 0)
			chunk = 1;
		else
			snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest), "%s%s",
				 rest[0] ? "," : "", tok);
	*n = 0;
	if (rest[0] && parse_list(res, "bpsm", rest, v + chunk, n))
		return -1;
	if (!chunk && !*n)
		return parse_list(res, "bpsm", spec, v, n);
	if (chunk) {
		v[0] = 0;
		++*n;
	}
	return 0;
}

/* Sweeps the shapes for kernel g->k and leaves the best in g->grid. */
static int sweep(struct gstream *g, const struct gstream_opts *o)
{
	uint64_t bp[LIST_MAX + 1], th[LIST_MAX], un[LIST_MAX];
	size_t nb, nt, nu;
	double best = -1;
	struct gpu_grid best_grid = {0};
	char buf[64], key[64];

	if (parse_bpsm(g->ctx->res, o->bpsm, bp, &nb) ||
	    parse_list(g->ctx->res, "threads", o->threads, th, &nt) ||
	    parse_list(g->ctx->res, "unroll", o->unroll, un, &nu))
		return -2;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nt; j++)
			for (size_t u = 0; u < nu; u++) {
				double gbps;
				json_t *row;

				/* Shapes that cannot be resident at once are more waves, not
				 * more parallelism: skipped. */
				if (th[j] > 1024 ||
				    bp[i] * th[j] > (uint64_t)g->props.max_threads_per_sm)
					continue;
				g->grid.blocks = (unsigned)bp[i] * (unsigned)g->props.sm_count;
				g->grid.threads = (unsigned)th[j];
				g->grid.unroll = (unsigned)un[u];
				if (try_shape(g, &gbps))
					return -1;
				row = json_pack("{s:s,s:s,s:I,s:I,s:I,s:f}", "kernel",
						kinfo[g->k].kernel, "access", kinfo[g->k].access,
						"blocks_per_sm", (json_int_t)bp[i], "threads",
						(json_int_t)th[j], "unroll", (json_int_t)un[u],
						"gbps", gbps);
				json_array_append_new(g->sweep, row);
				if (gbps > best) {
					best = gbps;
					best_grid = g->grid;
				}
			}
	if (best < 0) {
		probe_result_set_status(g->ctx->res, STATUS_FAIL,
					"no shape in the sweep fits %d threads per SM",
					g->props.max_threads_per_sm);
		return -2;
	}
	g->grid = best_grid;
	if (best_grid.blocks)
		snprintf(buf, sizeof(buf), "%ux%ux%u", best_grid.blocks / g->props.sm_count,
			 best_grid.threads, best_grid.unroll);
	else
		snprintf(buf, sizeof(buf), "chunkx%ux%u", best_grid.threads, best_grid.unroll);
	snprintf(key, sizeof(key), "%s/%s", kinfo[g->k].kernel, kinfo[g->k].access);
	json_object_set_new(json_object_get(gpu_extra(g->ctx->res), "best"), key, json_string(buf));
	return 0;
}

/* Sweeps (own kernels) and measures kernel k; -1 GPU error, -2 status set. */
static int measure_kernel(struct gstream *g, const struct gstream_opts *o, int k)
{
	struct gpu_work w = {.enqueue = enqueue,
			     .before = before,
			     .check = check,
			     .arg = g,
			     .n_streams = 1,
			     .gated = 1};
	struct gpu_samples s;
	struct metric *m;
	double per_pass;
	char desc[256];
	int rc;

	g->k = k;
	progress("gpu.stream: %s %s", kinfo[k].kernel, kinfo[k].access);
	if (kinfo[k].sweep && (rc = sweep(g, o)) != 0)
		return rc;
	if (gpu_measure(g->ctx, &w, &s))
		return -1;
	per_pass = kinfo[k].buffers * (double)g->bytes;
	snprintf(desc, sizeof(desc), kinfo[k].desc, word(k));
	m = probe_add_metric(g->ctx->res, "bandwidth", UNIT_GB_S, BETTER_HIGHER, desc, "kernel",
			     kinfo[k].kernel, "access", kinfo[k].access, NULL);
	gpu_samples_record(&s, m, per_pass, MEASURE_RATE, 1e-9, -1);
	if (kinfo[k].buffers == 2) {
		m = probe_add_metric(g->ctx->res, "bandwidth_once", UNIT_GB_S, BETTER_HIGHER,
				     "bytes copied counted once (nvbandwidth's view: half the "
				     "STREAM figure); same samples as bandwidth",
				     "kernel", kinfo[k].kernel, "access", kinfo[k].access, NULL);
		gpu_samples_record(&s, m, (double)g->bytes, MEASURE_RATE, 1e-9, -1);
	}
	gpu_samples_free(&s);
	return 0;
}

static int gstream_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gstream_opts *o = opts;
	struct gstream g = {.ctx = ctx, .seed = 0x5eed0001};
	struct gpu_sampler *smp;
	uint64_t free_b, total_b, want, margin;
	char buf[128];
	int rc = PROBE_OK;

	if (gpu->get_props(0, &g.props) || gpu->mem_info(&free_b, &total_b))
		return gpu_fail(ctx->res, "gpu.stream setup");
	want = o->size_bytes ? o->size_bytes : 16 * g.props.l2_bytes;
	if (!o->size_bytes && want < (4ull << 30))
		want = 4ull << 30;
	if (want < 8 * g.props.l2_bytes) {
		want = 8 * g.props.l2_bytes;
		probe_result_add_param(ctx->res, "size_note", "raised to 8 x L2");
	}
	want = (want + (2 << 20) - 1) / (2 << 20) * (2 << 20);
	margin = total_b / 10 > (2ull << 30) ? total_b / 10 : 2ull << 30;
	if (2 * want + margin > free_b) {
		probe_result_set_status(ctx->res, STATUS_SKIP,
					"2 buffers of %" PRIu64 " MiB do not fit in %" PRIu64
					" MiB free device memory (margin %" PRIu64 " MiB)",
					want >> 20, free_b >> 20, margin >> 20);
		return PROBE_SKIP;
	}
	g.bytes = want;
	opt_format_size(g.bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "buffer_bytes", buf);
	opt_format_size(g.props.l2_bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "l2_bytes", buf);
	probe_result_add_param(ctx->res, "gpu", g.props.name);
	snprintf(buf, sizeof(buf), "%d", g.props.sm_count);
	probe_result_add_param(ctx->res, "sm_count", buf);
	snprintf(buf, sizeof(buf), "%s, streams gated behind a spin kernel", gpu->names.events);
	probe_result_add_param(ctx->res, "timing", buf);
	g.sweep = json_array();
	json_object_set_new(gpu_extra(ctx->res), "sweep", g.sweep);
	json_object_set_new(gpu_extra(ctx->res), "best", json_object());

	smp = gpu->sampler_start(100);
	if (gpu->malloc(&g.a, g.bytes) || gpu->malloc(&g.b, g.bytes) || !(g.out = gpu->scratch()) ||
	    gpu->pattern_fill(g.a, g.bytes, g.seed, NULL)) {
		rc = gpu_fail(ctx->res, "gpu.stream setup");
		goto out;
	}
	/* The reference reduction: one pass with a fixed shape over a. */
	g.grid = (struct gpu_grid){(unsigned)g.props.sm_count * 2, 512, 4};
	if (gpu->memset_async(g.out, 0, sizeof(*g.out), NULL) ||
	    GPU_CHECK(gpu->launch_read(g.a, g.bytes, &g.grid, 0, g.out, NULL)) ||
	    gpu->scratch_read(&g.read_ref)) {
		rc = gpu_fail(ctx->res, "gpu.stream reference read");
		goto out;
	}
	for (int k = 0; k < K_N; k++) {
		int r;

		if (!(o->kernels & (1u << kinfo[k].opt_bit)))
			continue;
		r = measure_kernel(&g, o, k);
		if (r == -1) {
			rc = gpu_fail(ctx->res, kinfo[k].kernel);
			goto out;
		}
		if (r == -2) {
			rc = PROBE_FAIL;
			goto out;
		}
	}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->free(g.a);
	gpu->free(g.b);
	return rc;
}

const struct probe probe_gpu_stream = {
	.name = "gpu.stream",
	.summary = "device-memory read/write/copy bandwidth, own SM kernels at the best swept "
		   "shape, and the API's device-to-device copy",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = gstream_opt_rows,
	.opts_size = sizeof(struct gstream_opts),
	.quick_opts = "size=1G bpsm=2,4 threads=512,1024 unroll=4,8",
	.quick_note = "a cut-down launch-shape sweep at 1 GiB: its best shape can read under the "
		      "full sweep's (own copy kernel 1977.7 against 2101.3 GB/s, -5.9%, on the "
		      "H200 on 2026-12-01), and the references of a kind are the full sweep's",
	.timeout_s = 300,
	.typical_s = {3.2, 14.4}, /* docs/design.md §2.8 */
	.run = gstream_run,
};
