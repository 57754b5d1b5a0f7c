/* fake.c - the fake GPU backend: the table gpu_backend_fake (backend.h) over
 * host memory, for the tests (t2002) and as the worked example of
 * docs/adding-a-backend.md. Built with make GPU_BACKEND=fake, or linked as
 * BUILD/mempath-fake with a build's host objects (make test-plain).
 *
 * One device, "mempath fake GPU (host memory)": device, pinned, managed and
 * registered memory are all host memory (malloc; registering does nothing),
 * so every pointer is one the "device" can use. Nothing is asynchronous: a
 * copy or launch queued on a stream runs to its end before the call returns,
 * a stream is a token, an event is the monotonic clock read when it is
 * recorded, so the time between two events is the host's time for the work
 * queued between them. What needs a second engine running beside the first
 * (peer devices, telemetry, CUPTI, a chase under load) says so and fails:
 * the probes that need it fail or skip with that reason.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fake_impl.h"

#define FAKE_NAME      "mempath fake GPU (host memory)"
#define FAKE_MEM_BYTES (8ull << 30) /* what it says it has; malloc decides */

static char last_err[512];
static unsigned long long scratch_words[4];
static int gate[2];
static int sched = GPU_SCHED_AUTO;

/* A stream is a token (work runs when queued); an event holds its time. */
struct gpu_stream {
	int unused;
};
struct gpu_event {
	uint64_t ns;
};

uint64_t fake_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int fake_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- availability, errors --------------------------------------------- */

static const char *fake_unsupported_reason(void)
{
	return NULL;
}

static int fake_count(void)
{
	return 1;
}

static const char *fake_error_name(int err)
{
	static const char *const names[FAKE_N_ERRORS] = {
		"fakeSuccess", "fakeErrorInvalidValue",
		"fakeErrorNotSupported (the fake backend runs one thing at a time)",
		"fakeErrorMemoryAllocation"};

	return err >= 0 && err < FAKE_N_ERRORS ? names[err] : "fakeErrorUnknown";
}

static void fake_set_error(const char *msg)
{
	snprintf(last_err, sizeof(last_err), "%s", msg);
}

static const char *fake_last_error(void)
{
	return last_err;
}

static void fake_clear_error(void)
{
}

/* ---- device facts ------------------------------------------------------- */

static int fake_get_props(int dev, struct gpu_props *p)
{
	if (dev != 0)
		return fake_error("fake backend: no device %d (it has one)", dev);
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", FAKE_NAME);
	p->sm_count = 2;
	p->max_threads_per_sm = 2048;
	p->smem_per_sm = 228 << 10;
	p->smem_per_block_optin = 227 << 10;
	p->smem_reserved_per_block = 1 << 10;
	p->l2_bytes = 16 << 10; /* small: gpu.stream's buffers are >= 8 x L2 */
	p->mem_bytes = FAKE_MEM_BYTES;
	p->host_numa_node = -1;
	return 0;
}

static int fake_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
	*free_bytes = *total_bytes = FAKE_MEM_BYTES;
	return 0;
}

static json_t *fake_sysinfo(void)
{
	return json_pack("[{s:i,s:s,s:s,s:i,s:I,s:I,s:s}]", "index", 0, "name", FAKE_NAME,
			 "backend", "fake", "sm_count", 2, "l2_bytes", (json_int_t)(16 << 10),
			 "mem_bytes", (json_int_t)FAKE_MEM_BYTES, "addressing_mode", "none");
}

/* ---- several devices: one here ------------------------------------------ */

static int fake_set_device(int dev)
{
	return dev == 0 ? 0 : fake_error("fake backend: no device %d (it has one)", dev);
}

static int fake_get_device(int *dev)
{
	*dev = 0;
	return 0;
}

static int fake_no_peer(void)
{
	return fake_error("fake backend: one device, no peers");
}

static int fake_can_access_peer(int dev, int peer, int *can)
{
	return fake_no_peer();
}

static int fake_p2p_attr(enum gpu_p2p_attr a, int src, int dst, int *v)
{
	return fake_no_peer();
}

