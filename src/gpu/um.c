/* um.c - unified-memory counter records summed (um.h, docs/design.md §4.20). */
#include "gpu/um.h"

static const char *const names[GPU_UM_N] = {
	[GPU_UM_GPU_PAGE_FAULTS] = "gpu_page_faults", [GPU_UM_CPU_PAGE_FAULTS] = "cpu_page_faults",
	[GPU_UM_HTOD_BYTES] = "htod_bytes",	      [GPU_UM_DTOH_BYTES] = "dtoh_bytes",
	[GPU_UM_DTOD_BYTES] = "dtod_bytes",	      [GPU_UM_THRASHING] = "thrashing",
	[GPU_UM_THROTTLING] = "throttling",	      [GPU_UM_REMOTE_MAP] = "remote_map",
};

const char *gpu_um_name(unsigned k)
{
	return k < GPU_UM_N ? names[k] : NULL;
}

/* counter kind -> total, and whether the record adds its value (bytes,
 * fault groups) or one (an event whose value is not a count) */
static const struct {
	int total, by_value;
} to[GPU_UM_KIND_N] = {
	[0] = {-1, 0},
	[GPU_UM_KIND_HTOD] = {GPU_UM_HTOD_BYTES, 1},
	[GPU_UM_KIND_DTOH] = {GPU_UM_DTOH_BYTES, 1},
	[GPU_UM_KIND_CPU_PAGE_FAULT] = {GPU_UM_CPU_PAGE_FAULTS, 0},
	[GPU_UM_KIND_GPU_PAGE_FAULT] = {GPU_UM_GPU_PAGE_FAULTS, 1},
	[GPU_UM_KIND_THRASHING] = {GPU_UM_THRASHING, 0},
	[GPU_UM_KIND_THROTTLING] = {GPU_UM_THROTTLING, 0},
	[GPU_UM_KIND_REMOTE_MAP] = {GPU_UM_REMOTE_MAP, 0},
	[GPU_UM_KIND_DTOD] = {GPU_UM_DTOD_BYTES, 1},
};

int gpu_um_total(unsigned kind)
{
	return kind < GPU_UM_KIND_N ? to[kind].total : -1;
}

void gpu_um_add(struct gpu_um_totals *t, const struct gpu_um_record *r)
{
	int k;

	if (r->kind != GPU_UM_ACTIVITY_KIND || r->counter_kind >= GPU_UM_KIND_N ||
	    (k = to[r->counter_kind].total) < 0) {
		t->ignored++;
		return;
	}
	t->v[k] += to[r->counter_kind].by_value ? (int64_t)r->value : 1;
	t->records++;
}

size_t gpu_um_add_buffer(struct gpu_um_totals *t, uint8_t *buf, size_t valid, gpu_um_next_fn next)
{
	void *rec = NULL;
	size_t n = 0;

	while (buf && valid && next(buf, valid, &rec) == 0 && rec) {
		gpu_um_add(t, rec);
		n++;
	}
	return n;
}
