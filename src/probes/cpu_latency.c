/* cpu_latency.c - cpu.latency
 * measures: dependent-load latency (ns per load) from 4 KiB to a capped maximum, per page size
 *   and chase order; the translation cost (random minus page-local order over the same nodes),
 *   the THP saving (4 KiB minus THP pages, same chain), and whether the two agree.
 * method: the curve: one 8 B pointer per 64 B line, all lines in one random cycle (Sattolo).
 *   Above one group, a pair over the same nodes, one per `stride` bytes (256: a hashed line in
 *   each 256 B, mem_node_offset): order=random through all of them, and order=local, random
 *   within 256 KiB groups visited in random order (multichase's chase); one pinned thread.
 *   Before each chain is timed the thread makes its translations present (page passes,
 *   recorded in extra.page_pass; docs/design.md §8.3).
 * why this way: one dependent chain is latency, not bandwidth or MLP (docs/design.md §4.11).
 *   With a node in every 64 B line the local order read half its loads from L2: the line next
 *   to a miss comes in with it (adjacent-line prefetch) and the group visits it soon after, a
 *   gain the random order never sees. With one node per 256 B no neighbour line is ever in the
 *   chain, so the pair differs in translation reach alone (docs/design.md §4.2, §8.3); where THP
 *   backs the buffer, translation_cost is checked against thp_saving and a gap is decomposed.
 * cross-check: multichase -m SIZE -s 64 -T SIZE (random, the curve; -H for THP) and multichase
 *   -m SIZE -s 256 -T 256k (its default: the local order) on the same host (tools/bench.sh);
 *   lmbench lat_mem_rd gives the random curve; the knee should match mem_cache_knee_bytes(). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/util.h"
#include "kit/measure.h"
#include "kit/pages.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "results/results.h"

struct latency_opts {
	uint64_t min_bytes, max_bytes, group_bytes, stride_bytes;
	uint64_t steps;
	char sizes[OPT_STR_MAX];
	char pages[OPT_STR_MAX];
	uint32_t order;
};

static const struct opt latency_opt_rows[] = {
	OPT_SIZE("min", struct latency_opts, min_bytes, "4K", "smallest size of the sweep"),
	OPT_SIZE("max", struct latency_opts, max_bytes, "1G",
		 "largest size of the sweep (capped at 40% of MemAvailable: the chain tables need "
		 "25% more)"),
	OPT_UINT("steps", struct latency_opts, steps, "2",
		 "sizes per doubling in the sweep (1: powers of two, 2: adds 1.5x, ...)"),
	OPT_STR("sizes", struct latency_opts, sizes, "sweep",
		"explicit size list (16K,4M,256M) instead of the min..max sweep"),
	OPT_STR_CHECK("pages", struct latency_opts, pages, "4k,thp",
		      "page sizes: 4k (MADV_NOHUGEPAGE), thp (MADV_HUGEPAGE), each mTHP size "
		      "the kernel offers (alone, as root), hugetlb-2m, hugetlb-1g, or all",
		      pagesize_check, PAGESIZE_HINT),
	OPT_LIST("order", struct latency_opts, order, "random|local", "random,local",
		 "random: the curve over every line; local: random within groups, groups in "
		 "random order, measured beside a random chain over the same nodes"),
	OPT_SIZE("group", struct latency_opts, group_bytes, "256K",
		 "group size of order=local (multichase's default 256K: 64 4 KiB pages)"),
	OPT_SIZE("stride", struct latency_opts, stride_bytes, "256",
		 "bytes per node of the local/random pair (a power of two, 64..4096): one line "
		 "in each, so no line next to a node is in the chain (multichase's default 256)"),
	OPT_END,
};

#define LINE_BYTES     64
#define CHASE_UNROLL   16
#define MAX_SIZES      128
#define KNEE_MIN_SIZES 6
enum { O_RANDOM, O_LOCAL, O_N };
static const char *const order_name[O_N] = {"random", "local"};
/* The chains measured at one size: the curve (random, every line), and the
 * pair whose difference is translation (random and local over one node per
 * stride). With stride 64 the pair's random chain is the curve's. */
