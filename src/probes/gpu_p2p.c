/* gpu_p2p.c - gpu.p2p
 * measures: for every ordered pair of GPUs (src, dst): the driver's answer about the link (can
 *   access peer, native atomics, performance rank: what nvidia-smi topo -p2p shows); one-way
 *   bandwidth by copy engine (cudaMemcpyPeerAsync) pushed by src (write) or pulled by dst (read)
 *   with peer access enabled, and with it disabled (the driver's staged path); by SM copy kernel
 *   storing to (write) or loading from (read) the peer; both directions at once; and two
 *   latencies: a one-thread pointer chase through the peer's memory (ns per load) and the
 *   issue-to-completion time of a 4-byte peer copy (us).
 * method: nvbandwidth's timing (gpu_measure): the issuing stream is held behind a spin kernel
 *   while warm-ups and timed work are queued, CUDA events, >= reps samples of >= min_sample_ns;
 *   a bidirectional pair's second stream (on dst) starts behind the first one's start event;
 *   destinations are poisoned before and checked word by word after every sample; peer access
 *   is enabled per pair and disabled again after it, so each pair starts from the default.
 * why this way: copy engines are dedicated DMA units; an SM copy is what a kernel touching
 *   peer memory gets: 16 B loads and stores from every SM (full occupancy, 4 in flight per
 *   thread; sm_unroll= and sm_blocks= change the shape). On NV18 it lands 5-7% under CE for
 *   every shape from 1 K to 16 K loads in flight per SM (within 0.3%), so the gap is not
 *   requests in flight; nvbandwidth's 12-deep kernel lands at the same place. Staged copies
 *   bounce through host memory: what software falls back to without P2P. Every CE copy pays a
 *   fixed cost besides its bytes (on NV18 about 4 us pushed, 13 us pulled), so the default
 *   copy is nvbandwidth's 512 MiB: at 256 MiB the same link reads 1% lower.
 * knobs: gpu.peer_access (gpu_peer_access_knob), beside the machine's (machine/pcie.h).
 * cross-check: nvidia-smi topo -p2p r / w (access), cuda-samples p2pBandwidthLatencyTest (CE
 *   write, P2P=Disabled, bidirectional and latency matrices: medians within a few %),
 *   nvbandwidth device_to_device_memcpy_{read,write}_ce and _sm; device_to_device_latency_sm
 *   is the chase order=stride (its 2 MiB chain; why random reads higher: docs/design.md §8.12).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/gpu_peer.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "machine/mem.h"
#include "results/results.h"

struct gp2p_opts {
	uint64_t size_bytes, chase_bytes, stride_bytes, steps, sm_unroll, sm_blocks;
	uint32_t tests;
	char gpus[OPT_STR_MAX];
};

static const struct opt gp2p_opt_rows[] = {
	OPT_SIZE("size", struct gp2p_opts, size_bytes, "512M",
		 "bytes per copy (nvbandwidth's size); each GPU holds a source and a destination "
		 "of this size"),
	OPT_SIZE("chase", struct gp2p_opts, chase_bytes, "256M",
		 "bytes of each GPU's pointer chains for the peer chase (random and page-local)"),
	OPT_SIZE("stride_chase", struct gp2p_opts, stride_bytes, "2M",
		 "bytes of the fixed-stride chain (nvbandwidth's: 2 MiB in 128 B steps)"),
	OPT_UINT("steps", struct gp2p_opts, steps, "16384", "dependent loads per chase launch"),
	OPT_UINT("sm_unroll", struct gp2p_opts, sm_unroll, "4",
		 "16 B loads each thread of an SM copy keeps in flight: 1, 2, 4 or 8"),
	OPT_UINT("sm_blocks", struct gp2p_opts, sm_blocks, "0",
		 "512-thread blocks per SM for SM copies; 0: as many as fit (full occupancy)"),
	OPT_LIST("tests", struct gp2p_opts, tests, "access|ce|sm|staged|bidir|latency", "all",
		 "access: the driver's answer; ce, sm: one-way copies; staged: peer access off; "
		 "bidir: both ways at once; latency: chase and 4 B copy"),
	OPT_STR("gpus", struct gp2p_opts, gpus, "all",
		"devices to pair (the backend's numbering): all, or a list such as 0,1,3"),
	OPT_END,
};

enum { T_ACCESS, T_CE, T_SM, T_STAGED, T_BIDIR, T_LATENCY };
enum { K_CE, K_SM, K_SMALL, K_CHASE };

#define NODE_BYTES  GPU_PEER_NODE_BYTES
#define GROUP_BYTES GPU_PEER_GROUP_BYTES
#define SMALL_BYTES 4
#define MAX_ERRORS  8

#define NEED_AB 1u /* src maps dst's memory */
#define NEED_BA 2u /* dst maps src's memory */
#define TB(t)	(1u << (t))

