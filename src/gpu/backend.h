/* backend.h - the GPU backend table: everything mempath asks of a GPU.
 *
 * gpu_backend() (backends.c) returns the backend built in, chosen at build
 * time (make GPU_BACKEND=..., docs/adding-a-backend.md): the CUDA one
 * (gpu_backend_cuda, src/gpu/cuda/), the host-memory fake of the tests
 * (tests/gpu_fake/), or NULL when mempath was built without one (no nvcc, or
 * make GPU=0). Callers never include a vendor's headers: the types they need
 * are here, in neutral words. Streams and events are opaque (struct
 * gpu_stream, struct gpu_event: each backend casts them to its own handles);
 * the words a results file quotes for the API (its name, its allocator's,
 * its events') are the backend's (struct gpu_names). What probes build on the
 * table (timing loop, error checks, chase chains, peer devices) is
 * kit/gpu_kit.h and kit/gpu_peer.h.
 *
 * Never call any of this in a process that will fork probe children: GPU
 * contexts (CUDA's) do not survive fork. Probes run in children; sysinfo
 * collects GPU facts through runner_json_in_child().
 *
 * Device: every call works on the calling thread's current device, which is
 * device 0 of this process (CUDA: the first one CUDA_VISIBLE_DEVICES leaves)
 * unless a probe picks another with set_device() (gpu.p2p); memory, streams
 * and events belong to the device current when they were made.
 *
 * Errors: entries returning int give 0, or -1 after recording the failing
 * call's text and the backend's error name (CUDA: "cudaMalloc(p, bytes):
 * cudaErrorMemoryAllocation") as the last GPU error (last_error()). The
 * kernel launchers instead return the launch's error code (0 = success);
 * callers wrap them in GPU_CHECK() (kit/gpu_kit.h), which records them the
 * same way.
 *
 * Ownership: memory from the *alloc entries is the caller's until the
 * matching free; streams and events likewise. JSON returned is a new
 * reference. Entries a backend cannot provide still point at a function:
 * one that records why and returns -1 (NULL for pointers), so a probe that
 * needs it fails with that reason.
 */
#ifndef MEMPATH_GPU_BACKEND_H
#define MEMPATH_GPU_BACKEND_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/kernels/launch.h"
#include "gpu/um.h"

/* Opaque handles: the backend's own (CUDA: cudaStream_t, cudaEvent_t) cast
 * to these; NULL is the backend's default stream. */
struct gpu_stream;
struct gpu_event;
struct probe_result;

/* Device facts. */
struct gpu_props {
	char name[256];
	char pci_bus_id[32]; /* "0000:18:00.0", lower case (sysfs spelling) */
	int cc_major, cc_minor;
	int sm_count;
	int max_threads_per_sm;
	/* shared memory: per SM, the most one block may ask for (opt-in), and
	 * what the system keeps per block (gpu.loaded keeps one block per SM by
	 * asking for more than half an SM's) */
	uint64_t smem_per_sm, smem_per_block_optin, smem_reserved_per_block;
	uint64_t l2_bytes;
	uint64_t mem_bytes;	/* total device memory */
	int pageable_access;	/* cudaDevAttrPageableMemoryAccess */
	int pageable_host_pt;	/* ...PageableMemoryAccessUsesHostPageTables (ATS) */
	int concurrent_managed; /* cudaDevAttrConcurrentManagedAccess */
	int host_numa_node;	/* sysfs numa_node of the GPU's PCI function, -1 unknown */
	int driver_version;	/* cudaDriverGetVersion: 13000 = 13.0 */
	int runtime_version;	/* cudaRuntimeGetVersion */
};

/* "ATS" (pageable access through the host page tables), "HMM" (pageable
 * access, own page tables) or "none". */
static inline const char *gpu_addressing_mode(const struct gpu_props *p)
{
	if (p->pageable_access > 0)
		return p->pageable_host_pt > 0 ? "ATS" : "HMM";
	return "none";
}

/* How a host thread waits for the device. */
enum gpu_sched { GPU_SCHED_AUTO = 0, GPU_SCHED_SPIN, GPU_SCHED_YIELD, GPU_SCHED_BLOCKING };

static inline const char *gpu_sched_name(int sched)
{
	static const char *const names[] = {"auto", "spin", "yield", "blocking"};

	return sched >= 0 && sched < 4 ? names[sched] : "unknown";
}