enum { C_CURVE, C_RANDOM, C_LOCAL, C_N };

struct chase_job {
	struct team *team;
	void **cur;
	uint64_t iters;
	json_t *passes; /* the page passes before each chain (extra.page_pass) */
};

static volatile uintptr_t chase_sink;

/* The chase itself: every load depends on the one before, so the time per
 * load is the latency of wherever the line lives. */
static void chase_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct chase_job *j = arg;
	void **p = j->cur;

	for (uint64_t i = 0; i < j->iters; i++) {
#pragma GCC unroll 16
		for (int k = 0; k < CHASE_UNROLL; k++)
			p = (void **)*p;
	}
	j->cur = p;
}

/* measure_op callback: iters x CHASE_UNROLL loads on the pinned thread,
 * continuing from where the last call stopped. */
static int chase_op(void *arg, uint64_t iters)
{
	struct chase_job *j = arg;

	j->iters = iters;
	team_run(j->team, chase_thread, j);
	chase_sink = (uintptr_t)j->cur;
	return 0;
}

/* The page passes on the chasing thread (measure_page_passes). */
struct page_pass_job {
	const char *base;
	size_t bytes;
	struct page_passes out;
};

static void page_pass_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct page_pass_job *pp = arg;

	measure_page_passes(pp->base, pp->bytes, &pp->out);
}

/* First touch from the pinned thread, so pages are faulted where it runs. */
static void touch_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct mem_buf *b = arg;

	memset(b->addr, 0, b->size_bytes);
}

/* Links the chain of kind c over size bytes at base; returns its first node. */
static void **build_chain(char *base, size_t size, const struct latency_opts *o, int c)
{
	uint64_t stride = c == C_CURVE ? LINE_BYTES : o->stride_bytes, seed = 0x6c6174ull ^ size;
	size_t n = size / stride;
	uint64_t *tab = xmalloc(n * sizeof(*tab));

	if (stride == LINE_BYTES && c != C_LOCAL) {
		/* The cycle's next-index table links lines directly: writes stay
		 * sequential, so building 1 GiB takes a second, not ten. */
		mem_random_cycle(tab, n, seed);
		for (size_t i = 0; i < n; i++)
			*(void **)(base + i * LINE_BYTES) = base + tab[i] * LINE_BYTES;
		free(tab);
		return (void **)base;
	}
	mem_chase_order(tab, n, c == C_LOCAL ? MEM_ORDER_LOCAL : MEM_ORDER_RANDOM,
			o->group_bytes / stride, seed);
	for (size_t i = 0; i < n; i++)
		*(void **)(base + mem_node_offset(tab[i], stride, seed)) =
			base + mem_node_offset(tab[(i + 1) % n], stride, seed);
	n = mem_node_offset(tab[0], stride, seed);
	free(tab);
	return (void **)(base + n);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Plateaus of the random curve: runs of sizes whose latency stays within 20%
 * of the run's first point. Recorded as [{from, to, ns}] for the report. */
static json_t *find_plateaus(const uint64_t *sizes, const double *ns, size_t n)
{
	json_t *arr = json_array();
	size_t i = 0;

	while (i < n) {
		size_t k = i;

		while (k + 1 < n && ns[k + 1] <= ns[i] * 1.2 && ns[k + 1] >= ns[i] / 1.2)
			k++;
		if (k > i) {
			json_t *o = json_object();

			json_object_set_new(o, "from_bytes", json_integer((json_int_t)sizes[i]));
			json_object_set_new(o, "to_bytes", json_integer((json_int_t)sizes[k]));
			json_object_set_new(o, "ns", json_real(stats_median(ns + i, k - i + 1)));
			json_array_append_new(arr, o);
		}
		i = k + 1;
	}
	return arr;
}

/* Pairwise (by sample index) difference a - b of two metrics into m. */
static void add_difference(struct probe_ctx *ctx, struct metric *m, size_t ia, size_t ib)
{
	const struct metric *a = &ctx->res->metrics[ia], *b = &ctx->res->metrics[ib];
	size_t n = a->n_samples < b->n_samples ? a->n_samples : b->n_samples;

	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, a->samples[i] - b->samples[i]);
}

