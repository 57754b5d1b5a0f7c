/* cpu_stream.c - cpu.stream
 * measures: sustained CPU memory bandwidth (read, write, copy, triad over double arrays, and
 *   libc memcpy) per thread count, store kind and page size; each kernel's median and, as
 *   `bandwidth_best`, its best sample (the figure STREAM prints).
 * method: three arrays each >= 4x the last-level cache (sysfs, all instances) and 4x the
 *   measured cache knee, split into contiguous per-thread
 *   chunks of whole pages, first-touched by their own pinned thread (one per core before SMT
 *   siblings); team_run releases all threads for every pass, so a pass ends with the slowest.
 * why this way: STREAM's byte convention (copy and memcpy 2 arrays, triad 3, read 1, write 1)
 *   so numbers line up with the figure everyone quotes; own 16 B-vector loops with temporal and
 *   non-temporal stores as explicit variants (docs/design.md §4.12), and libc memcpy as its own
 *   kernel because STREAM's Copy compiles to it (gcc -O2: its other loops are scalar).
 * cross-check: STREAM (gcc -O2 -fopenmp, OMP_PROC_BIND=true, same threads and array size) run
 *   side by side (tools/bench.sh): bandwidth_best against STREAM's best, copy beside memcpy.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/util.h"
#include "kit/cpu_kernels.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/cache.h"
#include "machine/mem.h"
#include "machine/numa.h"
#include "results/results.h"

struct stream_opts {
	uint64_t size_bytes; /* per array; 0 = auto */
	char threads[OPT_STR_MAX];
	uint32_t kernels;
	uint32_t stores;
	uint32_t pages;
	uint32_t policy;
	char nodes[OPT_STR_MAX];
};

static const struct opt stream_opt_rows[] = {
	OPT_SIZE("size", struct stream_opts, size_bytes, "0",
		 "bytes per array (3 arrays); 0 = max(4 x last-level cache, 4 x measured cache "
		 "knee, 256M), "
		 "capped at 50% of MemAvailable"),
	OPT_CPUS("threads", struct stream_opts, threads, "all",
		 "thread counts: list (1,2,8), max, or all (1,2,4,..,max)"),
	OPT_LIST("kernels", struct stream_opts, kernels, "read|write|copy|triad|memcpy", "all",
		 "STREAM-style kernels to run (memcpy: libc's, as STREAM's Copy compiles to)"),
	OPT_LIST("stores", struct stream_opts, stores, "temporal|nt", "temporal,nt",
		 "store kind of our own kernels: temporal, or nt (non-temporal _mm_stream_pd, "
		 "x86-64 only); memcpy's is libc's choice"),
	OPT_LIST("pages", struct stream_opts, pages, "4k|thp", "4k,thp",
		 "page size intent: 4k (MADV_NOHUGEPAGE) or thp (MADV_HUGEPAGE)"),
	OPT_LIST("policy", struct stream_opts, policy, NUMA_POLICY_CHOICES, "none",
		 "memory policy of the arrays (mbind before first touch), one choice; the "
		 "placement obtained is read back from /proc/self/numa_maps"),
	OPT_STR_CHECK("nodes", struct stream_opts, nodes, "all",
		      "nodes for policy (0, 0,2, 1-3; all = every node with memory)",
		      numa_check_nodes, NULL),
	OPT_END,
};

/* Values chosen so each store kernel leaves c different from what the one
 * before it left (write 5, copy 1, triad 7; c is zeroed before memcpy): a
 * chunk a thread skipped shows up in the check that follows. */
#define A_VAL  1.0
#define B_VAL  2.0
#define SCALAR 3.0
#define W_VAL  5.0

enum { K_READ, K_WRITE, K_COPY, K_TRIAD, K_MEMCPY, K_N };
enum { S_TEMPORAL, S_NT, S_N };