/* Attributes of the link between two devices. */
enum gpu_p2p_attr { GPU_P2P_ACCESS, GPU_P2P_NATIVE_ATOMICS, GPU_P2P_PERF_RANK };

/* A background thread sampling device 0 (NVML). */
struct gpu_sampler;

/* What link_counters reads; the policies in NVML's order (power, thermal,
 * sync boost, board limit, low utilisation, reliability). */
#define GPU_THROTTLE_N 6
struct gpu_link_counters {
	int64_t pcie_tx_bytes, pcie_rx_bytes;
	/* the bytes on the link each way, TLP headers and framing included: the
	 * link's throughput counters integrated since the first read */
	int64_t pcie_tx_link_bytes, pcie_rx_link_bytes;
	int64_t throttle_ns[GPU_THROTTLE_N];
};

/* The words a results file quotes for what the backend does: method texts,
 * parameters and FAIL reasons name the API's calls and the device's
 * instructions through these, never as literals, so a second backend's
 * results speak its own API. Every field is set (the CUDA values, in
 * brackets, are what results files have always said). */
struct gpu_names {
	const char *api;       /* the API, one word ("CUDA") */
	const char *events;    /* how device work is timed ("CUDA events") */
	const char *telemetry; /* the read-only device monitor ("NVML") */
	/* the device's clocks: the ns timer kernels read ("%globaltimer"), the
	 * cycle counter the chase does not use ("clock64") */
	const char *timer, *cycle_clock;
	/* 16 B accesses of the kernels: the default load of a read-only buffer
	 * ("ld.global.nc"), streaming, evict-first ("ld.global.cs"), through the
	 * L2 only ("ld.global.cg"); the default and streaming stores
	 * ("st.global", "st.global.cs") */
	const char *load, *load_streaming, *load_l2, *store, *store_streaming;
	/* the API calls behind the entries of the same name ("cudaMalloc",
	 * "cudaFree", "cudaMallocAsync", "cudaFreeAsync", "cudaHostAlloc",
	 * "cudaMallocManaged", "cudaHostRegister", "cudaMemcpy",
	 * "cudaMemcpyAsync", "cudaMemcpyPeerAsync", "cudaMemPrefetchAsync",
	 * "cudaStreamSynchronize") */
	const char *malloc, *free, *malloc_async, *free_async, *malloc_host, *malloc_managed,
		*host_register, *memcpy, *memcpy_async, *memcpy_peer_async, *prefetch_async,
		*stream_sync;
	/* context_create's and context_reset's calls ("cudaSetDeviceFlags",
	 * "cudaDeviceReset") */
	const char *context_create, *context_reset;
	/* peer entries' calls ("cudaDeviceCanAccessPeer",
	 * "cudaDeviceEnablePeerAccess") and p2p_attr's attributes by enum
	 * gpu_p2p_attr, the first with the call's name ("cudaDeviceGetP2PAttribute
	 * AccessSupported", "NativeAtomicSupported", "PerformanceRank") */
	const char *can_access_peer, *peer_enable, *p2p_attr[3];
};

struct gpu_backend {
	/* What the results file says of this backend (struct gpu_names). */
	struct gpu_names names;

	/* ---- availability, errors ---------------------------------------- */

	/* NULL when at least one device is usable, else why not ("no CUDA
	 * device: cudaErrorNoDevice"). Initialises the driver (not a context):
	 * call it only in a probe or sysinfo child. */
	const char *(*unsupported_reason)(void);
	/* Number of usable devices (0 if none). */
	int (*count)(void);
	/* The name of a nonzero backend error code (cudaGetErrorName). */
	const char *(*error_name)(int err);
	/* Records msg as the last GPU error / the last GPU error ("" if none). */
	void (*set_error)(const char *msg);
	const char *(*last_error)(void);
	/* Clears the runtime's latched error (cudaGetLastError), so a probe that
	 * goes on after a failed measurement does not see it again in the next
	 * launcher's check. A sticky error (context lost) stays: later calls fail. */
	void (*clear_error)(void);

	/* ---- device facts -------------------------------------------------- */

