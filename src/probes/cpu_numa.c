/* cpu_numa.c - cpu.numa
 * measures: dependent-load latency (ns per load) and read bandwidth (GB/s) from each CPU node to
 *   each memory node, memory-only nodes (CXL expanders, HBM) included as destinations, as
 *   matrices labelled cpu_node/mem_node; the node that really backs each buffer is verified.
 * method: per (cpu_node, mem_node) one buffer, mbind(MPOL_BIND) to mem_node before first touch;
 *   latency: one chain through a random cycle of 64 B lines (Sattolo), one thread pinned to the
 *   CPU node; bandwidth: a team pinned to the node's CPUs reading contiguous chunks with 8
 *   accumulators; placement: move_pages(2) query of up to 1024 pages of the buffer.
 * why this way: a strict bind read back afterwards, because a full node can serve a request from
 *   elsewhere and a matrix of the wrong nodes looks plausible (docs/design.md §4.3); THP by default
 * so the chase measures memory distance, not page walks (translation is cpu.latency's order=local
 * vs random); latency and bandwidth are separate metrics (docs/design.md §4.11). cross-check: Intel
 * MLC --latency_matrix and --bandwidth_matrix; numactl --cpunodebind=C
 *   --membind=M multichase -s 64 -m SIZE; numastat -p <pid> while it runs.
 */
#include <inttypes.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/util.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "machine/numa.h"
#include "machine/sysinfo.h"
#include "results/results.h"

struct numa_opts {
	uint64_t size_bytes;
	char threads[OPT_STR_MAX];
	uint32_t pages;
	uint64_t min_nodes;
	char cpu_nodes[OPT_STR_MAX], mem_nodes[OPT_STR_MAX];
};

static const struct opt numa_opt_rows[] = {
	OPT_SIZE("size", struct numa_opts, size_bytes, "256M",
		 "buffer per (cpu node, memory node) pair; capped at 25% of MemAvailable"),
	OPT_STR("threads", struct numa_opts, threads, "max",
		"bandwidth threads per CPU node: a count or max (all its CPUs we may use)"),
	OPT_LIST("pages", struct numa_opts, pages, "4k|thp", "thp",
		 "page size intent: thp (distance only) or 4k (adds page walks)"),
	OPT_UINT("min_nodes", struct numa_opts, min_nodes, "2",
		 "skip with fewer memory nodes than this (1 measures a one-node machine)"),
	OPT_STR_CHECK("cpu_nodes", struct numa_opts, cpu_nodes, "all",
		      "source CPU nodes (0,1 or all)", numa_check_nodes, NULL),
	OPT_STR_CHECK("mem_nodes", struct numa_opts, mem_nodes, "all",
		      "destination memory nodes (0,2 or all: every node with memory)",
		      numa_check_nodes, NULL),
	OPT_END,
};

#define LINE   64
#define UNROLL 16

struct numa_job {
	char *base;
	size_t bytes;
	uintptr_t pos; /* chase position, kept across samples */
	unsigned nthreads;
	struct team *team;
	uint64_t sums[LIST_MAX * 8]; /* per-thread read sums, a line apart */
};

static volatile uint64_t numa_sink;

static int chase_op(void *arg, uint64_t iters)
{
	struct numa_job *j = arg;
	uintptr_t p = j->pos;

	for (uint64_t i = 0; i < iters; i++)
		for (int k = 0; k < UNROLL; k++)
			p = *(const uintptr_t *)p;
	j->pos = p;
	return 0;
}

static void read_chunk(unsigned tid, unsigned nthreads, void *arg)
{
	struct numa_job *j = arg;
	size_t words = j->bytes / 8, lo = words * tid / nthreads / 8 * 8;
	size_t hi = tid + 1 == nthreads ? words : words * (tid + 1) / nthreads / 8 * 8;
	const uint64_t *w = (const uint64_t *)j->base;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

	for (size_t i = lo; i + 8 <= hi; i += 8) {
		s0 += w[i];
		s1 += w[i + 1];
		s2 += w[i + 2];
		s3 += w[i + 3];
		s4 += w[i + 4];
		s5 += w[i + 5];
		s6 += w[i + 6];
		s7 += w[i + 7];
	}
	j->sums[tid * 8] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

static int read_op(void *arg, uint64_t iters)
{
	struct numa_job *j = arg;

	for (uint64_t i = 0; i < iters; i++) {
		team_run(j->team, read_chunk, j);
		numa_sink += j->sums[0];
	}
	return 0;
}

/* CPUs of a node that this process may use, in order. */
static size_t node_cpus(const struct numa_node *n, int *out, size_t max)
{
	cpu_set_t set;
	size_t k = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		CPU_ZERO(&set);
	for (size_t i = 0; i < n->n_cpus && k < max; i++)
		if (n->cpus[i] < CPU_SETSIZE && CPU_ISSET(n->cpus[i], &set))
			out[k++] = n->cpus[i];
	return k;
}

static const char *numa_supported(const void *opts)
{
	const struct numa_opts *o = opts;
	static char why[200];
	struct numa_topology t;
	size_t mem;

	if (numa_available() < 0)
		return "libnuma reports no NUMA support (numa_available() < 0)";
	if (numa_topology_read("/sys", &t) != 0)
		return "no /sys/devices/system/node: kernel without NUMA";
	mem = numa_topology_mem_nodes(&t);
	numa_topology_free(&t);
	if (mem < o->min_nodes) {
		snprintf(why, sizeof(why),
			 "%zu NUMA node%s with memory here: no distance to measure (min_nodes=1 "
			 "measures it anyway)",
			 mem, mem == 1 ? "" : "s");
		return why;
	}
	return NULL;
}

static json_t *topology_json(const struct numa_topology *t)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->n; i++) {
		const struct numa_node *n = &t->nodes[i];
		json_t *o = json_pack("{s:i, s:s, s:i, s:f}", "node", n->id, "kind",
				      numa_node_kind(n), "cpus", (int)n->n_cpus, "mem_gib",
				      (double)n->mem_total_bytes / (1 << 30));

		if (n->distance) {
			json_t *d = json_array();

			for (size_t k = 0; k < t->n; k++)
				json_array_append_new(d, json_integer(n->distance[k]));
			json_object_set_new(o, "distance", d);
		}
		json_array_append_new(a, o);
	}
	return a;
}