static const struct {
	const char *name;
	double arrays;	 /* STREAM byte rule: arrays counted per element */
	double expect_c; /* value every c[i] holds afterwards (stores only) */
	const char *desc;
} kernel_info[K_N] = {
	[K_READ] = {"read", 1, 0,
		    "sum += a[i] (own 16 B-vector loop, 8 chains); GB/s = 1e9 B/s of 1 array "
		    "(bytes read once); 64 B lines"},
	[K_WRITE] = {"write", 1, W_VAL,
		     "c[i] = w (own loop); GB/s = 1e9 B/s of 1 array (bytes stored; write-allocate "
		     "reads not counted); 64 B lines"},
	[K_COPY] = {"copy", 2, A_VAL,
		    "c[i] = a[i] (own loop, not memcpy); GB/s = 1e9 B/s of 2 arrays (STREAM: read "
		    "+ write); 64 B lines"},
	[K_TRIAD] = {"triad", 3, (A_VAL + (SCALAR * B_VAL)),
		     "c[i] = a[i] + s*b[i] (own loop); GB/s = 1e9 B/s of 3 arrays (STREAM: 2 read "
		     "+ 1 write); 64 B lines"},
	[K_MEMCPY] = {"memcpy", 2, A_VAL,
		      "memcpy(c, a) per thread chunk (libc: its own store kind, non-temporal "
		      "above its size threshold); GB/s = 1e9 B/s of 2 arrays (STREAM: read + "
		      "write); 64 B lines"},
};

static const char *const store_name[S_N] = {"temporal", "nt"};

/* One measured configuration; threads read it, only the caller writes it. */
struct stream_job {
	struct team *team;
	double *a, *b, *c;
	size_t n;     /* elements per array */
	size_t align; /* chunk boundaries in elements: one page, so each page has one owner */
	int kernel, store;
	double *sums; /* per-thread read sums, one 64 B line apart */
	unsigned nthreads;
	enum numa_policy policy; /* placement requested for the arrays */
	uint64_t node_mask;
};

#define SUM_STRIDE 8

static volatile double stream_sink;

/* Thread tid's contiguous chunk of j's arrays; boundaries on j->align. */
static void chunk_range(const struct stream_job *j, unsigned tid, unsigned nthreads, size_t *lo,
			size_t *hi)
{
	*lo = (j->n * tid / nthreads) / j->align * j->align;
	*hi = tid + 1 == nthreads ? j->n : (j->n * (tid + 1) / nthreads) / j->align * j->align;
}

/* First touch: each thread writes its own chunk so its pages come from its
 * own node (and, for THP, get faulted by the thread that will use them). */
static void stream_touch(unsigned tid, unsigned nthreads, void *arg)
{
	struct stream_job *j = arg;
	size_t lo, hi;

	chunk_range(j, tid, nthreads, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		j->a[i] = A_VAL;
		j->b[i] = B_VAL;
		j->c[i] = 0.0;
	}
}

/* c = 0 before memcpy, which leaves what copy left (untimed). */
static void stream_poison(unsigned tid, unsigned nthreads, void *arg)
{
	struct stream_job *j = arg;
	size_t lo, hi;

	chunk_range(j, tid, nthreads, &lo, &hi);
	memset(j->c + lo, 0, (hi - lo) * sizeof(double));
}

static void stream_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct stream_job *j = arg;
	double *a, *b, *c;
	size_t lo, hi, len;
	int nt = CPU_KERN_HAVE_NT && j->store == S_NT;

	(void)nt; /* read only where non-temporal stores exist */

	chunk_range(j, tid, nthreads, &lo, &hi);
	len = hi - lo;
	a = j->a + lo;
	b = j->b + lo;
	c = j->c + lo;
	switch (j->kernel) {
	case K_READ:
		j->sums[tid * SUM_STRIDE] = cpu_kern_read(a, len);
		break;
	case K_WRITE:
#if CPU_KERN_HAVE_NT
		if (nt) {
			cpu_kern_write_nt(c, W_VAL, len);
			break;
		}
#endif
		cpu_kern_write(c, W_VAL, len);
		break;
	case K_COPY:
#if CPU_KERN_HAVE_NT
		if (nt) {
			cpu_kern_copy_nt(c, a, len);
			break;
		}
#endif
		cpu_kern_copy(c, a, len);
		break;
	case K_TRIAD:
#if CPU_KERN_HAVE_NT
		if (nt) {
			cpu_kern_triad_nt(c, a, b, SCALAR, len);
			break;
		}
#endif
		cpu_kern_triad(c, a, b, SCALAR, len);
		break;
	case K_MEMCPY:
		cpu_kern_memcpy(c, a, len);
		break;
	}
}

