/* cpu_loaded.c - cpu.loaded
 * measures: loaded latency: the dependent-load latency of one thread (ns per load) while every
 *   other CPU injects memory traffic at a stepped rate, and the bandwidth the injectors moved
 *   meanwhile (GB/s), per traffic mix (read only, 2:1 and 1:1 read:write) and delay: the curve
 *   of latency against injected bandwidth, from full speed to idle (Intel MLC --loaded_latency).
 * method: one pinned thread chases a random cycle of 64 B lines through a buffer of 8x the
 *   measured cache knee (THP by default); the injectors, pinned one per core before any SMT
 *   sibling, step through buffers of their own (first-touched by themselves) with `delay` spins
 *   of an empty loop after every line; each chase sample is paired with the lines the injectors
 *   moved during it and with the share of it the chase thread was on a CPU (chase_on_cpu).
 * why this way: a decode step is exactly this: weights streaming while a gather waits, so the
 *   latency a kernel sees is the loaded one, not the idle figure. Every mix reads a line before
 *   it writes it, so its traffic is the stated mix with no hidden write-allocate read; the
 *   delay, not a thread count, sets the rate, so the cores and their placement stay fixed.
 * cross-check: Intel MLC --loaded_latency (same -d delays, -R / -W2 / -W5), or multiload -c
 *   chaseload -l stream-sum from google/multichase; the idle step must match cpu.latency's
 *   random THP order at the same size.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "kit/cpu_kernels.h"
#include "kit/load.h"
#include "kit/measure.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "machine/numa.h"
#include "results/results.h"

struct loaded_opts {
	uint64_t size_bytes, inject_bytes;
	char injectors[OPT_STR_MAX];
	char delays[OPT_STR_MAX];
	uint32_t mixes;
	uint32_t pages;
};

static const struct opt loaded_opt_rows[] = {
	OPT_SIZE("size", struct loaded_opts, size_bytes, "0",
		 "chase buffer; 0 = max(8 x measured cache knee, 256M), capped at 25% of "
		 "MemAvailable"),
	OPT_SIZE("inject", struct loaded_opts, inject_bytes, "0",
		 "buffer per injector; 0 = max(32M, 4 x knee / injectors)"),
	OPT_STR("injectors", struct loaded_opts, injectors, "max",
		"injector threads: max (every other CPU) or a count; cores first, then SMT "
		"siblings"),
	OPT_STR("delays", struct loaded_opts, delays, "auto",
		"spins of an empty loop after each injected 64 B line: auto (0, 25, 50, .. 3200, "
		"idle) or a list (0,400,idle); idle = no injection"),
	OPT_LIST("mixes", struct loaded_opts, mixes, "read|r2w1|r1w1", "all",
		 "injected traffic: read only, 2 reads : 1 write, 1 read : 1 write"),
	OPT_LIST("pages", struct loaded_opts, pages, "thp|4k", "thp",
		 "page intent of every buffer, one choice: thp (the latency of memory, not of "
		 "translation) or 4k"),
	OPT_END,
};

#define CHASE_UNROLL 16
#define INJECT_CHUNK 32 /* lines between progress updates and stop checks */

/* One injector's progress, alone on its cache line: the chase reads it. */
struct progress {
	uint64_t lines;
	uint64_t sink;
	char pad[48];
} __attribute__((aligned(64)));

struct loaded_job {
	struct probe_ctx *ctx;
	struct team *team;
	unsigned n_inj;
	/* the chase (thread 0) */
	struct mem_buf chase;
	void **cur;
	size_t lat_idx;
	int rc;
	struct page_passes pass; /* before the first step */
	/* the injectors (threads 1..n_inj) */
	struct mem_buf *inj;
	size_t inj_lines;
	enum cpu_mix mix;
	unsigned delay;
	int idle;
	int stop, ready;
	struct progress *prog;
	/* per chase call, in order: injected GB/s, and the share of the call's
	 * wall time the chase thread was on a CPU */
	double *bw, *on_cpu;
	size_t n_bw, cap_bw;
};

static volatile uintptr_t loaded_sink;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t injected_lines(struct loaded_job *j)
{
	uint64_t sum = 0;

	for (unsigned i = 1; i <= j->n_inj; i++)
		sum += __atomic_load_n(&j->prog[i].lines, __ATOMIC_RELAXED);
	return sum;
}

/* measure_op callback on thread 0: iters x CHASE_UNROLL dependent loads,
 * and what the injectors moved meanwhile. */