/* random - local over the same nodes, sample i minus sample i: only the
 * order differs, so what is left is translation reach. */
static void add_translation_cost(struct probe_ctx *ctx, size_t i_random, size_t i_local,
				 const char *size_label, const char *pname, const char *stride)
{
	char *desc = xasprintf("ns per dependent load, order=random minus order=local over the "
			       "same nodes (one 64 B line per %s B), sample i minus sample i",
			       stride);
	struct metric *m = probe_add_metric(ctx->res, "translation_cost", UNIT_NS, BETTER_LOWER,
					    desc, "size", size_label, "pages", pname, NULL);

	add_difference(ctx, m, i_random, i_local);
	free(desc);
}

/* 4k - thp for one random chain: only the page size differs (nodes, order
 * and size held), so this is the translation cost huge pages remove. */
static void add_thp_saving(struct probe_ctx *ctx, size_t i_4k, size_t i_thp, uint64_t size,
			   const char *stride)
{
	char size_label[32];

	opt_format_size(size, size_label, sizeof(size_label));
	add_difference(ctx,
		       probe_add_metric(ctx->res, "thp_saving", UNIT_NS, BETTER_NONE,
					"ns per dependent load (order=random), pages=4k minus "
					"pages=thp at the same size and nodes, sample i minus "
					"sample i",
					"size", size_label, "order", "random", "stride_bytes",
					stride, NULL),
		       i_4k, i_thp);
}

static double median_of(struct probe_ctx *ctx, size_t i)
{
	metric_summarize(&ctx->res->metrics[i]);
	return ctx->res->metrics[i].summary.median;
}

/* Where THP backs the buffer fully: translation_cost (4k) against thp_saving
 * over the same nodes. They differ by (random - local on THP) + (local on THP
 * - local on 4k): what the local order still gains with huge pages, and the
 * local order's own 4 KiB translation; both are measured, so the probe says
 * which one makes the gap. Returns the sentence (caller frees) and appends
 * the numbers to arr. */
static char *translation_check(struct probe_ctx *ctx, size_t idx[2][C_N], const char *size_label,
			       int vm, json_t *arr)
{
	double r4 = median_of(ctx, idx[0][C_RANDOM]), l4 = median_of(ctx, idx[0][C_LOCAL]);
	double rt = median_of(ctx, idx[1][C_RANDOM]), lt = median_of(ctx, idx[1][C_LOCAL]);
	double cost = r4 - l4, saving = r4 - rt, a = rt - lt, b = l4 - lt;
	int agree = saving > 0 && cost >= 0.8 * saving && cost <= 1.2 * saving;

	json_array_append_new(arr, json_pack("{s:s,s:f,s:f,s:f,s:f,s:b}", "size", size_label,
					     "translation_cost_ns", cost, "thp_saving_ns", saving,
					     "random_minus_local_thp_ns", a,
					     "local_4k_minus_thp_ns", b, "agree", agree));
	if (agree)
		return xasprintf("size %s: translation_cost %.1f ns agrees with thp_saving %.1f "
				 "ns (within 20%%)",
				 size_label, cost, saving);
	return xasprintf(
		"size %s: translation_cost %.1f ns vs thp_saving %.1f ns: on THP pages the random "
		"order is %.1f ns %s than the local one (what huge pages leave: 2 MiB "
		"translation over the size, or locality the local order keeps%s), and the local "
		"order is %.1f ns %s on 4 KiB pages than on THP (%s)",
		size_label, cost, saving, a >= 0 ? a : -a, a >= 0 ? "slower" : "faster",
		vm ? "; the CPU reports a hypervisor, so the host's page walk too" : "",
		b >= 0 ? b : -b, b >= 0 ? "slower" : "faster",
		b >= 0 ? "its own 4 KiB translation, which thp_saving counts and translation_cost "
			 "does not"
		       : "no translation cost of its own: noise or placement");
}

