/* measures: fault-in rate of a fresh anonymous mapping (GiB/s, minor faults
 *           per GiB, THP MiB actually obtained), then random 64 B-line reads
 *           over the touched buffer (Macc/s); a read touch, which maps the
 *           zero page, is its own metric (zero_map_rate).
 * method: per sample a new mapping with MADV_HUGEPAGE or MADV_NOHUGEPAGE is
 *         touched once per 4 KiB page (write, read) or populated with
 *         MADV_POPULATE_WRITE, timed with the monotonic clock; faults from
 *         getrusage, THP backing from /proc/self/smaps of that mapping.
 * why this way: docs/design.md §10.1 — THP turns first touch and random access
 *         around by an order of magnitude, and MADV_HUGEPAGE can silently
 *         give nothing, so the obtained backing is a metric, not an assumption.
 * cross-check: faults/GiB must be ~262144 (4 KiB) or ~512 (2 MiB) per GiB;
 *         thp_backed must equal the size for pages=thp when THP is not "never".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "base/util.h"
#include "kit/pages.h"
#include "kit/probe.h"
#include "machine/mem.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { TOUCH_WRITE, TOUCH_READ, TOUCH_POPULATE };

struct first_touch_opts {
	uint64_t size_bytes;
	char pages[OPT_STR_MAX];
	uint32_t touch;
	uint64_t streams;
};

static const struct opt first_touch_opts[] = {
	OPT_SIZE("size", struct first_touch_opts, size_bytes, "1G",
		 "bytes mapped and touched per sample (capped at 25% of MemAvailable)"),
	OPT_STR_CHECK("pages", struct first_touch_opts, pages, "4k,thp,default",
		      "page sizes, comma-separated: 4k (MADV_NOHUGEPAGE), thp (MADV_HUGEPAGE), "
		      "default (no advice: the THP policy decides), each mTHP size the kernel "
		      "offers (64k, 2m ...: that size alone enabled for the run, as root), "
		      "hugetlb-2m, hugetlb-1g (pages reserved for the run), or all (4k, every "
		      "mTHP size, every hugetlb pool)",
		      pagesize_check, PAGESIZE_HINT),
	OPT_LIST("touch", struct first_touch_opts, touch, "write|read|populate", "all",
		 "how pages are faulted in: a store or a load per 4 KiB, or MADV_POPULATE_WRITE"),
	OPT_UINT(
		"streams", struct first_touch_opts, streams, "8",
		"independent random-access streams (memory-level parallelism) for the random pass"),
	OPT_END,
};

static long minflt_now(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Faults the buffer in; returns 0 or -1 (errno set). */
static int touch_buffer(struct mem_buf *b, int touch, uint64_t *sink)
{
	volatile char *p = b->addr;
	uint64_t sum = 0;
	switch (touch) {
	case TOUCH_WRITE:
		for (size_t off = 0; off < b->size_bytes; off += 4096)
			p[off] = 1;
		break;
	case TOUCH_READ:
		for (size_t off = 0; off < b->size_bytes; off += 4096)
			sum += (uint64_t)p[off];
		break;
	case TOUCH_POPULATE:
		if (madvise(b->addr, b->size_bytes, MADV_POPULATE_WRITE) != 0)
			return -1;
		break;
	}
	*sink += sum;
	return 0;
}

/* The random pass's state: the only memory a timed region touches besides
 * the buffer, so it lives in a mapping of its own with an explicit page
 * intent, made before the first variant (first_touch_run): under THP=always
 * nothing of the probe's own moves with the knob. */
struct random_arg {
	const uint64_t *base;
	uint64_t n_lines;
	unsigned streams;
	uint64_t state[16];
	uint64_t sink;
};

/* Independent random line reads: `streams` xorshift generators advance in
 * lock step, so that many loads are in flight (an access rate, not latency). */
static int random_op(void *argp, uint64_t iters)
{
	struct random_arg *a = argp;
	uint64_t sum = 0, mask = a->n_lines - 1;
	unsigned s = a->streams;
	for (uint64_t i = 0; i < iters; i++) {
		for (unsigned k = 0; k < s; k++) {
			uint64_t x = a->state[k];
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			a->state[k] = x;
			sum += a->base[(x & mask) * 8];
		}
	}
	a->sink += sum;
	return 0;
}