	/* Facts of device dev. Creates no context. */
	int (*get_props)(int dev, struct gpu_props *p);
	/* Free and total memory of the current device now (cudaMemGetInfo;
	 * creates the context). */
	int (*mem_info)(uint64_t *free_bytes, uint64_t *total_bytes);
	/* GPU part of the fingerprint: an array of per-device objects (name, cc,
	 * SMs, L2, memory, addressing mode, PCIe link, persistence, host NUMA
	 * node, and "driver": NVreg and nvidia_uvm parameters, driver and CUDA
	 * versions), or NULL. Creates no context. */
	json_t *(*sysinfo)(void);

	/* ---- several devices (gpu.p2p) ------------------------------------- */

	/* Makes dev the calling thread's current device (cudaSetDevice: creates
	 * its primary context) / reads it. */
	int (*set_device)(int dev);
	int (*get_device)(int *dev);
	/* cudaDeviceCanAccessPeer: whether dev can map peer's memory, into *can. */
	int (*can_access_peer)(int dev, int peer, int *can);
	/* cudaDeviceGetP2PAttribute of the link src -> dst: AccessSupported,
	 * NativeAtomicSupported, PerformanceRank (lower is faster), into *v. */
	int (*p2p_attr)(enum gpu_p2p_attr a, int src, int dst, int *v);
	/* Lets dev map peer's memory (cudaDeviceEnablePeerAccess with dev
	 * current); *was_enabled = 1 when it already could (nothing changed,
	 * nothing to undo). The current device is kept. */
	int (*peer_enable)(int dev, int peer, int *was_enabled);
	/* Undoes peer_enable (cudaDeviceDisablePeerAccess); the current device
	 * is kept. */
	int (*peer_disable)(int dev, int peer);
	/* cudaMemcpyPeerAsync on s (a stream of either device): the driver
	 * stages it through host memory when the stream's device cannot map the
	 * other's memory. */
	int (*memcpy_peer_async)(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
				 struct gpu_stream *s);

	/* ---- context and scheduling ---------------------------------------- */

	/* Sets how a host thread waits for the device (cudaSetDeviceFlags) and
	 * creates the primary context with it. Call it before anything else
	 * touches the device, or after context_reset(). */
	int (*context_create)(enum gpu_sched sched);
	/* Destroys this process's primary context and everything in it
	 * (cudaDeviceReset). Resets no hardware and no other process's state. */
	int (*context_reset)(void);
	/* The scheduling mode the context really has (cudaGetDeviceFlags), or -1. */
	int (*context_sched)(void);

	/* ---- memory -------------------------------------------------------- */

	int (*malloc)(void **p, size_t bytes);	       /* cudaMalloc */
	int (*free)(void *p);			       /* NULL ok */
	int (*malloc_managed)(void **p, size_t bytes); /* cudaMallocManaged, global */
	/* Pinned host memory (cudaHostAlloc); mapped = 1 also maps it for the
	 * device (get the device address with host_device_ptr). */
	int (*malloc_host)(void **p, size_t bytes, int mapped);
	int (*free_host)(void *p); /* NULL ok */
	/* Pins existing host memory (cudaHostRegister, mapped, portable). */
	int (*host_register)(void *p, size_t bytes);
	int (*host_unregister)(void *p);
	int (*host_device_ptr)(void *host, void **dev);
	/* Stream-ordered allocation from the device's default pool. keep = 1
	 * sets the pool's release threshold to UINT64_MAX (freed memory stays in
	 * the pool), 0 sets it to 0; pool_trim() gives the pool's unused memory
	 * back. */
	int (*malloc_async)(void **p, size_t bytes, struct gpu_stream *s);
	int (*free_async)(void *p, struct gpu_stream *s);
	int (*pool_keep)(int keep);
	int (*pool_trim)(void);

	/* ---- copies, streams, events --------------------------------------- */

	int (*memcpy)(void *dst, const void *src, size_t bytes); /* synchronous, any direction */
	int (*memcpy_async)(void *dst, const void *src, size_t bytes, struct gpu_stream *s);
	int (*memset_async)(void *p, int value, size_t bytes, struct gpu_stream *s);
	/* cudaMemPrefetchAsync of managed memory to the device (to_device = 1) or
	 * to the host. */
	int (*prefetch_async)(const void *p, size_t bytes, int to_device, struct gpu_stream *s);

	int (*stream_create)(struct gpu_stream **s); /* non-blocking stream */
	int (*stream_destroy)(struct gpu_stream *s); /* NULL ok */
	int (*stream_sync)(struct gpu_stream *s);
	/* Work queued on s after this waits for e (cudaStreamWaitEvent). */
	int (*stream_wait_event)(struct gpu_stream *s, struct gpu_event *e);
	int (*device_sync)(void);