/* The page passes before chain c, made on the chasing thread and recorded
 * with the chain's labels. */
static void page_pass(struct chase_job *j, const char *base, uint64_t size, int c,
		      const char *size_label, const char *pname, const char *stride)
{
	struct page_pass_job pp = {.base = base, .bytes = size};
	json_t *e;

	team_run(j->team, page_pass_thread, &pp);
	e = measure_page_passes_json(&pp.out);
	json_object_update_new(e, json_pack("{s:s,s:s,s:s,s:s}", "size", size_label, "pages", pname,
					    "order", order_name[c == C_LOCAL ? O_LOCAL : O_RANDOM],
					    "stride_bytes", stride));
	json_array_append_new(j->passes, e);
}

/* Measures one chain at one size; returns its metric index or SIZE_MAX. */
static size_t measure_chain(struct probe_ctx *ctx, const struct latency_opts *o,
			    struct chase_job *j, char *base, uint64_t size, int c,
			    const char *size_label, const char *pname)
{
	char stride[32];
	struct metric *m;
	size_t idx;

	opt_format_size(c == C_CURVE ? LINE_BYTES : o->stride_bytes, stride, sizeof(stride));
	j->cur = build_chain(base, size, o, c);
	page_pass(j, base, size, c, size_label, pname, stride);
	m = probe_add_metric(ctx->res, "load_latency", UNIT_NS, BETTER_LOWER,
			     "ns per dependent load: one 8 B pointer in one 64 B line per "
			     "stride_bytes, 1 thread, 1 chain (no MLP)",
			     "size", size_label, "pages", pname, "order",
			     order_name[c == C_LOCAL ? O_LOCAL : O_RANDOM], "stride_bytes", stride,
			     NULL);
	idx = (size_t)(m - ctx->res->metrics);
	if (measure_op(ctx, m, chase_op, j, CHASE_UNROLL, MEASURE_TIME_PER, 1.0)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "chase failed");
		return SIZE_MAX;
	}
	metric_summarize(m);
	return idx;
}

/* One page-size variant: map max bytes once, then every size uses its prefix.
 * idx[s][c] gets the metric of chain c at size s; *thp_full whether huge
 * pages back all of it. */
