/* cpu_reach.c - cpu.reach
 * measures: translation reach: random 64 B line read rate while the span the lines are spread
 *   over grows and the number of distinct lines stays fixed, for a DRAM-bound and a
 *   cache-resident set, with 4 KiB pages and THP.
 * method: K dependent pointer chains per thread walk one random cycle through N lines, one line
 *   at a random position in each span/N slot; only pages holding a line are ever touched.
 * why this way: docs/design.md §10.3 - a probe that grew span and working set together showed a
 *   "6.25x TLB penalty" that was a cache effect. Here only the span changes along a row, so a
 *   drop along a row is translation cost; the dram row says whether it matters off-cache.
 * cross-check: cpu.latency at the smallest span (rate ~ threads x chains / ns per load); the
 *   cache set with thp stays flat until the spans' 2 MiB pages outgrow the STLB.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/list.h"
#include "base/opt.h"
#include "base/util.h"
#include "kit/measure.h"
#include "kit/pages.h"
#include "kit/probe.h"
#include "kit/team.h"
#include "machine/mem.h"
#include "machine/pagesize.h"
#include "results/results.h"

#define LINE_BYTES	 64ull
#define PAGE_4K		 4096ull
#define MAX_CHAINS	 32u
#define DRAM_FLOOR_BYTES (64ull << 20)

enum { SET_DRAM = 0, SET_CACHE = 1, N_SETS = 2 };
static const char *const set_names[N_SETS] = {"dram", "cache"};

struct reach_opts {
	char spans[OPT_STR_MAX];
	char threads[OPT_STR_MAX];
	char pages[OPT_STR_MAX];
	uint32_t sets;
	uint32_t chains;
	uint64_t dram_bytes;
	uint64_t cache_bytes;
};

static const struct opt reach_opt_rows[] = {
	OPT_STR_CHECK(
		"spans", struct reach_opts, spans, "64M,128M,256M,512M,1G,2G,4G,8G,16G",
		"address spans (powers of two >= 2M) the lines are spread over; RSS is only the "
		"pages touched, capped at 50% of MemAvailable",
		list_check_sizes, NULL),
	OPT_CPUS("threads", struct reach_opts, threads, "max",
		 "thread counts: list (1,2,8), max, or all (1,2,4,..,max)"),
	OPT_STR_CHECK("pages", struct reach_opts, pages, "4k,thp",
		      "page sizes: 4k (MADV_NOHUGEPAGE), thp (MADV_HUGEPAGE), or each mTHP size "
		      "the kernel offers (alone, as root); backing verified (no hugetlb: a sparse "
		      "span is not reserved)",
		      pagesize_check, PAGESIZE_HINT),
	OPT_LIST("sets", struct reach_opts, sets, "dram|cache", "dram,cache",
		 "distinct-line sets: dram (>> cache knee) and cache (knee / 4)"),
	OPT_LIST("chains", struct reach_opts, chains, "1|2|4|8|12|16|24|32", "16",
		 "dependent chains per thread = loads in flight per thread"),
	OPT_SIZE("dram_bytes", struct reach_opts, dram_bytes, "0",
		 "distinct bytes of the dram set; 0 = min(max(16 x knee, 64M), smallest span)"),
	OPT_SIZE("cache_bytes", struct reach_opts, cache_bytes, "0",
		 "distinct bytes of the cache set; 0 = measured knee / 4"),
	OPT_END,
};

/* The chase. Each chain is a dependent load chain, so exactly K loads per
 * thread are in flight: the memory-level parallelism is stated, not whatever
 * the out-of-order window finds (docs/design.md §4.11). The chains are spelled out as
 * named locals (not an array and a loop) so GCC keeps them in registers
 * instead of vectorising a gather through a stack array; above ~13 chains a
 * few spill, which adds a store-forward (a few cycles) to those steps at
 * every span alike. */