/* One measurement: data moves from a (src) to b (dst); stream 0 runs on b when
 * pulling or chasing, else on a. Staged ones need no mapping and run first. */
struct variant {
	const char *what;
	int kind, bidir, staged, pull, order;
	unsigned tests; /* option bits that must all be set */
	unsigned needs; /* peer mappings */
};

/* what, kind, bidir, staged, pull, order, tests, needs; in the order they run */
static const struct variant variants[] = {
	{"staged", K_CE, 0, 1, 0, 0, TB(T_STAGED), 0},
	{"staged 4 B copy latency", K_SMALL, 0, 1, 0, 0, TB(T_STAGED) | TB(T_LATENCY), 0},
	{"staged bidir", K_CE, 1, 1, 0, 0, TB(T_STAGED) | TB(T_BIDIR), 0},
	{"ce write", K_CE, 0, 0, 0, 0, TB(T_CE), NEED_AB},
	{"ce read", K_CE, 0, 0, 1, 0, TB(T_CE), NEED_BA},
	{"sm write", K_SM, 0, 0, 0, 0, TB(T_SM), NEED_AB},
	{"sm read", K_SM, 0, 0, 1, 0, TB(T_SM), NEED_BA},
	{"4 B copy latency", K_SMALL, 0, 0, 0, 0, TB(T_LATENCY), NEED_AB},
	{"chase random", K_CHASE, 0, 0, 0, 0, TB(T_LATENCY), NEED_BA},
	{"chase local", K_CHASE, 0, 0, 0, 1, TB(T_LATENCY), NEED_BA},
	{"chase stride", K_CHASE, 0, 0, 0, 2, TB(T_LATENCY), NEED_BA},
	{"bidir ce", K_CE, 1, 0, 0, 0, TB(T_BIDIR) | TB(T_CE), NEED_AB | NEED_BA},
	{"bidir sm", K_SM, 1, 0, 0, 0, TB(T_BIDIR) | TB(T_SM), NEED_AB | NEED_BA},
};
#define N_VARIANTS (sizeof(variants) / sizeof(variants[0]))

struct gp2p {
	struct probe_ctx *ctx;
	const struct gp2p_opts *o;
	struct gpu_peer_dev *devs;
	int n, have_local, staged_ungated;
	size_t size;
	uint64_t nodes, stride_nodes;
	unsigned n_err;
	char *first_err;
	const struct variant *v; /* the measurement at hand */
	struct gpu_peer_dev *a, *b, *issuer;
};

/* Stream 0 carries a -> b from the issuer; stream 1 (bidirectional) b -> a from b. */
static int enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gp2p *g = arg;
	struct gpu_peer_dev *from = k ? g->b : g->a, *to = k ? g->a : g->b,
			    *on = k ? g->b : g->issuer;

	for (uint64_t i = 0; i < iters; i++) {
		int rc = 0;

		switch (g->v->kind) {
		case K_CE:
		case K_SMALL:
			rc = gpu->memcpy_peer_async(to->dst, to->id, from->src, from->id,
						    g->v->kind == K_SMALL ? SMALL_BYTES : g->size,
						    s);
			break;
		case K_SM:
			rc = GPU_CHECK(gpu->launch_copy(to->dst, from->src, g->size, &on->grid, s));
			break;
		case K_CHASE:
			rc = GPU_CHECK(gpu->launch_chase(g->a->chain[g->v->order], g->o->steps,
							 (uint64_t *)g->b->pos, 1, s));
			break;
		}
		if (rc)
			return -1;
	}
	return 0;
}

