/* cpu_latency.c - cpu.latency
 * measures: dependent-load latency (ns per load) from 4 KiB to a capped maximum, per page size
 *   and chase order, and the translation cost (random minus page-local ns per load).
 * method: one 8 B pointer per 64 B line, lines linked in one randomised cycle (Sattolo, via
 *   mem_random_cycle); order=random spans the whole size, order=local is random within 256 KiB
 *   groups visited in random order (multichase's default); one pinned thread, one chain.
 * why this way: a single dependent chain measures latency, not bandwidth or memory-level
 *   parallelism (docs/design.md §4.11); the two orders hold lines fixed and change only translation
 * reach (docs/design.md §4.2), so their difference is the TLB/page-walk cost and nothing else.
 * cross-check: multichase -s 64 -m SIZE (random) and -T 256k (local) on the same host; lmbench
 *   lat_mem_rd -t gives the random curve; knee should match mem_cache_knee_bytes().
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

struct latency_opts {
	uint64_t min_bytes, max_bytes, group_bytes;
	uint64_t steps;
	char sizes[OPT_STR_MAX];
	uint32_t pages;
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
	OPT_LIST("pages", struct latency_opts, pages, "4k|thp", "4k,thp",
		 "page size intent: 4k (MADV_NOHUGEPAGE) or thp (MADV_HUGEPAGE)"),
	OPT_LIST("order", struct latency_opts, order, "random|local", "random,local",
		 "random: whole size; local: random within groups, groups in random order"),
	OPT_SIZE("group", struct latency_opts, group_bytes, "256K",
		 "group size of order=local (multichase's default 256K; a group larger "
		 "than L2 but within 4k-TLB reach, e.g. 2M, removes cache locality)"),
	OPT_END,
};

#define LINE_BYTES     64
#define CHASE_UNROLL   16
#define MAX_SIZES      128
#define KNEE_MIN_SIZES 6
enum { O_RANDOM, O_LOCAL, O_N };
static const char *const order_name[O_N] = {"random", "local"};

struct chase_job {
	struct team *team;
	void **cur;
	uint64_t iters;
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

/* First touch from the pinned thread, so pages are faulted where it runs. */
static void touch_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct mem_buf *b = arg;

	memset(b->addr, 0, b->size_bytes);
}

static void build_chain(char *base, size_t size, size_t group_bytes, int order)
{
	size_t n = size / LINE_BYTES;
	uint64_t *tab = xmalloc(n * sizeof(*tab));

	if (order == O_RANDOM || size <= group_bytes) {
		/* The cycle's next-index table links lines directly: writes stay
		 * sequential, so building 1 GiB takes a second, not ten. */
		mem_random_cycle(tab, n, 0x6c6174ull ^ size);
		for (size_t i = 0; i < n; i++)
			*(void **)(base + i * LINE_BYTES) = base + tab[i] * LINE_BYTES;
	} else {
		mem_visit_order(tab, n, order == O_RANDOM ? n : group_bytes / LINE_BYTES,
				0x6c6174ull ^ size);
		for (size_t i = 0; i < n; i++)
			*(void **)(base + tab[i] * LINE_BYTES) =
				base + tab[(i + 1) % n] * LINE_BYTES;
	}
	free(tab);
}

/* Sizes of the sweep: `steps` points per doubling from min to max, each a
 * multiple of 64 B; max itself is always the last point. */
static size_t sweep_sizes(uint64_t min, uint64_t max, unsigned steps, uint64_t *out)
{
	size_t n = 0;
	uint64_t base = 4096;

	while (base * 2 <= min)
		base *= 2;
	for (; base <= max && n < MAX_SIZES - 1; base *= 2) {
		for (unsigned s = 0; s < steps && n < MAX_SIZES - 1; s++) {
			uint64_t v = (base + base * s / steps) / LINE_BYTES * LINE_BYTES;

			if (v >= min && v <= max && (n == 0 || v > out[n - 1]))
				out[n++] = v;
		}
	}
	if (n == 0 || out[n - 1] < max)
		out[n++] = max / LINE_BYTES * LINE_BYTES;
	return n;
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

/* Pairwise (by sample index) random - local: both were measured with the
 * same lines, so the difference is translation alone. */
static void add_translation_cost(struct probe_ctx *ctx, size_t i_random, size_t i_local,
				 const char *size_label, const char *pname)
{
	struct metric *m =
		probe_add_metric(ctx->res, "translation_cost", UNIT_NS, BETTER_LOWER,
				 "ns per dependent load (64 B lines), order=random minus "
				 "order=local, sample i minus sample i; includes the L2 "
				 "locality of a group that fits in L2, not translation alone",
				 "size", size_label, "pages", pname, NULL);
	const struct metric *r = &ctx->res->metrics[i_random], *l = &ctx->res->metrics[i_local];
	size_t n = r->n_samples < l->n_samples ? r->n_samples : l->n_samples;

	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, r->samples[i] - l->samples[i]);
}

