/* cpu_blocks.c - cpu.blocks
 * measures: gather bandwidth of the paged-KV shape: random fixed-size blocks (16 KiB default)
 *   drawn from a large span and copied into a small per-thread buffer, per span, thread count,
 *   page size and copy routine.
 * method: each pinned thread walks its own pre-generated list of random block indices (uniform
 *   over the span, with replacement) and copies every block into an L2-sized ring; the number of
 *   blocks per sample comes from measure_op's calibration; every copied block's tag is checked.
 * why this way: the block is the unit an attention kernel fetches, so this is the rate that
 *   decides KV-cache reads; widening the span at a fixed block count shows translation reach
 *   (docs/design.md §4.2) without changing how many bytes move.
 * cross-check: cpu.stream read bandwidth at the same thread count bounds it from above; with
 *   block=2M it should approach that figure, with block=64 it falls towards cpu.latency's MLP.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/util.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "results/results.h"

struct blocks_opts {
	uint64_t block_bytes;
	char spans[OPT_STR_MAX];
	char threads[OPT_STR_MAX];
	uint32_t pages;
	uint32_t copy;
	uint64_t indices;
};

static const struct opt blocks_opt_rows[] = {
	OPT_SIZE("block", struct blocks_opts, block_bytes, "16K",
		 "bytes per block (one paged-KV block), multiple of 64"),
	OPT_STR_CHECK("spans", struct blocks_opts, spans, "1G,4G,8G",
		      "spans the blocks are drawn from (each capped at 50% of MemAvailable)",
		      list_check_sizes, NULL),
	OPT_CPUS("threads", struct blocks_opts, threads, "all",
		 "thread counts: list (1,2,8), max, or all (1,2,4,..,max)"),
	OPT_LIST("pages", struct blocks_opts, pages, "4k|thp", "4k,thp",
		 "page size intent: 4k (MADV_NOHUGEPAGE) or thp (MADV_HUGEPAGE)"),
	OPT_LIST("copy", struct blocks_opts, copy, "memcpy|loop", "memcpy",
		 "copy routine: memcpy (glibc) or loop (own SSE2 load/store loop)"),
	OPT_UINT("indices", struct blocks_opts, indices, "65536",
		 "random block indices per thread, generated before timing, used cyclically"),
	OPT_END,
};

enum { C_MEMCPY, C_LOOP, C_N };
static const char *const copy_name[C_N] = {"memcpy", "loop"};

#define LINE_BYTES  64
#define RING_BLOCKS 4 /* destination ring: stays in L2 for blocks up to 128 KiB */
#define SPANS_MAX   LIST_MAX

#if defined(__clang__)
#define KERNEL_ATTR __attribute__((noinline, no_builtin("memcpy")))
#elif defined(__GNUC__)
#define KERNEL_ATTR __attribute__((noinline, optimize("no-tree-loop-distribute-patterns")))
#else
#define KERNEL_ATTR
#endif

typedef double v2d __attribute__((vector_size(16)));

/* Own copy loop: temporal 16 B loads and stores, four per line; kept out of
 * libc on purpose so the two routines are distinct code paths (docs/design.md §4.12). */
static KERNEL_ATTR void copy_loop(void *restrict dst, const void *restrict src, size_t bytes)
{
	v2d *d = dst;
	const v2d *s = src;

#pragma GCC unroll 4
	for (size_t i = 0; i < bytes / sizeof(v2d); i++)
		d[i] = s[i];
}

/* Tags written into each source block's first and last word; a copied block
 * whose tags do not match its index came from the wrong place (or nowhere). */
static inline uint64_t block_tag(uint64_t idx)
{
	return idx * 0x9e3779b97f4a7c15ull + 1;
}

struct blocks_thread {
	uint64_t *idx; /* list_len random block indices */
	uint64_t pos;
	uint64_t bad; /* blocks whose tags did not match */
	uint64_t sum; /* consumed words: keeps the copies live */
	char *dst;    /* RING_BLOCKS blocks, 64 B aligned */
	char pad[24];
};

struct blocks_job {
	struct team *team;
	char *span;
	uint64_t n_blocks;
	size_t block_bytes;
	uint64_t list_mask; /* list length - 1 (a power of two) */
	int copy;
	uint64_t iters; /* blocks per thread in this call */
	struct blocks_thread *th;
};

static volatile uint64_t blocks_sink;

static void blocks_thread_fn(unsigned tid, unsigned nthreads, void *arg)
{
	struct blocks_job *j = arg;
	struct blocks_thread *t = &j->th[tid];
	const size_t bs = j->block_bytes, last = bs / sizeof(uint64_t) - 1;
	uint64_t pos = t->pos, bad = 0, sum = 0;

	for (uint64_t i = 0; i < j->iters; i++) {
		uint64_t idx = t->idx[pos & j->list_mask];
		const char *src = j->span + idx * bs;
		uint64_t *d = (uint64_t *)(t->dst + (pos % RING_BLOCKS) * bs);

		if (j->copy == C_MEMCPY)
			memcpy(d, src, bs);
		else
			copy_loop(d, src, bs);
		/* Both checks, no branch: counted with +, not || or |. */
		bad += (uint64_t)(d[0] != block_tag(idx)) + (uint64_t)(d[last] != ~block_tag(idx));
		sum += d[last];
		pos++;
	}
	t->pos = pos;
	t->bad += bad;
	t->sum += sum;
}

