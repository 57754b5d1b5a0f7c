/* work_decode.c - work.decode
 * measures: tokens/s of a synthetic decode loop per iteration (the per-iteration convergence of
 * docs/design.md §10.8 curve without a model), the bandwidth of its two phases, and per iteration
 * the node of its pages and the promotion counters, so a rising curve can be tied to pages moving.
 * method: a token is one sequence advancing one step. Each step streams the whole weights
 *   buffer once (shared by the batch, as batched decode reads each weight once per step), then
 *   gathers every KV block of every sequence (paged KV: fixed-size blocks scattered over one
 *   pool in random order). tokens/s = batch x steps / seconds of the iteration. Pinned threads
 *   (team) read contiguous weight chunks and a share of the block list; all words are 1, so
 *   every step's sum is checked. Optional mbind policy for weights and KV, CPU node for the
 *   threads, and a hog process keeping SIZE hot (memory pressure, as the 200 GiB hog of
 * docs/design.md §10.8). why this way: the same memory shape as llama.cpp decode (weights dominate;
 * KV grows with batch and context) with nothing to download; iterations are the samples (warm-ups
 * marked) because the first ones are the point on a tiered machine; 4 KiB pages by default because
 *   malloc'd weights on a THP=madvise box get no huge pages and tiering moves base pages.
 * cross-check: llama-bench tg128 under `mempath wrap` with the same placement; weights_bw
 *   should approach cpu.stream's read bandwidth for the same threads and node.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kv.h"
#include "base/list.h"
#include "base/util.h"
#include "kit/hog.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "machine/numa.h"
#include "results/results.h"

struct decode_opts {
	uint64_t weights, kv, block, hog;
	uint64_t batch, steps;
	char threads[OPT_STR_MAX];
	uint32_t pages, policy;
	char nodes[OPT_STR_MAX], cpu_node[OPT_STR_MAX], hog_nodes[OPT_STR_MAX];
};

static const struct opt decode_opt_rows[] = {
	OPT_SIZE("weights", struct decode_opts, weights, "1G",
		 "bytes of weights streamed per step"),
	OPT_SIZE("kv", struct decode_opts, kv, "32M", "KV bytes per sequence (its context)"),
	OPT_UINT("batch", struct decode_opts, batch, "8", "sequences decoded together"),
	OPT_SIZE("block", struct decode_opts, block, "16K", "KV block size (paged KV)"),
	OPT_UINT("steps", struct decode_opts, steps, "0",
		 "decode steps per iteration (sample); 0: enough for 50 ms, at least 4"),
	OPT_STR("threads", struct decode_opts, threads, "max",
		"threads: a count or max (all CPUs of cpu_node, or all we may use)"),
	OPT_LIST("pages", struct decode_opts, pages, "4k|thp", "4k",
		 "page size intent, one choice"),
	OPT_LIST("policy", struct decode_opts, policy, NUMA_POLICY_CHOICES, "none",
		 "memory policy of weights and KV (mbind before first touch), one choice"),
	OPT_STR_CHECK("nodes", struct decode_opts, nodes, "all", "nodes for policy (0, 1-2, all)",
		      numa_check_nodes, NULL),
	OPT_STR("cpu_node", struct decode_opts, cpu_node, "any",
		"run the threads on this node's CPUs (any: wherever we may run)"),
	OPT_SIZE("hog", struct decode_opts, hog, "0",
		 "a process holding this much memory, every page written each second"),
	OPT_STR("hog_nodes", struct decode_opts, hog_nodes, "any",
		"bind the hog to these nodes (any: default policy)"),
	OPT_END,
};

#define TS 8 /* per-thread sums one 64 B line apart */

struct decode_job {
	struct team *team;
	const uint64_t *w; /* weights */
	const char *kv;	   /* KV pool */
	uint64_t w_words, block, n_blocks;
	const uint32_t *order; /* block list: sequence-major, pool index per entry */
	int phase;	       /* 0 weights, 1 KV */
	uint64_t sums[LIST_MAX * TS];
};

typedef uint64_t v2u __attribute__((vector_size(16)));

