/* gpu_copy.c - gpu.copy
 * measures: host<->device copy bandwidth (cudaMemcpyAsync) from pinned (cudaHostAlloc),
 *   pageable (plain mmap) and registered (cudaHostRegister) host memory, sizes swept, H2D, D2H
 *   and both at once on two streams; and the same copies driven by the SMs (our copy kernel
 *   reading or writing host memory through its device mapping: nvbandwidth's _sm tests).
 * method: nvbandwidth's: each stream is held behind a spin kernel waiting on a host-mapped flag
 *   while warm-ups and the timed copies are queued, then released by one host store; CUDA
 *   events; streams of a bidirectional pair start together; the destination is poisoned before
 *   and checked after every sample (a host destination: every word in a measurement's first
 *   sample, then one word in each 4 KiB page); host memory on the GPU's NUMA node.
 * why this way: queuing and launch cost never enter the time; pageable copies are staged by the
 *   driver through the calling thread, so they cannot be queued behind a gate (the host would
 *   block): they are timed ungated with events, and have no bidirectional variant. SM copies
 *   need host memory the device can address (pinned, registered), every SM at full occupancy
 *   for the requests in flight a PCIe round trip needs; they are sm_copy_bw, not copy_bw, so
 *   the copy-engine figures keep their names.
 * cross-check: tools/gpu_crosscheck.cu (pinned cudaMemcpy with events), nvbandwidth
 *   host_to_device_memcpy_ce / device_to_host_memcpy_ce (and _sm for sm_copy_bw): medians
 *   should agree within a few %.
 */
#include <inttypes.h>
#include <numa.h>
#include <stdio.h>
#include <string.h>

#include "base/list.h"
#include "base/opt.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "kit/gpu_kit.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "machine/pcie_cfg.h"
#include "results/results.h"

struct gcopy_opts {
	char sizes[OPT_STR_MAX];
	uint32_t mems;
	uint32_t dirs;
	uint32_t engines;
	uint64_t link_min;
};

static const struct opt gcopy_opt_rows[] = {
	OPT_STR_CHECK("sizes", struct gcopy_opts, sizes, "64K,1M,16M,256M,512M",
		      "bytes per copy (512M: nvbandwidth's size)", list_check_sizes, NULL),
	OPT_LIST("mems", struct gcopy_opts, mems, "pinned|pageable|registered", "pinned,pageable",
		 "host memory kinds (registered: mmap'd memory registered with the device, which "
		 "copies as pinned memory does: the full suite adds it)"),
	OPT_LIST("dirs", struct gcopy_opts, dirs, "h2d|d2h|bidir", "all",
		 "directions (bidir: H2D and D2H at once on two streams)"),
	OPT_LIST("engines", struct gcopy_opts, engines, "ce|sm", "all",
		 "who copies: ce (the API's asynchronous copy: the copy engines) or sm (our copy "
		 "kernel over "
		 "the host memory's device mapping; pinned and registered, h2d and d2h)"),
	OPT_SIZE("link_min", struct gcopy_opts, link_min, "512M",
		 "pinned copies one way of at least this size sample the link receipt's "
		 "windows (400 ms); smaller ones the probe's, their receipt unknown (0: all; "
		 "512M: the size the references judge)"),
	OPT_END,
};

enum { M_PINNED, M_PAGEABLE, M_REGISTERED, M_N };
enum { D_H2D, D_D2H, D_BIDIR, D_N };
enum { E_CE, E_SM, E_N };
static const char *const mem_name[M_N] = {"pinned", "pageable", "registered"};
static const char *const dir_name[D_N] = {"h2d", "d2h", "bidir"};

#define SEED_H2D 0xc0de1
#define SEED_D2H 0xc0de2

#define HOST_THREADS_MAX 32