static int latency_pages(struct probe_ctx *ctx, const struct latency_opts *o, struct team *team,
			 const struct pagesize *ps, const uint64_t *sizes, size_t n_sizes,
			 size_t (*idx)[C_N], json_t *extra, int *thp_full)
{
	const char *pname = ps->name, *source = NULL;
	uint64_t allocs0 = pages_allocs(ps);
	uint64_t max = sizes[n_sizes - 1], knee;
	double *curve = xcalloc(n_sizes, sizeof(*curve));
	struct chase_job j = {.team = team, .passes = json_object_get(extra, "page_pass")};
	struct smaps_info si;
	struct mem_buf b;
	char buf[32], key[32];
	int rc = 0;

	if (pagesize_map(&b, ps, max, 0)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot map %" PRIu64 " bytes", max);
		free(curve);
		return -1;
	}
	team_run(team, touch_thread, &b);
	*thp_full = 0;
	if (pages_sized(ps)) { /* what backs it at the size asked (kit/pages.h) */
		metric_add_sample(probe_add_metric(ctx->res, "backed_at_size", UNIT_MIB,
						   BETTER_NONE,
						   "MiB of the chase buffer in folios of at least "
						   "the page size asked",
						   "pages", pname, NULL),
				  pages_backed_mib(ps, &b, allocs0, &source));
		pages_note(ctx, ps, source);
	}
	if (mem_smaps_range(b.addr, b.size_bytes, &si) == 0) {
		struct metric *m = probe_add_metric(ctx->res, "thp_backed", UNIT_MIB, BETTER_NONE,
						    "AnonHugePages backing the chase buffer "
						    "after first touch (/proc/self/smaps), MiB",
						    "pages", pname, NULL);

		metric_add_sample(m, (double)si.anon_huge_bytes / (1 << 20));
		*thp_full = si.anon_huge_bytes >= b.size_bytes / MEM_HUGE_BYTES * MEM_HUGE_BYTES;
	}
	for (size_t s = 0; s < n_sizes && rc == 0; s++) {
		int curve_on = (o->order >> O_RANDOM) & 1;
		int pair_on = ((o->order >> O_LOCAL) & 1) && sizes[s] > o->group_bytes;
		char size_label[32], stride[32];

		opt_format_size(sizes[s], size_label, sizeof(size_label));
		progress("cpu.latency: pages=%s size=%s", pname, size_label);
		for (int c = 0; c < C_N && rc == 0; c++) {
			/* Up to one group, local is random: the curve alone. */
			if ((c == C_CURVE && !curve_on) || (c != C_CURVE && !pair_on))
				continue;
			if (c == C_RANDOM && o->stride_bytes == LINE_BYTES &&
			    idx[s][C_CURVE] != SIZE_MAX) {
				idx[s][C_RANDOM] = idx[s][C_CURVE]; /* the same chain */
				continue;
			}
			idx[s][c] =
				measure_chain(ctx, o, &j, b.addr, sizes[s], c, size_label, pname);
			rc = idx[s][c] == SIZE_MAX ? -1 : 0;
		}
		if (rc == 0 && curve_on)
			curve[s] = ctx->res->metrics[idx[s][C_CURVE]].summary.median;
		opt_format_size(o->stride_bytes, stride, sizeof(stride));
		if (rc == 0 && pair_on)
			add_translation_cost(ctx, idx[s][C_RANDOM], idx[s][C_LOCAL], size_label,
					     pname, stride);
	}
	mem_unmap(&b);

	/* A knee from a handful of points is noise (quick runs): leave it out. */
	if (rc == 0 && (o->order & (1u << O_RANDOM)) && n_sizes >= KNEE_MIN_SIZES) {
		knee = mem_knee_from_curve(sizes, curve, n_sizes);
		opt_format_size(knee, buf, sizeof(buf));
		snprintf(key, sizeof(key), "knee_%.24s", pname);
		probe_result_add_param(ctx->res, key, buf);
		json_object_set_new(json_object_get(extra, "knee_bytes"), pname,
				    json_integer((json_int_t)knee));
		json_object_set_new(json_object_get(extra, "plateaus"), pname,
				    find_plateaus(sizes, curve, n_sizes));
	}
	free(curve);
	return rc;
}

/* Across page sizes: thp_saving per random chain, and the check of
 * translation_cost against it where THP backed the whole buffer. */
static void latency_compare_pages(struct probe_ctx *ctx, const struct latency_opts *o,
				  const uint64_t *sizes, size_t n_sizes, size_t (*idx[2])[C_N],
				  int thp_full, json_t *extra)
{
	char *cpuinfo = read_file_str("/proc/cpuinfo", NULL), *last = NULL;
	int vm = cpuinfo && strstr(cpuinfo, " hypervisor");
	json_t *arr = json_array();
	char stride[32];

	free(cpuinfo);
	for (size_t s = 0; s < n_sizes; s++) {
		size_t pair[2][C_N];
		int full_pair = 1;
		char size_label[32];

		for (int c = 0; c < C_N; c++) {
			pair[0][c] = idx[0][s][c];
			pair[1][c] = idx[1][s][c];
			full_pair &= pair[0][c] != SIZE_MAX && pair[1][c] != SIZE_MAX;
		}
		if (pair[0][C_CURVE] != SIZE_MAX && pair[1][C_CURVE] != SIZE_MAX)
			add_thp_saving(ctx, pair[0][C_CURVE], pair[1][C_CURVE], sizes[s], "64");
		opt_format_size(o->stride_bytes, stride, sizeof(stride));
		if (o->stride_bytes != LINE_BYTES && pair[0][C_RANDOM] != SIZE_MAX &&
		    pair[1][C_RANDOM] != SIZE_MAX)
			add_thp_saving(ctx, pair[0][C_RANDOM], pair[1][C_RANDOM], sizes[s], stride);
		if (!full_pair || !thp_full)
			continue;
		opt_format_size(sizes[s], size_label, sizeof(size_label));
		free(last);
		last = translation_check(ctx, pair, size_label, vm, arr);
	}
	if (last) {
		probe_result_add_param(ctx->res, "translation_check", last);
		json_object_set_new(extra, "translation_check", arr);
	} else {
		json_decref(arr);
		if (thp_full == 0)
			probe_result_add_param(ctx->res, "translation_check",
					       "not made: THP did not back the whole buffer");
	}
	free(last);
}