/* measure_op callback: iters full passes. The read sum is checked every pass
 * (a few adds); store results are checked after the metric (check_c). */
static int stream_op(void *arg, uint64_t iters)
{
	struct stream_job *j = arg;

	for (uint64_t it = 0; it < iters; it++) {
		team_run(j->team, stream_thread, j);
		if (j->kernel == K_READ) {
			double s = 0;

			for (unsigned t = 0; t < j->nthreads; t++)
				s += j->sums[t * SUM_STRIDE];
			if (s != (double)j->n * A_VAL)
				return -1;
			stream_sink = s;
		}
	}
	return 0;
}

/* STREAM-style validation of c after a store kernel; the first bad index or
 * SIZE_MAX. Values are exact in binary, so equality is the right test. */
static size_t check_c(const double *c, size_t n, double expect)
{
	for (size_t i = 0; i < n; i++)
		if (c[i] != expect)
			return i;
	return SIZE_MAX;
}

/* Per-array bytes: the user's size, or max(4 x LLC, 4 x knee, 256M) capped
 * so the three arrays take at most half of MemAvailable: arrays that fit in
 * the cache read its bandwidth, not DRAM's (a 300 MiB L3 with 256 MiB
 * arrays read 4-66% above STREAM at 1.6 GB). */
static uint64_t stream_array_bytes(struct probe_ctx *ctx, const struct stream_opts *o)
{
	uint64_t bytes = o->size_bytes, llc = cache_llc_bytes();
	char buf[32];
	int measured = 0;
	/* a size given needs the knee only for the note below: the cached one,
	 * never a sweep of its own (15 s on the dev VM) */
	uint64_t knee = bytes ? mem_cache_knee_cached() : mem_cache_knee_bytes(&measured);

	opt_format_size(knee, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "knee_bytes", knee ? buf : "unknown");
	probe_result_add_param(ctx->res, "knee_source",
			       measured ? "measured"
			       : knee	? "cached"
					: "not measured (size given)");
	opt_format_size(llc, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "llc_bytes", llc ? buf : "unknown");
	if (bytes == 0)
		bytes = mem_cap(3 * cache_stream_bytes(llc, knee), 0.5) / 3;
	bytes = bytes / 4096 * 4096;
	if (bytes < 4 * knee || bytes < 4 * llc)
		probe_result_add_param(ctx->res, "size_note",
				       bytes < 4 * llc
					       ? "arrays smaller than 4x the last-level cache"
					       : "arrays smaller than 4x cache knee");
	return bytes;
}

/* Verify the mechanism (docs/design.md §4.3): the share of the arrays' pages on each
 * node and the policy the kernel reports, from /proc/self/numa_maps, and the node
 * of up to 1024 pages spread over them asked of the kernel with move_pages(2). */