struct gcopy {
	void *h_src, *h_dst;   /* host: H2D source, D2H destination */
	void *d_dst, *d_src;   /* device: H2D destination, D2H source */
	void *hd_src, *hd_dst; /* the host buffers as the device addresses them (SM copies) */
	struct mem_buf mb_src, mb_dst;
	struct gpu_grid grid; /* SM copies: every SM at full occupancy */
	size_t size, link_min;
	int dir, engine;
	/* the host's share of a sample (zeroing and checking the D2H
	 * destination, 0.25 s a sample at 512M on one thread) and filling the
	 * H2D source, split over the CPUs of the GPU's node */
	struct team *team;
	int op; /* HOST_ZERO, HOST_CHECK, HOST_FILL */
	/* D2H samples poison and check every word of the destination in the
	 * first sample of a measurement, then one word in each 4 KiB page at
	 * a phase that moves each sample: a copy that did not land, or landed
	 * short, still shows in every sample, without the two passes over the
	 * buffer a sample (0.25 s at 512M on one thread) */
	int sparse;
	size_t phase;
	unsigned checked;		/* D2H samples checked in this measurement */
	uint64_t bad[HOST_THREADS_MAX]; /* HOST_CHECK: words wrong, per thread */
};

enum { HOST_ZERO, HOST_CHECK, HOST_FILL };
#define PAGE_WORDS    512	 /* 8 B words in 4 KiB */
#define HOST_TEAM_MIN (8u << 20) /* smaller copies: one thread does it */

/* thread tid's slice of the first c->size bytes of the D2H destination
 * (zeroed or checked: every word, or with c->sparse one word in each 4 KiB
 * page, the one at c->phase) or of the H2D source (filled) */
static void host_share(unsigned tid, unsigned n, void *arg)
{
	struct gcopy *c = arg;
	size_t words = c->size / 8, a = words * tid / n, b = words * (tid + 1) / n;
	size_t step = c->sparse ? PAGE_WORDS : 1;
	uint64_t *w = c->h_dst, bad = 0;

	if (c->op == HOST_FILL) {
		for (size_t i = a; i < b; i++)
			((uint64_t *)c->h_src)[i] = gpu_pattern_word(SEED_H2D, i);
		return;
	}
	if (c->sparse) /* the first word of the slice at the phase */
		a += (c->phase + PAGE_WORDS - a % PAGE_WORDS) % PAGE_WORDS;
	if (c->op == HOST_ZERO) {
		if (!c->sparse)
			memset(w + a, 0, (b - a) * 8);
		else
			for (size_t i = a; i < b; i += step)
				w[i] = 0;
		return;
	}
	for (size_t i = a; i < b; i += step)
		bad += w[i] != gpu_pattern_word(SEED_D2H, i);
	c->bad[tid] = bad;
}

/* runs op over c->size bytes; HOST_CHECK: the words wrong */
static uint64_t host_pass(struct gcopy *c, int op)
{
	unsigned n = c->team && c->size >= HOST_TEAM_MIN ? team_size(c->team) : 1;
	uint64_t bad = 0;

	c->op = op;
	if (n > 1)
		team_run(c->team, host_share, c);
	else
		host_share(0, 1, c);
	for (unsigned k = 0; op == HOST_CHECK && k < n; k++)
		bad += c->bad[k];
	return bad;
}

/* Stream k of a bidirectional pair: 0 is H2D, 1 is D2H. */
static int enqueue(void *arg, unsigned k, struct gpu_stream *s, uint64_t iters)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gcopy *c = arg;
	int h2d = c->dir == D_H2D || (c->dir == D_BIDIR && k == 0);

	for (uint64_t i = 0; i < iters; i++) {
		int rc;

		if (c->engine == E_SM)
			rc = GPU_CHECK(
				h2d ? gpu->launch_copy(c->d_dst, c->hd_src, c->size, &c->grid, s)
				    : gpu->launch_copy(c->hd_dst, c->d_src, c->size, &c->grid, s));
		else
			rc = h2d ? gpu->memcpy_async(c->d_dst, c->h_src, c->size, s)
				 : gpu->memcpy_async(c->h_dst, c->d_src, c->size, s);
		if (rc)
			return -1;
	}
	return 0;
}

static int before(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gcopy *c = arg;

	if (c->dir != D_D2H &&
	    (gpu->memset_async(c->d_dst, 0, c->size, NULL) || gpu->device_sync()))
		return -1;
	if (c->dir != D_H2D) {
		c->sparse = c->checked > 0;
		c->phase = (size_t)c->checked * 67 % PAGE_WORDS;
		host_pass(c, HOST_ZERO);
	}
	return 0;
}