/* Does this kernel have MADV_POPULATE_WRITE (5.14+)? Tried on one page. */
static int populate_supported(void)
{
	struct mem_buf b;
	int ok;
	if (mem_map(&b, MEM_HUGE_BYTES, MEM_PAGES_4K, 0) != 0)
		return 0;
	ok = madvise(b.addr, 4096, MADV_POPULATE_WRITE) == 0;
	mem_unmap(&b);
	return ok;
}

static const char *const touch_names[] = {"write", "read", "populate"};

/* One variant's one-shot samples, warm-ups first: rate GiB/s, faults per
 * GiB, THP MiB (NAN when smaps could not be read), MiB in folios of at least
 * the size asked (mTHP and hugetlb rows; NAN elsewhere or unknown). */
struct touch_samples {
	double *rate, *faults, *thp, *at; /* warm-ups, then counted samples, each */
	double *t0, *t1;		  /* each sample's window (monotonic seconds) */
	unsigned n, cap;
};

/* What a read touch did, read off its counted samples (verified, never
 * predicted: on 6.18 a read of MADV_HUGEPAGE memory was seen to allocate
 * huge pages where older kernels map the huge zero page): "alloc" when THP
 * backs the mapping, "hugezero" for one fault per 2 MiB and nothing backing
 * it, "zero" for one fault per 4 KiB, "unknown" without smaps. */
static const char *read_outcome(const struct touch_samples *t, unsigned warm)
{
	double thp = 0, faults = 0;

	for (unsigned i = warm; i < t->n; i++) {
		if (isnan(t->thp[i]))
			return "unknown";
		thp += t->thp[i];
		faults += t->faults[i];
	}
	if (thp > 0)
		return "alloc";
	return faults / (t->n - warm) <= 1024 ? "hugezero" : "zero";
}

/* Records the samples under the name and labels the touch earned. A read
 * that mapped a zero page allocated nothing: its rate is of mapping, not of
 * memory (the huge zero page reads hundreds of GiB/s), so it is a metric of
 * its own, never in touch_rate's chart, and the huge zero page has its own
 * label. */
static void record_touch(struct probe_ctx *ctx, const struct touch_samples *t, const char *pl,
			 const char *tl, const char *outcome, char *stop)
{
	int zero = outcome && (!strcmp(outcome, "zero") || !strcmp(outcome, "hugezero"));
	struct metric *m[4];
	size_t first = ctx->res->n_metrics;
	int nm = 3;

	if (outcome && !strcmp(outcome, "hugezero"))
		tl = "read_hugezero";
	if (zero)
		probe_add_metric(ctx->res, "zero_map_rate", UNIT_GIB_S, BETTER_NONE,
				 "bytes mapped / time to fault them in with one load per 4 KiB: "
				 "each fault mapped the shared zero page (read_hugezero: the huge "
				 "zero page, one fault per 2 MiB); no memory was allocated",
				 "pages", pl, "touch", tl, NULL);
	else
		probe_add_metric(ctx->res, "touch_rate", UNIT_GIB_S, BETTER_HIGHER,
				 "bytes mapped / time to fault them in", "pages", pl, "touch", tl,
				 NULL);
	probe_add_metric(ctx->res, "minor_faults", UNIT_PER_GIB, BETTER_LOWER,
			 "minor faults (getrusage) per GiB touched", "pages", pl, "touch", tl,
			 NULL);
	probe_add_metric(ctx->res, "thp_backed", UNIT_MIB, BETTER_NONE,
			 "AnonHugePages of the mapping after the touch (smaps)", "pages", pl,
			 "touch", tl, NULL);
	if (t->at)
		probe_add_metric(ctx->res, "backed_at_size", UNIT_MIB, BETTER_NONE,
				 "MiB of the buffer in folios of at least the page size asked "
				 "(pagemap + kpageflags; without them the size's fault counters)",
				 "pages", pl, "touch", tl, NULL);
	nm = t->at ? 4 : 3;
	for (int k = 0; k < nm; k++)
		m[k] = &ctx->res->metrics[first + (size_t)k];
	m[0]->stop = stop; /* --reps auto: why the rate's sampling stopped */
	for (unsigned i = 0; i < t->n; i++) {
		double v[4] = {t->rate[i], t->faults[i], t->thp[i], t->at ? t->at[i] : NAN};

		for (int k = 0; k < nm; k++) {
			if (isnan(v[k])) /* unknown backing: absent, never 0 MiB */
				continue;
			if (i < ctx->warmups)
				metric_add_warmup(m[k], v[k]);
			else
				metric_add_sample_at(m[k], v[k], t->t0[i], t->t1[i]);
		}
	}
	if (outcome && !strcmp(outcome, "alloc"))
		probe_result_add_param(
			ctx->res, "read_touch",
			"a read touch allocated huge pages here (no huge zero page): "
			"its rate is touch_rate");
	if (outcome && !strcmp(outcome, "unknown"))
		probe_result_add_param(
			ctx->res, "read_touch",
			"unknown whether a read touch mapped the zero page (no smaps)");
}

