/* um.h - CUPTI's unified-memory counters (docs/design.md §4.20): the
 * activity records CUPTI hands back (CUpti_ActivityUnifiedMemoryCounter*,
 * their stable first fields declared here, as cupti_activity.h lays them out)
 * and their sums, the totals a counters window reads.
 *
 * Built with every backend and without one (make GPU=0): the summing is
 * plain C on records, tested on synthetic ones (tests/unit/test_um.c); only
 * cuda/cupti.c, built with CUDA, loads CUPTI and feeds it real records.
 */
#ifndef MEMPATH_GPU_UM_H
#define MEMPATH_GPU_UM_H

#include <stddef.h>
#include <stdint.h>

/* CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER */
#define GPU_UM_ACTIVITY_KIND 25

/* CUpti_ActivityUnifiedMemoryCounterKind: what a record counts. */
enum gpu_um_kind {
	GPU_UM_KIND_HTOD = 1,		/* value: bytes moved host -> device */
	GPU_UM_KIND_DTOH = 2,		/* value: bytes moved device -> host */
	GPU_UM_KIND_CPU_PAGE_FAULT = 3, /* one record a fault (value: its PC) */
	GPU_UM_KIND_GPU_PAGE_FAULT = 4, /* value: fault groups of one page */
	GPU_UM_KIND_THRASHING = 5,	/* one record a region seen thrashing */
	GPU_UM_KIND_THROTTLING = 6,	/* one record a throttling */
	GPU_UM_KIND_REMOTE_MAP = 7,	/* one record a region mapped remotely */
	GPU_UM_KIND_DTOD = 8,		/* value: bytes moved device -> device */
	GPU_UM_KIND_N
};

/* The first 64 bytes of a unified-memory counter record (the same in
 * CUpti_ActivityUnifiedMemoryCounter2 and 3; cuda/cupti.c checks the offsets
 * against the toolkit's header where it has one). */
struct gpu_um_record {
	uint32_t kind;	       /* GPU_UM_ACTIVITY_KIND */
	uint32_t counter_kind; /* enum gpu_um_kind */
	uint64_t value;
	uint64_t start, end; /* ns, CUPTI's clock */
	uint64_t address;
	uint32_t src_id, dst_id, stream_id, process_id, flags, pad;
};

/* The totals, one counter each, in the order of gpu_um_name(). */
enum gpu_um_counter {
	GPU_UM_GPU_PAGE_FAULTS, /* sum of the GPU fault records' values */
	GPU_UM_CPU_PAGE_FAULTS, /* CPU fault records */
	GPU_UM_HTOD_BYTES,
	GPU_UM_DTOH_BYTES,
	GPU_UM_DTOD_BYTES,
	GPU_UM_THRASHING, /* records */
	GPU_UM_THROTTLING,
	GPU_UM_REMOTE_MAP,
	GPU_UM_N
};

struct gpu_um_totals {
	int64_t v[GPU_UM_N];
	uint64_t records; /* every record summed */
	uint64_t ignored; /* records of another kind or counter kind */
	uint64_t dropped; /* records CUPTI said it dropped (no buffer) */
};

/* The total a counter kind adds to (enum gpu_um_counter), -1 for none. */
int gpu_um_total(unsigned kind);
/* "gpu_page_faults", "cpu_page_faults", "htod_bytes", ...; NULL past the last. */
const char *gpu_um_name(unsigned k);
/* Adds one record to t (a record of another activity kind, or of a
 * counter kind not listed, is counted as ignored). */
void gpu_um_add(struct gpu_um_totals *t, const struct gpu_um_record *r);

/* cuptiActivityGetNextRecord's shape: *rec NULL asks for the first record
 * of buf, else the record after *rec; 0 with *rec set, or non-zero at the
 * end (CUPTI_ERROR_MAX_LIMIT_REACHED) or on a bad record. */
typedef int (*gpu_um_next_fn)(uint8_t *buf, size_t valid, void **rec);
/* Adds every record of a buffer CUPTI completed (valid bytes), walked with
 * next; returns how many records it walked. */
size_t gpu_um_add_buffer(struct gpu_um_totals *t, uint8_t *buf, size_t valid, gpu_um_next_fn next);

#endif