static void stream_placement(struct probe_ctx *ctx, const struct mem_buf *buf, const char *pname,
			     const char *tname)
{
	struct numa_maps_info mi;
	uint64_t per_node[NUMA_MAX_NODES], sampled, absent;
	char node[16];

	if (numa_maps_range(buf->addr, buf->size_bytes, &mi) || mi.total_pages == 0) {
		probe_result_add_param(ctx->res, "placement",
				       "numa_maps has no pages for the arrays");
		return;
	}
	probe_result_add_param(ctx->res, "policy_obtained", mi.policy);
	for (int i = 0; i < NUMA_MAX_NODES; i++) {
		if (!mi.pages[i])
			continue;
		snprintf(node, sizeof(node), "%d", i);
		metric_add_sample(probe_add_metric(ctx->res, "pages_on_node", UNIT_PCT, BETTER_NONE,
						   "share of the arrays' pages on this node after "
						   "first touch (/proc/self/numa_maps N<node>=)",
						   "node", node, "pages", pname, "threads", tname,
						   NULL),
				  100.0 * (double)mi.pages[i] / (double)mi.total_pages);
	}
	if (numa_pages_where(buf->addr, buf->size_bytes, 1024, per_node, &sampled, &absent) ||
	    sampled == 0)
		return;
	for (int i = 0; i < NUMA_MAX_NODES; i++) {
		if (!per_node[i])
			continue;
		snprintf(node, sizeof(node), "%d", i);
		metric_add_sample(
			probe_add_metric(ctx->res, "sampled_on_node", UNIT_PCT, BETTER_NONE,
					 "share of up to 1024 pages spread over the arrays "
					 "that move_pages(2) finds on this node",
					 "node", node, "pages", pname, "threads", tname, NULL),
			100.0 * (double)per_node[i] / (double)sampled);
	}
}

/* Maps and first-touches the arrays for one (pages, threads) pair and records
 * the THP actually backing them. */
static int stream_setup(struct probe_ctx *ctx, struct stream_job *j, struct mem_buf *buf,
			uint64_t array_bytes, enum mem_pages pages, const char *pname,
			const char *tname)
{
	/* Arrays sit 2 MiB-rounded apart plus a few lines so a, b and c do not
	 * start on the same cache set (STREAM's OFFSET, 4K aliasing). */
	uint64_t stride = (array_bytes + MEM_HUGE_BYTES - 1) / MEM_HUGE_BYTES * MEM_HUGE_BYTES;
	struct smaps_info si;
	struct metric *m;

	if (mem_map(buf, 3 * stride + MEM_HUGE_BYTES, pages, 0))
		return -1;
	j->a = (double *)((char *)buf->addr + 0);
	j->b = (double *)((char *)buf->addr + stride + 17 * 64);
	j->c = (double *)((char *)buf->addr + 2 * stride + 34 * 64);
	j->n = array_bytes / sizeof(double);
	/* Chunks of whole pages: every page of a is first touched, and then only
	 * used, by one thread (for b and c, offset by a few lines, all but the
	 * line-sized tail of a neighbour's chunk). Where a thread would get
	 * fewer than 4 pages, 128 B boundaries. */
	j->align = (pages == MEM_PAGES_THP ? MEM_HUGE_BYTES : 4096) / sizeof(double);
	if (j->n / j->nthreads < 4 * j->align)
		j->align = CPU_KERN_ELEMS;
	if (numa_policy_apply(buf->addr, buf->size_bytes, j->policy, j->node_mask))
		return -1;
	team_run(j->team, stream_touch, j);
	if (j->policy != NUMA_POLICY_NONE)
		stream_placement(ctx, buf, pname, tname);
	if (mem_smaps_range(buf->addr, buf->size_bytes, &si) == 0) {
		m = probe_add_metric(ctx->res, "thp_backed", UNIT_MIB, BETTER_NONE,
				     "AnonHugePages backing the three arrays after first touch "
				     "(/proc/self/smaps), MiB",
				     "pages", pname, "threads", tname, NULL);
		metric_add_sample(m, (double)si.anon_huge_bytes / (1 << 20));
	}
	return 0;
}

