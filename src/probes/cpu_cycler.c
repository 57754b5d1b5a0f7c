/* cpu_cycler.c - cpu.cycler
 * measures: MemCycler: aggregate rate of read-validate-write over a THP buffer, in 64-bit words
 *   per microsecond, with 0, 5 or 25% of its 2 MiB pages split to 4 KiB mappings first.
 * method: T pinned threads each own a chunk; every pass reads each word, checks it holds what
 *   the previous pass wrote (a function of index and pass) and writes the next pass's value.
 * why this way: the MemCycler figure of the THP-split discussion (docs/design.md §10.9: 25% split
 * cost 5.06%, 5% cost 1.20%); the validation makes a lost or misdirected write a FAIL, not a rate.
 * cross-check: split=0 rate x 16 B ~ cpu.stream copy bandwidth (read + write once per word);
 *   split_obtained from smaps must match the split asked for; mismatches must be 0.
 * to=64k,1m (the reply in that discussion: split to smaller folios, not to 4 KiB): the
 *   chosen pages' folios split to that order through debugfs split_huge_pages (root,
 *   docs/design.md §4.21); split_at_order (pagemap + kpageflags) must read ~100% of what
 *   left the 2 MiB folios. Where the kernel refuses that write (lockdown restricts debugfs),
 *   the mixed buffer is built instead, not split: the chosen 2 MiB ranges are faulted first
 *   with only to's size enabled (they come up as folios of that size), the rest after under
 *   the settings as found (2 MiB); the same two checks read what it got.
 */
#include <errno.h>
#include <inttypes.h>
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

#define PAGE_4K 4096ull
#define MIB	(1024.0 * 1024.0)

struct cycler_opts {
	uint64_t size_bytes;
	char threads[OPT_STR_MAX];
	uint32_t splits;
	char to[OPT_STR_MAX];
};

/* A size a 2 MiB page splits to: 4k, or an mTHP size below 2 MiB. */
static const char *cycler_to_check(const char *spec, char *why, size_t len)
{
	struct pagesize ps[PAGESIZE_MAX];
	size_t n;

	if (pagesize_parse(spec, ps, PAGESIZE_MAX, &n, why, len))
		return why;
	for (size_t i = 0; i < n; i++)
		if (ps[i].kind != PAGESIZE_4K &&
		    !(ps[i].kind == PAGESIZE_MTHP && ps[i].bytes < MEM_HUGE_BYTES)) {
			snprintf(why, len,
				 "a 2 MiB page does not split to '%s' (4k, or an mTHP "
				 "size below 2m)",
				 ps[i].name);
			return why;
		}
	return NULL;
}

/* Indexed like the "split" choices. */
static const unsigned split_pct[] = {0, 5, 25, 50, 100};

static const struct opt cycler_opt_rows[] = {
	OPT_SIZE("size", struct cycler_opts, size_bytes, "1G",
		 "THP buffer bytes (rounded down to 2M), capped at 50% of MemAvailable"),
	OPT_CPUS("threads", struct cycler_opts, threads, "max",
		 "thread counts: list (1,2,8), max, or all (1,2,4,..,max)"),
	OPT_LIST("split", struct cycler_opts, splits, "0|5|25|50|100", "0,5,25",
		 "% of the buffer's 2 MiB pages split before the run (to the sizes of to=)"),
	OPT_STR_CHECK("to", struct cycler_opts, to, "4k",
		      "what a split page becomes: 4k (mprotect: 4 KiB mappings of the same folio, "
		      "rows labelled by split alone), or mTHP sizes below 2m the kernel offers "
		      "(64k,1m: debugfs split_huge_pages splits the folio to that order, as "
		      "root; rows labelled to=SIZE)",
		      cycler_to_check, "4k|16k|64k|256k|1m"),
	OPT_END,
};

/* Word i holds value(i, p) after pass p. Index and pass both enter, so a stale
 * word (write lost), a word from elsewhere (misdirected write, wrong page
 * mapped) and a word from another pass all fail the check. */