	int (*event_create)(struct gpu_event **e);
	int (*event_destroy)(struct gpu_event *e); /* NULL ok */
	int (*event_record)(struct gpu_event *e, struct gpu_stream *s);
	int (*event_sync)(struct gpu_event *e);
	/* Time from a to b, both complete (cudaEventElapsedTime), in ms. */
	int (*event_elapsed_ms)(struct gpu_event *a, struct gpu_event *b, float *ms);
	/* Waits for b, then the time from a to b in nanoseconds (event
	 * resolution ~0.5 us). */
	int (*event_elapsed_ns)(struct gpu_event *a, struct gpu_event *b, double *ns);

	/* ---- device-side helpers ------------------------------------------- */

	/* A small scratch word on the current device for kernel results
	 * (reductions, chase positions): valid until its context is reset. */
	unsigned long long *(*scratch)(void);
	/* Reads the scratch word (synchronous). */
	int (*scratch_read)(unsigned long long *v);
	/* Fills device memory with pattern words (kernels/pattern.h) /
	 * counts words differing from them (synchronous; *bad = 0 means the
	 * data is intact). */
	int (*pattern_fill)(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s);
	int (*pattern_verify)(const void *p, size_t bytes, uint64_t seed, uint64_t *bad);
	/* The timing gate's two words ([0] release flag, [1] timed out) in
	 * pinned host memory mapped for the device: host and device addresses.
	 * Allocated on first use, forgotten when the context is reset. */
	int (*gate_words)(volatile int **host, int **dev);

	/* ---- NVML: loaded with dlopen, read only ---------------------------- */

	/* NULL when NVML answers for device 0, else why not. */
	const char *(*telemetry_unavailable)(void);
	/* Starts sampling device 0 every period_ms: SM and memory clocks,
	 * power, temperature, utilisation, clock-event (throttle) reasons;
	 * NULL (and nothing to do) when NVML is absent. */
	struct gpu_sampler *(*sampler_start)(unsigned period_ms);
	/* Stops, records metrics "sm_clock" (MHz), "mem_clock" (MHz), "power"
	 * (W), "temperature" (C), "gpu_util" (%), "mem_util" (%) labelled
	 * during=<during> into res, and the fraction of samples each throttle
	 * reason was active into res->extra.nvml.<during>; frees s. NULL s does
	 * nothing. */
	void (*sampler_stop)(struct gpu_sampler *s, struct probe_result *res, const char *during);
	/* Compute processes on any GPU but the n_ours pids given, by NVML
	 * alone (no CUDA: the parent of a probe calls it, docs/design.md
	 * §4.14); -1 when NVML cannot say. */
	int (*other_procs)(const int *ours, size_t n_ours);
	/* Shuts down what other_procs opened (NVML), so that a probe's child
	 * forked later starts with NVML untouched: NVML initialised in a parent
	 * does not work in its forked child (seen on the H200 machine). */
	void (*other_procs_end)(void);
	/* For the counters around each sample window (docs/design.md §4.17):
	 * how many devices NVML sees (NVML's order), or -1 with why; and one
	 * device's cumulative counters: PCIe bytes each way (NVML field values
	 * PCIE_COUNT_TX/RX_BYTES; and nvmlDeviceGetPcieThroughput's 20 ms
	 * windows integrated by a thread from the first read on, the link's
	 * bytes with their TLP overhead) and the time each clock-limiting policy held
	 * the clocks down (nvmlDeviceGetViolationStatus, ns), -1 where NVML does
	 * not say. 0, or -1 when the device cannot be read. */
	int (*link_devices)(char *why, size_t len);
	int (*link_counters)(unsigned dev, struct gpu_link_counters *out);
	/* GPU memory now, by NVML alone (no CUDA context: wrap's parent calls
	 * it between its forks, docs/design.md §2.6, §11.8): a new object of
	 * devices by NVML index ("0": {"name", "used_bytes", "total_bytes",
	 * "procs_bytes": NVML's used memory of the pids given, summed, absent
	 * where the driver does not say per process; "procs_seen": whether
	 * any of them holds a context there}), or NULL with *why. NVML stays
	 * initialised: other_procs_end() before the next fork. */
	json_t *(*mem)(const int *pids, size_t n_pids, const char **why);