/* clang-format off */
#define CH1(x) x(0)
#define CH2(x) CH1(x) x(1)
#define CH4(x) CH2(x) x(2) x(3)
#define CH8(x) CH4(x) x(4) x(5) x(6) x(7)
#define CH12(x) CH8(x) x(8) x(9) x(10) x(11)
#define CH16(x) CH12(x) x(12) x(13) x(14) x(15)
#define CH24(x) CH16(x) x(16) x(17) x(18) x(19) x(20) x(21) x(22) x(23)
#define CH32(x) CH24(x) x(24) x(25) x(26) x(27) x(28) x(29) x(30) x(31)
#define CH_LOAD(i) void *p##i = pos[i];
#define CH_STEP(i) p##i = *(void **)p##i;
#define CH_SAVE(i) pos[i] = p##i;

#define CHASE_FN(K)                                                                  \
	static __attribute__((noinline)) void chase_##K(void **pos, uint64_t steps)  \
	{                                                                            \
		CH##K(CH_LOAD)                                                       \
		while (steps--) {                                                    \
			CH##K(CH_STEP)                                               \
		}                                                                    \
		CH##K(CH_SAVE)                                                       \
	}
/* clang-format on */
CHASE_FN(1)
CHASE_FN(2)
CHASE_FN(4)
CHASE_FN(8)
CHASE_FN(12)
CHASE_FN(16)
CHASE_FN(24)
CHASE_FN(32)

/* Indexed like the choices of the "chains" row. */
static const struct {
	unsigned k;
	void (*fn)(void **pos, uint64_t steps);
} chase_fns[] = {
	{1, chase_1},	{2, chase_2},	{4, chase_4},	{8, chase_8},
	{12, chase_12}, {16, chase_16}, {24, chase_24}, {32, chase_32},
};

/* 256 B, whole cache lines; written only when a chase call returns. */
struct reach_thread {
	void *pos[MAX_CHAINS]; /* chain positions, kept between samples */
};

struct reach_job {
	struct team *team;
	struct reach_thread *th;
	void (*chase)(void **pos, uint64_t steps);
	uint64_t steps; /* per chain per iteration */
	uint64_t iters; /* of the current op call */
};

static void reach_worker(unsigned tid, unsigned nthreads, void *arg)
{
	struct reach_job *j = arg;

	j->chase(j->th[tid].pos, j->steps * j->iters);
}

static int reach_op(void *arg, uint64_t iters)
{
	struct reach_job *j = arg;

	j->iters = iters;
	team_run(j->team, reach_worker, j);
	return 0;
}

/* One set of distinct lines laid out over one span. */
struct reach_set {
	uint64_t n_lines; /* power of two */
	uint64_t *next;	  /* random cycle over the slots (Sattolo) */
	uint64_t seed;
	unsigned word; /* 8-byte word of the line holding this set's pointer */
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Line i sits at a random line of the i-th span/N slot, so the lines spread
 * uniformly over the span whatever the span. Each set keeps its pointer in its
 * own word of the line, so the two sets may pick the same line safely. */
static void *set_line(const struct reach_set *s, char *base, uint64_t span_bytes, uint64_t i)
{
	uint64_t slot_bytes = span_bytes / s->n_lines;
	uint64_t line = mix64(i ^ s->seed) & (slot_bytes / LINE_BYTES - 1);

	return base + i * slot_bytes + line * LINE_BYTES + s->word * sizeof(void *);
}

/* Writes the cycle into the lines, slots in address order: this is also the
 * first touch, so only pages holding a line fault in. */
static void set_build(struct reach_set *s, char *base, uint64_t span_bytes)
{
	s->next = xmalloc(s->n_lines * sizeof(*s->next));
	mem_random_cycle(s->next, s->n_lines, s->seed);
	for (uint64_t i = 0; i < s->n_lines; i++)
		*(void **)set_line(s, base, span_bytes, i) =
			set_line(s, base, span_bytes, s->next[i]);
}

/* Chain c of thread t starts at cycle position (t*k + c) * N / (T*k): evenly
 * spaced, so chains do not share lines, and over a sample every thread reads
 * lines from all over the set (per-core distinct lines = the set). */
static void set_place_chains(const struct reach_set *s, char *base, uint64_t span_bytes,
			     struct reach_thread *th, unsigned nthreads, unsigned k)
{
	uint64_t total = (uint64_t)nthreads * k, at = 0, cur = 0;