/* Independent random reads over the touched buffer, state in ra (aux). */
static int random_pass(struct probe_ctx *ctx, const struct first_touch_opts *o,
		       struct random_arg *ra, void *base, const char *pl, const char *tl)
{
	char streams[16];
	struct metric *m;

	ra->base = base;
	ra->streams = (unsigned)o->streams;
	ra->sink = 0;
	snprintf(streams, sizeof(streams), "%u", ra->streams);
	m = probe_add_metric(ctx->res, "random_after", UNIT_MACC_S, BETTER_HIGHER,
			     "independent random 64 B-line reads over the touched buffer", "pages",
			     pl, "touch", tl, "streams", streams, NULL);
	ra->n_lines = 1;
	while (ra->n_lines * 2 * 64 <= o->size_bytes)
		ra->n_lines *= 2;
	for (unsigned k = 0; k < ra->streams; k++)
		ra->state[k] = 0x9e3779b97f4a7c15ull * (k + 1);
	return measure_op(ctx, m, random_op, ra, ra->streams, MEASURE_RATE, 1e-6);
}

/* Room for one more sample in t. */
static void touch_grow(struct touch_samples *t)
{
	if (t->n < t->cap)
		return;
	t->cap = t->cap ? 2 * t->cap : 16;
	t->rate = xrealloc(t->rate, t->cap * sizeof(double));
	t->faults = xrealloc(t->faults, t->cap * sizeof(double));
	t->thp = xrealloc(t->thp, t->cap * sizeof(double));
	t->at = xrealloc(t->at, t->cap * sizeof(double));
	t->t0 = xrealloc(t->t0, t->cap * sizeof(double));
	t->t1 = xrealloc(t->t1, t->cap * sizeof(double));
}

static int run_variant(struct probe_ctx *ctx, const struct first_touch_opts *o,
		       const struct pagesize *ps, int touch, struct random_arg *ra,
		       struct touch_samples *t)
{
	const char *pl = ps->name, *tl = touch_names[touch], *outcome = NULL, *source = NULL;
	int sized = pages_sized(ps);
	uint64_t fault_alloc = 0, fault_fallback = 0;
	double *at;
	struct mem_buf b;
	struct metric pace = {0}; /* the counted rates, for measure_more() */
	uint64_t sink = 0, t_first = 0;
	int mapped = 0;
	double gib = (double)o->size_bytes / (double)(1u << 30);