	/* ---- CUPTI: loaded with dlopen, unified-memory counters ------------ */

	/* Starts counting this process's unified-memory events through CUPTI's
	 * Activity API (docs/design.md §4.20): call it after the driver is
	 * initialised (unsupported_reason()) and before the first context, or
	 * CUPTI may miss records. The totals counted (bits 1 << enum
	 * gpu_um_counter: every kind, or where CUPTI refuses one, the four of
	 * bytes each way and faults), or -1 with why (no libcupti, the CUPTI
	 * error's name and message). */
	int (*um_open)(char *why, size_t len);
	/* Flushes CUPTI's buffers and gives the totals since um_open (um.h).
	 * 0, or -1 when not open or the flush failed. */
	int (*um_read)(struct gpu_um_totals *out);
	/* Stops counting (the library stays loaded). */
	void (*um_close)(void);

	/* ---- kernel launchers (kernels/launch.h says what each does) -------- */

	int (*launch_gate)(volatile int *flag, int *timed_out, uint64_t timeout_ns,
			   struct gpu_stream *s);
	int (*launch_fill)(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s);
	int (*launch_verify)(const void *p, size_t bytes, uint64_t seed, unsigned long long *bad,
			     struct gpu_stream *s);
	int (*launch_sleep)(uint64_t ns, struct gpu_stream *s);
	int (*launch_fma)(float *out, unsigned blocks, unsigned threads, unsigned iters,
			  struct gpu_stream *s);
	int (*launch_read)(const void *p, size_t bytes, const struct gpu_grid *g, int streaming,
			   unsigned long long *out, struct gpu_stream *s);
	int (*launch_write)(void *p, size_t bytes, const struct gpu_grid *g, int streaming,
			    uint64_t seed, struct gpu_stream *s);
	int (*launch_copy)(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
			   struct gpu_stream *s);
	int (*launch_read_l2)(const void *p, size_t chunk_bytes, unsigned regions,
			      const struct gpu_grid *g, unsigned long long *out,
			      struct gpu_stream *s);
	int (*launch_sectors)(const void *base, uint64_t span, uint64_t distinct,
			      uint64_t per_thread, uint64_t seed, const struct gpu_grid *g,
			      unsigned long long *out, struct gpu_stream *s);
	int (*launch_blocks)(const void *base, uint64_t span, uint64_t block_bytes,
			     uint64_t per_warp, uint64_t seed, const struct gpu_grid *g,
			     unsigned long long *out, struct gpu_stream *s);
	int (*launch_chain_build)(uint64_t *buf, const uint32_t *seq, uint64_t n,
				  uint64_t stride_words, struct gpu_stream *s);
	int (*launch_chase)(const uint64_t *buf, uint64_t steps, uint64_t *pos, unsigned threads,
			    struct gpu_stream *s);
	int (*launch_load_read)(const void *p, size_t bytes, unsigned blocks, size_t smem_bytes,
				struct gpu_load_ctl *ctl, uint64_t max_ns, struct gpu_stream *s);
	int (*launch_chase_loaded)(const uint64_t *buf, uint64_t steps, uint64_t *pos,
				   struct gpu_load_ctl *ctl, unsigned wait_blocks, uint64_t wait_ns,
				   size_t smem_bytes, struct gpu_stream *s);

	/* ---- a process that holds device memory (phantom) -------------------- */

	/* cudaMalloc(bytes), writes every byte (cudaMemset, synchronised, so
	 * the driver really backs it), writes "ok\n" to ready_fd (if >= 0),
	 * holds it hold_s seconds (< 0: until killed), then frees it and
	 * returns; the caller exits next, so what `mempath phantom` watches is
	 * the free and the process exit. Only in a child that exits right
	 * after. Returns 0, or -1 with the failing call and error in err. */
	int (*hold_memory)(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen);
};

/* The backend built in, or NULL when mempath was built without one. */
const struct gpu_backend *gpu_backend(void);

/* Why GPU work cannot run here, or NULL when it can: "built without CUDA
 * (no nvcc at build time, or make GPU=0)" without a backend, else the
 * backend's unsupported_reason(). The one reason every GPU probe, sysinfo and
 * phantom give. */
const char *gpu_unsupported_reason(void);

#endif