#define IDX_MUL	 0x9e3779b97f4a7c15ull
#define PASS_MUL 0xd6e8feb86659fd93ull

static inline uint64_t cycler_value(uint64_t i, uint64_t pass)
{
	return (i * IDX_MUL) ^ (pass * PASS_MUL) ^ pass;
}

/* Written only on a mismatch, so threads sharing a line cost nothing. */
struct cycler_thread {
	uint64_t mismatches;
	uint64_t first_idx, first_got, first_want, first_pass; /* valid if mismatches */
};

struct cycler_job {
	struct team *team;
	uint64_t *words;
	uint64_t n_words;
	uint64_t pass;	/* passes completed over the whole buffer (0 = the fill) */
	uint64_t iters; /* passes in the current op call */
	struct cycler_thread *th;
};

/* Chunk of thread tid: contiguous, whole words, the last takes the rest. */
static void chunk(const struct cycler_job *j, unsigned tid, unsigned n, uint64_t *lo, uint64_t *hi)
{
	uint64_t per = j->n_words / n;

	*lo = per * tid;
	*hi = tid + 1 == n ? j->n_words : *lo + per;
}

static void fill_worker(unsigned tid, unsigned n, void *arg)
{
	struct cycler_job *j = arg;
	uint64_t lo, hi;

	chunk(j, tid, n, &lo, &hi);
	for (uint64_t i = lo; i < hi; i++)
		j->words[i] = cycler_value(i, 0);
}

/* One pass over [lo, hi): the mismatch branch is never taken on sound memory,
 * so it costs a predicted compare per word and names the exact word when it
 * is taken. */
static __attribute__((noinline)) void cycle_pass(uint64_t *w, uint64_t lo, uint64_t hi,
						 uint64_t pass, struct cycler_thread *t)
{
	uint64_t prev = ((pass - 1) * PASS_MUL) ^ (pass - 1), next = (pass * PASS_MUL) ^ pass;
	uint64_t a = lo * IDX_MUL;

	for (uint64_t i = lo; i < hi; i++, a += IDX_MUL) {
		uint64_t got = w[i], want = a ^ prev;

		if (__builtin_expect(got != want, 0)) {
			if (!t->mismatches++) {
				t->first_idx = i;
				t->first_got = got;
				t->first_want = want;
				t->first_pass = pass;
			}
		}
		w[i] = a ^ next;
	}
}

static void cycle_worker(unsigned tid, unsigned n, void *arg)
{
	struct cycler_job *j = arg;
	uint64_t lo, hi;

	chunk(j, tid, n, &lo, &hi);
	for (uint64_t p = 1; p <= j->iters; p++)
		cycle_pass(j->words, lo, hi, j->pass + p, &j->th[tid]);
}

static int cycle_op(void *arg, uint64_t iters)
{
	struct cycler_job *j = arg;
	unsigned n = team_size(j->team);

	j->iters = iters;
	team_run(j->team, cycle_worker, j);
	j->pass += iters;
	for (unsigned t = 0; t < n; t++)
		if (j->th[t].mismatches)
			return -1; /* ends the measurement; the caller reports */
	return 0;
}

/* Splits pct% of the 2 MiB pages, spread evenly (page k is chosen when
 * floor((k+1) pct / 100) steps up). A 4 KiB mprotect inside a huge page can
 * only be done with PTEs, so the kernel splits that PMD mapping; restoring the
 * protection merges the VMAs back but leaves the PTE mapping: the memory stays
 * one physically contiguous folio, only its translation is now 512 x 4 KiB -
 * the TLB side of what MADV_HWPOISON recovery does in docs/design.md §10.9, without losing
 * a page. Leaving the page read-only would fault on our own writes and keep
 * 2 extra VMAs per split. khugepaged may re-collapse some over time, so the
 * backing is read again after the run. */