/* Eight 16 B chains, as cpu.stream's read: the loop must not be what limits
 * a stream that one core can pull at 20+ GB/s. n is a multiple of 16. */
static uint64_t sum_words(const uint64_t *p, size_t n)
{
	const v2u *v = (const v2u *)p;
	v2u s0 = {0, 0}, s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;

	for (size_t i = 0; i + 8 <= n / 2; i += 8) {
		s0 += v[i];
		s1 += v[i + 1];
		s2 += v[i + 2];
		s3 += v[i + 3];
		s4 += v[i + 4];
		s5 += v[i + 5];
		s6 += v[i + 6];
		s7 += v[i + 7];
	}
	s0 = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
	return s0[0] + s0[1];
}

static void decode_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct decode_job *j = arg;

	if (j->phase == 0) {
		uint64_t lo = j->w_words * tid / nthreads / 16 * 16;
		uint64_t hi = tid + 1 == nthreads ? j->w_words
						  : j->w_words * (tid + 1) / nthreads / 16 * 16;

		j->sums[tid * TS] = sum_words(j->w + lo, hi - lo);
		return;
	}
	/* A thread's share of the block list: random pool blocks, whole blocks. */
	uint64_t lo = j->n_blocks * tid / nthreads, hi = j->n_blocks * (tid + 1) / nthreads, s = 0;

	for (uint64_t i = lo; i < hi; i++)
		s += sum_words((const uint64_t *)(j->kv + (uint64_t)j->order[i] * j->block),
			       j->block / 8);
	j->sums[tid * TS] = s;
}

static uint64_t phase_run(struct decode_job *j, int phase, unsigned n)
{
	uint64_t s = 0;

	j->phase = phase;
	team_run(j->team, decode_thread, j);
	for (unsigned t = 0; t < n; t++)
		s += j->sums[t * TS];
	return s;
}

static void fill_ones(unsigned tid, unsigned nthreads, void *arg)
{
	struct mem_buf *b = arg;
	uint64_t words = b->size_bytes / 8, lo = words * tid / nthreads,
		 hi = words * (tid + 1) / nthreads;

	for (uint64_t i = lo; i < hi; i++)
		((uint64_t *)b->addr)[i] = 1;
}

static int one_choice(uint32_t mask)
{
	return __builtin_popcount(mask) == 1 ? __builtin_ctz(mask) : -1;
}

static struct metric *iter_metric(struct probe_ctx *ctx, const char *name, enum unit u,
				  enum better b, const char *desc, const char *lk, const char *lv)
{
	struct metric *m = lk ? probe_find_metric(ctx->res, name, lk, lv, NULL)
			      : probe_find_metric(ctx->res, name, NULL);

	if (m)
		return m;
	return lk ? probe_add_metric(ctx->res, name, u, b, desc, lk, lv, NULL)
		  : probe_add_metric(ctx->res, name, u, b, desc, NULL);
}

static void record(struct probe_ctx *ctx, int warm, const char *name, enum unit u, enum better b,
		   const char *desc, const char *lk, const char *lv, double v)
{
	struct metric *m = iter_metric(ctx, name, u, b, desc, lk, lv);

	if (warm)
		metric_add_warmup(m, v);
	else
		metric_add_sample(m, v);
}

/* Where the pages of a buffer are now, per memory node (only when there is a
 * choice of nodes: on one node it says nothing). */
static void record_nodes(struct probe_ctx *ctx, int warm, const struct numa_topology *t,
			 const char *name, const struct mem_buf *b)
{
	uint64_t per[NUMA_MAX_NODES], n, absent;
	char node[16];

	if (numa_topology_mem_nodes(t) < 2 ||
	    numa_pages_where(b->addr, b->size_bytes, 4096, per, &n, &absent) || !n)
		return;
	for (size_t i = 0; i < t->n; i++) {
		if (!t->nodes[i].mem_total_bytes)
			continue;
		snprintf(node, sizeof(node), "%d", t->nodes[i].id);
		record(ctx, warm, name, UNIT_PCT, BETTER_NONE,
		       "share of up to 4096 sampled pages on this node after the iteration "
		       "(move_pages query)",
		       "node", node, 100.0 * (double)per[t->nodes[i].id] / (double)n);
	}
}