static int fake_peer_enable(int dev, int peer, int *was_enabled)
{
	return fake_no_peer();
}

static int fake_peer_disable(int dev, int peer)
{
	return fake_no_peer();
}

static int fake_memcpy_peer_async(void *dst, int dst_dev, const void *src, int src_dev,
				  size_t bytes, struct gpu_stream *s)
{
	return fake_no_peer();
}

/* ---- context and scheduling --------------------------------------------- */

static int fake_context_create(enum gpu_sched s)
{
	sched = s;
	return 0;
}

static int fake_context_reset(void)
{
	sched = GPU_SCHED_AUTO;
	return 0;
}

static int fake_context_sched(void)
{
	return sched;
}

/* ---- memory: all of it host memory -------------------------------------- */

static int fake_malloc(void **p, size_t bytes)
{
	*p = NULL;
	if (posix_memalign(p, 4096, bytes ? bytes : 1)) {
		*p = NULL;
		return fake_error("malloc(%zu): %s", bytes, fake_error_name(FAKE_ENOMEM));
	}
	return 0;
}

static int fake_free(void *p)
{
	free(p);
	return 0;
}

static int fake_malloc_host(void **p, size_t bytes, int mapped)
{
	return fake_malloc(p, bytes);
}

static int fake_host_register(void *p, size_t bytes)
{
	return 0;
}

static int fake_host_unregister(void *p)
{
	return 0;
}

static int fake_host_device_ptr(void *host, void **dev)
{
	*dev = host;
	return 0;
}

static int fake_malloc_async(void **p, size_t bytes, struct gpu_stream *s)
{
	return fake_malloc(p, bytes);
}

static int fake_free_async(void *p, struct gpu_stream *s)
{
	free(p);
	return 0;
}

static int fake_pool_keep(int keep)
{
	return 0;
}

/* ---- copies, streams, events: done when queued ---------------------------- */

static int fake_memcpy(void *dst, const void *src, size_t bytes)
{
	memcpy(dst, src, bytes);
	return 0;
}

/* MEMPATH_FAKE_COPIES=N: asynchronous copies after the N-th land one page
 * short (what a probe's check of the destination must catch) */
static int fake_memcpy_async(void *dst, const void *src, size_t bytes, struct gpu_stream *s)
{
	static long left = -2;

	if (left == -2) {
		const char *e = getenv("MEMPATH_FAKE_COPIES");
		left = e ? atol(e) : -1;
	}
	if (left == 0 && bytes > 4096)
		bytes -= 4096;
	else if (left > 0)
		left--;
	memcpy(dst, src, bytes);
	return 0;
}

static int fake_memset_async(void *p, int value, size_t bytes, struct gpu_stream *s)
{
	memset(p, value, bytes);
	return 0;
}

static int fake_prefetch_async(const void *p, size_t bytes, int to_device, struct gpu_stream *s)
{
	return 0;
}

static int fake_stream_create(struct gpu_stream **s)
{
	*s = calloc(1, sizeof(**s));
	return *s ? 0 : fake_error("stream: %s", fake_error_name(FAKE_ENOMEM));
}

static int fake_stream_destroy(struct gpu_stream *s)
{
	free(s);
	return 0;
}

static int fake_stream_sync(struct gpu_stream *s)
{
	return 0;
}

static int fake_stream_wait_event(struct gpu_stream *s, struct gpu_event *e)
{
	return 0;
}

static int fake_device_sync(void)
{
	return 0;
}

static int fake_event_create(struct gpu_event **e)
{
	*e = calloc(1, sizeof(**e));
	return *e ? 0 : fake_error("event: %s", fake_error_name(FAKE_ENOMEM));
}

static int fake_event_destroy(struct gpu_event *e)
{
	free(e);
	return 0;
}

static int fake_event_record(struct gpu_event *e, struct gpu_stream *s)
{
	e->ns = fake_now_ns();
	return 0;
}

static int fake_event_sync(struct gpu_event *e)
{
	return 0;
}