/* Pairwise 4k - thp at order=random: only the page size differs (lines,
 * order and size held), so this is the translation cost huge pages remove.
 * The random - local difference also contains the cache locality of a
 * 256 KiB group (on a 2 MiB-L2 host, THP local(256K) was 64 ns against
 * local(2M) 119 ns and random 120 ns at 1 GiB), so both are reported. */
static void add_thp_saving(struct probe_ctx *ctx, size_t i_4k, size_t i_thp, uint64_t size)
{
	char size_label[32];
	struct metric *m;
	const struct metric *a, *b;
	size_t n;

	opt_format_size(size, size_label, sizeof(size_label));
	m = probe_add_metric(ctx->res, "thp_saving", UNIT_NS, BETTER_NONE,
			     "ns per dependent load (64 B lines, order=random), pages=4k minus "
			     "pages=thp at the same size, sample i minus sample i",
			     "size", size_label, "order", "random", NULL);
	a = &ctx->res->metrics[i_4k];
	b = &ctx->res->metrics[i_thp];
	n = a->n_samples < b->n_samples ? a->n_samples : b->n_samples;
	for (size_t i = 0; i < n; i++)
		metric_add_sample(m, a->samples[i] - b->samples[i]);
}

/* One page-size variant: map max bytes once, then every size uses its prefix. */
static int latency_pages(struct probe_ctx *ctx, const struct latency_opts *o, struct team *team,
			 int pages, const uint64_t *sizes, size_t n_sizes, size_t *random_idx,
			 json_t *extra)
{
	const char *pname = pages == MEM_PAGES_THP ? "thp" : "4k";
	uint64_t max = sizes[n_sizes - 1], knee;
	double *curve = xcalloc(n_sizes, sizeof(*curve));
	struct chase_job j = {.team = team};
	struct smaps_info si;
	struct mem_buf b;
	char buf[32], key[32];

	if (mem_map(&b, max, (enum mem_pages)pages, 0)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot map %" PRIu64 " bytes", max);
		free(curve);
		return -1;
	}
	team_run(team, touch_thread, &b);
	if (mem_smaps_range(b.addr, b.size_bytes, &si) == 0) {
		struct metric *m = probe_add_metric(ctx->res, "thp_backed", UNIT_MIB, BETTER_NONE,
						    "AnonHugePages backing the chase buffer "
						    "after first touch (/proc/self/smaps), MiB",
						    "pages", pname, NULL);

		metric_add_sample(m, (double)si.anon_huge_bytes / (1 << 20));
	}
	for (size_t s = 0; s < n_sizes; s++) {
		size_t idx[O_N] = {SIZE_MAX, SIZE_MAX};
		char size_label[32];

		opt_format_size(sizes[s], size_label, sizeof(size_label));
		progress("cpu.latency: pages=%s size=%s", pname, size_label);
		for (int ord = 0; ord < O_N; ord++) {
			struct metric *m;

			if (!(o->order & (1u << ord)))
				continue;
			/* Up to one group, local is random: measure it once. */
			if (ord == O_LOCAL && sizes[s] <= o->group_bytes)
				continue;
			build_chain(b.addr, sizes[s], o->group_bytes, ord);
			j.cur = (void **)b.addr;
			m = probe_add_metric(
				ctx->res, "load_latency", UNIT_NS, BETTER_LOWER,
				"ns per dependent load: one 8 B pointer per 64 B line, "
				"one random cycle, 1 thread, 1 chain (no MLP)",
				"size", size_label, "pages", pname, "order", order_name[ord], NULL);
			idx[ord] = (size_t)(m - ctx->res->metrics);
			if (measure_op(ctx, m, chase_op, &j, CHASE_UNROLL, MEASURE_TIME_PER, 1.0)) {
				probe_result_set_status(ctx->res, STATUS_FAIL, "chase failed");
				mem_unmap(&b);
				free(curve);
				return -1;
			}
			metric_summarize(m);
			if (ord == O_RANDOM) {
				curve[s] = m->summary.median;
				random_idx[s] = idx[ord];
			}
		}
		if (idx[O_RANDOM] != SIZE_MAX && idx[O_LOCAL] != SIZE_MAX)
			add_translation_cost(ctx, idx[O_RANDOM], idx[O_LOCAL], size_label, pname);
	}
	mem_unmap(&b);

	/* A knee from a handful of points is noise (quick runs): leave it out. */
	if ((o->order & (1u << O_RANDOM)) && n_sizes >= KNEE_MIN_SIZES) {
		knee = mem_knee_from_curve(sizes, curve, n_sizes);
		opt_format_size(knee, buf, sizeof(buf));
		snprintf(key, sizeof(key), "knee_%s", pname);
		probe_result_add_param(ctx->res, key, buf);
		json_object_set_new(json_object_get(extra, "knee_bytes"), pname,
				    json_integer((json_int_t)knee));
		json_object_set_new(json_object_get(extra, "plateaus"), pname,
				    find_plateaus(sizes, curve, n_sizes));
	}
	free(curve);
	return 0;
}