static int decode_iterations(struct probe_ctx *ctx, struct decode_job *j,
			     const struct decode_opts *o, uint64_t steps, unsigned nthreads,
			     const struct numa_topology *t, const struct mem_buf *wb,
			     const struct mem_buf *kb)
{
	uint64_t expect_w = j->w_words, expect_kv = j->n_blocks * (j->block / 8);
	static const char *const counters[] = {"pgpromote_success", "numa_hint_faults",
					       "pgdemote_kswapd", "pgmigrate_success"};

	for (unsigned it = 0; it < ctx->warmups + ctx->reps; it++) {
		progress("work.decode: iteration %u of %u", it + 1, ctx->warmups + ctx->reps);
		int warm = it < ctx->warmups, have_vm;
		uint64_t w_ns = 0, kv_ns = 0;
		struct kv_list before, after;
		double secs;

		have_vm = vmstat_read(&before) == 0;
		for (uint64_t s = 0; s < steps; s++) {
			uint64_t t0 = time_now_ns(), t1, t2;
			uint64_t sw = phase_run(j, 0, nthreads);

			t1 = time_now_ns();
			uint64_t sk = phase_run(j, 1, nthreads);

			t2 = time_now_ns();
			w_ns += t1 - t0;
			kv_ns += t2 - t1;
			if (sw != expect_w || sk != expect_kv) {
				probe_result_set_status(
					ctx->res, STATUS_FAIL,
					"step %" PRIu64 " of iteration %u: sums %" PRIu64
					"/%" PRIu64 ", expected %" PRIu64 "/%" PRIu64,
					s, it, sw, sk, expect_w, expect_kv);
				if (have_vm)
					kv_free(&before);
				return -1;
			}
		}
		secs = (double)(w_ns + kv_ns) * 1e-9;
		record(ctx, warm, "tokens_per_s", UNIT_TOKENS_S, BETTER_HIGHER,
		       "tokens per second of one iteration: batch x steps / seconds; a token is "
		       "one "
		       "sequence advancing one step (all weights streamed once per step + that "
		       "sequence's KV blocks)",
		       NULL, NULL, (double)(o->batch * steps) / secs);
		record(ctx, warm, "step_time", UNIT_MS, BETTER_LOWER,
		       "milliseconds per decode step (weights + KV gather), mean over the "
		       "iteration",
		       NULL, NULL, secs * 1e3 / (double)steps);
		record(ctx, warm, "weights_bw", UNIT_GB_S, BETTER_HIGHER,
		       "weights bytes read once per step / weights phase time (1e9 B/s)", NULL,
		       NULL, (double)(expect_w * 8 * steps) / (double)w_ns);
		record(ctx, warm, "kv_bw", UNIT_GB_S, BETTER_HIGHER,
		       "KV block bytes gathered per step / KV phase time (1e9 B/s, whole blocks in "
		       "random pool order)",
		       NULL, NULL, (double)(expect_kv * 8 * steps) / (double)kv_ns);
		if (have_vm && vmstat_read(&after) == 0) {
			for (size_t c = 0; c < ARRAY_SIZE(counters); c++) {
				int f1, f2;
				int64_t a = kv_get(&after, counters[c], &f1),
					b = kv_get(&before, counters[c], &f2);

				if (f1 && f2) /* absent counters stay absent */
					record(ctx, warm, "vmstat", UNIT_COUNT, BETTER_NONE,
					       "/proc/vmstat counter delta over the iteration",
					       "counter", counters[c], (double)(a - b));
			}
			kv_free(&after);
		}
		if (have_vm)
			kv_free(&before);
		record_nodes(ctx, warm, t, "weights_on_node", wb);
		record_nodes(ctx, warm, t, "kv_on_node", kb);
	}
	return 0;
}

/* The hog: a process that keeps its memory hot; placed by the policy it
 * inherits (set around the fork, then reset). */