/* One pair: bind, build the chain (the first touch), verify, measure. */
static int numa_pair(struct probe_ctx *ctx, struct numa_job *j, const int *cpus, int c, int m,
		     enum mem_pages pages, uint64_t bytes)
{
	char cs[16], ms[16], ts[16], ps[8];
	uint64_t per_node[NUMA_MAX_NODES], sampled, absent, n_lines = bytes / LINE, *next;
	struct mem_buf b;
	cpu_set_t one, saved;
	int rc = 0;

	snprintf(cs, sizeof(cs), "%d", c);
	snprintf(ms, sizeof(ms), "%d", m);
	snprintf(ts, sizeof(ts), "%u", j->nthreads);
	snprintf(ps, sizeof(ps), "%s", pages == MEM_PAGES_THP ? "thp" : "4k");
	if (mem_map(&b, bytes, pages, 0))
		return -1;
	if (numa_policy_apply(b.addr, bytes, NUMA_POLICY_BIND, 1ull << m)) {
		mem_unmap(&b);
		return -1;
	}
	sched_getaffinity(0, sizeof(saved), &saved);
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	sched_setaffinity(0, sizeof(one), &one);
	next = xmalloc(n_lines * sizeof(*next));
	mem_random_cycle(next, n_lines, 0x6e756d61ull + (uint64_t)(c * 64 + m));
	for (uint64_t i = 0; i < n_lines; i++)
		*(uintptr_t *)((char *)b.addr + i * LINE) = (uintptr_t)b.addr + next[i] * LINE;
	free(next);
	if (numa_pages_where(b.addr, bytes, 1024, per_node, &sampled, &absent) == 0 && sampled)
		metric_add_sample(probe_add_metric(ctx->res, "placement", UNIT_PCT, BETTER_NONE,
						   "share of sampled pages found on mem_node "
						   "(move_pages query, up to 1024 pages)",
						   "cpu_node", cs, "mem_node", ms, "pages", ps,
						   NULL),
				  100.0 * (double)per_node[m] / (double)sampled);
	j->base = b.addr;
	j->bytes = bytes;
	j->pos = (uintptr_t)b.addr;
	rc = measure_op(ctx,
			probe_add_metric(ctx->res, "latency", UNIT_NS, BETTER_LOWER,
					 "dependent loads, one chain over a random cycle of 64 B "
					 "lines, one thread on cpu_node (ns per load)",
					 "cpu_node", cs, "mem_node", ms, "pages", ps, NULL),
			chase_op, j, UNROLL, MEASURE_TIME_PER, 1.0);
	sched_setaffinity(0, sizeof(saved), &saved);
	if (rc == 0)
		rc = measure_op(ctx,
				probe_add_metric(ctx->res, "read_bw", UNIT_GB_S, BETTER_HIGHER,
						 "bytes read once by threads pinned to cpu_node's "
						 "CPUs, contiguous chunks (1e9 B/s, 64 B lines)",
						 "cpu_node", cs, "mem_node", ms, "pages", ps,
						 "threads", ts, NULL),
				read_op, j, (double)bytes, MEASURE_RATE, 1e-9);
	mem_unmap(&b);
	return rc;
}

/* THP off (enabled=never, or a kernel that turned it off: under 512 MiB of
 * RAM it does): the pages=thp cells get 4 KiB pages, which the labels would
 * not say. */
static void thp_note(struct probe_ctx *ctx)
{
	char *text = read_file_str("/sys/kernel/mm/transparent_hugepage/enabled", NULL);
	char *mode = text ? sysinfo_bracketed(text) : NULL;

	if (!text || (mode && strcmp(mode, "never") == 0))
		probe_result_add_param(
			ctx->res, "thp_note",
			text ? "transparent_hugepage/enabled is never: the pages=thp "
			       "cells have 4 KiB pages"
			     : "no transparent huge pages in this kernel: the pages=thp "
			       "cells have 4 KiB pages");
	free(mode);
	free(text);
}