/* measure_op callback: one release of the team, each thread copying iters
 * blocks, so barrier cost is paid once per sample, not per block. */
static int blocks_op(void *arg, uint64_t iters)
{
	struct blocks_job *j = arg;
	uint64_t bad = 0, sum = 0;

	j->iters = iters;
	team_run(j->team, blocks_thread_fn, j);
	for (unsigned t = 0; t < team_size(j->team); t++) {
		bad += j->th[t].bad;
		sum += j->th[t].sum;
	}
	blocks_sink = sum;
	return bad ? -1 : 0;
}

/* First touch of the span, split across the team; writes every page (an
 * untouched page would read as the shared zero page) and the block tags. */
static void blocks_touch(unsigned tid, unsigned nthreads, void *arg)
{
	struct blocks_job *j = arg;
	uint64_t lo = j->n_blocks * tid / nthreads, hi = j->n_blocks * (tid + 1) / nthreads;
	const size_t last = j->block_bytes / sizeof(uint64_t) - 1;

	memset(j->span + lo * j->block_bytes, 0, (hi - lo) * j->block_bytes);
	for (uint64_t b = lo; b < hi; b++) {
		uint64_t *w = (uint64_t *)(j->span + b * j->block_bytes);

		w[0] = block_tag(b);
		w[last] = ~block_tag(b);
	}
}

static void blocks_lists(struct blocks_job *j, unsigned nthreads, uint64_t span_bytes)
{
	for (unsigned t = 0; t < nthreads; t++) {
		struct rng r;

		rng_seed(&r, 0x626c6bull ^ span_bytes ^ ((uint64_t)t << 48));
		for (uint64_t i = 0; i <= j->list_mask; i++)
			j->th[t].idx[i] = rng_below(&r, j->n_blocks);
		j->th[t].pos = 0;
		j->th[t].bad = 0;
	}
}

/* All thread counts and copy routines over one mapped, touched span. */
static int blocks_span(struct probe_ctx *ctx, const struct blocks_opts *o, struct blocks_job *j,
		       const unsigned *threads, size_t n_threads, const char *span_label,
		       const char *pname)
{
	char block_label[32];

	opt_format_size(j->block_bytes, block_label, sizeof(block_label));
	for (size_t ti = 0; ti < n_threads; ti++) {
		char tname[16];
		int rc = 0;

		snprintf(tname, sizeof(tname), "%u", threads[ti]);
		j->team = team_start(threads[ti], NULL);
		if (!j->team) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"cannot start %u pinned threads", threads[ti]);
			return -1;
		}
		progress("cpu.blocks: pages=%s span=%s threads=%s", pname, span_label, tname);
		for (int c = 0; c < C_N && rc == 0; c++) {
			struct metric *m;

			if (!(o->copy & (1u << c)))
				continue;
			j->copy = c;
			blocks_lists(j, threads[ti], j->n_blocks * j->block_bytes);
			m = probe_add_metric(
				ctx->res, "gather_bw", UNIT_GB_S, BETTER_HIGHER,
				c == C_MEMCPY ? "1e9 B/s of source bytes gathered: random "
						"blocks (uniform, with replacement) each read "
						"once via glibc memcpy into an L2-resident "
						"per-thread ring (writes not counted)"
					      : "1e9 B/s of source bytes gathered: random "
						"blocks (uniform, with replacement) each read "
						"once via own SSE2 loop into an L2-resident "
						"per-thread ring (writes not counted)",
				"span", span_label, "block", block_label, "threads", tname, "pages",
				pname, "copy", copy_name[c], NULL);
			if (measure_op(ctx, m, blocks_op, j, (double)threads[ti] * j->block_bytes,
				       MEASURE_RATE, 1e-9)) {
				probe_result_set_status(ctx->res, STATUS_FAIL,
							"copied block tags mismatch (span=%s "
							"threads=%s pages=%s copy=%s)",
							span_label, tname, pname, copy_name[c]);
				rc = -1;
			}
		}
		team_stop(j->team);
		j->team = NULL;
		if (rc)
			return -1;
	}
	return 0;
}

/* Spans from the option, each capped to 50% of MemAvailable unless --force,
 * rounded to whole blocks, duplicates (after capping) removed. */