static int fake_event_elapsed_ms(struct gpu_event *a, struct gpu_event *b, float *ms)
{
	*ms = (float)(((double)b->ns - (double)a->ns) * 1e-6);
	return 0;
}

static int fake_event_elapsed_ns(struct gpu_event *a, struct gpu_event *b, double *ns)
{
	*ns = (double)b->ns - (double)a->ns;
	return 0;
}

/* ---- device-side helpers ------------------------------------------------ */

static unsigned long long *fake_scratch(void)
{
	return scratch_words;
}

static int fake_scratch_read(unsigned long long *v)
{
	*v = scratch_words[0];
	return 0;
}

static int fake_pattern_fill(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s)
{
	return fake_launch_fill(p, bytes, seed, s);
}

static int fake_pattern_verify(const void *p, size_t bytes, uint64_t seed, uint64_t *bad)
{
	unsigned long long n = 0;

	fake_launch_verify(p, bytes, seed, &n, NULL);
	*bad = n;
	return 0;
}

static int fake_gate_words(volatile int **host, int **dev)
{
	*host = gate;
	*dev = gate;
	return 0;
}

/* ---- telemetry, CUPTI: none ----------------------------------------------- */

static const char *fake_telemetry_unavailable(void)
{
	return "fake backend: no telemetry";
}

static struct gpu_sampler *fake_sampler_start(unsigned period_ms)
{
	return NULL;
}

static void fake_sampler_stop(struct gpu_sampler *s, struct probe_result *res, const char *during)
{
}

static int fake_other_procs(const int *ours, size_t n_ours)
{
	return -1;
}

static void fake_other_procs_end(void)
{
}

static int fake_link_devices(char *why, size_t len)
{
	snprintf(why, len, "fake backend: no link counters");
	return -1;
}

static int fake_link_counters(unsigned dev, struct gpu_link_counters *out)
{
	return -1;
}

static json_t *fake_mem(const int *pids, size_t n_pids, const char **why)
{
	*why = "fake backend: no per-process GPU memory";
	return NULL;
}

static int fake_um_open(char *why, size_t len)
{
	snprintf(why, len, "fake backend: no unified-memory counters");
	return -1;
}

static int fake_um_read(struct gpu_um_totals *out)
{
	return -1;
}

static void fake_um_close(void)
{
}

/* ---- a process that holds memory (phantom) -------------------------------- */

static int fake_hold_memory(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen)
{
	void *p = NULL;

	if (fake_malloc(&p, (size_t)bytes)) {
		snprintf(err, errlen, "%s", last_err);
		return -1;
	}
	memset(p, 0x5a, (size_t)bytes);
	if (ready_fd >= 0 && write(ready_fd, "ok\n", 3) != 3) {
		snprintf(err, errlen, "cannot report readiness");
		free(p);
		return -1;
	}
	if (hold_s < 0)
		for (;;)
			pause();
	if (hold_s > 0) {
		struct timespec ts = {(time_t)hold_s,
				      (long)((hold_s - (double)(time_t)hold_s) * 1e9)};

		while (nanosleep(&ts, &ts) != 0)
			;
	}
	free(p);
	return 0;
}