/* The buffer for memory node n: size, or a quarter of what the node had free
 * when the run began, whichever is smaller (a strict bind on a small node -
 * a CXL window, an HBM stack - would otherwise reclaim it or end in the OOM
 * killer). 0, recorded with the reason, when under 4 MiB would be left. */
static uint64_t node_bytes(struct probe_ctx *ctx, const struct numa_node *n, uint64_t size)
{
	uint64_t cap = n->mem_free_bytes / 4 / MEM_HUGE_BYTES * MEM_HUGE_BYTES;
	char key[32], val[96], sz[32];

	if (!n->mem_free_bytes || cap >= size)
		return size;
	snprintf(key, sizeof(key), "size_node%d", n->id);
	opt_format_size(n->mem_free_bytes, sz, sizeof(sz));
	if (cap < (4u << 20)) {
		snprintf(val, sizeof(val), "not measured: %s free", sz);
		probe_result_add_param(ctx->res, key, val);
		return 0;
	}
	opt_format_size(cap, val, sizeof(val));
	snprintf(val + strlen(val), sizeof(val) - strlen(val), " (a quarter of %s free)", sz);
	probe_result_add_param(ctx->res, key, val);
	return cap;
}

static int numa_run(struct probe_ctx *ctx, const void *opts)
{
	const struct numa_opts *o = opts;
	struct numa_topology t;
	uint64_t cmask, mmask, bytes, *cells;
	char buf[64];
	int rc = PROBE_OK;

	if (numa_topology_read("/sys", &t) != 0) {
		probe_result_set_status(ctx->res, STATUS_SKIP, "no NUMA topology in /sys");
		return PROBE_SKIP;
	}
	if (!ctx->res->extra)
		ctx->res->extra = json_object();
	json_object_set_new(ctx->res->extra, "topology", topology_json(&t));
	if (numa_nodes_parse(o->mem_nodes, &t, &mmask) ||
	    (strcmp(o->cpu_nodes, "all") && numa_nodes_parse(o->cpu_nodes, &t, &cmask))) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad node list '%s' or '%s'",
					o->cpu_nodes, o->mem_nodes);
		numa_topology_free(&t);
		return PROBE_FAIL;
	}
	if (!strcmp(o->cpu_nodes, "all"))
		cmask = ~0ull;
	bytes = mem_cap(o->size_bytes, 0.25) / LINE * LINE;
	opt_format_size(bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "size_used", buf);
	if (o->pages & (1u << MEM_PAGES_THP))
		thp_note(ctx);
	cells = xcalloc(t.n, sizeof(*cells));
	for (size_t mi = 0; mi < t.n; mi++)
		if (t.nodes[mi].mem_total_bytes && (mmask & (1ull << t.nodes[mi].id)))
			cells[mi] = node_bytes(ctx, &t.nodes[mi], bytes);
	for (int p = 0; p < 2 && rc == PROBE_OK; p++) {
		if (!(o->pages & (1u << p)))
			continue;
		for (size_t ci = 0; ci < t.n && rc == PROBE_OK; ci++) {
			const struct numa_node *cn = &t.nodes[ci];
			int cpus[LIST_MAX];
			size_t n_cpus = node_cpus(cn, cpus, LIST_MAX);
			unsigned want = strcmp(o->threads, "max") ? (unsigned)atoi(o->threads) : 0;
			struct numa_job *j;

			if (!(cmask & (1ull << cn->id)) || n_cpus == 0)
				continue;
			j = xcalloc(1, sizeof(*j));
			j->nthreads = want && want < n_cpus ? want : (unsigned)n_cpus;
			j->team = team_start(j->nthreads, cpus);
			if (!j->team) {
				probe_result_set_status(ctx->res, STATUS_FAIL,
							"cannot start threads on node %d", cn->id);
				free(j);
				rc = PROBE_FAIL;
				break;
			}
			for (size_t mi = 0; mi < t.n; mi++) {
				const struct numa_node *mn = &t.nodes[mi];
				uint64_t cell = cells[mi];

				if (!cell)
					continue;
				progress("cpu.numa: cpu node %d -> memory node %d (%s)", cn->id,
					 mn->id, numa_node_kind(mn));
				if (numa_pair(ctx, j, cpus, cn->id, mn->id, (enum mem_pages)p,
					      cell)) {
					probe_result_set_status(ctx->res, STATUS_FAIL,
								"node %d -> %d: cannot bind or "
								"measure %" PRIu64 " bytes",
								cn->id, mn->id, cell);
					rc = PROBE_FAIL;
					break;
				}
			}
			team_stop(j->team);
			free(j);
		}
	}
	free(cells);
	numa_topology_free(&t);
	return rc;
}

const struct probe probe_cpu_numa = {
	.name = "cpu.numa",
	.summary = "latency and read bandwidth matrix: every CPU node to every memory node "
		   "(CXL/HBM memory-only nodes too)",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = numa_opt_rows,
	.opts_size = sizeof(struct numa_opts),
	.quick_opts = "size=64M",
	.supported = numa_supported,
	.run = numa_run,
};