	progress("cpu.first_touch: pages=%s touch=%s", pl, tl);
	/* warm-ups, then counted samples while measure_more() wants them (a
	 * count, or --reps auto on the touch rate); the last buffer stays
	 * mapped for the random pass */
	for (t->n = 0;; t->n++) {
		struct smaps_info si;
		long f0, f1;
		uint64_t t0, dt, a0 = UINT64_MAX, a1 = 0, fb0 = 0, fb1 = 0, allocs0;
		int rc;

		if (t->n == ctx->warmups)
			t_first = time_now_ns();
		if (t->n >= ctx->warmups && !measure_more(ctx, &pace, t->n - ctx->warmups, t_first))
			break;
		if (mapped)
			mem_unmap(&b);
		mapped = 0;
		touch_grow(t);
		t->t0[t->n] = metric_clock(); /* a window boundary: counters read */
		if (pagesize_map(&b, ps, o->size_bytes, 0) != 0) {
			probe_result_set_status(ctx->res, STATUS_FAIL, "cannot map %llu bytes",
						(unsigned long long)o->size_bytes);
			metric_clear(&pace);
			return PROBE_FAIL;
		}
		mapped = 1;
		if (ps->kind == PAGESIZE_MTHP && pagesize_mthp_stats(ps->bytes, &a0, &fb0) != 0)
			a0 = UINT64_MAX;
		allocs0 = a0;
		f0 = minflt_now();
		t0 = time_now_ns();
		rc = touch_buffer(&b, touch, &sink);
		dt = time_now_ns() - t0;
		f1 = minflt_now();
		if (a0 != UINT64_MAX && pagesize_mthp_stats(ps->bytes, &a1, &fb1) == 0 &&
		    t->n >= ctx->warmups) {
			fault_alloc += a1 - a0;
			fault_fallback += fb1 - fb0;
		}
		if (rc != 0) {
			mem_unmap(&b);
			probe_result_set_status(ctx->res, STATUS_FAIL,
						"madvise(MADV_POPULATE_WRITE): %s",
						strerror(errno));
			metric_clear(&pace);
			return PROBE_FAIL;
		}
		t->rate[t->n] = gib / ((double)(dt ? dt : 1) * 1e-9);
		t->faults[t->n] = (double)(f1 - f0) / gib;
		/* Unreadable smaps (no /proc): the backing is unknown. */
		t->thp[t->n] = NAN;
		if (mem_smaps_range(b.addr, b.size_bytes, &si) == 0)
			t->thp[t->n] = (double)si.anon_huge_bytes / 1048576.0;
		else
			probe_result_add_param(ctx->res, "thp_backed",
					       "unknown: /proc/self/smaps not readable");
		t->at[t->n] = sized ? pages_backed_mib(ps, &b, allocs0, &source) : NAN;
		t->t1[t->n] = metric_clock();
		if (t->n >= ctx->warmups)
			metric_add_sample(&pace, t->rate[t->n]);
	}
	if (!mapped) { /* no sample asked for */
		metric_clear(&pace);
		return PROBE_OK;
	}
	if (touch == TOUCH_READ)
		outcome = read_outcome(t, ctx->warmups);
	at = t->at;
	if (!sized)
		t->at = NULL; /* no size asked: no backing metric */
	record_touch(ctx, t, pl, tl, outcome, pace.stop);
	t->at = at;
	if (sized) {
		char key[96], val[160];
		pages_note(ctx, ps, source);
		if (ps->kind == PAGESIZE_MTHP && touch != TOUCH_READ) {
			snprintf(key, sizeof(key), "mthp_stats_%.40s_%.10s", pl, tl);
			snprintf(val, sizeof(val),
				 "anon_fault_alloc +%llu, anon_fault_fallback +%llu over the "
				 "counted samples (system-wide)",
				 (unsigned long long)fault_alloc,
				 (unsigned long long)fault_fallback);
			probe_result_add_param(ctx->res, key, val);
		}
	}
	pace.stop = NULL; /* the rate metric's now */
	metric_clear(&pace);
	if (outcome && !strcmp(outcome, "hugezero"))
		tl = "read_hugezero";
	/* Random access over the last touched buffer, unless the touch mapped
	 * the shared zero page: random reads would hit one page in cache and
	 * measure nothing about this memory. */
	if ((!outcome || !strcmp(outcome, "alloc")) && random_pass(ctx, o, ra, b.addr, pl, tl)) {
		mem_unmap(&b);
		return PROBE_FAIL;
	}
	sink += ra->sink;
	mem_unmap(&b);
	__asm__ volatile("" : : "r"(sink));
	return PROBE_OK;
}

/* One page size's rows: its knobs set for them and put back after,
 * whatever the rows did (kit/pages.h). */
static int run_size(struct probe_ctx *ctx, const struct first_touch_opts *o,
		    const struct pagesize *ps, struct random_arg *ra, struct touch_samples *t)
{
	int rc = pages_begin(ctx, ps, o->size_bytes), end;

	if (rc != PROBE_OK)
		return rc == PROBE_SKIP ? PROBE_OK : rc;
	for (int touch = 0; touch < 3 && rc == PROBE_OK; touch++)
		if (o->touch & (1u << touch))
			rc = run_variant(ctx, o, ps, touch, ra, t);
	end = pages_end(ctx, ps);
	return rc == PROBE_OK ? end : rc;
}

