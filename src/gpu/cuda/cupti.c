/* cupti.c - the CUDA backend's CUPTI part: unified-memory counters (GPU and
 * CPU page faults, bytes migrated each way, thrashing, throttling, remote
 * maps) from CUPTI's Activity API, loaded at run time with dlopen from the
 * CUDA toolkit (docs/design.md §4.20). Read only: nothing here changes what
 * the driver does beyond asking it to report.
 *
 * cupti_um_open() loads libcupti, registers the buffer callbacks, configures
 * every unified-memory counter and enables CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_
 * COUNTER: after the driver is initialised (cuInit: a probe's supported()
 * has run cudaGetDeviceCount) and before the probe makes its context, as
 * CUPTI asks. Each cupti_um_read() flushes CUPTI's buffers
 * (cuptiActivityFlushAll) and returns the totals of every record handed
 * back since the open (um.c sums them); the counters layer takes the
 * difference at each window's ends.
 *
 * No cupti.h needed: the few prototypes are declared below as CUPTI's C ABI
 * has them (results and enums are ints); where the toolkit's header is there
 * the record's layout is checked against it at build time.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cuda/cuda_impl.h"
#include "gpu/um.h"

#if defined(__has_include)
#if __has_include(<cupti_activity.h>) && __has_include(<cupti_version.h>)
#include <cupti_activity.h>
#include <cupti_version.h>
#include <stddef.h>
#endif
#endif
#if defined(CUPTI_API_VERSION) && CUPTI_API_VERSION >= 130000 /* Counter3: CUDA 13's */
_Static_assert(offsetof(CUpti_ActivityUnifiedMemoryCounter3, counterKind) ==
			       offsetof(struct gpu_um_record, counter_kind) &&
		       offsetof(CUpti_ActivityUnifiedMemoryCounter3, value) ==
			       offsetof(struct gpu_um_record, value) &&
		       offsetof(CUpti_ActivityUnifiedMemoryCounter3, flags) ==
			       offsetof(struct gpu_um_record, flags),
	       "struct gpu_um_record is not the head of CUPTI's record");
_Static_assert((int)CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER == GPU_UM_ACTIVITY_KIND &&
		       (int)CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD ==
			       (int)GPU_UM_KIND_DTOD,
	       "CUPTI's kinds moved");
#endif

#define UM_BUFFER_BYTES (1u << 20)	 /* one activity buffer: 10000 records */
enum { CUPTI_OK = 0, FLUSH_FORCED = 1 }; /* CUPTI_SUCCESS, CUPTI_ACTIVITY_FLAG_FLUSH_FORCED */

/* CUpti_ActivityUnifiedMemoryCounterConfig */
struct um_config {
	uint32_t scope, kind, device_id, enable;
};
typedef void (*buf_requested_fn)(uint8_t **buf, size_t *size, size_t *max_records);
typedef void (*buf_completed_fn)(void *ctx, uint32_t stream, uint8_t *buf, size_t size,
				 size_t valid);

static struct {
	int open, counted; /* counted: the totals configured (1 << enum gpu_um_counter) */
	void *lib;
	char path[256];
	pthread_mutex_t lock;
	struct gpu_um_totals t;
	int (*configure)(struct um_config *, uint32_t);
	int (*enable)(int kind);
	int (*disable)(int kind);
	int (*register_cb)(buf_requested_fn, buf_completed_fn);
	int (*flush_all)(uint32_t flag);
	gpu_um_next_fn next_record; /* cuptiActivityGetNextRecord */
	int (*dropped)(void *ctx, uint32_t stream, size_t *n);
	int (*result_string)(int result, const char **s);
	int (*error_message)(int result, const char **s); /* CUPTI 12.5 and later */
} cu = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* "cuptiX: CUPTI_ERROR_Y: message (the library)" into why; -1. */
static int cupti_failed(int rc, const char *call, char *why, size_t len)
{
	const char *name = NULL, *msg = NULL;
	if (!cu.result_string || cu.result_string(rc, &name) != CUPTI_OK)
		name = NULL;
	if (!cu.error_message || cu.error_message(rc, &msg) != CUPTI_OK ||
	    (msg && name && !strcmp(msg, name)))
		msg = NULL;
	snprintf(why, len, "%s: %s%s%s (%s)", call, name ? name : "CUPTI error", msg ? ": " : "",
		 msg ? msg : "", cu.path);
	if (!name)
		snprintf(why + strlen(why), len - strlen(why), " %d", rc);
	return -1;
}

static void um_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	*buf = aligned_alloc(8, UM_BUFFER_BYTES);
	*size = *buf ? UM_BUFFER_BYTES : 0;
	*max_records = 0;
}

static void um_completed(void *ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
	struct gpu_um_totals add;
	size_t dropped = 0;

	memset(&add, 0, sizeof(add));
	gpu_um_add_buffer(&add, buf, valid, cu.next_record);
	if (cu.dropped && cu.dropped(ctx, stream, &dropped) != CUPTI_OK)
		dropped = 0;
	pthread_mutex_lock(&cu.lock);
	for (int k = 0; k < GPU_UM_N; k++)
		cu.t.v[k] += add.v[k];
	cu.t.records += add.records;
	cu.t.ignored += add.ignored;
	cu.t.dropped += dropped;
	pthread_mutex_unlock(&cu.lock);
	free(buf);
}