static int split_pages(char *base, uint64_t n_huge, unsigned pct)
{
	for (uint64_t k = 0; k < n_huge; k++) {
		char *page = base + k * MEM_HUGE_BYTES + MEM_HUGE_BYTES / 2;

		if ((k + 1) * pct / 100 == k * pct / 100)
			continue;
		if (mprotect(page, PAGE_4K, PROT_READ) != 0 ||
		    mprotect(page, PAGE_4K, PROT_READ | PROT_WRITE) != 0)
			return error("mprotect of a 4 KiB page at %p failed: %s", (void *)page,
				     strerror(errno));
	}
	return 0;
}

/* The same pages split to folios of 2^order pages (debugfs
 * split_huge_pages: the folio itself is split, its mapping now PTEs). */
static int split_pages_to(char *base, uint64_t n_huge, unsigned pct, unsigned order)
{
	for (uint64_t k = 0; k < n_huge; k++) {
		char *page = base + k * MEM_HUGE_BYTES;

		if ((k + 1) * pct / 100 == k * pct / 100)
			continue;
		if (pagesize_split(page, MEM_HUGE_BYTES, order) != 0)
			return error("split_huge_pages of the 2 MiB page at %p to order %u: %s",
				     (void *)page, order, strerror(errno));
	}
	return 0;
}

/* The kernel refused the split: the chosen ranges faulted first, every 4
 * KiB, with to's size alone enabled (kit/pages.h puts the knobs back), so
 * they come up as folios of that size. 0, 1 when the knobs could not be set
 * (note says why), -1 on an error. */
static int build_chosen(char *base, uint64_t n_huge, unsigned pct, const struct pagesize *to,
			char *note, size_t len)
{
	int set = pagesize_begin(to, n_huge * MEM_HUGE_BYTES, note, len);

	if (set != 0)
		return set;
	for (uint64_t k = 0; k < n_huge; k++)
		if ((k + 1) * pct / 100 != k * pct / 100)
			for (uint64_t off = 0; off < MEM_HUGE_BYTES; off += PAGE_4K)
				((volatile char *)base)[k * MEM_HUGE_BYTES + off] = 0;
	return pagesize_end() == 0 ? 0 : -1;
}

/* Bytes of b in folios of exactly `size` (pagemap), or UINT64_MAX. */
static uint64_t bytes_at(const struct mem_buf *b, uint64_t size)
{
	uint64_t ge, ge2;
	if (pagesize_backing(b->addr, b->size_bytes, size, &ge) ||
	    pagesize_backing(b->addr, b->size_bytes, 2 * size, &ge2))
		return UINT64_MAX;
	return ge - ge2;
}

/* AnonHugePages of the buffer, or UINT64_MAX when smaps cannot be read (no
 * /proc): unknown, which is not 0. */
#define HUGE_UNKNOWN UINT64_MAX
static uint64_t anon_huge_bytes(const struct mem_buf *b)
{
	struct smaps_info sm;

	return mem_smaps_range(b->addr, b->size_bytes, &sm) == 0 ? sm.anon_huge_bytes
								 : HUGE_UNKNOWN;
}

/* A fact measured once per variant (one sample). */
static void add_single(struct probe_result *res, const char *name, enum unit u, double v,
		       const char *desc, const char *split, const char *to)
{
	struct metric *m = probe_add_metric(res, name, u, BETTER_NONE, desc, "split", split,
					    to ? "to" : NULL, to, NULL);

	metric_add_sample(m, v);
}

/* Records the mismatch count of a variant; any mismatch fails the probe with
 * the first bad word named. Returns 0, or -1 on a mismatch. */
