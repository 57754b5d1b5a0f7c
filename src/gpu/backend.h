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
 * reference. An entry a backend cannot provide it leaves NULL: gpu_backend()
 * gives the table with a default there (GPU_ENTRIES says which: mostly a
 * refusal that records why and returns -1), so a probe that needs it fails
 * with that reason, and every entry callers see points at a function.
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
 * parameters, FAIL reasons and doctor's advice name the API's calls and the
 * device's instructions through these, never as literals, so a second
 * backend's results speak its own API. A field a backend leaves NULL reads
 * as its own name ("malloc_async"), except api, which every backend sets.
 * In brackets, what the CUDA backend says (what results files have always
 * said). */
#define GPU_NAMES(X)                                                                    \
	X(api)		   /* the API, one word ("CUDA") */                             \
	X(events)	   /* how device work is timed ("CUDA events") */               \
	X(telemetry)	   /* the read-only device monitor ("NVML") */                  \
	X(timer)	   /* the ns timer kernels read ("%globaltimer") */             \
	X(cycle_clock)	   /* the cycle counter the chase does not use ("clock64") */   \
	X(load)		   /* 16 B load of a read-only buffer ("ld.global.nc") */       \
	X(load_streaming)  /* streaming, evict-first ("ld.global.cs") */                \
	X(load_l2)	   /* through the L2 only ("ld.global.cg") */                   \
	X(store)	   /* the default store ("st.global") */                        \
	X(store_streaming) /* streaming store ("st.global.cs") */                       \
	/* the calls behind the entries of the same name */                             \
	X(malloc)	     /* "cudaMalloc" */                                         \
	X(free)		     /* "cudaFree" */                                           \
	X(malloc_async)	     /* "cudaMallocAsync" */                                    \
	X(free_async)	     /* "cudaFreeAsync" */                                      \
	X(malloc_host)	     /* "cudaHostAlloc" */                                      \
	X(malloc_managed)    /* "cudaMallocManaged" */                                  \
	X(host_register)     /* "cudaHostRegister" */                                   \
	X(memcpy)	     /* "cudaMemcpy" */                                         \
	X(memcpy_async)	     /* "cudaMemcpyAsync" */                                    \
	X(memcpy_peer_async) /* "cudaMemcpyPeerAsync" */                                \
	X(prefetch_async)    /* "cudaMemPrefetchAsync" */                               \
	X(stream_sync)	     /* "cudaStreamSynchronize" */                              \
	X(context_create)    /* "cudaSetDeviceFlags" */                                 \
	X(context_reset)     /* "cudaDeviceReset" */                                    \
	X(can_access_peer)   /* "cudaDeviceCanAccessPeer" */                            \
	X(peer_enable)	     /* "cudaDeviceEnablePeerAccess" */                         \
	/* context_create's spinning wait, GPU_SCHED_SPIN ("cudaDeviceScheduleSpin") */ \
	X(sched_spin)

struct gpu_names {
#define GPU_NAME_FIELD(field) const char *field;
	GPU_NAMES(GPU_NAME_FIELD)
#undef GPU_NAME_FIELD
	/* p2p_attr's attributes by enum gpu_p2p_attr, the first with the
	 * call's name ("cudaDeviceGetP2PAttribute AccessSupported",
	 * "NativeAtomicSupported", "PerformanceRank"); NULL reads as
	 * "p2p_attr" */
	const char *p2p_attr[3];
};

/* The table's entries, declared once: X(return type, name, need, default,
 * parameters). struct gpu_backend below is made from this list, and so
 * are what gpu_backend() puts in an entry a backend left NULL and the check
 * it makes of a backend's table when it is first asked for it (backends.c):
 *   need MUST: the backend must write it (device discovery: whether a device
 *     is there, how many, their facts); a table without one is refused, its
 *     unsupported_reason naming the entry;
 *   need CORE: what every measurement uses (memory, a copy, streams and
 *     events); a backend that leaves one out discovers devices only: sysinfo
 *     lists them and every GPU probe skips, saying which entries it lacks
 *     (gpu_unsupported_reason);
 *   need MAY: left out, a probe that needs it fails with why.
 * The default of an entry left NULL: INT, PTR, LAUNCH a refusal that records
 * "<api> backend: no <entry>" as the last error and returns -1, NULL or
 * GPU_REFUSED (a launcher's error code, GPU_CHECK keeps the refusal's text);
 * VOID one that does nothing; OWN backends.c's own (the last-error record,
 * error names, a fingerprint from get_props, the telemetry's and CUPTI's
 * "not here" answers with their why); NONE (MUST) none. */