/* One kernel with one store kind: a metric, its samples, then the check. */
static int stream_measure_one(struct probe_ctx *ctx, struct stream_job *j, int k, int s,
			      const char *pname, const char *tname)
{
	/* Reads store nothing; memcpy's stores are libc's choice. */
	const char *sname = k == K_READ ? "none" : k == K_MEMCPY ? "libc" : store_name[s];
	struct metric *m, *best;
	size_t bad, mi;

	j->kernel = k;
	j->store = s;
	if (k == K_MEMCPY)
		team_run(j->team, stream_poison, j);
	m = probe_add_metric(ctx->res, "bandwidth", UNIT_GB_S, BETTER_HIGHER, kernel_info[k].desc,
			     "kernel", kernel_info[k].name, "threads", tname, "stores", sname,
			     "pages", pname, NULL);
	mi = (size_t)(m - ctx->res->metrics);
	if (measure_op(ctx, m, stream_op, j, kernel_info[k].arrays * (double)j->n * sizeof(double),
		       MEASURE_RATE, 1e-9)) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"kernel %s (threads=%s pages=%s): read sum mismatch",
					kernel_info[k].name, tname, pname);
		return -1;
	}
	/* STREAM prints its best pass: the same figure, beside our median. */
	best = probe_add_metric(ctx->res, "bandwidth_best", UNIT_GB_S, BETTER_HIGHER,
				"the highest counted sample of `bandwidth` with the same labels "
				"(STREAM reports its best); one value, for reading beside "
				"STREAM, not for compare",
				"kernel", kernel_info[k].name, "threads", tname, "stores", sname,
				"pages", pname, NULL);
	m = &ctx->res->metrics[mi];
	metric_summarize(m);
	if (m->n_samples)
		metric_add_sample(best, m->summary.max);
	if (k == K_READ)
		return 0;
	bad = check_c(j->c, j->n, kernel_info[k].expect_c);
	if (bad != SIZE_MAX) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"kernel %s (threads=%s stores=%s pages=%s): c[%zu] = %g, "
					"expected %g",
					kernel_info[k].name, tname, sname, pname, bad, j->c[bad],
					kernel_info[k].expect_c);
		return -1;
	}
	return 0;
}

/* Runs the selected kernels and stores on one set of arrays: read once, then
 * write, copy, triad per store kind (that order keeps c changing, see W_VAL),
 * then libc memcpy once. */
static int stream_measure(struct probe_ctx *ctx, const struct stream_opts *o, struct stream_job *j,
			  const char *pname, const char *tname)
{
	if ((o->kernels & (1u << K_READ)) &&
	    stream_measure_one(ctx, j, K_READ, S_TEMPORAL, pname, tname))
		return -1;
	for (int s = 0; s < S_N; s++) {
		if (!(o->stores & (1u << s)) || (s == S_NT && !CPU_KERN_HAVE_NT))
			continue;
		for (int k = K_WRITE; k < K_MEMCPY; k++)
			if ((o->kernels & (1u << k)) &&
			    stream_measure_one(ctx, j, k, s, pname, tname))
				return -1;
	}
	if ((o->kernels & (1u << K_MEMCPY)) &&
	    stream_measure_one(ctx, j, K_MEMCPY, S_TEMPORAL, pname, tname))
		return -1;
	return 0;
}