static int cycler_check(struct probe_result *res, const struct cycler_job *j, unsigned nthreads,
			unsigned pct, const char *sname, const char *to)
{
	const struct cycler_thread *first = NULL;
	uint64_t total = 0;
	struct metric *m;

	for (unsigned t = 0; t < nthreads; t++) {
		total += j->th[t].mismatches;
		if (j->th[t].mismatches && !first)
			first = &j->th[t];
	}
	m = probe_add_metric(res, "mismatches", UNIT_COUNT, BETTER_LOWER,
			     "words that did not hold the value the previous pass wrote, over "
			     "every pass of this variant and every thread count (warm-ups "
			     "included); must be 0",
			     "split", sname, to ? "to" : NULL, to, NULL);
	metric_add_sample(m, (double)total);
	if (!first)
		return 0;
	probe_result_set_status(res, STATUS_FAIL,
				"MEMORY CORRUPTION: %" PRIu64 " words mismatched at split=%u; "
				"first: word %" PRIu64 " (offset 0x%" PRIx64 ") in pass %" PRIu64
				" held 0x%016" PRIx64 ", expected 0x%016" PRIx64,
				total, pct, first->first_idx, first->first_idx * 8,
				first->first_pass, first->first_got, first->first_want);
	return -1;
}

/* One split variant on a fresh buffer, its pages split to 4 KiB mappings
 * (to NULL) or to folios of to's size. Returns PROBE_OK or PROBE_FAIL. */