/* libcupti from the toolkit's folders, then the loader's path. */
static int load(char *why, size_t len)
{
	static const char *const names[] = {"libcupti.so.13", "libcupti.so"};
	static const char *const dirs[] = {"/usr/local/cuda/lib64/",
					   "/usr/local/cuda/extras/CUPTI/lib64/", ""};
	const char *err = NULL;

	for (size_t d = 0; !cu.lib && d < sizeof(dirs) / sizeof(*dirs); d++)
		for (size_t n = 0; !cu.lib && n < sizeof(names) / sizeof(*names); n++) {
			snprintf(cu.path, sizeof(cu.path), "%s%s", dirs[d], names[n]);
			if (!(cu.lib = dlopen(cu.path, RTLD_NOW | RTLD_LOCAL)))
				err = dlerror(); /* the last: the loader's own search */
		}
	if (!cu.lib) {
		snprintf(why, len,
			 "no libcupti: neither libcupti.so.13 nor libcupti.so in "
			 "/usr/local/cuda/lib64, /usr/local/cuda/extras/CUPTI/lib64 or on the "
			 "loader's path (%s)",
			 err ? err : "dlopen failed");
		return -1;
	}
	*(void **)&cu.configure = dlsym(cu.lib, "cuptiActivityConfigureUnifiedMemoryCounter");
	*(void **)&cu.enable = dlsym(cu.lib, "cuptiActivityEnable");
	*(void **)&cu.disable = dlsym(cu.lib, "cuptiActivityDisable");
	*(void **)&cu.register_cb = dlsym(cu.lib, "cuptiActivityRegisterCallbacks");
	*(void **)&cu.flush_all = dlsym(cu.lib, "cuptiActivityFlushAll");
	*(void **)&cu.next_record = dlsym(cu.lib, "cuptiActivityGetNextRecord");
	*(void **)&cu.dropped = dlsym(cu.lib, "cuptiActivityGetNumDroppedRecords");
	*(void **)&cu.result_string = dlsym(cu.lib, "cuptiGetResultString");
	*(void **)&cu.error_message = dlsym(cu.lib, "cuptiGetErrorMessage");
	if (!cu.configure || !cu.enable || !cu.disable || !cu.register_cb || !cu.flush_all ||
	    !cu.next_record) {
		snprintf(why, len, "%s lacks the Activity API's unified-memory calls", cu.path);
		return -1;
	}
	return 0;
}

/* Configures the counter kinds of `kinds` (bits 1 << kind); the mask of
 * totals they count (um.h), or -1 with CUPTI's code in *rc. */
static int configure(unsigned kinds, int *rc)
{
	struct um_config cfg[GPU_UM_KIND_N];
	unsigned n = 0, counted = 0;

	for (unsigned k = 1; k < GPU_UM_KIND_N; k++) /* scope and device: unused since CUDA 7 */
		if (kinds & (1u << k)) {
			cfg[n++] = (struct um_config){.scope = 2, .kind = k, .enable = 1};
			counted |= 1u << gpu_um_total(k);
		}
	return (*rc = cu.configure(cfg, n)) == CUPTI_OK ? (int)counted : -1;
}

int cupti_um_open(char *why, size_t len)
{
	/* every kind; where CUPTI refuses one, the four every platform has */
	const unsigned core = 1u << GPU_UM_KIND_HTOD | 1u << GPU_UM_KIND_DTOH |
			      1u << GPU_UM_KIND_CPU_PAGE_FAULT | 1u << GPU_UM_KIND_GPU_PAGE_FAULT;
	int rc, counted;

	if (cu.open)
		return cu.counted;
	if (load(why, len))
		return -1;
	if ((rc = cu.register_cb(um_requested, um_completed)) != CUPTI_OK)
		return cupti_failed(rc, "cuptiActivityRegisterCallbacks", why, len);
	if ((counted = configure((1u << GPU_UM_KIND_N) - 2, &rc)) < 0) {
		int first = rc;
		if ((counted = configure(core, &rc)) < 0)
			return cupti_failed(first, "cuptiActivityConfigureUnifiedMemoryCounter",
					    why, len);
	}
	if ((rc = cu.enable(GPU_UM_ACTIVITY_KIND)) != CUPTI_OK)
		return cupti_failed(rc, "cuptiActivityEnable(UNIFIED_MEMORY_COUNTER)", why, len);
	memset(&cu.t, 0, sizeof(cu.t));
	cu.open = 1;
	return cu.counted = counted;
}

int cupti_um_read(struct gpu_um_totals *out)
{
	if (!cu.open || cu.flush_all(FLUSH_FORCED) != CUPTI_OK)
		return -1;
	pthread_mutex_lock(&cu.lock);
	*out = cu.t;
	pthread_mutex_unlock(&cu.lock);
	return 0;
}

void cupti_um_close(void)
{
	if (!cu.open)
		return;
	cu.flush_all(FLUSH_FORCED);
	cu.disable(GPU_UM_ACTIVITY_KIND);
	cu.open = 0; /* the library stays: CUPTI is not made to be unloaded */
}