	for (uint64_t q = 0; q < total; q++) {
		uint64_t want = q * s->n_lines / total;

		for (; at < want; at++)
			cur = s->next[cur];
		th[q / k].pos[q % k] = set_line(s, base, span_bytes, cur);
	}
}

static uint64_t pow2_floor(uint64_t x)
{
	return x ? 1ull << (63 - __builtin_clzll(x)) : 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* RSS a (span, pages) mapping can reach: each set touches min(span, lines x
 * page) (one line per slot; slots smaller than a page share pages), the sets
 * together never more than the span, plus, for 4 KiB mappings, one PTE page per
 * 2 MiB region touched. An upper bound. */
static uint64_t touched_bytes(uint64_t span_bytes, const struct pagesize *ps, const uint64_t *lines,
			      const int *on)
{
	uint64_t page = ps->kind == PAGESIZE_THP ? MEM_HUGE_BYTES : ps->bytes, sum = 0;

	for (int s = 0; s < N_SETS; s++)
		if (on[s])
			sum += min_u64(span_bytes, lines[s] * page);
	sum = min_u64(sum, span_bytes);
	if (page < MEM_HUGE_BYTES) /* PTE-mapped */
		sum += min_u64(sum / PAGE_4K, span_bytes / MEM_HUGE_BYTES) * PAGE_4K;
	return sum;
}

struct reach_state {
	struct probe_ctx *ctx;
	const struct reach_opts *o;
	uint64_t lines[N_SETS];
	uint64_t knee, rss_cap;
	unsigned threads[LIST_MAX];
	size_t n_threads;
	struct team *teams[LIST_MAX];
	struct reach_thread *th; /* for the largest thread count */
	char *skipped;		 /* ';'-separated notes on what was left out */
	uintptr_t sink;
};

static void note_skip(struct reach_state *st, const char *fmt_span, const char *pname,
		      const char *why)
{
	char *n = st->skipped
			  ? xasprintf("%s; span=%s pages=%s: %s", st->skipped, fmt_span, pname, why)
			  : xasprintf("span=%s pages=%s: %s", fmt_span, pname, why);

	free(st->skipped);
	st->skipped = n;
}

/* All rate metrics of one set on one built mapping. Returns 0 or -1. */
static int reach_measure_set(struct reach_state *st, struct reach_set *set, int s, char *base,
			     uint64_t span_bytes, const char *sname, const char *pname)
{
	for (size_t ti = 0; ti < st->n_threads; ti++) {
		unsigned nthreads = st->threads[ti];

		for (int ci = 0; ci < (int)ARRAY_SIZE(chase_fns); ci++) {
			unsigned k = chase_fns[ci].k;
			struct reach_job j = {.team = st->teams[ti], .th = st->th};
			char kb[16], tb[16], *desc;
			struct metric *m;

			if (!(st->o->chains & (1u << ci)))
				continue;
			snprintf(kb, sizeof(kb), "%u", k);
			snprintf(tb, sizeof(tb), "%u", nthreads);
			set_place_chains(set, base, span_bytes, st->th, nthreads, k);
			j.chase = chase_fns[ci].fn;
			/* One iteration is about one pass over the set. */
			j.steps = set->n_lines / ((uint64_t)nthreads * k);
			if (j.steps < 256)
				j.steps = 256;
			desc = xasprintf(
				"random 64 B line reads (one 8 B load per line); %u dependent "
				"chains per thread x %u threads = loads in flight; %" PRIu64
				" distinct lines (%s set; knee %" PRIu64
				" B) at every span, one at a random line of each span/N "
				"slot, so on %" PRIu64 " 4 KiB / %" PRIu64
				" 2 MiB pages here; Macc/s = 1e6 lines/s, all threads",
				k, nthreads, set->n_lines, set_names[s], st->knee,
				min_u64(set->n_lines, span_bytes / PAGE_4K),
				min_u64(set->n_lines, span_bytes / MEM_HUGE_BYTES));
			m = probe_add_metric(st->ctx->res, "rate", UNIT_MACC_S, BETTER_HIGHER, desc,
					     "set", set_names[s], "span", sname, "pages", pname,
					     "threads", tb, "chains", kb, NULL);
			free(desc);
			progress("cpu.reach: set=%s span=%s pages=%s threads=%u chains=%u",
				 set_names[s], sname, pname, nthreads, k);
			if (measure_op(st->ctx, m, reach_op, &j,
				       (double)nthreads * k * (double)j.steps, MEASURE_RATE,
				       1e-6) != 0)
				return -1;
			for (unsigned t = 0; t < nthreads; t++)
				for (unsigned c = 0; c < k; c++)
					st->sink ^= (uintptr_t)st->th[t].pos[c];
		}
	}
	return 0;
}

/* Maps one span, lays out the sets, records the backing, measures. Returns 0,
 * or -1 with the status set. */
static int reach_span(struct reach_state *st, uint64_t span_bytes, const struct pagesize *ps)
{
	const char *pname = ps->name, *source = NULL;
	uint64_t allocs0 = pages_allocs(ps);
	struct probe_result *res = st->ctx->res;
	struct reach_set sets[N_SETS];
	int on[N_SETS] = {0}, n_on = 0, rc = 0;
	char sname[32], tb[32], cb[32];
	struct smaps_info sm;
	struct mem_buf b;
	uint64_t touched;

	opt_format_size(span_bytes, sname, sizeof(sname));
	for (int s = 0; s < N_SETS; s++) {
		if (!(st->o->sets & (1u << s)))
			continue;
		if (st->lines[s] * LINE_BYTES > span_bytes) {
			note_skip(st, sname, pname,
				  s == SET_DRAM ? "dram set larger than the span"
						: "cache set larger than the span");
			continue;
		}
		on[s] = 1;
		n_on++;
	}
	if (!n_on)
		return 0;
	/* The span is address space; the RSS is what the lines touch. */
	touched = touched_bytes(span_bytes, ps, st->lines, on);
	opt_format_size(touched, tb, sizeof(tb));
	opt_format_size(st->rss_cap, cb, sizeof(cb));
	if (!st->ctx->force && touched > st->rss_cap) {
		char *why = xasprintf("would touch %s > cap %s (50%% of MemAvailable; --force)", tb,
				      cb);

		note_skip(st, sname, pname, why);
		free(why);
		return 0;
	}
	if (mem_check_size(touched, st->ctx->force, "cpu.reach touched span") != 0) {
		note_skip(st, sname, pname, "touched bytes above 80% of MemAvailable");
		return 0;
	}
	/* MAP_NORESERVE: a 64 GiB span on a 24 GiB machine is fine as address
	 * space, but heuristic overcommit would refuse to account it all; the
	 * part that is actually touched was checked just above. */
	if (pagesize_map(&b, ps, span_bytes, MAP_NORESERVE) != 0) {
		probe_result_set_status(res, STATUS_FAIL, "cannot map a %s span (%s pages)", sname,
					pname);
		return -1;
	}
	progress("cpu.reach: span=%s pages=%s: touching the distinct lines (up to %s)", sname,
		 pname, tb);
	for (int s = 0; s < N_SETS; s++) {
		sets[s] = (struct reach_set){
			.n_lines = st->lines[s], .seed = 0x7265616368ull + s, .word = (unsigned)s};
		if (on[s])
			set_build(&sets[s], b.addr, span_bytes);
	}
	sm.rss_bytes = UINT64_MAX; /* unknown without smaps: the backing alone */
	if (mem_smaps_range(b.addr, span_bytes, &sm) == 0) {
		struct metric *m;

		m = probe_add_metric(res, "thp_backed", UNIT_MIB, BETTER_NONE,
				     "AnonHugePages of the span after the lines were written "
				     "(/proc/self/smaps); MiB = 2^20 B",
				     "span", sname, "pages", pname, NULL);
		metric_add_sample(m, (double)sm.anon_huge_bytes / (1 << 20));
		m = probe_add_metric(res, "rss", UNIT_MIB, BETTER_NONE,
				     "Rss of the span (/proc/self/smaps): pages holding the lines; "
				     "the rest of the span never faults; MiB = 2^20 B",
				     "span", sname, "pages", pname, NULL);
		metric_add_sample(m, (double)sm.rss_bytes / (1 << 20));
	}
	if (pages_sized(ps)) { /* of the rss, what is at the size asked */
		double mib = pages_backed_mib(ps, &b, allocs0, &source);
		metric_add_sample(probe_add_metric(res, "backed_at_size", UNIT_MIB, BETTER_NONE,
						   "MiB of the span's touched pages in folios of "
						   "at least the page size asked",
						   "span", sname, "pages", pname, NULL),
				  sm.rss_bytes == UINT64_MAX
					  ? mib
					  : fmin(mib, (double)sm.rss_bytes / (1 << 20)));
		pages_note(st->ctx, ps, source);
	}
	for (int s = 0; s < N_SETS && rc == 0; s++) {
		if (!on[s])
			continue;
		rc = reach_measure_set(st, &sets[s], s, b.addr, span_bytes, sname, pname);
		if (rc)
			probe_result_set_status(res, STATUS_FAIL,
						"measurement failed at set=%s span=%s",
						set_names[s], sname);
	}
	for (int s = 0; s < N_SETS; s++)
		if (on[s])
			free(sets[s].next);
	mem_unmap(&b);
	return rc;
}

/* Spans must be powers of two >= 2 MiB so span / lines is a whole slot,
 * and fit in the address space a process has (47 bits: 64 TiB is the most
 * that leaves room for the rest of it). */
static int parse_spans(const char *spec, uint64_t *spans, size_t *n)
{
	if (list_parse_sizes(spec, spans, n) != 0)
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (spans[i] < MEM_HUGE_BYTES || (spans[i] & (spans[i] - 1)) ||
		    spans[i] > (1ull << 46))
			return -1;
	return 0;
}

static int reach_check(const void *opts, char *why, size_t len)
{
	const struct reach_opts *o = opts;
	uint64_t spans[LIST_MAX];
	size_t n;

	struct pagesize ps[PAGESIZE_MAX];
	size_t n_ps;

	if (pagesize_parse(o->pages, ps, PAGESIZE_MAX, &n_ps, why, len) != 0)
		return -1;
	for (size_t i = 0; i < n_ps; i++)
		if (ps[i].kind == PAGESIZE_HUGETLB) {
			snprintf(why, len,
				 "pages=%s: cpu.reach maps sparse spans unreserved "
				 "(MAP_NORESERVE), which a hugetlb pool would answer with SIGBUS",
				 ps[i].name);
			return -1;
		}
	if (parse_spans(o->spans, spans, &n) == 0)
		return 0;
	snprintf(why, len, "spans '%s': need a list of powers of two from 2M to 64T (64M,1G)",
		 o->spans);
	return -1;
}

static void add_param_size(struct probe_result *res, const char *key, uint64_t bytes)
{
	char buf[32];

	opt_format_size(bytes, buf, sizeof(buf));
	probe_result_add_param(res, key, buf);
}

static void add_param_u64(struct probe_result *res, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	probe_result_add_param(res, key, buf);
}

static int reach_run(struct probe_ctx *ctx, const void *opts)
{
	const struct reach_opts *o = opts;
	struct reach_state st = {.ctx = ctx, .o = o};
	uint64_t spans[LIST_MAX], smallest = UINT64_MAX;
	size_t n_spans = 0, n_ps;
	struct pagesize ps[PAGESIZE_MAX];
	int measured_now = 0, rc = 0;

	if (pages_parse(ctx, o->pages, ps, &n_ps) != 0)
		return PROBE_FAIL;
	if (parse_spans(o->spans, spans, &n_spans) != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "bad spans '%s'", o->spans);
		return PROBE_FAIL;
	}
	rc = probe_threads(ctx, o->threads, st.threads, &st.n_threads);
	if (rc != PROBE_OK)
		return rc;
	for (size_t i = 0; i < n_spans; i++)
		smallest = min_u64(smallest, spans[i]);

	/* Set sizes come from the measured knee, never the advertised LLC. The
	 * dram set has a 64 MiB floor so that a knee measured a step low (an L2
	 * step taken for the LLC one) or differently on another run does not
	 * change the set; it never exceeds the smallest span. */
	st.knee = mem_cache_knee_bytes(&measured_now);
	st.lines[SET_DRAM] =
		o->dram_bytes
			? o->dram_bytes
			: min_u64(16 * st.knee > DRAM_FLOOR_BYTES ? 16 * st.knee : DRAM_FLOOR_BYTES,
				  smallest);
	st.lines[SET_DRAM] = pow2_floor(st.lines[SET_DRAM] / LINE_BYTES);
	st.lines[SET_CACHE] =
		pow2_floor((o->cache_bytes ? o->cache_bytes : st.knee / 4) / LINE_BYTES);
	for (int s = 0; s < N_SETS; s++)
		if (st.lines[s] < (uint64_t)st.threads[st.n_threads - 1] * MAX_CHAINS) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"%s set of %" PRIu64 " lines is too small to feed "
						"the chains",
						set_names[s], st.lines[s]);
			return PROBE_FAIL;
		}
	/* Read before anything is mapped, so the cap does not shrink as we go. */
	st.rss_cap = mem_cap(UINT64_MAX, 0.5);

	add_param_size(ctx->res, "knee_bytes", st.knee);
	probe_result_add_param(ctx->res, "knee_source",
			       measured_now ? "measured now (pointer chase)" : "cached per host");
	add_param_u64(ctx->res, "dram_set_lines", st.lines[SET_DRAM]);
	add_param_size(ctx->res, "dram_set_bytes", st.lines[SET_DRAM] * LINE_BYTES);
	add_param_u64(ctx->res, "cache_set_lines", st.lines[SET_CACHE]);
	add_param_size(ctx->res, "cache_set_bytes", st.lines[SET_CACHE] * LINE_BYTES);
	add_param_size(ctx->res, "rss_cap_bytes", st.rss_cap);
	if ((o->sets & (1u << SET_DRAM)) && st.lines[SET_DRAM] * LINE_BYTES < 4 * st.knee)
		probe_result_add_param(ctx->res, "dram_set_note",
				       "under 4x the knee: partly cache-resident");

	for (size_t i = 0; i < st.n_threads; i++) {
		st.teams[i] = team_start(st.threads[i], NULL);
		if (!st.teams[i]) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"cannot start %u pinned threads", st.threads[i]);
			rc = -1;
			break;
		}
	}
	st.th = xcalloc(st.threads[st.n_threads - 1], sizeof(*st.th));

	for (size_t p = 0; p < n_ps && rc == 0; p++) {
		int go = pages_begin(ctx, &ps[p], 0);
		if (go != PROBE_OK) {
			rc = go == PROBE_FAIL ? -1 : 0;
			continue;
		}
		for (size_t i = 0; i < n_spans && rc == 0; i++)
			rc = reach_span(&st, spans[i], &ps[p]);
		if (pages_end(ctx, &ps[p]) != PROBE_OK)
			rc = -1;
	}

	/* Consume the chains' end points so no load is dead code. */
	__asm__ volatile("" : : "r"(st.sink));
	if (st.skipped) {
		probe_result_add_param(ctx->res, "skipped", st.skipped);
		free(st.skipped);
	}
	for (size_t i = 0; i < st.n_threads; i++)
		team_stop(st.teams[i]);
	free(st.th);
	return rc ? PROBE_FAIL : PROBE_OK;
}

/* What its figures assume (kit/receipts.h): an mTHP row's touched pages are
 * at the size asked. */
static const struct receipt reach_receipts[] = {
	{.metric = "rate", .kind = RECEIPT_PAGESIZE, .thp = "backed_at_size"},
	{0},
};

const struct probe probe_cpu_reach = {
	.name = "cpu.reach",
	.summary = "translation reach: fixed distinct lines (dram and cache sets), growing span",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = reach_opt_rows,
	.opts_size = sizeof(struct reach_opts),
	.quick_opts = "spans=64M,512M",
	.check = reach_check,
	.typical_s = {4.6, 61.9}, /* docs/design.md §2.8 */
	.run = reach_run,
	.receipts = reach_receipts,
};