/* The sizes to measure, from the list or the sweep; 0 or PROBE_FAIL. */
static int latency_sizes(struct probe_ctx *ctx, const struct latency_opts *o, uint64_t *sizes,
			 size_t *n_sizes)
{
	uint64_t max = o->max_bytes, unit = o->stride_bytes;
	char buf[64];

	if (strcmp(o->sizes, "sweep") != 0) {
		if (list_parse_sizes(o->sizes, sizes, n_sizes)) {
			probe_result_set_status(ctx->res, STATUS_FAIL, "bad sizes list '%s'",
						o->sizes);
			return PROBE_FAIL;
		}
		qsort(sizes, *n_sizes, sizeof(*sizes), cmp_u64);
	} else {
		/* The chain builder needs 2 x 8 B per line besides the buffer:
		 * leave room for it inside the cap. */
		if (!ctx->force && mem_cap(max, 0.4) < max) {
			max = mem_cap(max, 0.4);
			opt_format_size(max, buf, sizeof(buf));
			probe_result_add_param(ctx->res, "max_capped", buf);
		}
		if (o->min_bytes > max) {
			probe_result_set_status(ctx->res, STATUS_FAIL, "min above max");
			return PROBE_FAIL;
		}
		*n_sizes =
			list_sweep_sizes(o->min_bytes, max, (unsigned)o->steps, sizes, MAX_SIZES);
	}
	/* Whole nodes of both chains: a multiple of the stride (>= 64). */
	for (size_t i = 0; i < *n_sizes; i++)
		sizes[i] = sizes[i] < unit ? unit : sizes[i] / unit * unit;
	return 0;
}