static int before(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gp2p *g = arg;
	int rc = 0;

	if (g->v->kind == K_CE || g->v->kind == K_SM)
		rc = gpu_peer_poison(g->b, g->b->dst, g->size) ||
		     (g->v->bidir && gpu_peer_poison(g->a, g->a->dst, g->size));
	else if (g->v->kind == K_SMALL)
		rc = gpu_peer_poison(g->b, g->b->dst, 8);
	return rc || gpu->set_device(g->issuer->id) ? -1 : 0;
}

static int check(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gp2p *g = arg;
	unsigned long long pos = 0;
	uint64_t got = 0, want = gpu_pattern_word(GPU_PEER_SEED(g->a->id), 0) & 0xffffffffull;
	int rc = 0;

	switch (g->v->kind) {
	case K_CE:
	case K_SM:
		rc = gpu_peer_verify(g->a, g->b, g->size) ||
		     (g->v->bidir && gpu_peer_verify(g->b, g->a, g->size));
		break;
	case K_SMALL: /* 4 bytes of the pattern, then the poison (little-endian) */
		rc = gpu->set_device(g->b->id) || gpu->memcpy(&got, g->b->dst, sizeof(got));
		if (!rc && got != want)
			rc = gpu_error("4 B copy %s->%s: read 0x%016" PRIx64
				       ", expected 0x%016" PRIx64,
				       g->a->name, g->b->name, got, want);
		break;
	case K_CHASE: /* the chase must end on a node */
		rc = gpu->set_device(g->b->id) || gpu->scratch_read(&pos);
		if (!rc &&
		    (pos % (NODE_BYTES / 8) ||
		     pos / (NODE_BYTES / 8) >= (g->v->order == 2 ? g->stride_nodes : g->nodes)))
			rc = gpu_error("chase %s->%s ended at word %llu, not a node", g->a->name,
				       g->b->name, pos);
		break;
	}
	return rc || gpu->set_device(g->issuer->id) ? -1 : 0;
}

/* Gated; but if the driver's staged path blocks the host while copies are
 * queued behind the gate (the gate then times out), staged copies are timed
 * ungated from then on, as gpu.copy times pageable ones, and the run says so. */
static int measure(struct gp2p *g, struct gpu_samples *s)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct variant *v = g->v;
	struct gpu_work w = {.enqueue = enqueue,
			     .before = before,
			     .check = check,
			     .arg = g,
			     .n_streams = v->bidir ? 2 : 1,
			     .gated = !(v->staged && g->staged_ungated),
			     .max_batch = v->kind == K_SMALL   ? (v->staged ? 100 : 128)
					  : v->kind == K_CHASE ? 16
					  : v->staged	       ? 4
							       : 64,
			     .multi_device = 1,
			     .device = {g->issuer->id, g->b->id}};

	if (v->kind == K_CHASE && gpu_peer_poison(g->b, g->b->pos, sizeof(*g->b->pos)))
		return -1;
	if (gpu->set_device(g->issuer->id))
		return -1;
	if (gpu_measure(g->ctx, &w, s) == 0)
		return 0;
	if (!w.gated || !v->staged || !strstr(gpu_last_error(), "gate kernel timed out"))
		return -1;
	g->staged_ungated = 1;
	probe_result_add_param(g->ctx->res, "staged_timing",
			       "ungated (the staged path blocked the host behind the gate)");
	w.gated = 0;
	gpu_samples_free(s);
	gpu->clear_error();
	return gpu->set_device(g->issuer->id) || gpu_measure(g->ctx, &w, s);
}

