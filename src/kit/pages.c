/* pages.c - a CPU probe's page-size rows (pages.h). */
#include "kit/pages.h"

#include <math.h>
#include <stdio.h>

int pages_sized(const struct pagesize *ps)
{
	return ps->kind == PAGESIZE_MTHP || ps->kind == PAGESIZE_HUGETLB;
}

int pages_parse(struct probe_ctx *ctx, const char *spec, struct pagesize *ps, size_t *n)
{
	char why[256];
	if (pagesize_parse(spec, ps, PAGESIZE_MAX, n, why, sizeof(why)) == 0)
		return 0;
	probe_result_set_status(ctx->res, STATUS_FAIL, "%s", why);
	return PROBE_FAIL;
}

int pages_begin(struct probe_ctx *ctx, const struct pagesize *ps, uint64_t bytes)
{
	char key[96], note[512];
	int set;

	snprintf(key, sizeof(key), "pages_%.40s", ps->name);
	if (ps->kind == PAGESIZE_HUGETLB && bytes < ps->bytes) {
		snprintf(note, sizeof(note), "skipped: the buffer (%llu MiB) is below one page",
			 (unsigned long long)(bytes >> 20));
		probe_result_add_param(ctx->res, key, note);
		return PROBE_SKIP;
	}
	set = pagesize_begin(ps, bytes, note, sizeof(note));
	if (set < 0) {
		probe_result_set_status(ctx->res, STATUS_FAIL, "cannot set the knobs for pages=%s",
					ps->name);
		return PROBE_FAIL;
	}
	if (note[0])
		probe_result_add_param(ctx->res, key, note);
	/* no pages: no row */
	return set > 0 && ps->kind == PAGESIZE_HUGETLB ? PROBE_SKIP : PROBE_OK;
}

int pages_end(struct probe_ctx *ctx, const struct pagesize *ps)
{
	if (pagesize_end() == 0)
		return 0;
	probe_result_set_status(ctx->res, STATUS_FAIL,
				"the page-size knobs of pages=%s could not be put back", ps->name);
	return PROBE_FAIL;
}

uint64_t pages_allocs(const struct pagesize *ps)
{
	uint64_t a, fb;
	if (ps->kind != PAGESIZE_MTHP || pagesize_mthp_stats(ps->bytes, &a, &fb) != 0)
		return UINT64_MAX;
	return a;
}

double pages_backed_mib(const struct pagesize *ps, const struct mem_buf *b, uint64_t allocs0,
			const char **source)
{
	uint64_t at, a1 = pages_allocs(ps);

	if (pagesize_backing(b->addr, b->size_bytes, ps->bytes, &at) == 0) {
		*source = "pagemap + kpageflags";
		return (double)at / 1048576.0;
	}
	if (ps->kind == PAGESIZE_HUGETLB) {
		*source = "MAP_HUGETLB (no pagemap PFNs here)";
		return (double)b->size_bytes / 1048576.0;
	}
	if (allocs0 != UINT64_MAX && a1 != UINT64_MAX && a1 >= allocs0) {
		*source = "anon_fault_alloc delta (no pagemap PFNs here)";
		return fmin((double)(a1 - allocs0) * (double)ps->bytes, (double)b->size_bytes) /
		       1048576.0;
	}
	*source = NULL;
	return NAN;
}

void pages_note(struct probe_ctx *ctx, const struct pagesize *ps, const char *source)
{
	char key[96], val[96];
	snprintf(key, sizeof(key), "backing_%.40s", ps->name);
	probe_result_add_param(ctx->res, key,
			       source ? source : "unknown: neither pagemap nor counters");
	if (ps->kind == PAGESIZE_MTHP && ps->bytes < MEM_HUGE_BYTES) {
		/* why a chase below 2 MiB is flat, not a slope (docs/design.md §4.21) */
		snprintf(key, sizeof(key), "translation_%.40s", ps->name);
		probe_result_add_param(
			ctx->res, key,
#if defined(__x86_64__)
			"PTE-mapped (below the PMD size): x86-64 TLBs hold 4 KiB entries for it "
			"(AMD may coalesce a few), the page walk is 4k's; expect no TLB gain "
			"before 2m"
#else
			"PTE-mapped (below the PMD size): the TLB gain depends on the CPU "
			"(arm64 contpte: 64 KiB entries)"
#endif
		);
	}
	snprintf(key, sizeof(key), "faults_expected_%.40s", ps->name);
	snprintf(val, sizeof(val), "%.0f per GiB (1 GiB / page size)",
		 1073741824.0 / (double)ps->bytes);
	probe_result_add_param(ctx->res, key, val);
}
