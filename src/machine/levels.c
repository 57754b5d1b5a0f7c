/* levels.c - memory levels from /proc/meminfo and /proc/zoneinfo. */
#include "machine/levels.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/kv.h"
#include "base/stats.h"
#include "base/util.h"

int64_t levels_zoneinfo_pcp_pages(const char *z)
{
	int64_t sum = -1;
	int in_pagesets = 0;
	for (const char *p = z; p && *p;) {
		const char *eol = strchr(p, '\n'), *q = p;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		while (q < p + len && *q == ' ')
			q++;
		/* "pagesets" opens the per-CPU part of a zone; "Node N, zone X"
		 * or "node_unreclaimable:" ends it. */
		if (strncmp(q, "pagesets", 8) == 0)
			in_pagesets = 1;
		else if (strncmp(p, "Node ", 5) == 0 || strncmp(q, "node_unreclaimable", 18) == 0)
			in_pagesets = 0;
		else if (in_pagesets && strncmp(q, "count:", 6) == 0) {
			sum = (sum < 0 ? 0 : sum) + strtoll(q + 6, NULL, 10);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return sum;
}

void levels_parse(const char *meminfo, const char *zoneinfo, long page_bytes, struct levels *out)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {{"MemAvailable", offsetof(struct levels, mem_available)},
		      {"MemFree", offsetof(struct levels, mem_free)},
		      {"GPUActive", offsetof(struct levels, gpu_active)},
		      {"GPUReclaim", offsetof(struct levels, gpu_reclaim)}};
	struct kv_list l;
	int64_t pcp;
	out->mem_available = out->mem_free = out->pcp_bytes = -1;
	out->gpu_active = out->gpu_reclaim = -1;
	if (meminfo && kv_parse_meminfo(meminfo, &l) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			int found;
			int64_t v = kv_get(&l, fields[i].name, &found);
			if (found)
				*(int64_t *)((char *)out + fields[i].off) = v;
		}
		kv_free(&l);
	}
	pcp = zoneinfo ? levels_zoneinfo_pcp_pages(zoneinfo) : -1;
	if (pcp >= 0)
		out->pcp_bytes = pcp * page_bytes;
}

int levels_read(struct levels *out, int with_pcp)
{
	char *m = read_file_str("/proc/meminfo", NULL);
	char *z = with_pcp ? read_file_str("/proc/zoneinfo", NULL) : NULL;
	levels_parse(m, z, sysconf(_SC_PAGESIZE), out);
	free(m);
	free(z);
	return out->mem_available >= 0 ? 0 : -1;
}

int64_t levels_returnable(const struct levels *l)
{
	if (l->mem_available < 0)
		return -1;
	return l->mem_available + (l->pcp_bytes > 0 ? l->pcp_bytes : 0);
}

void levels_median(const struct levels *r, size_t n, struct levels *out)
{
	int64_t v[16];
	const size_t nf = sizeof(*out) / sizeof(int64_t);
	if (n > 16)
		n = 16;
	for (size_t f = 0; f < nf; f++) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			int64_t x = ((const int64_t *)&r[i])[f];
			if (x >= 0)
				v[k++] = x;
		}
		((int64_t *)out)[f] = k ? stats_median_i64(v, k) : -1;
	}
}