/* The table backends.c returns in a GPU_BACKEND=fake build (or mempath-fake). */
const struct gpu_backend gpu_backend_fake = {
	.names = {.api = "fake",
		  .events = "host clock events (the fake runs work as it is queued)",
		  .telemetry = "no telemetry",
		  .timer = "CLOCK_MONOTONIC",
		  .cycle_clock = "a cycle counter",
		  .load = "plain C loads",
		  .load_streaming = "plain C loads (no streaming hint)",
		  .load_l2 = "plain C loads (no cache hint)",
		  .store = "plain C stores",
		  .store_streaming = "plain C stores (no streaming hint)",
		  .malloc = "posix_memalign",
		  .free = "free",
		  .malloc_async = "posix_memalign (synchronous)",
		  .free_async = "free (synchronous)",
		  .malloc_host = "posix_memalign",
		  .malloc_managed = "posix_memalign",
		  .host_register = "nothing (host memory already)",
		  .memcpy = "memcpy",
		  .memcpy_async = "memcpy (synchronous)",
		  .memcpy_peer_async = "no peer copy",
		  .prefetch_async = "nothing (no prefetch)",
		  .stream_sync = "nothing (work is done when queued)",
		  .context_create = "nothing (no context)",
		  .context_reset = "nothing (no context)",
		  .can_access_peer = "no peer access",
		  .peer_enable = "no peer access",
		  .p2p_attr = {"no peer attributes", "no peer attributes", "no peer attributes"}},
	.unsupported_reason = fake_unsupported_reason,
	.count = fake_count,
	.error_name = fake_error_name,
	.set_error = fake_set_error,
	.last_error = fake_last_error,
	.clear_error = fake_clear_error,
	.get_props = fake_get_props,
	.mem_info = fake_mem_info,
	.sysinfo = fake_sysinfo,
	.set_device = fake_set_device,
	.get_device = fake_get_device,
	.can_access_peer = fake_can_access_peer,
	.p2p_attr = fake_p2p_attr,
	.peer_enable = fake_peer_enable,
	.peer_disable = fake_peer_disable,
	.memcpy_peer_async = fake_memcpy_peer_async,
	.context_create = fake_context_create,
	.context_reset = fake_context_reset,
	.context_sched = fake_context_sched,
	.malloc = fake_malloc,
	.free = fake_free,
	.malloc_managed = fake_malloc,
	.malloc_host = fake_malloc_host,
	.free_host = fake_free,
	.host_register = fake_host_register,
	.host_unregister = fake_host_unregister,
	.host_device_ptr = fake_host_device_ptr,
	.malloc_async = fake_malloc_async,
	.free_async = fake_free_async,
	.pool_keep = fake_pool_keep,
	.pool_trim = fake_device_sync,
	.memcpy = fake_memcpy,
	.memcpy_async = fake_memcpy_async,
	.memset_async = fake_memset_async,
	.prefetch_async = fake_prefetch_async,
	.stream_create = fake_stream_create,
	.stream_destroy = fake_stream_destroy,
	.stream_sync = fake_stream_sync,
	.stream_wait_event = fake_stream_wait_event,
	.device_sync = fake_device_sync,
	.event_create = fake_event_create,
	.event_destroy = fake_event_destroy,
	.event_record = fake_event_record,
	.event_sync = fake_event_sync,
	.event_elapsed_ms = fake_event_elapsed_ms,
	.event_elapsed_ns = fake_event_elapsed_ns,
	.scratch = fake_scratch,
	.scratch_read = fake_scratch_read,
	.pattern_fill = fake_pattern_fill,
	.pattern_verify = fake_pattern_verify,
	.gate_words = fake_gate_words,
	.telemetry_unavailable = fake_telemetry_unavailable,
	.sampler_start = fake_sampler_start,
	.sampler_stop = fake_sampler_stop,
	.other_procs = fake_other_procs,
	.other_procs_end = fake_other_procs_end,
	.link_devices = fake_link_devices,
	.link_counters = fake_link_counters,
	.mem = fake_mem,
	.um_open = fake_um_open,
	.um_read = fake_um_read,
	.um_close = fake_um_close,
	.launch_gate = fake_launch_gate,
	.launch_fill = fake_launch_fill,
	.launch_verify = fake_launch_verify,
	.launch_sleep = fake_launch_sleep,
	.launch_fma = fake_launch_fma,
	.launch_read = fake_launch_read,
	.launch_read_l2 = fake_launch_read_l2,
	.launch_write = fake_launch_write,
	.launch_copy = fake_launch_copy,
	.launch_sectors = fake_launch_sectors,
	.launch_blocks = fake_launch_blocks,
	.launch_chain_build = fake_launch_chain_build,
	.launch_chase = fake_launch_chase,
	.launch_load_read = fake_launch_load_read,
	.launch_chase_loaded = fake_launch_chase_loaded,
	.hold_memory = fake_hold_memory,
};