static int latency_run(struct probe_ctx *ctx, const void *opts)
{
	const struct latency_opts *o = opts;
	uint64_t sizes[MAX_SIZES], max = o->max_bytes;
	size_t random_idx[2][MAX_SIZES];
	size_t n_sizes = 0;
	struct team *team;
	json_t *extra;
	char buf[64];
	int rc = 0;

	if (o->group_bytes < LINE_BYTES || o->steps == 0 || o->steps > 16) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"group must be >= 64 and steps 1..16");
		return PROBE_FAIL;
	}
	if (strcmp(o->sizes, "sweep") != 0) {
		if (list_parse_sizes(o->sizes, sizes, &n_sizes)) {
			probe_result_set_status(ctx->res, STATUS_FAIL, "bad sizes list '%s'",
						o->sizes);
			return PROBE_FAIL;
		}
		qsort(sizes, n_sizes, sizeof(*sizes), cmp_u64);
		for (size_t i = 0; i < n_sizes; i++)
			sizes[i] = sizes[i] < LINE_BYTES ? LINE_BYTES
							 : sizes[i] / LINE_BYTES * LINE_BYTES;
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
		n_sizes = sweep_sizes(o->min_bytes, max, (unsigned)o->steps, sizes);
	}
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

	for (size_t s = 0; s < MAX_SIZES; s++)
		random_idx[0][s] = random_idx[1][s] = SIZE_MAX;
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
	for (int p = 0; p < 2 && rc == 0; p++)
		if (o->pages & (1u << p))
			rc = latency_pages(ctx, o, team, p, sizes, n_sizes, random_idx[p], extra);
	for (size_t s = 0; s < n_sizes && rc == 0; s++)
		if (random_idx[0][s] != SIZE_MAX && random_idx[1][s] != SIZE_MAX)
			add_thp_saving(ctx, random_idx[0][s], random_idx[1][s], sizes[s]);
	team_stop(team);
	/* Knees and plateaus exist only for sweeps long enough to have them. */
	if (json_object_size(json_object_get(extra, "knee_bytes")) == 0) {
		json_decref(extra);
	} else if (ctx->res->extra) {
		json_object_update(ctx->res->extra, extra);
		json_decref(extra);
	} else {
		ctx->res->extra = extra;
	}
	return rc ? PROBE_FAIL : PROBE_OK;
}

const struct probe probe_cpu_latency = {
	.name = "cpu.latency",
	.summary = "dependent pointer-chase latency vs size, random and page-local order, "
		   "4k and THP",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = latency_opt_rows,
	.opts_size = sizeof(struct latency_opts),
	.quick_opts = "sizes=16K,256M",
	.run = latency_run,
};