static int check(void *arg)
{
	const struct gpu_backend *gpu = gpu_backend();
	struct gcopy *c = arg;
	uint64_t bad = 0;

	if (c->dir != D_D2H) {
		if (gpu->pattern_verify(c->d_dst, c->size, SEED_H2D, &bad))
			return -1;
		if (bad)
			return gpu_error("h2d copy of %zu bytes: %" PRIu64 " words wrong", c->size,
					 bad);
	}
	if (c->dir != D_H2D) {
		bad = host_pass(c, HOST_CHECK);
		c->checked++;
		if (bad)
			return gpu_error(
				"d2h copy of %zu bytes: %" PRIu64 " words wrong (sample %u, %s)",
				c->size, bad, c->checked,
				c->sparse ? "one word a 4 KiB page checked" : "every word checked");
	}
	return 0;
}

static int host_alloc(struct gcopy *c, int mem, size_t bytes)
{
	const struct gpu_backend *gpu = gpu_backend();

	memset(&c->mb_src, 0, sizeof(c->mb_src));
	memset(&c->mb_dst, 0, sizeof(c->mb_dst));
	if (mem == M_PINNED) {
		if (gpu->malloc_host(&c->h_src, bytes, 0) || gpu->malloc_host(&c->h_dst, bytes, 0))
			return -1;
	} else {
		if (mem_map(&c->mb_src, bytes, MEM_PAGES_4K, 0) ||
		    mem_map(&c->mb_dst, bytes, MEM_PAGES_4K, 0))
			return gpu_error("cannot map 2 x %zu bytes of host memory", bytes);
		c->h_src = c->mb_src.addr;
		c->h_dst = c->mb_dst.addr;
		memset(c->h_dst, 0, bytes); /* first touch outside any timing */
		if (mem == M_REGISTERED &&
		    (gpu->host_register(c->h_src, bytes) || gpu->host_register(c->h_dst, bytes)))
			return -1;
	}
	c->size = bytes;
	host_pass(c, HOST_FILL);
	c->hd_src = c->hd_dst = NULL;
	if (mem != M_PAGEABLE && (gpu->host_device_ptr(c->h_src, &c->hd_src) ||
				  gpu->host_device_ptr(c->h_dst, &c->hd_dst)))
		return -1;
	return 0;
}

static void host_free(struct gcopy *c, int mem)
{
	const struct gpu_backend *gpu = gpu_backend();

	if (mem == M_PINNED) {
		gpu->free_host(c->h_src);
		gpu->free_host(c->h_dst);
	} else {
		if (mem == M_REGISTERED) {
			if (c->h_src)
				gpu->host_unregister(c->h_src);
			if (c->h_dst)
				gpu->host_unregister(c->h_dst);
		}
		if (c->mb_src.map_addr)
			mem_unmap(&c->mb_src);
		if (c->mb_dst.map_addr)
			mem_unmap(&c->mb_dst);
	}
	c->h_src = c->h_dst = NULL;
}