static int blocks_spans(struct probe_ctx *ctx, const struct blocks_opts *o, uint64_t *spans,
			size_t *n_spans)
{
	uint64_t req[SPANS_MAX];
	size_t n_req, n = 0;

	if (list_parse_sizes(o->spans, req, &n_req))
		return -1;
	for (size_t i = 0; i < n_req; i++) {
		uint64_t s = ctx->force ? req[i] : mem_cap(req[i], 0.5);
		int dup = 0;

		s = s / o->block_bytes * o->block_bytes;
		if (s != req[i]) {
			char a[32], b[32], *note;

			opt_format_size(req[i], a, sizeof(a));
			opt_format_size(s, b, sizeof(b));
			note = xasprintf("%s -> %s", a, b);
			probe_result_add_param(ctx->res, "span_capped", note);
			free(note);
		}
		for (size_t k = 0; k < n; k++)
			dup |= spans[k] == s;
		if (!dup && s >= o->block_bytes)
			spans[n++] = s;
	}
	*n_spans = n;
	return n ? 0 : -1;
}

static int blocks_run(struct probe_ctx *ctx, const void *opts)
{
	const struct blocks_opts *o = opts;
	unsigned threads[LIST_MAX], online = team_online_cpus(), max_threads;
	uint64_t spans[SPANS_MAX], list_len = 1;
	size_t n_threads = 0, n_spans = 0;
	struct blocks_job j = {0};
	char buf[64];
	int rc = 0;

	if (o->block_bytes < LINE_BYTES || o->block_bytes % LINE_BYTES || o->indices == 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"block must be a multiple of 64 B and indices > 0");
		return PROBE_FAIL;
	}
	rc = probe_threads(ctx, o->threads, threads, &n_threads);
	if (rc != PROBE_OK)
		return rc;
	if (blocks_spans(ctx, o, spans, &n_spans)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad spans list '%s'", o->spans);
		return PROBE_FAIL;
	}
	while (list_len < o->indices && list_len < (1ull << 26))
		list_len *= 2;
	snprintf(buf, sizeof(buf), "%" PRIu64, list_len);
	probe_result_add_param(ctx->res, "indices_per_thread", buf);

	max_threads = threads[n_threads - 1];
	j.block_bytes = o->block_bytes;
	j.list_mask = list_len - 1;
	/* One 64 B line per thread's state: no false sharing between threads. */
	if (posix_memalign((void **)&j.th, LINE_BYTES, max_threads * sizeof(*j.th)))
		abort();
	memset(j.th, 0, max_threads * sizeof(*j.th));
	for (unsigned t = 0; t < max_threads; t++) {
		j.th[t].idx = xmalloc(list_len * sizeof(uint64_t));
		if (posix_memalign((void **)&j.th[t].dst, LINE_BYTES, RING_BLOCKS * o->block_bytes))
			abort();
		memset(j.th[t].dst, 0, RING_BLOCKS * o->block_bytes);
	}

	for (int p = 0; p < 2 && rc == 0; p++) {
		const char *pname = p == MEM_PAGES_THP ? "thp" : "4k";

		if (!(o->pages & (1u << p)))
			continue;
		for (size_t s = 0; s < n_spans && rc == 0; s++) {
			struct mem_buf b;
			struct smaps_info si;
			char span_label[32];

			opt_format_size(spans[s], span_label, sizeof(span_label));
			if (mem_check_size(spans[s], ctx->force, "cpu.blocks span") ||
			    mem_map(&b, spans[s], (enum mem_pages)p, 0)) {
				probe_result_set_status(ctx->res, STATUS_FAIL,
							"cannot map a span of %s", span_label);
				rc = -1;
				break;
			}
			progress("cpu.blocks: touching span=%s pages=%s", span_label, pname);
			j.span = b.addr;
			j.n_blocks = spans[s] / o->block_bytes;
			j.team = team_start(online, NULL);
			if (!j.team) {
				mem_unmap(&b);
				rc = -1;
				break;
			}
			team_run(j.team, blocks_touch, &j);
			team_stop(j.team);
			j.team = NULL;
			if (mem_smaps_range(b.addr, b.size_bytes, &si) == 0) {
				struct metric *m = probe_add_metric(
					ctx->res, "thp_backed", UNIT_MIB, BETTER_NONE,
					"AnonHugePages backing the span after first touch "
					"(/proc/self/smaps), MiB",
					"span", span_label, "pages", pname, NULL);

				metric_add_sample(m, (double)si.anon_huge_bytes / (1 << 20));
			}
			rc = blocks_span(ctx, o, &j, threads, n_threads, span_label, pname);
			mem_unmap(&b);
		}
	}
	for (unsigned t = 0; t < max_threads; t++) {
		free(j.th[t].idx);
		free(j.th[t].dst);
	}
	free(j.th);
	return rc ? PROBE_FAIL : PROBE_OK;
}

const struct probe probe_cpu_blocks = {
	.name = "cpu.blocks",
	.summary = "paged-KV gather: random 16 KiB blocks from a large span, GB/s per span and "
		   "page size",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = blocks_opt_rows,
	.opts_size = sizeof(struct blocks_opts),
	.quick_opts = "spans=256M,1G threads=max",
	.typical_s = {1.9, 24.1}, /* docs/design.md §2.8 */
	.run = blocks_run,
};