static int latency_run(struct probe_ctx *ctx, const void *opts)
{
	const struct latency_opts *o = opts;
	uint64_t sizes[MAX_SIZES], max;
	static size_t idx_ps[PAGESIZE_MAX][MAX_SIZES][C_N];
	size_t(*idx[2])[C_N] = {NULL, NULL};
	struct pagesize ps[PAGESIZE_MAX];
	size_t n_sizes = 0, n_ps;
	struct team *team;
	json_t *extra;
	char buf[64];
	int rc = 0, full[PAGESIZE_MAX] = {0}, thp = -1;

	if (o->group_bytes < LINE_BYTES || o->steps == 0 || o->steps > 16 ||
	    o->stride_bytes < LINE_BYTES || o->stride_bytes > 4096 ||
	    (o->stride_bytes & (o->stride_bytes - 1)) || o->group_bytes < o->stride_bytes) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"group must be >= stride, stride a power of two in "
					"64..4096, steps 1..16");
		return PROBE_FAIL;
	}
	if (pages_parse(ctx, o->pages, ps, &n_ps) || latency_sizes(ctx, o, sizes, &n_sizes))
		return PROBE_FAIL;
	max = sizes[n_sizes - 1];
	if (mem_check_size(max + max / 4, ctx->force, "cpu.latency buffer and chain tables")) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"%" PRIu64 " bytes exceed 80%% of MemAvailable", max);
		return PROBE_FAIL;
	}
	opt_format_size(max, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "max_bytes", buf);
	snprintf(buf, sizeof(buf), "%zu", n_sizes);
	probe_result_add_param(ctx->res, "n_sizes", buf);
	{ /* the rows' stride_bytes label beside the option: the curve is not the pair */
		char st[32], *t;
		opt_format_size(o->stride_bytes, st, sizeof(st));
		t = xasprintf("64 (the curve's rows, labelled stride_bytes=64: one node per 64 B "
			      "line; the option stride, %s, is the random/local pair's, labelled "
			      "stride_bytes=%s)",
			      st, st);
		probe_result_add_param(ctx->res, "curve_stride", t);
		free(t);
	}

	memset(idx_ps, 0xff, sizeof(idx_ps)); /* SIZE_MAX: not measured */
	team = team_start(1, NULL);
	if (!team) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot start a pinned thread");
		return PROBE_FAIL;
	}
	snprintf(buf, sizeof(buf), "%d", team_cpu(team, 0));
	probe_result_add_param(ctx->res, "cpu", buf);
	extra = json_object();
	json_object_set_new(extra, "knee_bytes", json_object());
	json_object_set_new(extra, "plateaus", json_object());
	json_object_set_new(extra, "page_pass", json_array());
	for (size_t p = 0; p < n_ps && rc == 0; p++) {
		int go = pages_begin(ctx, &ps[p], max);
		if (go == PROBE_OK) {
			rc = latency_pages(ctx, o, team, &ps[p], sizes, n_sizes, idx_ps[p], extra,
					   &full[p]);
			rc = pages_end(ctx, &ps[p]) || rc;
		} else
			rc = go == PROBE_FAIL;
		if (ps[p].kind == PAGESIZE_4K || ps[p].kind == PAGESIZE_THP)
			idx[ps[p].kind == PAGESIZE_THP] = idx_ps[p];
		thp = ps[p].kind == PAGESIZE_THP ? (int)p : thp;
	}
	if (rc == 0 && idx[0] && idx[1]) /* 4k against thp: the translation saving */
		latency_compare_pages(ctx, o, sizes, n_sizes, idx, full[thp], extra);
	team_stop(team);
	measure_note_page_passes(ctx, json_object_get(extra, "page_pass"));
	/* Knees, plateaus and the check exist only where they were measured. */
	if (json_object_size(json_object_get(extra, "knee_bytes")) == 0)
		json_object_del(extra, "knee_bytes");
	if (json_object_size(json_object_get(extra, "plateaus")) == 0)
		json_object_del(extra, "plateaus");
	if (json_array_size(json_object_get(extra, "page_pass")) == 0)
		json_object_del(extra, "page_pass");
	if (json_object_size(extra) == 0) {
		json_decref(extra);
	} else if (ctx->res->extra) {
		json_object_update(ctx->res->extra, extra);
		json_decref(extra);
	} else {
		ctx->res->extra = extra;
	}
	return rc ? PROBE_FAIL : PROBE_OK;
}

/* What its figures assume (kit/receipts.h): a chase stays on its CPU. */
static const struct receipt latency_receipts[] = {
	{.metric = "load_latency", .kind = RECEIPT_NO_MIGRATION},
	{.metric = "load_latency",
	 .kind = RECEIPT_PAGESIZE,
	 .size = "max_bytes",
	 .thp = "backed_at_size"},
	{0},
};

const struct probe probe_cpu_latency = {
	.name = "cpu.latency",
	.summary = "dependent pointer-chase latency vs size, random and page-local order, "
		   "4k and THP",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = latency_opt_rows,
	.opts_size = sizeof(struct latency_opts),
	.quick_opts = "sizes=16K,256K,4M,256M",
	.quick_note = "four sizes: too few for the cache knee and its plateaus, which are left out",
	.typical_s = {7.5, 132.2}, /* docs/design.md §2.8 */
	.run = latency_run,
	.receipts = latency_receipts,
	.primary = "load_latency",
};