static int start_hog(struct probe_ctx *ctx, const struct decode_opts *o,
		     const struct numa_topology *t, struct proc *hog)
{
	uint64_t mask = 0;
	char msg[256];
	int rc;

	if (strcmp(o->hog_nodes, "any") != 0) {
		if (numa_nodes_parse(o->hog_nodes, t, &mask) ||
		    numa_policy_set_task(NUMA_POLICY_BIND, mask))
			return probe_result_set_status(ctx->res, STATUS_FAIL, "bad hog_nodes '%s'",
						       o->hog_nodes),
			       -1;
	}
	rc = hog_start(hog, o->hog);
	if (mask)
		numa_policy_set_task(NUMA_POLICY_NONE, 0);
	if (rc || proc_ready(hog, 120, msg, sizeof(msg)) != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "hog did not start: %s",
					rc ? "fork" : msg);
		return -1;
	}
	return 0;
}

/* The options together: a usage error before the fingerprint, not a failed
 * probe in a results file (kit/probe.h). */
static int decode_check(const void *opts, char *why, size_t len)
{
	const struct decode_opts *o = opts;
	const char *bad = one_choice(o->pages) < 0    ? "pages takes one choice"
			  : one_choice(o->policy) < 0 ? "policy takes one choice"
			  : o->batch == 0	      ? "batch must be at least 1"
			  : o->block < 4096 || o->block % 64
				  ? "block must be at least 4K and a multiple of 64 B"
			  : o->kv < o->block	   ? "kv must be at least block"
			  : o->weights < (1 << 20) ? "weights must be at least 1M"
						   : NULL;

	if (bad)
		snprintf(why, len, "%s", bad);
	return bad ? -1 : 0;
}