static int stream_run(struct probe_ctx *ctx, const void *opts)
{
	const struct stream_opts *o = opts;
	unsigned threads[LIST_MAX];
	size_t n_threads = 0;
	uint64_t array_bytes, node_mask = 0;
	enum numa_policy policy;
	char buf[64];

	int trc = probe_threads(ctx, o->threads, threads, &n_threads);

	if (trc != PROBE_OK)
		return trc;
	if ((o->stores & (1u << S_NT)) && !CPU_KERN_HAVE_NT)
		probe_result_add_param(ctx->res, "nt_skipped",
				       "non-temporal stores use SSE2 _mm_stream_pd: x86-64 only");

	/* One policy per run: a variant list would multiply every other one. */
	if (__builtin_popcount(o->policy) != 1) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "policy takes one choice of %s",
					NUMA_POLICY_CHOICES);
		return PROBE_FAIL;
	}
	policy = (enum numa_policy)__builtin_ctz(o->policy);
	if (numa_policy_missing(policy)) {
		probe_result_set_status(ctx->res, STATUS_SKIP, "policy=%s: %s",
					numa_policy_name(policy), numa_policy_missing(policy));
		return PROBE_SKIP;
	}
	if (policy != NUMA_POLICY_NONE) {
		struct numa_topology topo;
		int have = numa_topology_read("/sys", &topo) == 0;
		int bad = numa_nodes_parse(o->nodes, have ? &topo : NULL, &node_mask);

		if (have)
			numa_topology_free(&topo);
		if (bad) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"bad nodes '%s' (0, 0,2, 1-3, all)", o->nodes);
			return PROBE_FAIL;
		}
	}
	array_bytes = stream_array_bytes(ctx, o);
	if (mem_check_size(3 * array_bytes, ctx->force, "cpu.stream arrays (3 x size)")) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"3 arrays of %" PRIu64 " bytes exceed 80%% of MemAvailable",
					array_bytes);
		return PROBE_FAIL;
	}
	opt_format_size(array_bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "array_bytes", buf);
	opt_format_size(3 * array_bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "total_bytes", buf);

	for (int p = 0; p < 2; p++) {
		const char *pname = p == MEM_PAGES_THP ? "thp" : "4k";

		if (!(o->pages & (1u << p)))
			continue;
		for (size_t ti = 0; ti < n_threads; ti++) {
			struct stream_job j = {0};
			struct mem_buf mb;
			char tname[16];
			int rc;

			snprintf(tname, sizeof(tname), "%u", threads[ti]);
			progress("cpu.stream: pages=%s threads=%s", pname, tname);
			j.nthreads = threads[ti];
			j.policy = policy;
			j.node_mask = node_mask;
			j.team = team_start(threads[ti], NULL);
			if (!j.team) {
				probe_result_set_status(ctx->res, STATUS_FAIL,
							"cannot start %u pinned threads",
							threads[ti]);
				return PROBE_FAIL;
			}
			j.sums = xcalloc((size_t)threads[ti] * SUM_STRIDE, sizeof(double));
			rc = stream_setup(ctx, &j, &mb, array_bytes, (enum mem_pages)p, pname,
					  tname);
			if (rc == 0) {
				rc = stream_measure(ctx, o, &j, pname, tname);
				mem_unmap(&mb);
			} else {
				probe_result_set_status(ctx->res, STATUS_FAIL,
							"cannot map %" PRIu64 " bytes of arrays or "
							"apply policy %s",
							3 * array_bytes, numa_policy_name(policy));
			}
			free(j.sums);
			team_stop(j.team);
			if (rc)
				return PROBE_FAIL;
		}
	}
	return PROBE_OK;
}

/* An array under 64 KiB is under one page a thread: nothing a rate means. */
static int stream_check(const void *opts, char *why, size_t len)
{
	const struct stream_opts *o = opts;
	if (!o->size_bytes || o->size_bytes >= (64u << 10))
		return 0;
	snprintf(why, len, "size: at least 64K per array (0: automatic)");
	return -1;
}

/* What its figures assume (kit/receipts.h): DRAM bandwidth over a working
 * set past the LLC, pages as asked. The faults happened before the windows. */
static const struct receipt stream_receipts[] = {
	{.metric = "bandwidth", .kind = RECEIPT_DRAM, .size = "total_bytes"},
	{.metric = "bandwidth_best", .kind = RECEIPT_DRAM, .size = "total_bytes"},
	{.metric = "bandwidth",
	 .label = "pages",
	 .value = "thp",
	 .kind = RECEIPT_THP,
	 .size = "total_bytes",
	 .thp = "thp_backed"},
	{.metric = "bandwidth",
	 .label = "pages",
	 .value = "4k",
	 .kind = RECEIPT_4K,
	 .size = "total_bytes",
	 .thp = "thp_backed"},
	{0},
};

const struct probe probe_cpu_stream = {
	.name = "cpu.stream",
	.summary = "STREAM-style read/write/copy/triad and libc memcpy bandwidth, pinned threads, "
		   "temporal and nt stores, best sample beside the median",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = stream_opt_rows,
	.opts_size = sizeof(struct stream_opts),
	.quick_opts = "threads=max pages=thp stores=temporal",
	.quick_note = "temporal stores only: the nt-store rows are the full suite's",
	.check = stream_check,
	.typical_s = {5.5, 33.6}, /* docs/design.md §2.8 */
	.run = stream_run,
	.receipts = stream_receipts,
	.primary = "bandwidth",
};