// clang-format off
#define GPU_ENTRIES(X)                                                                             \
	/* ---- availability, errors ---------------------------------------- */                   \
                                                                                                   \
	/* NULL when at least one device is usable, else why not ("no CUDA                         \
	 * device: cudaErrorNoDevice"). Initialises the driver (not a context):                    \
	 * call it only in a probe or sysinfo child. */                                            \
	X(const char *, unsupported_reason, MUST, NONE, (void))                                    \
	/* Number of usable devices (0 if none). */                                                \
	X(int, count, MUST, NONE, (void))                                                          \
	/* The name of a nonzero backend error code (cudaGetErrorName). */                         \
	X(const char *, error_name, MAY, OWN, (int err))                                           \
	/* Records msg as the last GPU error / the last GPU error ("" if none). */                 \
	X(void, set_error, MAY, OWN, (const char *msg))                                            \
	X(const char *, last_error, MAY, OWN, (void))                                              \
	/* Clears the runtime's latched error (cudaGetLastError), so a probe that                  \
	 * goes on after a failed measurement does not see it again in the next                    \
	 * launcher's check. A sticky error (context lost) stays: later calls fail. */             \
	X(void, clear_error, MAY, OWN, (void))                                                     \
                                                                                                   \
	/* ---- device facts -------------------------------------------------- */                 \
                                                                                                   \
	/* Facts of device dev. Creates no context. */                                             \
	X(int, get_props, MUST, NONE, (int dev, struct gpu_props *p))                              \
	/* Free and total memory of the current device now (cudaMemGetInfo;                        \
	 * creates the context). */                                                                \
	X(int, mem_info, MAY, INT, (uint64_t *free_bytes, uint64_t *total_bytes))                  \
	/* GPU part of the fingerprint: an array of per-device objects (name, cc,                  \
	 * SMs, L2, memory, addressing mode, PCIe link, persistence, host NUMA                     \
	 * node, and "driver": NVreg and nvidia_uvm parameters, driver and CUDA                    \
	 * versions), or NULL. Creates no context. */                                              \
	X(json_t *, sysinfo, MAY, OWN, (void))                                                     \
                                                                                                   \
	/* ---- several devices (gpu.p2p) ------------------------------------- */                 \
                                                                                                   \
	/* Makes dev the calling thread's current device (cudaSetDevice: creates                   \
	 * its primary context) / reads it. */                                                     \
	X(int, set_device, MAY, INT, (int dev))                                                    \
	X(int, get_device, MAY, INT, (int *dev))                                                   \
	/* cudaDeviceCanAccessPeer: whether dev can map peer's memory, into *can. */               \
	X(int, can_access_peer, MAY, INT, (int dev, int peer, int *can))                           \
	/* cudaDeviceGetP2PAttribute of the link src -> dst: AccessSupported,                      \
	 * NativeAtomicSupported, PerformanceRank (lower is faster), into *v. */                   \
	X(int, p2p_attr, MAY, INT, (enum gpu_p2p_attr a, int src, int dst, int *v))                \
	/* Lets dev map peer's memory (cudaDeviceEnablePeerAccess with dev                         \
	 * current); *was_enabled = 1 when it already could (nothing changed,                      \
	 * nothing to undo). The current device is kept. */                                        \
	X(int, peer_enable, MAY, INT, (int dev, int peer, int *was_enabled))                       \
	/* Undoes peer_enable (cudaDeviceDisablePeerAccess); the current device                    \
	 * is kept. */                                                                             \
	X(int, peer_disable, MAY, INT, (int dev, int peer))                                        \
	/* cudaMemcpyPeerAsync on s (a stream of either device): the driver                        \
	 * stages it through host memory when the stream's device cannot map the                   \
	 * other's memory. */                                                                      \
	X(int, memcpy_peer_async, MAY, INT, (void *dst, int dst_dev, const void *src,              \
	  int src_dev, size_t bytes, struct gpu_stream *s))                                        \
                                                                                                   \
	/* ---- context and scheduling ---------------------------------------- */                 \
                                                                                                   \
	/* Sets how a host thread waits for the device (cudaSetDeviceFlags) and                    \
	 * creates the primary context with it. Call it before anything else                       \
	 * touches the device, or after context_reset(). */                                        \
	X(int, context_create, MAY, INT, (enum gpu_sched sched))                                   \
	/* Destroys this process's primary context and everything in it                            \
	 * (cudaDeviceReset). Resets no hardware and no other process's state. */                  \
	X(int, context_reset, MAY, INT, (void))                                                    \
	/* The scheduling mode the context really has (cudaGetDeviceFlags), or -1. */              \
	X(int, context_sched, MAY, INT, (void))                                                    \
                                                                                                   \
	/* ---- memory -------------------------------------------------------- */                 \
                                                                                                   \
	X(int, malloc, CORE, INT, (void **p, size_t bytes)) /* cudaMalloc */                       \
	X(int, free, CORE, INT, (void *p)) /* NULL ok */                                           \
	X(int, malloc_managed, MAY, INT, (void **p, size_t bytes)) /* cudaMallocManaged,           \
	  global */                                                                                \
	/* Pinned host memory (cudaHostAlloc); mapped = 1 also maps it for the                     \
	 * device (get the device address with host_device_ptr). */                                \
	X(int, malloc_host, MAY, INT, (void **p, size_t bytes, int mapped))                        \
	X(int, free_host, MAY, INT, (void *p)) /* NULL ok */                                       \
	/* Pins existing host memory (cudaHostRegister, mapped, portable). */                      \
	X(int, host_register, MAY, INT, (void *p, size_t bytes))                                   \
	X(int, host_unregister, MAY, INT, (void *p))                                               \
	X(int, host_device_ptr, MAY, INT, (void *host, void **dev))                                \
	/* Stream-ordered allocation from the device's default pool. keep = 1                      \
	 * sets the pool's release threshold to UINT64_MAX (freed memory stays in                  \
	 * the pool), 0 sets it to 0; pool_trim() gives the pool's unused memory                   \
	 * back. */                                                                                \
	X(int, malloc_async, MAY, INT, (void **p, size_t bytes, struct gpu_stream *s))             \
	X(int, free_async, MAY, INT, (void *p, struct gpu_stream *s))                              \
	X(int, pool_keep, MAY, INT, (int keep))                                                    \
	X(int, pool_trim, MAY, INT, (void))                                                        \
                                                                                                   \
	/* ---- copies, streams, events --------------------------------------- */                 \
                                                                                                   \
	X(int, memcpy, CORE, INT, (void *dst, const void *src, size_t bytes)) /* synchronous,      \
	  any direction */                                                                         \
	X(int, memcpy_async, MAY, INT, (void *dst, const void *src, size_t bytes,                  \
	  struct gpu_stream *s))                                                                   \
	X(int, memset_async, MAY, INT, (void *p, int value, size_t bytes, struct gpu_stream *s))   \
	/* cudaMemPrefetchAsync of managed memory to the device (to_device = 1) or                 \
	 * to the host. */                                                                         \
	X(int, prefetch_async, MAY, INT, (const void *p, size_t bytes, int to_device,              \
	  struct gpu_stream *s))                                                                   \
                                                                                                   \
	X(int, stream_create, CORE, INT, (struct gpu_stream **s)) /* non-blocking stream */        \
	X(int, stream_destroy, CORE, INT, (struct gpu_stream *s)) /* NULL ok */                    \
	X(int, stream_sync, CORE, INT, (struct gpu_stream *s))                                     \
	/* Work queued on s after this waits for e (cudaStreamWaitEvent). */                       \
	X(int, stream_wait_event, MAY, INT, (struct gpu_stream *s, struct gpu_event *e))           \
	X(int, device_sync, CORE, INT, (void))                                                     \
                                                                                                   \
	X(int, event_create, CORE, INT, (struct gpu_event **e))                                    \
	X(int, event_destroy, CORE, INT, (struct gpu_event *e)) /* NULL ok */                      \
	X(int, event_record, CORE, INT, (struct gpu_event *e, struct gpu_stream *s))               \
	X(int, event_sync, MAY, INT, (struct gpu_event *e))                                        \
	/* Time from a to b, both complete (cudaEventElapsedTime), in ms. */                       \
	X(int, event_elapsed_ms, CORE, INT, (struct gpu_event *a, struct gpu_event *b,             \
	  float *ms))                                                                              \
	/* Waits for b, then the time from a to b in nanoseconds (event                            \
	 * resolution ~0.5 us). */                                                                 \
	X(int, event_elapsed_ns, MAY, INT, (struct gpu_event *a, struct gpu_event *b,              \
	  double *ns))                                                                             \
                                                                                                   \
	/* ---- device-side helpers ------------------------------------------- */                 \
                                                                                                   \
	/* A small scratch word on the current device for kernel results                           \
	 * (reductions, chase positions): valid until its context is reset. */                     \
	X(unsigned long long *, scratch, MAY, PTR, (void))                                         \
	/* Reads the scratch word (synchronous). */                                                \
	X(int, scratch_read, MAY, INT, (unsigned long long *v))                                    \
	/* Fills device memory with pattern words (kernels/pattern.h) /                            \
	 * counts words differing from them (synchronous; *bad = 0 means the                       \
	 * data is intact). */                                                                     \
	X(int, pattern_fill, MAY, INT, (void *p, size_t bytes, uint64_t seed,                      \
	  struct gpu_stream *s))                                                                   \
	X(int, pattern_verify, MAY, INT, (const void *p, size_t bytes, uint64_t seed,              \
	  uint64_t *bad))                                                                          \
	/* The timing gate's two words ([0] release flag, [1] timed out) in                        \
	 * pinned host memory mapped for the device: host and device addresses.                    \
	 * Allocated on first use, forgotten when the context is reset. */                         \
	X(int, gate_words, MAY, INT, (volatile int **host, int **dev))                             \
                                                                                                   \
	/* ---- NVML: loaded with dlopen, read only ---------------------------- */                \
                                                                                                   \
	/* NULL when NVML answers for device 0, else why not. */                                   \
	X(const char *, telemetry_unavailable, MAY, OWN, (void))                                   \
	/* Starts sampling device 0 every period_ms: SM and memory clocks,                         \
	 * power, temperature, utilisation, clock-event (throttle) reasons;                        \
	 * NULL (and nothing to do) when NVML is absent. */                                        \
	X(struct gpu_sampler *, sampler_start, MAY, PTR, (unsigned period_ms))                     \
	/* Stops, records metrics "sm_clock" (MHz), "mem_clock" (MHz), "power"                     \
	 * (W), "temperature" (C), "gpu_util" (%), "mem_util" (%) labelled                         \
	 * during=<during> into res, and the fraction of samples each throttle                     \
	 * reason was active into res->extra.nvml.<during>; frees s. NULL s does                   \
	 * nothing. */                                                                             \
	X(void, sampler_stop, MAY, VOID, (struct gpu_sampler *s, struct probe_result *res,         \
	  const char *during))                                                                     \
	/* Compute processes on any GPU but the n_ours pids given, by NVML                         \
	 * alone (no CUDA: the parent of a probe calls it, docs/design.md                          \
	 * §4.14); -1 when NVML cannot say. */                                                     \
	X(int, other_procs, MAY, INT, (const int *ours, size_t n_ours))                            \
	/* Shuts down what other_procs opened (NVML), so that a probe's child                      \
	 * forked later starts with NVML untouched: NVML initialised in a parent                   \
	 * does not work in its forked child (seen on the H200 machine). */                        \
	X(void, other_procs_end, MAY, VOID, (void))                                                \
	/* For the counters around each sample window (docs/design.md §4.17):                      \
	 * how many devices NVML sees (NVML's order), or -1 with why; and one                      \
	 * device's cumulative counters: PCIe bytes each way (NVML field values                    \
	 * PCIE_COUNT_TX/RX_BYTES; and nvmlDeviceGetPcieThroughput's 20 ms                         \
	 * windows integrated by a thread from the first read on, the link's                       \
	 * bytes with their TLP overhead) and the time each clock-limiting policy held             \
	 * the clocks down (nvmlDeviceGetViolationStatus, ns), -1 where NVML does                  \
	 * not say. 0, or -1 when the device cannot be read. */                                    \
	X(int, link_devices, MAY, OWN, (char *why, size_t len))                                    \
	X(int, link_counters, MAY, INT, (unsigned dev, struct gpu_link_counters *out))             \
	/* GPU memory now, by NVML alone (no CUDA context: wrap's parent calls                     \
	 * it between its forks, docs/design.md §2.6, §11.8): a new object of                      \
	 * devices by NVML index ("0": {"name", "used_bytes", "total_bytes",                       \
	 * "procs_bytes": NVML's used memory of the pids given, summed, absent                     \
	 * where the driver does not say per process; "procs_seen": whether                        \
	 * any of them holds a context there}), or NULL with *why. NVML stays                      \
	 * initialised: other_procs_end() before the next fork. */                                 \
	X(json_t *, mem, MAY, OWN, (const int *pids, size_t n_pids, const char **why))             \
                                                                                                   \
	/* ---- CUPTI: loaded with dlopen, unified-memory counters ------------ */                 \
                                                                                                   \
	/* Starts counting this process's unified-memory events through CUPTI's                    \
	 * Activity API (docs/design.md §4.20): call it after the driver is                        \
	 * initialised (unsupported_reason()) and before the first context, or                     \
	 * CUPTI may miss records. The totals counted (bits 1 << enum                              \
	 * gpu_um_counter: every kind, or where CUPTI refuses one, the four of                     \
	 * bytes each way and faults), or -1 with why (no libcupti, the CUPTI                      \
	 * error's name and message). */                                                           \
	X(int, um_open, MAY, OWN, (char *why, size_t len))                                         \
	/* Flushes CUPTI's buffers and gives the totals since um_open (um.h).                      \
	 * 0, or -1 when not open or the flush failed. */                                          \
	X(int, um_read, MAY, INT, (struct gpu_um_totals *out))                                     \
	/* Stops counting (the library stays loaded). */                                           \
	X(void, um_close, MAY, VOID, (void))                                                       \
                                                                                                   \
	/* ---- kernel launchers (kernels/launch.h says what each does) -------- */                \
                                                                                                   \
	X(int, launch_gate, MAY, LAUNCH, (volatile int *flag, int *timed_out,                      \
	  uint64_t timeout_ns, struct gpu_stream *s))                                              \
	X(int, launch_fill, MAY, LAUNCH, (void *p, size_t bytes, uint64_t seed,                    \
	  struct gpu_stream *s))                                                                   \
	X(int, launch_verify, MAY, LAUNCH, (const void *p, size_t bytes, uint64_t seed,            \
	  unsigned long long *bad, struct gpu_stream *s))                                          \
	X(int, launch_sleep, MAY, LAUNCH, (uint64_t ns, struct gpu_stream *s))                     \
	X(int, launch_fma, MAY, LAUNCH, (float *out, unsigned blocks, unsigned threads,            \
	  unsigned iters, struct gpu_stream *s))                                                   \
	X(int, launch_read, MAY, LAUNCH, (const void *p, size_t bytes, const struct gpu_grid *g,   \
	  int streaming, unsigned long long *out, struct gpu_stream *s))                           \
	X(int, launch_write, MAY, LAUNCH, (void *p, size_t bytes, const struct gpu_grid *g,        \
	  int streaming, uint64_t seed, struct gpu_stream *s))                                     \
	X(int, launch_copy, MAY, LAUNCH, (void *dst, const void *src, size_t bytes,                \
	  const struct gpu_grid *g, struct gpu_stream *s))                                         \
	X(int, launch_read_l2, MAY, LAUNCH, (const void *p, size_t chunk_bytes, unsigned regions,  \
	  const struct gpu_grid *g, unsigned long long *out, struct gpu_stream *s))                \
	X(int, launch_sectors, MAY, LAUNCH, (const void *base, uint64_t span, uint64_t distinct,   \
	  uint64_t per_thread, uint64_t seed, const struct gpu_grid *g, unsigned long long *out,   \
	  struct gpu_stream *s))                                                                   \
	X(int, launch_blocks, MAY, LAUNCH, (const void *base, uint64_t span,                       \
	  uint64_t block_bytes, uint64_t per_warp, uint64_t seed, const struct gpu_grid *g,        \
	  unsigned long long *out, struct gpu_stream *s))                                          \
	X(int, launch_chain_build, MAY, LAUNCH, (uint64_t *buf, const uint32_t *seq, uint64_t n,   \
	  uint64_t stride_words, struct gpu_stream *s))                                            \
	X(int, launch_chase, MAY, LAUNCH, (const uint64_t *buf, uint64_t steps, uint64_t *pos,     \
	  unsigned threads, struct gpu_stream *s))                                                 \
	X(int, launch_load_read, MAY, LAUNCH, (const void *p, size_t bytes, unsigned blocks,       \
	  size_t smem_bytes, struct gpu_load_ctl *ctl, uint64_t max_ns, struct gpu_stream *s))     \
	X(int, launch_chase_loaded, MAY, LAUNCH, (const uint64_t *buf, uint64_t steps,             \
	  uint64_t *pos, struct gpu_load_ctl *ctl, unsigned wait_blocks, uint64_t wait_ns,         \
	  size_t smem_bytes, struct gpu_stream *s))                                                \
                                                                                                   \
	/* ---- a process that holds device memory (phantom) -------------------- */               \
                                                                                                   \
	/* cudaMalloc(bytes), writes every byte (cudaMemset, synchronised, so                      \
	 * the driver really backs it), writes "ok\n" to ready_fd (if >= 0),                       \
	 * holds it hold_s seconds (< 0: until killed), then frees it and                          \
	 * returns; the caller exits next, so what `mempath phantom` watches is                    \
	 * the free and the process exit. Only in a child that exits right                         \
	 * after. Returns 0, or -1 with the failing call and error in err. */                      \
	X(int, hold_memory, MAY, OWN, (uint64_t bytes, double hold_s, int ready_fd, char *err,     \
	  size_t errlen))