static int measure(struct probe_ctx *ctx, struct gcopy *c, int mem)
{
	struct gpu_work w = {.enqueue = enqueue,
			     .before = before,
			     .check = check,
			     .arg = c,
			     .n_streams = c->dir == D_BIDIR ? 2 : 1,
			     .gated = mem != M_PAGEABLE,
			     .max_batch = 64,
			     .max_iters = 200000};
	struct gpu_samples s;
	struct metric *m;
	char sz[32];
	const struct gpu_names *nm = &gpu_backend()->names;
	char desc[512];

	opt_format_size(c->size, sz, sizeof(sz));
	progress("gpu.copy: %s %s %s%s", mem_name[mem], dir_name[c->dir], sz,
		 c->engine == E_SM ? " (SM)" : "");
	/* a pinned copy one way is held to the link's bytes (its receipt): its
	 * counted windows long enough for the counter's step at the sizes
	 * link_min names, unless --window-ms said; calibration and warm-ups
	 * stay short (gpu_work.sample_ns) */
	if (mem == M_PINNED && c->dir != D_BIDIR && !ctx->window_given && c->size >= c->link_min)
		w.sample_ns = (uint64_t)(RECEIPT_LINK_WINDOW_MS * 1e6);
	c->checked = 0;
	if (gpu_measure(ctx, &w, &s))
		return -1;
	if (c->engine == E_SM) {
		snprintf(desc, sizeof(desc),
			 "bytes copied once (GB = 1e9); own SM copy kernel (16 B loads "
			 "and stores, every SM at full occupancy) over the host memory's "
			 "device mapping; %s, streams held behind a spin kernel",
			 nm->events);
		m = probe_add_metric(ctx->res, "sm_copy_bw", UNIT_GB_S, BETTER_HIGHER, desc, "mem",
				     mem_name[mem], "dir", dir_name[c->dir], "size", sz, NULL);
		gpu_samples_record(&s, m, (double)c->size, MEASURE_RATE, 1e-9, -1);
		gpu_samples_free(&s);
		return 0;
	}
	if (mem == M_PAGEABLE)
		snprintf(desc, sizeof(desc),
			 "bytes copied once per direction (GB = 1e9); %s "
			 "from/to pageable memory, driver-staged; %s, ungated",
			 nm->memcpy_async, nm->events);
	else
		snprintf(desc, sizeof(desc),
			 "bytes copied once per direction (GB = 1e9); %s; "
			 "%s, streams held behind a spin kernel while queued",
			 nm->memcpy_async, nm->events);
	m = probe_add_metric(ctx->res, "copy_bw", UNIT_GB_S, BETTER_HIGHER,
			     c->dir == D_BIDIR ? "H2D + D2H bytes over the pair's span (first "
						 "start to last end), GB = 1e9; gated, events"
					       : desc,
			     "mem", mem_name[mem], "dir", dir_name[c->dir], "size", sz, NULL);
	gpu_samples_record(&s, m, (c->dir == D_BIDIR ? 2.0 : 1.0) * (double)c->size, MEASURE_RATE,
			   1e-9, -1);
	for (unsigned k = 0; c->dir == D_BIDIR && k < 2; k++) {
		m = probe_add_metric(
			ctx->res, "copy_bw", UNIT_GB_S, BETTER_HIGHER,
			"one direction of the simultaneous pair, over its own stream's "
			"span, GB = 1e9",
			"mem", mem_name[mem], "dir", k ? "bidir_d2h" : "bidir_h2d", "size", sz,
			NULL);
		gpu_samples_record(&s, m, (double)c->size, MEASURE_RATE, 1e-9, (int)k);
	}
	gpu_samples_free(&s);
	return 0;
}

/* The link's bytes per byte copied, for the link receipt: a copy to the
 * device is the GPU reading host memory, whose data comes back in
 * completions of up to Max_Payload_Size bytes, each with a 3-DW header
 * (12 B), the framing token and the LCRC (4 B each): 20 B; a copy to the
 * host is the GPU's posted writes, a 4-DW header (64-bit addresses): 24 B.
 * On the H200 machine (256 B payloads) the throughput counter read 1.077x
 * and 1.092x nvbandwidth's bytes (docs/results/receipts-h200-2026-12-01/
 * link.md), where these give 1.078 and 1.094. The SM copy kernel's requests
 * are its 16 B accesses gathered a 128 B line at a time, so its TLPs carry
 * 128 B (or Max_Payload_Size, if smaller): on the H200 on 2026-12-02 its link
 * bytes read 1.077x (H2D) and 1.090x (D2H) the 256 B framing at 1 MiB
 * (docs/results/judged-h200-2026-12-02.md), where 128 B payloads give 1.072x
 * and 1.086x of it. */