static int cycler_variant(struct probe_ctx *ctx, uint64_t size, unsigned pct,
			  const struct pagesize *to, int built, const unsigned *threads,
			  size_t n_threads, struct team **teams, char **notes)
{
	const char *tl = to ? to->name : NULL;
	unsigned order = 0;
	uint64_t at2m_before = UINT64_MAX;
	struct probe_result *res = ctx->res;
	struct cycler_job j = {0};
	uint64_t huge_before, huge_split, huge_end, n_huge = size / MEM_HUGE_BYTES;
	char sname[16], tname[16];
	struct mem_buf b;
	double obtained;
	int rc = PROBE_OK;

	snprintf(sname, sizeof(sname), "%u", pct);
	if (mem_map(&b, size, MEM_PAGES_THP, 0) != 0) {
		probe_result_set_status(res, STATUS_FAIL, "cannot map %" PRIu64 " bytes", size);
		return PROBE_FAIL;
	}
	j.words = b.addr;
	j.n_words = size / sizeof(uint64_t);
	j.th = xcalloc(threads[n_threads - 1], sizeof(*j.th));
	/* Pass 0 is the fill, by the owning threads of the largest team: it is
	 * also the first touch that faults the huge pages in. */
	if (built && pct) {
		char note[512];
		int r = build_chosen(b.addr, n_huge, pct, to, note, sizeof(note));

		if (r != 0) {
			char *n =
				xasprintf("%s%ssplit=%u to=%s: the buffer could not be built "
					  "(%s): variant void",
					  *notes ? *notes : "", *notes ? "; " : "", pct, tl,
					  r > 0 ? note : "the knobs could not be set or put back");
			free(*notes);
			*notes = n;
			rc = r > 0 ? PROBE_OK : PROBE_FAIL;
			goto out;
		}
	}
	progress("cpu.cycler: split=%u: filling %" PRIu64 " MiB", pct, size >> 20);
	j.team = teams[n_threads - 1];
	team_run(j.team, fill_worker, &j);
	/* built: measured against a buffer all of 2 MiB pages */
	huge_before = built ? size : anon_huge_bytes(&b);
	while (to && (PAGE_4K << order) < to->bytes)
		order++;
	if (built)
		at2m_before = size;
	else if (to && pagesize_backing(b.addr, b.size_bytes, MEM_HUGE_BYTES, &at2m_before) != 0)
		at2m_before = UINT64_MAX;
	if (pct && huge_before == 0) {
		char *n = xasprintf("%s%ssplit=%u: no THP backing (MADV_HUGEPAGE gave 0 huge "
				    "pages), nothing to split: variant void",
				    *notes ? *notes : "", *notes ? "; " : "", pct);

		free(*notes);
		*notes = n;
		goto out;
	}
	if (pct && !built &&
	    (to ? split_pages_to(b.addr, n_huge, pct, order) : split_pages(b.addr, n_huge, pct)) !=
		    0) {
		probe_result_set_status(res, STATUS_FAIL, "cannot split %u%% of the huge pages",
					pct);
		rc = PROBE_FAIL;
		goto out;
	}
	huge_split = anon_huge_bytes(&b);
	/* khugepaged could collapse something in between: never below 0. */
	obtained = huge_before && huge_split < huge_before
			   ? 100.0 * (double)(huge_before - huge_split) / (double)huge_before
			   : 0.0;

	if (huge_before == HUGE_UNKNOWN || huge_split == HUGE_UNKNOWN) {
		/* no smaps: the backing and the split are unknown, so not recorded */
		probe_result_add_param(res, "thp_backed", "unknown: /proc/self/smaps not readable");
	} else {
		add_single(res, "thp_backed", UNIT_MIB, (double)huge_split / MIB,
			   "AnonHugePages of the buffer after splitting, before timing "
			   "(/proc/self/smaps; PMD-mapped only); MiB = 2^20 B",
			   sname, tl);
		add_single(res, "split_obtained", UNIT_PCT, obtained,
			   "share of the PMD-mapped 2 MiB pages that the split turned into 4 KiB "
			   "mappings, from AnonHugePages before and after",
			   sname, tl);
	}
	if (to) { /* what the split pages became, from the page table */
		uint64_t at2m, at_order = bytes_at(&b, to->bytes);
		if (at2m_before == UINT64_MAX || at_order == UINT64_MAX ||
		    pagesize_backing(b.addr, b.size_bytes, MEM_HUGE_BYTES, &at2m) != 0 ||
		    at2m >= at2m_before)
			probe_result_add_param(res, "split_at_order",
					       "unknown: no pagemap PFNs, or nothing split");
		else
			add_single(res, "split_at_order", UNIT_PCT,
				   100.0 * (double)at_order / (double)(at2m_before - at2m),
				   "share of the memory the split took out of 2 MiB folios that "
				   "is now in folios of exactly the size asked (pagemap + "
				   "kpageflags)",
				   sname, tl);
	}
	for (size_t ti = 0; ti < n_threads && rc == PROBE_OK; ti++) {
		struct metric *m;
		char *desc;

		snprintf(tname, sizeof(tname), "%u", threads[ti]);
		j.team = teams[ti];
		desc = xasprintf(
			"64-bit words per microsecond, all %u threads: per word one read, "
			"check against the previous pass's value, one write (1 word = 16 B "
			"of traffic); %" PRIu64 " MiB THP buffer, %u%% of 2 MiB pages "
			"split to %s",
			threads[ti], size >> 20, pct, tl ? tl : "4 KiB mappings");
		m = probe_add_metric(res, "rate", UNIT_WORDS_US, BETTER_HIGHER, desc, "split",
				     sname, "threads", tname, tl ? "to" : NULL, tl, NULL);
		free(desc);
		progress("cpu.cycler: split=%u threads=%u", pct, threads[ti]);
		if (measure_op(ctx, m, cycle_op, &j, (double)j.n_words, MEASURE_RATE, 1e-6) != 0)
			rc = PROBE_FAIL;
	}

	if (cycler_check(res, &j, threads[n_threads - 1], pct, sname, tl) != 0)
		rc = PROBE_FAIL;
	else if (rc != PROBE_OK)
		probe_result_set_status(res, STATUS_FAIL, "measurement failed at split=%u", pct);
	huge_end = anon_huge_bytes(&b);
	if (huge_end != huge_split && huge_end != HUGE_UNKNOWN) {
		char key[48], val[64];

		snprintf(key, sizeof(key), "thp_backed_end_split_%u%s%.20s", pct, tl ? "_to_" : "",
			 tl ? tl : "");
		snprintf(val, sizeof(val), "%.0f MiB (khugepaged re-collapsed or split more)",
			 (double)huge_end / MIB);
		probe_result_add_param(res, key, val);
	}
out:
	free(j.th);
	mem_unmap(&b);
	return rc;
}