/* How a bandwidth variant moves the bytes (a format of the peer copy's name). */
static const char *how(const struct variant *v)
{
	if (v->staged)
		return "%s on a stream of src with peer access NOT enabled: the driver's own "
		       "path, usually staged through host memory (param staged_timing)";
	if (v->kind == K_CE)
		return v->pull ? "%s on a stream of dst: its copy engine pulls (read)"
			       : "%s on a stream of src: its copy engine pushes (write)";
	return v->pull ? "copy kernel on dst, 16 B loads from src's memory (read), full occupancy"
		       : "copy kernel on src, 16 B stores to dst's memory (write), full occupancy";
}

static void record(struct gp2p *g, const struct gpu_samples *s)
{
	static const char *const order_names[] = {"random", "local", "stride"};
	static const char *const part[3] = {"sum", "fwd", "rev"};
	const struct variant *v = g->v;
	const char *src = g->a->name, *dst = g->b->name, *peer = v->staged ? "disabled" : "enabled";
	const char *engine = v->kind == K_SM ? "sm" : "ce";
	const struct gpu_names *nm = &gpu_backend()->names;
	char *desc = NULL, h[256];
	struct metric *m;

	snprintf(h, sizeof(h), how(v), nm->memcpy_peer_async);
	if (v->kind == K_CHASE) {
		desc = xasprintf("dependent 8 B loads by one thread on dst through src's memory, "
				 "nodes 128 B apart in a randomised cycle (local: random within "
				 "256 KiB groups; stride: in address order over stride_chase "
				 "bytes, nvbandwidth's chain); ns per load, %s over gated launches",
				 nm->events);
		m = probe_add_metric(g->ctx->res, "p2p_chase_latency", UNIT_NS, BETTER_LOWER, desc,
				     "order", order_names[v->order], "src", src, "dst", dst, NULL);
		gpu_samples_record(s, m, (double)g->o->steps, MEASURE_TIME_PER, 1, -1);
	} else if (v->kind == K_SMALL) {
		desc = xasprintf("time per 4 B %s src->dst queued back to back "
				 "on a stream of src (each starts when the one before ends): "
				 "issue-to-completion on the device, not host API time "
				 "(p2pBandwidthLatencyTest's latency); %s, gated",
				 nm->memcpy_peer_async, nm->events);
		m = probe_add_metric(g->ctx->res, "p2p_copy_latency", UNIT_US, BETTER_LOWER, desc,
				     "peer", peer, "src", src, "dst", dst, NULL);
		gpu_samples_record(s, m, 1, MEASURE_TIME_PER, 1e-3, -1);
	} else if (!v->bidir) {
		desc = xasprintf("bytes copied src->dst counted once (what crossed the link; GB = "
				 "1e9); %s; gated, %s; checked after every sample",
				 h, nm->events);
		m = probe_add_metric(g->ctx->res, "p2p_bw", UNIT_GB_S, BETTER_HIGHER, desc,
				     "engine", engine, "peer", peer, "mode",
				     v->staged ? "staged" : (v->pull ? "read" : "write"), "src",
				     src, "dst", dst, NULL);
		gpu_samples_record(s, m, (double)g->size, MEASURE_RATE, 1e-9, -1);
	} else {
		desc = xasprintf(
			"both directions at once, src->dst on a stream of src and dst->src "
			"on a stream of dst, started together behind the gate; %s: bytes "
			"counted once (GB = 1e9); %s engine, each source pushes%s",
			"sum: both directions over the pair's span; fwd, rev: src->dst, "
			"dst->src over their own stream's span",
			engine, v->staged ? ", peer access NOT enabled (staged)" : "");
		for (int k = -1; k < 2; k++) {
			m = probe_add_metric(g->ctx->res, "p2p_bidir_bw", UNIT_GB_S, BETTER_HIGHER,
					     desc, "engine", engine, "peer", peer, "part",
					     part[k + 1], "src", src, "dst", dst, NULL);
			gpu_samples_record(s, m, (k < 0 ? 2.0 : 1.0) * (double)g->size,
					   MEASURE_RATE, 1e-9, k);
		}
	}
	free(desc);
}

/* Notes a failure in extra.errors and clears it so the next measurement can
 * run; -1 when the devices no longer answer (a lost context fails every later
 * call) or too many failed. */