static void link_framing(struct probe_ctx *ctx, const char *bdf)
{
	static const struct {
		const char *key;
		int cap;     /* the payload's most (0: Max_Payload_Size) */
		double head; /* a TLP's bytes besides its payload */
	} tlp[] = {
		{"link_tlp_rx", 0, 20},
		{"link_tlp_tx", 0, 24},
		{"link_tlp_rx_sm", 128, 20},
		{"link_tlp_tx_sm", 128, 24},
	};
	int mps = pcie_device_max_payload("/sys", bdf);
	char buf[32];

	if (mps <= 0) {
		probe_result_add_param(ctx->res, "pcie_max_payload",
				       "unknown (the GPU's config space was not read)");
		return;
	}
	snprintf(buf, sizeof(buf), "%d", mps);
	probe_result_add_param(ctx->res, "pcie_max_payload", buf);
	for (size_t i = 0; i < sizeof(tlp) / sizeof(tlp[0]); i++) {
		int pay = tlp[i].cap && tlp[i].cap < mps ? tlp[i].cap : mps;

		snprintf(buf, sizeof(buf), "%.4f", (pay + tlp[i].head) / pay);
		probe_result_add_param(ctx->res, tlp[i].key, buf);
	}
}

static int gcopy_run(struct probe_ctx *ctx, const void *opts)
{
	const struct gpu_backend *gpu = gpu_backend();
	const struct gcopy_opts *o = opts;
	struct gcopy c = {0};
	struct gpu_props props;
	uint64_t sizes[LIST_MAX], max = 0;
	size_t n;
	struct gpu_sampler *smp;
	int rc = PROBE_OK;
	char buf[64];

	if (list_parse_sizes(o->sizes, sizes, &n)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad sizes list '%s'", o->sizes);
		return PROBE_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		sizes[i] = (sizes[i] + 7) / 8 * 8;
		max = sizes[i] > max ? sizes[i] : max;
	}
	if (gpu->get_props(0, &props))
		return gpu_fail(ctx->res, "gpu.copy setup");
	if (mem_check_size(size_mul(2, max), ctx->force,
			   "gpu.copy host buffers (2 x largest size)")) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"2 x %" PRIu64 " bytes exceed 80%% of MemAvailable", max);
		return PROBE_FAIL;
	}
	/* Host memory on the GPU's node: run there and prefer it for allocations. */
	if (numa_available() >= 0 && props.host_numa_node >= 0) {
		numa_run_on_node(props.host_numa_node);
		numa_set_preferred(props.host_numa_node);
	}
	/* after the move: the team's threads on the node's CPUs */
	{
		unsigned nt = team_online_cpus();

		nt = nt > HOST_THREADS_MAX ? HOST_THREADS_MAX : nt;
		c.team = nt > 1 ? team_start(nt, NULL) : NULL;
		snprintf(buf, sizeof(buf), "%u thread%s (copies of 8M and more)", c.team ? nt : 1,
			 c.team && nt > 1 ? "s" : "");
		probe_result_add_param(ctx->res, "host_check_threads", buf);
	}
	snprintf(buf, sizeof(buf), "%d (of %d nodes)", props.host_numa_node,
		 numa_available() >= 0 ? numa_num_configured_nodes() : 1);
	probe_result_add_param(ctx->res, "host_numa_node", buf);
	probe_result_add_param(ctx->res, "gpu", props.name);
	link_framing(ctx, props.pci_bus_id);
	c.link_min = o->link_min;
	if (!ctx->window_given) {
		char lw[200], lm[32];
		opt_format_size(o->link_min, lm, sizeof(lm));
		snprintf(lw, sizeof(lw),
			 "%.0f ms (pinned copies one way of %s or more: the link counter's "
			 "%d ms step / the link receipt's %.0f%%)",
			 RECEIPT_LINK_WINDOW_MS, lm, RECEIPT_LINK_STEP_MS,
			 100 * RECEIPT_LINK_TOLERANCE);
		probe_result_add_param(ctx->res, "link_window", lw);
	}
	probe_result_add_param(ctx->res, "pageable_pages", "4k (MADV_NOHUGEPAGE)");
	if (o->mems & (1u << M_PAGEABLE))
		probe_result_add_param(ctx->res, "pageable_bidir",
				       "not measured: pageable copies block the calling thread");
	if (o->engines & (1u << E_SM))
		probe_result_add_param(ctx->res, "sm_copies",
				       "pinned and registered, h2d and d2h (pageable memory has no "
				       "device mapping; no bidirectional pair)");
	/* SM copies: every SM at full occupancy (gpu.p2p's SM copy shape). */
	c.grid = (struct gpu_grid){(unsigned)props.sm_count *
					   (unsigned)(props.max_threads_per_sm >= 1024
							      ? props.max_threads_per_sm / 512
							      : 1),
				   512, 4};

	smp = gpu->sampler_start(100);
	if (gpu->malloc(&c.d_dst, max) || gpu->malloc(&c.d_src, max) ||
	    gpu->pattern_fill(c.d_src, max, SEED_D2H, NULL)) {
		rc = gpu_fail(ctx->res, "gpu.copy setup");
		goto out;
	}
	for (int mem = 0; mem < M_N; mem++) {
		if (!(o->mems & (1u << mem)))
			continue;
		if (host_alloc(&c, mem, max)) {
			host_free(&c, mem);
			rc = gpu_fail(ctx->res, mem_name[mem]);
			goto out;
		}
		for (int d = 0; d < D_N; d++) {
			if (!(o->dirs & (1u << d)) || (d == D_BIDIR && mem == M_PAGEABLE))
				continue;
			c.dir = d;
			for (int e = 0; e < E_N; e++) {
				if (!(o->engines & (1u << e)) ||
				    (e == E_SM && (mem == M_PAGEABLE || d == D_BIDIR)))
					continue;
				c.engine = e;
				for (size_t i = 0; i < n; i++) {
					c.size = sizes[i];
					if (measure(ctx, &c, mem)) {
						host_free(&c, mem);
						rc = gpu_fail(ctx->res, mem_name[mem]);
						goto out;
					}
				}
			}
		}
		host_free(&c, mem);
	}