// clang-format on

/* A launcher's code for an entry the backend left out (its refusal recorded
 * why as the last error); backends' own codes are >= 0. */
#define GPU_REFUSED (-2)

struct gpu_backend {
	/* What the results file says of this backend (struct gpu_names). */
	struct gpu_names names;
#define GPU_ENTRY_FIELD(ret, name, need, dflt, params) ret(*name) params;
	GPU_ENTRIES(GPU_ENTRY_FIELD)
#undef GPU_ENTRY_FIELD
};

/* The backend built in, checked and completed (every entry a function:
 * GPU_ENTRIES' defaults where it left one NULL), or NULL when mempath was
 * built without one. */
const struct gpu_backend *gpu_backend(void);

/* Completes the table in into out: GPU_ENTRIES' defaults in the entries and
 * names it left NULL. 0, or -1 with why (len bytes: the MUST entries or the
 * api name it lacks, or the error entries it gives only some of) when it
 * must be refused; out is complete either way, its unsupported_reason then
 * giving why. gpu_backend() does this once for the backend built in; the
 * unit tests for tables of their own. */
int gpu_backend_complete(const struct gpu_backend *in, struct gpu_backend *out, char *why,
			 size_t len);

/* Why no GPU is seen here, or NULL when one is: "built without CUDA (no
 * nvcc at build time, or make GPU=0)" without a backend, else the
 * backend's unsupported_reason() (a refused table's why). sysinfo lists the
 * devices when this is NULL. */
const char *gpu_absent_reason(void);

/* Why GPU work cannot run here, or NULL when it can: gpu_absent_reason(),
 * or, for a backend that discovers devices only (it leaves a CORE entry
 * out), "the <api> backend discovers devices only: no malloc, ...". The
 * one reason every GPU probe and phantom give. */
const char *gpu_unsupported_reason(void);

/* The word the backend built in has for field of struct gpu_names
 * (GPU_NAME(malloc)), or, without a backend, the field's name: for texts
 * that are printed in any build (doctor's advice). */
#define GPU_NAME(field) (gpu_backend() ? gpu_backend()->names.field : #field)

#endif