static int note_error(struct gp2p *g, const char *what)
{
	const struct gpu_backend *gpu = gpu_backend();
	char *msg = xasprintf("%s->%s %s: %s", g->a->name, g->b->name, what, gpu_last_error());

	gpu_extra_note(g->ctx->res, "errors", msg);
	if (!g->first_err)
		g->first_err = msg;
	else
		free(msg);
	gpu->clear_error();
	if (++g->n_err >= MAX_ERRORS || gpu->set_device(g->a->id) || gpu->device_sync() ||
	    gpu->set_device(g->b->id) || gpu->device_sync())
		return -1;
	gpu->clear_error();
	return 0;
}

/* Measures and records one variant for the pair (g->a, g->b): 0, or -1 to stop. */
static int run_variant(struct gp2p *g, const struct variant *v)
{
	struct gpu_samples s;

	memset(&s, 0, sizeof(s));
	g->v = v;
	g->issuer = v->pull || v->kind == K_CHASE ? g->b : g->a;
	progress("gpu.p2p: %s->%s %s", g->a->name, g->b->name, v->what);
	if (measure(g, &s)) {
		gpu_samples_free(&s);
		return note_error(g, v->what);
	}
	record(g, &s);
	gpu_samples_free(&s);
	return 0;
}

static int wanted(const struct gp2p *g, const struct variant *v)
{
	return (g->o->tests & v->tests) == v->tests && !(v->order == 1 && !g->have_local) &&
	       !(v->order == 2 && !g->stride_nodes);
}

/* Lets x map y's memory for the variants that need it: 0, or -1 to stop. */
static int enable(struct gp2p *g, struct gpu_peer_dev *x, struct gpu_peer_dev *y, unsigned need,
		  unsigned *on, unsigned *was)
{
	const struct gpu_backend *gpu = gpu_backend();
	int can = 0, was_on = 0;
	char buf[160];

	if (gpu->can_access_peer(x->id, y->id, &can))
		return note_error(g, gpu->names.can_access_peer);
	if (!can) {
		snprintf(buf, sizeof(buf), "%s cannot map %s's memory: its variants not measured",
			 x->name, y->name);
		gpu_extra_note(g->ctx->res, "without_peer_access", buf);
		return 0;
	}
	if (gpu->peer_enable(x->id, y->id, &was_on))
		return note_error(g, gpu->names.peer_enable);
	*on |= need;
	if (was_on) {
		*was |= need;
		snprintf(buf, sizeof(buf),
			 "%s->%s: peer access was on before the probe: "
			 "peer=disabled cells are not staged copies",
			 x->name, y->name);
		gpu_extra_note(g->ctx->res, "notes", buf);
	}
	return 0;
}

/* One ordered pair: staged paths with peer access off (the default in a fresh
 * process), then enabled in each direction a variant needs and the devices
 * allow, then disabled again, so every pair starts from the same state.
 * 0, or -1 to stop. */
static int run_pair(struct gp2p *g, struct gpu_peer_dev *a, struct gpu_peer_dev *b)
{
	const struct gpu_backend *gpu = gpu_backend();
	unsigned want = 0, on = 0, was = 0;
	int rc = 0;

	g->a = a;
	g->b = b;
	for (size_t i = 0; i < N_VARIANTS; i++) {
		if (!wanted(g, &variants[i]))
			continue;
		want |= variants[i].needs;
		if (!rc && !variants[i].needs)
			rc = run_variant(g, &variants[i]);
	}
	if (rc || !want)
		return rc;
	if ((want & NEED_AB) && enable(g, a, b, NEED_AB, &on, &was))
		rc = -1;
	if (!rc && (want & NEED_BA) && enable(g, b, a, NEED_BA, &on, &was))
		rc = -1;
	for (size_t i = 0; i < N_VARIANTS && !rc; i++)
		if (wanted(g, &variants[i]) && variants[i].needs &&
		    (variants[i].needs & on) == variants[i].needs)
			rc = run_variant(g, &variants[i]);
	/* Restore: off again unless it was on before we came. */
	if (gpu->set_device(a->id) || gpu->device_sync() || gpu->set_device(b->id) ||
	    gpu->device_sync() || ((on & ~was & NEED_AB) && gpu->peer_disable(a->id, b->id)) ||
	    ((on & ~was & NEED_BA) && gpu->peer_disable(b->id, a->id)))
		return note_error(g, "restoring peer access") ? -1 : rc;
	return rc;
}