out:
	gpu->sampler_stop(smp, ctx->res, "probe");
	gpu->free(c.d_dst);
	gpu->free(c.d_src);
	if (c.team)
		team_stop(c.team);
	return rc;
}

/* What its figures assume (kit/receipts.h): a pinned copy one way by the
 * copy engines put its bytes on the PCIe link, no more and no fewer: the
 * link's bytes are the payload and each full TLP's overhead (link_framing).
 * An SM copy's bytes crossed the link (no fewer: none came from the GPU's
 * caches), its TLPs 128 B lines or smaller: on the H200 on 2026-12-03 its
 * link bytes were 0.990x (H2D) and 1.010x (D2H) the 128 B framing at 1 MiB,
 * but 1.13-1.34x it at 64-512 MiB, varying from window to window by 10-75%
 * (docs/results/receipts-sm-h200-2026-12-03.md), so only the floor holds. */
#define GCOPY_LINK(m, d, framing, counter, k)                                                 \
	{                                                                                     \
		.metric = m, .label = "dir", .value = d, .label2 = "mem", .value2 = "pinned", \
		.kind = k, .size = framing, .thp = counter                                    \
	}
static const struct receipt gcopy_receipts[] = {
	GCOPY_LINK("copy_bw", "h2d", "link_tlp_rx", "pcie_rx_link_bytes", RECEIPT_LINK),
	GCOPY_LINK("copy_bw", "d2h", "link_tlp_tx", "pcie_tx_link_bytes", RECEIPT_LINK),
	GCOPY_LINK("sm_copy_bw", "h2d", "link_tlp_rx_sm", "pcie_rx_link_bytes", RECEIPT_LINK_FLOOR),
	GCOPY_LINK("sm_copy_bw", "d2h", "link_tlp_tx_sm", "pcie_tx_link_bytes", RECEIPT_LINK_FLOOR),
	{0},
};

const struct probe probe_gpu_copy = {
	.name = "gpu.copy",
	.summary = "host<->device copies: pinned, pageable (registered in the full suite); H2D, "
		   "D2H, both at once; copy engines and SM copies; nvbandwidth-style gated timing",
	.flags = PROBE_GPU | PROBE_QUICK,
	.opts = gcopy_opt_rows,
	.opts_size = sizeof(struct gcopy_opts),
	.quick_opts = "sizes=1M,64M",
	.full_opts = "mems=pinned,pageable,registered",
	.quick_note = "1 MiB and 64 MiB copies: the PCIe references (512 MiB, nvbandwidth's "
		      "buffer) and bands (256 MiB) judge none of them",
	.timeout_s = 600,
	.typical_s = {2.6, 30.6}, /* docs/design.md §2.8 */
	.run = gcopy_run,
	.receipts = gcopy_receipts,
};