static int chase_op(void *arg, uint64_t iters)
{
	struct loaded_job *j = arg;
	uint64_t l0 = injected_lines(j), c0 = thread_cpu_ns(), t0 = time_now_ns(), t1, c1;
	void **p = j->cur;

	for (uint64_t i = 0; i < iters; i++) {
#pragma GCC unroll 16
		for (int k = 0; k < CHASE_UNROLL; k++)
			p = (void **)*p;
	}
	t1 = time_now_ns();
	c1 = thread_cpu_ns();
	j->cur = p;
	loaded_sink = (uintptr_t)p;
	if (j->n_bw == j->cap_bw) {
		j->cap_bw = j->cap_bw ? 2 * j->cap_bw : 64;
		j->bw = xrealloc(j->bw, j->cap_bw * sizeof(*j->bw));
		j->on_cpu = xrealloc(j->on_cpu, j->cap_bw * sizeof(*j->on_cpu));
	}
	j->on_cpu[j->n_bw] = 100.0 * (double)(c1 - c0) / (double)(t1 > t0 ? t1 - t0 : 1);
	/* bytes per ns is GB/s */
	j->bw[j->n_bw++] = (double)(injected_lines(j) - l0) * cpu_mix_bytes_per_line(j->mix) /
			   (double)(t1 > t0 ? t1 - t0 : 1);
	return 0;
}

/* Injector tid: paced lines through its own buffer until the chase is done. */
static void inject(struct loaded_job *j, unsigned tid)
{
	uint64_t *buf = j->inj[tid - 1].addr, done = 0, acc = 0;

	__atomic_fetch_add(&j->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&j->stop, __ATOMIC_RELAXED)) {
		for (size_t l = 0; l + INJECT_CHUNK <= j->inj_lines; l += INJECT_CHUNK) {
			if (__atomic_load_n(&j->stop, __ATOMIC_RELAXED))
				break;
			acc ^= cpu_kern_paced(buf + l * 8, INJECT_CHUNK, j->mix, j->delay);
			done += INJECT_CHUNK;
			__atomic_store_n(&j->prog[tid].lines, done, __ATOMIC_RELAXED);
		}
	}
	j->prog[tid].sink = acc;
}

/* One step: thread 0 measures the chase once every injector runs, then
 * stops them. */
static void step_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct loaded_job *j = arg;

	if (tid > 0) {
		if (!j->idle)
			inject(j, tid);
		return;
	}
	while (!j->idle && __atomic_load_n(&j->ready, __ATOMIC_ACQUIRE) < (int)j->n_inj)
		;
	j->rc = measure_op(j->ctx, &j->ctx->res->metrics[j->lat_idx], chase_op, j, CHASE_UNROLL,
			   MEASURE_TIME_PER, 1.0);
	__atomic_store_n(&j->stop, 1, __ATOMIC_RELEASE);
}

/* First touch by the owner: thread 0 its chase buffer, injector k its own. */
static void touch_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct loaded_job *j = arg;
	struct mem_buf *b = tid ? &j->inj[tid - 1] : &j->chase;

	memset(b->addr, 1, b->size_bytes);
}

/* Thread 0 makes its chain's translations present (measure_page_passes). */
static void page_pass_thread(unsigned tid, unsigned nthreads, void *arg)
{
	struct loaded_job *j = arg;

	if (tid == 0)
		measure_page_passes(j->chase.addr, j->chase.size_bytes, &j->pass);
}

/* Links the chase buffer's lines into one random cycle. */
static void build_chain(struct mem_buf *b)
{
	size_t n = b->size_bytes / 64;
	uint64_t *next = xmalloc(n * sizeof(*next));
	char *base = b->addr;

	mem_random_cycle(next, n, 0x6c6f6164ull ^ n);
	for (size_t i = 0; i < n; i++)
		*(void **)(base + i * 64) = base + next[i] * 64;
	free(next);
}

/* The values of measure_op's last calls into m: its warm-ups, then its
 * samples (the calibration's calls come before them). */
static void add_recent(struct probe_ctx *ctx, struct metric *m, const double *v, size_t n)
{
	unsigned total = ctx->warmups + ctx->reps;

	for (size_t i = n >= total ? n - total : 0, k = 0; i < n; i++, k++) {
		if (k < ctx->warmups)
			metric_add_warmup(m, v[i]);
		else
			metric_add_sample(m, v[i]);
	}
}