static int cycler_run(struct probe_ctx *ctx, const void *opts)
{
	const struct cycler_opts *o = opts;
	unsigned threads[LIST_MAX];
	struct team *teams[LIST_MAX] = {0};
	size_t n_threads = 0;
	uint64_t size;
	char buf[64], why[256], *notes = NULL;
	struct pagesize to[PAGESIZE_MAX];
	size_t n_to;
	int rc = PROBE_OK, debugfs = 1, mounted = 0;

	rc = probe_threads(ctx, o->threads, threads, &n_threads);
	if (rc != PROBE_OK)
		return rc;
	if (pages_parse(ctx, o->to, to, &n_to))
		return PROBE_FAIL;
	for (size_t t = 0; t < n_to && debugfs > 0; t++)
		if (to[t].kind == PAGESIZE_MTHP && (o->splits & ~1u)) {
			debugfs = pagesize_split_open(&mounted, why, sizeof(why));
			if (debugfs < 0) {
				probe_result_add_param(ctx->res, "split_to", why);
				probe_result_add_param(
					ctx->res, "split_to_method",
					"built, not split (the kernel refused the split): the "
					"chosen 2 MiB ranges faulted first with only the size "
					"asked enabled, so they came up as folios of that size; "
					"the rest after, under the settings as found (2 MiB); "
					"split_obtained and split_at_order read what the "
					"buffer got");
			} else
				probe_result_add_param(ctx->res, "split_to_method",
						       "debugfs split_huge_pages "
						       "(pid,start,end,order) per chosen 2 MiB "
						       "page: the folio split to that order");
			if (mounted)
				probe_result_add_param(ctx->res, "debugfs",
						       "mounted at /sys/kernel/debug for the "
						       "split, unmounted after");
		}
	size = ctx->force ? o->size_bytes : mem_cap(o->size_bytes, 0.5);
	size &= ~(MEM_HUGE_BYTES - 1);
	if (size < MEM_HUGE_BYTES * threads[n_threads - 1]) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"size %" PRIu64
					" gives less than one 2 MiB page per thread",
					o->size_bytes);
		return PROBE_FAIL;
	}
	if (mem_check_size(size, ctx->force, "cpu.cycler buffer") != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL,
					"buffer of %" PRIu64 " bytes above 80%% of MemAvailable",
					size);
		return PROBE_FAIL;
	}
	opt_format_size(size, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "size_bytes", buf);
	if (size < o->size_bytes)
		probe_result_add_param(ctx->res, "size_note", "capped at 50% of MemAvailable");
	probe_result_add_param(ctx->res, "split_method",
			       "mprotect one 4 KiB page per chosen 2 MiB page to PROT_READ and "
			       "back: PMD mapping split, folio kept");

	for (size_t i = 0; i < n_threads; i++) {
		teams[i] = team_start(threads[i], NULL);
		if (!teams[i]) {
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"cannot start %u pinned threads", threads[i]);
			rc = PROBE_FAIL;
			break;
		}
	}
	for (size_t s = 0; s < ARRAY_SIZE(split_pct) && rc == PROBE_OK; s++)
		for (size_t t = 0; t < n_to && rc == PROBE_OK; t++) {
			int mthp = to[t].kind == PAGESIZE_MTHP;
			if (!(o->splits & (1u << s)) || (split_pct[s] == 0 && t > 0))
				continue; /* split=0 once */
			rc = cycler_variant(ctx, size, split_pct[s],
					    mthp && split_pct[s] ? &to[t] : NULL,
					    mthp && debugfs < 0, threads, n_threads, teams, &notes);
		}
	pagesize_split_close(mounted);
	if (notes) {
		probe_result_add_param(ctx->res, "void_variants", notes);
		free(notes);
	}
	for (size_t i = 0; i < n_threads; i++)
		team_stop(teams[i]);
	return rc;
}

const struct probe probe_cpu_cycler = {
	.name = "cpu.cycler",
	.summary = "MemCycler: validated read-write cycling of a THP buffer, 0/5/25% split to 4K",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = cycler_opt_rows,
	.opts_size = sizeof(struct cycler_opts),
	.quick_opts = "size=256M",
	.typical_s = {1.2, 2.6}, /* docs/design.md §2.8 */
	.run = cycler_run,
};