/* The driver's answer per ordered pair, before any peer access is enabled. */
static int record_access(struct gp2p *g)
{
	const struct gpu_backend *gpu = gpu_backend();
	static const struct {
		const char *name;
		int attr;	  /* enum gpu_p2p_attr, or -1: can_access_peer */
		const char *desc; /* a format of the call's or attribute's name */
	} rows[] = {
		{"can_access_peer", -1, "%s: src can map dst's memory (topo -p2p)"},
		{"p2p_access_supported", GPU_P2P_ACCESS, "%s"},
		{"p2p_native_atomics", GPU_P2P_NATIVE_ATOMICS, "%s: all atomics"},
		{"p2p_perf_rank", GPU_P2P_PERF_RANK, "%s: relative, 0 = best link"},
	};
	char d[256];

	for (int i = 0; i < g->n; i++)
		for (int j = 0; j < g->n; j++)
			for (size_t r = 0; i != j && r < sizeof(rows) / sizeof(rows[0]); r++) {
				struct gpu_peer_dev *a = &g->devs[i], *b = &g->devs[j];
				int v = 0;

				g->a = a;
				g->b = b;
				if (rows[r].attr < 0
					    ? gpu->can_access_peer(a->id, b->id, &v)
					    : gpu->p2p_attr((enum gpu_p2p_attr)rows[r].attr, a->id,
							    b->id, &v)) {
					if (note_error(g, rows[r].name))
						return -1;
					continue;
				}
				snprintf(d, sizeof(d), rows[r].desc,
					 rows[r].attr < 0 ? gpu->names.can_access_peer
							  : gpu->names.p2p_attr[rows[r].attr]);
				metric_add_sample(probe_add_metric(g->ctx->res, rows[r].name,
								   UNIT_COUNT, BETTER_NONE, d,
								   "src", a->name, "dst", b->name,
								   NULL),
						  v);
				if (r == 0)
					gpu_peer_access_knob(g->ctx->res, a, b, v);
			}
	return 0;
}

static const char *gp2p_supported(const void *opts)
{
	const struct gp2p_opts *o = opts;
	static char why[OPT_STR_MAX + 64];
	const char *no = gpu_unsupported_reason();
	int ids[LIST_MAX], count;
	size_t n = 0;

	if (no)
		return no;
	count = gpu_backend()->count();
	if (count < 2) {
		snprintf(why, sizeof(why), "needs 2 GPUs, found %d", count);
		return why;
	}
	if (list_parse_devices(o->gpus, count, ids, &n) == 0 && n < 2) {
		snprintf(why, sizeof(why), "needs 2 GPUs, found %zu in gpus=%s", n, o->gpus);
		return why;
	}
	return NULL;
}