/* Measures one step and records its metrics; returns 0 or -1. */
static int run_step(struct loaded_job *j, int mix, uint32_t delay, json_t *curve)
{
	struct probe_ctx *ctx = j->ctx;
	const char *mname = delay == LOAD_IDLE ? "none" : cpu_mix_name((enum cpu_mix)mix);
	char dname[16];
	struct metric *bw, *on;

	if (delay == LOAD_IDLE)
		snprintf(dname, sizeof(dname), "idle");
	else
		snprintf(dname, sizeof(dname), "%u", delay);
	progress("cpu.loaded: mix=%s delay=%s", mname, dname);
	j->mix = (enum cpu_mix)mix;
	j->delay = delay;
	j->idle = delay == LOAD_IDLE;
	j->stop = j->ready = 0;
	j->n_bw = 0;
	memset(j->prog, 0, (j->n_inj + 1) * sizeof(*j->prog));
	j->lat_idx = ctx->res->n_metrics;
	probe_add_metric(ctx->res, "loaded_latency", UNIT_NS, BETTER_LOWER,
			 "ns per dependent load of one thread (random cycle of 64 B lines, 1 "
			 "chain) while the injectors run the mix with `delay` spins per line",
			 "mix", mname, "delay", dname, NULL);
	team_run(j->team, step_thread, j);
	if (j->rc) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "chase failed");
		return -1;
	}
	metric_summarize(&ctx->res->metrics[j->lat_idx]);
	/* Verify the mechanism: a chase that was off its CPU (other work on a
	 * shared machine) reads scheduling, not memory. */
	on = probe_add_metric(ctx->res, "chase_on_cpu", UNIT_PCT, BETTER_NONE,
			      "share of each chase sample's wall time its thread was on a CPU "
			      "(CLOCK_THREAD_CPUTIME_ID); below ~95% the latency holds preemption",
			      "mix", mname, "delay", dname, NULL);
	add_recent(ctx, on, j->on_cpu, j->n_bw);
	if (j->idle) {
		json_object_set_new(curve, "idle_ns",
				    json_real(ctx->res->metrics[j->lat_idx].summary.median));
		return 0;
	}
	bw = probe_add_metric(ctx->res, "injected_bw", UNIT_GB_S, BETTER_NONE,
			      "bytes the injectors moved during each chase sample: lines read + "
			      "lines written, 64 B each (GB = 1e9)",
			      "mix", mname, "delay", dname, NULL);
	add_recent(ctx, bw, j->bw, j->n_bw);
	metric_summarize(bw);
	json_array_append_new(json_object_get(curve, mname),
			      json_pack("{s:s,s:f,s:f}", "delay", dname, "injected_gbs",
					bw->summary.median, "latency_ns",
					ctx->res->metrics[j->lat_idx].summary.median));
	return 0;
}

/* Says where the threads run: the chase's CPU, the injectors', and whether
 * one of them shares the chase's core. */
static void record_placement(struct loaded_job *j)
{
	int chase = team_cpu(j->team, 0), *sib = NULL, shared = 0;
	char *path =
		xasprintf("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", chase);
	char *text = read_line_str(path), buf[256];
	size_t n_sib = 0, off = 0;

	if (text && numa_cpulist_parse(text, &sib, &n_sib) != 0)
		n_sib = 0;
	snprintf(buf, sizeof(buf), "%d", chase);
	probe_result_add_param(j->ctx->res, "chase_cpu", buf);
	off = (size_t)snprintf(buf, sizeof(buf), "%u on CPU", j->n_inj);
	for (unsigned i = 1; i <= j->n_inj; i++) {
		int c = team_cpu(j->team, i);

		for (size_t k = 0; k < n_sib; k++)
			shared |= sib[k] == c;
		if (off < sizeof(buf) - 16)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d",
						i > 1 ? "," : " ", c);
	}
	probe_result_add_param(j->ctx->res, "injectors", buf);
	probe_result_add_param(
		j->ctx->res, "injector_on_chase_core",
		!text	 ? "unknown (no thread_siblings_list)"
		: shared ? "yes: an SMT sibling of the chase injects (all cores taken)"
			 : "no");
	free(sib);
	free(text);
	free(path);
}