static int decode_run(struct probe_ctx *ctx, const void *opts)
{
	const struct decode_opts *o = opts;
	int pages = one_choice(o->pages), policy = one_choice(o->policy), cpus[LIST_MAX],
	    rc = PROBE_FAIL;
	uint64_t kv_total = size_mul(o->kv, o->batch), mask = 0, bps, steps;
	struct numa_topology t = {0};
	struct proc hog = {0};
	struct mem_buf wb = {0}, kb = {0};
	struct decode_job *j = NULL;
	size_t n_cpus = 0;
	unsigned nthreads;
	uint32_t *order = NULL;
	struct rng r;
	char buf[64];

	/* decode_check said the options fit (before any fork) */
	if (numa_policy_missing((enum numa_policy)policy)) {
		probe_result_set_status(ctx->res, STATUS_SKIP, "policy=%s: %s",
					numa_policy_name((enum numa_policy)policy),
					numa_policy_missing((enum numa_policy)policy));
		return PROBE_SKIP;
	}
	if (mem_check_size(size_add(size_add(o->weights, kv_total), o->hog), ctx->force,
			   "work.decode weights + kv + hog")) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"weights + batch x kv + hog exceed 80%% of "
					"MemAvailable");
		return PROBE_FAIL;
	}
	numa_topology_read("/sys", &t);
	if (policy != NUMA_POLICY_NONE && numa_nodes_parse(o->nodes, t.n ? &t : NULL, &mask)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad nodes '%s'", o->nodes);
		goto out;
	}
	if (strcmp(o->cpu_node, "any") != 0) {
		const struct numa_node *n = numa_topology_node(&t, atoi(o->cpu_node));

		for (size_t i = 0; n && i < n->n_cpus && n_cpus < LIST_MAX; i++)
			cpus[n_cpus++] = n->cpus[i];
		if (!n_cpus) {
			probe_result_set_status(ctx->res, STATUS_FAIL, "no CPUs on node '%s'",
						o->cpu_node);
			goto out;
		}
	} else {
		for (unsigned i = 0; i < team_online_cpus() && n_cpus < LIST_MAX; i++)
			cpus[n_cpus++] = team_nth_cpu(i);
	}
	nthreads = strcmp(o->threads, "max") ? (unsigned)atoi(o->threads) : (unsigned)n_cpus;
	if (nthreads == 0 || nthreads > n_cpus)
		nthreads = (unsigned)n_cpus;
	bps = o->kv / o->block;
	j = xcalloc(1, sizeof(*j));
	j->block = o->block;
	j->n_blocks = size_mul(bps, o->batch);
	if (o->hog && start_hog(ctx, o, &t, &hog))
		goto out;
	if (mem_map(&wb, o->weights, (enum mem_pages)pages, 0) ||
	    j->n_blocks > SIZE_MAX / sizeof(uint32_t) ||
	    mem_map(&kb, size_mul(j->n_blocks, o->block), (enum mem_pages)pages, 0) ||
	    numa_policy_apply(wb.addr, wb.size_bytes, (enum numa_policy)policy, mask) ||
	    numa_policy_apply(kb.addr, kb.size_bytes, (enum numa_policy)policy, mask)) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"cannot map or place weights and KV");
		goto out;
	}
	j->team = team_start(nthreads, cpus);
	if (!j->team) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot start %u pinned threads",
					nthreads);
		goto out;
	}
	/* First touch by the pinned threads, so default placement is theirs. */
	team_run(j->team, fill_ones, &wb);
	team_run(j->team, fill_ones, &kb);
	/* Paged KV: sequence s owns entries [s*bps, (s+1)*bps) of a random
	 * permutation of the pool's blocks. */
	order = xmalloc(j->n_blocks * sizeof(*order));
	for (uint64_t i = 0; i < j->n_blocks; i++)
		order[i] = (uint32_t)i;
	rng_seed(&r, 0xdec0de);
	for (uint64_t i = j->n_blocks - 1; i > 0; i--) {
		uint64_t k = rng_below(&r, i + 1);
		uint32_t x = order[i];

		order[i] = order[k];
		order[k] = x;
	}
	j->w = wb.addr;
	j->w_words = wb.size_bytes / 8 / 16 * 16;
	j->kv = kb.addr;
	j->order = order;
	snprintf(buf, sizeof(buf), "%u", nthreads);
	probe_result_add_param(ctx->res, "threads_used", buf);
	opt_format_size(kv_total, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "kv_total", buf);
	snprintf(buf, sizeof(buf), "%.3f", (double)(o->weights + kv_total) / 1e9);
	probe_result_add_param(ctx->res, "gb_per_step", buf);
	if (policy != NUMA_POLICY_NONE) {
		struct numa_maps_info mi;

		if (numa_maps_range(wb.addr, wb.size_bytes, &mi) == 0)
			probe_result_add_param(ctx->res, "policy_obtained", mi.policy);
	}
	/* Rule 1: an iteration lasts >= min_sample_ns; one untimed step sizes it. */
	steps = o->steps;
	if (!steps) {
		uint64_t t0 = time_now_ns(), ns;

		phase_run(j, 0, nthreads);
		phase_run(j, 1, nthreads);
		ns = time_now_ns() - t0 + 1;
		steps = ctx->min_sample_ns * 5 / 4 / ns +
			1; /* 25% margin: later steps run faster */
		if (steps < 4)
			steps = 4;
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, steps);
	probe_result_add_param(ctx->res, "steps_used", buf);
	if (decode_iterations(ctx, j, o, steps, nthreads, &t, &wb, &kb) == 0)
		rc = PROBE_OK;
out:
	if (j && j->team)
		team_stop(j->team);
	free(j);
	free(order);
	if (wb.map_addr)
		mem_unmap(&wb);
	if (kb.map_addr)
		mem_unmap(&kb);
	proc_free(&hog);
	numa_topology_free(&t);
	return rc;
}

const struct probe probe_work_decode = {
	.name = "work.decode",
	.summary = "synthetic decode: weights streamed + paged KV gathered per step, tokens/s per "
		   "iteration (no model)",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = decode_opt_rows,
	.opts_size = sizeof(struct decode_opts),
	.quick_opts = "weights=64M kv=4M batch=4",
	.check = decode_check,
	.typical_s = {0.2, 3.5}, /* docs/design.md §2.8 */
	.run = decode_run,
};