static int gp2p_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gp2p_opts *o = opts;
	struct gp2p g = {.ctx = ctx, .o = o};
	struct gpu_peer_layout layout;
	struct gpu_sampler *smp = NULL;
	int ids[LIST_MAX], rc = PROBE_OK, count = gpu->count();
	size_t n = 0;
	char buf[128];

	if (list_parse_devices(o->gpus, count, ids, &n)) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"bad gpus '%s': all, or distinct devices below %d", o->gpus,
					count);
		return PROBE_FAIL;
	}
	if (n < 2) {
		probe_result_set_status(ctx->res, STATUS_SKIP, "needs 2 GPUs, found %zu", n);
		return PROBE_SKIP;
	}
	g.n = (int)n;
	if (o->sm_unroll != 1 && o->sm_unroll != 2 && o->sm_unroll != 4 && o->sm_unroll != 8) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "sm_unroll must be 1, 2, 4 or 8");
		return PROBE_FAIL;
	}
	if (o->size_bytes < 4096 || o->steps == 0 ||
	    ((o->tests & TB(T_LATENCY)) &&
	     (o->chase_bytes < 4 * NODE_BYTES || o->chase_bytes / NODE_BYTES > (1ull << 31) ||
	      o->stride_bytes / NODE_BYTES > (1ull << 31)))) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"size must be >= 4K, steps > 0, chase 512 .. 256G, "
					"stride_chase below 256G");
		return PROBE_FAIL;
	}
	g.size = (o->size_bytes + 4095) / 4096 * 4096; /* whole 16 B copy units */
	g.nodes = o->chase_bytes / NODE_BYTES;
	g.stride_nodes = (o->tests & TB(T_LATENCY)) ? o->stride_bytes / NODE_BYTES : 0;
	g.have_local = g.nodes * NODE_BYTES > GROUP_BYTES;
	layout = (struct gpu_peer_layout){.size = g.size,
					  .nodes = (o->tests & TB(T_LATENCY)) ? g.nodes : 0,
					  .local = g.have_local,
					  .stride_nodes = g.stride_nodes,
					  .sm_blocks = o->sm_blocks,
					  .sm_unroll = o->sm_unroll};
	g.devs = xcalloc((size_t)g.n, sizeof(*g.devs));
	for (int i = 0; i < g.n; i++) {
		g.devs[i].id = ids[i];
		snprintf(g.devs[i].name, sizeof(g.devs[i].name), "%d", ids[i]);
	}
	opt_format_size(g.size, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "copy_bytes", buf);
	snprintf(buf, sizeof(buf), "%d GPUs, %d ordered pairs", g.n, g.n * (g.n - 1));
	probe_result_add_param(ctx->res, "pairs", buf);
	gpu_param(ctx->res, "timing", "%s, issuing stream gated behind a spin kernel",
		  gpu->names.events);
	snprintf(buf, sizeof(buf), "16 B loads and stores, %s, %u in flight per thread",
		 o->sm_blocks ? "sm_blocks x 512 threads per SM" : "every SM at full occupancy",
		 (unsigned)o->sm_unroll);
	probe_result_add_param(ctx->res, "sm_copy", buf);
	if (o->tests & TB(T_STAGED))
		probe_result_add_param(ctx->res, "staged_timing",
				       "gated, at most 4 copies (100 small ones) behind a gate");
	json_object_set_new(gpu_extra(ctx->res), "devices", json_array());

	smp = gpu->sampler_start(100);
	for (int i = 0; i < g.n && rc == PROBE_OK; i++) {
		int r = gpu_peer_setup(&g.devs[i], &layout, ctx->res);

		if (r == -1)
			rc = gpu_fail(ctx->res, "gpu.p2p setup");
		else if (r == -2)
			rc = PROBE_SKIP;
	}
	if (rc != PROBE_OK)
		goto out;
	if ((o->tests & TB(T_ACCESS)) && record_access(&g))
		goto done;
	for (int i = 0; i < g.n; i++)
		for (int j = 0; j < g.n; j++)
			if (i != j && run_pair(&g, &g.devs[i], &g.devs[j]))
				goto done;
done:
	if (g.n_err) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"%u measurement%s failed%s; first: %s", g.n_err,
					g.n_err > 1 ? "s" : "",
					g.n_err >= MAX_ERRORS ? " (stopped)" : "", g.first_err);
		rc = PROBE_FAIL;
	}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	for (int i = 0; i < g.n; i++)
		gpu_peer_free(&g.devs[i]);
	free(g.devs);
	free(g.first_err);
	return rc;
}

const struct probe probe_gpu_p2p = {
	.name = "gpu.p2p",
	.summary = "every ordered GPU pair: peer access facts, CE and SM copies (read, write, "
		   "staged), bidirectional, chase and 4 B copy latency; as matrices",
	.flags = PROBE_P2P,
	.opts = gp2p_opt_rows,
	.opts_size = sizeof(struct gp2p_opts),
	.quick_opts = "size=64M chase=64M steps=4096",
	.timeout_s = 1800,
	.supported = gp2p_supported,
	.run = gp2p_run,
};