static int first_touch_run(struct probe_ctx *ctx, const void *optp)
{
	struct first_touch_opts o = *(const struct first_touch_opts *)optp;
	struct mem_buf aux;
	struct smaps_info si;
	struct touch_samples t = {0};
	struct pagesize ps[PAGESIZE_MAX];
	size_t n_ps;
	char buf[256];
	int rc = PROBE_OK;

	if (o.streams < 1 || o.streams > 16) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "streams must be 1..16");
		return PROBE_FAIL;
	}
	if (pages_parse(ctx, o.pages, ps, &n_ps) != 0)
		return PROBE_FAIL;
	if (o.size_bytes < MEM_HUGE_BYTES) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "size must be at least 2M");
		return PROBE_FAIL;
	}
	if (mem_check_size(o.size_bytes, ctx->force, "cpu.first_touch size") != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "size above 80%% of MemAvailable");
		return PROBE_FAIL;
	}
	if (!ctx->force)
		o.size_bytes = mem_cap(o.size_bytes, 0.25);
	opt_format_size(o.size_bytes, buf, sizeof(buf));
	probe_result_add_param(ctx->res, "size_used", buf);
	if ((o.touch & (1u << TOUCH_POPULATE)) && !populate_supported()) {
		o.touch &= ~(1u << TOUCH_POPULATE);
		probe_result_add_param(ctx->res, "touch_populate",
				       "skipped: MADV_POPULATE_WRITE not supported by this kernel");
	}
	/* The auxiliary memory, before any variant and with its own intent. */
	if (mem_map(&aux, MEM_HUGE_BYTES, MEM_PAGES_4K, 0) != 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot map the auxiliary page");
		return PROBE_FAIL;
	}
	memset(aux.addr, 0, 4096);
	if (mem_smaps_range(aux.addr, aux.size_bytes, &si) == 0) {
		snprintf(buf, sizeof(buf), "4 KiB pages (MADV_NOHUGEPAGE), %llu MiB THP",
			 (unsigned long long)(si.anon_huge_bytes >> 20));
		probe_result_add_param(ctx->res, "aux_pages", buf);
	}
	for (size_t i = 0; i < n_ps && rc == PROBE_OK; i++)
		rc = run_size(ctx, &o, &ps[i], aux.addr, &t);
	mem_unmap(&aux);
	free(t.rate);
	free(t.faults);
	free(t.thp);
	free(t.at);
	free(t.t0);
	free(t.t1);
	return rc;
}

/* What its figures assume (kit/receipts.h): the pages asked for, faulted in
 * the windows themselves. */
static const struct receipt first_touch_receipts[] = {
	{.metric = "touch_rate",
	 .label = "pages",
	 .value = "thp",
	 .kind = RECEIPT_THP,
	 .size = "size_used",
	 .thp = "thp_backed",
	 .per_window = 1},
	{.metric = "touch_rate",
	 .label = "pages",
	 .value = "4k",
	 .kind = RECEIPT_4K,
	 .size = "size_used",
	 .thp = "thp_backed"},
	/* every mTHP and hugetlb row: backed at the size it is labelled */
	{.metric = "touch_rate",
	 .kind = RECEIPT_PAGESIZE,
	 .size = "size_used",
	 .thp = "backed_at_size"},
	{.metric = "random_after",
	 .kind = RECEIPT_PAGESIZE,
	 .size = "size_used",
	 .thp = "backed_at_size"},
	{.metric = "minor_faults",
	 .kind = RECEIPT_PAGESIZE,
	 .size = "size_used",
	 .thp = "backed_at_size"},
	{0},
};

const struct probe probe_cpu_first_touch = {
	.name = "cpu.first_touch",
	.summary = "fault-in rate of fresh anonymous memory, 4 KiB vs THP, and random access after",
	.flags = PROBE_CPU | PROBE_QUICK,
	.opts = first_touch_opts,
	.opts_size = sizeof(struct first_touch_opts),
	.quick_opts = "size=256M touch=write,read",
	.quick_note = "256 MiB a sample, stores and loads (MADV_POPULATE_WRITE in the full suite)",
	/* the full suite sweeps every page size the kernel offers (§4.21) */
	.full_opts = "pages=thp,default,all",
	.typical_s = {4.8, 231.1}, /* docs/design.md §2.8 */
	.run = first_touch_run,
	.receipts = first_touch_receipts,
	.primary = "touch_rate",
};