/* Sizes, buffers and the team; 0 or a PROBE_ code with the status set. */
static int loaded_setup(struct probe_ctx *ctx, const struct loaded_opts *o, struct loaded_job *j)
{
	enum mem_pages pages = o->pages & 1u ? MEM_PAGES_THP : MEM_PAGES_4K;
	unsigned online = team_online_cpus(), want = online - 1;
	/* the knee only sizes what was not given */
	uint64_t chase = o->size_bytes, inj = o->inject_bytes,
		 knee = chase && inj ? 0 : mem_cache_knee_bytes(NULL);
	char buf[64];

	if (strcmp(o->injectors, "max") != 0) {
		char *end;
		unsigned long v = strtoul(o->injectors, &end, 10);

		if (*end || end == o->injectors || v == 0) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"injectors: max or a count above 0");
			return PROBE_FAIL;
		}
		want = v < want ? (unsigned)v : want;
	}
	if (online < 2 || want == 0) {
		probe_result_set_status(ctx->res, STATUS_SKIP,
					"needs 2 CPUs (one chases, one injects); %u here", online);
		return PROBE_SKIP;
	}
	j->n_inj = want;
	if (!chase)
		chase = mem_cap(8 * knee > (256ull << 20) ? 8 * knee : 256ull << 20, 0.25);
	if (!inj)
		inj = 4 * knee / want > (32ull << 20) ? 4 * knee / want : 32ull << 20;
	chase = chase / MEM_HUGE_BYTES * MEM_HUGE_BYTES;
	inj = (inj + MEM_HUGE_BYTES - 1) / MEM_HUGE_BYTES * MEM_HUGE_BYTES;
	if (chase < MEM_HUGE_BYTES ||
	    mem_check_size(chase + chase / 8 + want * inj, ctx->force, "cpu.loaded buffers")) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"buffers (chase %" PRIu64 " + %u x %" PRIu64
					" bytes) too small or above 80%% of MemAvailable",
					chase, want, inj);
		return PROBE_FAIL;
	}
	opt_format_size(knee, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "knee_bytes", buf);
	opt_format_size(chase, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "chase_bytes", buf);
	opt_format_size(inj, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "inject_bytes", buf);
	j->inj = xcalloc(want, sizeof(*j->inj));
	j->prog = aligned_alloc(64, (want + 1) * sizeof(*j->prog));
	j->inj_lines = inj / 64;
	if (!j->prog || mem_map(&j->chase, chase, pages, 0)) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot map the chase buffer");
		return PROBE_FAIL;
	}
	for (unsigned i = 0; i < want; i++)
		if (mem_map(&j->inj[i], inj, pages, 0)) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"cannot map injector buffers");
			return PROBE_FAIL;
		}
	j->team = team_start(want + 1, NULL);
	if (!j->team) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot start %u pinned threads",
					want + 1);
		return PROBE_FAIL;
	}
	team_run(j->team, touch_thread, j);
	build_chain(&j->chase);
	j->cur = j->chase.addr;
	team_run(j->team, page_pass_thread, j);
	record_placement(j);
	return PROBE_OK;
}

static void loaded_free(struct loaded_job *j)
{
	team_stop(j->team);
	if (j->chase.addr)
		mem_unmap(&j->chase);
	for (unsigned i = 0; j->inj && i < j->n_inj; i++)
		if (j->inj[i].addr)
			mem_unmap(&j->inj[i]);
	free(j->inj);
	free(j->prog);
	free(j->bw);
	free(j->on_cpu);
}

static int loaded_run(struct probe_ctx *ctx, const void *opts)
{
	const struct loaded_opts *o = opts;
	struct loaded_job j = {.ctx = ctx};
	uint32_t delays[LOAD_MAX_STEPS];
	size_t n_delays = 0;
	json_t *curve, *pass;
	char size[32];
	int rc;

	if (load_parse_delays(o->delays, delays, &n_delays)) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"bad delays '%s': auto, or numbers and idle", o->delays);
		return PROBE_FAIL;
	}
	if (__builtin_popcount(o->pages) != 1) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "pages takes one choice: thp or 4k");
		return PROBE_FAIL;
	}
	rc = loaded_setup(ctx, o, &j);
	if (rc != PROBE_OK) {
		loaded_free(&j);
		return rc;
	}
	curve = json_object();
	for (int m = 0; m < CPU_MIX_N; m++)
		if (o->mixes & (1u << m))
			json_object_set_new(curve, cpu_mix_name((enum cpu_mix)m), json_array());
	/* Idle first (the unloaded figure), then each mix from full speed down. */
	if (delays[n_delays - 1] == LOAD_IDLE)
		rc = run_step(&j, 0, LOAD_IDLE, curve);
	for (int m = 0; m < CPU_MIX_N && rc == 0; m++)
		for (size_t d = 0; d < n_delays && rc == 0; d++)
			if ((o->mixes & (1u << m)) && delays[d] != LOAD_IDLE)
				rc = run_step(&j, m, delays[d], curve);
	if (!ctx->res->extra)
		ctx->res->extra = json_object();
	json_object_set_new(ctx->res->extra, "curve", curve);
	pass = measure_page_passes_json(&j.pass);
	opt_format_size(j.chase.size_bytes, size, sizeof(size));
	json_object_update_new(
		pass, json_pack("{s:s,s:s}", "size", size, "pages", o->pages & 1u ? "thp" : "4k"));
	json_object_set_new(ctx->res->extra, "page_pass", json_pack("[o]", pass));
	measure_note_page_passes(ctx, json_object_get(ctx->res->extra, "page_pass"));
	loaded_free(&j);
	return rc ? PROBE_FAIL : PROBE_OK;
}

const struct probe probe_cpu_loaded = {
	.name = "cpu.loaded",
	.summary = "loaded latency: one thread's chase while the other CPUs inject read, 2:1 "
		   "and 1:1 traffic at stepped rates (MLC's curve)",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = loaded_opt_rows,
	.opts_size = sizeof(struct loaded_opts),
	.quick_opts = "delays=0,400,idle mixes=read",
	.typical_s = {1.6, 21.6}, /* docs/design.md §2.8 */
	.run = loaded_run,
};
