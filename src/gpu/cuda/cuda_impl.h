/* cuda_impl.h - private to the CUDA backend (cuda.c, cuda_facts.c,
 * cuda_info.c, peer.c, nvml.c): what its files share. Everyone else reaches
 * these through the table (backend.h); tools/layers lets only src/gpu/
 * include this header.
 */
#ifndef MEMPATH_GPU_CUDA_IMPL_H
#define MEMPATH_GPU_CUDA_IMPL_H

#include <jansson.h>
#include <stdint.h>

#include "gpu/backend.h"

/* The opaque handles of backend.h are the runtime's: cudaStream_t is
 * `struct CUstream_st *`, cudaEvent_t `struct CUevent_st *`. For files that
 * include the runtime's header. */
#define CU_S(s) ((cudaStream_t)(s))
#define CU_E(e) ((cudaEvent_t)(e))

/* ---- cuda_facts.c: errors, availability, device facts ------------------- */

/* err is a cudaError_t (0 = success). Otherwise records "<text>: <error
 * name>" as the last GPU error and returns -1. Every CUDA runtime call of the
 * backend goes through CUDA_CHECK(). */
int cuda_check(int err, const char *text);
#define CUDA_CHECK(call) cuda_check((int)(call), #call)
/* Records a formatted message as the last GPU error; returns -1. */
int cuda_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cuda_set_error(const char *msg);
const char *cuda_last_error(void);
const char *cuda_error_name(int err);
void cuda_clear_error(void);
/* Sets CUDA_MODULE_LOADING=EAGER unless the user set it; before the first
 * CUDA call. */
void cuda_env(void);

const char *cuda_unsupported_reason(void);
int cuda_count(void);
int cuda_get_props(int dev, struct gpu_props *p);
int cuda_mem_info(uint64_t *free_bytes, uint64_t *total_bytes);
int cuda_set_device(int dev);
int cuda_get_device(int *dev);

/* ---- cuda_info.c: the fingerprint --------------------------------------- */

json_t *cuda_sysinfo(void);

/* ---- peer.c ------------------------------------------------------------- */

int cuda_can_access_peer(int dev, int peer, int *can);
int cuda_p2p_attr(enum gpu_p2p_attr a, int src, int dst, int *v);
int cuda_peer_enable(int dev, int peer, int *was_enabled);
int cuda_peer_disable(int dev, int peer);
int cuda_memcpy_peer_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
			   struct gpu_stream *s);

/* ---- nvml.c ------------------------------------------------------------- */

const char *nvml_unavailable(void);
/* NVML facts for the device at pci_bus_id (persistence, PCIe link, power
 * limit, max clocks, driver version, BAR1 size, NVLinks up) into obj; absent facts stay absent.
 * Returns 0 or -1 (NVML absent or the device unknown to it). */
int nvml_sysinfo(const char *pci_bus_id, json_t *obj);
struct gpu_sampler *nvml_sampler_start(unsigned period_ms);
void nvml_sampler_stop(struct gpu_sampler *s, struct probe_result *res, const char *during);
int nvml_other_procs(const int *ours, size_t n_ours);
json_t *nvml_mem(const int *pids, size_t n_pids, const char **why);
void nvml_release(void);
int nvml_link_devices(char *why, size_t len);
int nvml_link_counters(unsigned dev, struct gpu_link_counters *out);
/* nvml_link.c: the bytes on device dev's PCIe link each way since the first
 * call (its throughput counter integrated), -1 each where NVML lacks it. */
int nvml_link_bytes(unsigned dev, int64_t *tx, int64_t *rx);

/* ---- cupti.c ------------------------------------------------------------ */

int cupti_um_open(char *why, size_t len);
int cupti_um_read(struct gpu_um_totals *out);
void cupti_um_close(void);

#endif
